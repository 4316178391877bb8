/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log arithmetic of turbo_fixed.h on pairs: a 32-bit word holds one
 * quantity of two independent trellis computations as two int16 (low half first), so one SIMD
 * instruction (__vadd2, __vsub2, Hopper's DPX add-max __viaddmax_s16x2) advances both. The
 * windowed decoder (turbo_cuda.cu) pairs two frames, the FPTD (turbo_fptd_cuda.cu) a thread's
 * two stages; turbo_fixed.h and turbo_fptd_fixed_cpu.cc show why int16 never overflows. */
#ifndef INCLUDED_GPUFEC_TURBO_FIXED_PAIRS_CUH
#define INCLUDED_GPUFEC_TURBO_FIXED_PAIRS_CUH

#include "turbo_fixed.h"
#include "turbo_rsc.h"

#include <cstdint>

namespace gpufec {
namespace turbo_fx {

using u32 = uint32_t;

__device__ __forceinline__ u32 pk16(int lo, int hi) { return (u32(lo) & 0xFFFFu) | (u32(hi) << 16); }
__device__ __forceinline__ int lo16(u32 v) { return int(int16_t(v & 0xFFFFu)); }
__device__ __forceinline__ int hi16(u32 v) { return int(v) >> 16; }
__device__ __forceinline__ u32 add2(u32 a, u32 b) { return __vadd2(a, b); }
//! per half: max(a + b, c)
__device__ __forceinline__ u32 addmax2(u32 a, u32 b, u32 c) { return __viaddmax_s16x2(a, b, c); }

//! a stage's branch metric words of both frames: sys + a-priori, parity, and their sum
struct branch {
    u32 sa, pk, sp;
};
__device__ __forceinline__ branch make_branch(u32 sa, u32 pk) { return { sa, pk, add2(sa, pk) }; }
//! from a stage's input words in shared memory: (sys + a-priori, parity), one 64-bit load
__device__ __forceinline__ branch make_branch(uint2 in) { return make_branch(in.x, in.y); }
//! the metric of input x with parity p (x and p are constants once the loops are unrolled)
__device__ __forceinline__ u32 metric(const branch& g, int x, int p) { return x ? (p ? g.sp : g.sa) : (p ? g.pk : 0u); }

__device__ __forceinline__ void normalise(u32 (&m)[STATES], const u32 (&raw)[STATES])
{
    m[0] = 0;
#pragma unroll
    for (int s = 1; s < STATES; ++s)
        m[s] = __vsub2(raw[s], raw[0]);
}

//! a step's new metrics: normalised, or (without NORM: training, see NORM_EVERY) as they are
template <bool NORM>
__device__ __forceinline__ void settle(u32 (&m)[STATES], const u32 (&raw)[STATES])
{
    if constexpr (NORM) {
        normalise(m, raw);
    } else {
#pragma unroll
        for (int s = 0; s < STATES; ++s)
            m[s] = raw[s];
    }
}

template <bool NORM = true>
__device__ __forceinline__ void forward_step(u32 (&am)[STATES], const branch& g)
{
    u32 an[STATES];
#pragma unroll
    for (int n = 0; n < STATES; ++n) {
        const int p0 = lte_prev(n, 0), p1 = lte_prev(n, 1);
        const int x0 = lte_prev_x(n, 0), x1 = lte_prev_x(n, 1);
        const int q0 = lte_par(p0, x0), q1 = lte_par(p1, x1);
        if (!(x0 | q0))
            an[n] = addmax2(am[p1], metric(g, x1, q1), am[p0]);
        else if (!(x1 | q1))
            an[n] = addmax2(am[p0], metric(g, x0, q0), am[p1]);
        else
            an[n] = addmax2(am[p1], metric(g, x1, q1), add2(am[p0], metric(g, x0, q0)));
    }
    settle<NORM>(am, an);
}

template <bool NORM = true>
__device__ __forceinline__ void backward_step(u32 (&b)[STATES], const branch& g)
{
    u32 bn[STATES];
#pragma unroll
    for (int s = 0; s < STATES; ++s) {
        const int n0 = lte_next(s, 0), n1 = lte_next(s, 1), q0 = lte_par(s, 0), q1 = lte_par(s, 1);
        bn[s] = addmax2(b[n1], metric(g, 1, q1), q0 ? add2(b[n0], g.pk) : b[n0]);
    }
    settle<NORM>(b, bn);
}

//! max over the states of alpha + parity term + beta of the successor, for input x
__device__ __forceinline__ u32 extrinsic_max(const u32 (&al)[STATES], const u32 (&b)[STATES], u32 pk, int x)
{
    u32 plain = 0, with_par = 0;
    bool have_plain = false, have_par = false;
#pragma unroll
    for (int s = 0; s < STATES; ++s) {
        const u32 beta = b[lte_next(s, x)];
        if (lte_par(s, x)) {
            with_par = have_par ? addmax2(al[s], beta, with_par) : add2(al[s], beta);
            have_par = true;
        } else {
            plain = have_plain ? addmax2(al[s], beta, plain) : add2(al[s], beta);
            have_plain = true;
        }
    }
    if (!have_par)
        return plain;
    if (!have_plain)
        return add2(with_par, pk);
    return addmax2(with_par, pk, plain);
}

} // namespace turbo_fx
} // namespace gpufec

#endif
