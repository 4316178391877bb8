#!/usr/bin/env python3
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CPU Viterbi figure beside its anchor, on one core, in one run: VOLK's K = 7 rate-1/2
add-compare-select kernel (volk_8u_x4_conv_k7_r2_8u, what gr-fec's cc_decoder runs for the
CCSDS code; its traceback is not counted, so the anchor is the kinder one) and gr-gpufec's CPU
decoder of the same code (gpufec_bench -f viterbi -d cpu, cpu_threads=1, streaming: the whole
decode, traceback included), alternating.

    /usr/bin/python3 scripts/viterbi_cpu_anchor.py BUILD/apps/gpufec_bench [--reps 3] [--bits N]

Both in decoded information bits per second. Needs libvolk (Debian's libvolk2.5, which GNU Radio
brings) and numpy."""
import argparse
import ctypes
import ctypes.util
import os
import re
import subprocess
import time

import numpy as np


def volk_kernel():
    name = ctypes.util.find_library("volk") or "libvolk.so"
    lib = ctypes.CDLL(name)
    proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p)
    # the dispatcher: a function pointer VOLK sets to the best implementation for this machine
    return proto(ctypes.c_void_p.in_dll(lib, "volk_8u_x4_conv_k7_r2_8u").value)


def parity(x):
    return bin(x).count("1") & 1


def volk_mbps(kernel, bits, reps):
    """Median Mb/s of the kernel over `bits` stages (one bit a stage), gr-fec's layout: two
    offset-binary symbols a stage, 64 decision bits a stage, the CCSDS polynomials' branch table
    (gr-fec's cc_decoder: entry i of polynomial p is 255 when (2i & p) has odd parity)."""
    excess = 6
    rng = np.random.default_rng(1)
    syms = rng.integers(0, 256, size=2 * (bits + excess), dtype=np.uint8)
    dec = np.zeros(8 * (bits + excess), dtype=np.uint8)
    x = np.zeros(64, dtype=np.uint8)
    y = np.zeros(64, dtype=np.uint8)
    polys = (79, 109)
    table = np.array([255 if parity((2 * i) & p) else 0 for p in polys for i in range(32)], dtype=np.uint8)
    ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)
    times = []
    for _ in range(reps + 1):  # (the first warms up)
        x[:] = 0
        y[:] = 0
        t0 = time.perf_counter()
        kernel(ptr(y), ptr(x), ptr(syms), ptr(dec), bits, excess, ptr(table))
        times.append(time.perf_counter() - t0)
    return bits / sorted(times[1:])[len(times[1:]) // 2] / 1e6


def ours_mbps(bench, bits):
    out = subprocess.run([bench, "-f", "viterbi", "-o", "code=ccsds, mode=streaming, cpu_threads=1", "-d", "cpu",
                          "--bits", str(bits), "--no-latency"], capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.startswith("cpu")][-1]
    # columns after the engine's name: frames, bits, ms, Gb/s host to host, ...
    fields = re.split(r"\s{2,}", line.strip())
    return float(fields[4]) * 1000.0, line


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", help="gpufec_bench")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--bits", type=int, default=1 << 22)
    a = ap.parse_args()
    kernel = volk_kernel()
    print(f"# one core ({os.uname().machine}), {a.bits} information bits a run; Mb/s")
    for _ in range(a.reps):
        print(f"VOLK volk_8u_x4_conv_k7_r2_8u (add-compare-select only): {volk_mbps(kernel, a.bits, 5):.1f}")
        mbps, line = ours_mbps(a.bench, a.bits)
        print(f"gr-gpufec CPU streaming decoder (traceback included): {mbps:.1f}   [{line}]")


if __name__ == "__main__":
    main()
