/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder on the GPU, bit-exact with turbo_fixed_cpu.cc.
 *
 * Parallel mapping. Frames go in pairs: every 32-bit word holds the same quantity of two frames
 * of the pair as two int16 (low half: the even frame), so one SIMD instruction (__vadd2,
 * __vsub2, and Hopper's DPX add-max __viaddmax_s16x2) advances both frames; turbo_fixed.h shows
 * why int16 never overflows. A thread owns one window (GPU_WINDOW = 16 stages) of a frame pair:
 * its 8 state metrics are 8 words in registers (the stage loops are unrolled), and so are the
 * alphas of every 4th stage of its window (4 x 8 words); the backward pass recomputes each
 * 4-stage segment's alphas from its checkpoint into registers. No metric goes to memory but the
 * window boundaries, and the kernel fits 80 registers, so two 384-thread blocks share a
 * multiprocessor (all 16 x 8 alphas held took 165 registers and one block: 12 warps to hide
 * the recursions' latency instead of 24). A thread block holds `group` frame pairs, a thread
 * per window of each; one launch is one half-iteration of every pair of the chunk.
 *
 * Memory. Shared, per pair: the (sys + a-priori, parity) word pairs of every stage in the
 * decoder's order, one 64-bit load a stage, padded one pair per window (stage k at k + k / 16)
 * so that the 16 threads of a half-warp, 34 words apart, hit 32 different banks; the extrinsic
 * output in the other decoder's order (scattered there through the permutation, so global
 * stores are coalesced); the decisions as bits. Per block: the permutation to the other decoder's order. Global: the input (int8, the
 * streams layout), decoder 2's systematic values (gathered once per chunk), the two a-priori
 * arrays (words, each decoder's order) and the window boundaries (words, two buffers that swap
 * roles every iteration). The output is packed decisions, MSB first, and a report per frame.
 *
 * Early stop (a CRC set): decoder 2 writes the decisions of every frame still running at every
 * iteration, a warp per frame then checks its CRC (turbo_crc_kernel) and marks the frame done
 * once it passes; done frames keep their decisions, and a pair whose two frames are done is
 * skipped by the later launches (a block whose pairs are all done returns at once). */
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "turbo_chunks.h"
#include "turbo_crc_cuda.cuh"
#include "turbo_engine.h"
#include "turbo_fixed.h"
#include "turbo_fixed_pairs.cuh"
#include "turbo_rsc.h"
#include "runtime/soft4.h"

#include <gnuradio/gpufec/core/codes/interleaver.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace gpufec {

namespace {

using namespace turbo_fx;

constexpr int GW = GPU_WINDOW;                // stages per window
constexpr int PAD = GW + 1;                   // words per window in shared memory
constexpr int MAX_THREADS = 384;              // K = 6144: 384 windows
constexpr int MIN_BLOCKS = 2;                 // blocks a multiprocessor: 80 registers a thread
//! the forward pass keeps every ALPHA_EVERY-th stage's alphas; the backward pass recomputes the
//! others a segment at a time (the same forward step, so the same values). Measured on an H100
//! (docs/performance.md): 1 (all kept, 165 registers, one block) 7.0 Gb/s, 4 with one block 6.8,
//! 4 with two blocks 9.1.
constexpr int ALPHA_EVERY = 4;
/*! The training recursions normalise every NORM_EVERY-th step and at their last: max and + commute
 *  with subtracting one value from every state, so a window starts from the very metrics that
 *  normalising every step gives (turbo_fixed.h's rule), with fewer instructions. The metrics
 *  stay in int16 (turbo_fixed.h's bounds): a normalised vector lies in [-23010, 13806] (within
 *  2 stages of a start) and in [-13806, 13806] beyond, and a step moves the extremes by at most
 *  G = 2301, so 3 steps without normalising and the sums of the 4th stay above -32214. The
 *  metrics the extrinsic adds (the kept and the recomputed alphas, the window's betas) are
 *  normalised at every step. */
constexpr int NORM_EVERY = 4;
static_assert(NORM_EVERY >= 1 && NORM_EVERY <= 4, "the int16 bound above");
//! the window's forward pass, likewise, normalises only the steps whose alphas are kept
constexpr bool FWD_NORM_SPARSE = true;
static_assert(ALPHA_EVERY <= 4 && 8 % ALPHA_EVERY == 0,
              "checkpoints at most 4 stages apart, within the 8-stage runs, and at the stored boundary "
              "(a multiple of 8 stages in)");
static_assert(GW % ALPHA_EVERY == 0, "segments of whole windows");
static_assert(GW % 8 == 0, "turbo_fixed.h: windows are multiples of 8");

/*! MIXED: the pairs of one K in a launch over frames of several (turbo_cuda_mixed): its blocks
 *  block0 .., its pairs pair0 .. (of the launch's pair table); its scratch `words` words into
 *  decoder 2's systematic words (twice that into the a-priori words) and `bounds` into the window
 *  boundaries; its permutations perm_at words into the engine's (pi, then the inverse) */
struct k_run_desc {
    int K, nwin, group, pairs, block0, pair0, words, bounds, perm_at;
};

struct half_args {
    const int8_t* in;        // frames x n: d0 | d1 | d2, K + 4 each (MIXED: frame f at in_off[f])
    int n, K, nwin, frames, pairs, group;
    int out_stride;          // bytes from one frame's decisions to the next's (K / 8 where one K)
    // MIXED (frames of several K in the chunk): pair q of a run is chunk frames pair_frames[2 q]
    // and [2 q + 1] (a lone frame twice), frame f's values start at value in_off[f]; frames index
    // the reports and the decisions. The launch's runs of one K (k_run_desc) and their number;
    // sys2, bounds and perm are the whole scratch and the engine's permutations, ext_out the
    // a-priori words (both decoders'), each block taking its run's part (take_run)
    const int* pair_frames;
    const int* in_off;
    const k_run_desc* runs;
    int nruns;
    const u32* sys2;         // pairs x K: decoder 2's systematic words (d0 at pi(k))
    const u32* apri;         // pairs x K: this decoder's a-priori words, its order
    u32* ext_out;            // pairs x K: the scaled extrinsic words, the other decoder's order
    const uint32_t* perm;    // K: stage k of this decoder -> position in the other's order
    u32* bounds;             // pairs x 2 buffers x 2 decoders x [alpha | beta] x nwin x 8 words
    int read_buf;            // the buffer holding the previous iteration's boundaries
    int first;               // the first iteration: no a-priori, uniform boundaries
    uint8_t* bits;           // frames x K / 8 packed decisions, or null
    const frame_status* report; // frames: iterations != 0 once a frame is done
    int scale16;
};

//! the first and second frame of pair q (an odd chunk's last pair: B repeats A)
__device__ __forceinline__ int frame_a(int q) { return 2 * q; }
__device__ __forceinline__ int frame_b(int q, int frames) { return 2 * q + 1 < frames ? 2 * q + 1 : 2 * q; }
//! the chunk frames of pair q and where a frame's values start, one K a chunk or (MIXED) several
template <bool MIXED>
__device__ __forceinline__ int pair_a(const half_args& a, int q)
{
    return MIXED ? a.pair_frames[2 * q] : frame_a(q);
}
template <bool MIXED>
__device__ __forceinline__ int pair_b(const half_args& a, int q)
{
    return MIXED ? a.pair_frames[2 * q + 1] : frame_b(q, a.frames);
}
//! frame f's first value, counted in values of the input (int8 or packed)
template <bool MIXED>
__device__ __forceinline__ size_t frame_start(const half_args& a, int f)
{
    return MIXED ? size_t(a.in_off[f]) : size_t(f) * size_t(a.n);
}
template <bool MIXED>
__device__ __forceinline__ const int8_t* frame_in(const half_args& a, int f)
{
    return a.in + frame_start<MIXED>(a, f);
}
//! SKIP (frames stop early: a CRC and early stop) is a template parameter: without it the kernel
//! is compiled without any of the flag reads, which cost 10% in the input loads' scheduling
template <bool SKIP, bool MIXED>
__device__ __forceinline__ bool pair_done(const half_args& a, int q)
{
    return SKIP && a.report[pair_a<MIXED>(a, q)].iterations != 0 && a.report[pair_b<MIXED>(a, q)].iterations != 0;
}

/*! Values v .. v + 3 of frame f (v a multiple of 4) as four int8 in a word, lowest byte first:
 *  the int8 input where it lies, or (SOFT4) packed 4-bit values (runtime/soft.h) read as
 *  soft4_value reads them: each nibble to the high half of its byte (16 q, sign-extended), the
 *  nibble -8 (-128) read as -7 (-112). A 16-bit load: a frame's first value and v are multiples
 *  of 4 (every 3K + 12 and D are). */
template <bool MIXED, bool SOFT4>
__device__ __forceinline__ uint32_t frame_word4(const half_args& a, int f, int v)
{
    if constexpr (SOFT4) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(a.in) + ((frame_start<MIXED>(a, f) + size_t(v)) >> 1);
        return soft4_word4(*reinterpret_cast<const uint16_t*>(p));
    } else {
        return *reinterpret_cast<const uint32_t*>(frame_in<MIXED>(a, f) + v);
    }
}
//! value v of frame f (frame_word4's input), as int8
template <bool MIXED, bool SOFT4>
__device__ __forceinline__ int8_t frame_value(const half_args& a, int f, int v)
{
    if constexpr (SOFT4)
        return int8_t(soft4_value(reinterpret_cast<const uint8_t*>(a.in), int64_t(frame_start<MIXED>(a, f)) + v));
    else
        return frame_in<MIXED>(a, f)[v];
}
//! value v of frames fa and fb, a word
template <bool MIXED, bool SOFT4>
__device__ __forceinline__ u32 soft_pair(const half_args& a, int fa, int fb, int v)
{
    return pk16(soft_in(frame_value<MIXED, SOFT4>(a, fa, v)), soft_in(frame_value<MIXED, SOFT4>(a, fb, v)));
}

__device__ __forceinline__ void load8(u32 (&m)[STATES], const u32* p)
{
    const uint4 lo = reinterpret_cast<const uint4*>(p)[0], hi = reinterpret_cast<const uint4*>(p)[1];
    m[0] = lo.x, m[1] = lo.y, m[2] = lo.z, m[3] = lo.w, m[4] = hi.x, m[5] = hi.y, m[6] = hi.z, m[7] = hi.w;
}
__device__ __forceinline__ void store8(u32* p, const u32 (&m)[STATES])
{
    reinterpret_cast<uint4*>(p)[0] = make_uint4(m[0], m[1], m[2], m[3]);
    reinterpret_cast<uint4*>(p)[1] = make_uint4(m[4], m[5], m[6], m[7]);
}
__device__ __forceinline__ void set_known_start(u32 (&m)[STATES])
{
    m[0] = 0;
#pragma unroll
    for (int s = 1; s < STATES; ++s)
        m[s] = pk16(-UNKNOWN, -UNKNOWN);
}

//! shared memory words: the permutation (rounded up to an even count: the pairs' 64-bit loads),
//! then per pair the input word pairs (padded), out, 2 x bits (an even count: K is a multiple of 8)
__host__ __device__ inline size_t perm_words(int K, int nwin) { return (size_t(K + nwin) + 1) / 2 * 2; }
__host__ __device__ inline size_t pair_words(int K, int nwin) { return 2 * size_t(K + nwin) + K + 2 * ((K + 31) / 32); }
__host__ __device__ inline size_t block_words(int K, int nwin, int group) { return perm_words(K, nwin) + group * pair_words(K, nwin); }

//! MIXED: the run (frames of one K) whose FIRST field (its first block, or pair) is the last at or below x
template <int k_run_desc::*FIRST>
__device__ __forceinline__ k_run_desc run_of(const half_args& a, int x)
{
    int r = 0;
    while (r + 1 < a.nruns && a.runs[r + 1].*FIRST <= x)
        ++r;
    return a.runs[r];
}

/*! MIXED: block b's run in a launch over several K: a made that run's (its K, its pairs, its
 *  scratch and permutation for decoder DEC); returns the block within the run */
template <int DEC>
__device__ __forceinline__ int take_run(half_args& a, int b)
{
    const k_run_desc d = run_of<&k_run_desc::block0>(a, b);
    a.K = d.K;
    a.n = 3 * d.K + 12;
    a.nwin = d.nwin;
    a.group = d.group;
    a.pairs = d.pairs;
    a.pair_frames += 2 * d.pair0;
    a.sys2 += d.words;
    a.bounds += size_t(d.bounds);
    a.perm += d.perm_at + (DEC == 0 ? d.K : 0); // decoder 1: natural -> interleaved, the inverse of pi
    u32* const apri = a.ext_out + 2 * size_t(d.words), *const other = apri + size_t(d.pairs) * size_t(d.K);
    a.apri = DEC == 0 ? apri : other;
    a.ext_out = DEC == 0 ? other : apri;
    return b - d.block0;
}

//! one half-iteration of a block of the pairs of a's K (turbo_half_kernel; MIXED: block run_block of them)
template <int DEC, int T, bool SKIP, bool MIXED, bool SOFT4>
__device__ __forceinline__ void half_iteration(const half_args& a, const int run_block)
{
    // (one K: blockIdx.x where it is used, as a special register read rather than a register
    // held throughout, which cost the one-K kernels a few bytes of spills)
    const auto block = [&] { return MIXED ? run_block : int(blockIdx.x); };
    extern __shared__ u32 smem[];
    const int K = a.K, NW = a.nwin, P = K + NW, D = K + 4, KW = (K + 31) / 32;
    u32* s_pairs = smem + perm_words(K, NW); // the pairs' areas, 8-byte aligned
    u32* s_perm = smem;
    const int tid = threadIdx.x;

    // a block whose pairs have all stopped early has nothing to do (a block-wide decision)
    bool all_done = true;
    for (int gi = 0; gi < a.group; ++gi) {
        const int qi = block() * a.group + gi;
        all_done = all_done && (qi >= a.pairs || pair_done<SKIP, MIXED>(a, qi));
    }
    if (all_done)
        return;

    // this thread's window and pair; its stored boundaries are fetched first, to arrive while
    // the block loads its inputs
    const int g = tid / NW, w = tid - g * NW, q = block() * a.group + g;
    const bool active = g < a.group && q < a.pairs && !pair_done<SKIP, MIXED>(a, q);
    const int k0 = w * GW, len = min(GW, K - k0), k1 = k0 + len;
    const size_t nb = size_t(NW) * STATES; // words of one [alpha | beta] half
    u32* pair_bounds = a.bounds + size_t(active ? q : 0) * 8 * nb;
    const u32* rd = pair_bounds + (size_t(a.read_buf) * 2 + DEC) * 2 * nb;
    u32* wr = pair_bounds + (size_t(1 - a.read_buf) * 2 + DEC) * 2 * nb;
    u32 am[STATES], b[STATES];
#pragma unroll
    for (int s = 0; s < STATES; ++s)
        am[s] = b[s] = 0; // the first iteration: uniform
    if (active && !a.first && k0 > T)
        load8(am, rd + w * STATES);
    if (active && !a.first && k1 + T < K)
        load8(b, rd + nb + w * STATES);

    // 1. the pairs' branch inputs into shared memory: 4 stages per item, every load of a
    //    thread's (at most 4) items issued before the first store
    const int K4 = K / 4, items = a.group * K4;
    constexpr int MAX_ITEMS = 4; // threads = group x ceil(K / 16) >= items / 4
    uint4 ap[MAX_ITEMS], sy[MAX_ITEMS];
    uint32_t pa[MAX_ITEMS], pb[MAX_ITEMS], perm4[MAX_ITEMS][4];
#pragma unroll
    for (int j = 0; j < MAX_ITEMS; ++j) {
        const int it = tid + j * blockDim.x;
        if (it < K4) {
            const uint4 v = reinterpret_cast<const uint4*>(a.perm)[it];
            perm4[j][0] = v.x, perm4[j][1] = v.y, perm4[j][2] = v.z, perm4[j][3] = v.w;
        }
        if (it < items) {
            const int gi = it / K4, k = 4 * (it - gi * K4), qi = block() * a.group + gi;
            if (qi < a.pairs && !pair_done<SKIP, MIXED>(a, qi)) {
                const int fa = pair_a<MIXED>(a, qi), fb = pair_b<MIXED>(a, qi);
                const int po = DEC == 0 ? D : 2 * D;
                pa[j] = frame_word4<MIXED, SOFT4>(a, fa, po + k); // (n and D are multiples of 4)
                pb[j] = frame_word4<MIXED, SOFT4>(a, fb, po + k);
                if (DEC == 0) {
                    sy[j].x = frame_word4<MIXED, SOFT4>(a, fa, k);
                    sy[j].y = frame_word4<MIXED, SOFT4>(a, fb, k);
                } else {
                    sy[j] = *reinterpret_cast<const uint4*>(a.sys2 + size_t(qi) * K + k);
                }
                ap[j] = DEC == 0 && a.first ? make_uint4(0, 0, 0, 0)
                                            : *reinterpret_cast<const uint4*>(a.apri + size_t(qi) * K + k);
            }
        }
    }
#pragma unroll
    for (int j = 0; j < MAX_ITEMS; ++j) {
        const int it = tid + j * blockDim.x;
        if (it < K4) {
            const int k = 4 * it, at = k + k / GW; // (4 stages never cross a window)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                s_perm[at + e] = perm4[j][e];
        }
        if (it < items) {
            const int gi = it / K4, k = 4 * (it - gi * K4), qi = block() * a.group + gi;
            if (qi < a.pairs && !pair_done<SKIP, MIXED>(a, qi)) {
                uint2* s_in = reinterpret_cast<uint2*>(s_pairs + gi * pair_words(K, NW));
                const int at = k + k / GW;
                const u32 apw[4] = { ap[j].x, ap[j].y, ap[j].z, ap[j].w };
                const u32 syw[4] = { sy[j].x, sy[j].y, sy[j].z, sy[j].w };
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int8_t sa_ = int8_t(syw[0] >> (8 * e)), sb_ = int8_t(syw[1] >> (8 * e));
                    const u32 sys = DEC == 0 ? pk16(soft_in(sa_), soft_in(sb_)) : syw[e];
                    s_in[at + e] = make_uint2(add2(sys, apw[e]),
                                              pk16(soft_in(int8_t(pa[j] >> (8 * e))), soft_in(int8_t(pb[j] >> (8 * e)))));
                }
            }
        }
    }
    if (a.bits)
        for (int gi = 0; gi < a.group; ++gi) {
            u32* s_bits = s_pairs + gi * pair_words(K, NW) + 2 * P + K;
            for (int i = tid; i < 2 * KW; i += blockDim.x)
                s_bits[i] = 0;
        }
    __syncthreads();

    // 2. a thread per window of a pair
    if (active) {
        const uint2* s_in = reinterpret_cast<const uint2*>(s_pairs + g * pair_words(K, NW));
        u32* s_out = s_pairs + g * pair_words(K, NW) + 2 * P;
        u32* s_bits = s_out + K;
        const uint2* in = s_in + w * PAD;    // this window's stages
        const u32* perm = s_perm + w * PAD;

        // Every guard below decides for 8 stages at once (K, k0, k1 and len are multiples of 8),
        // so each 8-stage run is straight-line code: a guard per stage costs a branch and
        // register moves at every join.

        // forward from max(k0 - T, 0): the known start, or the alpha stored there (am)
        if (k0 <= T)
            set_known_start(am);
#pragma unroll
        for (int sg = T / 8 - 1; sg >= 0; --sg) { // stages k0 - 8 sg - 8 .. k0 - 8 sg - 1
            if (8 * sg + 8 <= k0) {
#pragma unroll
                for (int u = 8; u >= 1; --u) {
                    const int t = 8 * sg + u, off = -t - (t + GW - 1) / GW; // stage k0 - t
                    if (t % NORM_EVERY == 1 % NORM_EVERY) // the last step (t = 1) among them
                        forward_step<true>(am, make_branch(in[off]));
                    else
                        forward_step<false>(am, make_branch(in[off]));
                }
            }
        }
        // alpha before stage k0 + AI starts the recursion of window w + AV
        constexpr int AI = (GW - T % GW) % GW, AV = (AI + T) / GW;
        u32 al[GW / ALPHA_EVERY][STATES];
#pragma unroll
        for (int sg = 0; sg < GW / 8; ++sg) {
            if (sg == 0 || 8 * sg < len) {
#pragma unroll
                for (int i = 8 * sg; i < 8 * sg + 8; ++i) {
                    if (i % ALPHA_EVERY == 0)
#pragma unroll
                        for (int s = 0; s < STATES; ++s)
                            al[i / ALPHA_EVERY][s] = am[s];
                    if (i == AI && k0 + AI > 0 && w + AV < NW)
                        store8(wr + (w + AV) * STATES, am);
                    // normalised where a checkpoint (or the boundary at AI, a multiple of 8) follows
                    if (!FWD_NORM_SPARSE || (i + 1) % ALPHA_EVERY == 0)
                        forward_step<true>(am, make_branch(in[i]));
                    else
                        forward_step<false>(am, make_branch(in[i]));
                }
            }
        }

        // backward from min(k1 + T, K): the known end through the tail, or the beta stored there (b)
        if (k1 + T >= K) {
            set_known_start(b);
            const int ta = pair_a<MIXED>(a, q), tb = pair_b<MIXED>(a, q);
#pragma unroll
            for (int j = 2; j >= 0; --j) { // tail element e is d_(e % 3)[K + e / 3]
                const int xe = 6 * DEC + 2 * j, ze = xe + 1;
                const int xo = (xe % 3) * D + xe / 3, zo = (ze % 3) * D + ze / 3;
                const u32 xv = soft_pair<MIXED, SOFT4>(a, ta, tb, K + xo), zv = soft_pair<MIXED, SOFT4>(a, ta, tb, K + zo);
                u32 bn[STATES];
#pragma unroll
                for (int s = 0; s < STATES; ++s) {
                    const int x = lte_fb(s);
                    u32 v = b[lte_next(s, x)];
                    if (x)
                        v = add2(v, xv);
                    if (lte_par(s, x))
                        v = add2(v, zv);
                    bn[s] = v;
                }
#pragma unroll
                for (int s = 0; s < STATES; ++s)
                    b[s] = bn[s];
            }
        }
#pragma unroll
        for (int sg = T / 8 - 1; sg >= 0; --sg) { // stages k1 + 8 sg .. k1 + 8 sg + 7
            if (k1 + 8 * sg + 8 <= K) {
#pragma unroll
                for (int j = 8 * sg + 7; j >= 8 * sg; --j) { // stage k1 + j, in a later window (k1 = k0 + GW there)
                    const int off = GW + j + 1 + j / GW;
                    if (j % NORM_EVERY == 0) // the last step (j = 0) among them
                        backward_step<true>(b, make_branch(in[off]));
                    else
                        backward_step<false>(b, make_branch(in[off]));
                }
            }
        }
        // beta after stage k0 + BI starts the recursion of window w - BV
        constexpr int BI = T % GW, BV = (T - BI) / GW + 1;
#pragma unroll
        for (int sg = GW / 8 - 1; sg >= 0; --sg) {
            if (sg > 0 && 8 * sg >= len)
                continue;
#pragma unroll
            for (int c = (8 * sg + 8) / ALPHA_EVERY - 1; c >= 8 * sg / ALPHA_EVERY; --c) {
                // the segment's alphas again from its checkpoint: the same forward step, the same values
                u32 seg[ALPHA_EVERY][STATES];
#pragma unroll
                for (int j = 0; j < ALPHA_EVERY; ++j) {
                    const int i = c * ALPHA_EVERY + j;
#pragma unroll
                    for (int s = 0; s < STATES; ++s)
                        seg[j][s] = j == 0 ? al[c][s] : seg[j - 1][s];
                    if (j > 0)
                        forward_step(seg[j], make_branch(in[i - 1]));
                }
#pragma unroll
                for (int j = ALPHA_EVERY - 1; j >= 0; --j) {
                    const int i = c * ALPHA_EVERY + j;
                    const u32 sai = in[i].x, pki = in[i].y;
                    const u32 m0 = extrinsic_max(seg[j], b, pki, 0), m1 = extrinsic_max(seg[j], b, pki, 1);
                    const int ea = lo16(m1) - lo16(m0), eb = hi16(m1) - hi16(m0);
                    const int pos = int(perm[i]);
                    s_out[pos] = pk16(scale_ext(ea, a.scale16), scale_ext(eb, a.scale16));
                    if (a.bits) { // decisions at the natural position (decoder 2: pos = pi(k))
                        const u32 bit = 1u << (8 * ((pos & 31) >> 3) + 7 - (pos & 7));
                        if (lo16(sai) + ea > 0)
                            atomicOr(&s_bits[pos >> 5], bit);
                        if (hi16(sai) + eb > 0)
                            atomicOr(&s_bits[KW + (pos >> 5)], bit);
                    }
                    backward_step(b, make_branch(sai, pki));
                    if (i == BI && w >= BV)
                        store8(wr + nb + (w - BV) * STATES, b);
                }
            }
        }
    }
    __syncthreads();

    // 3. the extrinsic words and the decisions out (coalesced)
    for (int g2 = 0; g2 < a.group; ++g2) {
        const int q2 = block() * a.group + g2;
        if (q2 >= a.pairs)
            break;
        if (pair_done<SKIP, MIXED>(a, q2))
            continue;
        const u32* s_out = s_pairs + g2 * pair_words(K, NW) + 2 * P;
        uint4* out = reinterpret_cast<uint4*>(a.ext_out + size_t(q2) * K);
        for (int i = tid; i < K / 4; i += blockDim.x)
            out[i] = make_uint4(s_out[4 * i], s_out[4 * i + 1], s_out[4 * i + 2], s_out[4 * i + 3]);
        if (a.bits) {
            const uint8_t* s_bits = reinterpret_cast<const uint8_t*>(s_out + K);
            const int bytes = K / 8;
            for (int f = 0; f < 2; ++f) {
                const int frame = f == 0 ? pair_a<MIXED>(a, q2) : pair_b<MIXED>(a, q2);
                if (MIXED ? f == 1 && frame == pair_a<MIXED>(a, q2) : frame >= a.frames)
                    break; // (a lone frame)
                if (SKIP && a.report[frame].iterations != 0)
                    continue; // stopped early: its decisions stay
                uint8_t* dst = a.bits + size_t(frame) * a.out_stride;
                for (int i = tid; i < bytes; i += blockDim.x)
                    dst[i] = s_bits[f * 4 * KW + i];
            }
        }
    }
}

/* MIXED: frames of several K, read where they lie (turbo_cuda_mixed); SOFT4: packed 4-bit input */
template <int DEC, int T, bool SKIP, bool MIXED, bool SOFT4>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) turbo_half_kernel(const half_args launch)
{
    if constexpr (MIXED) {
        half_args a = launch;
        const int bx = take_run<DEC>(a, int(blockIdx.x));
        half_iteration<DEC, T, SKIP, MIXED, SOFT4>(a, bx);
    } else {
        half_iteration<DEC, T, SKIP, MIXED, SOFT4>(launch, int(blockIdx.x)); // (the parameters as they are)
    }
}

//! decoder 2's systematic words: d0 at pi(k) of both frames of a pair; a block per pair (a's
//! in, n, K, frames and, MIXED, the pairs' tables)
template <bool MIXED, bool SOFT4>
__global__ void turbo_sys2_kernel(const half_args launch, const uint32_t* pi, u32* sys2)
{
    half_args a = launch;
    int q = blockIdx.x;
    if constexpr (MIXED) { // (the run of pair q: as take_run)
        const k_run_desc d = run_of<&k_run_desc::pair0>(a, q);
        a.K = d.K;
        a.pair_frames += 2 * d.pair0;
        pi += d.perm_at;
        sys2 += d.words;
        q -= d.pair0;
    }
    const int K = a.K;
    const int fa = pair_a<MIXED>(a, q), fb = pair_b<MIXED>(a, q);
    for (int k = threadIdx.x; k < K; k += blockDim.x)
        sys2[size_t(q) * K + k] = soft_pair<MIXED, SOFT4>(a, fa, fb, int(pi[k]));
}

using half_fn = void (*)(half_args);

//! frame pairs a block for K: up to MAX_THREADS threads and 100 KiB of shared memory
inline int pairs_per_block(int K, int nwin)
{
    int group = std::max(1, MAX_THREADS / nwin);
    while (group > 1 && block_words(K, nwin, group) > size_t(100 * 1024 / 4))
        --group;
    return group;
}

template <int T, bool MIXED, bool SOFT4>
void set_half_kernels(bool skip, half_fn (&half)[2])
{
    half[0] = skip ? turbo_half_kernel<0, T, true, MIXED, SOFT4> : turbo_half_kernel<0, T, false, MIXED, SOFT4>;
    half[1] = skip ? turbo_half_kernel<1, T, true, MIXED, SOFT4> : turbo_half_kernel<1, T, false, MIXED, SOFT4>;
}

/*! the two decoders' half-iteration kernels for the training length (skip: frames stop early),
 *  allowed `shared` bytes a block and all the shared memory a multiprocessor has, so that
 *  MIN_BLOCKS blocks fit beside each other */
template <bool MIXED, bool SOFT4 = false>
void pick_half_kernels(int training, bool skip, size_t shared, half_fn (&half)[2])
{
    switch (training) {
    case 16: set_half_kernels<16, MIXED, SOFT4>(skip, half); break;
    case 24: set_half_kernels<24, MIXED, SOFT4>(skip, half); break;
    case 32: set_half_kernels<32, MIXED, SOFT4>(skip, half); break;
    default:
        throw std::invalid_argument("training: the GPU decoder runs 16, 24 or 32 stages (others: device=cpu)");
    }
    for (half_fn f : half) {
        allow_dynamic_shared(f, shared, "turbo GPU decoder");
        GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout,
                                               int(cudaSharedmemCarveoutMaxShared)));
    }
}

class turbo_cuda : public turbo_engine
{
public:
    turbo_cuda(const turbo_code& code, const turbo_options& o, int window, int device, size_t max_batch)
        : d_code(code), d_opts(o), d_dev(device)
    {
        check_fixed_window(code, window, o.training, o.crc);
        d_crc = make_crc_gpu(o, code.K);
        d_skip = d_crc.width > 0 && o.early_termination;
        if (window != GW)
            throw std::invalid_argument("window: the GPU decoder runs windows of " + std::to_string(GW) +
                                        " stages (other windows: device=cpu)");
        if (!lte_trellis_matches(code.rsc))
            throw std::invalid_argument("turbo: this GPU decoder runs the LTE code (the CCSDS codes have their own: "
                                        "turbo_ccsds_cuda.cu)");
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        const int K = code.K;
        if (K % 8 != 0) // every LTE K is; the kernel's guards decide 8 stages at once
            throw std::invalid_argument("turbo: the GPU decoder takes K a multiple of 8");
        d_nwin = (K + GW - 1) / GW;
        if (d_nwin > MAX_THREADS)
            throw std::invalid_argument("turbo: K up to " + std::to_string(MAX_THREADS * GW) + " on the GPU");
        d_group = pairs_per_block(K, d_nwin);
        d_shared = block_words(K, d_nwin, d_group) * 4;
        pick_half_kernels<false>(o.training, d_skip, d_shared, d_half);
        pick_half_kernels<false, true>(o.training, d_skip, d_shared, d_half4);
        // a chunk: whole waves of blocks (one block of a large K per SM), at least ~6 M soft values
        const size_t pairs_per_wave = size_t(prop.multiProcessorCount) * size_t(d_group);
        size_t chunk = max_batch ? max_batch : std::max<size_t>(8 * pairs_per_wave, 6000000 / code.coded_bits());
        chunk = (chunk + 1) / 2 * 2;
        d_chunk = chunk;
        upload_permutations(d_perm, code);
        const size_t pairs = chunk / 2;
        pipeline_layout l;
        l.in = { chunk * code.coded_bits() };
        l.out = { chunk * size_t(K / 8), chunk * sizeof(frame_status) };
        l.scratch = { pairs * K * 4, 2 * pairs * K * 4, pairs * 8 * size_t(d_nwin) * STATES * 4 };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
        d_args.n = int(code.coded_bits());
        d_args.K = K;
        d_args.nwin = d_nwin;
        d_args.group = d_group;
        d_args.out_stride = K / 8;
        d_args.scale16 = int(std::lround(o.scaling * 16));
    }
    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") fixed-point max-log, int16 pairs, window " +
               std::to_string(GW) + ", training " + std::to_string(d_opts.training);
    }
    bool on_gpu() const override { return true; }
    bool takes_soft4() const override { return true; }

    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        run_chunks(in, d_code.coded_bits(), frames, bits, report, false);
    }
    //! packed 4-bit values: half the bytes in (every LTE frame has an even number of values)
    void decode_soft4(const uint8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        run_chunks(reinterpret_cast<const int8_t*>(in), d_code.coded_bits() / 2, frames, bits, report, true);
    }

    double time_kernels(const int8_t* in, size_t frames, int reps) override
    {
        device_guard g(d_dev);
        const size_t m = std::min(d_chunk, frames), n = d_code.coded_bits(), K = size_t(d_code.K);
        const size_t pairs = (m + 1) / 2;
        device_buffer<int8_t> d_in(m * n);
        device_buffer<u32> sys2(pairs * K), apri(2 * pairs * K), bounds(pairs * 8 * size_t(d_nwin) * STATES);
        device_buffer<uint8_t> out(m * K / 8);
        device_buffer<frame_status> rep(m);
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in, m * n, cudaMemcpyHostToDevice, st.get()));
        const double t = time_on_stream(st.get(), reps, [&] {
            enqueue(st.get(), d_in.get(), m, sys2.get(), apri.get(), bounds.get(), out.get(), rep.get());
        });
        return t * double(frames) / double(m);
    }

private:
    //! frames of `bytes` bytes of input each through the pipeline (soft4: packed values)
    void run_chunks(const int8_t* in, size_t bytes, size_t frames, uint8_t* bits, frame_status* report, bool soft4)
    {
        // ports: in 0 soft values; out 0 packed decisions, 1 the reports; scratch 0 decoder 2's
        // systematic words, 1 the two a-priori arrays, 2 the window boundaries
        const turbo_chunks ch{ in, bits, report, frames, d_chunk, bytes, size_t(d_code.K / 8) };
        ch.run(d_dev, *d_pipe, [&](const slot_view& v, size_t m) {
            enqueue(v.stream, v.input<const int8_t>(0), m, v.scratch_as<u32>(0), v.scratch_as<u32>(1),
                    v.scratch_as<u32>(2), v.output<uint8_t>(0), v.output<frame_status>(1), soft4);
        });
    }

    void enqueue(cudaStream_t s, const int8_t* in, size_t m, u32* sys2, u32* apri, u32* bounds, uint8_t* bits,
                 frame_status* report, bool soft4 = false)
    {
        const half_fn* half = soft4 ? d_half4 : d_half;
        const int K = d_code.K;
        const size_t pairs = (m + 1) / 2;
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(report, 0, m * sizeof(frame_status), s)); // every frame running
        half_args a = d_args;
        a.in = in;
        a.frames = int(m);
        a.pairs = int(pairs);
        if (soft4)
            turbo_sys2_kernel<false, true><<<unsigned(pairs), 256, 0, s>>>(a, d_perm.get(), sys2);
        else
            turbo_sys2_kernel<false, false><<<unsigned(pairs), 256, 0, s>>>(a, d_perm.get(), sys2);
        GPUFEC_CUDA_CHECK_LAUNCH("turbo_sys2_kernel");
        a.sys2 = sys2;
        a.bounds = bounds;
        a.report = report;
        const unsigned crc_blocks = unsigned((m * 32 + 255) / 256);
        const unsigned grid = unsigned((pairs + size_t(d_group) - 1) / size_t(d_group));
        const unsigned threads = unsigned(d_group * d_nwin);
        u32* apri1 = apri;                  // decoder 1's a-priori, natural order
        u32* apri2 = apri + pairs * size_t(K); // decoder 2's, interleaved order
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            a.first = it == 1;
            a.read_buf = (it & 1) ^ 1; // iteration it writes buffer it & 1
            a.bits = nullptr;
            a.apri = apri1;
            a.ext_out = apri2;
            a.perm = d_perm.get() + K; // natural -> interleaved: the inverse of pi
            half[0]<<<grid, threads, d_shared, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("turbo_half_kernel<0>");
            a.apri = apri2;
            a.ext_out = apri1;
            a.perm = d_perm.get(); // interleaved -> natural: pi
            a.bits = it == d_opts.max_iterations || d_skip ? bits : nullptr;
            half[1]<<<grid, threads, d_shared, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("turbo_half_kernel<1>");
            if (d_skip || it == d_opts.max_iterations) { // the CRC after every iteration, or once
                turbo_crc_kernel<<<crc_blocks, 256, 0, s>>>(bits, int(m), it, d_crc, report);
                GPUFEC_CUDA_CHECK_LAUNCH("turbo_crc_kernel");
            }
        }
    }

    turbo_code d_code;
    turbo_options d_opts;
    int d_dev, d_nwin = 0, d_group = 1;
    size_t d_shared = 0, d_chunk = 0;
    std::string d_gpu;
    half_args d_args{};
    crc_gpu d_crc{};
    bool d_skip = false; // frames stop early
    half_fn d_half[2] = { nullptr, nullptr }; // the two decoders' kernels for the training length
    half_fn d_half4[2] = { nullptr, nullptr }; // the same for packed 4-bit input
    device_buffer<uint32_t> d_perm; // pi, then its inverse (upload_permutations)
    std::unique_ptr<batch_pipeline> d_pipe;
};

/*! Frames of every LTE K in one batch, decoded where they lie (code=lte:any on the GPU). A chunk
 *  is a run of the batch's frames (int8 or packed 4-bit values), copied in as it lies in host
 *  memory (no gather). With it goes a
 *  table the host makes (input port 1, int32): the chunk's runs of one K (k_run_desc), each
 *  frame's first value in the chunk, each frame's K (its entry of the engine's per-K constants),
 *  and the pairs K by K (two frames of one K; a K's odd frame alone). One launch of each kernel
 *  serves every K of the chunk: a block finds its run and takes that K, its pairs, its scratch
 *  and its permutation (take_run); a block's threads and shared memory are the most any of the
 *  chunk's K needs. The CRC kernel reads each frame's K-dependent constants from a table. The
 *  arithmetic is the one-K engine's: the same bits, iterations and CRC results as each K's own
 *  decoder. Decisions: a frame's K / 8 bytes at a stride of 6144 / 8. */
class turbo_cuda_mixed : public frame_engine
{
public:
    turbo_cuda_mixed(const turbo_options& o, int window, int device, size_t max_batch) : d_opts(o), d_dev(device)
    {
        if (window != GW)
            throw std::invalid_argument("window: the GPU decoder runs windows of " + std::to_string(GW) + " stages");
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        // every LTE K: its permutations (pi, then its inverse) side by side, its CRC constants
        // and its launch (frame pairs a block as the one-K engine picks them)
        std::vector<uint32_t> perms;
        std::vector<crc_k> crcs;
        d_index.assign(size_t(max_k) + 1, -1);
        for (int K : interleaver::lte_sizes()) {
            const turbo_code code = turbo_code::named("lte:" + std::to_string(K));
            check_fixed_window(code, window, o.training, o.crc);
            k_info ki;
            ki.K = K;
            ki.nwin = (K + GW - 1) / GW;
            ki.group = pairs_per_block(K, ki.nwin);
            ki.shared = block_words(K, ki.nwin, ki.group) * 4;
            ki.perm_at = perms.size();
            const std::vector<uint32_t>& pi = code.pi.permutation();
            perms.insert(perms.end(), pi.begin(), pi.end());
            perms.insert(perms.end(), code.pi.inverse().begin(), code.pi.inverse().end());
            crcs.push_back(make_crc_gpu(o, K).k);
            d_index[size_t(K)] = int(d_k.size());
            d_shared = std::max(d_shared, ki.shared);
            d_k.push_back(ki);
        }
        d_perm.assign(perms);
        d_crc_k.assign(crcs);
        d_crc = make_crc_gpu(o, max_k); // (its K-dependent constants come from d_crc_k)
        d_skip = !o.crc.empty() && o.early_termination;
        pick_half_kernels<true>(o.training, d_skip, d_shared, d_half);
        pick_half_kernels<true, true>(o.training, d_skip, d_shared, d_half4);
        // a chunk: as many frames as the one-K engine's chunk of K = 6144 (whole waves of blocks,
        // at least ~6 M soft values); its scratch for the most pairs a chunk can have (each K's
        // odd frame alone) of the longest K
        const size_t longest = size_t(3 * max_k + 12);
        const size_t chunk = max_batch ? max_batch
                                       : std::max<size_t>(8 * size_t(prop.multiProcessorCount), 6000000 / longest);
        d_chunk = (chunk + 1) / 2 * 2;
        const size_t runs = std::min(d_chunk, d_k.size()), pairs = d_chunk / 2 + runs, nwin = size_t(max_k / GW);
        pipeline_layout l;
        l.in = { d_chunk * longest, table_ints(d_chunk, pairs, runs) * 4 };
        l.out = { d_chunk * out_stride, d_chunk * sizeof(frame_status) };
        l.scratch = { pairs * max_k * 4, 2 * pairs * max_k * 4, pairs * 8 * nwin * STATES * 4 };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
    }

    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") fixed-point max-log, int16 pairs, window " +
               std::to_string(GW) + ", training " + std::to_string(d_opts.training) + ", any K in one batch";
    }
    bool on_gpu() const override { return true; }
    bool takes_soft4() const override { return true; }

    void run(const engine_batch& in, const engine_output& out) override
    {
        if ((!in.soft && !in.soft4) || !in.lengths)
            throw std::logic_error("turbo_cuda_mixed: int8 or packed 4-bit frames with their lengths");
        const size_t frames = in.frames;
        d_start.resize(frames + 1);
        d_kidx.resize(frames);
        d_start[0] = 0;
        for (size_t f = 0; f < frames; ++f) {
            const size_t n = in.lengths[f];
            const int K = lte_k_of_length(n);
            if (K == 0)
                throw std::invalid_argument("turbo: frame " + std::to_string(f) + " has " + std::to_string(n) +
                                            " soft values, not 3K + 12 for an LTE K");
            d_kidx[f] = d_index[size_t(K)];
            d_start[f + 1] = d_start[f] + n;
        }
        if (frames == 0)
            return;
        device_guard g(d_dev);
        const int64_t chunks = int64_t((frames + d_chunk - 1) / d_chunk);
        d_pipe->run(
            chunks,
            [&](int64_t c) {
                const size_t a = size_t(c) * d_chunk;
                return describe(in, out, a, std::min(d_chunk, frames - a));
            },
            [&](int64_t, const slot_view& v) { enqueue(v, in.soft4 != nullptr); });
    }

private:
    static constexpr int max_k = 6144;
    static constexpr size_t out_stride = max_k / 8;
    static constexpr size_t run_ints = sizeof(k_run_desc) / sizeof(int32_t);
    struct k_info {
        int K = 0, nwin = 0, group = 1;
        size_t shared = 0, perm_at = 0;
    };

    //! the table's int32 entries for m frames in P pairs of R runs
    static size_t table_ints(size_t m, size_t pairs, size_t runs) { return run_ints * runs + 2 * m + 2 * pairs; }

    //! frames a .. a + m of the batch: the chunk's host memory, its table (d_table) and launch
    chunk_io describe(const engine_batch& in, const engine_output& out, size_t a, size_t m)
    {
        // the chunk's frames K by K (batch order within a K), cut into runs of one K
        d_order.resize(m);
        for (size_t i = 0; i < m; ++i)
            d_order[i] = int(i);
        const int* kidx = d_kidx.data() + a;
        std::stable_sort(d_order.begin(), d_order.end(), [&](int x, int y) { return kidx[x] < kidx[y]; });
        d_runs.clear();
        d_first.clear();
        k_run_desc r{};
        size_t words = 0, bounds = 0;
        int blocks = 0, pairs = 0;
        d_threads = 32;
        d_smem = 0;
        for (size_t i = 0; i < m;) {
            size_t j = i;
            while (j < m && kidx[d_order[j]] == kidx[d_order[i]])
                ++j;
            const k_info& ki = d_k[size_t(kidx[d_order[i]])];
            r.K = ki.K;
            r.nwin = ki.nwin;
            r.group = ki.group;
            r.pairs = int((j - i + 1) / 2);
            r.block0 = blocks;
            r.pair0 = pairs;
            r.words = int(words);
            r.bounds = int(bounds);
            r.perm_at = int(ki.perm_at);
            d_runs.push_back(r);
            d_first.push_back(int(i));
            blocks += (r.pairs + ki.group - 1) / ki.group;
            pairs += r.pairs;
            words += size_t(r.pairs) * size_t(ki.K);
            bounds += size_t(r.pairs) * 8 * size_t(ki.nwin) * STATES;
            d_threads = std::max(d_threads, (ki.group * ki.nwin + 31) / 32 * 32);
            d_smem = std::max(d_smem, ki.shared);
            i = j;
        }
        d_blocks = blocks;
        d_pairs = size_t(pairs);
        d_m = m;
        // the table: runs, each frame's first value, each frame's K, the pairs
        d_table.resize(table_ints(m, d_pairs, d_runs.size()));
        int32_t* t = d_table.data();
        std::memcpy(t, d_runs.data(), d_runs.size() * sizeof(k_run_desc));
        int32_t* off = t + run_ints * d_runs.size();
        int32_t* ks = off + m;
        int32_t* pf = ks + m;
        for (size_t i = 0; i < m; ++i) {
            off[i] = int32_t(d_start[a + i] - d_start[a]);
            ks[i] = kidx[i];
        }
        for (size_t q = 0; q < d_runs.size(); ++q) {
            const int first = d_first[q], end = q + 1 < d_runs.size() ? d_first[q + 1] : int(m);
            for (int p = 0; p < d_runs[q].pairs; ++p) {
                const int x = d_order[size_t(first + 2 * p)];
                pf[2 * (d_runs[q].pair0 + p)] = x;
                pf[2 * (d_runs[q].pair0 + p) + 1] = first + 2 * p + 1 < end ? d_order[size_t(first + 2 * p + 1)] : x;
            }
        }
        chunk_io io;
        if (in.soft4) { // (every frame an even number of values: it starts on a byte)
            io.in[0] = in.soft4 + d_start[a] / 2;
            io.in_bytes[0] = (d_start[a + m] - d_start[a]) / 2;
        } else {
            io.in[0] = in.soft + d_start[a];
            io.in_bytes[0] = d_start[a + m] - d_start[a];
        }
        io.in[1] = d_table.data();
        io.in_bytes[1] = d_table.size() * sizeof(int32_t);
        io.out[0] = out.packed + a * out_stride;
        io.out_bytes[0] = m * out_stride;
        io.out[1] = out.status + a;
        io.out_bytes[1] = m * sizeof(frame_status);
        return io;
    }

    //! the chunk just described: one launch of each kernel for all its K, on the slot's stream
    //! (soft4: its values packed)
    void enqueue(const slot_view& v, bool soft4)
    {
        const half_fn* half = soft4 ? d_half4 : d_half;
        const cudaStream_t s = v.stream;
        const int m = int(d_m);
        const int* table = v.input<const int>(1);
        frame_status* report = v.output<frame_status>(1);
        uint8_t* bits = v.output<uint8_t>(0);
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(report, 0, d_m * sizeof(frame_status), s)); // every frame running
        half_args a{};
        a.runs = reinterpret_cast<const k_run_desc*>(table);
        a.nruns = int(d_runs.size());
        a.in_off = table + run_ints * d_runs.size();
        const int* k_of = a.in_off + m;
        a.pair_frames = k_of + m;
        a.in = v.input<const int8_t>(0);
        a.frames = m;
        a.out_stride = int(out_stride);
        a.scale16 = int(std::lround(d_opts.scaling * 16));
        a.report = report;
        a.sys2 = v.scratch_as<u32>(0);
        a.ext_out = v.scratch_as<u32>(1); // (the a-priori words of both decoders: take_run)
        a.bounds = v.scratch_as<u32>(2);
        a.perm = d_perm.get();
        if (soft4)
            turbo_sys2_kernel<true, true><<<unsigned(d_pairs), 256, 0, s>>>(a, d_perm.get(), v.scratch_as<u32>(0));
        else
            turbo_sys2_kernel<true, false><<<unsigned(d_pairs), 256, 0, s>>>(a, d_perm.get(), v.scratch_as<u32>(0));
        GPUFEC_CUDA_CHECK_LAUNCH("turbo_sys2_kernel");
        const unsigned crc_blocks = unsigned((d_m * 32 + 255) / 256);
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            a.first = it == 1;
            a.read_buf = (it & 1) ^ 1;
            a.bits = nullptr;
            half[0]<<<unsigned(d_blocks), unsigned(d_threads), d_smem, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("turbo_half_kernel<0>");
            a.bits = it == d_opts.max_iterations || d_skip ? bits : nullptr;
            half[1]<<<unsigned(d_blocks), unsigned(d_threads), d_smem, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("turbo_half_kernel<1>");
            if (d_skip || it == d_opts.max_iterations) {
                turbo_crc_kernel<<<crc_blocks, 256, 0, s>>>(bits, m, it, d_crc, report, int(out_stride),
                                                            d_crc_k.get(), k_of);
                GPUFEC_CUDA_CHECK_LAUNCH("turbo_crc_kernel");
            }
        }
    }

    turbo_options d_opts;
    int d_dev;
    std::string d_gpu;
    std::vector<k_info> d_k;   // every LTE K
    std::vector<int> d_index;  // K -> its entry of d_k (-1: no LTE K)
    size_t d_shared = 0, d_chunk = 0;
    bool d_skip = false;
    half_fn d_half[2] = { nullptr, nullptr };
    half_fn d_half4[2] = { nullptr, nullptr }; // packed 4-bit input
    device_buffer<uint32_t> d_perm; // each K's pi and inverse, at k_info::perm_at
    device_buffer<crc_k> d_crc_k;   // each K's CRC constants (d_k's order)
    crc_gpu d_crc{};                // the rest of them
    std::unique_ptr<batch_pipeline> d_pipe;
    // the batch, and the chunk being described (its launch: blocks, threads, shared memory)
    std::vector<size_t> d_start;   // frame f's first value in the batch
    std::vector<int> d_kidx;       // frame f's entry of d_k
    std::vector<int> d_order;      // the chunk's frames K by K
    std::vector<k_run_desc> d_runs;
    std::vector<int> d_first;      // each run's first entry of d_order
    std::vector<int32_t> d_table;  // input port 1
    size_t d_m = 0, d_pairs = 0, d_smem = 0;
    int d_blocks = 0, d_threads = 32;
};

} // namespace

std::unique_ptr<frame_engine> make_turbo_cuda_any_k(const turbo_options& o, int window, int device, size_t max_batch)
{
    return std::make_unique<turbo_cuda_mixed>(o, window, device, max_batch);
}

std::unique_ptr<turbo_engine> make_turbo_cuda(const turbo_code& code, const turbo_options& o, int window, int device,
                                              size_t max_batch)
{
    return std::make_unique<turbo_cuda>(code, o, window, device, max_batch);
}

} // namespace gpufec
