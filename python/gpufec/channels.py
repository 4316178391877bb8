#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Channels for simulating PDU chains (5G NR and LTE transport blocks, any pdu_decoder)."""
import math

import numpy as np
import pmt

from .pdu_block import pdu_block


def awgn_sigma(ebn0_db, rate):
    """the noise standard deviation of BPSK (amplitude 1) at Eb/N0 ebn0_db (dB) per information
    bit, at code rate `rate`"""
    if not 0 < rate <= 1:
        raise ValueError("rate: must be in (0, 1], got %r" % (rate,))
    return math.sqrt(1.0 / (2.0 * rate * 10 ** (ebn0_db / 10.0)))


class bpsk_awgn_channel(pdu_block):
    """BPSK over AWGN on PDUs (port "pdus"): a PDU of bits (u8vector of 0 and 1) in, an f32vector
    of 2 b - 1 plus Gaussian noise of standard deviation sigma out (bit 1 positive: the sign the
    decoders take), the metadata kept. seed 0: a random seed. A PDU that is not such a u8vector
    is dropped, logged and counted (dropped())."""

    def __init__(self, sigma=0.5, seed=0):
        pdu_block.__init__(self, "gpufec_bpsk_awgn_channel")
        self.set_sigma(sigma)
        self._rng = np.random.default_rng(int(seed) if seed else None)

    def set_sigma(self, sigma):
        if not sigma >= 0 or math.isinf(sigma):
            raise ValueError("sigma: must be finite and at least 0, got %r" % (sigma,))
        self._sigma = float(sigma)

    def handle(self, meta, vec):
        if not pmt.is_u8vector(vec):
            self.drop("not a PDU of bits (u8vector)")
            return
        bits = np.asarray(pmt.u8vector_elements(vec), dtype=np.uint8)
        if np.any(bits > 1):
            self.drop("its u8vector holds values other than 0 and 1")
            return
        x = 2.0 * bits.astype(np.float32) - 1.0 + self._rng.normal(0, self._sigma, len(bits)).astype(np.float32)
        self.publish(meta, pmt.init_f32vector(len(x), x.tolist()))
