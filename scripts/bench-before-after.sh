#!/usr/bin/env bash
# On the GPU machine: the decoder benchmarks (scripts/bench-current.sh) and the flowgraph
# benchmark (examples/flowgraph_ceiling_bench.py) of two builds, each packed by
# scripts/make-gpu-bundle.sh, one after the other on the same host, so that a change is measured
# beside its baseline (the machines are noisy: compare only figures of one run of this script).
# Usage: scripts/bench-before-after.sh BEFORE_BUNDLE AFTER_BUNDLE OUT_DIR [decoders|flowgraph|both]
set -uo pipefail
before=$1
after=$2
out=$3
what=${4:-both}
mkdir -p "$out"
for side in before after; do
  bundle=$before
  [ "$side" = after ] && bundle=$after
  (
    # shellcheck disable=SC1091
    source "$bundle/gr-env.sh" "$bundle"
    bin=$(command -v gpufec_bench) || { echo "$side: no gpufec_bench in $bundle"; exit 1; }
    echo "# $side: $("$bin" --version 2>&1 | head -1)" | tee -a "$out/summary.txt"
    if [ "$what" != flowgraph ]; then
      fake=$(mktemp -d)
      mkdir -p "$fake/apps" && ln -s "$bin" "$fake/apps/gpufec_bench"
      scripts/bench-current.sh "$fake" "$out/$side" > /dev/null 2>&1
      grep -E "^\\$|Gb/s|Mb/s" "$out/$side/bench.txt" | tee -a "$out/summary.txt"
    fi
    if [ "$what" != decoders ]; then
      python3.11 examples/flowgraph_ceiling_bench.py --values "${FLOWGRAPH_VALUES:-1e9}" --reps 2 \
          --device cuda --csv "$out/$side-flowgraph.csv" 2>&1 | grep -v "^gpufec info" | tee -a "$out/summary.txt"
    fi
  )
done
