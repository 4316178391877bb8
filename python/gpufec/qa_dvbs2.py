#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""DVB-S2 forward error correction against GNU Radio's own DVB-S2 transmitter (gr-dtv): the
outer BCH code of every rate and frame size bit for bit beside dvb_bch_bb, its decoder on
random errors."""

import numpy as np
from gnuradio import gr, gr_unittest, blocks
from gnuradio import gpufec

RATES_NORMAL = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"]


def dtv_rates(dtv):
    return {"1/4": dtv.C1_4, "1/3": dtv.C1_3, "2/5": dtv.C2_5, "1/2": dtv.C1_2, "3/5": dtv.C3_5,
            "2/3": dtv.C2_3, "3/4": dtv.C3_4, "4/5": dtv.C4_5, "5/6": dtv.C5_6, "8/9": dtv.C8_9,
            "9/10": dtv.C9_10}


class qa_dvbs2(gr_unittest.TestCase):

    def test_001_bch_codewords_equal_gr_dtv(self):
        try:
            from gnuradio import dtv
        except ImportError:
            self.skipTest("gr-dtv is not installed")
        rng = np.random.default_rng(21)
        for n in (64800, 16200):
            for rate in RATES_NORMAL if n == 64800 else RATES_NORMAL[:-1]:
                bch = gpufec.bch_code.dvbs2(n, rate)
                msgs = rng.integers(0, 2, (2, bch.k()), dtype=np.uint8)
                tb = gr.top_block()
                snk = blocks.vector_sink_b()
                frame = dtv.FECFRAME_NORMAL if n == 64800 else dtv.FECFRAME_SHORT
                tb.connect(blocks.vector_source_b(list(msgs.ravel())),
                           dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, frame, dtv_rates(dtv)[rate]), snk)
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


if __name__ == "__main__":
    gr_unittest.run(qa_dvbs2)
