#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares the AR4JA theta / phi tables compiled into lib/ldpc/ccsds_codes.cc (from
ldpc-toolbox) with a second transcription of CCSDS 131.0-B-2 Tables 7-3 and 7-4: labrador-ldpc-c's
scripts/ccsds131.py (its `theta_k` and `phi_j_m_k`). Exits non-zero on any difference.

usage: ar4ja_tables_check.py <ccsds131.py> [lib/ldpc/ccsds_codes.cc]
"""
import os
import re
import sys


def labrador_tables(path):
    src = open(path).read()
    start = src.index("theta_k =")
    end = src.index("\n\n", src.index("phi_j_m_k = {"))
    ns = {}
    exec(src[start:end], ns)  # two literal assignments
    return ns["theta_k"], ns["phi_j_m_k"]


def our_tables(path):
    cc = open(path).read()
    theta = [int(x) for x in re.search(r"ar4ja_theta\[26\] = \{([^}]*)\}", cc).group(1).split(",")]
    body = cc[cc.index("ar4ja_phi[4][26][7] = {"):]
    body = body[:body.index("};")]
    rows = [[int(v) for v in r.split(",") if v.strip()] for r in re.findall(r"\{ *([0-9, ]+) *\}", body)]
    if len(rows) != 104:
        raise SystemExit(f"{path}: {len(rows)} phi rows, expected 4 x 26")
    return theta, rows


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ours = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "lib", "ldpc", "ccsds_codes.cc")
    theta_l, phi_l = labrador_tables(sys.argv[1])
    theta_o, rows = our_tables(ours)
    bad = int(theta_o != theta_l)
    for j in range(4):
        for k in range(26):
            for mi, m in enumerate([128, 256, 512, 1024, 2048, 4096, 8192]):
                if rows[j * 26 + k][mi] != phi_l[j][m][k]:
                    bad += 1
                    print(f"phi_{k + 1}({j}, {m}): ours {rows[j * 26 + k][mi]}, theirs {phi_l[j][m][k]}")
    print(f"theta (26) and phi (728 values): {bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
