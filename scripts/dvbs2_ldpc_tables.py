#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes lib/ldpc/standards/dvbs2_ldpc_tables.txt: the DVB-S2 LDPC parity-bit address tables
(ETSI EN 302 307-1, Annexes B and C), taken from two independent open implementations and
written only when every number agrees:

  ldpc-toolbox   src/codes/dvbs2.rs                   (Rust, from EN 302 307-1 V1.4.1)
  GNU Radio      gr-dtv/lib/dvb/dvb_ldpc_bb_impl.cc    (C++, the gr-dtv DVB-S2 transmitter)

With a fourth argument, the DVB-S2X codes of EN 302 307-2 (Annexes B and C: the normal frames'
23 rates from 13/45 to 154/180, the short frames' 7 from 11/45 to 32/45, and the VL-SNR codes'
own tables: normal 2/9, medium 1/5, 11/45, 1/3) follow, written where gr-dtv and a second
transcription agree:

  xdsopl/LDPC    dvb_s2x_tables.hh                    (C++, Tables B.1 .. B.24, C.1 .. C.10)

Both S2X transcriptions carry one author's name (R. Economos), so they are two copies that
agree, not two independent readings of the standard; the codes are checked further by
encoding against gr-dtv and by decoding (qa_ldpc.py, qa_dvbs2.py).

usage: dvbs2_ldpc_tables.py <dvbs2.rs> <dvb_ldpc_bb_impl.cc> <commit notes> [<dvb_s2x_tables.hh>] > table.txt
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
    for m in re.finditer(r"ldpc_tab_(\w+)\s*\[(\d+)\]\[(\d+)\] = \{(.*?)\};", text, re.S):
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


# EN 302 307-2 Annex B (normal, from Table B.2) and Annex C (short) in the standard's order
RATES_S2X_NORMAL = ["13/45", "9/20", "11/20", "26/45", "28/45", "23/36", "25/36", "13/18", "7/9", "90/180",
                    "96/180", "100/180", "104/180", "116/180", "124/180", "128/180", "132/180", "135/180",
                    "140/180", "154/180", "18/30", "20/30", "22/30"]
RATES_S2X_SHORT = ["11/45", "4/15", "14/45", "7/15", "8/15", "26/45", "32/45"]


def xdsopl_tables(text):
    """{table name: (n, k, rows)}: rows of DEG[i] addresses, LEN[i] of them, from POS"""
    out = {}
    for m in re.finditer(r"struct (DVB_S2X_TABLE_\w+)\s*\{(.*?)\n\};", text, re.S):
        body = m.group(2)
        n = int(re.search(r"int N = (\d+)", body).group(1))
        k = int(re.search(r"int K = (\d+)", body).group(1))
        arr = {name: [int(x) for x in re.findall(r"-?\d+", re.search(name + r"\[\] = \{(.*?)\}", body, re.S).group(1))]
               for name in ("DEG", "LEN", "POS")}
        rows, at = [], 0
        for deg, count in zip(arr["DEG"], arr["LEN"]):
            for _ in range(count):
                rows.append(arr["POS"][at:at + deg])
                at += deg
        if at != len(arr["POS"]):
            raise SystemExit(f"xdsopl {m.group(1)}: {len(arr['POS'])} addresses, rows take {at}")
        out[m.group(1)] = (n, k, rows)
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
    if len(sys.argv) > 4:
        xd = xdsopl_tables(open(sys.argv[4]).read())
        lines.append("# DVB-S2X (EN 302 307-2 Annexes B, C): gr-dtv and xdsopl/LDPC (dvb_s2x_tables.hh), "
                     "every number agreeing; two copies of one author's transcription")
        s2x = [(64800, r, "DVB_S2X_TABLE_B%d" % (i + 2), r.replace("/", "_") + "N") for i, r in enumerate(RATES_S2X_NORMAL)] + \
              [(16200, r, "DVB_S2X_TABLE_C%d" % (i + 1), r.replace("/", "_") + "S") for i, r in enumerate(RATES_S2X_SHORT)]
        # the VL-SNR codes' own tables: normal 2/9 (Table B.1) and the medium frames of 32400
        # bits (Tables C.8 .. C.10); the other VL-SNR codes puncture and shorten short codes above
        vlsnr = [(64800, "2/9", "DVB_S2X_TABLE_B1", "2_9N"), (32400, "1/5", "DVB_S2X_TABLE_C8", "1_5M"),
                 (32400, "11/45", "DVB_S2X_TABLE_C9", "11_45M"), (32400, "1/3", "DVB_S2X_TABLE_C10", "1_3M")]
        for n, rate, name, dtv in s2x + vlsnr:
            if (n, rate) == vlsnr[0][:2]:
                lines.append("# DVB-S2X VL-SNR (EN 302 307-2 Tables B.1, C.8 .. C.10): gr-dtv and xdsopl/LDPC, "
                             "the same way")
            num, den = (int(x) for x in rate.split("/"))
            k = n * num // den
            xn, xk, a = xd[name]
            if (xn, xk) != (n, k) or k * den != n * num:
                raise SystemExit(f"{n} {rate}: {name} is ({xn}, {xk}), not ({n}, {k})")
            if a != gd[dtv]:
                raise SystemExit(f"{n} {rate}: the two sources differ")
            q = (n - k) // 360
            if len(a) * 360 != k or (n - k) % 360:
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
