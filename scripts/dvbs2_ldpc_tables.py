#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes lib/ldpc/standards/dvbs2_ldpc_tables.txt: the DVB-S2 LDPC parity-bit address tables
(ETSI EN 302 307-1, Annexes B and C), taken from two independent open implementations and
written only when every number agrees:

  ldpc-toolbox   src/codes/dvbs2.rs                   (Rust, from EN 302 307-1 V1.4.1)
  GNU Radio      gr-dtv/lib/dvb/dvb_ldpc_bb_impl.cc    (C++, the gr-dtv DVB-S2 transmitter)

usage: dvbs2_ldpc_tables.py <dvbs2.rs> <dvb_ldpc_bb_impl.cc> <commit notes> > table.txt
"""
import re
import sys

RATES_NORMAL = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"]
RATES_SHORT = RATES_NORMAL[:-1]
# q = (n - k) / 360, Tables 7a and 7b of EN 302 307-1
Q_NORMAL = [135, 120, 108, 90, 72, 60, 45, 36, 30, 20, 18]
Q_SHORT = [36, 30, 27, 25, 18, 15, 12, 10, 8, 5]


def toolbox_tables(text):
    body = text[text.index("const fn addresses"):]
    out = {}
    for m in re.finditer(r"Code::(R\w+) => &\[(.*?)\n            \],", body, re.S):
        out[m.group(1)] = [[int(x) for x in re.findall(r"\d+", r)]
                           for r in re.findall(r"&\[(.*?)\]", m.group(2), re.S)]
    return out


def grdtv_tables(text):
    out = {}
    for m in re.finditer(r"ldpc_tab_(\w+)\[(\d+)\]\[(\d+)\] = \{(.*?)\};", text, re.S):
        rows = []
        for r in re.findall(r"\{([^{}]*)\}", m.group(4)):
            v = [int(x) for x in re.findall(r"\d+", r)]
            if any(v[v[0] + 1:]):
                raise SystemExit(f"gr-dtv {m.group(1)}: padding is not zero")
            rows.append(v[1:v[0] + 1])
        if len(rows) != int(m.group(2)):
            raise SystemExit(f"gr-dtv {m.group(1)}: {len(rows)} rows, declared {m.group(2)}")
        out[m.group(1)] = rows
    return out


def main():
    tb = toolbox_tables(open(sys.argv[1]).read())
    gd = grdtv_tables(open(sys.argv[2]).read())
    notes = sys.argv[3] if len(sys.argv) > 3 else ""
    codes = [(64800, r, q) for r, q in zip(RATES_NORMAL, Q_NORMAL)] + \
            [(16200, r, q) for r, q in zip(RATES_SHORT, Q_SHORT)]
    lines = []
    for n, rate, q in codes:
        u = rate.replace("/", "_")
        a = tb["R" + u + ("" if n == 64800 else "short")]
        key = u + ("N" if n == 64800 else "S")
        b = gd.get(key) or gd[key + "_DVBS2"]  # gr-dtv also holds DVB-T2's variants
        if a != b:
            raise SystemExit(f"{n} {rate}: the two sources differ")
        k = n - 360 * q
        if len(a) * 360 != k:
            raise SystemExit(f"{n} {rate}: {len(a)} rows for k = {k}")
        if any(x < 0 or x >= n - k for row in a for x in row):
            raise SystemExit(f"{n} {rate}: an address outside 0 .. n-k-1")
        lines.append(f"[n={n} rate={rate} q={q}]")
        lines += [" ".join(str(x) for x in row) for row in a]
    print(f"""# DVB-S2 LDPC codes (ETSI EN 302 307-1, 5.3.2 and Annexes B, C): for each FECFRAME length n
# and code rate, the parity-bit addresses of the information bits. Row t lists the addresses x
# of the first bit of the t-th group of 360 information bits; bit 360 t + w of the group takes
# part in the checks (x + w q) mod (n - k), q = (n - k) / 360. Parity bit j (0 .. n-k-1) takes
# part in checks j and j + 1 (the accumulator). The short frames' rates are the standard's
# nominal ones (their LDPC rates are k / 16200: 1/4 is 1/5, 1/2 is 4/9, ...).
# Written by scripts/dvbs2_ldpc_tables.py from two independent open implementations, every
# number agreeing between them: ldpc-toolbox (src/codes/dvbs2.rs) and GNU Radio's gr-dtv
# (gr-dtv/lib/dvb/dvb_ldpc_bb_impl.cc, the DVB-S2 tables, not DVB-T2's). {notes}
""" + "\n".join(lines))


if __name__ == "__main__":
    main()
