#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE transport blocks on the PDU face (36.212 5.1.1-5.1.3): a transport block cut into turbo
code blocks and put back together.

lte_segment: a PDU of A payload bits (u8vector, one bit per byte) in; CRC-24A appended, cut into
C code blocks (5.1.2: filler bits first, CRC-24B on each when C > 1); one PDU per code block out,
with the metadata the later stages read: "tb" (a running number), "cb" (0 .. C-1), "C", "A",
"K", "F" (filler bits of this block) and, when G (coded bits for the whole transport block: the
parameter, or the input PDU's metadata "G") is set, "E" (this block's rate-matched length,
5.1.4.1.2, for Qm and Nl).
turbo_pdu_encoder: a PDU of K bits in (K one of the 188 LTE sizes, from the length), its 3K + 12
code bits out (the streams layout), metadata kept.
lte_desegment: decoded code blocks in (K bits each, or K - 24 from a decoder with
crc="lte-24b" when C > 1, whose "passed" is then used; a transport block of one code block has
CRC-24A instead, so decode those with crc="none"), in order; once the C blocks of a
transport block are in, the A payload bits out with "crc_ok" (CRC-24A of the transport block)
and "blocks_ok" (u8vector, the CRC-24B of each block; all ones when C = 1). A transport block
whose blocks do not all arrive (the next one starts first) is dropped, logged and counted
(lost_blocks()). A PDU a block cannot use (not a PDU, metadata that is not a dictionary, a value
out of range) is dropped, logged and counted (dropped()); the block goes on with the next one.
"""
import numpy as np
import pmt

from .gpufec_python import crc_append, crc_check, lte_rate_matcher, lte_segment_bits, \
    lte_segmentation, turbo_encode
from .params import check_int
from .pdu_block import bits_of, meta_int, pdu_block, transport_segmenter

_LTE_K = None


def lte_k_sizes():
    """the 188 code block sizes of 36.212 table 5.1.3-3"""
    global _LTE_K
    if _LTE_K is None:
        ks = set()
        for B in range(40, 6145, 8):  # every K is the size of one block of some B
            ks.add(lte_segmentation.compute(B).K_plus)
        _LTE_K = sorted(ks)
    return _LTE_K



# 36.212's largest transport block (TBS of table 7.1.7.2.5-1 for 4 layers) is far below this;
# segmentation itself takes B up to 391656 bits
_MAX_A = 391656 - 24


class lte_segment(transport_segmenter):
    """36.212 5.1.1-5.1.2 on PDUs: a transport block of A bits (u8vector, one bit per byte) in;
    CRC-24A appended, cut into C code blocks (filler bits first, CRC-24B on each when C > 1), one
    PDU per code block out, with metadata "tb", "cb", "C", "A", "K", "F" and, when G is known
    (this parameter, or the PDU's metadata "G": coded bits of the whole transport block), "E"
    (the block's rate-matched length for Qm bits a symbol and Nl layers)."""

    def __init__(self, G=0, Qm=2, Nl=1):
        transport_segmenter.__init__(self, "gpufec_lte_segment", G, Qm, Nl, (1, 2, 4))

    def handle(self, meta, vec):
        taken = self.transport_block(meta, vec, _MAX_A, "LTE")
        if taken is None:
            return
        a, G = taken
        b = crc_append("lte-24a", a)
        seg = lte_segmentation.compute(len(b))
        blocks = lte_segment_bits(seg, b)
        for r, blk in enumerate(blocks):
            m = meta
            for key, val in (("tb", self.tb), ("cb", r), ("C", seg.C), ("A", len(a)), ("K", len(blk)),
                             ("F", seg.F if r == 0 else 0)):
                m = pmt.dict_add(m, pmt.intern(key), pmt.from_long(int(val)))
            if G:
                E = lte_rate_matcher.block_E(G, seg.C, r, self.Qm, self.Nl)
                m = pmt.dict_add(m, pmt.intern("E"), pmt.from_long(int(E)))
            self.publish(m, pmt.init_u8vector(len(blk), blk.tolist()))
        self.tb += 1


class turbo_pdu_encoder(pdu_block):
    """an LTE turbo code block on PDUs: K bits in (K one of the 188 LTE sizes, from the length),
    its 3K + 12 code bits out (the d0 | d1 | d2 streams layout), metadata kept, "K" added"""

    def __init__(self):
        pdu_block.__init__(self, "gpufec_turbo_pdu_encoder")

    def handle(self, meta, vec):
        bits = bits_of(vec)
        if bits is None or len(bits) not in lte_k_sizes() or np.any(bits > 1):
            self.drop("a code block must be a u8vector of K bits (0/1), K an LTE size (40 .. 6144)")
            return
        coded = turbo_encode(bits, "lte:%d" % len(bits))
        meta = pmt.dict_add(meta, pmt.intern("K"), pmt.from_long(len(bits)))
        self.publish(meta, pmt.init_u8vector(len(coded), coded.tolist()))


class lte_desegment(pdu_block):
    """decoded code blocks back into transport blocks: blocks in order (K bits, or K - 24 from a
    decoder that checked the CRC-24B), once the C blocks of a transport block are in, its A bits
    out with "crc_ok" (CRC-24A) and "blocks_ok" (each block's CRC-24B). A: the transport block
    size, or 0 to take it from each PDU's metadata "A". Missing blocks drop their transport
    block (lost_blocks()); stray or bad PDUs are dropped and counted (dropped())."""

    def __init__(self, A=0):
        pdu_block.__init__(self, "gpufec_lte_desegment")
        self.A = check_int("A", A, 0, _MAX_A)  # 0: from each PDU's metadata
        self._tb, self._blocks, self._oks = None, [], []
        self._lost = 0

    def lost_blocks(self):
        """transport blocks dropped because some of their code blocks never came"""
        return self._lost

    def _abandon(self, why):
        if self._blocks:
            self._lost += 1
            self.logger.error("transport block %s dropped: %s" % (self._tb, why))
        self._tb, self._blocks, self._oks = None, [], []

    def handle(self, meta, vec):
        bits = bits_of(vec)
        A = meta_int(meta, "A", self.A, 1, _MAX_A)
        cb, tb = meta_int(meta, "cb", 0, 0), meta_int(meta, "tb", None)
        if bits is None or not A:
            self.drop("needs a u8vector of decoded bits and the transport block size (meta \"A\" or the A parameter)")
            return
        seg = lte_segmentation.compute(A + 24)
        if cb >= seg.C:
            self.drop("code block %d; A=%d gives C=%d blocks" % (cb, A, seg.C))
            return
        K = seg.K(cb)
        if seg.C == 1 and len(bits) == K - 24:
            self.drop("transport block of one code block (A=%d): a decoder with crc=lte-24b removed its CRC-24A, "
                      "which is not a CRC-24B; decode such blocks with crc=none" % A)
            return
        if cb >= seg.C or len(bits) not in (K, K - 24 if seg.C > 1 else K):
            self.drop("code block %d of %d bits; A=%d gives C=%d blocks, this one of K=%d" % (cb, len(bits), A, seg.C, K))
            return
        if cb == 0 or tb != self._tb:
            if self._blocks:
                self._abandon("block %d of transport block %s came before its blocks %d .. %d"
                              % (cb, tb, len(self._blocks), seg.C - 1))
            if cb != 0:
                self._lost += 1
                self.logger.error("transport block %s: its first code blocks are missing; dropped" % (tb,))
                self._tb = None
                return
            self._tb = tb
        if cb != len(self._blocks):
            if self._blocks:
                self._abandon("code block %d came after %d blocks" % (cb, len(self._blocks)))
            else:  # a stray block: its transport block's first blocks never came
                self.drop("code block %d of transport block %s came without its blocks 0 .. %d" % (cb, tb, cb - 1))
            return
        if seg.C > 1 and len(bits) == K:
            ok = crc_check("lte-24b", bits)
            bits = bits[:K - 24]
        elif seg.C > 1:
            p = pmt.dict_ref(meta, pmt.intern("passed"), pmt.PMT_NIL)
            ok = bool(pmt.u8vector_elements(p)[0]) if pmt.is_u8vector(p) else False
        else:
            ok = True
        self._blocks.append(bits[seg.F:] if cb == 0 else bits)
        self._oks.append(1 if ok else 0)
        if len(self._blocks) == seg.C:
            b = np.concatenate(self._blocks)
            out = pmt.dict_add(meta, pmt.intern("crc_ok"), pmt.from_bool(bool(crc_check("lte-24a", b))))
            out = pmt.dict_add(out, pmt.intern("blocks_ok"), pmt.init_u8vector(len(self._oks), self._oks))
            for key in ("cb", "K", "F", "E", "passed", "iterations", "frames", "erased"):
                out = pmt.dict_delete(out, pmt.intern(key))
            self.publish(out, pmt.init_u8vector(A, b[:A].tolist()))
            self._tb, self._blocks, self._oks = None, [], []
