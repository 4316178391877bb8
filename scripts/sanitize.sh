#!/usr/bin/env bash
# Builds the GNU-Radio-free library and its C++ tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (any compiler: GCC by default, CXX=clang++ for Clang), runs every
# test, then a longer fuzz of the code-file loaders (LDPC, SimCommSys TVB). Any sanitizer report fails the run.
# Usage: scripts/sanitize.sh [BUILD_DIR]   (FUZZ_ITERATIONS, default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
cmake -S . -B "$build" -DGPUFEC_CORE_ONLY=ON -DGPUFEC_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" > "$build.configure.log"
cmake --build "$build" -j"$(nproc)" --target gpufec_core_tests
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$build/lib/gpufec_core_tests" --gtest_brief=1
GPUFEC_FUZZ_ITERATIONS=${FUZZ_ITERATIONS:-20000} "$build/lib/gpufec_core_tests" --gtest_filter='ldpc_fuzz.*:tvb_fuzz.*' --gtest_brief=1
echo "sanitize: all tests and the loader fuzz passed under ASan+UBSan"
