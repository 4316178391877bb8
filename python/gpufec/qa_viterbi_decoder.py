#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.viterbi_decoder in flowgraphs: streaming continuity, frame modes, input and output
formats, bad parameters and bad data. Runs on whatever device="auto" finds."""

import numpy as np
from gnuradio import gr, gr_unittest, blocks
from gnuradio import gpufec


def encode(code, bits, mode="streaming", frame_bits=0):
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(list(bits)), gpufec.conv_encoder(code, mode=mode, frame_bits=frame_bits), snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def decode(dec, soft, chunk=None, float_input=True):
    """runs soft values through `dec`; `chunk` limits the items per work() upstream"""
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
    return np.array(snk.data(), dtype=np.uint8)


class qa_viterbi_decoder(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(7)

    def test_001_streaming_continuity_any_chunk_size(self):
        bits = self.rng.integers(0, 2, 12000, dtype=np.uint8)
        soft = 2.0 * encode("ccsds", bits) - 1.0
        soft += self.rng.normal(0, 0.5, len(soft))
        outs = []
        for chunk in (None, 1, 7, 333, 4096):
            dec = gpufec.viterbi_decoder("ccsds", block_len=256, traceback=42)
            out = decode(dec, soft, chunk)
            self.assertEqual(len(out), 12000)  # every bit, the last ones too (the stream's end)
            outs.append(out)
        for out in outs[1:]:
            np.testing.assert_array_equal(out, outs[0])
        # sigma 0.5 at rate 1/2 is Eb/N0 = 3 dB: a handful of errors at most, the last bits too
        self.assertLess(np.count_nonzero(outs[0] != bits), 20)
        self.assertLess(np.count_nonzero(outs[0][-300:] != bits[-300:]), 6)

    def test_002_streaming_punctured_noiseless(self):
        for code, period in (("80211-3/4", 3), ("80211-5/6", 5), ("dvbs-7/8", 7), ("lte", 1)):
            bits = self.rng.integers(0, 2, period * 2000, dtype=np.uint8)
            soft = 2.0 * encode(code, bits) - 1.0
            dec = gpufec.viterbi_decoder(code, block_len=512)
            out = decode(dec, soft, 1000)
            np.testing.assert_array_equal(out, bits, err_msg=code)

    def test_003_int8_input_and_packed_output(self):
        bits = self.rng.integers(0, 2, 8192, dtype=np.uint8)
        coded = encode("nasa-dsn", bits)
        soft8 = np.where(coded == 1, 100, -100)
        dec = gpufec.viterbi_decoder("nasa-dsn", block_len=512, input_type="int8", packed_output=True)
        out = decode(dec, soft8, 500, float_input=False)
        np.testing.assert_array_equal(out, np.packbits(bits))

    def test_004_frame_modes(self):
        for mode in ("terminated", "tailbiting", "truncated"):
            fb = 96
            bits = self.rng.integers(0, 2, fb * 13, dtype=np.uint8)
            soft = 2.0 * encode("lte", bits, mode, fb) - 1.0
            for packed in (False, True):
                dec = gpufec.viterbi_decoder("lte", mode=mode, frame_bits=fb, packed_output=packed, max_batch=5)
                out = decode(dec, soft, 211)
                expect = np.packbits(bits) if packed else bits
                np.testing.assert_array_equal(out, expect, err_msg=mode)

    def test_005_nan_and_inf_input(self):
        bits = self.rng.integers(0, 2, 4096, dtype=np.uint8)
        soft = 2.0 * encode("ccsds", bits) - 1.0
        soft[100] = np.nan
        soft[2000:2003] = np.nan
        soft[3000] = np.inf if soft[3000] > 0 else -np.inf
        dec = gpufec.viterbi_decoder("ccsds")
        out = decode(dec, soft)
        self.assertEqual(dec.nan_count(), 4)
        np.testing.assert_array_equal(out, bits)

    def test_006_bad_parameters_fail_clearly(self):
        bad = [dict(code="custom", k=2, polys=[3, 1]),
               dict(code="custom", k=10, polys=[79, 109]),
               dict(code="custom", k=7, polys=[79, 200]),
               dict(code="custom", k=7, polys=[79, 109], puncture=[0, 0]),
               dict(code="custom", k=7, polys=[79, 109], puncture=[1, 1, 1]),
               dict(code="80211-3/4", mode="terminated", frame_bits=100),
               dict(code="ccsds", mode="terminated", frame_bits=0),
               dict(code="ccsds", mode="sideways"),
               dict(code="ccsds", block_len=100),
               dict(code="ccsds", device="tpu"),
               dict(code="ccsds", input_type="double"),
               dict(code="no-such-code")]
        for kw in bad:
            with self.assertRaises((ValueError, RuntimeError), msg=str(kw)):
                gpufec.viterbi_decoder(**kw)
        # one road to a code: the block's parameters and the family's options refuse the same
        # puncturing entry (the options once read 5 as 1)
        with self.assertRaisesRegex(ValueError, "puncture: 5"):
            gpufec.viterbi_decoder(code="custom", k=7, polys=[79, 109], puncture=[1, 5, 1, 1])
        with self.assertRaisesRegex(ValueError, "puncture: 5"):
            gpufec.frame_decoder("viterbi", "code=custom, polys=79 109, puncture=1 5 1 1, mode=terminated",
                                 device="cpu")

    def test_008_a_finite_stream_is_decoded_to_its_last_bit(self):
        # the last partial block and the traceback after it are completed with erasures at the
        # end of the input; lengths that end within a byte of output give their last bits too
        # (a stream of a few bits is not decodable: its start state is not known)
        for n, packed in ((40, False), (1001, False), (1001, True), (70000, False)):
            bits = self.rng.integers(0, 2, n, dtype=np.uint8)
            soft = 2.0 * encode("ccsds", bits) - 1.0
            dec = gpufec.viterbi_decoder("ccsds", block_len=512, packed_output=packed)
            out = decode(dec, soft, 777)
            want = np.packbits(bits)[:n // 8] if packed else bits
            np.testing.assert_array_equal(out, want, err_msg="%d bits, packed %s" % (n, packed))

    def test_007_empty_input_ends(self):
        dec = gpufec.viterbi_decoder("ccsds")
        self.assertEqual(len(decode(dec, [])), 0)
        dec = gpufec.viterbi_decoder("ccsds", mode="terminated", frame_bits=64)
        self.assertEqual(len(decode(dec, [0.5] * 50)), 0)  # less than a frame: nothing, no hang


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi_decoder)
