#!/usr/bin/env bash
# The main demo: sets everything up, then runs the CCSDS Viterbi flowgraph headless.
# Extra arguments go to the demo (--bits, --ebn0, --device).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
/usr/bin/python3 examples/viterbi_ccsds_demo.py "$@"
