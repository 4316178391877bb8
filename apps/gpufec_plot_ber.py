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
        if name not in rows[0]:
            return [math.nan] * len(rows)
        return [float(r[name]) if r[name] not in ("", "nan") and float(r[name]) > 0 else math.nan
                for r in rows]

    fig, ax = plt.subplots(figsize=(7, 5))
    for what, mark in (("ber", "o-"), ("fer", "s--")):
        y, lo, hi = col(what), col(what + "_lo95"), col(what + "_hi95")
        if any(not math.isnan(x) for x in lo):  # Wilson 95% intervals as error bars
            err = [[max(v - l, 0) if not math.isnan(l) else 0 for v, l in zip(y, lo)],
                   [max(h - v, 0) if not math.isnan(h) else 0 for v, h in zip(y, hi)]]
            ax.errorbar(e, y, yerr=err, fmt=mark, capsize=3, label=what.upper() + " (decoded, 95%)")
        else:
            ax.semilogy(e, y, mark, label=what.upper() + " (decoded)")
    ax.set_yscale("log")
    ub = col("union_bound")
    if any(not math.isnan(x) for x in ub):
        ax.semilogy(e, [x if x < 0.5 else math.nan for x in ub], "k:", label="union bound (ML)")
    unc = col("uncoded_ber") if "uncoded_ber" in rows[0] else col("uncoded")
    ax.semilogy(e, unc, "-", color="gray", label="uncoded BPSK")
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("error rate")
    # the y-range from the data (not a fixed floor)
    seen = [v for v in col("ber") + col("fer") + col("ber_lo95") if not math.isnan(v)]
    if seen:
        ax.set_ylim(10 ** math.floor(math.log10(min(seen)) - 0.5), 1)
    ax.grid(True, which="both", alpha=0.3)
    title = rows[0].get("code") or (rows[0].get("family", "") + " " + rows[0].get("options", ""))
    ax.set_title(title if "mode" not in rows[0] else "%s, %s mode" % (title, rows[0]["mode"]))
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print("wrote", sys.argv[2])


if __name__ == "__main__":
    main()
