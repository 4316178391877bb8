#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""GNU Radio 3.10 keeps a Python stream block (a gr.sync_block or gr.basic_block subclass with a
work function) only through a non-owning handle: a block that no Python variable holds, as in
tb.connect(src, gpufec.poisson_channel(), snk), is freed while the flowgraph still calls it, and
tb.start() ends in a segmentation fault (GNU Radio issue #8137). gr-gpufec's Python stream blocks
hold themselves here from their construction to the end of the process, so the flowgraph never
calls a freed block. The cost: such a block is never freed (a few kilobytes to a megabyte each)."""
import threading

_alive = []
_lock = threading.Lock()


def keep_alive(block):
    with _lock:
        _alive.append(block)
