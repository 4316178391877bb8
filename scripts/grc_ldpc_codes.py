#!/usr/bin/python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Writes the code lists and the DVB-S2 bit interleaver's modulations of the LDPC GRC blocks
(grc/gpufec_ldpc_decoder.block.yml and grc/gpufec_ldpc_encoder.block.yml), and the code lists
of the CCSDS telemetry blocks (grc/gpufec_ccsds_tm_receiver.block.yml and ..._encoder), from the
library's registries, so that GRC offers every code and modulation the library knows (qa_ldpc
and qa_ccsds_tm check that they agree). Run after adding codes or modulations:
    PYTHONPATH=<build>/test_modules /usr/bin/python3 scripts/grc_ldpc_codes.py"""

import os
import re
import sys

from gnuradio import gpufec

GRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "grc")
FILES = ("gpufec_ldpc_decoder.block.yml", "gpufec_ldpc_encoder.block.yml")
TM_FILES = ("gpufec_ccsds_tm_receiver.block.yml", "gpufec_ccsds_tm_encoder.block.yml")


def label(code):
    """'802.11n:648:1/2' -> '802.11n n=648 rate 1/2'; 'nr:bg1:384' -> '5G NR BG1 Z=384';
    'ccsds:8160:7136' -> 'CCSDS C2 (8160, 7136)'; 'dvbs2:64800:1/2' -> 'DVB-S2 normal (64800) rate 1/2'"""
    family, a, b = code.split(":")
    if family == "ccsds" and a == "255":
        return "Reed-Solomon (255, %s) E=%d" % (b, (255 - int(b)) // 2)
    if family == "ccsds" and "/" in b:
        return "CCSDS turbo K=%s rate %s" % (a, b)
    if family == "nr":
        return "5G NR %s Z=%s" % (a.upper(), b)
    if family == "dvbs2":
        s2x = b not in ("1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10")
        vlsnr = a == "32400" or b == "2/9" or "vlsnr" in b
        frame = {"64800": "normal", "32400": "medium", "16200": "short"}[a]
        rate = b.split("-")[0] + (" spread" if b.endswith("-sf2") else "")
        return "DVB-S2%s %s (%s) rate %s" % ("X VL-SNR" if vlsnr else "X" if s2x else "", frame, a, rate)
    if family == "ccsds":
        kind = {"8176": "C2 basic", "8160": "C2", "128": "telecommand", "512": "telecommand"}.get(a, "AR4JA")
        return "CCSDS %s (%s, %s)" % (kind, a, b)
    return "%s n=%s rate %s" % (family, a, b)


def lists(codes):
    options = "[" + ", ".join("\"'%s'\"" % c for c in codes) + "]"
    labels = "[" + ", ".join("'%s'" % label(c) for c in codes) + "]"
    return options, labels


def modulation_label(m):
    """'none' -> 'None (BPSK, QPSK)', '4+12+16apsk' -> '4+12+16APSK', '8apsk' -> '8APSK-L'"""
    if m == "none":
        return "None (BPSK, QPSK)"
    return m.upper() + ("-L" if m == "8apsk" else "")


def modulation_lists():
    mods = [m for m in gpufec.dvbs2_modulations() if m not in ("bpsk", "qpsk")]
    return ("[" + ", ".join("\"'%s'\"" % m for m in mods) + "]",
            "[" + ", ".join("'%s'" % modulation_label(m) for m in mods) + "]")


def write_code_list(path, options, labels):
    """the first options / option_labels pair of the file (its code parameter's)"""
    text = open(path).read()
    text = re.sub(r"(?m)^(    options: ).*$", lambda m: m.group(1) + options, text, count=1)
    text = re.sub(r"(?m)^(    option_labels: ).*$", lambda m: m.group(1) + labels, text, count=1)
    return text


def main():
    tm_options, tm_labels = lists(gpufec.ccsds_tm_codes())
    for name in TM_FILES:
        path = os.path.join(GRC, name)
        text = write_code_list(path, tm_options, tm_labels)
        open(path, "w").write(text)
        print("wrote", path, file=sys.stderr)
    options, labels = lists(gpufec.ldpc_codes())
    mod_options, mod_labels = modulation_lists()
    for name in FILES:
        path = os.path.join(GRC, name)
        text = write_code_list(path, options, labels)
        # the interleaver parameter's pair
        text = re.sub(r"(?ms)^(-   id: interleaver\n.*?^    options: ).*?$\n(    option_labels: ).*?$",
                      lambda m: m.group(1) + mod_options + "\n" + m.group(2) + mod_labels, text, count=1)
        open(path, "w").write(text)
        print("wrote", path, file=sys.stderr)


if __name__ == "__main__":
    main()
