#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Picks each DVB-S2 / DVB-S2X code's default min-sum normalisation from a sweep of gpufec_ber
CSVs named n<n>_<a>_<b>_<factor>.csv (one per code and factor, every factor of a code on the same
Eb/N0 grid: from the BPSK capacity limit of the code's K_bch / n plus 0.6 dB (normal frames) or
0.9 dB (short), five points 0.2 dB apart; LDPC int8 with the BCH, 50 iterations at most, 1000
frames a point; docs/data/ldpc-normalization-h200/). The factor with the fewest frame errors over
the grid wins (the waterfall's position); a tie keeps 0.875 where it is among the best, else the
middle of the best. Prints the C++ table of lib/ldpc/dvbs2_codes.cc: the codes whose pick is not
0.875.

usage: ldpc_normalization_pick.py [DIR]
"""
import csv
import collections
import glob
import os
import sys


def picks(folder):
    res = collections.defaultdict(dict)
    for f in glob.glob(os.path.join(folder, "n*.csv")):
        n, a, b, nf = os.path.basename(f)[1:-4].split("_")
        rows = list(csv.DictReader(open(f)))
        res[(int(n), a + "/" + b)][nf] = sum(int(r["frame_errors"]) for r in rows)
    out = {}
    for key, score in res.items():
        best = min(score.values())
        cands = sorted(nf for nf in score if score[nf] == best)
        out[key] = "0.875" if "0.875" in cands else cands[len(cands) // 2]
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "docs", "data", "ldpc-normalization-h200")
    p = picks(folder)
    rows = ['{ "%d:%s", %sf }' % (n, r, nf) for (n, r), nf in sorted(p.items(), key=lambda x: (-x[0][0], x[0][1]))
            if nf != "0.875"]
    print(",\n".join(rows))


if __name__ == "__main__":
    main()
