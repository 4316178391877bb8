#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""DVB-S2 forward error correction against GNU Radio's own DVB-S2 transmitter (gr-dtv): the
outer BCH code of every rate and frame size bit for bit beside dvb_bch_bb, its decoder on
random errors, and LDPC with the BCH after it (the ldpc family's outer=bch) on the stream and
PDU faces, each frame saying which of the two codes failed; the bit interleaver for 8PSK, 16APSK
and 32APSK beside gr-dtv's."""

import numpy as np
import pmt
from gnuradio import gr, gr_unittest, blocks, fec
from gnuradio import gpufec

from qa_util import decode_pdus, dtv_code


def dtv_rate(dtv, rate):
    """gr-dtv's code rate constant for a nominal rate ("3/5" -> dtv.C3_5)"""
    return getattr(dtv, "C" + rate.replace("/", "_"))


class qa_dvbs2(gr_unittest.TestCase):

    def test_001_bch_codewords_equal_gr_dtv(self):
        # every rate of DVB-S2 and DVB-S2X (the rates of the dvbs2 LDPC codes)
        try:
            from gnuradio import dtv
        except ImportError:
            self.skipTest("gr-dtv is not installed")
        rng = np.random.default_rng(21)
        codes = [c for c in gpufec.ldpc_codes() if c.startswith("dvbs2:")]
        self.assertEqual(len(codes), 60)  # S2, S2X, S2X VL-SNR (medium frames: GF(2^15))
        for code in codes:
            _, n, rate = code.split(":")
            bch = gpufec.bch_code.dvbs2(int(n), rate)
            msgs = rng.integers(0, 2, (2, bch.k()), dtype=np.uint8)
            tb = gr.top_block()
            snk = blocks.vector_sink_b()
            frame, dtv_rate_c = dtv_code(dtv, code)
            tb.connect(blocks.vector_source_b(list(msgs.ravel())),
                       dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, frame, dtv_rate_c), snk)
            tb.run()
            theirs = np.array(snk.data(), dtype=np.uint8).reshape(2, bch.n())
            for i in range(2):
                np.testing.assert_array_equal(bch.encode(msgs[i]), theirs[i], f"{n} {rate}")

    def test_002_bch_corrects_t_errors_and_reports_more(self):
        rng = np.random.default_rng(22)
        bch = gpufec.bch_code.dvbs2(64800, "2/3")  # t = 10
        self.assertEqual((bch.n(), bch.k(), bch.t()), (43200, 43040, 10))
        cw = bch.encode(rng.integers(0, 2, bch.k(), dtype=np.uint8))
        rx = cw.copy()
        rx[rng.choice(bch.n(), 10, replace=False)] ^= 1
        fixed, corrected = bch.decode(rx)
        self.assertEqual(corrected, 10)
        np.testing.assert_array_equal(fixed, cw)
        rx = cw.copy()
        rx[rng.choice(bch.n(), 14, replace=False)] ^= 1
        back, corrected = bch.decode(rx)
        self.assertEqual(corrected, -1)
        np.testing.assert_array_equal(back, rx)
        with self.assertRaisesRegex(ValueError, "needs 43040 bits"):
            bch.encode(np.zeros(10, np.uint8))
        with self.assertRaisesRegex(ValueError, "no outer code"):
            gpufec.bch_code.dvbs2(16200, "9/10")

    def encode_frames(self, opts, frames, seed):
        enc = gpufec.fec_encoder("ldpc", opts)
        k = fec.get_encoder_input_size(enc)
        bits = np.random.default_rng(seed).integers(0, 2, frames * k, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), fec.extended_encoder(enc, threading=None, puncpat="11"), snk)
        tb.run()
        return bits, np.array(snk.data(), dtype=np.uint8), k

    def test_003_ldpc_with_bch_on_the_stream(self):
        opts = "code=dvbs2:16200:1/2, outer=bch"
        frames = 6
        bits, cw, k = self.encode_frames(opts, frames, 31)
        self.assertEqual((k, len(cw)), (7032, frames * 16200))
        # one LDPC iteration at 6 dB leaves every syndrome failing but a few errors only, which
        # the BCH corrects: the frames come out right, the tags say the inner check failed
        sigma = np.sqrt(1 / (2 * (7032 / 16200) * 10 ** 0.6))
        soft = (2.0 * cw - 1 + np.random.default_rng(32).normal(0, sigma, len(cw))).astype(np.float32)
        dec = gpufec.frame_decoder("ldpc", opts + ", max_iterations=1, early_termination=false", status_tags="all")
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_f(soft.tolist()), dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)
        tags = {}
        for t in snk.tags():
            tags.setdefault(pmt.symbol_to_string(t.key), []).append((t.offset, pmt.to_python(t.value)))
        self.assertEqual(tags["ldpc_bch_ok"], [(i * k, True) for i in range(frames)])
        self.assertEqual(tags["ldpc_inner_ok"], [(i * k, False) for i in range(frames)])
        # with enough iterations both pass
        dec = gpufec.frame_decoder("ldpc", opts, status_tags="all")
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_f(soft.tolist()), dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)
        self.assertTrue(all(pmt.to_python(t.value) for t in snk.tags()
                            if pmt.symbol_to_string(t.key) in ("ldpc_bch_ok", "ldpc_inner_ok")))

    def test_003b_vlsnr_frames_with_bch_where_information_bits_are_shortened(self):
        # DVB-S2X VL-SNR codes whose first information bits are known zeros (560 / 640) and some
        # parity bits never sent: their BCH codeword starts after the shortened bits. One
        # iteration at 10 dB leaves every LDPC syndrome failing with a few errors, which the BCH
        # mends (ldpc_inner_ok false, ldpc_bch_ok true, the bits right); 50 at 3 dB decode both
        for code, n_sent, k in (("dvbs2:16200:1/5-vlsnr-sf2", 15390, 2512), ("dvbs2:32400:1/5", 30780, 5660)):
            opts = "code=%s, outer=bch" % code
            frames = 4
            bits, cw, kk = self.encode_frames(opts, frames, 5)
            self.assertEqual((kk, len(cw)), (k, frames * n_sent))
            for ebn0, its, inner in ((10.0, 1, False), (3.0, 50, True)):
                sigma = np.sqrt(1 / (2 * (k / n_sent) * 10 ** (ebn0 / 10)))
                soft = (2.0 * cw - 1 + np.random.default_rng(6).normal(0, sigma, len(cw))).astype(np.float32)
                dec = gpufec.frame_decoder("ldpc", opts + ", max_iterations=%d, early_termination=false" % its,
                                           status_tags="all")
                tb = gr.top_block()
                snk = blocks.vector_sink_b()
                tb.connect(blocks.vector_source_f(soft.tolist()), dec, snk)
                tb.run()
                np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits, code)
                tags = {}
                for t in snk.tags():
                    tags.setdefault(pmt.symbol_to_string(t.key), []).append(pmt.to_python(t.value))
                self.assertEqual(tags["ldpc_bch_ok"], [True] * frames, code)
                self.assertEqual(tags["ldpc_inner_ok"], [inner] * frames, code)

    def test_004_ldpc_with_bch_pdus_say_which_failed(self):
        opts = "code=dvbs2:16200:8/9, outer=bch"
        bits, cw, k = self.encode_frames(opts, 3, 41)
        soft = np.where(cw == 1, 1.0, -1.0).astype(np.float32)
        soft[16200 + np.arange(0, 400, 2)] *= -1  # frame 1: 200 wrong bits, more than both codes mend
        dec = gpufec.pdu_decoder("ldpc", opts + ", max_iterations=1, early_termination=false")
        out = decode_pdus(dec, [pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(soft), soft.tolist()))],
                          timeout=60, expect=1)
        meta, vec = pmt.car(out[0]), pmt.cdr(out[0])
        passed = list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("passed"), pmt.PMT_NIL)))
        inner = list(pmt.u8vector_elements(pmt.dict_ref(meta, pmt.intern("inner_passed"), pmt.PMT_NIL)))
        self.assertEqual(passed, [1, 0, 1])
        self.assertEqual(inner, [1, 0, 1])
        got = np.array(pmt.u8vector_elements(vec), dtype=np.uint8).reshape(3, k)
        np.testing.assert_array_equal(got[[0, 2]], bits.reshape(3, k)[[0, 2]])

    def test_004b_ldpc_blocks_take_the_outer_code(self):
        # the typed LDPC blocks (and GRC's): K_bch bits in and out, tags naming both checks
        code = "dvbs2:16200:2/3"
        enc = gpufec.ldpc_encoder(code, outer="bch")
        dec = gpufec.ldpc_decoder(code, outer="bch", status_tags="all")
        self.assertEqual((enc.info_bits(), enc.codeword_bits()), (10632, 16200))
        self.assertEqual((dec.info_bits(), dec.codeword_bits()), (10632, 16200))
        bits = np.random.default_rng(51).integers(0, 2, 3 * 10632, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), enc, blocks.char_to_float(1, 0.5),
                   blocks.add_const_ff(-1.0), dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)
        keys = sorted({pmt.symbol_to_string(t.key) for t in snk.tags()})
        self.assertEqual(keys, ["ldpc_bch_ok", "ldpc_inner_ok", "ldpc_iterations"])
        self.assertEqual(dec.failed_codewords(), 0)

    def test_004c_soft_output_comes_in_the_order_sent(self):
        # posteriors of the codeword as the standard sends it (not the decoder's QC order):
        # their signs are the sent bits
        code = "dvbs2:16200:3/5"
        bits, cw, k = self.encode_frames("code=" + code, 2, 61)
        soft = np.where(cw == 1, 1.0, -1.0).astype(np.float32)
        soft[::7] *= 0.2  # some weak, none wrong
        dec = gpufec.pdu_decoder("ldpc", "code=" + code, soft_output=True)
        out = decode_pdus(dec, [pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(soft), soft.tolist()))],
                          timeout=60, expect=1)
        post = np.array(pmt.f32vector_elements(pmt.dict_ref(pmt.car(out[0]), pmt.intern("soft_out"), pmt.PMT_NIL)))
        self.assertEqual(len(post), 2 * 16200)
        np.testing.assert_array_equal((post > 0).astype(np.uint8), cw)

    def test_004d_bit_interleaver_equals_gr_dtv(self):
        # the encoder block's interleaved FECFRAMEs against gr-dtv's dvb_ldpc_bb followed by its
        # dvbs2_interleaver_bb (symbols of 3, 4, 5 bits, most significant first), the twisted
        # column orders (8PSK 3/5; 16APSK 3/5 normal and short) included
        try:
            from gnuradio import dtv
        except ImportError:
            self.skipTest("gr-dtv is not installed")
        mods = {"8psk": (dtv.MOD_8PSK, 3), "16apsk": (dtv.MOD_16APSK, 4), "32apsk": (dtv.MOD_32APSK, 5)}
        rng = np.random.default_rng(71)
        for n, rate, mod in ((64800, "3/5", "8psk"), (16200, "3/5", "8psk"), (64800, "5/6", "8psk"),
                             (64800, "3/5", "16apsk"), (16200, "3/5", "16apsk"), (16200, "2/3", "16apsk"),
                             (64800, "9/10", "32apsk"), (16200, "3/4", "32apsk")):
            code = "dvbs2:%d:%s" % (n, rate)
            enc = gpufec.ldpc_encoder(code, interleaver=mod)
            k = enc.info_bits()
            bits = rng.integers(0, 2, 2 * k, dtype=np.uint8)
            frame = dtv.FECFRAME_NORMAL if n == 64800 else dtv.FECFRAME_SHORT
            tb = gr.top_block()
            src, ours, theirs = blocks.vector_source_b(list(bits)), blocks.vector_sink_b(), blocks.vector_sink_b()
            tb.connect(src, enc, ours)
            tb.connect(src, dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, frame, dtv_rate(dtv, rate), dtv.MOD_OTHER),
                       dtv.dvbs2_interleaver_bb(frame, dtv_rate(dtv, rate), mods[mod][0]), theirs)
            tb.run()
            c = mods[mod][1]
            sym = np.array(theirs.data(), dtype=np.uint8)
            self.assertEqual(len(sym), 2 * n // c, code)
            their_bits = ((sym[:, None] >> np.arange(c - 1, -1, -1)) & 1).astype(np.uint8).ravel()
            np.testing.assert_array_equal(np.array(ours.data(), dtype=np.uint8), their_bits, code + " " + mod)
            perm = gpufec.dvbs2_bit_interleaver(n, rate, mod)
            self.assertEqual(sorted(perm), list(range(n)))

    def test_004d2_every_modulation_and_rate_interleaves_as_gr_dtv(self):
        # every pairing of a modulation (DVB-S2's and DVB-S2X's) with a rate and frame size the
        # standards send: our permutation against gr-dtv's dvbs2_interleaver_bb on random frames;
        # the pairings refused are exactly those gr-dtv's physical layer has no MODCOD for
        try:
            from gnuradio import dtv
        except ImportError:
            self.skipTest("gr-dtv is not installed")
        mods = {"8psk": ("MOD_8PSK", 3), "8apsk": ("MOD_8APSK", 3), "16apsk": ("MOD_16APSK", 4),
                "8+8apsk": ("MOD_8_8APSK", 4), "32apsk": ("MOD_32APSK", 5), "4+12+16apsk": ("MOD_4_12_16APSK", 5),
                "4+8+4+16apsk": ("MOD_4_8_4_16APSK", 5), "64apsk": ("MOD_64APSK", 6),
                "8+16+20+20apsk": ("MOD_8_16_20_20APSK", 6), "4+12+20+28apsk": ("MOD_4_12_20_28APSK", 6),
                "256apsk": ("MOD_256APSK", 8)}
        self.assertEqual(sorted(mods), sorted(m for m in gpufec.dvbs2_modulations() if m not in ("none", "bpsk", "qpsk")))
        rng = np.random.default_rng(72)
        pairs = 0
        for code in gpufec.ldpc_codes():
            if not code.startswith("dvbs2:") or code.split(":")[1] == "32400" or "vlsnr" in code or code.endswith(":2/9"):
                continue
            _, n, rate = code.split(":")
            n = int(n)
            for mod, (const, c) in mods.items():
                try:
                    perm = np.array(gpufec.dvbs2_bit_interleaver(n, rate, mod))
                except ValueError:
                    continue
                pairs += 1
                bits = rng.integers(0, 2, n, dtype=np.uint8)
                frame, dtv_rate_c = dtv_code(dtv, code)
                tb = gr.top_block()
                theirs = blocks.vector_sink_b()
                tb.connect(blocks.vector_source_b(bits.tolist()),
                           dtv.dvbs2_interleaver_bb(frame, dtv_rate_c, getattr(dtv, const)), theirs)
                tb.run()
                sym = np.array(theirs.data(), dtype=np.uint8)
                self.assertEqual(len(sym), n // c, code + " " + mod)
                their_bits = ((sym[:, None] >> np.arange(c - 1, -1, -1)) & 1).astype(np.uint8).ravel()
                np.testing.assert_array_equal(bits[perm], their_bits, code + " " + mod)
        self.assertEqual(pairs, 75)  # (the MODCODs of these modulations, normal and short frames)

    def test_004e_decoder_takes_interleaved_frames(self):
        # 8PSK 3/5 frames as they leave the interleaver decode with interleaver=8psk (and with
        # the BCH), and not without it
        code = "dvbs2:16200:3/5"
        bits, cw, k = self.encode_frames("code=%s, interleaver=8psk, outer=bch" % code, 2, 73)
        soft = np.where(cw == 1, 1.0, -1.0).astype(np.float32)
        soft[::10] *= -0.3  # a tenth of the bits weakly wrong
        dec = gpufec.ldpc_decoder(code, interleaver="8psk", outer="bch", max_iterations=30)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_f(soft.tolist()), dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)
        self.assertEqual(dec.failed_codewords(), 0)
        plain = gpufec.ldpc_decoder(code, outer="bch", max_iterations=30)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_f(soft.tolist()), plain, snk)
        tb.run()
        self.assertEqual(plain.failed_codewords(), 2)

    def test_004f_interleaver_refused_where_it_does_not_fit(self):
        with self.assertRaisesRegex(ValueError, "DVB-S2's bit interleaver"):
            gpufec.frame_decoder("ldpc", "code=802.11n:648:1/2, interleaver=8psk")
        with self.assertRaisesRegex(ValueError, "not sent at rate 1/2"):
            gpufec.frame_decoder("ldpc", "code=dvbs2:64800:1/2, interleaver=32apsk")
        with self.assertRaisesRegex(ValueError, "no puncture"):
            gpufec.frame_encoder("ldpc", "code=dvbs2:64800:2/3, interleaver=8psk, puncture=0:10")
        self.assertEqual(gpufec.dvbs2_bit_interleaver(64800, "1/2", "qpsk"), [])

    def test_005_outer_code_refused_where_it_does_not_fit(self):
        with self.assertRaisesRegex(ValueError, "DVB-S2's outer code"):
            gpufec.frame_decoder("ldpc", "code=802.11n:648:1/2, outer=bch")
        with self.assertRaisesRegex(ValueError, "outer"):
            gpufec.frame_decoder("ldpc", "code=dvbs2:16200:1/2, outer=rs")
        with self.assertRaisesRegex(ValueError, "output info"):
            gpufec.frame_decoder("ldpc", "code=dvbs2:16200:1/2, outer=bch, output=codeword")


if __name__ == "__main__":
    gr_unittest.run(qa_dvbs2)
