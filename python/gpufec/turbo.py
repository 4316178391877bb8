#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Turbo blocks: the turbo family on the generic blocks.

turbo_decoder() is gpufec.frame_decoder("turbo", ...) with the family's options as arguments;
turbo_encoder() is gr-fec's encoder block around gpufec.fec_encoder("turbo", ...).

standard="lte": any of the 188 K; codewords are the d0, d1, d2 streams of K + 4 values each
(36.212 5.1.3.2), or (layout="interleaved") d0 d1 d2 triplets. A decoder with K=0 takes frames of
every K, one per packet (length_tag_key) or PDU, K read from the length (3K + 12).
standard="ccsds": K = 1784, 3568, 7136 or 8920 and rate "1/2", "1/3", "1/4" or "1/6"
(CCSDS 131.0-B section 6); codewords in the standard's multiplexed order, (K + 4) / rate values.
Soft values: positive = bit 1.
"""
from gnuradio import fec, gr

from .gpufec_python import fec_encoder, frame_decoder
from .params import check_int, check_real


def turbo_code_id(standard="lte", K=6144, rate="1/3"):
    """the family's code name: "lte:6144", "ccsds:1784:1/2"; LTE K=0 (or "any"): "lte:any", every
    K, read from each frame's length (decoders on the tagged-stream or PDU face)"""
    if standard == "lte":
        if rate not in ("1/3", None, ""):
            raise ValueError("rate: the LTE mother code has rate 1/3 (rate matching gives the others)")
        if K in ("any", 0, "0"):
            return "lte:any"
        return "lte:%d" % check_int("K", K, 40, 6144)
    if standard == "ccsds":
        return "ccsds:%d:%s" % (check_int("K", K, 1), rate or "1/3")
    raise ValueError("standard: %r is not valid (allowed: lte, ccsds)" % (standard,))


def turbo_options(K=6144, algorithm="max-log", max_iterations=6, scaling=None, window=None,
                  crc="none", early_termination=True, layout="streams", training=None,
                  standard="lte", rate="1/3", prelaunch=False, precision="int16"):
    """the turbo family's option string ("code=lte:6144, algorithm=max-log, ..."); window and
    training None (or 0 from GRC) and scaling None: the engine's default; values are used as
    given or refused (K=6144.7, max_iterations=1.9 and scaling=0 raise ValueError); prelaunch (the GPU FPTD):
    the next frame's kernel is launched ahead and waits on the GPU (up to 4 ms, holding its
    multiprocessors), so that a frame within 2 ms of the one before skips the launch;
    precision="int8": LTE max-log on the CPU only, with windows of 128 by default, about 1.5-2.7
    times the int16 engine a core (its own bits; the GPU decodes int16)"""
    opts = ["code=%s" % turbo_code_id(standard, K, rate), "algorithm=%s" % algorithm,
            "max_iterations=%d" % check_int("max_iterations", max_iterations, 1),
            "crc=%s" % crc, "early_termination=%s" % ("true" if early_termination else "false"),
            "layout=%s" % layout]
    if window:
        opts.append("window=%d" % check_int("window", window, 1))
    if training:
        opts.append("training=%d" % check_int("training", training, 1))
    if scaling is not None:  # (0 is a value, refused by the family: not "the default")
        opts.append("scaling=%.17g" % check_real("scaling", scaling))
    if prelaunch:
        opts.append("prelaunch=true")
    if precision != "int16":  # (the family refuses what it does not know)
        opts.append("precision=%s" % precision)
    return ", ".join(opts)


def turbo_decoder(K=6144, algorithm="max-log", max_iterations=6, scaling=None, window=None, crc="none",
                  early_termination=True, layout="streams", device="auto", max_batch=0,
                  input_type="float", packed_output=False, scale=32.0, status_tags="failures",
                  length_tag_key="", training=None, standard="lte", rate="1/3", prelaunch=False,
                  precision="int16"):
    """turbo decoder block: LTE (any of the 188 K; 3K + 12 soft values in) or CCSDS ((K + 4) / rate
    soft values in); K information bits out (fewer with a CRC, whose result goes into the status
    tags). max-log takes int8 soft values (float input is quantised with `scale`); log-map takes
    float LLRs as they are. LTE max-log runs on the GPU where there is one; the rest on the CPU.
    fptd-max-log is the fully parallel decoder, for latency (GPU or CPU, the same bits); with
    prelaunch=True its single frames find their kernel already waiting on the GPU. precision="int8":
    the CPU's int8 engine (LTE max-log; for receivers without a GPU)."""
    return frame_decoder("turbo",
                         turbo_options(K, algorithm, max_iterations, scaling, window, crc,
                                       early_termination, layout, training, standard, rate, prelaunch,
                                       precision),
                         device, check_int("max_batch", max_batch, 0), input_type, bool(packed_output),
                         check_real("scale", scale, 0, lo_open=True),
                         status_tags, length_tag_key)


class turbo_encoder(gr.hier_block2):
    """turbo encoder block (LTE or CCSDS): K information bits (fewer with a CRC, which it
    appends) in, the codeword out (LTE: 3K + 12 bits; CCSDS: (K + 4) / rate), one bit per byte."""

    def __init__(self, K=6144, crc="none", layout="streams", standard="lte", rate="1/3"):
        gr.hier_block2.__init__(self, "gpufec_turbo_encoder",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_char))
        self.enc_obj = fec_encoder("turbo", turbo_options(K=K, crc=crc, layout=layout,
                                                           standard=standard, rate=rate))
        self.enc = fec.encoder(self.enc_obj, gr.sizeof_char, gr.sizeof_char)
        self.connect(self, self.enc, self)
