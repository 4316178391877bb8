#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws error-rate curves from gpufec_ber CSV files: BER and FER with their Wilson 95%
intervals, several runs in one figure, reference points from other CSV files (published
curves, other decoders) beside them, the union bound and uncoded BPSK where the CSV has them.
The output format follows the file name: .png, .pdf or .svg. Needs matplotlib, nothing else.

The x axis is the channel's own measure, the CSV's column: ebn0_db (Eb/N0 in dB, BPSK over AWGN),
ks_db (Ks in dB, signal photons per pulse: the Poisson PPM channel), or p (Pi = Pd: the
insertion/deletion channel); runs of one figure share it. A reference CSV has the same column (or
ebn0, snr_db) and a column ber, fer and/or ser; an optional column label names its curves (one
curve per label). Symbol codes (TVB) have a ser column too: --what ber,fer,ser.
GPUFEC_PYTHON names another Python to run this script with (one with matplotlib).

examples:
  gpufec_plot_ber ber.csv -o ber.png
  gpufec_plot_ber int8.csv float.csv --label int8 --label float -o ldpc.pdf
  gpufec_plot_ber ldpc.csv --reference aff3ct_ldpc.csv --what fer -o fer.svg
"""
import argparse
import csv
import math
import os
import sys

FORMATS = (".png", ".pdf", ".svg")


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return math.nan
    return v if math.isfinite(v) else math.nan


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("gpufec_plot_ber: %s has no rows" % path)
    return rows


# the x columns gpufec_ber writes (the channel's measure), and their axis labels
X_AXES = (("ebn0_db", "Eb/N0 (dB)"), ("ebn0", "Eb/N0 (dB)"), ("snr_db", "SNR (dB)"),
          ("ks_db", "Ks (dB, signal photons per pulse)"), ("p", "p = Pi = Pd (insertion and deletion probability)"))


def x_column(rows, path):
    for name, _ in X_AXES:
        if name in rows[0]:
            return name
    sys.exit("gpufec_plot_ber: %s has none of the x columns %s" % (path, ", ".join(n for n, _ in X_AXES)))


def x_label(name):
    return dict(X_AXES)[name]


def column(rows, name):
    """the values of a column; NaN where missing, empty or not positive (log axis)"""
    if name not in rows[0]:
        return [math.nan] * len(rows)
    return [v if v > 0 else math.nan for v in (number(r[name]) for r in rows)]


def run_label(rows, path):
    r = rows[0]
    if r.get("family"):
        return ("%s %s" % (r["family"], r.get("options", ""))).strip()
    return os.path.basename(path)


def use_gpufec_python():
    """runs this script again with $GPUFEC_PYTHON when it names another interpreter"""
    py = os.environ.get("GPUFEC_PYTHON")
    if py and os.environ.get("GPUFEC_PLOT_REEXEC") != "1":
        import shutil
        target = shutil.which(py) or py
        if os.path.realpath(target) != os.path.realpath(sys.executable):
            os.environ["GPUFEC_PLOT_REEXEC"] = "1"
            try:
                os.execv(target, [target, os.path.abspath(__file__)] + sys.argv[1:])
            except OSError as e:
                sys.exit("gpufec_plot_ber: GPUFEC_PYTHON=%s cannot be run: %s" % (py, e))


def main(argv=None):
    if argv is None:
        use_gpufec_python()
    p = argparse.ArgumentParser(prog="gpufec_plot_ber", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", help="gpufec_ber CSV files, one curve (pair) each")
    p.add_argument("-o", "--output", required=True, help="the figure: .png, .pdf or .svg")
    p.add_argument("--reference", action="append", default=[],
                   help="CSV of reference points (ebn0_db, ber and/or fer, optional label)")
    p.add_argument("--label", action="append", default=[],
                   help="a legend label per run, in order (default: family and options)")
    p.add_argument("--what", default="ber,fer", help="a comma-separated list of ber, fer, ser (default: ber,fer)")
    p.add_argument("--title", default=None)
    p.add_argument("--no-intervals", action="store_true", help="no error bars")
    a = p.parse_args(argv)
    ext = os.path.splitext(a.output)[1].lower()
    if ext not in FORMATS:
        p.error("--output must end in one of " + ", ".join(FORMATS))
    what = [w.strip() for w in a.what.split(",") if w.strip()]
    if not what or any(w not in ("ber", "fer", "ser") for w in what):
        p.error("--what takes a list of ber, fer, ser")
    if len(a.label) > len(a.runs):
        p.error("more --label than runs")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("gpufec_plot_ber: this Python (%s) has no matplotlib; install it (Debian: "
                 "python3-matplotlib, or pip install matplotlib) or name a Python that has it in "
                 "GPUFEC_PYTHON" % sys.executable)

    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    seen = []
    style = {"ber": ("o", "-"), "fer": ("s", "--"), "ser": ("^", ":")}
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    extras = {}  # union bound / uncoded: drawn once, over the widest x range
    axis = None
    for i, path in enumerate(a.runs):
        rows = read_rows(path)
        xname = x_column(rows, path)
        if axis is not None and x_label(xname) != x_label(axis):
            sys.exit("gpufec_plot_ber: %s is against %s, the runs before it against %s: one figure, one x axis"
                     % (path, xname, axis))
        axis = xname
        x = [number(r[xname]) for r in rows]
        name = a.label[i] if i < len(a.label) else run_label(rows, path)
        color = colors[i % len(colors)]
        for w in what:
            y = column(rows, w)
            if all(math.isnan(v) for v in y):
                continue
            lo, hi = column(rows, w + "_lo95"), column(rows, w + "_hi95")
            marker, line = style[w]
            label = "%s %s" % (name, w.upper())
            if not a.no_intervals and any(not math.isnan(v) for v in lo + hi):
                err = [[v - l if not (math.isnan(v) or math.isnan(l)) else 0 for v, l in zip(y, lo)],
                       [h - v if not (math.isnan(v) or math.isnan(h)) else 0 for v, h in zip(y, hi)]]
                ax.errorbar(x, y, yerr=err, fmt=marker + line, color=color, capsize=3, ms=4, label=label)
                seen += [v for v in lo if not math.isnan(v)]
            else:
                ax.plot(x, y, marker + line, color=color, ms=4, label=label)
            seen += [v for v in y if not math.isnan(v)]
        for key in ("union_bound", "uncoded_ber"):
            v = column(rows, key)
            if any(not math.isnan(t) for t in v) and len(x) > len(extras.get(key, ([], []))[0]):
                extras[key] = (x, v)
    for j, path in enumerate(a.reference):
        rows = read_rows(path)
        xname = x_column(rows, path)
        groups = {}
        for r in rows:
            groups.setdefault(r.get("label") or os.path.basename(path), []).append(r)
        for k, (label, grp) in enumerate(groups.items()):
            x = [number(r[xname]) for r in grp]
            for w in what:
                y = column(grp, w)
                if all(math.isnan(v) for v in y):
                    continue
                ax.plot(x, y, {"ber": "x:", "fer": "+:", "ser": "1:"}[w], color="k", alpha=0.45 + 0.5 * ((j + k) % 2),
                        ms=6, label="%s %s (reference)" % (label, w.upper()))
                seen += [v for v in y if not math.isnan(v)]
    if "union_bound" in extras and "ber" in what:
        x, v = extras["union_bound"]
        ax.plot(x, [t if t < 0.5 else math.nan for t in v], "k-.", lw=1, label="union bound (ML)")
    if "uncoded_ber" in extras and "ber" in what:
        x, v = extras["uncoded_ber"]
        ax.plot(x, v, "-", color="gray", lw=1, label="uncoded BPSK")
    if not seen:
        sys.exit("gpufec_plot_ber: nothing to draw (no positive %s values)" % a.what)
    ax.set_yscale("log")
    # the y-range from the data: a decade below the lowest value drawn, not a fixed floor
    ax.set_ylim(10 ** (math.floor(math.log10(min(seen))) - 0.3), min(1.0, 10 ** math.ceil(math.log10(max(seen)) + 0.1)))
    ax.set_xlabel(x_label(axis))
    ax.set_ylabel("error rate" if len(what) > 1 else what[0].upper())
    ax.grid(True, which="both", alpha=0.3)
    if a.title is not None:
        ax.set_title(a.title)
    elif len(a.runs) == 1:
        ax.set_title(run_label(read_rows(a.runs[0]), a.runs[0]))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print("wrote", a.output)


if __name__ == "__main__":
    main()
