#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Each family declares its options once (frame_family_schema): the Python wrappers' keyword
defaults and the GRC blocks' parameter defaults and choices must agree with that declaration,
and bad options are refused by the declaration before anything is made."""

import glob
import inspect
import os

import yaml
from gnuradio import gr_unittest
from gnuradio import gpufec

GRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")

# the typed Python faces: (wrapper, family, {keyword: option name} where they differ)
WRAPPERS = (
    (gpufec.turbo_options, "turbo", {}),
    (gpufec.scppm_options, "scppm", {"Ks": "ks", "Kb": "kb"}),
    (gpufec.tvb_options, "tvb", {"Pi": "pi", "Pd": "pd", "Ps": "ps"}),
)
# GRC blocks of a family: block file -> family (their parameter ids are the option names)
GRC_BLOCKS = {"gpufec_ldpc_decoder.block.yml": "ldpc", "gpufec_turbo_decoder.block.yml": "turbo",
              "gpufec_scppm_decoder.block.yml": "scppm", "gpufec_tvb_decoder.block.yml": "tvb",
              "gpufec_viterbi_decoder.block.yml": "viterbi"}


def schema(family):
    return {o["name"]: o for o in gpufec.frame_family_schema(family)}


def same_value(declared, given):
    """a declared default (text) against a Python or GRC value"""
    if isinstance(given, (list, tuple)):  # a list parameter (Viterbi's polys): the text's numbers
        return declared.replace(":", " ").split() == [str(v) for v in given]
    if isinstance(given, bool):
        return declared in (("true", "1") if given else ("false", "0"))
    if isinstance(given, (int, float)):
        try:
            return float(declared) == float(given)
        except ValueError:
            return False
    return declared == str(given)


class qa_option_schema(gr_unittest.TestCase):

    def test_001_every_family_declares_its_options(self):
        for fam in gpufec.frame_families():
            s = schema(fam)
            self.assertIn("max_batch", s, msg=fam)
            if fam in GRC_BLOCKS.values() or fam == "repetition":
                self.assertGreater(len(s), 2, msg=fam)
            for o in s.values():
                self.assertTrue(o["doc"], msg="%s.%s" % (fam, o["name"]))
                if o["type"] == "choice":
                    self.assertTrue(o["choices"], msg="%s.%s" % (fam, o["name"]))
                    if o["default"]:
                        self.assertIn(o["default"], o["choices"], msg="%s.%s" % (fam, o["name"]))

    def test_002_python_defaults_are_the_declared_ones(self):
        for wrapper, fam, names in WRAPPERS:
            s = schema(fam)
            for p in inspect.signature(wrapper).parameters.values():
                name = names.get(p.name, p.name)
                if name not in s or p.default is None or s[name]["default"] == "":
                    continue  # (None: the family's own default; "": a default that follows others)
                self.assertTrue(same_value(s[name]["default"], p.default),
                                msg="%s(%s=%r) but %s declares %s" % (wrapper.__name__, p.name, p.default, fam,
                                                                      s[name]["default"]))

    def test_003_grc_defaults_and_choices_are_the_declared_ones(self):
        checked = 0
        for fname, fam in GRC_BLOCKS.items():
            with open(os.path.join(GRC_DIR, fname)) as f:
                block = yaml.safe_load(f)
            s = schema(fam)
            for p in block.get("parameters", []):
                if fam == "viterbi" and p["id"] == "mode":
                    continue  # (the Viterbi block streams by default: the frame family has no streaming)
                o = s.get(p["id"])
                if o is None or o["default"] == "":
                    continue
                code = str(p.get("default", ""))
                value = eval(code, {}, {}) if code else ""
                if value == 0 and "0 =" in str(p.get("label", "")):
                    continue  # GRC's "0 = the family's default" (the wrapper leaves the option out)
                self.assertTrue(same_value(o["default"], value),
                                msg="%s: %s defaults to %s, %s declares %s" % (fname, p["id"], code, fam, o["default"]))
                if o["type"] == "choice" and "options" in p:
                    offered = {str(eval(str(v), {}, {})) for v in p["options"]}
                    self.assertTrue(offered <= set(o["choices"]) | {""},
                                    msg="%s: %s offers %s, %s takes %s" % (fname, p["id"], offered, fam, o["choices"]))
                checked += 1
        self.assertGreater(checked, 10)

    def test_004_bad_options_are_refused_before_anything_is_made(self):
        # an unknown name or a bad value is named, even beside a code file that does not exist
        for opts, word in (("code=/no/such/file.alist, colour=blue", "colour"),
                           ("code=/no/such/file.alist, max_iterations=0", "max_iterations"),
                           ("code=/no/such/file.alist, precision=int4", "precision")):
            with self.assertRaisesRegex(ValueError, word):
                gpufec.frame_decoder("ldpc", opts, device="cpu")
        with self.assertRaisesRegex(ValueError, "does not apply"):
            gpufec.frame_decoder("tvb", "code=dm, d=4", device="cpu", length_tag_key="packet_len")
        # what frame_family_options (and gpufec_ber --list-options) print comes from the declaration
        self.assertIn("max_iterations=<integers 1..1000> (10)", gpufec.frame_family_options("ldpc"))

if __name__ == "__main__":
    gr_unittest.run(qa_option_schema)
