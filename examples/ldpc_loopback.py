#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LDPC loopback, headless: random bits -> gpufec.ldpc_encoder -> BPSK -> AWGN at a chosen
Eb/N0 -> gpufec.ldpc_decoder; prints BER, FER, the mean iteration count, the backend and the
throughput through the whole flowgraph. Any code the family names: IEEE, DVB-S2, CCSDS (AR4JA
as sent, its punctured bits left out: ccsds:2048:1024; C2: ccsds:8160:7136; telecommand:
ccsds:512:256), 5G NR mother codes, alist and base-matrix files."""

import argparse
import math
import time

import numpy as np
from gnuradio import analog, blocks, gr
from gnuradio import gpufec


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default="802.11n:1944:1/2", help="standard id or alist/base-matrix file")
    p.add_argument("--ebn0", type=float, default=2.0, help="Eb/N0 in dB")
    p.add_argument("--frames", type=int, default=500)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--device", default="auto")
    p.add_argument("--check", action="store_true", help="exit 1 unless every codeword decodes (and all arrive)")
    a = p.parse_args()

    enc = gpufec.ldpc_encoder(a.code)
    k, n = enc.info_bits(), enc.codeword_bits()
    rate = k / n
    sigma = math.sqrt(1.0 / (2 * rate * 10 ** (a.ebn0 / 10)))
    dec = gpufec.ldpc_decoder(a.code, max_iterations=a.iterations, device=a.device)

    tb = gr.top_block()
    src = blocks.vector_source_b(list(np.random.default_rng(1).integers(0, 2, k * a.frames, dtype=np.uint8)))
    sent, got = blocks.vector_sink_b(), blocks.vector_sink_b()
    to_f = blocks.char_to_float(1, 0.5)  # 0/1 -> 0/2
    bpsk = blocks.add_const_ff(-1.0)     # -> -1/+1 (bit 1 positive)
    noise = analog.noise_source_f(analog.GR_GAUSSIAN, sigma, 7)
    add = blocks.add_ff()
    tb.connect(src, enc, to_f, bpsk, (add, 0))
    tb.connect(noise, (add, 1))
    tb.connect(add, dec, got)
    tb.connect(src, sent)
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0

    out, ref = np.array(got.data()), np.array(sent.data())
    frames = len(out) // k
    diff = out[:frames * k] != ref[:frames * k]
    fer = np.count_nonzero(diff.reshape(frames, k).any(axis=1)) / max(1, frames)
    print("code:       %s" % dec.code_description())
    print("backend:    %s" % dec.backend())
    print("Eb/N0:      %.2f dB" % a.ebn0)
    print("decoded:    %d codewords (%d information bits)" % (frames, frames * k))
    print("BER:        %.3e   FER: %.3e   mean iterations: %.2f   failed syndromes: %d"
          % (np.count_nonzero(diff) / max(1, frames * k), fer, dec.mean_iterations(), dec.failed_codewords()))
    print("throughput: %.2f Mb/s of information bits through the whole flowgraph (%.2f s)"
          % (frames * k / dt / 1e6, dt))
    if a.check and (frames != a.frames or np.any(diff)):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
