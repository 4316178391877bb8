/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU turbo decoder's inner loop: the fixed-point max-log half-iteration of
 * turbo_fixed.h over a group of frames at once, one frame per SIMD lane (GCC/Clang vector
 * extensions). LTE: int16 lanes; turbo_fixed.h proves that every metric and every sum of the
 * recursions fits int16, so they give the scalar engine's (and the GPU's) values exactly; the
 * extrinsic (a difference of two such sums) is formed in int32 lanes. The CCSDS code (16
 * states, up to three parities a stage) runs the same recursions in int32 lanes: its sums do
 * not fit int16, and no other engine has to agree with it bit for bit.
 *
 * Layout: every per-stage quantity is V[k] (stage k, one lane per frame of the group): the
 * systematic, parity and a-priori values, the window's alphas alpha[i * S + s], the stored
 * window boundaries bound[w * S + s]. The frames of a group share K, so the interleaver moves
 * whole vectors. The trellis is a compile-time policy (lte_rsc, ccsds_rsc), so that the loops
 * over states unroll with constant indices and the metrics stay in registers. */
#ifndef INCLUDED_GPUFEC_TURBO_CPU_LANES_H
#define INCLUDED_GPUFEC_TURBO_CPU_LANES_H

#include "turbo_fixed.h"
#include "turbo_rsc.h"
#include "runtime/simd_vectors.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// every vector function here is inlined into its caller, so the ABI of vector arguments between
// instruction sets never applies
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {
namespace turbo_fx {

//! one half-iteration's inputs and outputs for a group of frames (V per stage)
template <class V, int NP>
struct lane_half {
    const V* sys;
    const V* par[NP]; //!< the parity outputs (0 where not sent)
    const V* tail;    //!< TAIL x (1 + NP) values: (sys, parities) of each tail stage
    const V* apri;
    V* dst;           //!< scaled extrinsic, written at dst_index[k]
    const uint32_t* dst_index;
    V* bound;         //!< [a_in | b_in | a_out | b_out], windows x S each
    bool first;       //!< first iteration: boundaries are 0
    V* decide;        //!< or null: at bit_index[k], all ones where sys + apri + ext > 0
    const uint32_t* bit_index;
    V* alpha;         //!< W x S scratch
};

template <class V>
__attribute__((always_inline)) inline V lanes_max(V a, V b)
{
    return a > b ? a : b;
}

/* The metrics' arithmetic. int16 and int32 lanes: plain sums (turbo_fixed.h's bound: they never
 * overflow). int8 lanes (the CPU-only int8 engine): every sum and difference saturates at
 * -128 / 127, one instruction on x86 (paddsb, psubsb) and the same values everywhere else, so
 * every instruction set gives the same bits. */
template <class V>
constexpr bool int8_lanes = std::is_same<std::remove_cv_t<std::remove_reference_t<decltype(V{}[0])>>, int8_t>::value;

template <class V>
__attribute__((always_inline)) inline V int8_saturate_generic(V a, V b, bool sub)
{
    V r;
    for (size_t l = 0; l < sizeof(V); ++l) {
        const int x = sub ? int(a[l]) - int(b[l]) : int(a[l]) + int(b[l]);
        r[l] = int8_t(x > 127 ? 127 : x < -128 ? -128 : x);
    }
    return r;
}

/* (GCC's builtins, not the intrinsics: an intrinsic carries its instruction set as a target
 * attribute and cannot be inlined into these functions, which have none; a builtin is checked
 * where it is expanded, inside the engine's function for that instruction set, after inlining) */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h> // (declares the builtins of every instruction set)
#define GPUFEC_INT8_SAT_BUILTINS 1
typedef char gpufec_v16qi __attribute__((vector_size(16)));
typedef char gpufec_v32qi __attribute__((vector_size(32)));
typedef char gpufec_v64qi __attribute__((vector_size(64)));
#endif

//! a + b (Sub: a - b), saturating in int8 lanes
template <bool Sub, class V>
__attribute__((always_inline)) inline V metric_op(V a, V b)
{
    if constexpr (!int8_lanes<V>) {
        return Sub ? a - b : a + b;
    } else {
#if defined(GPUFEC_INT8_SAT_BUILTINS)
        if constexpr (sizeof(V) == 16)
            return Sub ? (V)__builtin_ia32_psubsb128((gpufec_v16qi)a, (gpufec_v16qi)b)
                       : (V)__builtin_ia32_paddsb128((gpufec_v16qi)a, (gpufec_v16qi)b);
        if constexpr (sizeof(V) == 32)
            return Sub ? (V)__builtin_ia32_psubsb256((gpufec_v32qi)a, (gpufec_v32qi)b)
                       : (V)__builtin_ia32_paddsb256((gpufec_v32qi)a, (gpufec_v32qi)b);
        if constexpr (sizeof(V) == 64)
            return Sub ? (V)__builtin_ia32_psubsb512_mask((gpufec_v64qi)a, (gpufec_v64qi)b, (gpufec_v64qi)a, ~0ull)
                       : (V)__builtin_ia32_paddsb512_mask((gpufec_v64qi)a, (gpufec_v64qi)b, (gpufec_v64qi)a, ~0ull);
#endif
        return int8_saturate_generic(a, b, Sub);
    }
}

template <class V>
__attribute__((always_inline)) inline V madd(V a, V b)
{
    return metric_op<false>(a, b);
}

template <class V>
__attribute__((always_inline)) inline V msub(V a, V b)
{
    return metric_op<true>(a, b);
}

/* What the metrics of a stage are normalised by: state 0's (int16 and int32 lanes, as the GPU:
 * a broadcast), or the largest (int8 lanes: every metric then <= 0, so sums with branch metrics
 * never reach the top and saturation at -128 only merges states far below the best). */
template <int S, class V>
__attribute__((always_inline)) inline V norm_of(const V* m)
{
    if constexpr (!int8_lanes<V>) {
        return m[0];
    } else {
        V t = m[0];
#pragma GCC unroll 16
        for (int s = 1; s < S; ++s)
            t = lanes_max(t, m[s]);
        return t;
    }
}

/* The int8 engine's constants: channel values v / 4 rounded (|v| <= 31), an unknown state at
 * -64, the extrinsic clamped to +-63. */
constexpr int INT8_UNKNOWN = 64;
constexpr int INT8_EXT_MAX = 63;
//! the int8 engine's channel value of an int8 soft value
inline int soft_in8(int8_t v)
{
    const int a = v < 0 ? -int(v) : int(v), q = std::min(31, (a + 2) >> 2);
    return v < 0 ? -q : q;
}

/* The int8 engine's extrinsic and decision from the two maxima m1, m0 and sa = sys + apri:
 * e = m1 - m0, scaled by scale16 / 16 (floor), clamped to +-INT8_EXT_MAX; the decision
 * sa + e > 0. As if e were exact: where m1 - m0 saturates (|m1 - m0| > 127), the scaled value
 * is past the clamp either way (scale16 >= 11: at least 87; smaller scalings go through int16
 * lanes, exact), and |sa| <= 94 leaves the decision's sign as the exact sum's. The default
 * 0.75 (scale16 = 12) stays in int8 lanes: floor(3 e / 4) = e + ((-e) >> 2). */
template <class V, class V32, int LANES>
__attribute__((always_inline)) inline void int8_extrinsic(V m1, V m0, V sa, int scale16, V* dst, V* decide)
{
    const V zero = simd_splat<V, LANES>(0), lim = simd_splat<V, LANES>(INT8_EXT_MAX);
    const V e = msub(m1, m0);
    V sc;
    if (scale16 == 12) {
        sc = madd(e, msub(zero, e) >> 2);
    } else if (scale16 >= 11) {
        const V32 w = (__builtin_convertvector(e, V32) * int16_t(scale16)) >> 4;
        sc = __builtin_convertvector(w, V); // |w| <= 127 * 16 / 16
    } else {
        const V32 w = ((__builtin_convertvector(m1, V32) - __builtin_convertvector(m0, V32)) * int16_t(scale16)) >> 4;
        const V32 l32 = w - w + int16_t(INT8_EXT_MAX);
        sc = __builtin_convertvector(w > l32 ? l32 : w < -l32 ? -l32 : w, V);
    }
    sc = sc > lim ? lim : sc;
    sc = sc < -lim ? -lim : sc;
    *dst = sc;
    if (decide)
        *decide = madd(sa, e) > zero;
}

/*! m[0..S) to dst, one vector at a time (not std::copy: a metric array whose address is taken
 *  lives in memory, and would be stored and reloaded every stage) */
template <int S, class V>
__attribute__((always_inline)) inline void store_metrics(const V* m, V* dst)
{
#pragma GCC unroll 16
    for (int s = 0; s < S; ++s)
        dst[s] = m[s];
}

/* The scalar engine's half() (turbo_fixed_cpu.cc), lane-parallel, for code C: the same windows,
 * training, boundaries, normalisation, extrinsic and decisions. */
template <class C, class V, class V32, int LANES>
__attribute__((always_inline)) inline void
lanes_half(const lane_half<V, C::NP>& h, int K, int W, int T, int nwin, int scale16)
{
    constexpr int S = C::S, NP = C::NP;
    const size_t nb = size_t(nwin) * S;
    const V* a_in = h.bound;
    const V* b_in = h.bound + nb;
    V* a_out = h.bound + 2 * nb;
    V* b_out = h.bound + 3 * nb;
    const V zero = simd_splat<V, LANES>(0);
    const V unknown = simd_splat<V, LANES>(int8_lanes<V> ? -INT8_UNKNOWN : -UNKNOWN);
    const int ext_max = int8_lanes<V> ? INT8_EXT_MAX : EXT_MAX;
    V am[S], b[S];
    // the parity part of the branch metric of (s, x): the sum of the parities it emits
    auto pgamma = [&](const V* P, int s, int x) __attribute__((always_inline)) {
        V g = zero;
        for (int j = 0; j < NP; ++j)
            if (C::par(j, s, x))
                g = madd(g, P[j]);
        return g;
    };
    // the branch metric of (state s, input x): x (sys + apri) + its parities
    auto gamma = [&](const V& sa, const V* P, int s, int x) __attribute__((always_inline)) { return x ? madd(sa, pgamma(P, s, x)) : pgamma(P, s, x); };
    auto load = [&](int k, V* P) __attribute__((always_inline)) {
        for (int j = 0; j < NP; ++j)
            P[j] = h.par[j][k];
        return madd(h.sys[k], h.apri[k]);
    };
    auto forward = [&](int k) __attribute__((always_inline)) {
        V P[NP], an[S];
        const V sa = load(k, P);
#pragma GCC unroll 16
        for (int n = 0; n < S; ++n) {
            const int s0 = C::prev(n, 0), s1 = C::prev(n, 1);
            an[n] = lanes_max(madd(am[s0], gamma(sa, P, s0, C::prev_x(n, 0))),
                              madd(am[s1], gamma(sa, P, s1, C::prev_x(n, 1))));
        }
        const V top = norm_of<S>(an);
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s)
            am[s] = msub(an[s], top);
    };
    auto backward = [&](const V& sa, const V* P) __attribute__((always_inline)) {
        V bn[S];
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s)
            bn[s] = lanes_max(madd(b[C::next(s, 0)], gamma(sa, P, s, 0)), madd(b[C::next(s, 1)], gamma(sa, P, s, 1)));
        const V top = norm_of<S>(bn);
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s)
            b[s] = msub(bn[s], top);
    };
    for (int w = 0; w < nwin; ++w) {
        const int k0 = w * W, k1 = std::min(K, k0 + W), len = k1 - k0;
        const int fs = k0 - T;
        for (int s = 0; s < S; ++s)
            am[s] = fs <= 0 ? (s == 0 ? zero : unknown) : h.first ? zero : a_in[w * S + s];
        for (int k = std::max(fs, 0); k < k0; ++k)
            forward(k);
        // the alphas at stage i_out of this window (k0 + i_out + T a multiple of W) start the
        // training of window w_out = (k0 + i_out + T) / W, where that window exists
        const int i_out = (W - T % W) % W, w_out = w + (i_out + T) / W;
        for (int i = 0; i < len; ++i) {
            if (i == i_out && k0 + i > 0 && w_out < nwin)
                store_metrics<S>(am, a_out + w_out * S);
            store_metrics<S>(am, h.alpha + i * S);
            forward(k0 + i);
        }
        const int be = k1 + T;
        if (be >= K) {
            for (int s = 0; s < S; ++s)
                b[s] = s == 0 ? zero : unknown;
            for (int j = C::TAIL - 1; j >= 0; --j) { // the tail: input = feedback, not normalised
                const V* tv = h.tail + j * (1 + NP);
                V bn[S];
#pragma GCC unroll 16
                for (int s = 0; s < S; ++s) {
                    const int x = C::fb(s);
                    bn[s] = madd(b[C::next(s, x)], pgamma(tv + 1, s, x));
                    if (x)
                        bn[s] = madd(bn[s], tv[0]);
                }
                store_metrics<S>(bn, b);
            }
        } else {
            for (int s = 0; s < S; ++s)
                b[s] = h.first ? zero : b_in[w * S + s];
        }
        for (int k = std::min(be, K) - 1; k >= k1; --k) {
            V P[NP];
            const V sa = load(k, P);
            backward(sa, P);
        }
        const int i_bout = T % W; // (k0 + i - T) a multiple of W
        for (int i = len - 1; i >= 0; --i) {
            const int k = k0 + i;
            V P[NP];
            const V sa = load(k, P);
            const V* al = h.alpha + i * S;
            // without the x (sys + apri) term of x = 1, as the scalar engine: it is added below
            V m0 = madd(madd(al[0], pgamma(P, 0, 0)), b[C::next(0, 0)]);
            V m1 = madd(madd(al[0], pgamma(P, 0, 1)), b[C::next(0, 1)]);
#pragma GCC unroll 16
            for (int s = 1; s < S; ++s) {
                m0 = lanes_max(m0, madd(madd(al[s], pgamma(P, s, 0)), b[C::next(s, 0)]));
                m1 = lanes_max(m1, madd(madd(al[s], pgamma(P, s, 1)), b[C::next(s, 1)]));
            }
            if constexpr (int8_lanes<V>) {
                int8_extrinsic<V, V32, LANES>(m1, m0, sa, scale16, h.dst + h.dst_index[k],
                                              h.decide ? h.decide + h.bit_index[k] : nullptr);
            } else {
                // (in int32 lanes)
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
            }
            backward(sa, P);
            if (i == i_bout && k - T >= W)
                store_metrics<S>(b, b_out + ((k - T) / W - 1) * S);
        }
    }
}

} // namespace turbo_fx
} // namespace gpufec

#pragma GCC diagnostic pop

#endif
