#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.tvb_encoder, gpufec.bsid_channel and gpufec.tvb_decoder in flowgraphs: frames of
varying length through the tagged-stream face and the PDU face, the channel's lengths, bad
messages and parameters."""

import os
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, pdu
from gnuradio import gpufec

from qa_util import decode_pdus, encode_with

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "tvb",
                       "tvb_q16_n8_modvec6.txt")


def through_channel(coded, frame_bits, channel):
    """coded bits -> PDUs of a frame each -> the channel -> the PDUs that came out"""
    tb = gr.top_block()
    src = blocks.vector_source_b(coded.tolist())
    tag = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, frame_bits, "packet_len")
    to_pdu = pdu.tagged_stream_to_pdu(gr.types.byte_t, "packet_len")
    dbg = blocks.message_debug()
    tb.connect(src, tag, to_pdu)
    tb.msg_connect((to_pdu, "pdus"), (channel, "pdus"))
    tb.msg_connect((channel, "pdus"), (dbg, "store"))
    tb.start()
    frames = len(coded) // frame_bits
    t0 = time.time()
    while dbg.num_messages() < frames and time.time() - t0 < 30:
        time.sleep(0.01)
    tb.stop()
    tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


class qa_tvb(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(4)

    def test_001_tagged_stream_face(self):
        N, q, n = 20, 16, 7
        bits = self.rng.integers(0, 2, 6 * N * 4, dtype=np.uint8)
        coded = encode_with(gpufec.tvb_encoder(q=q, n=n, N=N), bits)
        self.assertEqual(len(coded), 6 * N * n)
        msgs = through_channel(coded, N * n, gpufec.bsid_channel(Pi=0.01, Pd=0.01, seed=3))
        self.assertEqual(len(msgs), 6)
        lengths = [len(pmt.u8vector_elements(pmt.cdr(m))) for m in msgs]
        self.assertEqual([pmt.to_python(pmt.dict_ref(pmt.car(m), pmt.intern("sent_bits"), pmt.PMT_NIL))
                          for m in msgs], [N * n] * 6)
        # back to a tagged stream of frames of varying length, decoded
        tb = gr.top_block()
        src = blocks.vector_source_b([], False)
        rx = np.concatenate([np.array(pmt.u8vector_elements(pmt.cdr(m)), np.uint8) for m in msgs])
        tags = []
        at = 0
        for L in lengths:
            tags.append(gr.tag_utils.python_to_tag((at, pmt.intern("packet_len"), pmt.from_long(L))))
            at += L
        src = blocks.vector_source_b((2 * rx.astype(np.int16) - 1).astype(np.int8).view(np.uint8).tolist(), False, 1, tags)
        dec = gpufec.tvb_decoder(q=q, n=n, N=N, Pi=0.01, Pd=0.01, device="cpu", length_tag_key="packet_len")
        snk = blocks.vector_sink_b()
        tb.connect(src, dec, snk)
        tb.run()
        out = np.array(snk.data(), dtype=np.uint8)
        self.assertEqual(len(out), len(bits))
        self.assertLess(np.count_nonzero(out != bits) / len(bits), 0.1)
        self.assertEqual(dec.frames(), 6)

    def test_002_pdu_face_and_the_example_code(self):
        # the paper's q=16, n=8 code from its system file; a clean channel: exact
        bits = self.rng.integers(0, 2, 2 * 200, dtype=np.uint8)
        coded = encode_with(gpufec.tvb_encoder(code="file", file=EXAMPLE), bits)
        self.assertEqual(len(coded), 800)
        msgs = through_channel(coded, 400, gpufec.bsid_channel(Pi=0, Pd=0, seed=1))
        dec = gpufec.pdu_decoder("tvb", gpufec.tvb_options(code="file", file=EXAMPLE), device="cpu")
        pdus = []
        for m in msgs:
            x = np.array(pmt.u8vector_elements(pmt.cdr(m)), np.int16) * 2 - 1
            pdus.append(pmt.cons(pmt.make_dict(), pmt.init_s8vector(len(x), x.tolist())))
        out = decode_pdus(dec, pdus)
        self.assertEqual(len(out), 2)
        got = np.concatenate([np.array(pmt.u8vector_elements(pmt.cdr(m)), np.uint8) for m in out])
        np.testing.assert_array_equal(got, bits)
        # with soft output: the N x q APPs, each symbol's summing to 1, largest at the decoded
        # symbol; single precision gives the same symbols
        dec = gpufec.pdu_decoder("tvb", gpufec.tvb_options(code="file", file=EXAMPLE, precision="single"),
                                 device="cpu", soft_output=True)
        out = decode_pdus(dec, pdus[:1])
        app = np.array(pmt.f32vector_elements(pmt.dict_ref(pmt.car(out[0]), pmt.intern("soft_out"), pmt.PMT_NIL)))
        self.assertEqual(app.shape, (50 * 16,))
        app = app.reshape(50, 16)
        np.testing.assert_allclose(app.sum(axis=1), 1, atol=1e-5)
        symbols = bits[:200].reshape(50, 4) @ np.array([8, 4, 2, 1])
        np.testing.assert_array_equal(app.argmax(axis=1), symbols)
        self.assertIn("single", dec.backend())

    def test_003_channel_lengths_and_bad_messages(self):
        ch = gpufec.bsid_model(0.05, 0.02, 0.0, 2, 7)
        lens = [len(ch.transmit(np.zeros(1000, np.uint8))) for _ in range(200)]
        # E[change a bit] = -Pd + Pi Pt + Pi^2 (2 Pt + Pd) / (Pt + Pd): at most 2 insertions, after
        # the second the bit is deleted or sent in the ratio Pd : Pt
        Pi, Pd = 0.05, 0.02
        Pt = 1 - Pi - Pd
        change = -Pd + Pi * Pt + Pi ** 2 * (2 * Pt + Pd) / (Pt + Pd)
        self.assertAlmostEqual(np.mean(lens), 1000 * (1 + change), delta=3)
        lo, hi = gpufec.bsid_drift_limits(0.01, 0.01, 0.0, 2, 400)
        self.assertLess(lo, 0)
        self.assertGreater(hi, 0)
        block = gpufec.bsid_channel()
        block._receive(pmt.intern("not a pdu"))
        self.assertEqual(block.dropped(), 1)
        with self.assertRaises(ValueError):
            gpufec.bsid_channel(Pi=0.7, Pd=0.5)
        with self.assertRaises(ValueError):
            gpufec.tvb_decoder(code="turbo", device="cpu")
        with self.assertRaises(ValueError):
            gpufec.tvb_decoder(q=300, n=7, device="cpu")

    def test_004_priors_for_iterative_decoding(self):
        # one symbol a frame: the posterior with priors is the prior times the posterior without
        # (Bayes), for any received frame
        dec1 = gpufec.tvb_map_decoder(gpufec.tvb_options(q=16, n=7, N=1, Pi=0.05, Pd=0.05, Ps=0.02))
        self.assertEqual((dec1.N, dec1.q), (1, 16))
        ch = gpufec.bsid_model(0.05, 0.05, 0.02, 2, 11)
        for t in range(20):
            rx = ch.transmit(self.rng.integers(0, 2, 7, dtype=np.uint8))
            if not dec1.min_received <= len(rx) <= dec1.max_received:
                continue
            prior = self.rng.random((1, 16)) + 0.01
            prior /= prior.sum()
            _, plain, erased, _ = dec1.decode(rx)
            self.assertFalse(erased)
            _, app, _, _ = dec1.decode(rx, prior)
            bayes = prior * plain
            np.testing.assert_allclose(app, bayes / bayes.sum(), rtol=1e-5, atol=1e-9)
        # a frame of N = 30: priors from a (simulated) outer decoder that favour the sent symbols
        # mend errors; uniform priors change nothing
        N, q = 30, 16
        opts = gpufec.tvb_options(q=q, n=7, N=N, Pi=0.03, Pd=0.03)
        dec = gpufec.tvb_map_decoder(opts)
        enc = gpufec.tvb_encoder(q=q, n=7, N=N)
        sent = self.rng.integers(0, q, (40, N))
        bits = ((sent[:, :, None] >> np.arange(3, -1, -1)) & 1).astype(np.uint8).ravel()
        coded = encode_with(enc, bits).reshape(40, N * 7)
        ch = gpufec.bsid_model(0.03, 0.03, 0.0, 2, 5)
        plain_errors = prior_errors = 0
        for f in range(40):
            rx = ch.transmit(coded[f])
            if not dec.min_received <= len(rx) <= dec.max_received:
                continue
            sym, app, _, _ = dec.decode(rx)
            sym_u, app_u, _, _ = dec.decode(rx, np.full((N, q), 1.0 / q))
            np.testing.assert_array_equal(sym_u, sym)
            np.testing.assert_allclose(app_u, app, atol=1e-6)
            prior = np.full((N, q), 0.5 / (q - 1))
            prior[np.arange(N), sent[f]] = 0.5
            sym_p, _, _, _ = dec.decode(rx, prior)
            plain_errors += np.count_nonzero(sym != sent[f])
            prior_errors += np.count_nonzero(sym_p != sent[f])
        self.assertGreater(plain_errors, 10)
        self.assertLess(prior_errors, plain_errors / 2)
        with self.assertRaises(ValueError):
            dec.decode(rx, np.ones(5))
        with self.assertRaises(ValueError):
            dec.decode(np.array([0, 1, 2], np.uint8))


if __name__ == "__main__":
    gr_unittest.run(qa_tvb)
