#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CCSDS telemetry downlink (131.0-B), from soft symbols to transfer frames.

Sent: a transfer frame of k I bytes, Reed-Solomon encoded (I codewords interleaved), or of k
bits LDPC encoded (C2, AR4JA) or turbo encoded (K = 1784 .. 8920, rates 1/2 .. 1/6), randomized,
the marker in front (a CADU; 1ACFFC1D, or the turbo rate's longer one), then for Reed-Solomon
the K = 7 rate-1/2 convolutional code over the whole stream (or none). Received, each stage a
block:

  soft symbols -> ccsds_tm_sync -> viterbi_decoder (streaming; Reed-Solomon only) -> ccsds_tm_deframer
               -> frame_decoder("rs", "ldpc" or "turbo") -> ccsds_tm_frame_check -> PDUs of frames

(all C++ blocks).

ccsds_tm_receiver is that chain as one hierarchical block (GRC: "CCSDS TM Receiver");
ccsds_tm_encoder makes such a stream from transfer frames (tests, demonstrations).
The keywords shared by all: code ("ccsds:255:223", "ccsds:255:239", or an LDPC or turbo code of
ccsds_tm_codes(): "ccsds:8160:7136" (C2), "ccsds:2048:1024" ... (AR4JA), "ccsds:1784:1/2" ...
(turbo)), interleave (I, 1-8; 1 for LDPC and turbo), virtual_fill (-1: none), basis ("default":
dual for CCSDS), conv (the inner code's preset; "default": "ccsds" for Reed-Solomon, "none" for
the others; "none" for a stream without it).
docs/ccsds_tm.md says how to choose them.
"""
import numpy as np
from gnuradio import gr

from .gpufec_python import (ccsds_fecf_set, ccsds_tm_codeblock_decoder, ccsds_tm_deframer,
                            ccsds_tm_frame_check, ccsds_tm_stream_encoder, ccsds_tm_sync, frame_decoder,
                            viterbi_decoder)
from .lifetime import keep_alive
from .params import check_int, check_real

_RS_BATCH = 512  # the receiver's Reed-Solomon batches, codeblocks (256-2048 within 10 %)


def _batch(family, codeblock_bits):
    """codeblocks a batch of the receiver's decoder: 512 for Reed-Solomon; for LDPC and turbo
    about 16 MB of soft values (256 to 2048 codewords), since their GPU engines need thousands of
    codewords to fill the device (C2 at 512 a batch decodes at half the rate of 2048)"""
    if family == "rs":
        return _RS_BATCH
    return max(256, min(2048, (16 << 20) // codeblock_bits))


def _layout(code, interleave, virtual_fill, basis, conv):
    return dict(code=str(code), interleave=check_int("interleave", interleave, 1, 8),
                virtual_fill=int(virtual_fill), basis=str(basis), conv=str(conv))


def ccsds_tm_decoder_options(code="ccsds:255:223", interleave=5, virtual_fill=-1, basis="default"):
    """the frame family that decodes a telemetry layout's codeblocks ("rs" or "ldpc") and its
    options string, as a tuple"""
    family, options = ccsds_tm_codeblock_decoder(str(code), check_int("interleave", interleave, 1, 8),
                                                 int(virtual_fill), str(basis))[:2]
    return family, options


class ccsds_tm_receiver(gr.hier_block2):
    """CCSDS telemetry receiver: soft symbols in (float, positive = bit 1, amplitude about 1),
    transfer frames out as PDUs on message port "frames" (ccsds_tm_frame_check's metadata).
    Inside: ccsds_tm_sync -> viterbi_decoder (conv, streaming; skipped with conv="none", as for
    LDPC and turbo) -> ccsds_tm_deframer -> frame_decoder("rs", "ldpc" or "turbo") ->
    ccsds_tm_frame_check. device
    ("auto", "cpu", "cuda[:N]") is the Viterbi's and the codeblock decoder's; scale turns the
    symbols into the decoders' int8 values (32: amplitude 1 -> 32; the min-sum LDPC decoder
    needs no noise estimate, only values well inside int8); decoder_options: more options for the codeblock decoder (e.g.
    "max_iterations=50" for LDPC). stats() gathers every stage's counts."""

    def __init__(self, code="ccsds:255:223", interleave=5, virtual_fill=-1, basis="default", conv="default",
                 both_conventions=True, fecf=False, pass_failed=False, device="auto", scale=32.0,
                 max_misses=3, acquire_sigmas=6.0, track_threshold=0.5, slip_range=2, randomized=True,
                 decoder_options=""):
        gr.hier_block2.__init__(self, "gpufec_ccsds_tm_receiver", gr.io_signature(1, 1, gr.sizeof_float),
                                gr.io_signature(0, 0, 0))
        self.message_port_register_hier_out("frames")
        lay = _layout(code, interleave, virtual_fill, basis, conv)
        cb = {k: lay[k] for k in ("code", "interleave", "virtual_fill", "basis")}
        family, options, _, codeblock_bits, own_conv = ccsds_tm_codeblock_decoder(**cb)
        batch = _batch(family, codeblock_bits)
        if lay["conv"] == "default":
            lay["conv"] = own_conv
        self.sync = ccsds_tm_sync(**lay, both_conventions=bool(both_conventions),
                                  max_misses=check_int("max_misses", max_misses, 1),
                                  acquire_sigmas=check_real("acquire_sigmas", acquire_sigmas, 0),
                                  track_threshold=check_real("track_threshold", track_threshold, 0, 1, lo_open=True),
                                  slip_range=check_int("slip_range", slip_range, 0))
        coded = lay["conv"] != "none"
        self.deframer = ccsds_tm_deframer(**cb, dtype="byte" if coded else "float",
                                          scale=check_real("scale", scale, 0, lo_open=True),
                                          randomized=bool(randomized), buffer_cadus=4 * batch + 64)
        if str(decoder_options).strip():
            options += ", " + str(decoder_options)
        # batches of 512 codeblocks (5 MB of soft values for RS at I = 5; LDPC: _batch): the
        # deframer's second output holds the CADUs in flight in the decoder until their frames
        # come out. LDPC frames carry their status tags (the frame check reads the syndrome's
        # verdict; a tag a frame of thousands of bits costs little)
        self.decoder = frame_decoder(family, options, device=device, max_batch=batch, input_type="int8",
                                     packed_output=True, status_tags="none" if family == "rs" else "all")
        self.rs = self.decoder if family == "rs" else None
        self._family = family
        self.check = ccsds_tm_frame_check(**cb, fecf=bool(fecf), pass_failed=bool(pass_failed))
        if coded:
            self.viterbi = viterbi_decoder(code=lay["conv"], mode="streaming", device=device, scale=scale)
            self.connect(self, self.sync, self.viterbi, self.deframer)
        else:
            self.viterbi = None
            self.connect(self, self.sync, self.deframer)
        self.connect((self.deframer, 0), self.decoder, (self.check, 0))
        self.connect((self.deframer, 1), (self.check, 1))
        self.msg_connect(self.check, "frames", self, "frames")

    def stats(self):
        """the sync's counts (sync_...), the codeblock decoder's backend (and for LDPC its mean
        iterations) and the frame check's counts"""
        d = {"sync_" + k: v for k, v in self.sync.stats().items()}
        d.update(self.check.stats())
        d["backend"] = self.decoder.backend()
        if self._family != "rs":
            d["mean_iterations"] = self.decoder.mean_iterations()
        return d


class ccsds_tm_encoder(gr.basic_block):
    """Transfer frames in (bytes, frame_bytes() each, e.g. 1115 for I = 5, 892 for C2), CCSDS
    telemetry channel bits out (one per byte: Reed-Solomon or LDPC, randomizer, marker, the inner
    code). With
    fecf=True the frames' last two bytes are overwritten with their CRC-16."""

    def __init__(self, code="ccsds:255:223", interleave=5, virtual_fill=-1, basis="default", conv="default",
                 fecf=False, randomized=True):
        gr.basic_block.__init__(self, "gpufec_ccsds_tm_encoder", [np.uint8], [np.uint8])
        keep_alive(self)
        self._enc = ccsds_tm_stream_encoder(**_layout(code, interleave, virtual_fill, basis, conv),
                                            randomize=bool(randomized))
        self._fb = self._enc.frame_bytes()
        self._out = self._enc.cadu_symbols()
        self._fecf = bool(fecf)
        self.set_output_multiple(self._out)
        self.set_relative_rate(self._out, self._fb)

    def frame_bytes(self):
        return self._fb

    def forecast(self, noutput_items, ninputs):
        return [noutput_items // self._out * self._fb] * ninputs

    def general_work(self, input_items, output_items):
        x, y = input_items[0], output_items[0]
        n = min(len(x) // self._fb, len(y) // self._out)
        if n == 0:
            return 0
        frames = np.asarray(x[:n * self._fb])
        if self._fecf:
            frames = ccsds_fecf_set(frames, self._fb)
        y[:n * self._out] = self._enc.encode(frames)
        self.consume(0, n * self._fb)
        return n * self._out
