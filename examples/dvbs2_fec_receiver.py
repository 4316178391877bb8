#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""DVB-S2 FEC against GNU Radio's own DVB-S2 transmitter, headless: random BBFRAMEs ->
gr-dtv's dvb_bch_bb and dvb_ldpc_bb (the standard's BCH and LDPC encoders) -> BPSK -> AWGN
-> gpufec.frame_decoder("ldpc", "code=dvbs2:<n>:<rate>, outer=bch"): LDPC decoding with the
BCH after it, K_bch bits out per FECFRAME. Prints the frame error rate, how many frames the
BCH mended after the LDPC decoder stopped short (tag ldpc_inner_ok false, ldpc_bch_ok true),
the backend and the throughput through the whole flowgraph. --check exits 1 when a frame comes
out wrong while its status says it passed, or when more than --max-fer of the frames fail."""

import argparse
import math
import sys
import time

import numpy as np
import pmt
from gnuradio import analog, blocks, dtv, gr
from gnuradio import gpufec

RATES = {"1/4": "C1_4", "1/3": "C1_3", "2/5": "C2_5", "1/2": "C1_2", "3/5": "C3_5", "2/3": "C2_3",
         "3/4": "C3_4", "4/5": "C4_5", "5/6": "C5_6", "8/9": "C8_9", "9/10": "C9_10"}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--frame", choices=("normal", "short"), default="short")
    p.add_argument("--rate", choices=sorted(RATES), default="1/2", help="the standard's nominal code rate")
    p.add_argument("--ebn0", type=float, default=2.0, help="Eb/N0 in dB, per BBFRAME bit")
    p.add_argument("--frames", type=int, default=40)
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--device", default="auto")
    p.add_argument("--check", action="store_true")
    p.add_argument("--max-fer", type=float, default=0.05)
    a = p.parse_args()

    n = 64800 if a.frame == "normal" else 16200
    opts = "code=dvbs2:%d:%s, outer=bch, max_iterations=%d" % (n, a.rate, a.iterations)
    bch = gpufec.bch_code.dvbs2(n, a.rate)
    kbch = bch.k()
    sigma = math.sqrt(1.0 / (2 * (kbch / n) * 10 ** (a.ebn0 / 10)))

    tb = gr.top_block()
    bits = np.random.default_rng(1).integers(0, 2, kbch * a.frames, dtype=np.uint8)
    src = blocks.vector_source_b(bits.tolist())
    frame = dtv.FECFRAME_NORMAL if n == 64800 else dtv.FECFRAME_SHORT
    rate = getattr(dtv, RATES[a.rate])
    bch_enc = dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, frame, rate)
    ldpc_enc = dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, frame, rate, dtv.MOD_OTHER)
    to_f = blocks.char_to_float(1, 0.5)  # 0/1 -> 0/2
    bpsk = blocks.add_const_ff(-1.0)     # -> -1/+1 (bit 1 positive, the module's convention)
    noise = analog.noise_source_f(analog.GR_GAUSSIAN, sigma, 7)
    add = blocks.add_ff()
    dec = gpufec.frame_decoder("ldpc", opts, device=a.device, status_tags="all")
    got = blocks.vector_sink_b()
    tb.connect(src, bch_enc, ldpc_enc, to_f, bpsk, (add, 0))
    tb.connect(noise, (add, 1))
    tb.connect(add, dec, got)
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0

    out = np.array(got.data(), dtype=np.uint8)
    frames = len(out) // kbch
    wrong = (out[:frames * kbch] != bits[:frames * kbch]).reshape(frames, kbch).any(axis=1)
    status = {}
    for t in got.tags():
        status.setdefault(pmt.symbol_to_string(t.key), {})[t.offset // kbch] = pmt.to_python(t.value)
    passed = status.get("ldpc_bch_ok", {})
    inner = status.get("ldpc_inner_ok", {})
    mended = sum(1 for f in range(frames) if passed.get(f) and not inner.get(f, True))
    false_ok = sum(1 for f in range(frames) if wrong[f] and passed.get(f))
    print("code:       %s" % opts)
    print("backend:    %s" % dec.backend())
    print("Eb/N0:      %.2f dB (BPSK, sigma %.3f)" % (a.ebn0, sigma))
    print("decoded:    %d FECFRAMEs (%d BBFRAME bits each)" % (frames, kbch))
    print("FER:        %.3e   frames the BCH mended after the LDPC decoder: %d   failed and said so: %d"
          "   wrong but reported passing: %d" % (np.count_nonzero(wrong) / max(1, frames), mended,
                                                 sum(1 for f in range(frames) if not passed.get(f, False)), false_ok))
    print("throughput: %.2f Mb/s of BBFRAME bits through the whole flowgraph (%.2f s)"
          % (frames * kbch / dt / 1e6, dt))
    if a.check and (frames != a.frames or false_ok or np.count_nonzero(wrong) > a.max_fer * frames):
        print("check failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
