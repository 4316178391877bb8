#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The LTE rate-matching PDU blocks: encoder -> rate match -> BPSK/AWGN -> de-rate-match ->
the turbo PDU decoder, one redundancy version and two combined; bad PDUs dropped and counted;
the Python face of lte_rate_matcher and lte_segmentation."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpufec

from qa_util import encode_with


def run_chain(blocks_in_order, msgs, expect, timeout=30):
    """posts msgs to the first block, chains them, returns what the last one publishes"""
    tb = gr.top_block()
    dbg = blocks.message_debug()
    for a, b in zip(blocks_in_order, blocks_in_order[1:]):
        tb.msg_connect((a, "pdus"), (b, "pdus"))
    tb.msg_connect((blocks_in_order[-1], "pdus"), (dbg, "store"))
    tb.start()
    for m in msgs:
        blocks_in_order[0].to_basic_block()._post(pmt.intern("pdus"), m)
    t0 = time.time()
    while dbg.num_messages() < expect and time.time() - t0 < timeout:
        time.sleep(0.01)
    time.sleep(0.05)
    tb.stop()
    tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


class noise(gr.basic_block):
    """PDU of bits -> PDU of LLRs over BPSK/AWGN (positive = 1)"""

    def __init__(self, sigma, seed):
        gr.basic_block.__init__(self, "noise", None, None)
        self.sigma, self.rng = sigma, np.random.default_rng(seed)
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        b = np.asarray(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.float32)
        y = 2 * b - 1 + self.rng.normal(0, self.sigma, len(b)).astype(np.float32)
        llr = 2 * y / self.sigma ** 2
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(pmt.car(msg), pmt.init_f32vector(len(llr), llr.tolist())))


class qa_lte_rate_matching(gr_unittest.TestCase):

    def test_001_helpers(self):
        seg = gpufec.lte_segmentation.compute(6145)
        self.assertEqual((seg.C, seg.K_plus, seg.K_minus, seg.F), (2, 3136, 3072, 15))
        rm = gpufec.lte_rate_matcher(6144)
        self.assertEqual(rm.Kw(), 18528)
        self.assertEqual(rm.k0(1), 193 * 26)
        with self.assertRaises(ValueError):
            rm.match(np.zeros(10, dtype=np.uint8), 100, 0)
        with self.assertRaises(ValueError):
            gpufec.lte_rate_matcher(41)

    def test_002_rate_matched_link_decodes(self):
        K, E = 1024, 2048  # rate 1/2 after rate matching
        rng = np.random.default_rng(4)
        bits = rng.integers(0, 2, K, dtype=np.uint8)
        cw = encode_with(gpufec.turbo_encoder(K=K), bits)
        sigma = 0.75  # Eb/N0 about 2.5 dB at rate 1/2
        dec_opts = gpufec.turbo_options(K=K, algorithm="log-map", max_iterations=8)
        for combine in (False, True):
            rmb = gpufec.lte_rate_match(K=K, E=E, rv=0)
            drm = gpufec.lte_derate_match(K=K, rv=0, combine=combine)
            dec = gpufec.pdu_decoder("turbo", dec_opts, device="cpu")
            msgs = []
            for rv in (0, 2):
                meta = pmt.dict_add(pmt.make_dict(), pmt.intern("rv"), pmt.from_long(rv))
                msgs.append(pmt.cons(meta, pmt.init_u8vector(len(cw), cw.tolist())))
            out = run_chain([rmb, noise(sigma, 7), drm, dec], msgs, 2)
            self.assertEqual(len(out), 2)
            for m in out:
                got = np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
                np.testing.assert_array_equal(got, bits, err_msg="combine=%s" % combine)

    def test_003_bad_pdus_are_dropped_and_counted(self):
        rmb = gpufec.lte_rate_match(K=40, E=100)
        drm = gpufec.lte_derate_match(K=40)
        bad = pmt.cons(pmt.make_dict(), pmt.init_u8vector(7, [1] * 7))
        out = run_chain([rmb], [bad], 1, timeout=1)
        self.assertEqual(len(out), 0)
        self.assertEqual(rmb.dropped(), 1)
        out = run_chain([drm], [pmt.cons(pmt.make_dict(), pmt.init_u8vector(3, [1, 2, 3]))], 1, timeout=1)
        self.assertEqual(len(out), 0)
        self.assertEqual(drm.dropped(), 1)
        with self.assertRaises(ValueError):
            gpufec.lte_rate_match(K=40, E=100, rv=4)


if __name__ == "__main__":
    gr_unittest.run(qa_lte_rate_matching)
