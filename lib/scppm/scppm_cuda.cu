/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* SCPPM on the GPU by trellis-stage combining, max-log in 32-bit fixed point: the same numbers
 * as the CPU twin (scppm_siso.h, maxlog_fixed), because max and + on integers give the same
 * result in any order and the per-stage normalisations cancel in every output.
 *
 * Parallel mapping: one thread block (256 threads) decodes one codeword, every iteration, in one
 * launch; a codeword whose CRC passes leaves, and its SM takes the next codeword. For each SISO a
 * thread owns a contiguous segment of trellis stages (inner: ceil(15120/m / 256) PPM symbols;
 * outer: ceil(K / 256) bits):
 *   A. it combines its stages' transition matrices (max-plus products: 2x2 inner, 4x4 outer)
 *      into one matrix for the segment, keeping the partial product at every 8th stage;
 *   B. the block combines the 256 segment matrices in a tree (warp shuffles, then across the
 *      8 warps): each thread gets the product of all segments before its own (so its starting
 *      forward metrics) and after it (its ending backward metrics): log2(256) levels instead of
 *      the N sequential steps of BCJR;
 *   C. it runs its segment backwards 8 stages at a time (forward metrics of the 8 recomputed
 *      into registers from the kept partial product; for M >= 16 from the inner code's stage
 *      matrices kept from A in local memory) and writes the extrinsic LLRs.
 * Memory: the codeword's int8 slots stay in global memory (read through the caches); the two
 * LLR arrays that the SISOs exchange, both in the punctured stream's order (the interleaver's
 * input order), 15120 int16 each, and the decisions live in shared memory. Only the inner SISO
 * permutes: it gathers its priors from and scatters its extrinsics to pi(j) for its bit j, with
 * pi walked incrementally along its segment (pi_walker), neither computed per bit nor looked up. The CRC-32 is checked on the GPU as
 * the XOR of each set bit's contribution to the register (a table), reduced over the block. */
#include <gnuradio/gpufec/core/codes/crc.h>

#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "scppm_codeword.h"
#include "scppm_engine.h"
#include <algorithm>
#include <vector>

namespace gpufec {

namespace {

// threads a codeword: measured on an H100 (M=16 rate 2/3), 128 and 512 are 1.4-1.5 times slower
constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
// registers are held to 2 blocks an SM (shared memory would allow 3). Measured on an H100, M=16
// rate 2/3, 4096 codewords: 1 block 0.66 / 3.11 Gb/s (32 / 6.3 iterations), 2 blocks 0.84 / 3.76,
// 3 blocks 0.68 / 3.01 (spills in the hot loops)
constexpr int BLOCKS_PER_SM = 2;
constexpr int NB = scppm_code::code_bits;
constexpr int NEG = scppm::maxlog_fixed::neg;
constexpr int SUB = 8;      // stages whose forward metrics a thread holds in registers
constexpr int MAX_SUBS = 8; // sub-segments per thread segment (outer K / 256 / 8 <= 5)

struct kernel_args {
    const int8_t* in;
    uint8_t* bits;
    frame_status* status;
    const uint32_t* crc_w; // per outer input bit k < K - 2: its contribution to the CRC register
    uint32_t crc_zero;     // the register that passes (the CRC of all-zero information)
    int frames, symbols, K, info_bits, bytes, max_it, scale_q, counts;
    int kept_per_period;   // kept code bits per 6 (2 outer stages)
    int prefix[6];         // kept bits before position r of the period
    int kept[6];
};

using scppm::fixed_extrinsic;
using scppm::fixed_slot_metric;
using scppm::interleave_index;

// ---- S x S max-plus matrices (row = from state, column = to state)

template <int S>
struct mat {
    int v[S * S];
};

template <int S>
__device__ inline mat<S> identity()
{
    mat<S> r;
#pragma unroll
    for (int i = 0; i < S * S; ++i)
        r.v[i] = i % (S + 1) == 0 ? 0 : NEG;
    return r;
}

//! normalised: the largest entry becomes 0, impossible entries stay at NEG
template <int S>
__device__ inline void normalise(mat<S>& c)
{
    int top = c.v[0];
#pragma unroll
    for (int i = 1; i < S * S; ++i)
        top = max(top, c.v[i]);
#pragma unroll
    for (int i = 0; i < S * S; ++i)
        c.v[i] = max(c.v[i] - top, NEG);
}

template <int S>
__device__ inline mat<S> mul(const mat<S>& a, const mat<S>& b)
{
    mat<S> c;
#pragma unroll
    for (int i = 0; i < S; ++i)
#pragma unroll
        for (int j = 0; j < S; ++j) {
            int x = a.v[i * S] + b.v[j];
#pragma unroll
            for (int r = 1; r < S; ++r)
                x = max(x, a.v[i * S + r] + b.v[r * S + j]);
            c.v[i * S + j] = x;
        }
    normalise(c);
    return c;
}

//! a matrix from the lane `d` below (up) or above (down)
template <int S, bool up>
__device__ inline mat<S> shuffle(const mat<S>& a, int d)
{
    mat<S> r;
#pragma unroll
    for (int i = 0; i < S * S; ++i)
        r.v[i] = up ? __shfl_up_sync(0xffffffffu, a.v[i], d) : __shfl_down_sync(0xffffffffu, a.v[i], d);
    return r;
}

/*! The tree over the block's segment matrices t: `before` = the product of the segments of
 *  lower threads, `after` = of higher ones (identity at the ends). `sh` holds 2 * WARPS. */
template <int S>
__device__ void combine_segments(const mat<S>& t, mat<S>& before, mat<S>& after, mat<S>* sh)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    mat<S> inc = t, sinc = t;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const mat<S> o = shuffle<S, true>(inc, d), p = shuffle<S, false>(sinc, d);
        if (lane >= d)
            inc = mul(o, inc);
        if (lane + d < 32)
            sinc = mul(sinc, p);
    }
    mat<S> ex = shuffle<S, true>(inc, 1), sex = shuffle<S, false>(sinc, 1);
    if (lane == 0)
        ex = identity<S>();
    if (lane == 31)
        sex = identity<S>();
    if (lane == 31)
        sh[w] = inc;
    if (lane == 0)
        sh[WARPS + w] = sinc;
    __syncthreads();
    mat<S> wp = identity<S>(), ws = identity<S>();
    for (int q = 0; q < w; ++q)
        wp = mul(wp, sh[q]);
    for (int q = WARPS - 1; q > w; --q)
        ws = mul(sh[WARPS + q], ws);
    before = mul(wp, ex);
    after = mul(sex, ws);
    __syncthreads();
}

/*! pi(j) = (11 j + 210 j^2) mod 15120 along consecutive j: pi(j + 1) - pi(j) = 221 + 420 j, so a
 *  step costs two adds and two compares (the same numbers as interleave_index). */
struct pi_walker {
    int p, d; //!< pi(j), and pi(j + 1) - pi(j) mod 15120
    __device__ explicit pi_walker(int j) : p(interleave_index(j)), d((221 + 420 * j) % NB) {}
    __device__ void next()
    {
        p += d;
        p -= p >= NB ? NB : 0;
        d += 420;
        d -= d >= NB ? NB : 0;
    }
    __device__ void prev()
    {
        d -= 420;
        d += d < 0 ? NB : 0;
        p -= d;
        p += p < 0 ? NB : 0;
    }
};

// ---- the inner code: accumulator + PPM, 2 states, one stage per symbol

/* Input u walks the Gray code: at step g it is g ^ (g >> 1), whose symbol from state 0 is g
 * itself (the accumulator undoes the Gray code) and from state 1 is g ^ (M - 1); one prior
 * changes sign per step, so the prior sum of u costs one add. */
template <int m>
struct inner_stage {
    static constexpr int M = 1 << m;
    static constexpr int WORDS = M <= 32 ? M / 4 : 1; // M <= 32: the symbol's slots in registers
    static constexpr int UNROLL = M <= 32 ? M : 16;
    const int8_t* row;
    uint32_t w[WORDS];
    int lr[m];
    int counts;

    //! la: the priors in the interleaver's input order; pi: the stage's bits' places there
    __device__ inner_stage(const int8_t* ch, const int16_t* la, const int* pi, int i, int counts_)
        : row(ch + size_t(i) * M), counts(counts_)
    {
        if constexpr (M <= 32) {
            const uint32_t* p = reinterpret_cast<const uint32_t*>(row); // 4-byte aligned: M >= 4
#pragma unroll
            for (int q = 0; q < WORDS; ++q)
                w[q] = __ldg(p + q);
        }
#pragma unroll
        for (int t = 0; t < m; ++t)
            lr[t] = la[pi[t]];
    }
    //! the metric of slot e (e a compile-time index where the slots are in registers)
    __device__ int slot(int e) const
    {
        if constexpr (M <= 32)
            return fixed_slot_metric(int8_t(w[e >> 2] >> (8 * (e & 3))), counts);
        else
            return fixed_slot_metric(__ldg(row + e), counts);
    }
    //! the prior sum after Gray step g (g > 0): the one bit that flips, with its new sign
    __device__ int prior_step(int g) const
    {
        const int b = __ffs(g) - 1;
        return ((g ^ (g >> 1)) >> b) & 1 ? lr[m - 1 - b] : -lr[m - 1 - b];
    }
    //! the stage's 2x2 transition matrix d[from][to]
    __device__ void delta(int d[4]) const
    {
        d[0] = d[1] = d[2] = d[3] = NEG;
        int P = 0;
#pragma unroll UNROLL
        for (int g = 0; g < M; ++g) {
            if (g)
                P += prior_step(g);
            const int x0 = slot(g) + P, x1 = slot(g ^ (M - 1)) + P;
            if (g & 1) {
                d[1] = max(d[1], x0);
                d[2] = max(d[2], x1);
            } else {
                d[0] = max(d[0], x0);
                d[3] = max(d[3], x1);
            }
        }
    }
};

__device__ inline void step2(const int d[4], int& a0, int& a1) // forward, normalised
{
    const int n0 = max(a0 + d[0], a1 + d[2]), n1 = max(a0 + d[1], a1 + d[3]);
    const int top = max(n0, n1);
    a0 = n0 - top;
    a1 = n1 - top;
}

template <int m>
__device__ void inner_siso(const kernel_args& a, const int8_t* ch, const int16_t* la, int16_t* lv, mat<2>* sh)
{
    const int N = a.symbols, L = (N + THREADS - 1) / THREADS;
    const int i0 = min(N, int(threadIdx.x) * L), i1 = min(N, i0 + L);
    // A: the segment's matrix, and the partial product at the start of each 8 stages
    mat<2> seg = identity<2>();
    mat<2> part[MAX_SUBS];
    // M >= 16: each stage's matrix is kept (local memory) for the forward recursion of C instead of
    // being computed again (H100, 32 iterations: M=16 +8.6%; M=4, whose stages are cheap and whose
    // segments are long, -3.7%)
    constexpr bool keep = (1 << m) >= 16;
    int4 kept[keep ? SUB * MAX_SUBS : 1];
    pi_walker wa(i0 * m);
    for (int i = i0, q = 0; i < i1; ++i, ++q) {
        if (q % SUB == 0)
            part[q / SUB] = seg;
        int pi[m];
#pragma unroll
        for (int t = 0; t < m; ++t, wa.next())
            pi[t] = wa.p;
        int d[4];
        inner_stage<m>(ch, la, pi, i, a.counts).delta(d);
        if constexpr (keep)
            kept[q] = make_int4(d[0], d[1], d[2], d[3]);
        mat<2> dm;
        dm.v[0] = d[0], dm.v[1] = d[1], dm.v[2] = d[2], dm.v[3] = d[3];
        seg = mul(seg, dm);
    }
    // B: starting forward metrics (from state 0) and ending backward metrics (free end)
    mat<2> before, after;
    combine_segments(seg, before, after, sh);
    int b0 = max(after.v[0], after.v[1]), b1 = max(after.v[2], after.v[3]);
    // C: sub-segments from the last, forward metrics recomputed, then backward with extrinsics
    const int nsub = (i1 - i0 + SUB - 1) / SUB;
    pi_walker wb(max(i1 * m - 1, 0)); // walks back from the segment's last bit
    for (int sb = nsub - 1; sb >= 0; --sb) {
        const mat<2>& p = part[sb];
        int a0 = max(before.v[0] + p.v[0], before.v[1] + p.v[2]);
        int a1 = max(before.v[0] + p.v[1], before.v[1] + p.v[3]);
        const int s0 = i0 + sb * SUB;
        int A0[SUB], A1[SUB];
        pi_walker wf(keep ? 0 : s0 * m);
#pragma unroll
        for (int q = 0; q < SUB; ++q)
            if (s0 + q < i1) {
                A0[q] = a0;
                A1[q] = a1;
                int d[4];
                if constexpr (keep) {
                    const int4 k4 = kept[sb * SUB + q];
                    d[0] = k4.x, d[1] = k4.y, d[2] = k4.z, d[3] = k4.w;
                } else {
                    int pi[m];
#pragma unroll
                    for (int t = 0; t < m; ++t, wf.next())
                        pi[t] = wf.p;
                    inner_stage<m>(ch, la, pi, s0 + q, a.counts).delta(d);
                }
                step2(d, a0, a1);
            }
#pragma unroll
        for (int q = SUB - 1; q >= 0; --q)
            if (s0 + q < i1) {
                const int i = s0 + q;
                int pi[m];
#pragma unroll
                for (int t = m - 1; t >= 0; --t, wb.prev())
                    pi[t] = wb.p;
                const inner_stage<m> st(ch, la, pi, i, a.counts);
                constexpr int M = 1 << m;
                int one[m], zero[m];
#pragma unroll
                for (int t = 0; t < m; ++t)
                    one[t] = zero[t] = NEG;
                int n0 = NEG, n1 = NEG, P = 0;
#pragma unroll inner_stage<m>::UNROLL
                for (int g = 0; g < M; ++g) {
                    if (g)
                        P += st.prior_step(g);
                    const int x0 = st.slot(g) + P, x1 = st.slot(g ^ (M - 1)) + P;
                    const int e0 = (g & 1) ? b1 : b0, e1 = (g & 1) ? b0 : b1; // beta at each edge's end
                    n0 = max(n0, x0 + e0);
                    n1 = max(n1, x1 + e1);
                    const int mu = max(A0[q] + x0 + e0, A1[q] + x1 + e1);
                    const int u = g ^ (g >> 1);
#pragma unroll
                    for (int t = 0; t < m; ++t) {
                        if ((u >> (m - 1 - t)) & 1)
                            one[t] = max(one[t], mu);
                        else
                            zero[t] = max(zero[t], mu);
                    }
                }
#pragma unroll
                for (int t = 0; t < m; ++t)
                    lv[pi[t]] = int16_t(fixed_extrinsic(one[t] - zero[t] - st.lr[t], a.scale_q));
                const int top = max(n0, n1);
                b0 = n0 - top;
                b1 = n1 - top;
            }
    }
}

// ---- the outer code: (5,7,7), 4 states, one stage per input bit

struct outer_stage {
    int l[3];    // code-bit LLRs (0 where punctured)
    int rank[3]; // position in the punctured stream, -1 where punctured
    __device__ outer_stage(const kernel_args& a, const int16_t* lv, int k)
    {
#pragma unroll
        for (int r = 0; r < 3; ++r) {
            const int ph = 3 * (k & 1) + r;
            rank[r] = a.kept[ph] ? (k >> 1) * a.kept_per_period + a.prefix[ph] : -1;
            l[r] = rank[r] >= 0 ? lv[rank[r]] : 0;
        }
    }
    __device__ int gamma(int s, int u) const
    {
        const int c0 = u ^ (s & 1), c1 = u ^ (s >> 1) ^ (s & 1);
        return (c0 ? l[0] : 0) + (c1 ? l[1] + l[2] : 0);
    }
};

__device__ inline int next_state(int s, int u) { return (u << 1) | (s >> 1); }

//! row vector (4 states) through one stage, not normalised
__device__ inline void outer_row(const outer_stage& st, const int* a, int* n)
{
    n[0] = n[1] = n[2] = n[3] = NEG;
#pragma unroll
    for (int s = 0; s < 4; ++s)
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const int t = next_state(s, u);
            n[t] = max(n[t], a[s] + st.gamma(s, u));
        }
}

//! returns this thread's part of the CRC register of the decisions; writes the decisions to dec
__device__ uint32_t outer_siso(const kernel_args& a, const int16_t* lv, int16_t* la, uint32_t* dec, mat<4>* sh)
{
    const int K = a.K, L = (K + THREADS - 1) / THREADS;
    const int k0 = min(K, int(threadIdx.x) * L), k1 = min(K, k0 + L);
    mat<4> seg = identity<4>();
    mat<4> part[MAX_SUBS];
    for (int k = k0, q = 0; k < k1; ++k, ++q) {
        if (q % SUB == 0)
            part[q / SUB] = seg;
        const outer_stage st(a, lv, k);
        mat<4> n;
#pragma unroll
        for (int s = 0; s < 4; ++s)
            outer_row(st, seg.v + 4 * s, n.v + 4 * s);
        // normalised every 4 stages: 4 stages add at most 4 x 3 x 2^15 to an entry, far from
        // overflow and from NEG, and a constant taken from every entry changes no output
        if ((q & 3) == 3)
            normalise(n);
        seg = n;
    }
    normalise(seg);
    mat<4> before, after;
    combine_segments(seg, before, after, sh);
    int b[4]; // terminated in state 0
#pragma unroll
    for (int s = 0; s < 4; ++s)
        b[s] = after.v[4 * s];
    uint32_t crc = 0, word = 0;
    int word_at = -1;
    const int nsub = (k1 - k0 + SUB - 1) / SUB;
    for (int sb = nsub - 1; sb >= 0; --sb) {
        const mat<4>& p = part[sb];
        int al[4]; // before's row 0 (the start state) times the partial product
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            int x = before.v[0] + p.v[t];
#pragma unroll
            for (int s = 1; s < 4; ++s)
                x = max(x, before.v[s] + p.v[4 * s + t]);
            al[t] = x;
        }
        const int s0 = k0 + sb * SUB;
        int A[SUB][4];
#pragma unroll
        for (int q = 0; q < SUB; ++q)
            if (s0 + q < k1) {
                const outer_stage st(a, lv, s0 + q);
                int n[4];
#pragma unroll
                for (int s = 0; s < 4; ++s)
                    A[q][s] = al[s];
                outer_row(st, al, n);
                const int top = max(max(n[0], n[1]), max(n[2], n[3]));
#pragma unroll
                for (int s = 0; s < 4; ++s)
                    al[s] = n[s] - top;
            }
#pragma unroll
        for (int q = SUB - 1; q >= 0; --q)
            if (s0 + q < k1) {
                const int k = s0 + q;
                const outer_stage st(a, lv, k);
                int n[4] = { NEG, NEG, NEG, NEG };
                int one0 = NEG, zero0 = NEG, one1 = NEG, zero1 = NEG, u1 = NEG, u0 = NEG;
#pragma unroll
                for (int s = 0; s < 4; ++s)
#pragma unroll
                    for (int u = 0; u < 2; ++u) {
                        const int t = next_state(s, u), g = st.gamma(s, u);
                        n[s] = max(n[s], g + b[t]);
                        const int x = A[q][s] + g + b[t];
                        const int c0 = u ^ (s & 1), c1 = u ^ (s >> 1) ^ (s & 1);
                        if (c0)
                            one0 = max(one0, x);
                        else
                            zero0 = max(zero0, x);
                        if (c1)
                            one1 = max(one1, x);
                        else
                            zero1 = max(zero1, x);
                        if (u)
                            u1 = max(u1, x);
                        else
                            u0 = max(u0, x);
                    }
                const int app[3] = { one0 - zero0, one1 - zero1, one1 - zero1 };
#pragma unroll
                for (int r = 0; r < 3; ++r)
                    if (st.rank[r] >= 0)
                        la[st.rank[r]] = int16_t(fixed_extrinsic(app[r] - st.l[r], a.scale_q));
                const bool bit = u1 - u0 > 0;
                if (bit && k < K - 2)
                    crc ^= __ldg(a.crc_w + k);
                if ((k >> 5) != word_at) {
                    if (word_at >= 0 && word)
                        atomicOr(dec + word_at, word);
                    word_at = k >> 5;
                    word = 0;
                }
                word |= uint32_t(bit) << (31 - (k & 31));
                const int top = max(max(n[0], n[1]), max(n[2], n[3]));
#pragma unroll
                for (int s = 0; s < 4; ++s)
                    b[s] = n[s] - top;
            }
    }
    if (word_at >= 0 && word)
        atomicOr(dec + word_at, word);
    return crc;
}

template <int m>
__global__ void __launch_bounds__(THREADS, BLOCKS_PER_SM) scppm_kernel(kernel_args a)
{
    extern __shared__ int16_t sh16[];
    int16_t* la = sh16;      // inner priors, punctured stream order (the inner SISO permutes)
    int16_t* lv = sh16 + NB; // outer code-bit LLRs, punctured stream order
    __shared__ mat<4> scan[2 * WARPS];
    __shared__ uint32_t dec[(10080 + 31) / 32];
    __shared__ uint32_t crc_part[WARPS];
    const int f = blockIdx.x;
    if (f >= a.frames)
        return;
    constexpr int M = 1 << m;
    const int8_t* ch = a.in + size_t(f) * size_t(a.symbols) * M;
    bool negative = false;
    if (a.counts)
        for (int i = threadIdx.x; i < a.symbols * M; i += THREADS)
            negative |= ch[i] < 0;
    const bool bad = __syncthreads_or(negative);
    for (int i = threadIdx.x; i < NB; i += THREADS)
        la[i] = 0;
    const int words = (a.K + 31) / 32;
    int it = 1;
    bool passed = false;
    for (;; ++it) {
        for (int i = threadIdx.x; i < words; i += THREADS)
            dec[i] = 0;
        __syncthreads();
        inner_siso<m>(a, ch, la, lv, reinterpret_cast<mat<2>*>(scan));
        __syncthreads();
        uint32_t crc = outer_siso(a, lv, la, dec, scan);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1)
            crc ^= __shfl_xor_sync(0xffffffffu, crc, d);
        if ((threadIdx.x & 31) == 0)
            crc_part[threadIdx.x >> 5] = crc;
        __syncthreads();
        uint32_t total = 0;
#pragma unroll
        for (int w = 0; w < WARPS; ++w)
            total ^= crc_part[w];
        passed = total == a.crc_zero;
        if (passed || it == a.max_it)
            break;
    }
    // the decisions (info bits, MSB first; the CRC bits after them are cleared)
    uint8_t* out = a.bits + size_t(f) * size_t(a.bytes);
    for (int byte = threadIdx.x; byte < a.bytes; byte += THREADS) {
        uint8_t v = uint8_t(dec[byte >> 2] >> (24 - 8 * (byte & 3)));
        const int valid = a.info_bits - 8 * byte;
        if (valid < 8)
            v &= uint8_t(0xFF00u >> valid);
        out[byte] = v;
    }
    if (threadIdx.x == 0) {
        frame_status r; // (a negative count: erased, its check failed)
        r.iterations = it;
        r.check = passed && !bad;
        r.erased = bad;
        a.status[f] = r;
    }
}

class scppm_cuda : public frame_engine
{
public:
    scppm_cuda(const scppm_setup& s, int device, size_t max_batch) : d_s(s), d_dev(device)
    {
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        const scppm_code& c = s.code;
        switch (c.m) {
        case 2: d_kernel = scppm_kernel<2>; break;
        case 3: d_kernel = scppm_kernel<3>; break;
        case 4: d_kernel = scppm_kernel<4>; break;
        case 5: d_kernel = scppm_kernel<5>; break;
        case 6: d_kernel = scppm_kernel<6>; break;
        case 7: d_kernel = scppm_kernel<7>; break;
        default: d_kernel = scppm_kernel<8>; break;
        }
        d_shared = 2 * size_t(NB) * sizeof(int16_t);
        allow_dynamic_shared(d_kernel, d_shared, "SCPPM GPU decoder");
        int per_sm = 0;
        GPUFEC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d_kernel, THREADS, d_shared));
        if (per_sm < 1)
            throw std::runtime_error("SCPPM GPU decoder: no block fits on an SM");
        static_assert((10080 + THREADS - 1) / THREADS <= SUB * MAX_SUBS, "outer segments fit the kept products");
        static_assert((15120 / 2 + THREADS - 1) / THREADS <= SUB * MAX_SUBS, "inner segments fit the kept products");
        d_per_wave = size_t(per_sm) * size_t(prop.multiProcessorCount);
        d_chunk = max_batch ? max_batch : 4 * d_per_wave; // a few waves: passing codewords leave early
        const int K = c.outer_input_bits(), n = c.info_bits();
        const std::vector<uint32_t> w = scppm::crc_responses(c);
        d_args.crc_zero = scppm::crc_zero(c);
        d_crc_w.resize(w.size());
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_crc_w.get(), w.data(), w.size() * 4, cudaMemcpyHostToDevice));
        d_args.crc_w = d_crc_w.get();
        d_args.symbols = c.symbols();
        d_args.K = K;
        d_args.info_bits = n;
        d_args.bytes = (n + 7) / 8;
        d_args.max_it = s.max_iterations;
        d_args.scale_q = scppm::ext_scale(s.scaling).scale_q;
        d_args.counts = s.counts;
        const char* pat = c.puncture_pattern();
        int kept = 0;
        for (int r6 = 0; r6 < 6; ++r6) {
            d_args.prefix[r6] = kept;
            d_args.kept[r6] = pat[r6] == '1';
            kept += d_args.kept[r6];
        }
        d_args.kept_per_period = kept;
        pipeline_layout l;
        l.in = { d_chunk * c.slots() };
        l.out = { d_chunk * size_t(d_args.bytes), d_chunk * sizeof(frame_status) };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
    }

    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") fixed-point max-log, trellis-stage combining";
    }
    bool on_gpu() const override { return true; }

    void run(const engine_batch& b, const engine_output& out) override
    {
        const int8_t* in = b.soft;
        const size_t frames = b.frames;
        uint8_t* bits = out.packed;
        frame_status* report = out.status;
        if (frames == 0)
            return;
        device_guard g(d_dev);
        const size_t n = d_s.code.slots(), bytes = size_t(d_args.bytes);
        const int64_t chunks = int64_t((frames + d_chunk - 1) / d_chunk);
        d_pipe->run(
            chunks,
            [&](int64_t c) {
                const size_t at = size_t(c) * d_chunk, m = std::min(d_chunk, frames - at);
                chunk_io io;
                io.in[0] = in + at * n;
                io.in_bytes[0] = m * n;
                io.out[0] = bits + at * bytes;
                io.out_bytes[0] = m * bytes;
                io.out[1] = report + at;
                io.out_bytes[1] = m * sizeof(frame_status);
                return io;
            },
            [&](int64_t c, const slot_view& v) {
                const size_t m = std::min(d_chunk, frames - size_t(c) * d_chunk);
                enqueue(v.stream, v.input<const int8_t>(0), m, v.output<uint8_t>(0), v.output<frame_status>(1));
            });
    }

    double time_kernels(const int8_t* in, size_t frames, int reps) override
    {
        device_guard g(d_dev);
        const size_t m = std::min(d_chunk, frames), n = d_s.code.slots();
        device_buffer<int8_t> d_in(m * n);
        device_buffer<uint8_t> out(m * size_t(d_args.bytes));
        device_buffer<frame_status> rep(m);
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in, m * n, cudaMemcpyHostToDevice, st.get()));
        const double t = time_on_stream(st.get(), reps, [&] { enqueue(st.get(), d_in.get(), m, out.get(), rep.get()); });
        return t * double(frames) / double(m);
    }

private:
    void enqueue(cudaStream_t s, const int8_t* in, size_t m, uint8_t* bits, frame_status* report)
    {
        kernel_args a = d_args;
        a.in = in;
        a.bits = bits;
        a.status = report;
        a.frames = int(m);
        d_kernel<<<unsigned(m), THREADS, d_shared, s>>>(a);
        GPUFEC_CUDA_CHECK_LAUNCH("scppm_kernel");
    }

    scppm_setup d_s;
    int d_dev;
    std::string d_gpu;
    void (*d_kernel)(kernel_args) = nullptr;
    size_t d_shared = 0, d_chunk = 0, d_per_wave = 0;
    kernel_args d_args{};
    device_buffer<uint32_t> d_crc_w;
    std::unique_ptr<batch_pipeline> d_pipe;
};

} // namespace

std::unique_ptr<frame_engine> make_scppm_cuda(const scppm_setup& s, int device, size_t max_batch)
{
    return std::make_unique<scppm_cuda>(s, device, max_batch);
}

} // namespace gpufec
