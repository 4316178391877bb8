#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.ldpc_encoder and gpufec.ldpc_decoder in flowgraphs: loopback for standard codes,
output forms, int8 input, per-codeword tags, partial codewords, alist files, bad parameters.
Runs on whatever device="auto" finds."""

import os
import tempfile

import numpy as np
import pmt
import yaml
from gnuradio import gr, gr_unittest, blocks
from gnuradio import gpufec

from qa_util import dtv_code


def encode(code, bits):
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(list(bits)), gpufec.ldpc_encoder(code), snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def bpsk(cw, ebn0=None, rate=0.5, seed=1):
    x = 2.0 * cw.astype(np.float32) - 1.0
    if ebn0 is not None:
        sigma = np.sqrt(1.0 / (2 * rate * 10 ** (ebn0 / 10)))
        x = x + np.random.default_rng(seed).normal(0, sigma, len(x)).astype(np.float32)
    return x


def decode(dec, soft, float_input=True, chunk=None):
    tb = gr.top_block()
    if float_input:
        src = blocks.vector_source_f(list(map(float, soft)))
        cp = blocks.copy(gr.sizeof_float)
    else:
        src = blocks.vector_source_b([int(v) & 0xFF for v in soft])
        cp = blocks.copy(gr.sizeof_char)
    if chunk:
        cp.set_max_noutput_items(chunk)
    snk = blocks.vector_sink_b()
    tb.connect(src, cp, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


class qa_ldpc(gr_unittest.TestCase):

    def test_001_codes_are_listed(self):
        codes = gpufec.ldpc_codes()
        # 802.11n, 802.16e, 5G NR (51 lifting sizes, 2 graphs), DVB-S2 (11 + 10 rates), DVB-S2X
        # (23 + 7), C2 (basic and as sent), telecommand (2), AR4JA
        self.assertEqual(len(codes), 126 + 2 * 51 + 21 + 30 + 9 + 2 + 2 + 9)
        self.assertIn("802.11n:1944:1/2", codes)
        self.assertIn("802.16e:2304:2/3A", codes)
        self.assertIn("nr:bg1:384", codes)
        self.assertIn("nr:bg2:2", codes)
        self.assertIn("dvbs2:64800:9/10", codes)
        self.assertIn("dvbs2:16200:8/9", codes)

    def test_001b_grc_lists_every_code(self):
        # the GRC blocks' code lists are written from the registry (scripts/grc_ldpc_codes.py)
        grc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")
        for name in ("gpufec_ldpc_decoder.block.yml", "gpufec_ldpc_encoder.block.yml"):
            with open(os.path.join(grc, name)) as f:
                param = [p for p in yaml.safe_load(f)["parameters"] if p["id"] == "code"][0]
            self.assertEqual([o.strip("'") for o in param["options"]], list(gpufec.ldpc_codes()),
                             name + ": run scripts/grc_ldpc_codes.py")
            self.assertEqual(len(param["option_labels"]), len(param["options"]))
            with open(os.path.join(grc, name)) as f:
                mods = [p for p in yaml.safe_load(f)["parameters"] if p["id"] == "interleaver"][0]
            self.assertEqual([o.strip("'") for o in mods["options"]],
                             [m for m in gpufec.dvbs2_modulations() if m not in ("bpsk", "qpsk")],
                             name + ": run scripts/grc_ldpc_codes.py")

    def test_002_noiseless_loopback_with_tags(self):
        for code in ("802.11n:648:3/4", "802.16e:576:1/2", "802.16e:2304:5/6"):
            enc = gpufec.ldpc_encoder(code)
            k, n = enc.info_bits(), enc.codeword_bits()
            bits = np.random.default_rng(2).integers(0, 2, 5 * k, dtype=np.uint8)
            cw = encode(code, bits)
            self.assertEqual(len(cw), 5 * n)
            np.testing.assert_array_equal(cw.reshape(5, n)[:, :k].ravel(), bits)  # systematic
            dec = gpufec.ldpc_decoder(code, status_tags="all")
            out, tags = decode(dec, bpsk(cw), chunk=333)
            np.testing.assert_array_equal(out, bits)
            its = [t for t in tags if pmt.symbol_to_string(t.key) == "ldpc_iterations"]
            oks = [t for t in tags if pmt.symbol_to_string(t.key) == "ldpc_syndrome_ok"]
            self.assertEqual([t.offset for t in its], [i * k for i in range(5)])
            self.assertTrue(all(pmt.to_long(t.value) == 1 for t in its))
            self.assertTrue(all(pmt.to_bool(t.value) for t in oks))
            self.assertEqual(dec.codewords(), 5)
            self.assertEqual(dec.failed_codewords(), 0)
            # by default only codewords that fail are tagged; "none" tags nothing
            for mode in ("failures", "none"):
                _, tags = decode(gpufec.ldpc_decoder(code, status_tags=mode), bpsk(cw))
                self.assertEqual([t for t in tags if pmt.symbol_to_string(t.key).startswith("ldpc_")], [])
        with self.assertRaisesRegex(ValueError, "status_tags"):
            gpufec.ldpc_decoder(status_tags="some")

    def test_002b_nr_codes_loop_back_as_sent(self):
        # 5G NR mother codes: the encoder block sends all but the first 2Z bits, the decoder block
        # takes those and gives the 22Z (BG1) or 10Z (BG2) information bits back, also through noise
        for code, z, k, sent, rate in (("nr:bg1:16", 16, 22 * 16, 66 * 16, 22 / 66), ("nr:bg2:20", 20, 10 * 20, 50 * 20, 10 / 50)):
            enc = gpufec.ldpc_encoder(code)
            self.assertEqual((enc.info_bits(), enc.codeword_bits()), (k, sent))
            bits = np.random.default_rng(7).integers(0, 2, 6 * k, dtype=np.uint8)
            cw = encode(code, bits)
            self.assertEqual(len(cw), 6 * sent)
            dec = gpufec.ldpc_decoder(code, max_iterations=20)
            self.assertEqual((dec.info_bits(), dec.codeword_bits()), (k, sent))
            out, _ = decode(dec, bpsk(cw, ebn0=2.5, rate=rate, seed=8), chunk=777)
            np.testing.assert_array_equal(out, bits)

    def test_002c_nr_rate_matching_from_python(self):
        rm = gpufec.nr_rate_matcher(1, 24, 500)  # K = 528: 28 filler bits
        self.assertEqual((rm.N(), rm.filler(), rm.sent(), rm.k0(3)), (66 * 24, 28, 66 * 24 - 28, 56 * 24))
        frame = np.random.default_rng(9).integers(0, 2, rm.sent(), dtype=np.uint8)
        tx = rm.match(frame, 1200, 0, 2)
        self.assertEqual(len(tx), 1200)
        acc = np.zeros(rm.sent(), dtype=np.float32)
        rm.accumulate(2.0 * tx.astype(np.float32) - 1.0, 0, acc, 2)
        seen = acc != 0
        np.testing.assert_array_equal(acc[seen] > 0, frame[seen] == 1)
        with self.assertRaisesRegex(ValueError, "sends"):
            rm.match(frame[:10], 1200, 0, 2)
        with self.assertRaisesRegex(ValueError, "lifting size"):
            gpufec.nr_rate_matcher(1, 17, 100)

    def test_002d_nr_segmentation_from_python(self):
        seg = gpufec.nr_segmentation.compute(10000, 1)
        self.assertEqual((seg.C, seg.L, seg.K_prime, seg.Z, seg.F), (2, 24, 5024, 240, 256))
        self.assertEqual(seg.ldpc_options(), "code=nr:bg1:240, shorten=5024:5280")
        bits = np.random.default_rng(4).integers(0, 2, 10000, dtype=np.uint8)
        blocks = gpufec.nr_segment(seg, bits)
        self.assertEqual(blocks.shape, (2, 5024))
        back, ok = gpufec.nr_desegment(seg, blocks)
        np.testing.assert_array_equal(back, bits)
        self.assertEqual(list(ok), [1, 1])
        blocks[1, 3] ^= 1
        _, ok = gpufec.nr_desegment(seg, blocks)
        self.assertEqual(list(ok), [1, 0])
        self.assertEqual((gpufec.nr_base_graph(3000, 0.5), gpufec.nr_base_graph(20000, 0.5)), (2, 1))

    def test_002e_dvbs2_codewords_equal_gr_dtv(self):
        # every DVB-S2 and DVB-S2X code: our encoder block against GNU Radio's own DVB-S2
        # transmitter stage (gr-dtv dvb_ldpc_bb), an independent implementation (of the S2 codes;
        # for S2X it shares its tables' author), bit for bit over three frames
        try:
            from gnuradio import dtv
        except ImportError:
            self.skipTest("gr-dtv is not installed")
        rng = np.random.default_rng(11)
        codes = [c for c in gpufec.ldpc_codes() if c.startswith("dvbs2:")]
        self.assertEqual(len(codes), 21 + 30 + 9)  # S2, S2X, S2X VL-SNR
        for code in codes:
            n = int(code.split(":")[1])
            enc = gpufec.ldpc_encoder(code)
            k = enc.info_bits()
            # VL-SNR: sent without their punctured parity bits and shortened information bits
            vlsnr = "vlsnr" in code or n == 32400 or code.endswith(":2/9")
            if not vlsnr:
                self.assertEqual(enc.codeword_bits(), n)
            bits = rng.integers(0, 2, 3 * k, dtype=np.uint8)
            frame, rate = dtv_code(dtv, code)
            tb = gr.top_block()
            src, ours, theirs = blocks.vector_source_b(list(bits)), blocks.vector_sink_b(), blocks.vector_sink_b()
            tb.connect(src, enc, ours)
            tb.connect(src, dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, frame, rate, dtv.MOD_OTHER), theirs)
            tb.run()
            self.assertEqual(len(ours.data()), 3 * enc.codeword_bits(), code)
            np.testing.assert_array_equal(np.array(ours.data()), np.array(theirs.data()), code)

    def test_002f_dvbs2_noisy_frames_decode(self):
        code, k, rate = "dvbs2:16200:1/2", 7200, 7200 / 16200
        bits = np.random.default_rng(12).integers(0, 2, 4 * k, dtype=np.uint8)
        cw = encode(code, bits)
        soft = bpsk(cw, ebn0=2.0, rate=rate, seed=13)
        self.assertGreater(np.count_nonzero((soft > 0) != (cw == 1)), 2000)
        dec = gpufec.ldpc_decoder(code, max_iterations=30)
        out, _ = decode(dec, soft)
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(dec.failed_codewords(), 0)

    def test_002g_ar4ja_codes_loop_back_through_noise(self):
        # CCSDS AR4JA: k information bits, n = 2k / 3k/2 / 5k/4 sent (the last M of the code's
        # (K + 3) M bits punctured, decoded as erasures)
        for code, k, sent, ebn0 in (("ccsds:2048:1024", 1024, 2048, 2.5), ("ccsds:1280:1024", 1024, 1280, 4.0),
                                    ("ccsds:8192:4096", 4096, 8192, 2.0)):
            enc = gpufec.ldpc_encoder(code)
            self.assertEqual((enc.info_bits(), enc.codeword_bits()), (k, sent))
            bits = np.random.default_rng(17).integers(0, 2, 4 * k, dtype=np.uint8)
            cw = encode(code, bits)
            soft = bpsk(cw, ebn0=ebn0, rate=k / sent, seed=18)
            self.assertGreater(np.count_nonzero((soft > 0) != (cw == 1)), 4 * sent // 60)
            dec = gpufec.ldpc_decoder(code, max_iterations=50)
            self.assertEqual((dec.info_bits(), dec.codeword_bits()), (k, sent))
            out, _ = decode(dec, soft)
            np.testing.assert_array_equal(out, bits, code)

    def test_003_noisy_frames_are_corrected(self):
        code = "802.11n:1944:1/2"
        k = 972
        bits = np.random.default_rng(3).integers(0, 2, 20 * k, dtype=np.uint8)
        cw = encode(code, bits)
        soft = bpsk(cw, ebn0=2.5, seed=4)
        raw_errors = np.count_nonzero((soft > 0) != (cw == 1))
        self.assertGreater(raw_errors, 500)
        dec = gpufec.ldpc_decoder(code, max_iterations=20)
        out, _ = decode(dec, soft)
        self.assertLessEqual(np.count_nonzero(out != bits), k // 10)  # at most ~1 frame wrong
        self.assertGreater(dec.mean_iterations(), 1.0)

    def test_004_output_forms_and_int8_input(self):
        code = "802.16e:576:2/3B"
        enc = gpufec.ldpc_encoder(code)
        k, n = enc.info_bits(), enc.codeword_bits()
        bits = np.random.default_rng(5).integers(0, 2, 3 * k, dtype=np.uint8)
        cw = encode(code, bits)
        soft = bpsk(cw, ebn0=4.0, rate=k / n, seed=6)
        whole, _ = decode(gpufec.ldpc_decoder(code, output="codeword"), soft)
        np.testing.assert_array_equal(whole, cw)
        packed, _ = decode(gpufec.ldpc_decoder(code, packed_output=True), soft)
        self.assertEqual(len(packed), 3 * k // 8)
        np.testing.assert_array_equal(np.unpackbits(packed), bits)
        q = np.clip(np.round(32 * soft), -127, 127).astype(np.int8)
        out8, _ = decode(gpufec.ldpc_decoder(code, input_type="int8"), q, float_input=False)
        np.testing.assert_array_equal(out8, bits)

    def test_005_partial_codeword_is_held_back(self):
        code = "802.11n:648:1/2"
        bits = np.random.default_rng(7).integers(0, 2, 2 * 324, dtype=np.uint8)
        soft = bpsk(encode(code, bits))
        out, _ = decode(gpufec.ldpc_decoder(code), soft[:-100])  # the second codeword is cut
        np.testing.assert_array_equal(out, bits[:324])

    def test_006_alist_file_and_other_algorithms(self):
        code = "802.16e:576:1/2"
        with tempfile.NamedTemporaryFile("w", suffix=".alist", delete=False) as f:
            f.write(gpufec.ldpc_code_alist(code))
            path = f.name
        try:
            bits = np.random.default_rng(8).integers(0, 2, 2 * 288, dtype=np.uint8)
            soft = bpsk(encode(code, bits))
            for kw in ({}, {"algorithm": "flooding"}, {"algorithm": "sum-product", "precision": "float"}):
                dec = gpufec.ldpc_decoder(path, **kw)
                out, _ = decode(dec, soft * 4.0)  # LLR-like scale for sum-product
                np.testing.assert_array_equal(out, bits, err_msg=str(kw))
        finally:
            os.unlink(path)

    def test_007_bad_parameters_and_nan(self):
        for kwargs in ({"code": "802.11n:2000:1/2"}, {"code": "/no/such/file.alist"},
                       {"max_iterations": 0}, {"algorithm": "bp"}, {"precision": "int4"},
                       {"input_type": "complex"}, {"output": "bits"}, {"normalization": 2.0},
                       {"algorithm": "sum-product"}):
            with self.assertRaises((ValueError, RuntimeError), msg=str(kwargs)):
                gpufec.ldpc_decoder(**kwargs)
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.ldpc_encoder("802.16e:100:1/2")
        code = "802.16e:576:1/2"
        bits = np.random.default_rng(9).integers(0, 2, 288, dtype=np.uint8)
        soft = bpsk(encode(code, bits))
        soft[[5, 50, 500]] = np.nan
        dec = gpufec.ldpc_decoder(code)
        out, _ = decode(dec, soft)
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(dec.nan_count(), 3)

    def test_008_gnuradio_own_alist_files(self):
        # gr-fec ships its codes as alist files whose lists are not zero-padded; every one of
        # them must load, encode and decode a noisy loopback (the *_gen_matrix files hold
        # generator matrices for gr-fec's ldpc_G_matrix: read as alist they are the parity
        # checks of another code, which must work as well)
        import glob
        import gnuradio
        files = []
        for prefix in sorted({os.path.dirname(os.path.dirname(gnuradio.__file__)), "/usr", "/usr/local"}):
            files += glob.glob(os.path.join(prefix, "share", "gnuradio", "fec", "ldpc", "*"))
        files = sorted({os.path.realpath(f) for f in files if os.path.isfile(f)})
        if not files:
            self.skipTest("GNU Radio's LDPC files are not installed here")
        self.assertGreaterEqual(len(files), 16)
        rng = np.random.default_rng(10)
        for path in files:
            enc = gpufec.ldpc_encoder(path)
            k, n = enc.info_bits(), enc.codeword_bits()
            bits = rng.integers(0, 2, 2 * k, dtype=np.uint8)
            cw = encode(path, bits)
            self.assertEqual(len(cw), 2 * n, msg=path)
            soft = bpsk(cw, ebn0=8.0, rate=k / n, seed=11)
            out, _ = decode(gpufec.ldpc_decoder(path, device="cpu"), soft)
            np.testing.assert_array_equal(out, bits, err_msg=path)

    def test_009_settings_change_while_running(self):
        # max_iterations and early termination change on a built block (GRC callbacks); the
        # new decoder takes over from the next batch; what cannot change is refused by name
        code = "802.16e:576:1/2"
        rng = np.random.default_rng(12)
        bits = rng.integers(0, 2, 40 * 288, dtype=np.uint8)
        soft = bpsk(encode(code, bits), ebn0=1.5, rate=0.5, seed=13)
        dec = gpufec.ldpc_decoder(code, max_iterations=20, device="cpu", max_batch=8)
        decode(dec, soft)
        many = dec.mean_iterations()
        self.assertGreater(many, 3)
        dec2 = gpufec.ldpc_decoder(code, max_iterations=20, device="cpu", max_batch=8)
        dec2.set_max_iterations(2)
        decode(dec2, soft)
        self.assertLessEqual(dec2.mean_iterations(), 2.0)
        dec3 = gpufec.frame_decoder("ldpc", "code=%s, max_iterations=20" % code, device="cpu", max_batch=8)
        dec3.set_early_termination(False)
        decode(dec3, soft)
        self.assertEqual(dec3.mean_iterations(), 20.0)
        for key, value in (("code", "802.11n:648:1/2"), ("max_iterations", "0"), ("precision", "int8"),
                           ("scaling", "0.5")):  # (ldpc has normalization, not scaling)
            with self.assertRaises(ValueError, msg=key):
                dec3.set_option(key, value)
        dec3.set_option("normalization", "0.8")
        pdu = gpufec.pdu_decoder("ldpc", "code=%s" % code, device="cpu")
        pdu.set_max_iterations(3)
        with self.assertRaises(ValueError):
            pdu.set_option("code", "802.11n:648:1/2")


if __name__ == "__main__":
    gr_unittest.run(qa_ldpc)
