#!/usr/bin/python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Writes the code lists of the LDPC GRC blocks (grc/gpufec_ldpc_decoder.block.yml and
grc/gpufec_ldpc_encoder.block.yml) from the library's registry of standard codes, so that GRC
offers every code the library knows (qa_ldpc checks that they agree). Run after adding codes:
    PYTHONPATH=<build>/test_modules /usr/bin/python3 scripts/grc_ldpc_codes.py"""

import os
import re
import sys

from gnuradio import gpufec

GRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "grc")
FILES = ("gpufec_ldpc_decoder.block.yml", "gpufec_ldpc_encoder.block.yml")


def label(code):
    """'802.11n:648:1/2' -> '802.11n n=648 rate 1/2'; 'nr:bg1:384' -> '5G NR BG1 Z=384';
    'ccsds:8160:7136' -> 'CCSDS C2 (8160, 7136)'; 'dvbs2:64800:1/2' -> 'DVB-S2 normal (64800) rate 1/2'"""
    family, a, b = code.split(":")
    if family == "nr":
        return "5G NR %s Z=%s" % (a.upper(), b)
    if family == "dvbs2":
        s2x = b not in ("1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10")
        return "DVB-S2%s %s (%s) rate %s" % ("X" if s2x else "", "normal" if a == "64800" else "short", a, b)
    if family == "ccsds":
        kind = {"8176": "C2 basic", "8160": "C2", "128": "telecommand", "512": "telecommand"}.get(a, "AR4JA")
        return "CCSDS %s (%s, %s)" % (kind, a, b)
    return "%s n=%s rate %s" % (family, a, b)


def lists(codes):
    options = "[" + ", ".join("\"'%s'\"" % c for c in codes) + "]"
    labels = "[" + ", ".join("'%s'" % label(c) for c in codes) + "]"
    return options, labels


def main():
    options, labels = lists(gpufec.ldpc_codes())
    for name in FILES:
        path = os.path.join(GRC, name)
        text = open(path).read()
        # the first options / option_labels pair is the code parameter's
        text = re.sub(r"(?m)^(    options: ).*$", lambda m: m.group(1) + options, text, count=1)
        text = re.sub(r"(?m)^(    option_labels: ).*$", lambda m: m.group(1) + labels, text, count=1)
        open(path, "w").write(text)
        print("wrote", path, file=sys.stderr)


if __name__ == "__main__":
    main()
