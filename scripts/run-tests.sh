#!/usr/bin/env bash
# The whole test suite: sets everything up, then runs every C++ test (GPU tests skip without a
# GPU), every gr_unittest QA and every example flowgraph headless, from the build tree.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure -j"$(nproc)"
