#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Flowgraph-level benchmark: vector source (noisy CCSDS soft bits, repeated) -> decoder ->
null sink, in decoded bits (items) per second, for gpufec.viterbi_decoder on each device asked
for and, in the same run, GNU Radio's gr-fec cc_decoder (streaming, K=7 rate 1/2)."""

import argparse
import math
import time

import numpy as np
from gnuradio import blocks, fec, gr
from gnuradio import gpufec

POLYS = [109, 79]  # K=7 rate 1/2, uninverted, so that gr-fec decodes the same stream


def soft_block(n_bits, ebn0_db, seed=3):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, n_bits, dtype=np.uint8)
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(bits.tolist()), gpufec.conv_encoder("custom", 7, POLYS), snk)
    tb.run()
    coded = np.array(snk.data(), dtype=np.float32)
    sigma = math.sqrt(1.0 / (2 * 0.5 * 10 ** (ebn0_db / 10)))
    return (2 * coded - 1 + rng.normal(0, sigma, len(coded))).astype(np.float32)


def measure(make_decoder, soft, n_bits):
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), True)
    head = blocks.head(gr.sizeof_float, 2 * n_bits)
    dec = make_decoder()
    snk = blocks.null_sink(gr.sizeof_char)
    tb.connect(src, head, dec, snk)
    t0 = time.perf_counter()
    tb.run()
    return n_bits / (time.perf_counter() - t0), dec


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bits", type=int, default=20_000_000)
    p.add_argument("--reps", type=int, default=3, help="runs per decoder (the median is shown)")
    p.add_argument("--devices", default="cpu,auto", help="comma-separated gpufec devices")
    p.add_argument("--no-grfec", action="store_true", help="skip gr-fec's cc_decoder")
    a = p.parse_args()
    soft = soft_block(1 << 18, 3.0)

    def grfec():
        return fec.extended_decoder(fec.cc_decoder.make(2048, 7, 2, POLYS, 0, -1, fec.CC_STREAMING, False),
                                    None, None, "11", 10000)

    contenders = [("gpufec.viterbi_decoder " + dev,
                   lambda dev=dev: gpufec.viterbi_decoder("custom", 7, POLYS, device=dev))
                  for dev in a.devices.split(",") if dev]
    if not a.no_grfec:
        contenders.append(("gr-fec cc_decoder (streaming)", grfec))
    # the decoders take turns, run after run, so that a slow spell of the machine hits all alike
    rates = {name: [] for name, _ in contenders}
    labels = {}
    for _ in range(a.reps):
        for name, make in contenders:
            rate, dec = measure(make, soft, a.bits)
            rates[name].append(rate)
            labels[name] = ("gpufec.viterbi_decoder " + dec.backend()) if hasattr(dec, "backend") else name
    print("%-52s %12s %12s %12s" % ("decoder (%d bits, %d runs)" % (a.bits, a.reps),
                                    "median Mb/s", "min", "max"))
    for name, _ in contenders:
        r = sorted(rates[name])
        print("%-52s %12.2f %12.2f %12.2f" % (labels[name], r[len(r) // 2] / 1e6, r[0] / 1e6, r[-1] / 1e6))


if __name__ == "__main__":
    main()
