#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Large noiseless streams through the decoder blocks with unpacked output (the path that splits
unpacking over helper threads on machines with more than two cores): every bit must come back.
Usage: check-large-unpacked.py [DEVICE]"""

import sys

import numpy as np
from gnuradio import blocks, gr
from gnuradio import gpufec


def run(src_bits, encoder, decoder):
    tb = gr.top_block()
    enc_snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(src_bits.tolist()), encoder, enc_snk)
    tb.run()
    soft = (np.array(enc_snk.data(), dtype=np.int8) * 2 - 1) * 40
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(soft.astype(np.int8).view(np.uint8).tolist()), decoder, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


dev = sys.argv[1] if len(sys.argv) > 1 else "auto"
rng = np.random.default_rng(1)
bits = rng.integers(0, 2, 1 << 22, dtype=np.uint8)
out = run(bits, gpufec.conv_encoder("ccsds"), gpufec.viterbi_decoder("ccsds", device=dev, input_type="int8"))
ok_v = len(out) > len(bits) - 600 and np.array_equal(out, bits[:len(out)])
print("viterbi streaming: %d of %d bits back, %s" % (len(out), len(bits), "equal" if ok_v else "DIFFERENT"))
info = rng.integers(0, 2, 1152 * 2000, dtype=np.uint8)
out = run(info, gpufec.ldpc_encoder("802.16e:2304:1/2"),
          gpufec.ldpc_decoder("802.16e:2304:1/2", device=dev, input_type="int8"))
ok_l = np.array_equal(out, info)
print("ldpc: %d of %d bits back, %s" % (len(out), len(info), "equal" if ok_l else "DIFFERENT"))
sys.exit(0 if ok_v and ok_l else 1)
