#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Transport blocks through the PDU chain: lte_segment -> turbo_pdu_encoder -> lte_rate_match
(K=0) -> BPSK/AWGN -> lte_derate_match (K=0) -> pdu_decoder (turbo, code=lte:any) ->
lte_desegment; transport blocks of one and of several code blocks (two sizes, filler bits), the
decoder's CRC-24B or the desegmenter's, and what is dropped when blocks go missing."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpufec



def run_chain(tbs, G, decoder_crc="none", sigma=0.6, drop_block=None):
    """transport blocks (bit arrays) through the chain; returns (output PDUs, the blocks)"""
    tb = gr.top_block()
    seg = gpufec.lte_segment(G=G, Qm=2)
    enc = gpufec.turbo_pdu_encoder()
    rm = gpufec.lte_rate_match(K=0, E=0)  # E from the segmenter when G is set, else 3K + 12
    ch = gpufec.bpsk_awgn_channel(sigma, seed=3)
    drm = gpufec.lte_derate_match(K=0)
    dec = gpufec.pdu_decoder("turbo", gpufec.turbo_options(K=0, crc=decoder_crc), device="cpu")
    deseg = gpufec.lte_desegment()
    dbg = blocks.message_debug()
    tb.msg_connect((seg, "pdus"), (enc, "pdus"))
    tb.msg_connect((enc, "pdus"), (rm, "pdus"))
    tb.msg_connect((rm, "pdus"), (ch, "pdus"))
    tb.msg_connect((ch, "pdus"), (drm, "pdus"))
    tb.msg_connect((drm, "pdus"), (dec, "pdus"))
    if drop_block is None:
        tb.msg_connect((dec, "pdus"), (deseg, "pdus"))
    else:  # a lossy link between decoder and desegmenter: loses one code block
        class lossy(gr.basic_block):
            def __init__(self):
                gr.basic_block.__init__(self, "lossy", None, None)
                self.n = 0
                self.message_port_register_in(pmt.intern("pdus"))
                self.message_port_register_out(pmt.intern("pdus"))
                self.set_msg_handler(pmt.intern("pdus"), self.handle)

            def handle(self, msg):
                if self.n != drop_block:
                    self.message_port_pub(pmt.intern("pdus"), msg)
                self.n += 1
        loss = lossy()
        tb.msg_connect((dec, "pdus"), (loss, "pdus"))
        tb.msg_connect((loss, "pdus"), (deseg, "pdus"))
    tb.msg_connect((deseg, "pdus"), (dbg, "store"))
    tb.start()
    for a in tbs:
        seg.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(pmt.make_dict(), pmt.init_u8vector(len(a), a.tolist())))
    want = len(tbs) - (1 if drop_block is not None else 0)
    t0 = time.time()
    while dbg.num_messages() < want and time.time() - t0 < 60:
        time.sleep(0.01)
    time.sleep(0.1)
    tb.stop()
    tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())], (seg, enc, rm, drm, dec, deseg)


class qa_lte_transport(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(9)

    def test_001_segment_labels_the_blocks(self):
        A = 10000  # B = 10024: two code blocks of two sizes, with filler bits
        seg = gpufec.lte_segmentation.compute(A + 24)
        self.assertEqual(seg.C, 2)
        tb = gr.top_block()
        blk = gpufec.lte_segment(G=12000, Qm=2)
        dbg = blocks.message_debug()
        tb.msg_connect((blk, "pdus"), (dbg, "store"))
        tb.start()
        a = self.rng.integers(0, 2, A, dtype=np.uint8)
        blk.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(pmt.make_dict(), pmt.init_u8vector(A, a.tolist())))
        t0 = time.time()
        while dbg.num_messages() < 2 and time.time() - t0 < 10:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 2)
        got, E = [], 0
        for r in range(2):
            m = dbg.get_message(r)
            meta = pmt.to_python(pmt.car(m))
            bits = np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
            self.assertEqual((meta["cb"], meta["C"], meta["A"], meta["K"]), (r, 2, A, seg.K(r)))
            self.assertEqual(meta["F"], seg.F if r == 0 else 0)
            self.assertEqual(len(bits), seg.K(r))
            self.assertTrue(gpufec.crc_check("lte-24b", bits))  # each block carries its CRC-24B
            got.append(bits[meta["F"]:-24])
            E += meta["E"]
        self.assertEqual(E, 12000)  # the blocks share the G coded bits
        b = np.concatenate(got)
        np.testing.assert_array_equal(b[:A], a)
        self.assertTrue(gpufec.crc_check("lte-24a", b))

    def test_002_chain_of_one_and_several_blocks(self):
        for crc, sizes in (("none", (10000, 100, 6120, 7000)), ("lte-24b", (10000, 7000))):
            tbs = [self.rng.integers(0, 2, A, dtype=np.uint8) for A in sizes]
            out, stages = run_chain(tbs, G=0, decoder_crc=crc)
            self.assertEqual(len(out), len(tbs), msg=crc)
            for a, m in zip(tbs, out):
                meta = pmt.to_python(pmt.car(m))
                np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8), a)
                self.assertTrue(meta["crc_ok"], msg=crc)
                self.assertTrue(all(meta["blocks_ok"]), msg=crc)
            self.assertEqual(sum(s.dropped() for s in stages if hasattr(s, "dropped")), 0)

    def test_003_rate_matched_and_noisy(self):
        # G = 2 B: rate about 1/2 after rate matching; at sigma 0.5 (about 5 dB) every block decodes
        tbs = [self.rng.integers(0, 2, A, dtype=np.uint8) for A in (10000, 500)]
        outs = []
        for a in tbs:
            out, _ = run_chain([a], G=2 * (len(a) + 24 + 48), sigma=0.5)
            outs += out
        for a, m in zip(tbs, outs):
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8), a)
            self.assertTrue(pmt.to_python(pmt.car(m))["crc_ok"])

    def test_004_a_lost_block_drops_its_transport_block(self):
        tbs = [self.rng.integers(0, 2, A, dtype=np.uint8) for A in (10000, 10000, 300)]
        out, stages = run_chain(tbs, G=0, drop_block=1)  # the second block of the first transport block
        deseg = stages[-1]
        self.assertEqual(len(out), 2)
        for a, m in zip(tbs[1:], out):
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8), a)
        self.assertEqual(deseg.lost_blocks(), 1)

    def test_005_bad_pdus_are_dropped_and_counted(self):
        enc = gpufec.turbo_pdu_encoder()
        enc.handle(pmt.make_dict(), pmt.init_u8vector(41, [0] * 41))  # no LTE K
        enc.handle(pmt.make_dict(), pmt.init_f32vector(40, [0.0] * 40))
        self.assertEqual(enc.dropped(), 2)
        rm = gpufec.lte_rate_match(K=0)
        rm.handle(pmt.make_dict(), pmt.init_u8vector(100, [0] * 100))  # no K known
        self.assertEqual(rm.dropped(), 1)
        with self.assertRaises(ValueError):
            gpufec.lte_segment(Qm=3)
        with self.assertRaises(ValueError):
            gpufec.lte_rate_match(K=6144, rv=4)
        self.assertEqual(len(gpufec.lte_k_sizes()), 188)


if __name__ == "__main__":
    gr_unittest.run(qa_lte_transport)
