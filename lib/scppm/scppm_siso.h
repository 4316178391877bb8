/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The two SISO decoders of SCPPM on the CPU, over a metric policy: max-log in 32-bit integers
 * (the GPU's arithmetic: with max and + exact, any order of evaluation gives the same numbers,
 * which is what lets the GPU's stage combining match this sequential recursion bit for bit),
 * max-log in float, and log-map (exact max*, the Jacobian logarithm) in float.
 *
 * LLRs are ln P(1) / P(0). Metrics are log-probabilities up to a constant per stage; both
 * recursions subtract their maximum at every stage (that constant cancels in every output).
 *
 * Inner code (accumulator + PPM): one trellis stage per PPM symbol, state s = the last
 * accumulator bit, input u = the symbol's m interleaved bits (first bit = MSB). From state 0 the
 * symbol is e0(u) (the prefix XOR of u's bits from the MSB: the inverse Gray code); from state 1
 * it is e0(u) ^ (M - 1); the next state is the symbol's LSB. Branch metric: the symbol's slot
 * metric + the sum of the prior LLRs of u's 1 bits.
 *
 * Outer code ((5,7,7), feed-forward, 4 states): state s = (u_{k-1} << 1) | u_{k-2}, next state
 * (u << 1) | (s >> 1), outputs c0 = u ^ u_{k-2}, c1 = c2 = u ^ u_{k-1} ^ u_{k-2}; starts and ends
 * (2 zero bits) in state 0. Punctured code bits have LLR 0. */
#ifndef INCLUDED_GPUFEC_SCPPM_SISO_H
#define INCLUDED_GPUFEC_SCPPM_SISO_H

#include "runtime/host_device.h"
#include <gnuradio/gpufec/core/scppm/scppm.h>
#include "codes/max_star.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gpufec {
namespace scppm {

//! fixed point: metrics in units of 1/16 nat
constexpr int frac_bits = 4;
//! extrinsic LLRs are clamped to +-128 nats (in the metric's units)
constexpr int32_t ext_limit_fixed = 128 << frac_bits;
constexpr float ext_limit_float = 128.f;
//! extrinsic scaling in fixed point: (x * scale_q) >> scale_shift
constexpr int scale_shift = 6;

// The fixed-point rules the CPU twin and the CUDA kernel share (one definition: the same bits)

//! a fixed-point extrinsic as it leaves a SISO: clamped, then scaled
GPUFEC_HD int32_t fixed_extrinsic(int32_t x, int32_t scale_q)
{
    x = x < -ext_limit_fixed ? -ext_limit_fixed : x > ext_limit_fixed ? ext_limit_fixed : x;
    return (x * scale_q) >> scale_shift;
}
//! the slot metric of an int8 input value: a count (negative read as 0) or an LLR
GPUFEC_HD int32_t fixed_slot_metric(int v, bool counts)
{
    const int32_t x = counts ? (v > 0 ? v : 0) : (v < -127 ? -127 : v);
    return x * (1 << frac_bits);
}
//! the bit interleaver: interleaved[j] = in[pi(j)], pi(j) = (11 j + 210 j^2) mod 15120
GPUFEC_HD int interleave_index(int j)
{
    constexpr int n = scppm_code::code_bits;
    return (11 * j + 210 * ((j * j) % n)) % n;
}
//! its inverse, as the standard gives it: (14891 p + 210 p^2) mod 15120
GPUFEC_HD int deinterleave_index(int p)
{
    constexpr int n = scppm_code::code_bits;
    return (14891 * p + 210 * ((p * p) % n)) % n;
}

struct maxlog_fixed {
    using T = int32_t;
    static constexpr T neg = -(1 << 29); // an unreachable state: never wins a max
    static T join(T a, T b) { return a > b ? a : b; }
    static T out(T x, int32_t scale_q, float) { return fixed_extrinsic(x, scale_q); }
};

struct maxlog_float {
    using T = float;
    static constexpr T neg = -1e30f;
    static T join(T a, T b) { return a > b ? a : b; }
    static T out(T x, int32_t, float scale)
    {
        return std::min(std::max(x, -ext_limit_float), ext_limit_float) * scale;
    }
};

struct logmap_float {
    using T = float;
    static constexpr T neg = -1e30f;
    static T join(T a, T b)
    {
        return max_star(a, b);
    }
    static T out(T x, int32_t, float scale)
    {
        return std::min(std::max(x, -ext_limit_float), ext_limit_float) * scale;
    }
};

//! how extrinsics are scaled (fixed: scale_q / 64; float: scale)
struct ext_scale {
    float scale = 1.f;
    int32_t scale_q = 1 << scale_shift;
    explicit ext_scale(float s = 1.f) : scale(s), scale_q(int32_t(std::lround(s * (1 << scale_shift)))) {}
};

//! e0(u), the PPM symbol that input u (m <= 16 bits) gives from accumulator state 0: the
//! prefix XOR of u's bits from the MSB (the inverse Gray code); a constant where u is
constexpr unsigned inverse_gray(unsigned u)
{
    unsigned x = u;
    for (unsigned s = 1; s < 16; s <<= 1)
        x ^= x >> s;
    return x;
}

//! e0[u] for every input u of M = 2^m
inline std::vector<uint16_t> inner_symbols(int m)
{
    std::vector<uint16_t> e(size_t(1) << m);
    for (unsigned u = 0; u < e.size(); ++u)
        e[u] = uint16_t(inverse_gray(u));
    return e;
}

/*! The inner SISO over `n` symbols: ch[n * M] slot metrics, la[n * m] prior LLRs of the
 *  interleaved bits, le[n * m] the extrinsic LLRs out (scaled, clamped). */
template <class P>
class inner_siso
{
public:
    using T = typename P::T;
    inner_siso(int m, int n) : d_m(m), d_M(1 << m), d_n(n), d_e0(inner_symbols(m)), d_alpha(2 * size_t(n + 1)),
                               d_pu(size_t(d_M)), d_g(2 * size_t(d_M)), d_mu(size_t(d_M)) {}

    void run(const T* ch, const T* la, T* le, const ext_scale& sc)
    {
        T a0 = 0, a1 = P::neg; // starts in state 0
        for (int i = 0; i < d_n; ++i) {
            d_alpha[2 * size_t(i)] = a0;
            d_alpha[2 * size_t(i) + 1] = a1;
            branch(ch + size_t(i) * size_t(d_M), la + size_t(i) * size_t(d_m));
            T n0 = P::neg, n1 = P::neg;
            for (int u = 0; u < d_M; ++u) {
                const T x = a0 + d_g[size_t(u)], y = a1 + d_g[size_t(d_M + u)];
                if (d_e0[size_t(u)] & 1) { // from 0 to 1, from 1 to 0
                    n1 = P::join(n1, x);
                    n0 = P::join(n0, y);
                } else {
                    n0 = P::join(n0, x);
                    n1 = P::join(n1, y);
                }
            }
            const T top = std::max(n0, n1);
            a0 = n0 - top;
            a1 = n1 - top;
        }
        T b0 = 0, b1 = 0; // the end state is free
        std::vector<T>& mu = d_mu;
        for (int i = d_n - 1; i >= 0; --i) {
            branch(ch + size_t(i) * size_t(d_M), la + size_t(i) * size_t(d_m));
            const T A0 = d_alpha[2 * size_t(i)], A1 = d_alpha[2 * size_t(i) + 1];
            T n0 = P::neg, n1 = P::neg;
            for (int u = 0; u < d_M; ++u) {
                const bool odd = d_e0[size_t(u)] & 1;
                const T g0 = d_g[size_t(u)], g1 = d_g[size_t(d_M + u)];
                const T bt0 = odd ? b1 : b0, bt1 = odd ? b0 : b1; // beta of each edge's end
                n0 = P::join(n0, g0 + bt0);
                n1 = P::join(n1, g1 + bt1);
                mu[size_t(u)] = P::join(A0 + g0 + bt0, A1 + g1 + bt1);
            }
            for (int t = 0; t < d_m; ++t) {
                const int shift = d_m - 1 - t;
                T one = P::neg, zero = P::neg;
                for (int u = 0; u < d_M; ++u) {
                    if ((u >> shift) & 1)
                        one = P::join(one, mu[size_t(u)]);
                    else
                        zero = P::join(zero, mu[size_t(u)]);
                }
                const size_t j = size_t(i) * size_t(d_m) + size_t(t);
                le[j] = P::out(one - zero - la[j], sc.scale_q, sc.scale);
            }
            const T top = std::max(n0, n1);
            b0 = n0 - top;
            b1 = n1 - top;
        }
    }

private:
    // d_g[u] = gamma(state 0, u), d_g[M + u] = gamma(state 1, u)
    void branch(const T* ch, const T* la)
    {
        d_pu[0] = 0;
        for (int u = 1; u < d_M; ++u) {
            const int low = __builtin_ctz(unsigned(u));
            d_pu[size_t(u)] = d_pu[size_t(u & (u - 1))] + la[d_m - 1 - low];
        }
        for (int u = 0; u < d_M; ++u) {
            const unsigned e = d_e0[size_t(u)];
            d_g[size_t(u)] = ch[e] + d_pu[size_t(u)];
            d_g[size_t(d_M + u)] = ch[e ^ unsigned(d_M - 1)] + d_pu[size_t(u)];
        }
    }

    int d_m, d_M, d_n;
    std::vector<uint16_t> d_e0;
    std::vector<T> d_alpha, d_pu, d_g, d_mu;
};

/*! The outer SISO over K input bits: lc[3K] code-bit LLRs (0 where punctured), le[3K] the
 *  extrinsic LLRs of the code bits out (scaled, clamped), lu[K] the a-posteriori LLRs of the
 *  input bits. */
template <class P>
class outer_siso
{
public:
    using T = typename P::T;
    explicit outer_siso(int K) : d_K(K), d_alpha(4 * size_t(K + 1)) {}

    void run(const T* lc, T* le, T* lu, const ext_scale& sc)
    {
        T a[4] = { 0, P::neg, P::neg, P::neg };
        for (int k = 0; k < d_K; ++k) {
            std::copy(a, a + 4, &d_alpha[4 * size_t(k)]);
            const T* l = lc + 3 * size_t(k);
            T n[4] = { P::neg, P::neg, P::neg, P::neg };
            for (int s = 0; s < 4; ++s)
                for (int u = 0; u < 2; ++u)
                    n[next(s, u)] = P::join(n[next(s, u)], a[s] + gamma(s, u, l));
            const T top = std::max(std::max(n[0], n[1]), std::max(n[2], n[3]));
            for (int s = 0; s < 4; ++s)
                a[s] = n[s] - top;
        }
        T b[4] = { 0, P::neg, P::neg, P::neg }; // terminated in state 0
        for (int k = d_K - 1; k >= 0; --k) {
            const T* l = lc + 3 * size_t(k);
            const T* A = &d_alpha[4 * size_t(k)];
            T n[4] = { P::neg, P::neg, P::neg, P::neg };
            T one[3] = { P::neg, P::neg, P::neg }, zero[3] = { P::neg, P::neg, P::neg };
            T u1 = P::neg, u0 = P::neg;
            for (int s = 0; s < 4; ++s)
                for (int u = 0; u < 2; ++u) {
                    const int t = next(s, u);
                    const T g = gamma(s, u, l);
                    n[s] = P::join(n[s], g + b[t]);
                    const T x = A[s] + g + b[t];
                    const int c0 = u ^ (s & 1), c1 = u ^ (s >> 1) ^ (s & 1);
                    (c0 ? one[0] : zero[0]) = P::join(c0 ? one[0] : zero[0], x);
                    (c1 ? one[1] : zero[1]) = P::join(c1 ? one[1] : zero[1], x);
                    (u ? u1 : u0) = P::join(u ? u1 : u0, x);
                }
            one[2] = one[1]; // c2 = c1
            zero[2] = zero[1];
            for (int r = 0; r < 3; ++r)
                le[3 * size_t(k) + size_t(r)] = P::out(one[r] - zero[r] - l[r], sc.scale_q, sc.scale);
            lu[k] = u1 - u0;
            const T top = std::max(std::max(n[0], n[1]), std::max(n[2], n[3]));
            for (int s = 0; s < 4; ++s)
                b[s] = n[s] - top;
        }
    }

    static int next(int s, int u) { return (u << 1) | (s >> 1); }
    static T gamma(int s, int u, const T* l)
    {
        const int c0 = u ^ (s & 1), c1 = u ^ (s >> 1) ^ (s & 1);
        return (c0 ? l[0] : T(0)) + (c1 ? l[1] + l[2] : T(0));
    }

private:
    int d_K;
    std::vector<T> d_alpha;
};

} // namespace scppm
} // namespace gpufec

#endif
