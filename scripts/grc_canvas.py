#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks (and with --fix, repairs) the canvases of example flowgraphs: no two blocks may
overlap, with the blocks' sizes as GNU Radio Companion draws them. Needs GRC's GUI and a display
(under Xvfb: xvfb-run scripts/grc_canvas.py examples/*.grc). --fix moves the flow below the
options and variables, then pushes overlapping blocks right (side by side) or down (stacked),
on an 8-pixel grid, and rewrites only their coordinates.
Each file is measured in a child process of its own: GRC draws only the page in view."""
import json
import re
import subprocess
import sys

GRID, MARGIN = 8, 12


def measure(path):
    """{block name: [x, y, width, height]} as GRC draws them"""
    code = r'''
import json, os, sys
import gi
gi.require_version("Gtk", "3.0"); gi.require_version("PangoCairo", "1.0")
from gi.repository import Gtk, GLib
from gnuradio import gr
from gnuradio.grc.gui.Platform import Platform
from gnuradio.grc.gui.Application import Application
p = Platform(version=gr.version(), version_parts=(gr.major_version(), gr.api_version(), gr.minor_version()),
             prefs=gr.prefs(), install_prefix=gr.prefix())
p.build_library()
app = Application([sys.argv[1]], p)
def dump():
    page = app.main_window.current_page
    out = {}
    for b in page.flow_graph.blocks:
        w, h = (b.width, b.height) if b.is_horizontal() else (b.height, b.width)
        out[b.name] = [b.coordinate[0], b.coordinate[1], w, h]
    print("EXTENTS " + json.dumps(out), flush=True)
    os._exit(0)
GLib.timeout_add(4000, dump)
app.run()
'''
    r = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=120)
    for line in r.stdout.splitlines():
        if line.startswith("EXTENTS "):
            return json.loads(line[8:])
    sys.exit("grc_canvas: GRC did not draw %s:\n%s" % (path, r.stderr[-2000:]))


def overlaps(a, b, margin=0):
    return (a[0] < b[0] + b[2] + margin and b[0] < a[0] + a[2] + margin and
            a[1] < b[1] + b[3] + margin and b[1] < a[1] + a[3] + margin)


def on_grid(v):
    return (v + GRID - 1) // GRID * GRID


def layout(r):
    top = {n for n in r if r[n][1] < 100}  # options, variables, snippets
    rest = [n for n in r if n not in top]
    if top and rest:
        shift = max(0, max(r[n][1] + r[n][3] for n in top) + 24 - min(r[n][1] for n in rest))
        for n in rest:
            r[n][1] = on_grid(r[n][1] + shift)
    for _ in range(500):
        names = sorted(r, key=lambda n: (r[n][0], r[n][1]))
        pair = next(((a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlaps(r[a], r[b], MARGIN)), None)
        if not pair:
            return
        a, b = pair
        if r[b][1] >= r[a][1] + r[a][3] / 2 and not (a in top and b in top):  # stacked: push it down
            r[b][1] = on_grid(r[a][1] + r[a][3] + 16)
        else:  # side by side: it and whatever is right of it in its band move right
            dx, x0 = on_grid(r[a][0] + r[a][2] + 24 - r[b][0]), r[b][0]
            for n in r:
                if n != a and r[n][0] >= x0 and (n in top) == (b in top):
                    r[n][0] += dx
    sys.exit("grc_canvas: no layout without overlaps found")


def write(path, r):
    text = open(path).read()
    for n, (x, y, _, _) in r.items():
        pat = re.compile(r"(\n- name: %s\n(?:(?:  .*)?\n)*?    coordinate: )\[[^\]]*\]" % re.escape(n))
        text = pat.sub(lambda m: m.group(1) + "[%d, %d]" % (x, y), text, count=1)
    open(path, "w").write(text)


def main():
    fix = "--fix" in sys.argv
    bad = 0
    for path in [a for a in sys.argv[1:] if a != "--fix"]:
        r = measure(path)
        pairs = [(a, b) for i, a in enumerate(r) for b in list(r)[i + 1:] if overlaps(r[a], r[b])]
        if pairs and fix:
            layout(r)
            write(path, r)
            pairs = [(a, b) for i, a in enumerate(r) for b in list(r)[i + 1:] if overlaps(r[a], r[b])]
        print("%s: %s" % (path, "overlapping: %s" % pairs if pairs else "no overlaps"))
        bad += bool(pairs)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
