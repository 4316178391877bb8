#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""5G NR transport blocks through the PDU chain: nr_segmenter -> ldpc_pdu_encoder ->
nr_rate_match -> BPSK/AWGN -> nr_derate_match -> pdu_decoder (ldpc, the code block's options)
-> nr_desegmenter; a transport block of two code blocks with filler bits, HARQ combining of
two redundancy versions, and what is dropped."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpufec

from qa_util import decode_pdus


class each_version(gr.basic_block):
    """each PDU once per redundancy version, with metadata "rv" set, in order"""

    def __init__(self, rvs):
        gr.basic_block.__init__(self, "each_version", None, None)
        self.rvs = rvs
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        for rv in self.rvs:
            meta = pmt.dict_add(pmt.car(msg), pmt.intern("rv"), pmt.from_long(rv))
            self.message_port_pub(pmt.intern("pdus"), pmt.cons(meta, pmt.cdr(msg)))


class every_nth(gr.basic_block):
    """passes every n-th PDU"""

    def __init__(self, n):
        gr.basic_block.__init__(self, "every_nth", None, None)
        self.n, self.count = n, 0
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        self.count += 1
        if self.count % self.n == 0:
            self.message_port_pub(pmt.intern("pdus"), msg)


def run_chain(tbs, A, R, G, sigma, rvs=(0,), combine=False, any_size=False, G_of=None):
    """the chain for transport blocks of A bits; any_size: of any size, each with its "G" in the
    metadata (G_of(bits), default about rate 1/3 on QPSK), through one decoder that takes each
    code block's options from its metadata"""
    seg_info = gpufec.nr_segmentation.compute(A + gpufec.nr_tb_crc_bits(A), gpufec.nr_base_graph(A, R))
    tb = gr.top_block()
    seg = gpufec.nr_segmenter(R=R, G=G, Qm=2)
    enc = gpufec.ldpc_pdu_encoder()
    versions = each_version(rvs)  # one path, so that a block's versions stay in order
    rm = gpufec.nr_rate_match(Qm=2)
    ch = gpufec.bpsk_awgn_channel(sigma, seed=3)
    drm = gpufec.nr_derate_match(Qm=2, combine=combine)
    gate = every_nth(len(rvs))  # the decoder sees each block once: its last (combined) version
    if any_size:
        dec = gpufec.pdu_decoder("ldpc", "max_iterations=30", device="auto", options_key="ldpc_options")
    else:
        dec = gpufec.pdu_decoder("ldpc", seg_info.ldpc_options() + ", max_iterations=30", device="auto")
    deseg = gpufec.nr_desegmenter()
    dbg = blocks.message_debug()
    chain = [seg, enc, versions, rm, ch, drm, gate, dec]
    for a, b in zip(chain, chain[1:]):
        tb.msg_connect((a, "pdus"), (b, "pdus"))
    tb.msg_connect((dec, "pdus"), (deseg, "pdus"))
    tb.msg_connect((deseg, "pdus"), (dbg, "store"))
    tb.start()
    for bits in tbs:
        meta = pmt.make_dict()
        if any_size:  # about rate 1/3 on QPSK, an even number of bits
            g = G_of(len(bits)) if G_of else 2 * ((3 * len(bits) + 200) // 2)
            meta = pmt.dict_add(meta, pmt.intern("G"), pmt.from_long(g))
        seg.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_u8vector(len(bits), bits.tolist())))
    t0 = time.time()
    while dbg.num_messages() < len(tbs) and time.time() - t0 < 60:
        time.sleep(0.02)
    tb.stop()
    tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())], seg_info, (seg, enc, rm, drm, deseg)


class qa_nr_transport(gr_unittest.TestCase):

    def test_001_two_code_blocks_through_noise(self):
        A, R = 10000, 1 / 3
        rng = np.random.default_rng(1)
        tbs = [rng.integers(0, 2, A, dtype=np.uint8) for _ in range(3)]
        G = 30720  # about rate 1/3 on QPSK: E = 15360 a code block
        out, seg, _ = run_chain(tbs, A, R, G, sigma=0.75)
        self.assertEqual((seg.C, seg.bg), (2, 1))
        self.assertEqual(len(out), 3)
        for msg, bits in zip(out, tbs):
            meta = pmt.car(msg)
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), bits)
            self.assertTrue(pmt.to_bool(pmt.dict_ref(meta, pmt.intern("crc_ok"), pmt.PMT_F)))
            self.assertEqual(list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("blocks_ok"), pmt.PMT_NIL))), [1, 1])

    def test_001b_transport_blocks_of_every_size_through_one_decoder(self):
        # the transport block size changes from block to block (base graph, lifting size, filler
        # bits, number of code blocks): one pdu_decoder with options_key="ldpc_options" decodes
        # each code block with its own code, and the blocks leave in the order they came
        rng = np.random.default_rng(5)
        sizes = [10000, 3000, 20000, 500, 10000, 3000]
        tbs = [rng.integers(0, 2, A, dtype=np.uint8) for A in sizes]
        out, _, _ = run_chain(tbs, 10000, 1 / 3, 0, sigma=0.75, any_size=True)
        self.assertEqual(len(out), len(tbs))
        for msg, bits in zip(out, tbs):
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), bits)
            self.assertTrue(pmt.to_bool(pmt.dict_ref(pmt.car(msg), pmt.intern("crc_ok"), pmt.PMT_F)))
        # options that make no decoder: the PDU is dropped with the reason
        dec = gpufec.pdu_decoder("ldpc", "", device="cpu", options_key="ldpc_options")
        tb = gr.top_block()
        dbg = blocks.message_debug()
        tb.msg_connect((dec, "pdus"), (dbg, "store"))
        tb.start()
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("ldpc_options"), pmt.intern("code=nr:bg1:999"))
        dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(10, [0.0] * 10)))
        t0 = time.time()
        while dec.dropped_pdus() < 1 and time.time() - t0 < 10:
            time.sleep(0.02)
        tb.stop()
        tb.wait()
        self.assertEqual((dec.dropped_pdus(), dbg.num_messages()), (1, 0))

    def test_001c_high_rate_blocks_leave_the_rows_of_unsent_parity_out(self):
        # rate 8/9 on BG1, Z = 384, K' = K = 8448: rv 0 sends circular-buffer bits 0 .. 9503,
        # codeword bits 768 .. 10271; nr_derate_match names the rest erased, and the decoder
        # (options from the metadata) decodes 5 of 46 block rows
        rm = gpufec.nr_rate_matcher(1, 384, 8448)
        received = np.zeros(rm.sent(), np.uint8)
        rm.mark_received(9504, 0, received, 2)
        self.assertEqual(rm.ldpc_erased(received), "10368:26112")  # whole blocks of Z: from column 27
        rm.mark_received(9504, 2, received, 2)  # rv 2 from k0 = 13 N / 33 (BG1): a gap is left
        k0 = rm.k0(2)
        lo, hi = -(-10272 // 384) * 384, (768 + k0) // 384 * 384
        self.assertEqual(rm.ldpc_erased(received), "%d:%d %d:26112" % (lo, hi, -(-(768 + k0 + 9504) // 384) * 384))
        received[:] = 1
        self.assertEqual(rm.ldpc_erased(received), "")
        # filler bits (codeword bits 8000 .. 8447): the blocks holding them are never named
        rf = gpufec.nr_rate_matcher(1, 384, 8000)
        got = np.zeros(rf.sent(), np.uint8)
        rf.mark_received(6000, 0, got, 2)  # codeword bits 768 .. 6767
        self.assertEqual(rf.ldpc_erased(got), "6912:7680 8448:26112")
        dec = gpufec.frame_decoder("ldpc", "code=nr:bg1:384, erased=10368:26112")
        self.assertIn("5 of its 46 block rows", dec.code_description())
        with self.assertRaisesRegex(ValueError, "erased: position 0 is not sent"):
            gpufec.frame_decoder("ldpc", "code=nr:bg1:384, erased=0:10")

        # through the chain: the options in the metadata gain erased=..., and blocks decode
        meta = pmt.make_dict()
        for key, v in (("bg", 1), ("Z", 384), ("K_prime", 8448), ("rv", 0)):
            meta = pmt.dict_add(meta, pmt.intern(key), pmt.from_long(v))
        meta = pmt.dict_add(meta, pmt.intern("ldpc_options"), pmt.intern("code=nr:bg1:384, shorten=8448:8448"))
        out = decode_pdus(gpufec.nr_derate_match(Qm=2), [pmt.cons(meta, pmt.init_f32vector(9504, [1.0] * 9504))])
        self.assertEqual(len(out), 1)
        opts = pmt.symbol_to_string(pmt.dict_ref(pmt.car(out[0]), pmt.intern("ldpc_options"), pmt.PMT_NIL))
        self.assertEqual(opts, "code=nr:bg1:384, shorten=8448:8448, erased=10368:26112")
        A, R = 20000, 0.85
        rng = np.random.default_rng(7)
        tbs = [rng.integers(0, 2, A, dtype=np.uint8) for _ in range(3)]
        out, seg, _ = run_chain(tbs, A, R, 0, sigma=0.45, any_size=True, G_of=lambda n: 2 * ((n * 100 // 85 + 200) // 2))
        self.assertEqual(len(out), 3)
        for msg, bits in zip(out, tbs):
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), bits)
            self.assertTrue(pmt.to_bool(pmt.dict_ref(pmt.car(msg), pmt.intern("crc_ok"), pmt.PMT_F)))

    def test_002_harq_combining_of_two_versions(self):
        # one version alone (E = 3800 for K' = 3016: rate 0.79) fails at this noise; rv 0 and
        # rv 2 added up decode
        A, R = 3000, 0.5
        rng = np.random.default_rng(2)
        tbs = [rng.integers(0, 2, A, dtype=np.uint8) for _ in range(6)]
        G = 3800
        single, seg, _ = run_chain(tbs, A, R, G, sigma=0.6, rvs=(0,))
        both, _, _ = run_chain(tbs, A, R, G, sigma=0.6, rvs=(0, 2), combine=True)
        ok = lambda msgs: [pmt.to_bool(pmt.dict_ref(pmt.car(m), pmt.intern("crc_ok"), pmt.PMT_F)) for m in msgs]
        self.assertEqual((seg.C, seg.bg, seg.Z), (1, 2, 320))
        self.assertLessEqual(sum(ok(single)), 2)  # rate 0.79 alone: most fail
        self.assertEqual(ok(both), [True] * 6)
        for msg, bits in zip(both, tbs):
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), bits)

    def test_003_bad_pdus_are_dropped_and_counted(self):
        seg = gpufec.nr_segmenter(R=0.5)
        enc = gpufec.ldpc_pdu_encoder()
        deseg = gpufec.nr_desegmenter()
        from qa_util import decode_pdus
        decode_pdus(seg, [pmt.cons(pmt.make_dict(), pmt.init_u8vector(3, [0, 2, 1])), pmt.intern("x")], expect=0, timeout=2)
        self.assertEqual(seg.dropped(), 2)
        decode_pdus(enc, [pmt.cons(pmt.make_dict(), pmt.init_u8vector(10, [0] * 10))], expect=0, timeout=2)
        self.assertEqual(enc.dropped(), 1)  # no code named
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("A"), pmt.from_long(100))
        decode_pdus(deseg, [pmt.cons(meta, pmt.init_u8vector(10, [0] * 10))], expect=0, timeout=2)
        self.assertEqual(deseg.dropped(), 1)  # no base graph
        with self.assertRaisesRegex(ValueError, "R"):
            gpufec.nr_segmenter(R=1.5)
        with self.assertRaisesRegex(ValueError, "code"):
            gpufec.ldpc_pdu_encoder("code=nothing")


if __name__ == "__main__":
    gr_unittest.run(qa_nr_transport)
