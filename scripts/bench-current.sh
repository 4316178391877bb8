#!/usr/bin/env bash
# The figures of docs/performance.md, one command per family (on the GPU machine, after
# scripts/gpu-check.sh built the apps): decoded information bits per second, host memory to
# host memory, every transfer included, the median of the runs; and one-frame latencies.
# Usage: scripts/bench-current.sh BUILD_DIR OUT_DIR [TVB_FILE]
set -uo pipefail
build=$1
out=$2
tvb=${3:-examples/tvb/tvb_q16_n8_modvec6.txt}
mkdir -p "$out"
bench="$build/apps/gpufec_bench"
run() {
  echo "\$ gpufec_bench $*" | tee -a "$out/bench.txt"
  "$bench" "$@" --csv "$out/bench.csv" 2>&1 | grep -v "^gpufec info" | tee -a "$out/bench.txt"
}
run -f viterbi -o "code=ccsds, mode=streaming, block_len=512, traceback=42" -d cuda --bits 268435456
run -f viterbi -o "code=lte, mode=tailbiting, frame_bits=1024" -d cuda --bits 67108864
run -f ldpc -o "code=802.16e:2304:1/2, max_iterations=10, early_termination=false, precision=int8" -d cuda --frames 16384
run -f ldpc -o "code=802.11n:1944:1/2, max_iterations=10, early_termination=false, precision=int8" -d cuda --frames 16384
run -f turbo -o "code=lte:6144" -d cuda --frames 16896
run -f turbo -o "code=lte:6144, algorithm=fptd-max-log, max_iterations=36, prelaunch=true" -d cuda --frames 1024
run -f scppm -o "M=16, rate=2/3" --channel poisson-ppm:kb=0.2 -e 4 -d cuda --frames 2048
run -f tvb -o "code=file, file=$tvb" --channel "${TVB_CHANNEL:-bsid:max_insertions=2}" -e 0.01 -d cuda --frames 8192
run -f ldpc -o "code=802.16e:2304:1/2, max_iterations=10, early_termination=false, precision=int8" -d cpu --frames 4096 --reps 3
