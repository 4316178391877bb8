/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CUDA turbo engines' CRC check and early stop over packed decisions (a report per frame:
 * iterations 0 while the frame runs). Included by each engine's .cu file; the kernel lives in an
 * unnamed namespace, one copy per file. */
#ifndef INCLUDED_GPUFEC_TURBO_CRC_CUDA_CUH
#define INCLUDED_GPUFEC_TURBO_CRC_CUDA_CUH

#include <gnuradio/gpufec/core/codes/crc.h>

#include "turbo_engine.h"
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpufec {
namespace {

/* The CRC of a code block, linear in the message: lane j of the warp owning a frame takes a
 * run of the data bytes, divides it from a zero register (a 256-entry table, MSB first), and
 * moves the remainder past the bytes after its run by multiplying it with x^(8 after) mod G
 * (lane_shift[j], from the host); the lanes' remainders XOR to the CRC of the data from a zero
 * register, and the CRC of as many zero bytes (with the spec's preset and final XOR) completes it. */
//! the constants that follow from K (a launch over frames of several K takes a table of them)
struct crc_k {
    int data_bytes = 0, bytes = 0;
    uint32_t zero_crc = 0;
    uint32_t lane_shift[32];
};

struct crc_gpu {
    int width = 0, max_iterations = 0, early = 0;
    uint32_t poly = 0, mask = 0;
    uint32_t table[256];
    crc_k k; // for the K make_crc_gpu was given
};

__device__ __forceinline__ uint32_t crc_mulmod(uint32_t a, uint32_t b, const crc_gpu& c)
{
    uint32_t r = 0;
    for (int i = c.width - 1; i >= 0; --i) {
        const uint32_t top = (r >> (c.width - 1)) & 1u;
        r = (r << 1) & c.mask;
        if (top)
            r ^= c.poly;
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}

/*! after iteration `it`: a warp per frame still running checks its CRC (c.width 0: no CRC) and
 *  completes its report when it passes (early stop) or at the last iteration. A frame's
 *  decisions are `stride` bytes after the one before (0: c.bytes, a frame's own); where per_k is
 *  given, frame f's K-dependent constants are per_k[k_of[f]] rather than c's (frames of several K) */
__global__ void turbo_crc_kernel(const uint8_t* bits, int frames, int it, const __grid_constant__ crc_gpu c,
                                 frame_status* report, int stride = 0, const crc_k* per_k = nullptr,
                                 const int* k_of = nullptr)
{
    __shared__ uint32_t table[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        table[i] = c.table[i];
    __syncthreads();
    const int f = int((blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = int(threadIdx.x % 32);
    if (f >= frames || report[f].iterations != 0)
        return;
    const bool last = it == c.max_iterations;
    if (c.width == 0) {
        if (lane == 0 && last)
            report[f] = frame_status{ int32_t(it), -1, 0 };
        return;
    }
    const crc_k& k = per_k ? per_k[k_of[f]] : c.k;
    const int data_bytes = k.data_bytes;
    const uint8_t* p = bits + size_t(f) * size_t(stride ? stride : c.k.bytes);
    const int run = (data_bytes + 31) / 32, b0 = min(lane * run, data_bytes), b1 = min(b0 + run, data_bytes);
    uint32_t reg = 0;
    for (int i = b0; i < b1; ++i)
        reg = ((reg << 8) ^ table[((reg >> (c.width - 8)) ^ p[i]) & 0xFFu]) & c.mask;
    reg = crc_mulmod(reg, k.lane_shift[lane], c);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        reg ^= __shfl_xor_sync(0xFFFFFFFFu, reg, o);
    if (lane == 0) {
        uint32_t sent = 0;
        for (int i = data_bytes; i < k.bytes; ++i)
            sent = sent << 8 | p[i];
        const bool ok = (reg ^ k.zero_crc) == sent;
        if ((ok && c.early) || last)
            report[f] = frame_status{ int32_t(it), int8_t(ok), 0 };
    }
}

//! the CRC kernel's constants for code blocks of K bits (width 0 without a CRC)
crc_gpu make_crc_gpu(const turbo_options& o, int K)
{
    crc_gpu c{};
    c.max_iterations = o.max_iterations;
    c.early = o.early_termination ? 1 : 0;
    c.k.bytes = K / 8;
    if (o.crc.empty())
        return c;
    const crc_spec spec = crc_spec::named(o.crc);
    c.width = spec.width;
    c.poly = spec.poly;
    c.mask = spec.width == 32 ? 0xFFFFFFFFu : (1u << spec.width) - 1;
    c.k.data_bytes = (K - spec.width) / 8;
    auto times_x = [&](uint32_t r) { return ((r << 1) & c.mask) ^ (((r >> (c.width - 1)) & 1u) ? c.poly : 0u); };
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t r = i << (c.width - 8);
        for (int b = 0; b < 8; ++b)
            r = times_x(r);
        c.table[i] = r & c.mask;
    }
    const int run = (c.k.data_bytes + 31) / 32;
    for (int lane = 0; lane < 32; ++lane) {
        const int after = c.k.data_bytes - std::min((lane + 1) * run, c.k.data_bytes);
        uint32_t r = 1; // x^0
        for (int b = 0; b < 8 * after; ++b)
            r = times_x(r);
        c.k.lane_shift[lane] = r;
    }
    const std::vector<uint8_t> zeros(size_t(c.k.data_bytes), 0);
    c.k.zero_crc = crc_bytes(spec, zeros.data(), zeros.size());
    return c;
}

} // namespace
} // namespace gpufec

#endif
