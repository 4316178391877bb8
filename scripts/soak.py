#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Soak test: runs a decoder block in a flowgraph for a set time (noisy soft values from
RAM, repeating, into the decoder, into a null sink) and prints, every interval, the process's
resident memory and the decoded bits per second. Ends with the RSS growth from the first to the
last report, and fails (exit 1) when it grew by more than --max-growth-mb.

    scripts/soak.py --decoder ldpc --device auto --seconds 600"""

import argparse
import os
import sys
import time

import numpy as np
from gnuradio import blocks, gr
from gnuradio import gpufec


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def soft_values(decoder, n_frames, rng):
    """bits -> the decoder's encoder -> BPSK + noise (Eb/N0 about 4 dB), float"""
    if decoder == "viterbi":
        bits = rng.integers(0, 2, 1 << 18, dtype=np.uint8)
        enc = gpufec.conv_encoder("ccsds")
    elif decoder == "ldpc":
        bits = rng.integers(0, 2, n_frames * 1152, dtype=np.uint8)
        enc = gpufec.ldpc_encoder("802.16e:2304:1/2")
    else:
        bits = rng.integers(0, 2, n_frames * 1024, dtype=np.uint8)
        enc = blocks.repeat(gr.sizeof_char, 3)
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(bits.tolist()), enc, snk)
    tb.run()
    coded = np.array(snk.data(), dtype=np.float32)
    return 2 * coded - 1 + rng.normal(0, 0.6, len(coded)).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decoder", choices=("ldpc", "viterbi", "repetition"), default="ldpc")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--interval", type=float, default=10)
    ap.add_argument("--max-growth-mb", type=float, default=64)
    a = ap.parse_args()
    rng = np.random.default_rng(5)
    soft = soft_values(a.decoder, 256, rng)
    path = "/dev/shm/gpufec_soak_%d.f32" % os.getpid()
    soft.tofile(path)
    try:
        if a.decoder == "ldpc":
            dec = gpufec.ldpc_decoder("802.16e:2304:1/2", device=a.device)
        elif a.decoder == "viterbi":
            dec = gpufec.viterbi_decoder("ccsds", device=a.device)
        else:
            dec = gpufec.frame_decoder("repetition", "frame_bits=1024, repeat=3", device="cpu")
        tb = gr.top_block()
        snk = blocks.null_sink(gr.sizeof_char)
        tb.connect(blocks.file_source(gr.sizeof_float, path, True), dec, snk)
        tb.start()
        print("soak: %s on %s for %.0f s" % (a.decoder, dec.backend(), a.seconds), flush=True)
        t0 = last_t = time.monotonic()
        last_n = 0
        first_rss = None
        rss = rss_mb()
        while time.monotonic() - t0 < a.seconds:
            time.sleep(a.interval)
            now, n = time.monotonic(), dec.nitems_written(0)
            rss = rss_mb()
            first_rss = rss if first_rss is None else first_rss
            print("t=%7.1f s  RSS %8.1f MB  %8.2f Mb/s" % (now - t0, rss, (n - last_n) / (now - last_t) / 1e6),
                  flush=True)
            last_t, last_n = now, n
        tb.stop()
        tb.wait()
    finally:
        os.unlink(path)
    growth = rss - (first_rss if first_rss is not None else rss)
    print("soak: RSS grew %.1f MB from the first report to the last" % growth)
    sys.exit(1 if growth > a.max_growth_mb else 0)


if __name__ == "__main__":
    main()
