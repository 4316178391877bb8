/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The paired-butterfly forward kernel (K1) of the CUDA Viterbi engine, for codes of up to
 * three outputs; same arithmetic as vit_common.h, so the same bits as every other engine.
 *
 * Parallel mapping: as the classic K1, one thread owns one job and keeps its N path metrics in
 * registers, two signed 16-bit lanes a word. What differs is which two states share a word.
 * The classic kernel keeps states 2i and 2i+1 together and must copy each old metric into
 * both lanes before the add (two byte permutes a butterfly). Here a word holds two states that
 * differ in one bit, the "lane bit", and one SIMD add-compare-select runs two butterflies:
 * butterflies j0 and j1 = j0 + 2^b (b = the lane bit) read words A = (P[j0], P[j1]) and
 * B = (P[j0 + N/2], P[j1 + N/2]) as they are and write E = (Q[2 j0], Q[2 j1]) and
 * O = (Q[2 j0 + 1], Q[2 j1 + 1]), whose lane bit is b + 1. The lane bit so climbs by one each
 * stage; when it reaches the top bit (K - 2), where A and B of a butterfly share a word, a
 * stage first re-pairs neighbouring words with two byte permutes and the climb restarts at 1.
 * Stage t of a job has phase b = t mod (K - 2): phase 0 re-pairs, phase b > 0 reads words of
 * lane bit b. In every phase pair q (0 <= q < N/4) reads A = P[q], B = P[q + N/4] (phase 0:
 * the re-paired words 2q, 2q + 1) and writes Q[2q] = E, Q[2q + 1] = O; only the branch-metric
 * selectors differ between phases, so the stage loop is unrolled over one cycle of phases and
 * they are compile-time operands.
 *
 * Codes whose generators all tap the newest and the oldest bit (CCSDS, NASA, 802.11, LTE)
 * have complementary butterflies: bm(b0) = bm(a1) = -bm(a0) and bm(b1) = bm(a0), so a pair
 * needs one metric word M and adds or subtracts it (COMP); other codes select four words.
 *
 * Survivors: pair q of a stage writes its four decision bits (E lanes 0 and 1, O lanes 0 and 1)
 * as bit k of bytes 0..3 of word q / 8, k = q mod 8; vit_paired_decision_bit gives the
 * position of a state's bit for the traceback. Memory layout as the classic kernel's:
 * sp[(stage * W + word) * njobs + job].
 */
#ifndef INCLUDED_GPUFEC_VITERBI_VIT_CUDA_PAIRED_CUH
#define INCLUDED_GPUFEC_VITERBI_VIT_CUDA_PAIRED_CUH

#include "vit_common.h"
#include "vit_cuda_simd.cuh"

namespace gpufec {

constexpr int vit_paired_max_phases = 7; // K = 9
constexpr int vit_paired_max_pairs = 64; // K = 9

//! Branch-metric lane selectors of every (phase, pair): a0, b0, a1, b1 (COMP: a0 only).
struct vit_paired_trellis {
    uint32_t sel[vit_paired_max_phases][vit_paired_max_pairs][4];
};

//! s with bit b removed (the bits above move down)
GPUFEC_HD int vit_remove_bit(int s, int b) { return ((s >> (b + 1)) << b) | (s & ((1 << b) - 1)); }
//! s with a bit of value v inserted at b
GPUFEC_HD int vit_insert_bit(int s, int b, int v) { return ((s >> b) << (b + 1)) | (v << b) | (s & ((1 << b) - 1)); }

/*! Where the decision of new state `state` of a stage of phase `phase` lies: word (of the
 *  stage's W) and bit. */
GPUFEC_HD void vit_paired_decision_bit(int state, int phase, int* word, int* bit)
{
    const int j = state >> 1, o = state & 1;
    const int e = (j >> phase) & 1;
    const int q = vit_remove_bit(j, phase);
    *word = q >> 3;
    *bit = (q & 7) + 8 * (2 * o + e);
}

/*! LIN2: the job's soft values are the plain n = 2 sequence (no puncturing, no wrap) from an
 *  even offset: a stage's two int8 values are one 16-bit load, its two packed 4-bit values
 *  one byte (vit_paired_linear2). */
template <int K, bool COMP, bool LIN2>
__global__ void __launch_bounds__(128)
    vit_forward_paired(const vit_params p,
                       const vit_paired_trellis tr,
                       const int8_t* __restrict__ soft,
                       uint32_t* __restrict__ sp,
                       int32_t* __restrict__ start_state,
                       int64_t njobs)
{
    using namespace vit_simd;
    constexpr int N = 1 << (K - 1);
    constexpr int NW = N / 2;         // metric words
    constexpr int NQ = N / 4;         // butterfly pairs
    constexpr int PH = K - 2;         // phases in a cycle
    constexpr int W = (N + 31) / 32;  // decision words per stage
    const int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= njobs)
        return;
    const vit_job job = make_job(p, j);

    // state 0 is word 0, lane 0 in every phase's layout
    uint32_t P[NW];
#pragma unroll
    for (int i = 0; i < NW; ++i)
        P[i] = job.known_start ? (uint32_t(vit_init_big) << 16) | uint32_t(vit_init_big) : 0u;
    if (job.known_start)
        P[0] = uint32_t(vit_init_big) << 16;

    stage_cursor cur;
    cur.init(p, job);
    const int64_t first = job.soft_base + 2 * job.start; // (even)
    const uint16_t* lin = reinterpret_cast<const uint16_t*>(soft + first);
    const uint8_t* lin4 = reinterpret_cast<const uint8_t*>(soft) + first / 2;
    const int len = job.length;
    uint32_t* out = sp + j;
    for (int t0 = 0; t0 < len; t0 += PH) {
#pragma unroll
        for (int b = 0; b < PH; ++b) {
            const int t = t0 + b;
            if (t >= len)
                break;
            int s[4];
            if (LIN2) {
                if (p.soft_bits == 4) {
                    s[0] = reduce_soft(soft4_value(lin4, 2 * t), p.shift);
                    s[1] = reduce_soft(soft4_value(lin4, 2 * t + 1), p.shift);
                } else {
                    const uint32_t v = lin[t];
                    s[0] = reduce_soft(int8_t(v & 0xff), p.shift);
                    s[1] = reduce_soft(int8_t(v >> 8), p.shift);
                }
                s[2] = 0;
            } else {
                load_stage(p, cur, soft, s);
                cur.next();
            }
            // branch metrics of the 8 output patterns as int8 bytes (n <= 3; n = 2 uses 4)
            uint32_t T[2] = { 0, 0 };
#pragma unroll
            for (int w = 0; w < (LIN2 ? 1 : 2); ++w) {
                int m[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int c = 4 * w + i;
                    m[i] = ((c & 1) ? -s[0] : s[0]) + ((c & 2) ? -s[1] : s[1]) + ((c & 4) ? -s[2] : s[2]);
                }
                T[w] = pack_bytes(m[0], m[1], m[2], m[3]);
            }
            uint32_t Q[NW];
            uint32_t dec[W];
#pragma unroll
            for (int w = 0; w < W; ++w)
                dec[w] = 0;
#pragma unroll
            for (int q = 0; q < NQ; ++q) {
                uint32_t A, B;
                if (b == 0) {
                    A = prmt(P[2 * q], P[2 * q + 1], 0x5410);
                    B = prmt(P[2 * q], P[2 * q + 1], 0x7632);
                } else {
                    A = P[q];
                    B = P[q + NQ];
                }
                uint32_t ta0, tb0, ta1, tb1;
                if (COMP) {
                    const uint32_t M = prmt(T[0], T[1], tr.sel[b][q][0]);
                    ta0 = add2(A, M);
                    tb0 = sub2(B, M);
                    ta1 = sub2(A, M);
                    tb1 = add2(B, M);
                } else {
                    ta0 = add2(A, prmt(T[0], T[1], tr.sel[b][q][0]));
                    tb0 = add2(B, prmt(T[0], T[1], tr.sel[b][q][1]));
                    ta1 = add2(A, prmt(T[0], T[1], tr.sel[b][q][2]));
                    tb1 = add2(B, prmt(T[0], T[1], tr.sel[b][q][3]));
                }
                Q[2 * q] = min2(ta0, tb0);
                Q[2 * q + 1] = min2(ta1, tb1);
                // decision sign bits (b won) of the four new states into bit k of each byte
                const uint32_t signs = prmt(sub2(tb0, ta0), sub2(tb1, ta1), 0x7531);
                const int k = q & 7;
                dec[q >> 3] |= (signs >> (7 - k)) & (0x01010101u << k);
            }
#pragma unroll
            for (int w = 0; w < W; ++w)
                out[(int64_t(t) * W + w) * njobs] = dec[w];
            if ((t + 1) % vit_renorm_interval == 0) {
                const uint32_t ref = prmt(Q[0], 0, 0x1010);
#pragma unroll
                for (int i = 0; i < NW; ++i)
                    Q[i] = sub2(Q[i], ref);
            }
#pragma unroll
            for (int i = 0; i < NW; ++i)
                P[i] = Q[i];
        }
    }

    int best = 0;
    if (job.tb_best) {
        // the layout after the last stage has lane bit (len - 1) mod PH + 1
        const int lane_bit = len > 0 ? (len - 1) % PH + 1 : K - 2;
        int bm = 1 << 30;
#pragma unroll
        for (int i = 0; i < NW; ++i)
#pragma unroll
            for (int l = 0; l < 2; ++l) {
                const int m = int(int16_t(l ? P[i] >> 16 : P[i] & 0xffff));
                const int state = vit_insert_bit(i, lane_bit, l);
                if (m < bm || (m == bm && state < best)) {
                    bm = m;
                    best = state;
                }
            }
    }
    start_state[j] = best;
}

//! Whether every job of these params qualifies for the LIN2 form of the kernel.
inline bool vit_paired_linear2(const vit_params& p)
{
    return p.n == 2 && p.period == 1 && p.kept == 2 && p.pos[0] == 0 && p.pos[1] == 1 && p.kind != vit_tailbiting;
}

} // namespace gpufec

#endif
