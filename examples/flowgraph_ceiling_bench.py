#!/usr/bin/env python3
#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Decoder blocks in a flowgraph beside GNU Radio's own ceiling, measured in the same run.

    file_source (soft values in RAM, repeating) -> head -> decoder -> null_sink     (decoder)
    file_source (the same)                      -> head ->            null_sink     (ceiling)

Both move the same number of soft values; the ceiling is stated in decoded bits per second
(soft values per second times decoded bits per soft value), so the ratio says how much of what
GNU Radio can carry the decoder delivers. The decoder blocks keep their default buffer
settings; the source and head get 4 MiB buffers in both graphs. Prints one line per case and
writes CSV rows with --csv."""

import argparse
import csv
import os
import tempfile
import time

import numpy as np
from gnuradio import blocks, gr
from gnuradio import gpufec

BUF = 4 << 20


def make_soft(kind, n_values, int8, rng):
    """random codewords / stream of the decoder's code, BPSK at a comfortable SNR (SCPPM: photon
    counts), as int8 or float"""
    if kind[0] == "ccsds-tm":  # a CCSDS telemetry stream (RS (255, 223) I = 5, K = 7 rate 1/2; or C2)
        enc = gpufec.ccsds_tm_stream_encoder(code=kind[1], interleave=kind[2])
        frames = max(2, n_values // enc.cadu_symbols())
        coded = enc.encode(rng.integers(0, 256, frames * enc.frame_bytes(), dtype=np.uint8)).astype(np.float32)
    elif kind == "viterbi":
        bits = rng.integers(0, 2, n_values // 2, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), gpufec.conv_encoder("ccsds"), snk)
        tb.run()
        coded = np.array(snk.data(), dtype=np.float32)
    elif kind[0] == "scppm":  # photon counts of M=16 rate-2/3 codewords at Ks 4.25 dB, Kb 0.2
        code, n, k = kind
        frames = max(1, n_values // n)
        bits = rng.integers(0, 2, frames * k, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist()), gpufec.scppm_encoder(M=16, rate="2/3"), snk)
        tb.run()
        slots = np.array(snk.data(), dtype=np.float64)
        counts = rng.poisson(0.2 + 10 ** 0.425 * slots)
        return np.minimum(counts, 127).astype(np.int8) if int8 else counts.astype(np.float32)
    else:
        code, n, k = kind
        frames = max(1, n_values // n)
        bits = rng.integers(0, 2, frames * k, dtype=np.uint8)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        if code == "turbo":
            enc = gpufec.turbo_encoder(K=k)
        elif code.startswith("dvbs2"):  # DVB-S2 FECFRAMEs: BCH, then LDPC
            enc = gpufec.ldpc_encoder(code, outer="bch")
        else:
            enc = gpufec.ldpc_encoder(code)
        tb.connect(blocks.vector_source_b(bits.tolist()), enc, snk)
        tb.run()
        coded = np.array(snk.data(), dtype=np.float32)
    sigma = kind[3] if kind[0] == "ccsds-tm" else 0.5
    x = 2 * coded - 1 + rng.normal(0, sigma, len(coded)).astype(np.float32)
    return np.clip(np.round(32 * x), -127, 127).astype(np.int8) if int8 else x.astype(np.float32)


def run_graph(path, itemsize, total, block=None, out_itemsize=1):
    tb = gr.top_block()
    src = blocks.file_source(itemsize, path, True)
    head = blocks.head(itemsize, total)
    for b in (src, head):
        b.set_min_output_buffer(BUF // itemsize)
    if block is None:
        snk = blocks.null_sink(itemsize)
        tb.connect(src, head, snk)
    elif out_itemsize == 0:  # a block whose output is messages (left unconnected)
        tb.connect(src, head, block)
    else:
        snk = blocks.null_sink(out_itemsize)
        tb.connect(src, head, block, snk)
    t0 = time.perf_counter()
    tb.run()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--values", type=float, default=2e9, help="soft values per run (default 2e9)")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--cases", default="all", help="comma list: vit-int8,vit-int8-packed,vit-float,"
                    "ldpc-int8,ldpc-int8-packed,ldpc-float,ldpc-int8-alltags,ldpc-dvbs2-bch,ldpc-ar4ja,turbo-int8,turbo-int8-packed,"
                    "turbo-int8-lanes8,"
                    "scppm-int8,scppm-float,ccsds-tm,ccsds-tm-c2,ccsds-tm-ar4ja,ccsds-tm-turbo")
    ap.add_argument("--max-batch", type=int, default=0,
                    help="the decoder blocks' max_batch (default 0: each block's own choice)")
    ap.add_argument("--csv")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    ldpc = ("802.16e:2304:1/2", 2304, 1152)
    dvbs2 = ("dvbs2:64800:1/2", 64800, 32208)  # LDPC and its BCH: K_bch bits out
    ar4ja = ("ccsds:32768:16384", 32768, 16384)  # CCSDS AR4JA k = 16384 rate 1/2, as sent
    turbo = ("turbo", 18444, 6144)  # LTE K = 6144, 6 iterations, max-log int8
    scppm = ("scppm", 60480, 10046)  # M = 16, rate 2/3: photon counts, max-log, 32 iterations at most
    # (code, depth, noise deviation): 8920 frame bits a CADU of 20464 symbols; 7136 of 8192 (C2
    # at Eb/N0 5.5 dB: few failures at 10 iterations); 16384 of 32800
    tm_rs = ("ccsds-tm", "ccsds:255:223", 5, 0.5)
    tm_c2 = ("ccsds-tm", "ccsds:8160:7136", 1, 0.4)
    tm_ar4ja = ("ccsds-tm", "ccsds:32768:16384", 1, 0.7)  # AR4JA k = 16384 rate 1/2 at Eb/N0 3.1 dB
    tm_turbo = ("ccsds-tm", "ccsds:8920:1/2", 1, 0.65)  # turbo K = 8920 rate 1/2 at Eb/N0 3.7 dB
    cases = {
        "vit-int8": ("viterbi", True, False, {}),
        "vit-int8-packed": ("viterbi", True, True, {}),
        "vit-float": ("viterbi", False, False, {}),
        "ldpc-int8": (ldpc, True, False, {}),
        "ldpc-int8-packed": (ldpc, True, True, {}),
        "ldpc-int8-alltags": (ldpc, True, False, {"status_tags": "all"}),
        "ldpc-float": (ldpc, False, False, {}),
        "ldpc-dvbs2-bch": (dvbs2, True, False, {"outer": "bch"}),
        "ldpc-ar4ja": (ar4ja, True, False, {}),
        "turbo-int8": (turbo, True, False, {}),
        "turbo-int8-packed": (turbo, True, True, {}),
        # int8 metrics (precision="int8": the CPU only, 64 frames a vector, its own bits)
        "turbo-int8-lanes8": (turbo, True, False, {"precision": "int8"}),
        "scppm-int8": (scppm, True, False, {}),
        "scppm-float": (scppm, False, False, {}),
        # the CCSDS telemetry receiver (sync, Viterbi, de-randomizer, Reed-Solomon, frames as
        # PDUs; or sync, de-randomizer, LDPC C2 at 10 iterations): float symbols in, stated in
        # transfer-frame bits
        "ccsds-tm": (tm_rs, False, False, {}),
        "ccsds-tm-c2": (tm_c2, False, False, {}),
        "ccsds-tm-ar4ja": (tm_ar4ja, False, False, {}),
        "ccsds-tm-turbo": (tm_turbo, False, False, {}),
    }
    names = list(cases) if args.cases == "all" else args.cases.split(",")
    tmp = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    files = {}
    rows = []
    for name in names:
        kind, int8, packed, extra = cases[name]
        key = (str(kind), int8)
        if key not in files:
            soft = make_soft(kind, 1 << 24, int8, rng)  # 16 Mi values, repeated by the source
            path = os.path.join(tmp, "soft_%d.bin" % len(files))
            soft.tofile(path)
            files[key] = path
        itemsize = 1 if int8 else 4
        tm = kind[0] == "ccsds-tm"
        if tm:
            enc = gpufec.ccsds_tm_stream_encoder(code=kind[1], interleave=kind[2])
            bits_per_value = enc.frame_bytes() * 8 / enc.cadu_symbols()
        else:
            bits_per_value = 0.5 if kind == "viterbi" else kind[2] / kind[1]
        total = int(args.values)
        if kind != "viterbi" and not tm:
            total -= total % kind[1]
        ceil_t, dec_t = [], []
        backend = ""
        mb = {} if tm else {"max_batch": args.max_batch}
        for _ in range(args.reps):
            ceil_t.append(run_graph(files[key], itemsize, total))
            if kind == scppm:
                blk = gpufec.scppm_decoder(M=16, rate="2/3", device=args.device, packed_output=packed,
                                           input_type="int8" if int8 else "float", **mb)
            elif kind == turbo:
                blk = gpufec.turbo_decoder(K=kind[2], device=args.device, packed_output=packed,
                                           input_type="int8" if int8 else "float", **mb, **extra)
            elif kind == "viterbi":
                blk = gpufec.viterbi_decoder("ccsds", device=args.device, packed_output=packed,
                                             input_type="int8" if int8 else "float", **mb)
            elif tm:
                blk = gpufec.ccsds_tm_receiver(code=kind[1], interleave=kind[2], device=args.device)
            else:
                blk = gpufec.ldpc_decoder(kind[0], max_iterations=10, early_termination=False,
                                          precision="int8", device=args.device, packed_output=packed,
                                          input_type="int8" if int8 else "float", **mb, **extra)
            backend = blk.stats()["backend"] if tm else blk.backend()
            dec_t.append(run_graph(files[key], itemsize, total, blk, 0 if tm else 1))
            if tm:
                st = blk.stats()
                backend += ", %d frames, %d codeblock failures, %d acquisitions" % (
                    st["frames"], st["codeblock_failed"], st["sync_acquisitions"])
        ceil = total * bits_per_value / min(ceil_t) / 1e9
        dec = total * bits_per_value / min(dec_t) / 1e9
        row = {"case": name, "device": backend, "max_batch": args.max_batch, "soft_values": total, "ceiling_gbps": round(ceil, 3),
               "decoder_gbps": round(dec, 3), "ratio": round(dec / ceil, 3),
               "ceiling_GBps_input": round(total * itemsize / min(ceil_t) / 1e9, 2)}
        rows.append(row)
        print("%-18s ceiling %6.2f Gb/s (%5.2f GB/s of input)  decoder %6.2f Gb/s  = %3.0f%%   [%s]" %
              (name, ceil, row["ceiling_GBps_input"], dec, 100 * dec / ceil, backend), flush=True)
    if args.csv:
        new = not os.path.exists(args.csv)
        with open(args.csv, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            if new:
                w.writeheader()
            w.writerows(rows)
    for p in files.values():
        os.unlink(p)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
