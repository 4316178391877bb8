/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU SCPPM engine's inner loops: scppm_codeword.h's iterations with scppm_siso.h's
 * max-log SISOs in 32-bit fixed point (maxlog_fixed), over a group of codewords at once, one
 * codeword per SIMD lane (GCC/Clang vector extensions). The same integer operations as the
 * scalar decoder: max and + are exact, so the lanes give its numbers bit for bit.
 *
 * Layout: every array is [position][lane]. The slot metrics are kept in int16 (|x| << frac_bits
 * <= 2032), the extrinsic LLRs of both SISOs as int16 (they are clamped to +-ext_limit_fixed and
 * scaled: within int16 where |scale_q| <= max_lanes_scale_q, which the engine checks), each SISO
 * writing its extrinsics where the other reads them (through the interleaver), and the
 * recursions' state metrics as int32 (the outer SISO's every outer_step stages). The working
 * memory of a group then streams through the core's caches about twice an iteration (16
 * codewords of M = 16: 3.5 MB, 1.9 of them slot metrics). A lane whose codeword has
 * passed its CRC goes on being computed, but its decisions, iterations and check stay those of
 * the iteration that passed. The information bits' decisions and the CRC (as the XOR of the
 * responses of the bits that decide 1, crc_responses) are taken in the outer SISO's backward
 * pass, without a-posteriori LLRs in memory. */
#ifndef INCLUDED_GPUFEC_SCPPM_CPU_LANES_H
#define INCLUDED_GPUFEC_SCPPM_CPU_LANES_H

#include <gnuradio/gpufec/core/frame/batch_decoder.h>

#include "../runtime/simd_vectors.h"
#include "scppm_siso.h"
#include <cstddef>
#include <cstdint>

// every vector function here is inlined into its caller, so the ABI of vector arguments
// between instruction sets never applies
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {
namespace scppm {

//! where a code bit is punctured (lanes_code::unmap)
constexpr uint32_t not_sent = 0xffffffffu;
//! the outer SISO's forward metrics are kept every outer_step stages and worked out again
//! between those in its backward pass (the same operations: the same numbers), so that a
//! group's working memory holds 4 K / outer_step of them rather than 4 K
constexpr int outer_step = 32;

//! the largest |scale_q| whose scaled extrinsics (|x| <= ext_limit_fixed) fit int16
constexpr int32_t max_lanes_scale_q = 1023;

//! what every group of one engine shares: the code's tables and constants
struct lanes_code {
    int m, M, symbols, K, info_bits;
    int max_iter;
    bool counts;
    int32_t scale_q;
    const uint32_t* map;    //!< code_bits: inner_to_outer_map
    const uint32_t* unmap;  //!< 3K: its inverse, or not_sent for a punctured code bit
    const uint32_t* crc;    //!< K - 2: crc_responses
    uint32_t crc_zero;
};

//! one group's input and results: `used` codewords (the lanes past them copy the last)
struct lanes_io {
    const int8_t* soft; //!< used x slots
    int used;
    uint8_t* packed;    //!< used x ceil(info_bits / 8)
    frame_status* status;
};

/*! A group's scratch, in lanes of V (int32) and VH (int16; no int8 lanes: GCC converts those
 *  from and to int32 a lane at a time): the bytes it takes and its arrays carved from one 64-byte
 *  aligned block. */
template <class V, class VH>
struct lanes_scratch {
    VH* ch;      //!< slots: the slot metrics
    VH* la;      //!< code_bits: the inner SISO's priors, the outer's extrinsics (interleaved order)
    VH* lc;      //!< 3K: the outer SISO's code-bit LLRs, the inner's extrinsics (punctured: 0)
    V* ia;       //!< 2 (symbols + 1): the inner forward metrics
    V* oa;       //!< 4 (K / outer_step + 1): the outer forward metrics before every outer_step-th stage
    V* seg;      //!< 4 outer_step: those of the stages the outer backward pass is in
    VH* hard;    //!< ceil(info_bits / 8): the kept decisions, a byte a lane

    static size_t bytes(const lanes_code& c)
    {
        const size_t slots = size_t(c.symbols) * size_t(c.M), n = scppm_code::code_bits, k3 = 3 * size_t(c.K);
        return round(slots * sizeof(VH)) + round(n * sizeof(VH)) + round(k3 * sizeof(VH)) +
               round(2 * (size_t(c.symbols) + 1) * sizeof(V)) + round(4 * (size_t(c.K) / outer_step + 1) * sizeof(V)) +
               round(4 * size_t(outer_step) * sizeof(V)) + round((size_t(c.info_bits) + 7) / 8 * sizeof(VH));
    }
    //! `mem`: bytes(c), 64-byte aligned
    lanes_scratch(const lanes_code& c, void* mem)
    {
        unsigned char* p = static_cast<unsigned char*>(mem);
        const size_t slots = size_t(c.symbols) * size_t(c.M), n = scppm_code::code_bits, k3 = 3 * size_t(c.K);
        ch = take<VH>(p, slots);
        la = take<VH>(p, n);
        lc = take<VH>(p, k3);
        ia = take<V>(p, 2 * (size_t(c.symbols) + 1));
        oa = take<V>(p, 4 * (size_t(c.K) / outer_step + 1));
        seg = take<V>(p, 4 * size_t(outer_step));
        hard = take<VH>(p, (size_t(c.info_bits) + 7) / 8);
    }

private:
    static size_t round(size_t b) { return (b + 63) / 64 * 64; }
    template <class T>
    static T* take(unsigned char*& p, size_t count)
    {
        T* t = reinterpret_cast<T*>(p);
        p += round(count * sizeof(T));
        return t;
    }
};

template <class V>
__attribute__((always_inline)) inline V lanes_max(const V& a, const V& b)
{
    return a > b ? a : b;
}

//! fixed_extrinsic in every lane: clamped to +-ext_limit_fixed, then (x * scale_q) >> scale_shift
template <class V>
__attribute__((always_inline)) inline V lanes_extrinsic(V x, const V& limit, const V& scale_q)
{
    x = x < -limit ? -limit : x;
    x = x > limit ? limit : x;
    return (x * scale_q) >> scale_shift;
}

/*! The sums of the priors of each input u's 1 bits (pu[u]) and the slot metrics of the symbols
 *  each u sends from state 0 (c0[u] = metric of e0(u)) and from state 1 (c1[u] = metric of
 *  e0(u) ^ (M - 1)) for symbol i: the branch metric of u is pu[u] + c0[u] or pu[u] + c1[u]
 *  (inner_siso::branch). */
template <int M, int m, class V, class VH>
__attribute__((always_inline)) inline void lanes_symbol(const lanes_scratch<V, VH>& s, int i, V* pu, V* c0, V* c1)
{
    const VH* ch = s.ch + size_t(i) * size_t(M);
    const VH* la = s.la + size_t(i) * size_t(m);
    pu[0] = V{};
#pragma GCC unroll 16
    for (int u = 1; u < M; ++u)
        pu[u] = pu[u & (u - 1)] + __builtin_convertvector(la[m - 1 - __builtin_ctz(unsigned(u))], V);
#pragma GCC unroll 16
    for (int u = 0; u < M; ++u) {
        c0[u] = __builtin_convertvector(ch[inverse_gray(unsigned(u))], V);
        c1[u] = __builtin_convertvector(ch[inverse_gray(unsigned(u)) ^ unsigned(M - 1)], V);
    }
}

/*! A symbol's branch metrics g0[u] = pu[u] + c0[u] (from state 0) and g1[u] = pu[u] + c1[u] (from
 *  state 1), their maxima over the inputs u whose e0(u) is even and odd, and each(u, g0, g1) */
template <int M, class V, class F>
__attribute__((always_inline)) inline void branch_maxima(const V* pu, const V* c0, const V* c1, const V& neg,
                                                         V& g0_even, V& g0_odd, V& g1_even, V& g1_odd, F&& each)
{
    g0_even = g0_odd = g1_even = g1_odd = neg;
#pragma GCC unroll 16
    for (int u = 0; u < M; ++u) {
        const V g0 = pu[u] + c0[u], g1 = pu[u] + c1[u];
        if (inverse_gray(unsigned(u)) & 1) {
            g0_odd = lanes_max(g0_odd, g0);
            g1_odd = lanes_max(g1_odd, g1);
        } else {
            g0_even = lanes_max(g0_even, g0);
            g1_even = lanes_max(g1_even, g1);
        }
        each(u, g0, g1);
    }
}

/*! inner_siso::run for the group with M = 2^m known at compile time: la -> lc (its extrinsics
 *  written deinterleaved where the outer SISO reads them). The same
 *  maxima, regrouped where + distributes over max (exact in integers): a state's next metric
 *  is max(a0 + max of its branches from state 0, a1 + max of those from state 1), and a bit's
 *  two maxima come from halving the inputs' metrics a bit at a time (from the LSB: each level's
 *  odd and even entries, then the pairs' maxima for the next bit). */
template <int M, int m, class V, class VH>
__attribute__((always_inline)) inline void lanes_inner_m(const lanes_code& c, const lanes_scratch<V, VH>& s,
                                                         const V& neg, const V& limit, const V& scale_q)
{
    const int n = c.symbols;
    V pu[M], c0[M], c1[M];
    // a branch from state 0 goes to state e0(u) & 1, from state 1 to the other one
    V a0 = V{}, a1 = neg; // starts in state 0
    for (int i = 0; i < n; ++i) {
        s.ia[2 * size_t(i)] = a0;
        s.ia[2 * size_t(i) + 1] = a1;
        lanes_symbol<M, m>(s, i, pu, c0, c1);
        V g0_even, g0_odd, g1_even, g1_odd;
        branch_maxima<M>(pu, c0, c1, neg, g0_even, g0_odd, g1_even, g1_odd, [](int, const V&, const V&) {});
        const V n0 = lanes_max(a0 + g0_even, a1 + g1_odd), n1 = lanes_max(a0 + g0_odd, a1 + g1_even);
        const V top = lanes_max(n0, n1);
        a0 = n0 - top;
        a1 = n1 - top;
    }
    V b0 = V{}, b1 = V{}; // the end state is free
    for (int i = n - 1; i >= 0; --i) {
        lanes_symbol<M, m>(s, i, pu, c0, c1);
        const V A0 = s.ia[2 * size_t(i)], A1 = s.ia[2 * size_t(i) + 1];
        // the edge of u from state 0 ends in state e0(u) & 1, from state 1 in the other
        const V to_even0 = A0 + b0, to_odd0 = A0 + b1, to_even1 = A1 + b1, to_odd1 = A1 + b0;
        V g0_even, g0_odd, g1_even, g1_odd;
        V mu[M];
        branch_maxima<M>(pu, c0, c1, neg, g0_even, g0_odd, g1_even, g1_odd, [&](int u, const V& g0, const V& g1) {
            mu[u] = inverse_gray(unsigned(u)) & 1 ? lanes_max(to_odd0 + g0, to_odd1 + g1)
                                                  : lanes_max(to_even0 + g0, to_even1 + g1);
        });
        // bit t of the symbol (MSB first) is bit m - 1 - t of u: from the LSB up, halving
        int size = M;
#pragma GCC unroll 8
        for (int t = m - 1; t >= 0; --t) {
            V one = neg, zero = neg;
#pragma GCC unroll 16
            for (int v = 0; v < size; v += 2) {
                zero = lanes_max(zero, mu[v]);
                one = lanes_max(one, mu[v + 1]);
            }
            size /= 2;
#pragma GCC unroll 16
            for (int v = 0; v < size; ++v)
                mu[v] = lanes_max(mu[2 * v], mu[2 * v + 1]);
            const size_t j = size_t(i) * size_t(m) + size_t(t);
            const V x = one - zero - __builtin_convertvector(s.la[j], V);
            s.lc[c.map[j]] = __builtin_convertvector(lanes_extrinsic(x, limit, scale_q), VH); // deinterleaved
        }
        const V n0 = lanes_max(b0 + g0_even, b1 + g0_odd), n1 = lanes_max(b1 + g1_even, b0 + g1_odd);
        const V top = lanes_max(n0, n1);
        b0 = n0 - top;
        b1 = n1 - top;
    }
}

//! inner_siso::run for the group: la -> lc (M = 4 .. 256)
template <class V, class VH>
__attribute__((always_inline)) inline void lanes_inner(const lanes_code& c, const lanes_scratch<V, VH>& s,
                                                       const V& neg, const V& limit, const V& scale_q)
{
    switch (c.m) {
    case 2: lanes_inner_m<4, 2>(c, s, neg, limit, scale_q); break;
    case 3: lanes_inner_m<8, 3>(c, s, neg, limit, scale_q); break;
    case 4: lanes_inner_m<16, 4>(c, s, neg, limit, scale_q); break;
    case 5: lanes_inner_m<32, 5>(c, s, neg, limit, scale_q); break;
    case 6: lanes_inner_m<64, 6>(c, s, neg, limit, scale_q); break;
    case 7: lanes_inner_m<128, 7>(c, s, neg, limit, scale_q); break;
    default: lanes_inner_m<256, 8>(c, s, neg, limit, scale_q); break;
    }
}

/*! One stage of the outer SISO's forward recursion: a (its 4 state metrics) across the code-bit
 *  LLRs l. A pair's branch metric: gamma(s, u) = (c0 ? l0 : 0) + (c1 ? l1 + l2 : 0) with c0 = u ^
 *  s0, c1 = u ^ s1 ^ s0 (s = s1 s0), the next state (u << 1) | s1. */
template <class V, class VH>
__attribute__((always_inline)) inline void lanes_outer_forward(const VH* l, const V& neg, V* a)
{
    const V l0 = __builtin_convertvector(l[0], V), l12 = __builtin_convertvector(l[1], V) + __builtin_convertvector(l[2], V);
    V nx[4] = { neg, neg, neg, neg };
    for (int st = 0; st < 4; ++st)
        for (int u = 0; u < 2; ++u) {
            const int c0 = u ^ (st & 1), c1 = u ^ (st >> 1) ^ (st & 1), t = (u << 1) | (st >> 1);
            const V gm = (c0 ? l0 : V{}) + (c1 ? l12 : V{});
            nx[t] = lanes_max(nx[t], a[st] + gm);
        }
    const V top = lanes_max(lanes_max(nx[0], nx[1]), lanes_max(nx[2], nx[3]));
    for (int st = 0; st < 4; ++st)
        a[st] = nx[st] - top;
}

/*! outer_siso::run for the group: lc -> la (the extrinsics of the sent code bits, interleaved:
 *  the inner SISO's next priors); its decisions on the way (lu > 0): the CRC register
 *  of each lane (crc) and, in lanes still decoding (`active`), the information bytes kept. */
template <class V, class VH>
__attribute__((always_inline)) inline void lanes_outer(const lanes_code& c, const lanes_scratch<V, VH>& s,
                                                       const V& neg, const V& limit, const V& scale_q,
                                                       const V& active, V& crc)
{
    const int K = c.K;
    V a[4] = { V{}, neg, neg, neg };
    for (int k = 0; k < K; ++k) {
        if (k % outer_step == 0)
            for (int st = 0; st < 4; ++st)
                s.oa[4 * size_t(k / outer_step) + size_t(st)] = a[st];
        lanes_outer_forward(s.lc + 3 * size_t(k), neg, a);
    }
    V b[4] = { V{}, neg, neg, neg }; // terminated in state 0
    V byte{};
    crc = V{};
    for (int k = K - 1; k >= 0; --k) {
        if (k == K - 1 || k % outer_step == outer_step - 1) { // this segment's forward metrics again
            const int k0 = k / outer_step * outer_step;
            V x[4];
            for (int st = 0; st < 4; ++st)
                x[st] = s.oa[4 * size_t(k0 / outer_step) + size_t(st)];
            for (int q = k0; q <= k; ++q) {
                for (int st = 0; st < 4; ++st)
                    s.seg[4 * (q - k0) + st] = x[st];
                lanes_outer_forward(s.lc + 3 * size_t(q), neg, x);
            }
        }
        const VH* l = s.lc + 3 * size_t(k);
        const V l0 = __builtin_convertvector(l[0], V), l1 = __builtin_convertvector(l[1], V),
                l2 = __builtin_convertvector(l[2], V), l12 = l1 + l2;
        const V* A = s.seg + 4 * (k % outer_step);
        V nx[4] = { neg, neg, neg, neg };
        V one0 = neg, zero0 = neg, one1 = neg, zero1 = neg, u1 = neg, u0 = neg;
        for (int st = 0; st < 4; ++st)
            for (int u = 0; u < 2; ++u) {
                const int c0 = u ^ (st & 1), c1 = u ^ (st >> 1) ^ (st & 1), t = (u << 1) | (st >> 1);
                const V gm = (c0 ? l0 : V{}) + (c1 ? l12 : V{});
                nx[st] = lanes_max(nx[st], gm + b[t]);
                const V x = A[st] + gm + b[t];
                if (c0)
                    one0 = lanes_max(one0, x);
                else
                    zero0 = lanes_max(zero0, x);
                if (c1)
                    one1 = lanes_max(one1, x);
                else
                    zero1 = lanes_max(zero1, x);
                if (u)
                    u1 = lanes_max(u1, x);
                else
                    u0 = lanes_max(u0, x);
            }
        // the extrinsics of the sent code bits, interleaved: the inner SISO's next priors
        const uint32_t* to = c.unmap + 3 * size_t(k);
        if (to[0] != not_sent)
            s.la[to[0]] = __builtin_convertvector(lanes_extrinsic(one0 - zero0 - l0, limit, scale_q), VH);
        if (to[1] != not_sent) // (c2 = c1)
            s.la[to[1]] = __builtin_convertvector(lanes_extrinsic(one1 - zero1 - l1, limit, scale_q), VH);
        if (to[2] != not_sent)
            s.la[to[2]] = __builtin_convertvector(lanes_extrinsic(one1 - zero1 - l2, limit, scale_q), VH);
        const V one_bit = u1 - u0 > V{}; // -1 where the bit decides 1
        if (k < K - 2)
            crc ^= one_bit & (V{} + int32_t(c.crc[k]));
        if (k < c.info_bits) {
            byte |= one_bit & (V{} + int32_t(0x80 >> (k & 7)));
            if ((k & 7) == 0) {
                VH& h = s.hard[k >> 3];
                h = __builtin_convertvector(active ? byte : __builtin_convertvector(h, V), VH);
                byte = V{};
            }
        }
        const V top = lanes_max(lanes_max(nx[0], nx[1]), lanes_max(nx[2], nx[3]));
        for (int st = 0; st < 4; ++st)
            b[st] = nx[st] - top;
    }
}

/*! The group's slot metrics from its int8 input (fixed_slot_metric), eight slots of every lane
 *  at a time; returns, per lane, -1 where a photon count was negative (input=counts) */
template <class V, class VH, int LANES>
__attribute__((always_inline)) inline V lanes_load(const lanes_code& c, const lanes_io& io,
                                                   const lanes_scratch<V, VH>& s)
{
    const size_t slots = size_t(c.symbols) * size_t(c.M); // (a multiple of 8)
    const int8_t* lane[LANES];
    for (int l = 0; l < LANES; ++l)
        lane[l] = io.soft + size_t(l < io.used ? l : io.used - 1) * slots;
    const VH zero{}, floor = simd_splat<VH, LANES, int16_t>(int16_t(c.counts ? 0 : -127));
    VH negative{};
    for (size_t v = 0; v < slots; v += 8) {
        simd_transpose_bytes<VH, LANES>(lane, v, s.ch + v);
        for (int k = 0; k < 8; ++k) {
            VH& x = s.ch[v + size_t(k)];
            negative |= x < zero;
            x = (x < floor ? floor : x) << frac_bits;
        }
    }
    return c.counts ? __builtin_convertvector(negative, V) : V{};
}

//! the bytes of a group's scratch (lanes_scratch)
template <class V, class VH>
inline size_t lanes_scratch_bytes(const lanes_code& c)
{
    return lanes_scratch<V, VH>::bytes(c);
}

//! scppm::codeword_decoder::decode for a group of codewords, one a lane
template <class V, class VH, int LANES>
__attribute__((always_inline)) inline void lanes_decode(const lanes_code& c, const lanes_io& io, void* mem)
{
    const lanes_scratch<V, VH> s(c, mem);
    const V negative = lanes_load<V, VH, LANES>(c, io, s);
    const size_t n = scppm_code::code_bits, k3 = 3 * size_t(c.K);
    for (size_t j = 0; j < n; ++j)
        s.la[j] = VH{};
    for (size_t j = 0; j < k3; ++j)
        s.lc[j] = VH{}; // (the punctured code bits stay 0)
    const V neg = V{} + maxlog_fixed::neg, limit = V{} + ext_limit_fixed, scale_q = V{} + c.scale_q;
    const V crc_zero = V{} + int32_t(c.crc_zero);
    V active = V{} == V{}, iters{}, ok{}, crc{};
    for (int it = 1; it <= c.max_iter; ++it) {
        lanes_inner(c, s, neg, limit, scale_q); // la -> lc
        lanes_outer(c, s, neg, limit, scale_q, active, crc); // lc -> la
        const V pass = crc == crc_zero;
        iters = active ? V{} + it : iters;
        ok = active ? pass : ok;
        active &= ~pass;
        bool any = false;
        for (int l = 0; l < io.used; ++l)
            any |= active[l] != 0;
        if (!any)
            break;
    }
    const size_t bytes = (size_t(c.info_bits) + 7) / 8;
    for (int l = 0; l < io.used; ++l) {
        uint8_t* out = io.packed + size_t(l) * bytes;
        for (size_t b = 0; b < bytes; ++b)
            out[b] = uint8_t(s.hard[b][l]);
        frame_status& st = io.status[l];
        st.iterations = iters[l];
        st.check = negative[l] ? 0 : int8_t(ok[l] != 0);
        st.erased = negative[l] != 0;
    }
}

} // namespace scppm
} // namespace gpufec

#pragma GCC diagnostic pop

#endif
