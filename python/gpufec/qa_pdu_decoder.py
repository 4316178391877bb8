#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.pdu_decoder, the PDU face of every frame family: PDUs of one or several frames in,
PDUs of decoded bits with per-frame status out, in order; bad PDUs dropped and counted while the
flowgraph goes on."""

import numpy as np
import pmt
from gnuradio import gr, gr_unittest, blocks, fec
from gnuradio import gpufec

from qa_util import decode_pdus


def run_pdus(dec, msgs, expect, timeout=30):
    """posts msgs to dec, collects its output PDUs until `expect` arrived (a hang fails)"""
    return decode_pdus(dec, msgs, timeout=timeout, expect=expect)


class qa_pdu_decoder(gr_unittest.TestCase):

    def test_001_repetition_pdus_in_order_with_status(self):
        fb, rep = 16, 3
        rng = np.random.default_rng(1)
        bits, msgs = [], []
        for i, frames in enumerate((1, 3, 2, 1, 5)):
            b = rng.integers(0, 2, frames * fb, dtype=np.uint8)
            soft = (2.0 * np.repeat(b, rep) - 1.0).astype(np.float32)
            if i == 3:
                soft[:] = np.nan  # an erased frame
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(i))
            msgs.append(pmt.cons(meta, pmt.init_f32vector(len(soft), soft.tolist())))
            bits.append(b)
        dec = gpufec.pdu_decoder("repetition", "frame_bits=%d, repeat=%d" % (fb, rep), device="cpu",
                                 max_batch=4)
        out = run_pdus(dec, msgs, 5)
        self.assertEqual(len(out), 5)
        for i, m in enumerate(out):
            meta, vec = pmt.car(m), pmt.cdr(m)
            self.assertEqual(pmt.to_long(pmt.dict_ref(meta, pmt.intern("seq"), pmt.PMT_NIL)), i)
            frames = pmt.to_long(pmt.dict_ref(meta, pmt.intern("frames"), pmt.PMT_NIL))
            self.assertEqual(frames, len(bits[i]) // fb)
            erased = list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("erased"), pmt.PMT_NIL)))
            self.assertEqual(erased, [1 if i == 3 else 0] * frames)
            if i != 3:
                np.testing.assert_array_equal(np.array(pmt.u8vector_elements(vec), dtype=np.uint8), bits[i])
        self.assertEqual(dec.pdus(), 5)
        self.assertEqual(dec.nan_count(), fb * rep)

    def test_002_ldpc_packed_int8_and_bad_pdus(self):
        code = "802.11n:648:1/2"
        rng = np.random.default_rng(2)
        info = rng.integers(0, 2, 2 * 324, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(info.tolist()), gpufec.ldpc_encoder(code), snk)
        tb.run()
        cw = np.array(snk.data(), dtype=np.uint8)
        q = np.where(cw == 1, 40, -40).astype(np.int8)
        good = pmt.cons(pmt.make_dict(), pmt.init_s8vector(len(q), q.tolist()))
        bad = [pmt.cons(pmt.make_dict(), pmt.init_s8vector(0, [])),                 # empty
               pmt.cons(pmt.make_dict(), pmt.init_s8vector(100, [1] * 100)),         # not a frame
               pmt.cons(pmt.make_dict(), pmt.init_s32vector(648, [1] * 648)),        # wrong type
               pmt.intern("hello")]                                                  # not a PDU
        dec = gpufec.pdu_decoder("ldpc", "code=%s" % code, device="auto", packed_output=True)
        out = run_pdus(dec, bad + [good], 1)
        self.assertEqual(len(out), 1)
        meta, vec = pmt.car(out[0]), pmt.cdr(out[0])
        bytes_ = np.array(pmt.u8vector_elements(vec), dtype=np.uint8).reshape(2, 41)
        got = np.concatenate([np.unpackbits(f)[:324] for f in bytes_])
        np.testing.assert_array_equal(got, info)
        self.assertEqual(list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("passed"), pmt.PMT_NIL))), [1, 1])
        self.assertEqual(dec.dropped_pdus(), 4)

    def test_003_ldpc_soft_output_in_the_metadata(self):
        code = "802.11n:648:1/2"
        rng = np.random.default_rng(3)
        info = rng.integers(0, 2, 3 * 324, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(info.tolist()), gpufec.ldpc_encoder(code), snk)
        tb.run()
        cw = np.array(snk.data(), dtype=np.uint8)
        # BPSK over a noisy channel: the posteriors must agree with the codeword in sign and
        # be more confident than the channel values they came from
        llr = (2.0 * cw - 1.0) * 2.0 + rng.normal(0, 1.2, len(cw))
        msg = pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(llr), llr.astype(np.float32).tolist()))
        dec = gpufec.pdu_decoder("ldpc", "code=%s" % code, device="auto", soft_output=True)
        out = run_pdus(dec, [msg], 1)
        self.assertEqual(len(out), 1)
        meta = pmt.car(out[0])
        passed = list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("passed"), pmt.PMT_NIL)))
        self.assertEqual(passed, [1, 1, 1])
        post = np.array(pmt.f32vector_elements(pmt.dict_ref(meta, pmt.intern("soft_out"), pmt.PMT_NIL)))
        self.assertEqual(len(post), len(cw))
        np.testing.assert_array_equal((post > 0).astype(np.uint8), cw)
        self.assertGreater(np.abs(post).mean(), np.abs(llr * 32).mean())
        # a family without soft output refuses the option by name
        with self.assertRaisesRegex(ValueError, "soft_output"):
            gpufec.pdu_decoder("viterbi", "code=ccsds, mode=terminated, frame_bits=64", device="cpu",
                               soft_output=True)

    def test_004_a_pdu_of_more_frames_than_every_slot_holds(self):
        # 3 slots of max_batch frames: a PDU of 3 * max_batch + 1 frames once waited forever for a
        # slot that only the (sleeping) collector could free; tb.stop() then never returned
        rng = np.random.default_rng(4)
        cases = (("repetition", "frame_bits=16, repeat=3"),
                 ("ldpc", "code=802.11n:648:1/2"),
                 ("viterbi", "code=ccsds, mode=terminated, frame_bits=64"),
                 ("turbo", "code=lte:104"),
                 ("rs", "code=ccsds:255:223, interleave=2"))
        for fam, opts in cases:
            for max_batch in (1, 2):
                frames = 3 * max_batch + 1 + 4
                enc = gpufec.fec_encoder(fam, opts)
                k = fec.get_encoder_input_size(enc)
                bits = rng.integers(0, 2, frames * k, dtype=np.uint8)
                tb = gr.top_block()
                snk = blocks.vector_sink_b()
                tb.connect(blocks.vector_source_b(bits.tolist()), fec.encoder(enc, gr.sizeof_char, gr.sizeof_char), snk)
                tb.run()
                soft = 2.0 * np.array(snk.data(), dtype=np.float32) - 1.0
                dec = gpufec.pdu_decoder(fam, opts, device="cpu", max_batch=max_batch)
                msg = pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(soft), soft.tolist()))
                out = run_pdus(dec, [msg, msg], 2)
                self.assertEqual(len(out), 2, msg="%s max_batch=%d" % (fam, max_batch))
                for m in out:
                    self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(m), pmt.intern("frames"), pmt.PMT_NIL)), frames)
                    np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8), bits,
                                                  err_msg=fam)

    def test_005_reed_solomon_counts_its_corrections(self):
        # (255, 223) I = 2: frame 0 with 3 symbol errors in codeword 0 and 2 in codeword 1, frame
        # 1 clean, frame 2 with 20 in codeword 0 (beyond E = 16): corrected 5, 0, -1 on the PDU
        # face ("corrected") and the stream face (tag "rs_corrected")
        rng = np.random.default_rng(5)
        opts = "code=ccsds:255:223, interleave=2"
        enc = gpufec.fec_encoder("rs", opts)
        k = fec.get_encoder_input_size(enc)
        bits = rng.integers(0, 2, 3 * k, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), fec.encoder(enc, gr.sizeof_char, gr.sizeof_char), snk)
        tb.run()
        soft = 2.0 * np.array(snk.data(), dtype=np.float32) - 1.0
        n = len(soft) // 3

        def hit(frame, codeword, symbols):  # one bit of each of `symbols` symbols of a codeword
            for sym in rng.choice(255, symbols, replace=False):
                soft[frame * n + (int(sym) * 2 + codeword) * 8 + int(rng.integers(8))] *= -1
        hit(0, 0, 3)
        hit(0, 1, 2)
        hit(2, 0, 20)
        dec = gpufec.pdu_decoder("rs", opts, device="cpu")
        out = run_pdus(dec, [pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(soft), soft.tolist()))], 1)
        meta = pmt.car(out[0])
        self.assertEqual(list(pmt.s32vector_elements(pmt.dict_ref(meta, pmt.intern("corrected"), pmt.PMT_NIL))),
                         [5, 0, -1])
        tb = gr.top_block()
        fd = gpufec.frame_decoder("rs", opts, device="cpu", status_tags="all")
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_f(soft.tolist()), fd, snk)
        tb.run()
        tags = sorted((t.offset, pmt.to_long(t.value)) for t in snk.tags()
                      if pmt.symbol_to_string(t.key) == "rs_corrected")
        self.assertEqual(tags, [(0, 5), (k, 0), (2 * k, -1)])


if __name__ == "__main__":
    gr_unittest.run(qa_pdu_decoder)
