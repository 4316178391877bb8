#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CCSDS telemetry chain in flowgraphs: transfer frames through ccsds_tm_encoder, a noisy
channel with an unknown symbol offset and each ambiguity, and ccsds_tm_receiver from a file of
soft symbols (as a recording is read) back to the same frames; correction counts, FECF, the
stream without the inner code, the LDPC codes (C2, AR4JA), noise alone, and bad parameters
named in the error."""

import os
import tempfile

import numpy as np
import pmt
import yaml
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpufec


def encode(frames, **kw):
    """transfer frames (rows of bytes) -> channel bits through the encoder block"""
    tb = gr.top_block()
    enc = gpufec.ccsds_tm_encoder(**kw)
    src = blocks.vector_source_b(frames.ravel().tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def channel(bits, sigma, rng, offset=0, inverted=False, flip_second=False):
    """bits -> soft symbols (1 -> +1) after `offset` random symbols, with Gaussian noise; the
    180-degree ambiguity (inverted) and the other convention (every second symbol flipped)"""
    s = bits.astype(np.float32) * 2 - 1
    if flip_second:
        s[1::2] *= -1
    if inverted:
        s = -s
    head = rng.choice(np.array([-1, 1], np.float32), offset)
    s = np.concatenate([head, s])
    return (s + rng.normal(0, sigma, len(s))).astype(np.float32)


def receive(symbols, from_file=False, **kw):
    """soft symbols -> (the receiver's PDUs as (metadata dict, bytes), its stats)"""
    tb = gr.top_block()
    rx = gpufec.ccsds_tm_receiver(device="cpu", **kw)
    sink = blocks.message_debug()
    if from_file:  # a recording: float32 soft symbols in a file
        fd, path = tempfile.mkstemp(suffix=".f32")
        os.close(fd)
        symbols.tofile(path)
        src = blocks.file_source(gr.sizeof_float, path, False)
    else:
        src = blocks.vector_source_f(symbols.tolist())
    tb.connect(src, rx)
    tb.msg_connect(rx, "frames", sink, "store")
    tb.run()
    if from_file:
        os.remove(path)
    out = []
    for i in range(sink.num_messages()):
        m = sink.get_message(i)
        out.append((pmt.to_python(pmt.car(m)), np.array(pmt.u8vector_elements(pmt.cdr(m)), np.uint8)))
    return out, rx.stats()


class qa_ccsds_tm(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(21)

    def frames(self, n, interleave):
        return self.rng.integers(0, 256, (n, 223 * interleave), dtype=np.uint8)

    def test_001_recording_with_offset_and_inversion(self):
        # six frames, the recording ending right after the last, an odd symbol offset, the
        # stream inverted, read from a file; Es/N0 about 0 dB: the Viterbi leaves errors the
        # Reed-Solomon code corrects
        I = 2
        frames = self.frames(6, I)
        bits = encode(frames, interleave=I)
        sym = channel(bits, 0.72, self.rng, offset=3001, inverted=True)
        out, st = receive(sym, from_file=True, interleave=I)
        self.assertEqual(len(out), 6, st)  # (the last one too: the sync finishes at the end)
        for f, (meta, body) in enumerate(out):
            np.testing.assert_array_equal(body, frames[f], err_msg="frame %d" % f)
            self.assertEqual(meta["cadu"], f)
            self.assertTrue(meta["rs_ok"])
            self.assertEqual(len(meta["rs_corrected"]), I)
        self.assertEqual(out[0][0]["tm_sync"], "acquired")
        self.assertEqual(out[0][0]["tm_ambiguity"], "inverted")
        self.assertEqual(st["sync_acquisitions"], 1)
        self.assertEqual(st["sync_skipped_symbols"], 3001)
        self.assertEqual(st["sync_ambiguity"], "inverted")
        self.assertGreater(st["corrected"], 0)  # the channel did leave errors
        self.assertEqual(st["codeblock_failed"], 0)

    def test_002_other_convention_and_depth_five(self):
        # G2 sent without its inversion, upright, I = 5 (the usual depth)
        frames = self.frames(3, 5)
        bits = encode(frames)
        sym = channel(bits, 0.5, self.rng, offset=12345, flip_second=True)
        out, st = receive(sym)
        self.assertEqual(len(out), 3, st)
        for f in range(3):
            np.testing.assert_array_equal(out[f][1], frames[f])
            self.assertEqual(list(out[f][0]["rs_corrected"]), [0] * 5)
        self.assertEqual(st["sync_ambiguity"], "upright, other convention")

    def test_003_without_the_inner_code(self):
        # the Reed-Solomon code alone: soft symbols straight to the deframer; (255, 239), I = 1
        kw = dict(code="ccsds:255:239", interleave=1, conv="none")
        frames = self.rng.integers(0, 256, (5, 239), dtype=np.uint8)
        bits = encode(frames, **kw)
        sym = channel(bits, 0.33, self.rng, offset=77, inverted=True)  # about 2.5 bit errors a codeword
        out, st = receive(sym, **kw)
        self.assertEqual(len(out), 5, st)
        for f in range(5):
            np.testing.assert_array_equal(out[f][1], frames[f])
        self.assertGreater(st["corrected"], 0)

    def test_004_fecf_and_failed_frames(self):
        I = 1
        frames = self.frames(5, I)
        bits = encode(frames, interleave=I, fecf=True)
        want = gpufec.ccsds_fecf_set(frames.ravel(), 223).reshape(5, 223)
        sym = channel(bits, 0.3, self.rng, offset=10)
        # frame 2's codeblock wiped beyond what the code corrects (its symbols 1000..3000 of
        # the CADU's 4144 replaced by noise)
        F = len(bits) // 5
        sym[10 + 2 * F + 1000:10 + 2 * F + 3000] = self.rng.normal(0, 1, 2000)
        out, st = receive(sym, interleave=I, fecf=True)
        self.assertEqual([m["cadu"] for m, _ in out], [0, 1, 3, 4])
        for meta, body in out:
            np.testing.assert_array_equal(body, want[meta["cadu"]])
            self.assertTrue(meta["fecf_ok"])
        self.assertEqual(st["codeblock_failed"], 1)
        self.assertEqual(st["dropped"], 1)
        out, st = receive(sym, interleave=I, fecf=True, pass_failed=True)
        self.assertEqual([m["cadu"] for m, _ in out], [0, 1, 2, 3, 4])
        self.assertFalse(out[2][0]["rs_ok"])
        self.assertEqual(list(out[2][0]["rs_corrected"]), [-1])

    def test_005_noise_alone_gives_nothing(self):
        sym = self.rng.normal(0, 1, 200000).astype(np.float32)
        out, st = receive(sym, interleave=1)
        self.assertEqual(out, [])
        self.assertEqual(st["sync_acquisitions"], 0)

    def test_006_bad_parameters(self):
        with self.assertRaisesRegex(ValueError, "interleave"):
            gpufec.ccsds_tm_receiver(interleave=9)
        with self.assertRaisesRegex(ValueError, "punctured"):
            gpufec.ccsds_tm_receiver(conv="80211-3/4")
        with self.assertRaisesRegex(ValueError, "ccsds:255:223"):
            gpufec.ccsds_tm_receiver(code="ccsds:255:200")
        with self.assertRaisesRegex(ValueError, "dtype"):
            gpufec.ccsds_tm_deframer(dtype="int")
        with self.assertRaises(ValueError):
            gpufec.ccsds_tm_sync(track_threshold=1.5)
        # the Reed-Solomon settings and the inner code are refused for an LDPC code
        with self.assertRaisesRegex(ValueError, "interleave"):
            gpufec.ccsds_tm_receiver(code="ccsds:8160:7136", interleave=4)
        with self.assertRaisesRegex(ValueError, "conv"):
            gpufec.ccsds_tm_receiver(code="ccsds:8160:7136", interleave=1, conv="ccsds")
        with self.assertRaisesRegex(ValueError, "ccsds:8160:7136"):  # the list names the LDPC codes
            gpufec.ccsds_tm_receiver(code="ccsds:8176:7156", interleave=1)

    def test_010_turbo_with_its_longer_markers(self):
        # CCSDS turbo K = 1784: rate 1/2 (64-bit marker), inverted after an odd offset, Eb/N0
        # about 3 dB; rate 1/6 (192-bit marker) upright; the FECF says which frames decoded
        for code, sigma, inverted, marker in (("ccsds:1784:1/2", 0.7, True, 64), ("ccsds:1784:1/6", 1.2, False, 192)):
            kw = dict(code=code, interleave=1)
            frames = self.rng.integers(0, 256, (6, 223), dtype=np.uint8)
            want = gpufec.ccsds_fecf_set(frames.ravel(), 223).reshape(6, 223)
            bits = encode(frames, fecf=True, **kw)
            self.assertEqual(len(bits), 6 * (marker + 1788 * int(code[-1])))
            sym = channel(bits, sigma, self.rng, offset=2001, inverted=inverted)
            out, st = receive(sym, fecf=True, **kw)
            self.assertEqual(len(out), 6, (code, st))
            for f, (meta, body) in enumerate(out):
                np.testing.assert_array_equal(body, want[f], err_msg=code)
                self.assertTrue(meta["fecf_ok"])
                self.assertIn("turbo_iterations", meta)
            self.assertEqual(st["sync_ambiguity"], "inverted" if inverted else "upright")
            self.assertEqual(st["sync_skipped_symbols"], 2001)
            self.assertEqual(st["fecf_failed"], 0)
        with self.assertRaisesRegex(ValueError, "interleave"):
            gpufec.ccsds_tm_receiver(code="ccsds:1784:1/2", interleave=5)

    def test_009_grc_lists_every_code(self):
        # the GRC blocks' code lists are written from the library (scripts/grc_ldpc_codes.py)
        grc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")
        for name in ("gpufec_ccsds_tm_receiver.block.yml", "gpufec_ccsds_tm_encoder.block.yml"):
            with open(os.path.join(grc, name)) as f:
                param = [p for p in yaml.safe_load(f)["parameters"] if p["id"] == "code"][0]
            self.assertEqual([o.strip("'") for o in param["options"]], list(gpufec.ccsds_tm_codes()),
                             name + ": run scripts/grc_ldpc_codes.py")
            self.assertEqual(len(param["option_labels"]), len(param["options"]))

    def test_007_ldpc_c2_with_offset_inversion_and_a_failed_codeword(self):
        # C2 (8160, 7136) with its 1ACFFC1D marker: a CADU of 8192 symbols; Eb/N0 about 4.5 dB
        # (sigma 0.45) decodes every codeword; codeword 3 drowned in noise fails its syndrome
        kw = dict(code="ccsds:8160:7136", interleave=1)
        frames = self.rng.integers(0, 256, (7, 892), dtype=np.uint8)
        bits = encode(frames, **kw)
        F = len(bits) // 7
        self.assertEqual(F, 8192)
        sym = channel(bits, 0.45, self.rng, offset=5003, inverted=True)
        sym[5003 + 3 * F + 100:5003 + 3 * F + 3000] = self.rng.normal(0, 1, 2900)
        out, st = receive(sym, **kw)
        self.assertEqual([m["cadu"] for m, _ in out], [0, 1, 2, 4, 5, 6], st)
        for meta, body in out:
            np.testing.assert_array_equal(body, frames[meta["cadu"]])
            self.assertTrue(meta["ldpc_ok"])
            self.assertTrue(meta["ldpc_syndrome_ok"])
            self.assertGreater(meta["ldpc_corrected"], 0)  # the channel left errors
            self.assertIn("ldpc_iterations", meta)
        self.assertEqual(out[0][0]["tm_ambiguity"], "inverted")
        self.assertEqual(st["codeblock_failed"], 1)
        self.assertEqual(st["dropped"], 1)
        self.assertEqual(st["sync_skipped_symbols"], 5003)
        out, st = receive(sym, pass_failed=True, **kw)
        self.assertEqual([m["cadu"] for m, _ in out], [0, 1, 2, 3, 4, 5, 6])
        self.assertFalse(out[3][0]["ldpc_ok"])
        self.assertFalse(out[3][0]["ldpc_syndrome_ok"])

    def test_008_ldpc_ar4ja_punctured(self):
        # AR4JA k = 1024 rate 1/2 (its last 512 code bits never sent), FECF checked, upright;
        # Eb/N0 about 3 dB
        kw = dict(code="ccsds:2048:1024", interleave=1)
        frames = self.rng.integers(0, 256, (6, 128), dtype=np.uint8)
        want = gpufec.ccsds_fecf_set(frames.ravel(), 128).reshape(6, 128)
        bits = encode(frames, fecf=True, **kw)
        self.assertEqual(len(bits), 6 * (32 + 2048))
        sym = channel(bits, 0.7, self.rng, offset=999)
        out, st = receive(sym, fecf=True, decoder_options="max_iterations=30", **kw)
        self.assertEqual(len(out), 6, st)
        for f, (meta, body) in enumerate(out):
            np.testing.assert_array_equal(body, want[f])
            self.assertTrue(meta["fecf_ok"])
        self.assertEqual(st["sync_ambiguity"], "upright")
        self.assertGreater(st["mean_iterations"], 1)


if __name__ == "__main__":
    gr_unittest.run(qa_ccsds_tm)
