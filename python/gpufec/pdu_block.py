#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The base of gr-gpufec's Python PDU blocks: a message port "pdus" in and out, and one rule for
what cannot be used. A message that is not a PDU (a pair of metadata and a vector), metadata that
is neither a dictionary nor nil, or a PDU whose handling raises (a value out of range, a size the
code does not have) is dropped: logged as an error, counted (dropped()), and the block goes on
with the next message. Without this, one exception would end GNU Radio's message thread for the
block and every later PDU would be lost without a word."""
import numpy as np
import pmt
from gnuradio import gr

from .params import check_int


# the largest vector a PDU block makes (values): 2^26, 64 Mi soft values (256 MB as f32); beyond
# that a metadata value is an error, not a size to allocate
MAX_PDU_VALUES = 1 << 26


class pdu_block(gr.basic_block):
    """a message port "pdus" in and out; subclasses implement handle(meta, vec), where meta is a
    dictionary (nil metadata arrives as an empty one) and vec the PDU's vector"""

    def __init__(self, name):
        gr.basic_block.__init__(self, name, None, None)
        self._port = pmt.intern("pdus")
        self._dropped = 0
        self.message_port_register_in(self._port)
        self.message_port_register_out(self._port)
        self.set_msg_handler(self._port, self._receive)

    def dropped(self):
        """PDUs dropped (logged, not passed on)"""
        return self._dropped

    def drop(self, why):
        self._dropped += 1
        self.logger.error("dropped a PDU: " + why)

    def publish(self, meta, vec):
        self.message_port_pub(self._port, pmt.cons(meta, vec))

    def handle(self, meta, vec):
        raise NotImplementedError

    def _receive(self, msg):
        try:
            if not pmt.is_pair(msg) or pmt.is_dict(msg):  # (a dict is a pair of pairs too)
                self.drop("not a PDU (a pair of metadata and a vector)")
                return
            meta, vec = pmt.car(msg), pmt.cdr(msg)
            if pmt.is_null(meta):
                meta = pmt.make_dict()
            elif not pmt.is_dict(meta):
                self.drop("its metadata is not a dictionary")
                return
            self.handle(meta, vec)
        except Exception as e:  # anything a PDU can provoke must not end the block
            self.drop("%s: %s" % (type(e).__name__, e))


def bits_of(vec):
    """a u8vector's values as a uint8 array, or None for any other PMT"""
    return np.asarray(pmt.u8vector_elements(vec), dtype=np.uint8) if pmt.is_u8vector(vec) else None


def meta_int(meta, key, default=None, lo=None, hi=None):
    """the integer metadata value `key` (default where absent); ValueError when it is there but
    not an integer or outside lo..hi"""
    v = pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)
    if pmt.is_null(v):
        return default
    if not pmt.is_integer(v):
        raise ValueError("metadata \"%s\" is not an integer" % key)
    x = int(pmt.to_long(v))
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError("metadata \"%s\": %d is outside %s..%s" % (key, x, lo, hi))
    return x


class transport_segmenter(pdu_block):
    """the part LTE's and 5G NR's segmenters share: G, Qm and Nl checked, and a transport block
    of bits taken from a PDU with its G (the parameter or the metadata "G")"""

    def __init__(self, name, G, Qm, Nl, layers):
        pdu_block.__init__(self, name)
        self.Qm = check_int("Qm", Qm, 1, allowed=(1, 2, 4, 6, 8))
        self.Nl = check_int("Nl", Nl, 1, allowed=layers)
        self.G = check_int("G", G, 0, (1 << 31) - 1)
        if self.G % (self.Qm * self.Nl):
            raise ValueError("G: %d is not a multiple of Qm * Nl = %d" % (self.G, self.Qm * self.Nl))
        self.tb = 0

    def transport_block(self, meta, vec, max_bits, standard):
        """(bits, G) of the PDU, or None (dropped, with the reason) where it cannot be used"""
        a = bits_of(vec)
        if a is None or len(a) == 0 or np.any(a > 1):
            self.drop("the transport block must be a non-empty u8vector of bits (0/1)")
            return None
        if len(a) > max_bits:
            self.drop("a transport block of %d bits; %s carries at most %d" % (len(a), standard, max_bits))
            return None
        G = meta_int(meta, "G", self.G, 0, (1 << 31) - 1)
        if G % (self.Qm * self.Nl):
            self.drop("G=%d is not a multiple of Qm * Nl = %d" % (G, self.Qm * self.Nl))
            return None
        return a, G

