#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Insertion/deletion coding: TVB codes (Davey-MacKay watermark, marker codes, SimCommSys files)
over the BSID channel, the tvb family on the generic blocks.

tvb_encoder(...): symbol bits in (ceil(log2 q) per symbol, MSB first, N symbols a frame), code
bits out (n per symbol).
bsid_channel(Pi, Pd, Ps, max_insertions): PDUs of bits in (u8vector, one bit per byte), PDUs of
what came out of the channel (their length varies); metadata passed on, with "sent_bits".
tvb_decoder(...): received frames of varying length in (tagged stream with length_tag_key, or
use gpufec.pdu_decoder("tvb", tvb_options(...)) for PDUs), the N decoded symbols as bits out.
"""
import numpy as np
import pmt
from gnuradio import fec, gr

from .gpufec_python import bsid_model, fec_encoder, frame_decoder
from .params import check_int, check_real, quote_option
from .pdu_block import pdu_block


def tvb_options(code="dm", q=16, n=7, N=None, file="", Pi=0.01, Pd=0.01, Ps=0.0, max_insertions=None,
                exclusion=None, books=0, seed=1, d=4, marker="001", precision="double", storage="auto"):
    """the tvb family's option string; Pi, Pd, Ps, max_insertions: the channel the decoder
    assumes; code="file": a SimCommSys system file (file=PATH). None (or 0 for N and
    max_insertions with a file) leaves a value to the family: N 50, or the file's block length;
    max_insertions 2, or the file's cap (an uncapped file: 64); exclusion 1e-10, or the file's.
    precision: "double" or "single" (alpha, beta and the APP sums); storage: the GPU's gamma,
    "auto", "global" (a chunk's at once) or "local" (a symbol's at a time, for long frames)"""
    if code not in ("dm", "marker", "file"):
        raise ValueError("code: %r is not valid (allowed: dm, marker, file)" % (code,))
    opts = ["code=%s" % code, "pi=%.17g" % check_real("Pi", Pi, 0, 1), "pd=%.17g" % check_real("Pd", Pd, 0, 1),
            "ps=%.17g" % check_real("Ps", Ps, 0, 0.5), "precision=%s" % quote_option(precision),
            "storage=%s" % quote_option(storage)]
    if max_insertions is not None and not (code == "file" and max_insertions == 0):
        opts.append("max_insertions=%d" % check_int("max_insertions", max_insertions, 0, 64))
    if exclusion is not None:
        opts.append("exclusion=%.17g" % check_real("exclusion", exclusion, 0, 0.5, lo_open=True))
    if N is not None and not (code == "file" and N == 0):
        opts.append("N=%d" % check_int("N", N, 1))
    if code == "file":
        if not file:
            raise ValueError("file: code=file needs a SimCommSys system file (file=PATH)")
        opts.append("file=%s" % quote_option(file))
    elif code == "marker":
        opts += ["d=%d" % check_int("d", d, 1, 16), "marker=%s" % quote_option(marker)]
    else:
        opts += ["q=%d" % check_int("q", q, 2, 65536), "n=%d" % check_int("n", n, 1, 32),
                 "seed=%d" % check_int("seed", seed, 0)]
        if books:
            opts.append("books=%d" % check_int("books", books, 1))
    return ", ".join(opts)


def tvb_decoder(code="dm", q=16, n=7, N=None, file="", Pi=0.01, Pd=0.01, Ps=0.0, max_insertions=None,
                exclusion=None, books=0, seed=1, d=4, marker="001", device="auto", max_batch=0,
                input_type="int8", packed_output=False, length_tag_key="packet_len", precision="double",
                storage="auto"):
    """TVB decoder block: each received frame (a tagged stream: length_tag_key gives its length,
    which varies) in as bits (bytes 0/1: give input_type="int8"; or soft values, positive = 1),
    its N symbols out as bits (ceil(log2 q) each, MSB first). A frame whose length is outside
    the drift range is reported erased."""
    opts = tvb_options(code, q, n, N, file, Pi, Pd, Ps, max_insertions, exclusion, books, seed, d, marker,
                       precision, storage)
    return frame_decoder("tvb", opts, device, int(max_batch), input_type, bool(packed_output), 1.0,
                         "failures", length_tag_key)


class tvb_encoder(gr.hier_block2):
    """TVB encoder block: symbol bits in (ceil(log2 q) per symbol, MSB first, N symbols a frame),
    code bits out (n per symbol), one bit per byte."""

    def __init__(self, code="dm", q=16, n=7, N=None, file="", books=0, seed=1, d=4, marker="001"):
        gr.hier_block2.__init__(self, "gpufec_tvb_encoder", gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_char))
        opts = tvb_options(code, q, n, N, file, books=books, seed=seed, d=d, marker=marker)
        self.enc_obj = fec_encoder("tvb", opts)
        self.enc = fec.encoder(self.enc_obj, gr.sizeof_char, gr.sizeof_char)
        self.connect(self, self.enc, self)


class bsid_channel(pdu_block):
    """The binary substitution, insertion and deletion channel on PDUs (port "pdus"): a PDU of
    bits (u8vector, one bit per byte) in, what came out of the channel out (its length varies),
    with the metadata and "sent_bits". A PDU that is not a u8vector is dropped, logged and
    counted (dropped())."""

    def __init__(self, Pi=0.01, Pd=0.01, Ps=0.0, max_insertions=2, seed=0):
        pdu_block.__init__(self, "gpufec_bsid_channel")
        self._model = bsid_model(float(Pi), float(Pd), float(Ps), int(max_insertions), int(seed))
        self._p = [float(Pi), float(Pd), float(Ps), int(max_insertions)]

    def _set(self, i, v):
        p = list(self._p)
        p[i] = v
        self._model.set(*p)  # checks
        self._p = p

    def set_pi(self, Pi):
        self._set(0, float(Pi))

    def set_pd(self, Pd):
        self._set(1, float(Pd))

    def set_ps(self, Ps):
        self._set(2, float(Ps))

    def handle(self, meta, vec):
        if not pmt.is_u8vector(vec):
            self.drop("not a PDU of bits (u8vector)")
            return
        bits = np.array(pmt.u8vector_elements(vec), dtype=np.uint8) & 1
        out = self._model.transmit(bits)
        meta = pmt.dict_add(meta, pmt.intern("sent_bits"), pmt.from_long(len(bits)))
        self.publish(meta, pmt.init_u8vector(len(out), out.tolist()))
