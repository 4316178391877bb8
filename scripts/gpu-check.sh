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
  echo "# gpu-check $(date -u +%FT%TZ) commit ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo ?)}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
  nvcc --version | tail -1
} | tee "$out/report.txt"
cmake -S . -B "$build" -DGPUFEC_CORE_ONLY=ON -DGPUFEC_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
      -DCMAKE_BUILD_TYPE=Release -DGPUFEC_APP_DEPS="${APP_DEPS:-$PWD/.app-deps}" ${COMMIT:+-DGPUFEC_GIT_COMMIT=$COMMIT} > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
"$build/lib/gpufec_core_tests" --gtest_brief=1 > "$out/tests.log" 2>&1
echo "tests exit code: $?" | tee -a "$out/report.txt"
grep -E "PASSED|FAILED|SKIPPED|Failure" "$out/tests.log" | head -40 | tee -a "$out/report.txt"
"$build/apps/gpufec_app_tests" --gtest_brief=1 > "$out/app-tests.log" 2>&1
echo "app tests exit code: $?" | tee -a "$out/report.txt"
grep -E "PASSED|FAILED|Failure" "$out/app-tests.log" | head -20 | tee -a "$out/report.txt"
# SANITIZE=1: the CUDA tests once under compute-sanitizer (memcheck, then racecheck)
if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # (not the memory-pressure test: its failed allocations are the point, and memcheck counts them)
  filt='*cuda*:*Cuda*:*gpu*:*GPU*-*memory_is_full*'
  for tool in memcheck racecheck; do
    echo "\$ compute-sanitizer --tool $tool (CUDA tests)" | tee -a "$out/report.txt"
    timeout ${SANITIZE_TIMEOUT:-150} compute-sanitizer --tool $tool --error-exitcode 9 "$build/lib/gpufec_core_tests" \
        --gtest_filter="$filt" --gtest_brief=1 > "$out/sanitizer-$tool.log" 2>&1
    echo "$tool exit code: $? ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-$tool.log") clean summaries)" | tee -a "$out/report.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Failure|FAILED" "$out/sanitizer-$tool.log" | sort | uniq -c | head | tee -a "$out/report.txt"
  done
fi
bench="$build/apps/gpufec_bench"
[ -x "$bench" ] || { echo "gpufec_bench not built (carry .app-deps: scripts/fetch-app-deps.sh)" | tee -a "$out/report.txt"; exit 1; }
run() { echo "\$ gpufec_bench $*" | tee -a "$out/report.txt"; "$bench" "$@" --csv "$out/bench.csv" 2>&1 | tee -a "$out/report.txt"; }
vit() { run -f viterbi -o "$1" "${@:2}"; }
ldpc() { run -f ldpc -o "code=$1, max_iterations=10, $2" "${@:3}"; }
if [ "${LIGHT_BENCH:-0}" = 1 ]; then
  # the decoder-level figures that must not drop, in a few minutes
  vit "code=ccsds, mode=streaming, block_len=512, traceback=42" --device cuda --bits 268435456
  for code in 802.16e:2304:1/2 802.11n:1944:1/2; do
    ldpc $code "early_termination=false, precision=int8" --device cuda --frames 16384
  done
  SKIP_BENCH=1
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_VITERBI:-0}" != 1 ]; then
  vit "code=ccsds, mode=streaming, block_len=512, traceback=42" --device cuda --bits 268435456
  vit "code=ccsds, mode=streaming, block_len=1024, traceback=42" --device cuda --bits 268435456
  vit "code=lte, mode=tailbiting, frame_bits=1024" --device cuda --bits 67108864
  vit "code=80211-3/4, mode=streaming" --device cuda --bits 134217728
  vit "code=ccsds, mode=streaming, traceback=42" --device cpu --bits 67108864
  echo "(AVX2 only:)" | tee -a "$out/report.txt"
  GPUFEC_SIMD=avx2 vit "code=ccsds, mode=streaming, traceback=42" --device cpu --bits 67108864
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_LDPC:-0}" != 1 ]; then
  for code in 802.16e:2304:1/2 802.11n:1944:1/2; do
    for prec in int8 int16; do
      ldpc $code "early_termination=false, precision=$prec" --device cuda --frames 16384
    done
    for frames in 4096 8192 65536; do
      ldpc $code "early_termination=false, precision=int8" --device cuda --frames $frames
    done
    for eb in 3.0 4.0 5.0; do
      ldpc $code "precision=int8" --device cuda --frames 16384 --ebn0 $eb
    done
  done
  ldpc 802.11n:648:1/2 "early_termination=false, precision=int8" --device cuda --frames 8192
  ldpc 802.16e:2304:1/2 "early_termination=false, precision=int8" --device cpu --frames 4096 --reps 3
  ldpc 802.16e:2304:1/2 "early_termination=false, precision=int16" --device cpu --frames 4096 --reps 3
  ldpc 802.11n:1944:1/2 "early_termination=false, precision=int8" --device cpu --frames 4096 --reps 3
fi
# BER=1: one error-rate sweep per family on the GPU, timed (the wall time of a study)
if [ "${BER:-0}" = 1 ]; then
  ber="$build/apps/gpufec_ber"
  brun() { echo "\$ gpufec_ber $*" | tee -a "$out/report.txt"; local t0=$SECONDS; "$ber" "$@" -q 2>&1 | tee -a "$out/report.txt"; echo "wall $((SECONDS - t0)) s" | tee -a "$out/report.txt"; }
  brun -f viterbi -o "code=ccsds, mode=streaming" -d cuda -e 0:0.5:5 --min-frame-errors 200 --max-bits 1e9 --csv "$out/ber-viterbi.csv"
  brun -f ldpc -o "code=802.16e:2304:1/2, precision=int8" -d cuda -e 0.5:0.25:2.5 --min-frame-errors 200 --max-frames 2e6 --csv "$out/ber-ldpc.csv"
  brun -f repetition -o "frame_bits=1024, repeat=3" -d cpu -e 0:1:6 --min-frame-errors 200 --max-bits 1e8 --csv "$out/ber-repetition.csv"
fi
