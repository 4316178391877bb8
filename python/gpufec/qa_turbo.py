#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.turbo_encoder and gpufec.turbo_decoder in flowgraphs: loopback over BPSK/AWGN for
several K, the CRC variant (payload in and out, CRC status tags), the interleaved layout, the
PDU face through pdu_decoder, and bad parameters named in the error."""

import numpy as np
import pmt
from gnuradio import gr, gr_unittest
from gnuradio import gpufec

from qa_util import bpsk, decode_pdus, encode_with, run_decoder


class qa_turbo(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(5)

    def test_001_loopback_several_sizes(self):
        for K, frames in ((40, 20), (1024, 8), (6144, 3)):
            bits = self.rng.integers(0, 2, K * frames, dtype=np.uint8)
            coded = encode_with(gpufec.turbo_encoder(K=K), bits)
            self.assertEqual(len(coded), (3 * K + 12) * frames)
            np.testing.assert_array_equal(coded[:K], bits[:K])  # d0 starts with the systematic bits
            dec = gpufec.turbo_decoder(K=K, device="cpu")
            sigma = 0.8  # Eb/N0 about 3 dB at rate 1/3: no errors expected
            out, _ = run_decoder(dec, bpsk(coded, sigma))
            np.testing.assert_array_equal(out, bits, err_msg="K=%d" % K)
            self.assertEqual(dec.frames(), frames)
            self.assertEqual(dec.failed_frames(), 0)
            self.assertIn("turbo", dec.code_description().lower())

    def test_002_crc_payload_and_status_tags(self):
        K, frames = 512, 6
        payload = self.rng.integers(0, 2, (K - 24) * frames, dtype=np.uint8)
        coded = encode_with(gpufec.turbo_encoder(K=K, crc="lte-24a"), payload)
        self.assertEqual(len(coded), (3 * K + 12) * frames)
        soft = bpsk(coded)
        soft[(3 * K + 12) * 2:(3 * K + 12) * 3] = -soft[(3 * K + 12) * 2:(3 * K + 12) * 3]  # frame 2: garbage
        dec = gpufec.turbo_decoder(K=K, crc="lte-24a", device="cpu", status_tags="all")
        out, tags = run_decoder(dec, soft)
        self.assertEqual(len(out), len(payload))
        good = [f for f in range(frames) if f != 2]
        for f in good:
            np.testing.assert_array_equal(out[f * (K - 24):(f + 1) * (K - 24)],
                                          payload[f * (K - 24):(f + 1) * (K - 24)])
        crc = {t.offset // (K - 24): pmt.to_python(t.value) for t in tags
               if pmt.symbol_to_string(t.key) == "turbo_crc_ok"}
        self.assertEqual(crc.get(2), False)
        self.assertTrue(all(crc.get(f) for f in good), msg=str(crc))
        self.assertEqual(dec.failed_frames(), 1)

    def test_003_interleaved_layout_and_log_map(self):
        K, frames = 256, 4
        bits = self.rng.integers(0, 2, K * frames, dtype=np.uint8)
        coded = encode_with(gpufec.turbo_encoder(K=K, layout="interleaved"), bits)
        cw = coded[:3 * K + 12]
        np.testing.assert_array_equal(cw[0:3 * K:3], bits[:K])  # d0 in every third place
        llr = 4.0 * bpsk(coded, 0.7)  # log-map takes LLRs as they are
        dec = gpufec.turbo_decoder(K=K, layout="interleaved", algorithm="log-map", device="cpu")
        out, _ = run_decoder(dec, llr)
        np.testing.assert_array_equal(out, bits)

    def test_004_pdu_face(self):
        import time
        from gnuradio import blocks
        K = 128
        bits = self.rng.integers(0, 2, 2 * K, dtype=np.uint8)
        coded = encode_with(gpufec.turbo_encoder(K=K), bits)
        dec = gpufec.pdu_decoder("turbo", gpufec.turbo_options(K=K), device="cpu")
        msgs = decode_pdus(dec, [pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(coded), bpsk(coded).tolist()))])
        self.assertEqual(len(msgs), 1)
        got = np.array(pmt.u8vector_elements(pmt.cdr(msgs[0])), dtype=np.uint8)
        np.testing.assert_array_equal(got, bits)

    def test_005_bad_parameters_are_named(self):
        for kwargs, word in (({"K": 41}, "K: 41"), ({"crc": "crc-7"}, "crc"), ({"algorithm": "map"}, "algorithm"),
                             ({"max_iterations": 0}, "max_iterations"),
                             ({"standard": "ccsds", "K": 6144}, "K: 6144"),
                             ({"standard": "ccsds", "K": 1784, "rate": "2/3"}, "rate"),
                             ({"standard": "dvb"}, "standard"), ({"prelaunch": True}, "prelaunch")):
            with self.assertRaises(ValueError) as cm:
                gpufec.turbo_decoder(device="cpu", **kwargs)
            self.assertIn(word, str(cm.exception), msg=str(kwargs))

    def test_005b_fptd_with_prelaunch(self):
        # the fully parallel decoder; prelaunch is its GPU option and changes nothing on the CPU
        K, frames = 256, 4
        bits = self.rng.integers(0, 2, K * frames, dtype=np.uint8)
        coded = encode_with(gpufec.turbo_encoder(K=K), bits)
        dec = gpufec.turbo_decoder(K=K, algorithm="fptd-max-log", max_iterations=36, prelaunch=True, device="cpu")
        out, _ = run_decoder(dec, bpsk(coded, 0.7))
        np.testing.assert_array_equal(out, bits)
        self.assertIn("fptd", dec.code_description().lower())

    def test_005c_int8_engine_on_the_cpu(self):
        # precision="int8": the CPU's int8 engine decodes clean frames, is named as such, and is
        # refused where it does not run (the CCSDS code, a GPU asked for by name)
        K, frames = 1024, 70
        bits = self.rng.integers(0, 2, K * frames, dtype=np.uint8)
        coded = encode_with(gpufec.turbo_encoder(K=K), bits)
        dec = gpufec.turbo_decoder(K=K, precision="int8", device="cpu")
        out, _ = run_decoder(dec, bpsk(coded, 0.8))
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(dec.failed_frames(), 0)
        for kwargs, word in (({"standard": "ccsds", "K": 1784}, "precision"), ({"precision": "int4"}, "precision")):
            with self.assertRaises(ValueError) as cm:
                gpufec.turbo_decoder(device="cpu", precision=kwargs.pop("precision", "int8"), **kwargs)
            self.assertIn(word, str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            gpufec.turbo_decoder(precision="int8", device="cuda")
        self.assertIn("precision", str(cm.exception))

    def test_006_ccsds_rates(self):
        K = 1784
        for rate, n, sigma in (("1/2", 2, 0.6), ("1/3", 3, 0.8), ("1/4", 4, 0.9), ("1/6", 6, 1.0)):
            bits = self.rng.integers(0, 2, K * 2, dtype=np.uint8)
            coded = encode_with(gpufec.turbo_encoder(K=K, standard="ccsds", rate=rate), bits)
            self.assertEqual(len(coded), n * (K + 4) * 2)
            np.testing.assert_array_equal(coded[0:n * K:n], bits[:K])  # out 0a first in every bit time
            dec = gpufec.turbo_decoder(K=K, standard="ccsds", rate=rate, max_iterations=10)
            out, _ = run_decoder(dec, bpsk(coded, sigma))
            np.testing.assert_array_equal(out, bits, err_msg="rate " + rate)
            self.assertIn("CCSDS", dec.code_description())

    def _mixed_code_blocks(self, sizes):
        bits, coded = [], []
        for K in sizes:
            b = self.rng.integers(0, 2, K, dtype=np.uint8)
            bits.append(b)
            coded.append(encode_with(gpufec.turbo_encoder(K=K), b))
        return bits, coded

    def test_007_any_k_tagged_stream(self):
        """K=0: every packet one code block of its own K (3K + 12 values); a length that is no LTE K
        is dropped and counted; small slots (max_batch=2) and short input chunks on the way"""
        sizes = [6144, 40, 512, 6080, 40, 1024, 6144]
        bits, coded = self._mixed_code_blocks(sizes)
        bad = np.zeros(3 * 41 + 12, dtype=np.uint8)  # K = 41 is not an LTE size
        packets = coded[:3] + [bad] + coded[3:]
        soft, tags, at = [], [], 0
        for i, c in enumerate(packets):
            tags.append(gr.tag_utils.python_to_tag((at, pmt.intern("packet_len"), pmt.from_long(len(c)))))
            soft.append(bpsk(c, 0.8, seed=i + 1))
            at += len(c)
        dec = gpufec.turbo_decoder(K=0, device="cpu", length_tag_key="packet_len", max_batch=2)
        self.assertEqual(dec.input_per_frame(), 3 * 6144 + 12)
        out, otags = run_decoder(dec, np.concatenate(soft), tags=tags, chunk=5000)
        np.testing.assert_array_equal(out, np.concatenate(bits))
        lens = [(t.offset, pmt.to_long(t.value)) for t in otags if pmt.symbol_to_string(t.key) == "packet_len"]
        self.assertEqual([n for _, n in lens], sizes)
        self.assertEqual([o for o, _ in lens], list(np.cumsum([0] + sizes[:-1])))
        self.assertEqual(dec.frames(), len(sizes))
        self.assertEqual(dec.dropped_packets(), 1)
        with self.assertRaises(ValueError) as cm:  # K=0 needs a face that marks the frames
            gpufec.turbo_decoder(K=0, device="cpu")
        self.assertIn("length_tag_key", str(cm.exception))

    def test_008_any_k_pdus_with_crc(self):
        import time
        from gnuradio import blocks
        sizes = [40, 6144, 1056, 40]
        payload, coded = [], []
        for K in sizes:
            b = self.rng.integers(0, 2, K - 24, dtype=np.uint8)
            payload.append(b)
            coded.append(encode_with(gpufec.turbo_encoder(K=K, crc="lte-24b"), b))
        dec = gpufec.pdu_decoder("turbo", gpufec.turbo_options(K=0, crc="lte-24b"), device="cpu")
        tb = gr.top_block()
        dbg = blocks.message_debug()
        tb.msg_connect((dec, "pdus"), (dbg, "store"))
        tb.start()
        port = pmt.intern("pdus")
        for i, c in enumerate(coded):
            if i == 2:  # a PDU of no LTE length between the good ones
                dec.to_basic_block()._post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(100, [1.0] * 100)))
            dec.to_basic_block()._post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(c), bpsk(c).tolist())))
        t0 = time.time()
        while dbg.num_messages() < len(sizes) and time.time() - t0 < 30:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), len(sizes))
        for i, b in enumerate(payload):
            msg = dbg.get_message(i)
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8), b)
            passed = pmt.u8vector_elements(pmt.dict_ref(pmt.car(msg), pmt.intern("passed"), pmt.PMT_NIL))
            self.assertEqual(list(passed), [1])
        self.assertEqual(dec.dropped_pdus(), 1)


if __name__ == "__main__":
    gr_unittest.run(qa_turbo)
