#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpufec's families as gr-fec FECAPI objects: fec.extended_encoder/extended_decoder,
fec.async_decoder, fec.extended_tagged_decoder and fec.bercurve_generator accept
gpufec.fec_encoder / fec_decoder and give the bits gr-gpufec's own blocks give."""

import numpy as np
import pmt
from gnuradio import gr, gr_unittest, blocks, fec
from gnuradio import gpufec

from qa_util import run_decoder

CASES = (("ldpc", "code=802.11n:648:1/2", 324, 648),
         ("viterbi", "code=ccsds, mode=terminated, frame_bits=120", 120, 252),
         ("repetition", "frame_bits=40, repeat=3", 40, 120),
         ("rs", "code=ccsds:255:239", 239 * 8, 255 * 8))


class qa_fec_objects(gr_unittest.TestCase):

    def test_001_sizes_and_rates(self):
        for fam, opts, k, n in CASES:
            dec = gpufec.fec_decoder(fam, opts)
            enc = gpufec.fec_encoder(fam, opts)
            self.assertEqual(fec.get_decoder_input_size(dec), n)
            self.assertEqual(fec.get_decoder_output_size(dec), k)
            self.assertEqual(fec.get_encoder_input_size(enc), k)
            self.assertEqual(fec.get_encoder_output_size(enc), n)
        with self.assertRaisesRegex(ValueError, "family"):
            gpufec.fec_decoder("nope")

    def test_002_extended_encoder_and_decoder_loopback(self):
        rng = np.random.default_rng(1)
        for fam, opts, k, n in CASES:
            bits = rng.integers(0, 2, 20 * k, dtype=np.uint8)
            tb = gr.top_block()
            src = blocks.vector_source_b(bits.tolist())
            enc = fec.extended_encoder(gpufec.fec_encoder(fam, opts), threading=None, puncpat="11")
            to_f = blocks.char_to_float(1, 0.5)      # 0/1 -> 0/2
            shift = blocks.add_const_ff(-1.0)        # -> -1/+1 (positive = bit 1)
            dec = fec.extended_decoder(gpufec.fec_decoder(fam, opts), threading=None, puncpat="11")
            snk = blocks.vector_sink_b()
            tb.connect(src, enc, to_f, shift, dec, snk)
            tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            self.assertEqual(len(out), len(bits), msg=fam)
            np.testing.assert_array_equal(out, bits, err_msg=fam)
            # the same bits as gr-gpufec's own block on the same soft values
            soft = 2.0 * np.concatenate([self.encode(fam, opts, bits[i * k:(i + 1) * k]) for i in range(20)]) - 1.0
            own, _ = run_decoder(gpufec.frame_decoder(fam, opts, device="cpu"), soft)
            np.testing.assert_array_equal(own, out, err_msg=fam)

    def encode(self, fam, opts, bits):
        enc = gpufec.fec_encoder(fam, opts)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), fec.encoder(enc, gr.sizeof_char, gr.sizeof_char), snk)
        tb.run()
        return np.array(snk.data(), dtype=np.float32)

    def test_003_async_decoder_on_pdus(self):
        fam, opts, k, n = CASES[0]
        rng = np.random.default_rng(2)
        bits = rng.integers(0, 2, k, dtype=np.uint8)
        soft = 2.0 * self.encode(fam, opts, bits) - 1.0
        dec = fec.async_decoder(gpufec.fec_decoder(fam, opts), False, False, 1500)
        dbg = blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect((dec, "out"), (dbg, "store"))
        tb.start()
        dec.to_basic_block()._post(pmt.intern("in"), pmt.cons(pmt.PMT_NIL, pmt.init_f32vector(n, soft.tolist())))
        import time
        t0 = time.time()
        while dbg.num_messages() < 1 and time.time() - t0 < 10:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 1)
        out = np.array(pmt.u8vector_elements(pmt.cdr(dbg.get_message(0))), dtype=np.uint8)
        np.testing.assert_array_equal(out[:k], bits)

    def test_004_extended_tagged_decoder(self):
        fam, opts, k, n = CASES[2]
        rng = np.random.default_rng(3)
        bits = rng.integers(0, 2, 3 * k, dtype=np.uint8)
        soft = np.concatenate([2.0 * self.encode(fam, opts, bits[i * k:(i + 1) * k]) - 1.0 for i in range(3)])
        tags = []
        for i in range(3):
            t = gr.tag_t()
            t.offset = i * n
            t.key = pmt.intern("pkt_len")
            t.value = pmt.from_long(n)
            tags.append(t)
        tb = gr.top_block()
        src = blocks.vector_source_f(soft.astype(np.float32).tolist(), False, 1, tags)
        dec = fec.extended_tagged_decoder(gpufec.fec_decoder(fam, opts), ann=None, puncpat="11",
                                          integration_period=10000, lentagname="pkt_len", mtu=1500)
        snk = blocks.vector_sink_b()
        tb.connect(src, dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)

    def test_005_ber_curve_generator(self):
        # gr-fec's BER curve generator runs the objects; at 20 dB Es/N0 what comes out of the
        # decoder is what went into the encoder
        opts = "frame_bits=40, repeat=3"
        ber = fec.bercurve_generator([gpufec.fec_encoder("repetition", opts)],
                                     [gpufec.fec_decoder("repetition", opts)],
                                     esno=[20.0], samp_rate=3200000, threading=None, puncpat="11", seed=1)
        tb = gr.top_block()
        sinks = []
        for port in (0, 1):
            sinks.append(blocks.vector_sink_b())
            tb.connect((ber, port), blocks.head(gr.sizeof_char, 2000), sinks[-1])
        tb.run()
        a, b = (np.array(s.data(), dtype=np.uint8) for s in sinks)
        self.assertEqual(len(a), 2000)
        np.testing.assert_array_equal(a, b)


if __name__ == "__main__":
    gr_unittest.run(qa_fec_objects)
