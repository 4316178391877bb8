#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE rate matching blocks (36.212 5.1.4.1) with a PDU face, around gpufec.lte_rate_matcher.

lte_rate_match: a PDU of 3K + 12 turbo code bits (u8vector, the streams layout of
gpufec.turbo_encoder) in, the E bits of a redundancy version out.
lte_derate_match: a PDU of E soft values (f32vector, positive = bit 1) in, the 3K + 12 soft values
the turbo decoder takes out (zeros where nothing was sent, filler bits as known zeros); with
combine=True, PDUs of the same code block add up (HARQ) until one carries "new_data": True.
Metadata "rv" (an integer) overrides the block's redundancy version for one PDU. A PDU of the
wrong size is dropped with an error in the log and counted (dropped()).
"""
import numpy as np
import pmt
from gnuradio import gr

from .gpufec_python import lte_rate_matcher


def _rv(meta, default):
    v = pmt.dict_ref(meta, pmt.intern("rv"), pmt.PMT_NIL)
    return int(pmt.to_long(v)) if pmt.is_integer(v) else default


class _pdu_block(gr.basic_block):
    """a PDU in, a PDU out (ports "pdus"), around one lte_rate_matcher; counts dropped PDUs"""

    def __init__(self, name, K, rv, F, Ncb):
        gr.basic_block.__init__(self, name, None, None)
        self.rm = lte_rate_matcher(int(K), int(F), int(Ncb))
        self.rm.k0(int(rv))  # checks rv
        self.K, self.rv, self._dropped = int(K), int(rv), 0
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def dropped(self):
        return self._dropped

    def drop(self, why):
        self._dropped += 1
        self.logger.error("dropped a PDU: " + why)


class lte_rate_match(_pdu_block):
    def __init__(self, K=6144, E=18444, rv=0, F=0, Ncb=0):
        if int(E) < 1:
            raise ValueError("E: must be at least 1")
        _pdu_block.__init__(self, "gpufec_lte_rate_match", K, rv, F, Ncb)
        self.E = int(E)

    def handle(self, msg):
        meta, vec = pmt.car(msg), pmt.cdr(msg)
        bits = np.asarray(pmt.u8vector_elements(vec), dtype=np.uint8) if pmt.is_u8vector(vec) else None
        if bits is None or len(bits) != 3 * self.K + 12:
            self.drop("%s values, K=%d takes %d code bits (u8vector)"
                      % (len(bits) if bits is not None else "not u8", self.K, 3 * self.K + 12))
            return
        e = self.rm.match(bits, self.E, _rv(meta, self.rv))
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(meta, pmt.init_u8vector(len(e), e.tolist())))


class lte_derate_match(_pdu_block):
    def __init__(self, K=6144, rv=0, F=0, Ncb=0, combine=False, filler_llr=-100.0):
        _pdu_block.__init__(self, "gpufec_lte_derate_match", K, rv, F, Ncb)
        self.combine, self.filler = bool(combine), float(filler_llr)
        self.acc = np.zeros(3 * self.K + 12, dtype=np.float32)

    def handle(self, msg):
        meta, vec = pmt.car(msg), pmt.cdr(msg)
        if not pmt.is_f32vector(vec) or pmt.length(vec) == 0:
            self.drop("not a non-empty f32vector of soft values")
            return
        soft = np.asarray(pmt.f32vector_elements(vec), dtype=np.float32)
        new = pmt.to_python(pmt.dict_ref(meta, pmt.intern("new_data"), pmt.PMT_F))
        if not self.combine or new:
            self.acc[:] = 0.0
        self.rm.accumulate(soft, _rv(meta, self.rv), self.acc, self.filler)
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(len(self.acc), self.acc.tolist())))
