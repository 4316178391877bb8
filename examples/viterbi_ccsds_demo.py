#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpufec demo: CCSDS K=7 rate-1/2 convolutional code over a noisy BPSK channel.

random bits -> gpufec.conv_encoder (CCSDS) -> BPSK (+-1) -> + Gaussian noise at Eb/N0
-> gpufec.viterbi_decoder -> bit error rate, backend and throughput.
Headless; runs with or without a GPU (device="auto" picks one when there is one).
"""

import argparse
import math
import time

import numpy as np
from gnuradio import analog, blocks, gr
from gnuradio import gpufec


class ccsds_demo(gr.top_block):
    def __init__(self, nbits, ebn0_db, device, seed):
        gr.top_block.__init__(self, "gr-gpufec CCSDS demo", catch_exceptions=False)
        rate = 0.5
        sigma = math.sqrt(1.0 / (2.0 * rate * 10 ** (ebn0_db / 10.0)))
        self.src = analog.random_uniform_source_b(0, 2, seed)
        self.head = blocks.head(gr.sizeof_char, nbits)
        self.enc = gpufec.conv_encoder("ccsds")
        self.to_float = blocks.char_to_float(1, 0.5)         # 0/1 -> 0/2
        self.bpsk = blocks.add_const_ff(-1.0)                  # -> -1/+1 (gr-fec: +1 is bit 1)
        self.noise = analog.noise_source_f(analog.GR_GAUSSIAN, sigma, seed + 1)
        self.add = blocks.add_ff(1)
        self.dec = gpufec.viterbi_decoder("ccsds", device=device)
        self.ref = blocks.vector_sink_b()
        self.out = blocks.vector_sink_b()
        self.connect(self.src, self.head, self.enc, self.to_float, self.bpsk, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self.dec, self.out)
        self.connect(self.head, self.ref)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bits", type=int, default=4_000_000, help="information bits to send")
    p.add_argument("--ebn0", type=float, default=3.0, help="Eb/N0 in dB")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    tb = ccsds_demo(a.bits, a.ebn0, a.device, a.seed)
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0
    ref = np.array(tb.ref.data(), dtype=np.uint8)
    out = np.array(tb.out.data(), dtype=np.uint8)
    errors = int(np.count_nonzero(out != ref[:len(out)]))
    ber = errors / max(1, len(out))
    print("code:       %s" % tb.dec.code_description())
    print("backend:    %s" % tb.dec.backend())
    print("Eb/N0:      %.2f dB" % a.ebn0)
    print("decoded:    %d bits (the last %d stay in the decoder's window)" % (len(out), len(ref) - len(out)))
    print("bit errors: %d  BER = %.3e  (union bound %.3e, uncoded %.3e)"
          % (errors, ber, gpufec.union_bound_ber("ccsds", a.ebn0),
             0.5 * math.erfc(math.sqrt(10 ** (a.ebn0 / 10)))))
    print("throughput: %.2f Mb/s decoded through the whole flowgraph (%.2f s)" % (len(out) / dt / 1e6, dt))


if __name__ == "__main__":
    main()
