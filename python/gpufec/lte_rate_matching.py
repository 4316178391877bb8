#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE rate matching blocks (36.212 5.1.4.1) with a PDU face, around gpufec.lte_rate_matcher.

lte_rate_match: a PDU of 3K + 12 turbo code bits (u8vector, the streams layout of
gpufec.turbo_encoder) in, the E bits of a redundancy version out.
lte_derate_match: a PDU of E soft values (f32vector, positive = bit 1) in, the 3K + 12 soft values
the turbo decoder takes out (zeros where nothing was sent, filler bits as known zeros); with
combine=True, PDUs of the same code block (metadata "cb", 0 if absent) add up (HARQ) until one
carries "new_data": True.
Metadata "rv" (an integer) overrides the block's redundancy version for one PDU. With K=0 the
blocks serve code blocks of every size, as lte_segment labels them: K and F come from each PDU's
metadata "K" and "F" (the encoder side also from the length, 3K + 12), and lte_rate_match takes
"E" from the metadata where it is (else the E parameter; E=0: 3K + 12, every code bit once).
A PDU the block cannot use (the wrong size or type, metadata out of range such as rv outside
0..3) is dropped with an error in the log and counted (dropped()); the block goes on. With
combine=True at most MAX_HARQ_BUFFERS (128) code blocks are held; the least recently used one
is let go with a warning.
"""
from collections import OrderedDict

import numpy as np
import pmt

from .gpufec_python import lte_rate_matcher
from .params import check_int
from .pdu_block import MAX_PDU_VALUES, meta_int, pdu_block

# HARQ buffers lte_derate_match keeps with combine=True (code blocks of different "cb"): the
# oldest is let go beyond this (LTE: 8 processes x up to 13 blocks of a 4-layer transport block)
MAX_HARQ_BUFFERS = 128


def _rv(meta, default):
    return meta_int(meta, "rv", default, 0, 3)


class _pdu_block(pdu_block):
    """a PDU in, a PDU out (ports "pdus"), around one lte_rate_matcher; counts dropped PDUs"""

    def __init__(self, name, K, rv, F, Ncb):
        pdu_block.__init__(self, name)
        self.rv = check_int("rv", rv, 0, 3)
        self.K, self.F, self.Ncb = check_int("K", K, 0, 6144), check_int("F", F, 0), check_int("Ncb", Ncb, 0)
        self._matchers = {}
        if self.K:
            self.rm = self.matcher(self.K, self.F)  # checks K, F and Ncb now

    def matcher(self, K, F):
        """the rate matcher of (K, F), made once"""
        if (K, F) not in self._matchers:
            self._matchers[(K, F)] = lte_rate_matcher(K, F, self.Ncb)
        return self._matchers[(K, F)]

    def code_block(self, meta, K_from_length=None):
        """(rate matcher, K) of this PDU: the block's, or with K=0 its metadata's; None if unusable"""
        if self.K:
            return self.rm, self.K
        K = meta_int(meta, "K", K_from_length, 40, 6144)
        if K is None:
            self.drop("K=0 needs the code block size in the metadata (\"K\")")
            return None
        return self.matcher(K, meta_int(meta, "F", 0, 0, K - 1)), K


class lte_rate_match(_pdu_block):
    """36.212 5.1.4.1 rate matching on PDUs: 3K + 12 code bits in (u8vector, streams layout), the
    E bits of redundancy version rv out (metadata "rv", "E", "K", "F" override the parameters)"""

    def __init__(self, K=6144, E=18444, rv=0, F=0, Ncb=0):
        E = check_int("E", E, 0, MAX_PDU_VALUES)  # 0: 3K + 12, every code bit once
        _pdu_block.__init__(self, "gpufec_lte_rate_match", K, rv, F, Ncb)
        self.E = E

    def handle(self, meta, vec):
        bits = np.asarray(pmt.u8vector_elements(vec), dtype=np.uint8) if pmt.is_u8vector(vec) else None
        n = len(bits) if bits is not None else 0
        cb = self.code_block(meta, (n - 12) // 3 if n >= 12 and (n - 12) % 3 == 0 else None)
        if cb is None:
            return
        rm, K = cb
        if bits is None or n != 3 * K + 12:
            self.drop("%s values, K=%d takes %d code bits (u8vector)"
                      % (n if bits is not None else "not u8", K, 3 * K + 12))
            return
        E = meta_int(meta, "E", self.E or 3 * K + 12, 1, MAX_PDU_VALUES)
        e = rm.match(bits, E, _rv(meta, self.rv))
        self.publish(meta, pmt.init_u8vector(len(e), e.tolist()))


class lte_derate_match(_pdu_block):
    """the receiver's side: E soft values in (f32vector, positive = bit 1), the 3K + 12 soft
    values the turbo decoder takes out; with combine=True, retransmissions of a code block
    (metadata "cb") add up until one carries "new_data": True"""

    def __init__(self, K=6144, rv=0, F=0, Ncb=0, combine=False, filler_llr=-100.0):
        _pdu_block.__init__(self, "gpufec_lte_derate_match", K, rv, F, Ncb)
        self.combine, self.filler = bool(combine), float(filler_llr)
        # code block ("cb" in the metadata, else 0) -> ((K, F), accumulated soft values); only
        # with combine=True, at most MAX_HARQ_BUFFERS of them (the least recently used goes)
        self.accs = OrderedDict()

    def handle(self, meta, vec):
        if not pmt.is_f32vector(vec) or pmt.length(vec) == 0:
            self.drop("not a non-empty f32vector of soft values")
            return
        soft = np.asarray(pmt.f32vector_elements(vec), dtype=np.float32)
        cb = self.code_block(meta)
        if cb is None:
            return
        rm, K = cb
        rv = _rv(meta, self.rv)
        if not self.combine:
            acc = np.zeros(3 * K + 12, dtype=np.float32)
        else:
            new = pmt.to_python(pmt.dict_ref(meta, pmt.intern("new_data"), pmt.PMT_F))
            cb, key = meta_int(meta, "cb", 0), (K, meta_int(meta, "F", self.F))
            if new or self.accs.get(cb, (None,))[0] != key:  # (another size starts afresh)
                self.accs[cb] = (key, np.zeros(3 * K + 12, dtype=np.float32))
            self.accs.move_to_end(cb)
            while len(self.accs) > MAX_HARQ_BUFFERS:
                old, _ = self.accs.popitem(last=False)
                self.logger.warn("HARQ buffer of code block %d let go (more than %d held)" % (old, MAX_HARQ_BUFFERS))
            acc = self.accs[cb][1]
        rm.accumulate(soft, rv, acc, self.filler)
        self.publish(meta, pmt.init_f32vector(len(acc), acc.tolist()))
