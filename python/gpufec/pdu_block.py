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
import pmt
from gnuradio import gr


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
