#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""5G NR transport blocks on the PDU face (TS 38.212 7.2 and 5.2.2-5.4.2), the LDPC counterpart
of the LTE blocks:

nr_segmenter: a PDU of A payload bits (u8vector, one bit per byte) in; the transport block CRC
(24A, or 16 for A <= 3824) appended, the base graph chosen from A and the code rate R (7.2.2),
cut into C code blocks of K' bits (5.2.2: CRC-24B on each when C > 1); one PDU per code block
out with metadata "tb", "cb", "C", "A", "bg", "Z", "K_prime", "ldpc_options" (the ldpc family's
options of the block: "code=nr:bg<bg>:<Z>, shorten=<K'>:<K>") and, when G (coded bits of the
transport block: the parameter or the PDU's metadata "G") is set, "E" (5.4.2.1).
ldpc_pdu_encoder: a PDU of information bits in, the bits the ldpc family sends out (for an NR
code block: its 66Z or 50Z bits less the filler bits), the code from the metadata
"ldpc_options" or the block's options.
nr_rate_match: such a frame in, the E bits of redundancy version rv out, interleaved for Qm
bits a symbol (metadata "E", "rv" override the parameters; E = 0 and no metadata: the whole
circular buffer once).
nr_derate_match: E soft values (f32vector, positive = bit 1) in, the frame of the code block out
(the values the ldpc decoder takes, zeros where nothing came); with combine=True the
retransmissions of a code block (same "tb" and "cb") add up until "new_data" says otherwise.
Its "ldpc_options" metadata gains "erased=<ranges>": the Z-bit block columns no transmission
reached, whose rows the decoder then leaves out (docs/ldpc.md).
nr_desegmenter: the decoded code blocks of a transport block in, in order (K' bits each), its A
bits out with "crc_ok" (the transport block CRC) and "blocks_ok" (each block's CRC-24B).
Bad PDUs are dropped, logged and counted (dropped()); a transport block whose blocks do not
all come is dropped and counted (lost_blocks()).
"""
from collections import OrderedDict

import numpy as np
import pmt

from .gpufec_python import crc_append, crc_check, frame_encoder, nr_base_graph, nr_desegment, \
    nr_rate_matcher, nr_segment, nr_segmentation, nr_tb_crc_bits
from .params import check_int
from .pdu_block import MAX_PDU_VALUES, bits_of, meta_int, pdu_block, transport_segmenter

_MAX_A = 1277992  # 38.214's largest transport block (TBS for 4 layers, 256QAM)
MAX_HARQ_BUFFERS = 128



def _crc_name(A):
    return "lte-24a" if nr_tb_crc_bits(A) == 24 else "lte-16"  # (38.212's gCRC24A, gCRC16)


def block_E(G, C, r, Qm, Nl):
    """38.212 5.4.2.1: the rate-matched length of code block r of C sharing G coded bits"""
    unit = Qm * Nl
    share = G // unit
    return unit * (share // C) if r <= C - (share % C) - 1 else unit * -(-share // C)


def _meta_text(meta, key):
    v = pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)
    return pmt.symbol_to_string(v) if pmt.is_symbol(v) else None


def _segmentation(meta, A):
    bg = meta_int(meta, "bg", None, 1, 2)
    if bg is None:
        raise ValueError("needs the base graph (metadata \"bg\", as nr_segmenter writes it)")
    return nr_segmentation.compute(A + nr_tb_crc_bits(A), bg)


class nr_segmenter(transport_segmenter):
    """38.212 7.2.1-7.2.2 and 5.2.2 on PDUs: A bits in, C code blocks of K' bits out, labelled for
    the later stages ("tb", "cb", "C", "A", "bg", "Z", "K_prime", "ldpc_options", "E")"""

    def __init__(self, R=0.5, G=0, Qm=2, Nl=1):
        transport_segmenter.__init__(self, "gpufec_nr_segmenter", G, Qm, Nl, (1, 2, 3, 4))
        if not 0 < R < 1:
            raise ValueError("R: the code rate must be in (0, 1), got %r" % (R,))
        self.R = float(R)

    def handle(self, meta, vec):
        taken = self.transport_block(meta, vec, _MAX_A, "5G NR")
        if taken is None:
            return
        a, G = taken
        bg = nr_base_graph(len(a), self.R)
        b = crc_append(_crc_name(len(a)), a)
        seg = nr_segmentation.compute(len(b), bg)
        blocks = nr_segment(seg, b)
        for r in range(seg.C):
            m = meta
            for key, val in (("tb", self.tb), ("cb", r), ("C", seg.C), ("A", len(a)), ("bg", bg), ("Z", seg.Z),
                             ("K_prime", seg.K_prime)):
                m = pmt.dict_add(m, pmt.intern(key), pmt.from_long(int(val)))
            m = pmt.dict_add(m, pmt.intern("ldpc_options"), pmt.intern(seg.ldpc_options()))
            if G:
                m = pmt.dict_add(m, pmt.intern("E"), pmt.from_long(block_E(G, seg.C, r, self.Qm, self.Nl)))
            blk = blocks[r]
            self.publish(m, pmt.init_u8vector(len(blk), blk.tolist()))
        self.tb += 1


class ldpc_pdu_encoder(pdu_block):
    """a PDU of information bits in, the ldpc family's sent bits out: the code from the metadata
    "ldpc_options" (as nr_segmenter writes it) or, where absent, the block's options"""

    def __init__(self, options=""):
        pdu_block.__init__(self, "gpufec_ldpc_pdu_encoder")
        self.options = options
        self._encoders = OrderedDict()
        if options:
            self._encoder(options)  # bad options fail here, not on the first PDU

    def _encoder(self, options):
        if options not in self._encoders:
            self._encoders[options] = frame_encoder("ldpc", options)
            while len(self._encoders) > 64:
                self._encoders.popitem(last=False)
        return self._encoders[options]

    def handle(self, meta, vec):
        opts = _meta_text(meta, "ldpc_options") or self.options
        bits = bits_of(vec)
        if not opts:
            self.drop("no code: the metadata has no \"ldpc_options\" and the block no options")
            return
        enc = self._encoder(opts)
        if bits is None or len(bits) != enc.info_bits() or np.any(bits > 1):
            self.drop("needs a u8vector of %d bits (0/1) for %s" % (enc.info_bits(), opts))
            return
        coded = enc.encode(bits)
        self.publish(meta, pmt.init_u8vector(len(coded), coded.tolist()))


class _nr_rm_block(pdu_block):
    def __init__(self, name, rv, Qm, Ncb):
        pdu_block.__init__(self, name)
        self.rv = check_int("rv", rv, 0, 3)
        self.Qm = check_int("Qm", Qm, 1, allowed=(1, 2, 4, 6, 8))
        self.Ncb = check_int("Ncb", Ncb, 0)
        self._matchers = {}

    def matcher(self, meta):
        bg, Z, Kp = meta_int(meta, "bg", None, 1, 2), meta_int(meta, "Z", None, 2, 384), meta_int(meta, "K_prime", None, 1)
        if None in (bg, Z, Kp):
            raise ValueError("needs the code block's \"bg\", \"Z\" and \"K_prime\" (as nr_segmenter writes them)")
        key = (bg, Z, Kp)
        if key not in self._matchers:
            self._matchers[key] = nr_rate_matcher(bg, Z, Kp, self.Ncb)
        return self._matchers[key]


class nr_rate_match(_nr_rm_block):
    """38.212 5.4.2 on PDUs: a code block's sent bits in, the E bits of redundancy version rv out"""

    def __init__(self, E=0, rv=0, Qm=2, Ncb=0):
        _nr_rm_block.__init__(self, "gpufec_nr_rate_match", rv, Qm, Ncb)
        self.E = check_int("E", E, 0, MAX_PDU_VALUES)

    def handle(self, meta, vec):
        rm = self.matcher(meta)
        bits = bits_of(vec)
        if bits is None or len(bits) != rm.sent() or np.any(bits > 1):
            self.drop("needs a u8vector of the code block's %d sent bits (0/1)" % rm.sent())
            return
        E = meta_int(meta, "E", self.E, 0, MAX_PDU_VALUES) or rm.Ncb() - rm.filler()
        E -= E % self.Qm
        rv = meta_int(meta, "rv", self.rv, 0, 3)
        out = rm.match(bits, E, rv, self.Qm)
        meta = pmt.dict_add(pmt.dict_add(meta, pmt.intern("E"), pmt.from_long(E)), pmt.intern("rv"), pmt.from_long(rv))
        self.publish(meta, pmt.init_u8vector(len(out), out.tolist()))


class nr_derate_match(_nr_rm_block):
    """E soft values in, the code block's frame for the ldpc decoder out; combine=True adds the
    retransmissions of a code block (same "tb", "cb") until a PDU says "new_data" """

    def __init__(self, rv=0, Qm=2, Ncb=0, combine=False):
        _nr_rm_block.__init__(self, "gpufec_nr_derate_match", rv, Qm, Ncb)
        self.combine = bool(combine)
        self._buffers = OrderedDict()

    def handle(self, meta, vec):
        rm = self.matcher(meta)
        if not pmt.is_f32vector(vec) or pmt.length(vec) == 0 or pmt.length(vec) % self.Qm:
            self.drop("needs an f32vector of E soft values, E a multiple of Qm = %d" % self.Qm)
            return
        soft = np.asarray(pmt.f32vector_elements(vec), dtype=np.float32)
        rv = meta_int(meta, "rv", self.rv, 0, 3)
        key = (meta_int(meta, "tb", 0), meta_int(meta, "cb", 0))
        new = pmt.to_bool(pmt.dict_ref(meta, pmt.intern("new_data"), pmt.PMT_F)) if pmt.dict_has_key(
            meta, pmt.intern("new_data")) else False
        if self.combine and key in self._buffers and not new:
            acc, received = self._buffers.pop(key)
        else:
            acc, received = np.zeros(rm.sent(), dtype=np.float32), np.zeros(rm.sent(), dtype=np.uint8)
        rm.accumulate(soft, rv, acc, self.Qm)
        rm.mark_received(len(soft), rv, received, self.Qm)
        if self.combine:
            self._buffers[key] = (acc, received)
            while len(self._buffers) > MAX_HARQ_BUFFERS:
                old, _ = self._buffers.popitem(last=False)
                self.logger.warn("HARQ buffer of transport block %d, code block %d let go (more than %d held)"
                                 % (old[0], old[1], MAX_HARQ_BUFFERS))
        # the values no transmission reached, for the decoder: it leaves out the rows that only
        # they tie to (a high code rate's extension parity: 41 of 46 block rows at rate 8/9)
        options, erased = _meta_text(meta, "ldpc_options"), rm.ldpc_erased(received)
        if options and erased:
            meta = pmt.dict_add(meta, pmt.intern("ldpc_options"), pmt.intern(options + ", erased=" + erased))
        self.publish(meta, pmt.init_f32vector(len(acc), acc.tolist()))


class nr_desegmenter(pdu_block):
    """decoded code blocks back into transport blocks: K' bits a block, in order; once the C
    blocks of a transport block are in, its A bits out with "crc_ok" and "blocks_ok" """

    def __init__(self):
        pdu_block.__init__(self, "gpufec_nr_desegmenter")
        self._tb, self._blocks = None, []
        self._lost = 0

    def lost_blocks(self):
        """transport blocks dropped because some of their code blocks never came"""
        return self._lost

    def handle(self, meta, vec):
        bits = bits_of(vec)
        A = meta_int(meta, "A", None, 1, _MAX_A)
        cb, tb = meta_int(meta, "cb", 0, 0), meta_int(meta, "tb", None)
        if bits is None or A is None:
            self.drop("needs a u8vector of decoded bits and the metadata of nr_segmenter (\"A\", \"bg\", \"cb\")")
            return
        seg = _segmentation(meta, A)
        if cb >= seg.C or len(bits) != seg.K_prime:
            self.drop("code block %d of %d bits; A=%d gives C=%d blocks of K'=%d" % (cb, len(bits), A, seg.C, seg.K_prime))
            return
        if cb == 0 or tb != self._tb:
            if self._blocks:
                self._lost += 1
                self.logger.error("transport block %s dropped: block %d of transport block %s came first"
                                  % (self._tb, cb, tb))
            self._tb, self._blocks = (tb, []) if cb == 0 else (None, [])
            if cb != 0:
                self._lost += 1
                self.logger.error("transport block %s: its first code blocks are missing; dropped" % (tb,))
                return
        if cb != len(self._blocks):
            self._lost += 1
            self.logger.error("transport block %s dropped: code block %d came after %d blocks" % (tb, cb, len(self._blocks)))
            self._tb, self._blocks = None, []
            return
        self._blocks.append(bits)
        if len(self._blocks) == seg.C:
            b, oks = nr_desegment(seg, np.stack(self._blocks))
            out = pmt.dict_add(meta, pmt.intern("crc_ok"), pmt.from_bool(bool(crc_check(_crc_name(A), b))))
            out = pmt.dict_add(out, pmt.intern("blocks_ok"), pmt.init_u8vector(len(oks), [int(x) for x in oks]))
            for key in ("cb", "K_prime", "Z", "E", "rv", "ldpc_options", "passed", "iterations", "frames", "erased"):
                out = pmt.dict_delete(out, pmt.intern(key))
            self.publish(out, pmt.init_u8vector(A, b[:A].tolist()))
            self._tb, self._blocks = None, []
