#!/usr/bin/env bash
# Compiles every .grc example with grcc and runs every example headless with small sizes.
# Usage: run_examples.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
export PYTHONPATH="$build/test_modules${PYTHONPATH:+:$PYTHONPATH}"
export GRC_BLOCKS_PATH="$src/grc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for g in "$src"/examples/*.grc; do
  echo "== grcc $(basename "$g")"
  grcc -o "$work" "$g"
done
for py in "$work"/*.py; do
  echo "== run $(basename "$py")"
  timeout 300 /usr/bin/python3 "$py"
done
echo "== viterbi_ccsds_demo.py"
timeout 300 /usr/bin/python3 "$src/examples/viterbi_ccsds_demo.py" --bits 200000
echo "== ldpc_loopback.py"
timeout 300 /usr/bin/python3 "$src/examples/ldpc_loopback.py" --frames 100
timeout 300 /usr/bin/python3 "$src/examples/ldpc_loopback.py" --frames 50 --code 802.16e:2304:2/3A --ebn0 3
echo "== ldpc_loopback.py (CCSDS: AR4JA k = 1024 rate 1/2 as sent, the telecommand (512, 256) code)"
timeout 300 /usr/bin/python3 "$src/examples/ldpc_loopback.py" --frames 40 --code ccsds:2048:1024 --ebn0 2.5 --check
timeout 300 /usr/bin/python3 "$src/examples/ldpc_loopback.py" --frames 40 --code ccsds:512:256 --ebn0 3.5 --check
echo "== nr_transport_loopback.py (5G NR transport blocks of both base graphs; rv 0 and 2 combined)"
timeout 300 /usr/bin/python3 "$src/examples/nr_transport_loopback.py" --blocks 9 --check
timeout 300 /usr/bin/python3 "$src/examples/nr_transport_loopback.py" --blocks 6 --rvs 0,2 --ebn0 0.5 --check
echo "== dvbs2_fec_receiver.py (gr-dtv's DVB-S2 BCH and LDPC encoders -> AWGN -> LDPC + BCH)"
timeout 300 /usr/bin/python3 "$src/examples/dvbs2_fec_receiver.py" --frames 30 --check
timeout 300 /usr/bin/python3 "$src/examples/dvbs2_fec_receiver.py" --frame normal --rate 9/10 --ebn0 4.2 --frames 6 --check
echo "== ldpc_vs_grfec.py"
timeout 300 /usr/bin/python3 "$src/examples/ldpc_vs_grfec.py" --frames 20 --code 802.16e:576:1/2
echo "== lte_transport_loopback.py (transport blocks of several code blocks, every K on one decoder)"
timeout 300 /usr/bin/python3 "$src/examples/lte_transport_loopback.py" --blocks 12 --ebn0 2 --check
echo "== benchmark_flowgraph.py"
timeout 300 /usr/bin/python3 "$src/examples/benchmark_flowgraph.py" --bits 200000 --devices cpu,auto
echo "== zmq_soft_frames.py (two flowgraphs, two processes, over loopback)"
timeout 300 /usr/bin/python3 "$src/examples/zmq_soft_frames.py" loopback --frames 3000 --check --port 5567
echo "== ccsds_tm_receiver.py (a synthetic recording, inverted and with G2 uninverted, back to frames)"
timeout 300 /usr/bin/python3 "$src/examples/ccsds_tm_receiver.py" selftest
