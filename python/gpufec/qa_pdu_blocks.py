#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The Python PDU blocks (lte_segment, turbo_pdu_encoder, lte_rate_match, lte_derate_match,
lte_desegment, bsid_channel) under malformed messages: each bad message is dropped, logged and
counted, and the PDU that follows it still comes out. Constructor values the blocks cannot serve
are refused at construction, naming the parameter."""

import numpy as np
import pmt
from gnuradio import gr_unittest
from gnuradio import gpufec

from qa_util import decode_pdus


def u8(bits):
    return pmt.init_u8vector(len(bits), [int(b) for b in bits])


def f32(vals):
    return pmt.init_f32vector(len(vals), [float(v) for v in vals])


def meta(**kw):
    d = pmt.make_dict()
    for k, v in kw.items():
        d = pmt.dict_add(d, pmt.intern(k), v if isinstance(v, pmt.pmt_base) else pmt.from_long(v))
    return d


def through(block, msgs, expect, timeout=20):
    """posts msgs to block's "pdus" port; what it published once `expect` came (or at the timeout)"""
    return decode_pdus(block, msgs, timeout=timeout, expect=expect)


NOT_PDUS = [pmt.intern("hello"), pmt.from_long(3), meta(a=1),  # a dict is a pair of pairs
            pmt.cons(pmt.from_long(3), u8([1, 0]))]  # metadata that is not a dict


class qa_pdu_blocks(gr_unittest.TestCase):

    def check_survives(self, block, bad, good, out_len):
        """every bad message dropped and counted; the good PDU after each still comes out"""
        msgs = []
        for b in bad:
            msgs += [b, good]
        out = through(block, msgs, len(bad))
        self.assertEqual(len(out), len(bad), msg=type(block).__name__)
        for m in out:
            self.assertEqual(pmt.length(pmt.cdr(m)), out_len)
        self.assertEqual(block.dropped(), len(bad), msg=type(block).__name__)

    def test_001_lte_rate_match(self):
        good = pmt.cons(meta(), u8(np.zeros(132)))
        bad = NOT_PDUS + [pmt.cons(meta(rv=r), u8(np.zeros(132))) for r in (-1, 4, 1 << 40)] + [
            pmt.cons(meta(rv=pmt.intern("two")), u8(np.zeros(132))),
            pmt.cons(meta(E=0), u8(np.zeros(132))),
            pmt.cons(meta(E=1 << 31), u8(np.zeros(132))),
            pmt.cons(meta(E=-5), u8(np.zeros(132))),
            pmt.cons(meta(), u8(np.zeros(131))),
            pmt.cons(meta(), f32(np.zeros(132)))]
        self.check_survives(gpufec.lte_rate_match(K=40, E=120), bad, good, 120)
        # K=0: sizes from the metadata
        bad_any = [pmt.cons(meta(K=41), u8(np.zeros(135))), pmt.cons(meta(K=40, F=40), u8(np.zeros(132))),
                   pmt.cons(meta(K=-40), u8(np.zeros(132)))]
        self.check_survives(gpufec.lte_rate_match(K=0, E=120), bad_any, good, 120)

    def test_002_lte_derate_match(self):
        good = pmt.cons(meta(), f32(np.ones(120)))
        bad = NOT_PDUS + [pmt.cons(meta(rv=9), f32(np.ones(120))), pmt.cons(meta(), u8(np.ones(120))),
                          pmt.cons(meta(), f32([]))]
        self.check_survives(gpufec.lte_derate_match(K=40), bad, good, 132)

    def test_003_lte_segment(self):
        good = pmt.cons(meta(), u8(np.ones(100)))
        bad = NOT_PDUS + [pmt.cons(meta(G=7), u8(np.ones(100))),        # not a multiple of Qm = 2
                          pmt.cons(meta(G=-2), u8(np.ones(100))),
                          pmt.cons(meta(G=1 << 40), u8(np.ones(100))),
                          pmt.cons(meta(), u8([2] * 100)),
                          pmt.cons(meta(), u8([]))]
        self.check_survives(gpufec.lte_segment(G=0), bad, good, 128)  # 100 + 24 bits: K = 128

    def test_004_turbo_pdu_encoder(self):
        good = pmt.cons(meta(), u8(np.ones(40)))
        bad = NOT_PDUS + [pmt.cons(meta(), u8([7] * 40)), pmt.cons(meta(), u8(np.ones(41)))]
        self.check_survives(gpufec.turbo_pdu_encoder(), bad, good, 132)

    def test_005_lte_desegment(self):
        good = pmt.cons(meta(), u8(np.ones(40)))  # A = 16: one code block of K = 40
        bad = NOT_PDUS + [pmt.cons(meta(A=-24), u8(np.ones(40))), pmt.cons(meta(A=10 ** 12), u8(np.ones(40))),
                          pmt.cons(meta(cb=-1), u8(np.ones(40))), pmt.cons(meta(cb=5), u8(np.ones(40))),
                          pmt.cons(meta(), f32(np.ones(40)))]
        block = gpufec.lte_desegment(A=16)
        self.check_survives(block, bad, good, 16)
        # a stray code block (cb >= 1, no block 0 before it) is counted, not lost in silence
        A = 6200  # two code blocks
        seg = gpufec.lte_segmentation.compute(A + 24)
        stray = pmt.cons(meta(A=A, cb=1), u8(np.zeros(seg.K(1))))
        block = gpufec.lte_desegment()
        self.assertEqual(through(block, [stray], 0, timeout=0.2), [])
        self.assertEqual(block.dropped() + block.lost_blocks(), 1)

    def test_006_bsid_channel(self):
        good = pmt.cons(meta(), u8(np.ones(50)))
        block = gpufec.bsid_channel(Pi=0, Pd=0, Ps=0)
        self.check_survives(block, NOT_PDUS + [pmt.cons(meta(), f32(np.ones(5)))], good, 50)

    def test_006b_bpsk_awgn_channel(self):
        # besides the messages that are no PDU: floats, and bytes that are not bits
        good = pmt.cons(meta(), u8(np.ones(50)))
        block = gpufec.bpsk_awgn_channel(sigma=0.0, seed=1)
        self.check_survives(block, NOT_PDUS + [pmt.cons(meta(), f32(np.ones(5))), pmt.cons(meta(), u8([0, 2]))],
                            good, 50)
        out = through(gpufec.bpsk_awgn_channel(sigma=0.0, seed=1), [pmt.cons(meta(a=7), u8([1, 0, 1]))], 1)
        self.assertEqual(list(pmt.f32vector_elements(pmt.cdr(out[0]))), [1.0, -1.0, 1.0])
        self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(out[0]), pmt.intern("a"), pmt.PMT_NIL)), 7)
        noisy = through(gpufec.bpsk_awgn_channel(sigma=0.5, seed=1), [pmt.cons(meta(), u8(np.zeros(20000)))], 1)
        x = np.array(pmt.f32vector_elements(pmt.cdr(noisy[0])))
        self.assertAlmostEqual(float(np.mean(x)), -1.0, delta=0.02)
        self.assertAlmostEqual(float(np.std(x)), 0.5, delta=0.02)
        with self.assertRaises(ValueError):
            gpufec.bpsk_awgn_channel(sigma=-1.0)
        self.assertAlmostEqual(gpufec.awgn_sigma(0.0, 0.5), 1.0)
        with self.assertRaises(ValueError):
            gpufec.awgn_sigma(1.0, 0.0)

    def test_007_constructors_refuse_what_they_cannot_serve(self):
        for make in (lambda: gpufec.lte_segment(G=10 ** 30), lambda: gpufec.lte_segment(G=7),
                     lambda: gpufec.lte_segment(G=-2), lambda: gpufec.lte_segment(Qm=3),
                     lambda: gpufec.lte_desegment(A=-24), lambda: gpufec.lte_desegment(A=10 ** 9),
                     lambda: gpufec.lte_rate_match(K=40, E=1 << 31), lambda: gpufec.lte_rate_match(K=40, rv=4),
                     lambda: gpufec.lte_rate_match(K=6144.7), lambda: gpufec.lte_rate_match(K=40, Ncb=1),
                     lambda: gpufec.lte_derate_match(K=40, Ncb=20), lambda: gpufec.lte_derate_match(K=41)):
            with self.assertRaises(ValueError):
                make()
        with self.assertRaisesRegex(ValueError, "G"):
            gpufec.lte_segment(G=10 ** 30)
        with self.assertRaisesRegex(ValueError, "Ncb"):
            gpufec.lte_rate_match(K=40, Ncb=1)

    def test_008_harq_state_is_bounded(self):
        from gnuradio.gpufec.lte_rate_matching import MAX_HARQ_BUFFERS
        block = gpufec.lte_derate_match(K=40, combine=True)
        msgs = [pmt.cons(meta(cb=i), f32(np.ones(120))) for i in range(MAX_HARQ_BUFFERS + 50)]
        self.assertEqual(len(through(block, msgs, len(msgs))), len(msgs))
        self.assertEqual(len(block.accs), MAX_HARQ_BUFFERS)
        plain = gpufec.lte_derate_match(K=40)
        through(plain, msgs[:20], 20)
        self.assertEqual(len(plain.accs), 0)  # without combining nothing is held


if __name__ == "__main__":
    gr_unittest.run(qa_pdu_blocks)
