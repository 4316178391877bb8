#!/usr/bin/env bash
# On the GPU machine (no GNU Radio): build the GNU-Radio-free library with CUDA, run every C++
# test (GPU tests included) and the benchmarks, and write a short report.
# Usage: scripts/gpu-check.sh [OUT_DIR]   (default: ./gpu-report)
set -uo pipefail
out=${1:-gpu-report}
mkdir -p "$out"
build=${BUILD_DIR:-/tmp/gpufec-gpu-build}
arch=${CUDA_ARCH:-90}
{
  echo "# gpu-check $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
  nvcc --version | tail -1
} | tee "$out/report.txt"
cmake -S . -B "$build" -DGPUFEC_CORE_ONLY=ON -DGPUFEC_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
      -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
"$build/lib/gpufec_core_tests" --gtest_brief=1 > "$out/tests.log" 2>&1
echo "tests exit code: $?" | tee -a "$out/report.txt"
grep -E "PASSED|FAILED|SKIPPED|Failure" "$out/tests.log" | head -40 | tee -a "$out/report.txt"
# SANITIZE=1: the CUDA tests once under compute-sanitizer (memcheck, then racecheck)
if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  filt='*cuda*:*Cuda*:*gpu*:*GPU*'
  for tool in memcheck racecheck; do
    echo "\$ compute-sanitizer --tool $tool (CUDA tests)" | tee -a "$out/report.txt"
    timeout ${SANITIZE_TIMEOUT:-150} compute-sanitizer --tool $tool --error-exitcode 9 "$build/lib/gpufec_core_tests" \
        --gtest_filter="$filt" --gtest_brief=1 > "$out/sanitizer-$tool.log" 2>&1
    echo "$tool exit code: $? ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-$tool.log") clean summaries)" | tee -a "$out/report.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Failure|FAILED" "$out/sanitizer-$tool.log" | sort | uniq -c | head | tee -a "$out/report.txt"
  done
fi
bench="$build/apps/gpufec_bench"
run() { echo "\$ gpufec_bench $*" | tee -a "$out/report.txt"; "$bench" "$@" --csv "$out/bench.csv" 2>&1 | tee -a "$out/report.txt"; }
if [ "${LIGHT_BENCH:-0}" = 1 ]; then
  # the decoder-level figures that must not drop, in a few minutes
  run --code ccsds --device cuda --bits 268435456 --block-len 512 --traceback 42
  for code in 802.16e:2304:1/2 802.11n:1944:1/2; do
    lbench="$build/apps/gpufec_ldpc_bench"
    echo "\$ gpufec_ldpc_bench $code 16384 10 it" | tee -a "$out/report.txt"
    "$lbench" --code $code --device cuda --frames 16384 --iterations 10 --no-et --precision int8 --csv "$out/ldpc_bench.csv" 2>&1 | tee -a "$out/report.txt"
  done
  SKIP_BENCH=1
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_VITERBI:-0}" != 1 ]; then
  run --code ccsds --device cuda --bits 268435456 --block-len 512 --traceback 42
  run --code ccsds --device cuda --bits 268435456 --block-len 1024 --traceback 42
  run --code lte --device cuda --mode tailbiting --frame-bits 1024 --bits 67108864
  run --code 80211-3/4 --device cuda --bits 134217728
  run --code ccsds --device cpu --bits 67108864 --traceback 42
  echo "(AVX2 only:)" | tee -a "$out/report.txt"
  GPUFEC_SIMD=avx2 run --code ccsds --device cpu --bits 67108864 --traceback 42
fi
lbench="$build/apps/gpufec_ldpc_bench"
lrun() { echo "\$ gpufec_ldpc_bench $*" | tee -a "$out/report.txt"; "$lbench" "$@" --csv "$out/ldpc_bench.csv" 2>&1 | tee -a "$out/report.txt"; }
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_LDPC:-0}" != 1 ]; then
  for code in 802.16e:2304:1/2 802.11n:1944:1/2; do
    for prec in int8 int16; do
      lrun --code $code --device cuda --frames 16384 --iterations 10 --no-et --precision $prec
    done
    for frames in 4096 8192 65536; do
      lrun --code $code --device cuda --frames $frames --iterations 10 --no-et --precision int8
    done
    for eb in 3.0 4.0 5.0; do
      lrun --code $code --device cuda --frames 16384 --iterations 10 --ebn0 $eb --precision int8
    done
  done
  lrun --code 802.11n:648:1/2 --device cuda --frames 8192 --iterations 10 --no-et --precision int8
  lrun --code 802.16e:2304:1/2 --device cpu --frames 4096 --iterations 10 --no-et --precision int8 --reps 3
  lrun --code 802.16e:2304:1/2 --device cpu --frames 4096 --iterations 10 --no-et --precision int16 --reps 3
  lrun --code 802.11n:1944:1/2 --device cpu --frames 4096 --iterations 10 --no-et --precision int8 --reps 3
fi
