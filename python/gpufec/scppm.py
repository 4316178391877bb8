#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""SCPPM blocks (CCSDS 142.0-B-1, deep-space optical): the scppm family on the generic blocks.

scppm_encoder(M, rate): information bits in (15120 * rate - 34 per codeword), PPM slots out, one
byte per slot (1 = the pulsed slot), M slots per symbol, 15120 / log2(M) symbols per codeword.
poisson_channel(Ks, Kb): slots in, photon counts out (float): Poisson(Ks + Kb) in a pulsed slot,
Poisson(Kb) in the others.
scppm_decoder(...): slot values in (photon counts, or slot log-likelihoods), information bits
out, with each codeword's iterations and CRC-32 result (status tags, counters, PDU metadata).
"""
import numpy as np
from gnuradio import fec, gr

from .gpufec_python import fec_encoder, frame_decoder


def scppm_options(M=16, rate="2/3", algorithm="max-log", max_iterations=32, input="counts",
                  Ks=0.0, Kb=0.0, scaling=None):
    """the scppm family's option string ("M=16, rate=2/3, ..."); scaling None: the default
    (0.75 max-log, 1 log-map); Ks and Kb are needed by log-map with input="counts" only"""
    opts = ["M=%d" % int(M), "rate=%s" % rate, "algorithm=%s" % algorithm,
            "max_iterations=%d" % int(max_iterations), "input=%s" % input]
    if Ks:
        opts.append("ks=%g" % float(Ks))
    if Kb:
        opts.append("kb=%g" % float(Kb))
    if scaling:
        opts.append("scaling=%g" % float(scaling))
    return ", ".join(opts)


def scppm_decoder(M=16, rate="2/3", algorithm="max-log", max_iterations=32, input="counts", Ks=0.0,
                  Kb=0.0, scaling=None, device="auto", max_batch=0, input_type="float",
                  packed_output=False, scale=None, status_tags="failures", length_tag_key=""):
    """SCPPM decoder block: 15120 / log2(M) * M slot values in per codeword, its information bits
    out. input="counts": photon counts (max-log needs nothing else: its answer does not depend on
    the counts' scale; log-map needs Ks and Kb); input="symbol_llr": a log-likelihood per slot
    (the pulse there; only differences within a symbol matter). Max-log runs in fixed point on
    the GPU where there is one (the CPU gives the same bits); log-map in float on the CPU.
    scale (float input to int8, max-log): None = 1 for counts (127 photons at most), 4 for LLRs."""
    if scale is None:
        scale = 1.0 if input == "counts" else 4.0
    return frame_decoder("scppm", scppm_options(M, rate, algorithm, max_iterations, input, Ks, Kb, scaling),
                         device, int(max_batch), input_type, bool(packed_output), float(scale),
                         status_tags, length_tag_key)


class scppm_encoder(gr.hier_block2):
    """SCPPM encoder block: information bits in (one per byte, 15120 * rate - 34 per codeword),
    PPM slots out (one per byte, 1 = pulse; M per symbol). The CRC-32 and the termination bits
    are added here; guard slots and the sync marker are separate stages."""

    def __init__(self, M=16, rate="2/3"):
        gr.hier_block2.__init__(self, "gpufec_scppm_encoder",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_char))
        self.enc_obj = fec_encoder("scppm", scppm_options(M=M, rate=rate))
        self.enc = fec.encoder(self.enc_obj, gr.sizeof_char, gr.sizeof_char)
        self.connect(self, self.enc, self)


class poisson_channel(gr.sync_block):
    """The photon-counting channel: slots in (bytes, nonzero = pulsed), photon counts out (float):
    Poisson(Ks + Kb) photons in a pulsed slot, Poisson(Kb) in every other. Ks: signal photons per
    pulse, Kb: background photons per slot; both can be changed while running (set_ks, set_kb)."""

    def __init__(self, Ks=2.0, Kb=0.2, seed=0):
        gr.sync_block.__init__(self, "gpufec_poisson_channel", [np.uint8], [np.float32])
        self.set_ks(Ks)
        self.set_kb(Kb)
        self._rng = np.random.default_rng(seed if seed else None)

    def set_ks(self, Ks):
        if not (Ks >= 0 and np.isfinite(Ks)):
            raise ValueError("Ks: signal photons per pulse must be a finite number >= 0")
        self._ks = float(Ks)

    def set_kb(self, Kb):
        if not (Kb >= 0 and np.isfinite(Kb)):
            raise ValueError("Kb: background photons per slot must be a finite number >= 0")
        self._kb = float(Kb)

    def work(self, input_items, output_items):
        pulses = input_items[0] != 0
        output_items[0][:] = self._rng.poisson(self._kb + self._ks * pulses)
        return len(output_items[0])
