#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Helpers the QA files share: run soft values through a decoder block in a flowgraph, with a
time limit so that a hang fails the test instead of stopping the suite."""

import os
import sys
import threading
import time

import numpy as np
import pmt
from gnuradio import gr, blocks


def run_with_timeout(tb, seconds=60):
    """runs tb; fails (AssertionError) if it does not finish within `seconds`"""
    tb.start()
    done = threading.Event()

    def waiter():
        tb.wait()
        done.set()

    threading.Thread(target=waiter, daemon=True).start()
    if not done.wait(seconds):
        tb.stop()
        raise AssertionError("flowgraph did not finish within %d s (hang)" % seconds)


def decode_pdus(dec, pdus, timeout=30, expect=None):
    """posts each PDU to the block's "pdus" port and returns the PDUs it publishes (waits for
    `expect` of them, as many as were posted by default, `timeout` seconds at most)"""
    tb = gr.top_block()
    dbg = blocks.message_debug()
    tb.msg_connect((dec, "pdus"), (dbg, "store"))
    tb.start()
    for p in pdus:
        dec.to_basic_block()._post(pmt.intern("pdus"), p)
    t0 = time.time()
    want = len(pdus) if expect is None else expect
    while dbg.num_messages() < want and time.time() - t0 < timeout:
        time.sleep(0.01)
    time.sleep(0.05)  # anything more that should not come
    stopper = threading.Thread(target=lambda: (tb.stop(), tb.wait()), daemon=True)
    stopper.start()
    stopper.join(timeout)
    if stopper.is_alive():  # a hung block: fail the test file rather than hang the suite
        print("FAIL: the flowgraph did not stop within %d s" % timeout, file=sys.stderr, flush=True)
        os._exit(1)
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


def run_decoder(dec, soft, float_input=True, chunk=None, out_buffer=None, tags=None, timeout=60):
    """soft values -> (copy limited to `chunk` items per call) -> dec -> sink.
    out_buffer: set_max_output_buffer of the decoder. tags: stream tags on the input.
    Returns (output as uint8 array, output tags)."""
    tb = gr.top_block()
    if float_input:
        src = blocks.vector_source_f(np.asarray(soft, dtype=np.float32).tolist(), False, 1, tags or [])
        cp = blocks.copy(gr.sizeof_float)
    else:
        src = blocks.vector_source_b([int(v) & 0xFF for v in soft], False, 1, tags or [])
        cp = blocks.copy(gr.sizeof_char)
    if chunk:
        cp.set_max_noutput_items(chunk)
    if out_buffer:
        dec.set_max_output_buffer(out_buffer)
    snk = blocks.vector_sink_b()
    tb.connect(src, cp, dec, snk)
    run_with_timeout(tb, timeout)
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


def encode_with(encoder, bits):
    """bits (0/1) through an encoder block; returns the coded bits as a uint8 array"""
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(np.asarray(bits, dtype=np.uint8).tolist()), encoder, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def bpsk(coded, sigma=0.0, seed=1):
    """code bits -> BPSK values (bit 1 -> +1), plus Gaussian noise of `sigma` if given"""
    x = 2.0 * np.asarray(coded, dtype=np.float32) - 1.0
    if sigma:
        x = x + np.random.default_rng(seed).normal(0, sigma, len(x)).astype(np.float32)
    return x


def dtv_code(dtv, code):
    """gr-dtv's FECFRAME size and code rate constants for a dvbs2 code id ("dvbs2:16200:3/5" ->
    (dtv.FECFRAME_SHORT, dtv.C3_5); the VL-SNR codes: "dvbs2:64800:2/9" -> C2_9_VLSNR,
    "dvbs2:32400:1/5" -> (FECFRAME_MEDIUM, C1_5_MEDIUM), "dvbs2:16200:1/5-vlsnr-sf2" ->
    C1_5_VLSNR_SF2)"""
    _, n, rate = code.split(":")
    frame = {"64800": dtv.FECFRAME_NORMAL, "32400": dtv.FECFRAME_MEDIUM, "16200": dtv.FECFRAME_SHORT}[n]
    name = "C" + rate.split("-")[0].replace("/", "_")
    if n == "32400":
        name += "_MEDIUM"
    elif "-vlsnr" in rate or rate == "2/9":
        name += "_VLSNR" + ("_SF2" if rate.endswith("-sf2") else "")
    return frame, getattr(dtv, name)
