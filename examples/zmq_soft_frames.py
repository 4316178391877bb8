#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Soft frames from a receiving flowgraph to a decoding flowgraph on another host, through GNU
Radio's ZeroMQ blocks (PUSH/PULL over TCP: reliable and in order, so frame boundaries hold
without tags).

  receiving host:  zmq_soft_frames.py send --bind tcp://*:5557
  decoding host:   zmq_soft_frames.py decode --connect tcp://RECEIVER:5557 --frames 100000
  one machine:     zmq_soft_frames.py loopback --frames 20000     (both, as two processes)

send: the receiving side. Its demodulator is stood in for by LDPC codewords over BPSK/AWGN at
--ebn0, made once (--distinct frames, repeated) and quantised to int8 soft values (1 byte per
code bit: a quarter of what float would put on the wire). It streams until stopped.

decode: pulls --frames codewords' soft values, decodes them with gpufec.ldpc_decoder (int8
input, the GPU where there is one) and reports the information bit rate, the failed syndromes,
and, with --check, the bit errors against the frames the sender made (same seed). --no-decoder
measures what the ZeroMQ link alone carries (the ceiling). A link that stops delivering for
--idle seconds ends the run with an error instead of a hang.
"""

import argparse
import math
import subprocess
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, gr, zeromq

try:
    from gnuradio import gpufec
except ImportError:  # pragma: no cover - reported below
    gpufec = None


def make_frames(code, frames, ebn0, seed):
    """info bits (frames x k) and int8 soft values (frames x n): LDPC over BPSK/AWGN"""
    enc = gpufec.ldpc_encoder(code)
    k, n = enc.info_bits(), enc.codeword_bits()
    rng = np.random.default_rng(seed)
    info = rng.integers(0, 2, size=frames * k, dtype=np.uint8)
    tb = gr.top_block()
    src, snk = blocks.vector_source_b(info.tolist()), blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    cw = np.array(snk.data(), dtype=np.float32)
    sigma = math.sqrt(1.0 / (2 * (k / n) * 10 ** (ebn0 / 10)))
    y = (2 * cw - 1) + rng.normal(0, sigma, size=cw.size).astype(np.float32)
    soft = np.clip(np.rint(32 * y), -127, 127).astype(np.int8)
    return info.reshape(frames, k), soft, k, n


def send(a):
    _, soft, k, n = make_frames(a.code, a.distinct, a.ebn0, a.seed)
    tb = gr.top_block("receiving flowgraph")
    src = blocks.vector_source_b(soft.view(np.uint8).tolist(), repeat=True)
    push = zeromq.push_sink(gr.sizeof_char, 1, a.bind, 100, False, a.hwm)
    if a.frames:
        tb.connect(src, blocks.head(gr.sizeof_char, a.frames * n), push)
    else:
        tb.connect(src, push)
    print("send: %s, %d distinct frames at Eb/N0 %.1f dB, int8 soft values to %s"
          % (a.code, a.distinct, a.ebn0, a.bind), flush=True)
    tb.start()
    try:
        tb.wait()
    except KeyboardInterrupt:
        tb.stop()
        tb.wait()


def decode(a):
    enc = gpufec.ldpc_encoder(a.code)
    k, n = enc.info_bits(), enc.codeword_bits()
    tb = gr.top_block("decoding flowgraph")
    pull = zeromq.pull_source(gr.sizeof_char, 1, a.connect, 100, False, a.hwm)
    head = blocks.head(gr.sizeof_char, a.frames * n)
    tb.connect(pull, head)
    dec, got = None, None
    if a.no_decoder:
        counted = blocks.null_sink(gr.sizeof_char)
        tb.connect(head, counted)
    else:
        dec = gpufec.ldpc_decoder(a.code, max_iterations=a.iterations, early_termination=True,
                                  device=a.device, input_type="int8", precision="int8",
                                  packed_output=not a.check)
        got = blocks.vector_sink_b() if a.check else blocks.null_sink(gr.sizeof_char)
        tb.connect(head, dec, got)
    done = threading.Event()
    first = [None]
    t0 = time.perf_counter()
    tb.start()
    waiter = threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True)
    waiter.start()
    last, last_change = -1.0, time.perf_counter()
    while not done.wait(0.02):  # the link may stall: give up after --idle seconds without data
        seen = head.nitems_written(0) if hasattr(head, "nitems_written") else 0
        if seen and first[0] is None:
            first[0] = time.perf_counter()
        if seen != last:
            last, last_change = seen, time.perf_counter()
        elif time.perf_counter() - last_change > a.idle:
            tb.stop()
            sys.exit("decode: no data for %.0f s after %d of %d soft values (is the sender running "
                     "at %s?)" % (a.idle, seen, a.frames * n, a.connect))
    t1 = time.perf_counter()
    start = first[0] if first[0] is not None else t0
    dt = max(t1 - start, 1e-9)
    bits = a.frames * k
    what = "ZeroMQ link alone" if a.no_decoder else "decoded"
    print("decode: %d frames of %s (%d information bits) in %.3f s: %.3f Gb/s of information bits "
          "%s, %.2f GB/s of int8 soft values over the link"
          % (a.frames, a.code, bits, dt, bits / dt / 1e9, what, a.frames * n / dt / 1e9))
    if dec is not None:
        print("decode: backend %s; %d frames, %d failed syndromes, mean iterations %.2f"
              % (dec.backend(), dec.frames(), dec.failed_frames(), dec.mean_iterations()))
        if dec.frames() != a.frames:
            sys.exit("decode: %d frames decoded, %d expected" % (dec.frames(), a.frames))
    if a.check:
        info, _, _, _ = make_frames(a.code, a.distinct, a.ebn0, a.seed)
        out = np.array(got.data(), dtype=np.uint8).reshape(a.frames, k)
        ref = np.resize(info, (a.frames, k))  # the sender repeats its frames
        errors = int(np.count_nonzero(out != ref))
        print("decode: %d bit errors in %d information bits (frames in order)" % (errors, bits))
        if errors > a.max_errors:
            sys.exit("decode: more bit errors than --max-errors %d" % a.max_errors)


def loopback(a):
    port = a.port
    common = ["--code", a.code, "--ebn0", str(a.ebn0), "--distinct", str(a.distinct), "--seed", str(a.seed)]
    me = [sys.executable, __file__]
    dec_cmd = me + ["decode", "--connect", "tcp://127.0.0.1:%d" % port, "--frames", str(a.frames),
                    "--device", a.device, "--idle", str(a.idle)] + common
    if a.check:
        dec_cmd.append("--check")
    if a.no_decoder:
        dec_cmd.append("--no-decoder")
    sender = subprocess.Popen(me + ["send", "--bind", "tcp://*:%d" % port] + common)
    try:
        rc = subprocess.call(dec_cmd)
    finally:
        sender.terminate()
        try:
            sender.wait(10)
        except subprocess.TimeoutExpired:
            sender.kill()
    sys.exit(rc)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="role", required=True)
    roles = {r: sub.add_parser(r) for r in ("send", "decode", "loopback")}
    for r, q in roles.items():
        q.add_argument("--code", default="802.16e:2304:1/2", help="LDPC code (gpufec.ldpc_encoder)")
        q.add_argument("--ebn0", type=float, default=3.0, help="Eb/N0 of the sent frames, dB")
        q.add_argument("--distinct", type=int, default=64, help="distinct frames the sender repeats")
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--hwm", type=int, default=-1, help="ZeroMQ high-water mark (-1: its default)")
    roles["send"].add_argument("--bind", default="tcp://*:5557")
    roles["send"].add_argument("--frames", type=int, default=0, help="stop after this many (0: never)")
    roles["decode"].add_argument("--connect", default="tcp://127.0.0.1:5557")
    roles["loopback"].add_argument("--port", type=int, default=5557, help="TCP port on 127.0.0.1")
    for r in ("decode", "loopback"):
        q = roles[r]
        q.add_argument("--frames", type=int, default=20000, help="frames to decode")
        q.add_argument("--device", default="auto")
        q.add_argument("--check", action="store_true", help="compare the decoded bits with the sent ones")
        q.add_argument("--no-decoder", action="store_true", help="the link alone (the ceiling)")
        q.add_argument("--idle", type=float, default=20.0, help="seconds without data before giving up")
    roles["decode"].add_argument("--iterations", type=int, default=10)
    roles["decode"].add_argument("--max-errors", type=int, default=0, help="--check: bit errors allowed")
    a = p.parse_args()
    if gpufec is None:
        sys.exit("gnuradio.gpufec is not importable (install gr-gpufec, or set PYTHONPATH)")
    {"send": send, "decode": decode, "loopback": loopback}[a.role](a)


if __name__ == "__main__":
    main()
