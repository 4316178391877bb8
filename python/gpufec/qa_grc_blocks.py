#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Every GRC block of gr-gpufec, as GNU Radio Companion would build it: from its defaults, and
after every one-option change (each enum and bool parameter set to each of its values, alone
and then with a second one changed after it, which may hide the first). Whatever GRC's checks
(the blocks' asserts) accept must construct: a hidden parameter that still holds a value the
other parameters make invalid must not be passed to the block, or must be refused by an assert
that GRC shows before the flowgraph runs.

GRC's rules, followed here: a template sees each parameter as its code text (an enum's option
"'lte'", an int's '6144'); `hide` expressions see the same; asserts see evaluated values, except
enums, which stay their option text."""

import glob
import os
import sys

import yaml
from mako.template import Template
from gnuradio import gr_unittest
from gnuradio import gpufec  # noqa: F401 (the templates' import)

GRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")
EXAMPLE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "tvb",
                            "tvb_q16_n8_modvec6.txt")
# values a string or number parameter takes besides its default, where the default alone would
# not construct (a file the block needs): parameter id -> code text
EXTRA = {"file": repr(EXAMPLE_FILE), "length_tag_key": "'packet_len'"}


def load_blocks():
    out = []
    for path in sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml"))):
        with open(path) as f:
            b = yaml.safe_load(f)
        if "templates" in b and "make" in b["templates"]:
            out.append((os.path.basename(path), b))
    return out


def defaults(block):
    out = {}
    for p in block.get("parameters", []):
        v = p.get("default", "''")
        # a file parameter holds a path, whose code text is its repr
        out[p["id"]] = repr(str(v)) if p.get("dtype") in ("file_open", "file_save") else str(v)
    return out


def choices(p):
    if p.get("dtype") in ("enum", "bool") and "options" in p:
        return [str(o) for o in p["options"]]
    return []


def mako_eval(expr, values):
    """a ${...} expression of a hide or dtype field, with the parameters as their code text"""
    expr = str(expr).strip()
    if not (expr.startswith("${") and expr.endswith("}")):
        return expr
    return eval(expr[2:-1], {}, dict(values))


def evaluated(block, values):
    """the parameters as asserts see them: enums as their option text, the rest evaluated"""
    out = {}
    for p in block.get("parameters", []):
        v = values[p["id"]]
        if p.get("dtype") == "enum":
            out[p["id"]] = v
        else:
            try:
                out[p["id"]] = eval(v, {}, {})
            except Exception:
                out[p["id"]] = v
    return out


def asserts_pass(block, values):
    ns = evaluated(block, values)
    for a in block.get("asserts", []):
        try:
            if not mako_eval(a, ns):
                return False
        except Exception:
            return False
    return True


def hidden(block, values, pid):
    p = next(p for p in block["parameters"] if p["id"] == pid)
    return mako_eval(p.get("hide", "none"), values) == "all"


def construct(block, values):
    code = Template(block["templates"]["make"]).render(id="blk", **values)
    return eval(code, {"gpufec": gpufec}, {})


class qa_grc_blocks(gr_unittest.TestCase):

    def check(self, name, block, values, why):
        if not asserts_pass(block, values):
            return  # GRC shows the error before the flowgraph runs
        try:
            construct(block, values)
        except Exception as e:
            changed = {k: v for k, v in values.items() if v != defaults(block)[k]}
            self.fail("%s: GRC accepts %s (%s) but the block fails: %s" % (name, changed, why, e))

    def test_001_every_one_option_change_constructs(self):
        blocks = load_blocks()
        self.assertGreaterEqual(len(blocks), 20)
        for name, block in blocks:
            base = defaults(block)
            self.check(name, block, base, "defaults")
            params = block.get("parameters", [])
            for p in params:
                alternatives = choices(p) + ([EXTRA[p["id"]]] if p["id"] in EXTRA else [])
                for v in alternatives:
                    one = dict(base, **{p["id"]: v})
                    self.check(name, block, one, "one change")
                    # then a second change that may hide the first: the first stays set
                    for q in params:
                        if q["id"] == p["id"]:
                            continue
                        for w in choices(q):
                            two = dict(one, **{q["id"]: w})
                            if hidden(block, two, p["id"]):
                                self.check(name, block, two, "%s hidden by %s" % (p["id"], q["id"]))

    def test_003_callbacks_run_on_the_built_block(self):
        # what GRC calls when a variable a parameter uses changes: every callback of every block,
        # with the default values and with each enum or bool changed
        seen = 0
        for name, block in load_blocks():
            callbacks = block["templates"].get("callbacks", [])
            if not callbacks:
                continue
            base = defaults(block)
            blk = construct(block, base)
            for cb in callbacks:
                for p in [None] + block.get("parameters", []):
                    for v in (choices(p) if p else [None]):
                        values = dict(base, **({p["id"]: v} if p else {}))
                        code = Template(cb).render(id="blk", **values)
                        try:
                            eval("blk." + code, {"blk": blk}, {})
                        except Exception as e:
                            self.fail("%s: callback %s failed: %s" % (name, code, e))
                        seen += 1
        self.assertGreater(seen, 0)

    def test_002_file_options_without_a_file_are_caught_by_grc(self):
        # code=file with no file: GRC's asserts refuse it (not a failure at run time)
        for name, block in load_blocks():
            ids = {p["id"] for p in block.get("parameters", [])}
            if "file" in ids and "code" in ids:
                values = dict(defaults(block), code="'file'", file="''")
                self.assertFalse(asserts_pass(block, values), msg=name)


if __name__ == "__main__":
    gr_unittest.run(qa_grc_blocks)
