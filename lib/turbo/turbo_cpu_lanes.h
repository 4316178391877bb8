/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU turbo decoder's inner loop: the fixed-point max-log half-iteration of
 * turbo_fixed.h over a group of frames at once, one frame per SIMD lane (GCC/Clang vector
 * extensions, int16 lanes). turbo_fixed.h proves that every metric and every sum of the
 * recursions fits int16, so int16 lanes give the scalar engine's values exactly; the extrinsic
 * (a difference of two such sums) is formed in int32 lanes.
 *
 * Layout: every per-stage quantity is V[k] (stage k, one lane per frame of the group): the
 * systematic, parity and a-priori values, the window's alphas alpha[i * 8 + s], the stored
 * window boundaries bound[w * 8 + s]. The frames of a group share K, so the interleaver moves
 * whole vectors. The trellis is the LTE code's, as compile-time functions (turbo_lte_trellis.h),
 * so that the loops over states unroll with constant indices and the metrics stay in
 * registers. */
#ifndef INCLUDED_GPUFEC_TURBO_CPU_LANES_H
#define INCLUDED_GPUFEC_TURBO_CPU_LANES_H

#include "turbo_fixed.h"
#include "turbo_lte_trellis.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>

// every vector function here is inlined into its caller, so the ABI of vector arguments between
// instruction sets never applies
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {
namespace turbo_fx {

//! one half-iteration's inputs and outputs for a group of frames (V per stage)
template <class V>
struct lane_half {
    const V* sys;
    const V* par;
    const V* tail;    //!< 6 values: (sys, parity) of the 3 tail stages
    const V* apri;
    V* dst;           //!< scaled extrinsic, written at dst_index[k]
    const uint32_t* dst_index;
    V* bound;         //!< [a_in | b_in | a_out | b_out], windows x 8 each
    bool first;       //!< first iteration: boundaries are 0
    V* decide;        //!< or null: at bit_index[k], all ones where sys + apri + ext > 0
    const uint32_t* bit_index;
    V* alpha;         //!< W x 8 scratch
};

template <class V, class V32, int LANES>
__attribute__((always_inline)) inline V lanes_splat(int x)
{
    V v;
    for (int l = 0; l < LANES; ++l)
        v[l] = int16_t(x);
    return v;
}

template <class V>
__attribute__((always_inline)) inline V lanes_max(V a, V b)
{
    return a > b ? a : b;
}

/* The scalar engine's half() (turbo_fixed_cpu.cc), lane-parallel: the same windows, training,
 * boundaries, normalisation, extrinsic and decisions. */
template <class V, class V32, int LANES>
__attribute__((always_inline)) inline void
lanes_half(const lane_half<V>& h, int K, int W, int T, int nwin, int scale16)
{
    const size_t nb = size_t(nwin) * STATES;
    const V* a_in = h.bound;
    const V* b_in = h.bound + nb;
    V* a_out = h.bound + 2 * nb;
    V* b_out = h.bound + 3 * nb;
    const V zero = lanes_splat<V, V32, LANES>(0);
    const V unknown = lanes_splat<V, V32, LANES>(-UNKNOWN);
    V am[STATES], b[STATES];
    // the branch metric of (state s, input x) at stage k: x (sys + apri) + par(s, x) par
    auto gamma = [](const V& sa, const V& par, int s, int x) {
        const int p = lte_par(s, x);
        return x ? (p ? sa + par : sa) : (p ? par : sa - sa);
    };
    auto forward = [&](int k) {
        const V sa = h.sys[k] + h.apri[k], par = h.par[k];
        V an[STATES];
#pragma GCC unroll 8
        for (int n = 0; n < STATES; ++n) {
            const int s0 = lte_prev(n, 0), s1 = lte_prev(n, 1);
            an[n] = lanes_max(am[s0] + gamma(sa, par, s0, lte_prev_x(n, 0)), am[s1] + gamma(sa, par, s1, lte_prev_x(n, 1)));
        }
#pragma GCC unroll 8
        for (int s = 0; s < STATES; ++s)
            am[s] = an[s] - an[0];
    };
    auto backward = [&](const V& sa, const V& par) {
        V bn[STATES];
#pragma GCC unroll 8
        for (int s = 0; s < STATES; ++s)
            bn[s] = lanes_max(b[lte_next(s, 0)] + gamma(sa, par, s, 0), b[lte_next(s, 1)] + gamma(sa, par, s, 1));
#pragma GCC unroll 8
        for (int s = 0; s < STATES; ++s)
            b[s] = bn[s] - bn[0];
    };
    for (int w = 0; w < nwin; ++w) {
        const int k0 = w * W, k1 = std::min(K, k0 + W), len = k1 - k0;
        const int fs = k0 - T;
        for (int s = 0; s < STATES; ++s)
            am[s] = fs <= 0 ? (s == 0 ? zero : unknown) : h.first ? zero : a_in[w * STATES + s];
        for (int k = std::max(fs, 0); k < k0; ++k)
            forward(k);
        for (int i = 0; i < len; ++i) {
            const int p = k0 + i;
            if (p > 0 && (p + T) % W == 0 && (p + T) / W < nwin)
                std::copy(am, am + STATES, a_out + (p + T) / W * STATES);
            std::copy(am, am + STATES, h.alpha + i * STATES);
            forward(p);
        }
        const int be = k1 + T;
        if (be >= K) {
            for (int s = 0; s < STATES; ++s)
                b[s] = s == 0 ? zero : unknown;
            for (int j = 2; j >= 0; --j) { // the tail: input = feedback, not normalised
                V bn[STATES];
#pragma GCC unroll 8
                for (int s = 0; s < STATES; ++s) {
                    const int x = lte_fb(s);
                    bn[s] = b[lte_next(s, x)];
                    if (x)
                        bn[s] += h.tail[2 * j];
                    if (lte_par(s, x))
                        bn[s] += h.tail[2 * j + 1];
                }
                std::copy(bn, bn + STATES, b);
            }
        } else {
            for (int s = 0; s < STATES; ++s)
                b[s] = h.first ? zero : b_in[w * STATES + s];
        }
        for (int k = std::min(be, K) - 1; k >= k1; --k)
            backward(h.sys[k] + h.apri[k], h.par[k]);
        for (int i = len - 1; i >= 0; --i) {
            const int k = k0 + i;
            const V sa = h.sys[k] + h.apri[k], par = h.par[k];
            const V* al = h.alpha + i * STATES;
            // without the x (sys + apri) term of x = 1, as the scalar engine: it is added below
            V m0 = al[0] + gamma(sa, par, 0, 0) + b[lte_next(0, 0)];
            V m1 = al[0] + (lte_par(0, 1) ? par : zero) + b[lte_next(0, 1)];
#pragma GCC unroll 8
            for (int s = 1; s < STATES; ++s) {
                m0 = lanes_max(m0, al[s] + gamma(sa, par, s, 0) + b[lte_next(s, 0)]);
                m1 = lanes_max(m1, al[s] + (lte_par(s, 1) ? par : zero) + b[lte_next(s, 1)]);
            }
            const V32 ext = __builtin_convertvector(m1, V32) - __builtin_convertvector(m0, V32);
            V32 sc = (ext * scale16) >> 4;
            const V32 lim = sc - sc + EXT_MAX;
            sc = sc > lim ? lim : sc;
            sc = sc < -lim ? -lim : sc;
            h.dst[h.dst_index[k]] = __builtin_convertvector(sc, V);
            if (h.decide) {
                const V32 total = __builtin_convertvector(sa, V32) + ext;
                h.decide[h.bit_index[k]] = __builtin_convertvector(total > 0, V);
            }
            backward(sa, par);
            if (k - T >= W && (k - T) % W == 0)
                std::copy(b, b + STATES, b_out + ((k - T) / W - 1) * STATES);
        }
    }
}

} // namespace turbo_fx
} // namespace gpufec

#pragma GCC diagnostic pop

#endif
