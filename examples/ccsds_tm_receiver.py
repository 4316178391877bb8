#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""CCSDS telemetry from a file of soft symbols to transfer frames (docs/ccsds_tm.md).

  ccsds_tm_receiver.py decode RECORDING.f32 [--out frames.bin] [--interleave 5] ...
      float32 soft symbols (positive = bit 1, amplitude about 1) -> ccsds_tm_receiver ->
      the transfer frames that decoded, back to back, in --out; prints what the sync and the
      Reed-Solomon (or LDPC: --code ccsds:8160:7136 --interleave 1) decoder saw.
  ccsds_tm_receiver.py make-recording RECORDING.f32 [--frames 200] [--ebn0 3] [--offset 1234]
      [--inverted] [--other-convention]
      a synthetic recording to try it on: random transfer frames (their bytes in
      RECORDING.f32.frames) through ccsds_tm_encoder, BPSK and Gaussian noise, starting at a
      symbol offset, optionally inverted (180 degrees) or with G2 sent uninverted.
  ccsds_tm_receiver.py selftest
      both, in a temporary directory, and a check that the frames come back: Reed-Solomon under
      the convolutional code (inverted; G2 uninverted), C2 LDPC and turbo (CI runs this).
"""

import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, gr
from gnuradio import gpufec


def layout_args(p):
    p.add_argument("--code", default="ccsds:255:223", choices=gpufec.ccsds_tm_codes(),
                   help="Reed-Solomon, or LDPC (C2 ccsds:8160:7136, AR4JA ccsds:<n>:<k>) or turbo (ccsds:<K>:1/<r>), "
                   "with --interleave 1")
    p.add_argument("--interleave", type=int, default=5, help="interleaving depth I (1-8; 1 for LDPC)")
    p.add_argument("--conv", default="default",
                   help="inner code preset (ccsds, nasa-dsn, ..., none; default: ccsds for Reed-Solomon, none for LDPC)")


def make_recording(a):
    rng = np.random.default_rng(a.seed)
    enc = gpufec.ccsds_tm_stream_encoder(code=a.code, interleave=a.interleave, conv=a.conv)
    frames = rng.integers(0, 256, (a.frames, enc.frame_bytes()), dtype=np.uint8)
    frames = gpufec.ccsds_fecf_set(frames.ravel(), enc.frame_bytes())  # a valid FECF in each
    bits = enc.encode(frames)
    s = bits.astype(np.float32) * 2 - 1
    if a.other_convention:
        s[1::2] *= -1
    if a.inverted:
        s = -s
    s = np.concatenate([rng.choice(np.array([-1, 1], np.float32), a.offset), s])
    # Eb/N0 per transfer-frame bit: each channel symbol carries frame_bytes * 8 / cadu_symbols
    info_per_symbol = enc.frame_bytes() * 8 / enc.cadu_symbols()
    esn0 = 10 ** (a.ebn0 / 10) * info_per_symbol
    s += rng.normal(0, math.sqrt(1 / (2 * esn0)), len(s)).astype(np.float32)
    s.astype(np.float32).tofile(a.recording)
    frames.tofile(a.recording + ".frames")
    print("%s: %d symbols (%d CADUs, Eb/N0 %.1f dB, Es/N0 %.2f dB, offset %d%s%s)" %
          (a.recording, len(s), a.frames, a.ebn0, 10 * math.log10(esn0), a.offset,
           ", inverted" if a.inverted else "", ", G2 uninverted" if a.other_convention else ""))


def decode(a):
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_float, a.recording, False)
    rx = gpufec.ccsds_tm_receiver(code=a.code, interleave=a.interleave, conv=a.conv, fecf=a.fecf,
                                  device=a.device, pass_failed=a.pass_failed)
    frames = blocks.message_debug()
    tb.connect(src, rx)
    tb.msg_connect(rx, "frames", frames, "store")
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0
    got = []
    import pmt
    for i in range(frames.num_messages()):
        m = frames.get_message(i)
        got.append((pmt.to_python(pmt.car(m)), bytes(pmt.u8vector_elements(pmt.cdr(m)))))
    st = rx.stats()
    print("sync: %d acquisitions (%s), %d losses, %d slips, %d flywheel CADUs, %d symbols skipped" %
          (st["sync_acquisitions"], st["sync_ambiguity"] or "-", st["sync_losses"], st["sync_slips"],
           st["sync_flywheel"], st["sync_skipped_symbols"]))
    family = gpufec.ccsds_tm_decoder_options(a.code, a.interleave)[0]
    corrected = {"rs": ", %d symbols corrected", "ldpc": ", %d information bits corrected"}.get(family, "")
    print("frames: %d CADUs checked, %d out, %d %s failures, %d FECF failures%s; %.2f s (%s)"
          % (st["cadus"], st["frames"], st["codeblock_failed"], {"rs": "Reed-Solomon", "ldpc": "LDPC"}.get(family, family),
             st["fecf_failed"], corrected % st["corrected"] if corrected else "", dt, st["backend"]))
    if "mean_iterations" in st:
        print("%s: %.2f iterations a codeword on average" % (family, st["mean_iterations"]))
    if a.out:
        with open(a.out, "wb") as f:
            for _, body in got:
                f.write(body)
    return got, st


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("decode")
    d.add_argument("recording")
    d.add_argument("--out")
    d.add_argument("--fecf", action="store_true", help="check each frame's CRC-16")
    d.add_argument("--pass-failed", action="store_true")
    d.add_argument("--device", default="auto")
    layout_args(d)
    m = sub.add_parser("make-recording")
    m.add_argument("recording")
    m.add_argument("--frames", type=int, default=200)
    m.add_argument("--ebn0", type=float, default=3.0, help="Eb/N0 per transfer-frame bit, dB")
    m.add_argument("--offset", type=int, default=1234, help="random symbols before the first CADU")
    m.add_argument("--inverted", action="store_true")
    m.add_argument("--other-convention", action="store_true")
    m.add_argument("--seed", type=int, default=1)
    layout_args(m)
    s = sub.add_parser("selftest")
    s.add_argument("--device", default="auto")
    a = p.parse_args()
    if a.cmd == "make-recording":
        make_recording(a)
    elif a.cmd == "decode":
        decode(a)
    else:
        tmp = tempfile.mkdtemp()
        rec = os.path.join(tmp, "pass.f32")
        failures = 0
        # (name, code, interleave, Eb/N0, inverted, G2 uninverted)
        for name, code, depth, ebn0, inverted, other in (
                ("RS + convolutional, inverted", "ccsds:255:223", 5, 3.0, True, False),
                ("RS + convolutional, G2 uninverted", "ccsds:255:223", 5, 3.0, False, True),
                ("C2 LDPC, inverted", "ccsds:8160:7136", 1, 4.5, True, False),
                ("turbo K = 1784 rate 1/4", "ccsds:1784:1/4", 1, 2.5, False, False)):
            make_recording(argparse.Namespace(recording=rec, frames=12, ebn0=ebn0, offset=4321, inverted=inverted,
                                              other_convention=other, seed=7, code=code, interleave=depth,
                                              conv="default"))
            got, st = decode(argparse.Namespace(recording=rec, out=None, fecf=True, pass_failed=False,
                                                device=a.device, code=code, interleave=depth, conv="default"))
            sent = np.fromfile(rec + ".frames", np.uint8).reshape(12, -1)
            # every CADU comes back, in order (the last one too: the recording ends with it)
            ok = len(got) == 12 and all(meta["cadu"] == i and body == sent[i].tobytes()
                                        for i, (meta, body) in enumerate(got))
            print("selftest (%s): %s" % (name, "pass" if ok else "FAIL"))
            failures += not ok
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
