#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Flowgraph throughput of gpufec.ldpc_decoder against GNU Radio's gr-fec ldpc_decoder
(sum-product) on the same code, exported as an alist file: vector source (noisy BPSK of the
all-zero codeword, which belongs to every linear code) -> decoder -> sink, in decoded
information bits per second, with the decoders' bit errors as a check. Both decoders run the
same number of iterations without early termination where they allow it (gr-fec's stops when
its syndrome is zero)."""

import argparse
import os
import tempfile
import time

import numpy as np
from gnuradio import blocks, fec, gr
from gnuradio import gpufec


def run(dec_block, soft, in_size, n_out):
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False) if in_size == 4 else blocks.vector_source_b(soft.tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec_block, snk)
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0
    out = np.array(snk.data())
    return dt, out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default="802.16e:2304:1/2")
    p.add_argument("--frames", type=int, default=400)
    p.add_argument("--ebn0", type=float, default=2.5)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--devices", default="cpu")
    a = p.parse_args()
    enc = gpufec.ldpc_encoder(a.code)
    k, n = enc.info_bits(), enc.codeword_bits()
    sigma = np.sqrt(1.0 / (2 * (k / n) * 10 ** (a.ebn0 / 10)))
    rng = np.random.default_rng(1)
    soft = (-1.0 + sigma * rng.normal(size=n * a.frames)).astype(np.float32)  # all-zero codeword

    with tempfile.NamedTemporaryFile("w", suffix=".alist", delete=False) as f:
        f.write(gpufec.ldpc_code_alist(a.code))
        alist = f.name
    print("%-58s %10s %10s %12s" % ("decoder (%s, %d codewords, Eb/N0 %.1f dB)" % (a.code, a.frames, a.ebn0),
                                    "Mb/s info", "bit errors", "iterations"))
    try:
        for dev in a.devices.split(","):
            dec = gpufec.ldpc_decoder(a.code, max_iterations=a.iterations, early_termination=False, device=dev)
            dt, out = run(dec, soft, 4, k)
            print("%-58s %10.2f %10d %12s" % ("gpufec.ldpc_decoder " + dec.backend()[:38], len(out) / dt / 1e6,
                                              np.count_nonzero(out), "%d (fixed)" % a.iterations))
        # gr-fec: its decoder object in a decoder block; it takes the received BPSK samples
        # (the same mapping: bit 1 = +1) and the noise sigma
        grdec = fec.ldpc_decoder.make(alist, float(sigma), a.iterations)
        blk = fec.decoder(grdec, gr.sizeof_float, gr.sizeof_char)
        dt, out = run(blk, soft, 4, k)
        print("%-58s %10.2f %10d %12s" % ("gr-fec ldpc_decoder (sum-product, same alist)",
                                          len(out) / dt / 1e6, np.count_nonzero(out), "<= %d" % a.iterations))
    finally:
        os.unlink(alist)


if __name__ == "__main__":
    main()
