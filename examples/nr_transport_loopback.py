#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""5G NR transport blocks end to end on PDUs (3GPP TS 38.212): payload -> nr_segmenter (CRC,
base graph from A and the rate, code blocks with CRC-24B and filler bits) -> ldpc_pdu_encoder ->
nr_rate_match (each block's E of the G coded bits, redundancy version rv, QPSK bit
interleaving) -> BPSK over AWGN -> nr_derate_match (HARQ combining of the versions) ->
pdu_decoder (ldpc, each code block's code from its metadata: base graph, lifting size, filler
bits; on the GPU where there is one) -> nr_desegmenter -> transport block error rate.

    examples/nr_transport_loopback.py --blocks 20 --sizes 8000,1500,30000 --rate 0.5 --ebn0 1.5
    examples/nr_transport_loopback.py --rvs 0,2 --ebn0 0.5      # each block sent twice, combined
"""
import argparse
import time

import numpy as np
import pmt
from gnuradio import blocks, gr
from gnuradio import gpufec


class versions(gr.basic_block):
    """each code block once per redundancy version (metadata "rv"), and "new_data" on the first,
    so that nr_derate_match starts a fresh buffer for it and adds the others"""

    def __init__(self, rvs):
        gr.basic_block.__init__(self, "versions", None, None)
        self.rvs = rvs
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        for i, rv in enumerate(self.rvs):
            meta = pmt.dict_add(pmt.car(msg), pmt.intern("rv"), pmt.from_long(rv))
            meta = pmt.dict_add(meta, pmt.intern("new_data"), pmt.from_bool(i == 0))
            self.message_port_pub(pmt.intern("pdus"), pmt.cons(meta, pmt.cdr(msg)))


class last_version(gr.basic_block):
    """passes every n-th PDU: the decoder sees each code block once, its versions combined"""

    def __init__(self, n):
        gr.basic_block.__init__(self, "last_version", None, None)
        self.n, self.count = n, 0
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        self.count += 1
        if self.count % self.n == 0:
            self.message_port_pub(pmt.intern("pdus"), msg)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=12, help="transport blocks to send")
    ap.add_argument("--sizes", default="8000,1500,30000",
                    help="transport block sizes A (bits), used in turn (base graph 1 or 2, one or more code blocks)")
    ap.add_argument("--rate", type=float, default=0.5, help="code rate R that picks the base graph, G = A / R")
    ap.add_argument("--rvs", default="0", help="redundancy versions sent for each code block, combined (e.g. 0,2)")
    ap.add_argument("--ebn0", type=float, default=2.0, help="Eb/N0 in dB per payload bit of one version")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every transport block decodes")
    args = ap.parse_args()
    sizes = [int(a) for a in args.sizes.split(",")]
    rvs = [int(v) for v in args.rvs.split(",")]
    rng = np.random.default_rng(1)

    tb = gr.top_block()
    seg = gpufec.nr_segmenter(R=args.rate, Qm=2)  # G per transport block, in its metadata
    enc = gpufec.ldpc_pdu_encoder()
    ver = versions(rvs)
    rm = gpufec.nr_rate_match(Qm=2)
    ch = gpufec.bpsk_awgn_channel(gpufec.awgn_sigma(args.ebn0, args.rate), seed=2)
    drm = gpufec.nr_derate_match(Qm=2, combine=len(rvs) > 1)
    gate = last_version(len(rvs))
    # each code block's code ("code=nr:bg<b>:<Z>, shorten=...") from its metadata
    dec = gpufec.pdu_decoder("ldpc", "max_iterations=%d" % args.iterations, device=args.device,
                             options_key="ldpc_options")
    deseg = gpufec.nr_desegmenter()
    dbg = blocks.message_debug()
    chain = (seg, enc, ver, rm, ch, drm, gate, dec, deseg)
    for a, b in zip(chain, chain[1:]):
        tb.msg_connect((a, "pdus"), (b, "pdus"))
    tb.msg_connect((deseg, "pdus"), (dbg, "store"))
    tb.start()
    sent = []
    t0 = time.time()
    for i in range(args.blocks):
        A = sizes[i % len(sizes)]
        a = rng.integers(0, 2, A, dtype=np.uint8)
        sent.append(a)
        G = int(round(A / args.rate / 2)) * 2  # coded bits of this transport block (QPSK: even)
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
    lost = len(sent) - len(got)
    print("%d transport blocks (A = %s), rate %.2f, versions %s, Eb/N0 %.1f dB, decoder %s: %d in error, "
          "%d lost, %.2f s" % (len(sent), args.sizes, args.rate, args.rvs, args.ebn0, dec.backend(), errors, lost,
                               elapsed))
    if args.check and (errors or lost):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
