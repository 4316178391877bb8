#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws the BER/FER curves of a gpufec_ber CSV against the union bound and uncoded BPSK.

usage: gpufec_plot_ber BER.csv OUT.png
"""
import csv
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(sys.argv[1]) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("no points in " + sys.argv[1])
    e = [float(r["ebn0_db"]) for r in rows]

    def col(name):
        return [float(r[name]) if r[name] not in ("", "nan") and float(r[name]) > 0 else math.nan
                for r in rows]

    fig, ax = plt.subplots(figsize=(7, 5))
    ax.semilogy(e, col("ber"), "o-", label="BER (decoded)")
    ax.semilogy(e, col("fer"), "s--", label="FER (decoded)")
    ub = col("union_bound")
    if any(not math.isnan(x) for x in ub):
        ax.semilogy(e, [x if x < 0.5 else math.nan for x in ub], "k:", label="union bound (ML)")
    ax.semilogy(e, col("uncoded"), "-", color="gray", label="uncoded BPSK")
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("error rate")
    ax.set_ylim(1e-7, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title("%s, %s mode" % (rows[0]["code"], rows[0]["mode"]))
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print("wrote", sys.argv[2])


if __name__ == "__main__":
    main()
