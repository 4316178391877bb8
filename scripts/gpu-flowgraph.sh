#!/usr/bin/env bash
# On the GPU machine: runs GNU Radio flowgraphs with the gr-gpufec blocks from a bundle made by
# gr-bundle.sh (GNU Radio runtime + a gr-gpufec install prefix built with CUDA), then the
# error-rate runs. Usage: scripts/gpu-flowgraph.sh BUNDLE_DIR OUT_DIR
set -uo pipefail
bundle=$1 out=$2
mkdir -p "$out"
source "$bundle/gr-env.sh" "$bundle"
py=python3.11
export PYTHONUNBUFFERED=1
{
echo "== demo (device cuda)"
if [ "${SKIP_VITERBI:-0}" != 1 ]; then
$py examples/viterbi_ccsds_demo.py --device cuda --bits 20000000
echo "== flowgraph benchmark"
$py examples/benchmark_flowgraph.py --bits 200000000 --reps 3 --devices cuda,cpu
fi
echo "== LDPC loopback (device cuda)"
$py examples/ldpc_loopback.py --device cuda --frames 4000
$py examples/ldpc_loopback.py --device cuda --frames 4000 --code 802.16e:2304:1/2 --ebn0 2.0
echo "== LDPC against gr-fec's ldpc_decoder"
$py examples/ldpc_vs_grfec.py --frames 400 --devices cuda,cpu
echo "== gr_unittest QA on the GPU (device=auto)"
for t in qa_conv_encoder qa_viterbi_decoder qa_viterbi_vs_grfec qa_ldpc; do $py python/gpufec/$t.py 2>&1 | tail -4; done
} 2>&1 | grep -v ':info:' | tee "$out/flowgraph.txt"
if [ "${SKIP_BER:-0}" != 1 ]; then
  echo "== error rates: streaming D=512 L=42 against full-length terminated frames" | tee -a "$out/flowgraph.txt"
  gpufec_ber -f viterbi -o "code=ccsds, mode=streaming, block_len=512, traceback=42" --device cuda \
      --ebn0 2:0.5:5 --min-frame-errors 0 --min-bit-errors 500 --max-bits 3e8 -q --csv "$out/ber_stream_D512_L42.csv" | tee -a "$out/flowgraph.txt"
  gpufec_ber -f viterbi -o "code=ccsds, mode=terminated, frame_bits=65536" --device cuda \
      --ebn0 2:0.5:5 --min-frame-errors 0 --min-bit-errors 500 --max-bits 3e8 -q --csv "$out/ber_full_length.csv" | tee -a "$out/flowgraph.txt"
fi
