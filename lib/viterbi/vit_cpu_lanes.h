/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU engine's inner loop: one trellis, LANES jobs at once (lane l = job l of a group),
 * with the shared 16-bit arithmetic of vit_common.h. Every per-state quantity is a vector of
 * LANES int16 (GCC/Clang vector extensions), so each add-compare-select is a few SIMD
 * instructions whatever the instruction set the caller was compiled for (SSE2, AVX2 or
 * AVX-512: one instantiation per set, chosen at run time in vit_cpu.cc).
 *
 * Layout: pm[state] and next[state] are vectors of lanes; decisions of one stage are
 * N/16 words per lane, dec[stage * words + w][lane], bit (state % 16) of word state / 16 set
 * when the survivor came from the upper predecessor. */
#ifndef INCLUDED_GPUFEC_VITERBI_VIT_CPU_LANES_H
#define INCLUDED_GPUFEC_VITERBI_VIT_CPU_LANES_H

#include "vit_common.h"
#include "../runtime/simd_vectors.h"
#include <cstddef>
#include <cstdint>

// every vector function here is inlined into its caller, so the ABI of vector arguments
// between instruction sets never applies
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

template <int LANES>
struct lane_vec;
// 16-byte alignment only: nothing beyond what allocators guarantee is assumed
template <>
struct lane_vec<8> {
    typedef int16_t type __attribute__((vector_size(16), aligned(16)));
};
template <>
struct lane_vec<16> {
    typedef int16_t type __attribute__((vector_size(32), aligned(16)));
};
template <>
struct lane_vec<32> {
    typedef int16_t type __attribute__((vector_size(64), aligned(16)));
};

//! Scratch of one group: sized by the caller as (2 * N + 2^n + stages * words) vectors.
template <int LANES>
inline size_t lanes_scratch_vectors(const vit_params& p, int length)
{
    const int N = 1 << (p.K - 1);
    return size_t(2 * N + (1 << p.n)) + size_t(length) * size_t((N + 15) / 16);
}

/*! Forward pass and traceback of LANES jobs of equal shape (same length and output window).
 *  bm_index[2 * s + x]: output pattern of the branch from state s with input x. SYMMETRIC: the
 *  code's butterflies are symmetric (every generator taps the newest and the oldest bit: the
 *  branches j -> 2j and j + N/2 -> 2j + 1 carry pattern bm_index[2j], the two others its
 *  complement, whose metric is its negation), so a butterfly reads one metric. KC: the
 *  constraint length where known at compile time (its loops then unroll, their masks become
 *  constants), or 0. Lanes >= used repeat job used-1 and are not written out. */
template <int LANES, int KC = 0, bool SYMMETRIC = false>
__attribute__((always_inline)) inline void decode_lanes_body(const vit_params& p,
                                                             const int8_t* soft,
                                                             const vit_job* jobs,
                                                             int used,
                                                             const uint32_t* bm_index,
                                                             uint8_t* out,
                                                             void* scratch)
{
    typedef typename lane_vec<LANES>::type V;
    const int N = 1 << ((KC ? KC : p.K) - 1);
    const int half = N / 2;
    const int words = (N + 15) / 16;
    const int npat = 1 << p.n;
    const int length = jobs[0].length;
    V* pm = static_cast<V*>(scratch);
    V* next = pm + N;
    V* bm = next + N;
    V* dec0 = bm + npat;

    const int16_t init_big = jobs[0].known_start ? int16_t(vit_init_big) : int16_t(0);
    for (int s = 0; s < N; ++s) {
        pm[s] = V{};
        if (s)
            pm[s] += init_big;
    }

    stage_cursor cur[LANES];
    for (int l = 0; l < LANES; ++l)
        cur[l].init(p, jobs[l]);
    // linear, unpunctured jobs (the common case) read their soft values straight from memory
    // and reduce them in SIMD; others walk the general stage cursor
    bool linear = p.period == 1;
    for (int l = 0; l < LANES; ++l)
        linear &= jobs[l].wrap == 0;
    const int8_t* lane_ptr[LANES];
    for (int l = 0; l < LANES; ++l)
        lane_ptr[l] = soft + jobs[l].soft_base + (linear ? jobs[l].start * p.n : 0);

    V ahead[8]; // rate 1/2, linear: the values of stages t & ~3 .. (t & ~3) + 3
    for (int t = 0; t < length; ++t) {
        V sv[4] = {};
        if (linear) {
            // rate 1/2: each lane's next four stages (8 bytes) in one load a lane, spread into
            // lanes of int16 by vector shifts, instead of a byte load and store a lane and value
            // (a quarter of the engine's time)
            if (p.n == 2 && t % 4 == 0 && t + 4 <= length)
                simd_transpose_bytes<V, LANES>(lane_ptr, size_t(t) * 2, ahead);
            for (int r = 0; r < p.n; ++r) {
                V raw;
                if (p.n == 2 && (t & ~3) + 4 <= length)
                    raw = ahead[2 * (t % 4) + r];
                else
                    for (int l = 0; l < LANES; ++l)
                        raw[l] = lane_ptr[l][size_t(t) * p.n + r];
                const V neg = raw < 0;
                V mag = neg ? -raw : raw;
                mag = mag > 127 ? V{} + int16_t(127) : mag;
                mag >>= V{} + int16_t(p.shift); // vector by vector: GCC's shift sanitizer rejects vector by int
                sv[r] = neg ? -mag : mag;
            }
        } else {
            for (int l = 0; l < LANES; ++l) {
                int s[4];
                load_stage(p, cur[l], soft, s);
                for (int r = 0; r < 4; ++r)
                    sv[r][l] = static_cast<int16_t>(s[r]);
                cur[l].next();
            }
        }
        for (int c = 0; c < npat; ++c) {
            V m{};
            for (int r = 0; r < p.n; ++r)
                m += ((c >> r) & 1) ? -sv[r] : sv[r];
            bm[c] = m;
        }
        // butterflies: old states j and j + N/2 feed new states 2j and 2j + 1; the survivor
        // is the upper one only when strictly smaller (ties keep the lower, as everywhere)
        V* dec = dec0 + size_t(t) * words;
#pragma GCC unroll 16
        for (int w = 0; w < words; ++w) {
            V acc{};
            const int j_end = (w + 1) * 8 < half ? (w + 1) * 8 : half;
#pragma GCC unroll 8
            for (int j = w * 8; j < j_end; ++j) {
                const V lo = pm[j], hi = pm[j + half];
                V a0, b0, a1, b1;
                if constexpr (SYMMETRIC) {
                    const V m = bm[bm_index[2 * j]];
                    a0 = lo + m;
                    b1 = hi + m;
                    a1 = lo - m;
                    b0 = hi - m;
                } else {
                    const uint32_t* ix = bm_index + 2 * j;
                    const uint32_t* iy = bm_index + 2 * (j + half);
                    a0 = lo + bm[ix[0]];
                    b0 = hi + bm[iy[0]];
                    a1 = lo + bm[ix[1]];
                    b1 = hi + bm[iy[1]];
                }
                const V t0 = b0 < a0, t1 = b1 < a1;
                next[2 * j] = t0 ? b0 : a0;
                next[2 * j + 1] = t1 ? b1 : a1;
                const int bit = (2 * j) % 16;
                // named int16_t masks: GCC's shift sanitizer turns an inline cast back into int,
                // which a vector operand refuses
                const int16_t m0 = int16_t(1 << bit), m1 = int16_t(1 << (bit + 1));
                acc |= (t0 & m0) | (t1 & m1);
            }
            dec[w] = acc;
        }
        V* tmp = pm;
        pm = next;
        next = tmp;
        if ((t + 1) % vit_renorm_interval == 0) {
            const V ref = pm[0];
            for (int s = 0; s < N; ++s)
                pm[s] -= ref;
        }
    }

    // Traceback of all lanes at once, stage by stage, in SIMD: each lane's state is an element
    // of a vector; its decision bit is bit (state % 16) of word state / 16 of the stage, picked
    // by comparing state / 16 with each word index (N / 16 words: 4 for K = 7) and shifting
    // each lane by its own count. Output bits are gathered per lane into a byte and stored once
    // it is complete. (The scalar walk, lane after lane, was a third of the engine's time.)
    V state{}, acc{};
    for (int l = 0; l < used; ++l) {
        int best = 0;
        if (jobs[l].tb_best)
            for (int s = 1; s < N; ++s)
                if (pm[s][l] < pm[best][l])
                    best = s;
        state[l] = int16_t(best);
    }
    for (int l = used; l < LANES; ++l)
        state[l] = state[0];
    const V one = V{} + int16_t(1), fifteen = V{} + int16_t(15), four = V{} + int16_t(4);
    const V top = V{} + int16_t(p.K - 2);
    // every lane has the same shape (length, output window); only the destination differs
    const int out_start = jobs[0].out_start, out_len = jobs[0].out_len;
    for (int t = length - 1; t >= 0; --t) {
        const int o = t - out_start;
        if (o >= 0 && o < out_len) {
            acc |= (state & one) << (V{} + int16_t(7 - o % 8));
            if (o % 8 == 0) {
                // bits o .. o + hi of this byte belong to the job; others are left alone
                const int hi = out_len - 1 - o < 7 ? out_len - 1 - o : 7;
                const unsigned mask = (0xFF00u >> (hi + 1)) & 0xFFu;
                for (int l = 0; l < used; ++l) {
                    uint8_t& byte = out[jobs[l].out_byte + o / 8];
                    byte = static_cast<uint8_t>((byte & ~mask) | unsigned(acc[l]));
                }
                acc = V{};
            }
        }
        const V* d = dec0 + size_t(t) * words;
        const V word_of = state >> four;
        V w = d[0];
        for (int k = 1; k < words; ++k)
            w = word_of == int16_t(k) ? d[k] : w;
        const V bit = (w >> (state & fifteen)) & one;
        state = (state >> one) | (bit << top);
    }
}

} // namespace gpufec

#pragma GCC diagnostic pop

#endif
