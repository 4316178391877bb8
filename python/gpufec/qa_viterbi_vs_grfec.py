#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpufec.viterbi_decoder against GNU Radio's gr-fec cc_decoder (an independent Viterbi
decoder) on the same noisy input, K=7 rate 1/2: the bit error rates agree within statistics."""

import math
import numpy as np
from gnuradio import gr, gr_unittest, blocks, fec
from gnuradio import gpufec

K, POLYS, FRAME, FRAMES = 7, [109, 79], 2048, 120


def flow(dec, soft):
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_f(list(map(float, soft))), dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_viterbi_vs_grfec(gr_unittest.TestCase):

    def test_001_ber_matches_cc_decoder(self):
        rng = np.random.default_rng(2024)
        bits = rng.integers(0, 2, FRAME * FRAMES, dtype=np.uint8)
        enc = gpufec.conv_encoder("custom", K, POLYS, [], "terminated", FRAME)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(list(bits)), enc, snk)
        tb.run()
        coded = np.array(snk.data(), dtype=np.float64)
        for ebn0 in (2.5, 3.5):
            sigma = math.sqrt(1.0 / (2 * 0.5 * 10 ** (ebn0 / 10)))
            soft = (2 * coded - 1) + rng.normal(0, sigma, len(coded))
            ours = flow(gpufec.viterbi_decoder("custom", K, POLYS, [], "terminated", FRAME), soft)
            ccd = fec.cc_decoder.make(FRAME, K, 2, POLYS, 0, 0, fec.CC_TERMINATED, False)
            theirs = flow(fec.extended_decoder(ccd, None, None, "11", 10000), soft)
            self.assertEqual(len(ours), len(bits))
            self.assertEqual(len(theirs), len(bits))
            e_ours = np.count_nonzero(ours != bits)
            e_theirs = np.count_nonzero(theirs != bits)
            # both decoders are near-ML; errors come in bursts, so allow a wide factor
            print("Eb/N0 %.1f dB: gpufec %d errors, gr-fec cc_decoder %d errors of %d bits"
                  % (ebn0, e_ours, e_theirs, len(bits)))
            self.assertGreater(e_theirs, 0)
            self.assertLess(e_ours, 2.0 * e_theirs + 20)
            self.assertGreater(e_ours, 0.3 * e_theirs - 20)


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi_vs_grfec)
