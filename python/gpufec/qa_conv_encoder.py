#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.conv_encoder against GNU Radio's own gr-fec cc_encoder (an independent encoder)."""

import numpy as np
from gnuradio import gr, gr_unittest, blocks, fec

from gnuradio import gpufec


def run_encoder(block, bits):
    tb = gr.top_block()
    src = blocks.vector_source_b(list(bits))
    snk = blocks.vector_sink_b()
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_conv_encoder(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(1)

    def grfec(self, polys, mode, frame, bits):
        enc = fec.cc_encoder_make(frame, 7, len(polys), polys, 0, mode, False)
        return run_encoder(fec.extended_encoder(enc, None, "11"), bits)

    def test_001_streaming_matches_grfec(self):
        bits = self.rng.integers(0, 2, 64 * 50, dtype=np.uint8)
        for polys in ([109, 79], [79, 109]):
            ref = self.grfec(polys, fec.CC_STREAMING, 64, bits)
            ours = run_encoder(gpufec.conv_encoder("custom", 7, polys, [], "streaming"), bits)
            self.assertEqual(len(ours), 2 * len(bits))
            np.testing.assert_array_equal(ours[:len(ref)], ref)

    def test_002_terminated_matches_grfec(self):
        bits = self.rng.integers(0, 2, 100 * 8, dtype=np.uint8)
        ref = self.grfec([109, 79], fec.CC_TERMINATED, 100, bits)
        ours = run_encoder(gpufec.conv_encoder("custom", 7, [109, 79], [], "terminated", 100), bits)
        self.assertEqual(len(ours), 8 * 2 * 106)
        np.testing.assert_array_equal(ours, ref)

    def test_003_tailbiting_matches_grfec(self):
        bits = self.rng.integers(0, 2, 80 * 4, dtype=np.uint8)
        ref = self.grfec([109, 79], fec.CC_TAILBITING, 80, bits)
        ours = run_encoder(gpufec.conv_encoder("custom", 7, [109, 79], [], "tailbiting", 80), bits)
        np.testing.assert_array_equal(ours, ref)

    def test_004_ccsds_inversion(self):
        # CCSDS inverts the second output: all-zero input gives 0,1,0,1,...
        ours = run_encoder(gpufec.conv_encoder("ccsds"), np.zeros(40, dtype=np.uint8))
        np.testing.assert_array_equal(ours, np.tile([0, 1], 40))

    def test_005_puncturing_rate(self):
        bits = self.rng.integers(0, 2, 420, dtype=np.uint8)  # whole periods of 3, 5 and 7
        for name, period, kept in (("80211-3/4", 3, 4), ("80211-5/6", 5, 6), ("dvbs-7/8", 7, 8)):
            out = run_encoder(gpufec.conv_encoder(name), bits)
            self.assertEqual(len(out), len(bits) // period * kept)

    def test_006_bad_parameters(self):
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.conv_encoder("custom", 2, [3, 1])
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.conv_encoder("custom", 7, [79, 300])
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.conv_encoder("80211-3/4", mode="terminated", frame_bits=100)
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.conv_encoder("no-such-code")


if __name__ == "__main__":
    gr_unittest.run(qa_conv_encoder)
