/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* philox_many (philox_lanes.h): the 10 rounds on vectors of counters. A round's two 32 x 32 ->
 * 64-bit products are formed in 64-bit lanes (one multiply instruction for the even and one for
 * the odd 32-bit lanes' values), then split into their high and low words. */
#include "philox_lanes.h"
#include "runtime/simd_isa.h"

#include <algorithm>

// (vector arguments between instruction sets: every such function is inlined)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {
namespace sim {

namespace {

template <int L>
struct lanes {
    typedef uint32_t u32 __attribute__((vector_size(4 * L), aligned(16)));
    typedef uint64_t u64 __attribute__((vector_size(8 * L), aligned(16)));
};

template <int L>
__attribute__((always_inline)) inline void philox_block(span_key key, uint32_t c0, uint32_t c1, uint32_t c2,
                                                        uint32_t c3, uint32_t (*out)[philox_lanes_max], size_t at)
{
    using u32 = typename lanes<L>::u32;
    using u64 = typename lanes<L>::u64;
    u32 x0, x1, x2, x3;
    for (int i = 0; i < L; ++i) {
        x0[i] = c0 + uint32_t(i);
        x1[i] = c1;
        x2[i] = c2;
        x3[i] = c3;
    }
    uint32_t k0 = key.k0, k1 = key.k1;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const u64 p0 = __builtin_convertvector(x0, u64) * uint64_t(0xD2511F53u);
        const u64 p1 = __builtin_convertvector(x2, u64) * uint64_t(0xCD9E8D57u);
        const u32 hi0 = __builtin_convertvector(p0 >> 32, u32), lo0 = __builtin_convertvector(p0, u32);
        const u32 hi1 = __builtin_convertvector(p1 >> 32, u32), lo1 = __builtin_convertvector(p1, u32);
        const u32 y0 = hi1 ^ x1 ^ k0, y2 = hi0 ^ x3 ^ k1;
        x0 = y0;
        x1 = lo1;
        x2 = y2;
        x3 = lo0;
    }
    for (int i = 0; i < L; ++i) {
        out[0][at + size_t(i)] = x0[i];
        out[1][at + size_t(i)] = x1[i];
        out[2][at + size_t(i)] = x2[i];
        out[3][at + size_t(i)] = x3[i];
    }
}

template <int L>
__attribute__((always_inline)) inline void many(span_key key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                                size_t count, uint32_t (*out)[philox_lanes_max])
{
    size_t i = 0;
    for (; i + L <= count; i += L)
        philox_block<L>(key, c0 + uint32_t(i), c1, c2, c3, out, i);
    for (; i < count; ++i) { // the rest counter by counter
        const philox4x32 r = philox4x32_10({ { c0 + uint32_t(i), c1, c2, c3 } }, key.k0, key.k1);
        for (int w = 0; w < 4; ++w)
            out[w][i] = r.v[w];
    }
}

void many_baseline(span_key key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, size_t count,
                   uint32_t (*out)[philox_lanes_max])
{
    many<4>(key, c0, c1, c2, c3, count, out);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) void many_avx2(span_key key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                               size_t count, uint32_t (*out)[philox_lanes_max])
{
    many<8>(key, c0, c1, c2, c3, count, out);
}

__attribute__((target("avx512f,avx512bw"))) void many_avx512(span_key key, uint32_t c0, uint32_t c1, uint32_t c2,
                                                             uint32_t c3, size_t count,
                                                             uint32_t (*out)[philox_lanes_max])
{
    many<16>(key, c0, c1, c2, c3, count, out);
}
#endif

} // namespace

philox_many_fn pick_philox_many()
{
#if defined(__x86_64__) || defined(__i386__)
    switch (detect_simd_isa()) {
    case simd_isa::avx512:
        return many_avx512;
    case simd_isa::avx2:
        return many_avx2;
    default:
        break;
    }
#endif
    return many_baseline;
}

} // namespace sim
} // namespace gpufec
