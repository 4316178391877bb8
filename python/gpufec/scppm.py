#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""SCPPM blocks (CCSDS 142.0-B-1, deep-space optical): the scppm family on the generic blocks.

scppm_encoder(M, rate): information bits in (15120 * rate - 34 per codeword), PPM slots out, one
byte per slot (1 = the pulsed slot), M slots per symbol, 15120 / log2(M) symbols per codeword.
poisson_channel(Ks, Kb): slots in, photon counts out (float): Poisson(Ks + Kb) in a pulsed slot,
Poisson(Kb) in the others.
scppm_decoder(...): slot values in (photon counts, or slot log-likelihoods), information bits
out, with each codeword's iterations and CRC-32 result (status tags, counters, PDU metadata).
randomizer=True on both: the CCSDS pseudo-random sequence on each information block.

The link's stages around the codeword (transmit order; the receiver undoes them backwards):
scppm_channel_interleaver(M, N, B) on the encoder's slots, scppm_framer(M, rate) (the sync
marker before each codeword, M / 4 guard slots after each symbol); on the receiving side
scppm_frame_sync(M, rate) (finds and follows the marker, drops it and the guard slots) and
scppm_channel_interleaver(M, N, B, deinterleave=True) before the decoder.
"""
import numpy as np
import pmt
from gnuradio import fec, gr

from .gpufec_python import (conv_symbol_interleaver, conv_symbol_interleaver_b, fec_encoder,
                            frame_decoder, scppm_frame_slots, scppm_slots, scppm_sync_marker)
from .gpufec_python import scppm_codeword_sync
from .lifetime import keep_alive
from .params import check_int, check_real


def scppm_options(M=16, rate="2/3", algorithm="max-log", max_iterations=32, input="counts",
                  Ks=0.0, Kb=0.0, scaling=None, randomizer=False):
    """the scppm family's option string ("M=16, rate=2/3, ..."); scaling None: the default
    (0.75 max-log, 1 log-map); Ks and Kb are needed by log-map with input="counts" only"""
    opts = ["M=%d" % check_int("M", M, 4), "rate=%s" % rate, "algorithm=%s" % algorithm,
            "max_iterations=%d" % check_int("max_iterations", max_iterations, 1), "input=%s" % input]
    if randomizer:
        opts.append("randomizer=1")
    if Ks:
        opts.append("ks=%.17g" % check_real("Ks", Ks, 0))
    if Kb:
        opts.append("kb=%.17g" % check_real("Kb", Kb, 0))
    if scaling is not None:  # (0 is a value, refused by the family: not "the default")
        opts.append("scaling=%.17g" % check_real("scaling", scaling))
    return ", ".join(opts)


def scppm_decoder(M=16, rate="2/3", algorithm="max-log", max_iterations=32, input="counts", Ks=0.0,
                  Kb=0.0, scaling=None, device="auto", max_batch=0, input_type="float",
                  packed_output=False, scale=None, status_tags="failures", length_tag_key="",
                  randomizer=False):
    """SCPPM decoder block: 15120 / log2(M) * M slot values in per codeword, its information bits
    out. input="counts": photon counts (max-log needs nothing else: its answer does not depend on
    the counts' scale; log-map needs Ks and Kb); input="symbol_llr": a log-likelihood per slot
    (the pulse there; only differences within a symbol matter). Max-log runs in fixed point on
    the GPU where there is one (the CPU gives the same bits); log-map in float on the CPU.
    scale (float input to int8, max-log): None = 1 for counts (127 photons at most), 4 for LLRs."""
    if scale is None:
        scale = 1.0 if input == "counts" else 4.0
    return frame_decoder("scppm", scppm_options(M, rate, algorithm, max_iterations, input, Ks, Kb, scaling,
                                                randomizer),
                         device, int(max_batch), input_type, bool(packed_output), float(scale),
                         status_tags, length_tag_key)


class scppm_encoder(gr.hier_block2):
    """SCPPM encoder block: information bits in (one per byte, 15120 * rate - 34 per codeword),
    PPM slots out (one per byte, 1 = pulse; M per symbol). The CRC-32 and the termination bits
    are added here (and the pseudo-randomizer before them, with randomizer=True); guard slots
    and the sync marker are scppm_framer's."""

    def __init__(self, M=16, rate="2/3", randomizer=False):
        gr.hier_block2.__init__(self, "gpufec_scppm_encoder",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_char))
        self.enc_obj = fec_encoder("scppm", scppm_options(M=M, rate=rate, randomizer=randomizer))
        self.enc = fec.encoder(self.enc_obj, gr.sizeof_char, gr.sizeof_char)
        self.connect(self, self.enc, self)


class poisson_channel(gr.sync_block):
    """The photon-counting channel: slots in (bytes, nonzero = pulsed), photon counts out (float):
    Poisson(Ks + Kb) photons in a pulsed slot, Poisson(Kb) in every other. Ks: signal photons per
    pulse, Kb: background photons per slot; both can be changed while running (set_ks, set_kb)."""

    def __init__(self, Ks=2.0, Kb=0.2, seed=0):
        gr.sync_block.__init__(self, "gpufec_poisson_channel", [np.uint8], [np.float32])
        keep_alive(self)  # GNU Radio issue #8137: see lifetime.py
        self.set_ks(Ks)
        self.set_kb(Kb)
        self._rng = np.random.default_rng(seed if seed else None)

    def set_ks(self, Ks):
        if not (Ks >= 0 and np.isfinite(Ks)):
            raise ValueError("Ks: signal photons per pulse must be a finite number >= 0")
        self._ks = float(Ks)

    def set_kb(self, Kb):
        if not (Kb >= 0 and np.isfinite(Kb)):
            raise ValueError("Kb: background photons per slot must be a finite number >= 0")
        self._kb = float(Kb)

    def work(self, input_items, output_items):
        pulses = input_items[0] != 0
        output_items[0][:] = self._rng.poisson(self._kb + self._ks * pulses)
        return len(output_items[0])


class scppm_framer(gr.basic_block):
    """Codewords' slots in (bytes, 1 = pulse, as scppm_encoder gives them), the channel's slots
    out: each codeword behind the codeword sync marker, every PPM symbol's M slots followed by
    M / 4 empty guard slots (the slots are copied as they are)."""

    def __init__(self, M=16, rate="2/3"):
        gr.basic_block.__init__(self, "gpufec_scppm_framer", [np.uint8], [np.uint8])
        keep_alive(self)  # GNU Radio issue #8137: see lifetime.py
        self._M = int(M)
        self._in, self._out = scppm_slots(self._M, rate), scppm_frame_slots(self._M, rate)
        marker = scppm_sync_marker(self._M)
        self._per = self._M + self._M // 4
        self._marker = np.zeros((len(marker), self._per), np.uint8)
        self._marker[np.arange(len(marker)), marker] = 1
        self.set_output_multiple(self._out)
        # the rate sizes the buffer before it: a codeword's slots at least
        self.set_relative_rate(self._out, self._in)
        self.set_min_output_buffer(4 * self._out)

    def forecast(self, noutput_items, ninputs):
        return [noutput_items // self._out * self._in] * ninputs

    def general_work(self, input_items, output_items):
        frames = min(len(input_items[0]) // self._in, len(output_items[0]) // self._out)
        if frames == 0:
            return 0
        y = output_items[0][:frames * self._out].reshape(frames, -1, self._per)
        L = len(self._marker)
        y[:, :L, :] = self._marker
        y[:, L:, :self._M] = input_items[0][:frames * self._in].reshape(frames, -1, self._M)
        y[:, L:, self._M:] = 0
        self.consume(0, frames * self._in)
        return frames * self._out


class scppm_frame_sync(gr.basic_block):
    """Codeword synchronisation: the channel's slot counts in (float), each codeword's decoder
    input out (15120 / log2(M) symbols of M slots: the marker and the guard slots removed).
    It searches for the sync marker (scoring every offset of a frame by its marker and the
    next one's photons), then follows it frame by frame: a marker up to a symbol early or late
    is a slip, followed; a marker with fewer than half the usual photons is a miss, and the
    frame is still given where it was due; max_misses misses in a row lose the lock and the
    search starts again. Tags "scppm_sync" (a string: acquired, slipped, flywheel) mark the
    frames where these happened; losses and skipped slots are logged, and stats() counts all."""

    def __init__(self, M=16, rate="2/3", max_misses=3):
        gr.basic_block.__init__(self, "gpufec_scppm_frame_sync", [np.float32], [np.float32])
        keep_alive(self)  # GNU Radio issue #8137: see lifetime.py
        self._sync = scppm_codeword_sync(int(M), rate, int(max_misses))
        self._max_misses = int(max_misses)
        self._slots = scppm_slots(int(M), rate)
        self.set_output_multiple(self._slots)
        # read as 1.5 frames in per codeword out, which sizes the buffer before it to hold the
        # search's window (two frames and a marker)
        self.set_relative_rate(2 * self._slots, 3 * scppm_frame_slots(int(M), rate))
        self.set_min_output_buffer(8 * self._slots)  # several codewords a call
        self.set_tag_propagation_policy(gr.TPP_DONT)  # input positions mean nothing after it
        self._key = pmt.intern("scppm_sync")

    def stats(self):
        """frames, acquisitions, losses, slips, flywheel (frames given with a missed marker),
        skipped_slots (slots in no frame given)"""
        return self._sync.stats()

    def forecast(self, noutput_items, ninputs):
        return [self._sync.window()] * ninputs

    def general_work(self, input_items, output_items):
        x, y = input_items[0], output_items[0]
        used = produced = 0
        while produced + self._slots <= len(y):
            consumed, frame, what, shift = self._sync.step(x[used:], y[produced:])
            if what:
                self._event(what, shift, produced)
            used += consumed
            if frame:
                produced += self._slots
            if consumed == 0 and not frame and not what:
                break  # needs more counts
        self.consume(0, used)
        return produced

    def _event(self, what, shift, produced):
        if what == "lost":
            self.logger.warn("lost the codeword sync marker after %d missed markers in a row; searching again"
                             % self._max_misses)
            return
        value = pmt.intern(what)
        if what == "slipped":
            value = pmt.cons(value, pmt.from_long(shift))
        elif what == "acquired":
            skipped = self._sync.stats()["skipped_slots"]
            self.logger.info("codeword sync marker found; %d slots skipped so far"
                             % skipped)
        self.add_item_tag(0, self.nitems_written(0) + produced, self._key, value)


class scppm_channel_interleaver(gr.basic_block):
    """The channel interleaver, a convolutional interleaver of PPM symbols (M slots each): N
    rows, row r delays its symbols by r B symbols (deinterleave=True: by (N - 1 - r) B). The
    pair delays every symbol by N (N - 1) B symbols; the deinterleaver drops those first fill
    symbols, so that its output starts with the first codeword sent; the interleaver sends PPM
    symbol 0 as its fill. dtype: "byte" (the
    encoder's slots) or "float" (counts, before the decoder). N B should be a multiple of the
    codeword's 15120 / log2(M) symbols, so that the delay is a whole number of codewords."""

    def __init__(self, M=16, N=2, B=1890, deinterleave=False, dtype="byte"):
        if dtype not in ("byte", "float"):
            raise ValueError("dtype: '%s' is not valid (allowed: byte, float)" % dtype)
        M, N, B = check_int("M", M, 2, 256), check_int("N", N, 1, 2**31 - 1), check_int("B", B, 0, 2**31 - 1)
        t = np.uint8 if dtype == "byte" else np.float32
        gr.basic_block.__init__(self, "gpufec_scppm_channel_%sinterleaver" % ("de" if deinterleave else ""), [t], [t])
        keep_alive(self)  # GNU Radio issue #8137: see lifetime.py
        self._M = int(M)
        if dtype == "byte":  # its first rows hold PPM symbol 0 (a pulse in slot 0): valid slots
            fill = np.zeros(self._M, np.uint8)
            fill[0] = 1
            self._il = conv_symbol_interleaver_b(int(N), int(B), self._M, bool(deinterleave), fill)
        else:
            self._il = conv_symbol_interleaver(int(N), int(B), self._M, bool(deinterleave))
        self._drop = self._il.end_to_end_delay() * self._M if deinterleave else 0
        self.set_output_multiple(self._M)
        self.set_min_output_buffer(1 << 19)  # large pieces: the work is a copy, the call costs

    def forecast(self, noutput_items, ninputs):
        return [noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        x, y = input_items[0], output_items[0]
        n = min(len(x), len(y)) // self._M * self._M
        if n == 0:
            return 0
        self._il.push_into(x[:n], y[:n], self._M)
        self.consume(0, n)
        if self._drop:  # the deinterleaver's fill symbols: not passed on
            d = min(self._drop, n)
            self._drop -= d
            y[:n - d] = y[d:n].copy()
            return n - d
        return n
