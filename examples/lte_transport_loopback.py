#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE transport blocks end to end on PDUs: payload -> lte_segment (CRC-24A, code blocks of two
sizes, CRC-24B) -> turbo_pdu_encoder -> lte_rate_match (each block's E of the G coded bits) ->
BPSK over AWGN -> lte_derate_match -> pdu_decoder (turbo, code=lte:any: K from each block's
length, on the GPU where there is one) -> lte_desegment -> transport block error rate.

    examples/lte_transport_loopback.py --blocks 20 --sizes 10000,2088,75376 --ebn0 1.5
"""
import argparse
import time

import numpy as np
import pmt
from gnuradio import blocks, gr
from gnuradio import gpufec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=12, help="transport blocks to send")
    ap.add_argument("--sizes", default="10000,2088,25456", help="transport block sizes A (bits), used in turn")
    ap.add_argument("--rate", type=float, default=0.5, help="code rate after rate matching (G = B / rate)")
    ap.add_argument("--ebn0", type=float, default=2.0, help="Eb/N0 in dB per payload bit")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every transport block decodes")
    args = ap.parse_args()
    sizes = [int(a) for a in args.sizes.split(",")]
    rng = np.random.default_rng(1)

    tb = gr.top_block()
    seg = gpufec.lte_segment(Qm=2)  # G per transport block, in its metadata
    enc = gpufec.turbo_pdu_encoder()
    rm = gpufec.lte_rate_match(K=0, E=0)
    ch = gpufec.bpsk_awgn_channel(gpufec.awgn_sigma(args.ebn0, args.rate), seed=2)
    drm = gpufec.lte_derate_match(K=0)
    dec = gpufec.pdu_decoder("turbo", gpufec.turbo_options(K=0, max_iterations=8), device=args.device)
    deseg = gpufec.lte_desegment()
    dbg = blocks.message_debug()
    for a, b in ((seg, enc), (enc, rm), (rm, ch), (ch, drm), (drm, dec), (dec, deseg)):
        tb.msg_connect((a, "pdus"), (b, "pdus"))
    tb.msg_connect((deseg, "pdus"), (dbg, "store"))
    tb.start()
    sent = []
    t0 = time.time()
    for i in range(args.blocks):
        A = sizes[i % len(sizes)]
        a = rng.integers(0, 2, A, dtype=np.uint8)
        sent.append(a)
        G = int(round((A + 24) / args.rate / 2)) * 2  # coded bits of this transport block
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("G"), pmt.from_long(G))
        seg.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_u8vector(A, a.tolist())))
    while dbg.num_messages() < args.blocks and time.time() - t0 < 120:
        time.sleep(0.01)
    elapsed = time.time() - t0
    tb.stop()
    tb.wait()
    got = [dbg.get_message(i) for i in range(dbg.num_messages())]
    errors = 0
    for a, m in zip(sent, got):
        bits = np.asarray(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
        ok = pmt.to_python(pmt.dict_ref(pmt.car(m), pmt.intern("crc_ok"), pmt.PMT_F))
        errors += (not ok) or len(bits) != len(a) or bool(np.any(bits != a))
    errors += len(sent) - len(got)
    print("%d transport blocks (A = %s), rate %.2f, Eb/N0 %.1f dB, decoder %s: %d in error, %d lost, %.2f s"
          % (len(sent), args.sizes, args.rate, args.ebn0, dec.backend(), errors, deseg.lost_blocks(), elapsed))
    if args.check and errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
