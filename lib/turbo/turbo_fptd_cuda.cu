/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fully parallel turbo decoder (FPTD) on the GPU, for latency: every half-iteration of a
 * frame in one kernel launch, max-log in float. Its values are the CPU FPTD's (turbo_fptd.cc
 * with exact = false) up to the sign of a zero, so its decisions are the CPU's bit for bit:
 * the same additions in the same order, no fused multiply-adds; it leaves out the additions of
 * 0 * x and the maxima with the initial log(0), which change no value, and takes fmaxf for
 * std::max, which differ only on NaN (never here) and on which zero of two they return.
 *
 * Parallel mapping. A frame is one thread block cluster of C blocks (up to 16 on Hopper, so up
 * to 16 SMs work on one frame). Thread t of the cluster owns trellis stages 2t and 2t + 1 of both
 * codes (STAGES_PER_THREAD); in half-iteration h a stage i runs the algorithmic block of the
 * upper code if i + h is even, of the lower code otherwise (the QPP interleaver keeps even with
 * even, so the blocks of one half never read what another block of the same half writes). So a
 * thread runs one stage of each code in every half, and which one is known when the loop is
 * unrolled by two halves. Alpha out of its first stage and beta out of its second are the inputs
 * of its other stage in the next half: they stay in registers. With a thread a stage, every
 * metric went through shared memory: two stages a thread took a K = 6144 frame from 63-65 us to
 * 60-61 us on an H100; four were slower (64-66 us: too few warps).
 *
 * Memory. Block b of the cluster holds stages [b L, b L + L) in shared memory, each value in two
 * rows by the parity of the half that reads it (a half reads one row and writes the other): the
 * alpha into each thread's first stage and the beta into its last, as two chunks of 4 states laid
 * out chunk by chunk over the threads, and the extrinsic value each stage takes from the other
 * code. A thread sends each output to where its reader will look for it in the next half: alpha
 * to the next thread, beta to the previous one (in its own block except at the block's edges)
 * and each extrinsic value to the other code's stage at the interleaved position, in whichever
 * block holds it; the extrinsic values first, as they travel furthest. Blocks of 192 stages or
 * more (STAGED) first gather their extrinsic values in a send buffer, grouped by the block they
 * go to, and send it on slot by slot, so that a warp's stores land at consecutive places
 * (fptd_exchange.h); each stage then finds its value where the plan says. The channel values
 * of a stage stay in its thread's registers for the whole frame.
 *
 * Synchronisation (cluster_messages.cuh). Values for another block go by st.async and are
 * counted on that block's transaction barrier (two, for alternate halves); the extrinsic values
 * all go that way, those for the own block too (one by one, or staged, slot by slot), so a
 * block knows how many bytes a half brings it (4 per stage, 32 for each edge from a
 * neighbouring block) and waits for exactly those. A block barrier orders the values a block keeps, and a relaxed cluster barrier stops a fast
 * block from writing a half ahead into values a slower block still has to read. A cluster
 * barrier with release/acquire semantics (cluster.sync()), which the first version took
 * between halves, costs some 0.7 us on an H100 by itself: more than a half's work; the set-up
 * before the first half ends with a relaxed one too, as no block reads another's memory and
 * the set-up stores no value that a message of half 0 writes. Splitting the cluster barrier
 * (arriving after a half's reads, waiting before its writes) was not faster: 62 us a frame with
 * a relaxed arrival, 112 us with a release one. A frame of
 * one block (small K) runs the same kernel without the cluster: plain shared-memory stores
 * and block barriers. */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/batch_pipeline.h"
#include "runtime/cluster_messages.cuh"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "fptd_exchange.h"
#include "turbo_chunks.h"
#include "turbo_engine.h"
#include "turbo_fixed_pairs.cuh"
#include "turbo_rsc.h"

#include <cooperative_groups.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gpufec {

namespace {

namespace cg = cooperative_groups;

constexpr int S = 8;
constexpr int MAX_CLUSTER = 16;
//! trellis stages a thread runs: the metrics between them stay in its registers
constexpr int STAGES_PER_THREAD = 2;
//! Blocks of a cluster with this many stages or more stage their extrinsic values by destination
//! before sending them (fptd_exchange.h): with 3 warps a block or more, the scattered single
//! stores to other blocks' shared memory congest (K = 6144: 52.6 -> 47.4 us, K = 3072: 41.3 ->
//! 37.7); with 2.5 or fewer, staging loses (K = 2560: 37.7 -> 41.0, K = 1024: 31.3 -> 35.8).
//! H100, one frame pre-launched, 36 iterations: docs/performance.md.
constexpr int STAGED_MIN_STAGES = 192;

//! shared memory of a block of L stages: per thread alpha into its first stage and beta into its
//! last, two rows each; per stage two extrinsic inputs, the lower code's systematic value, when
//! staged a slot of the send buffer (fptd_exchange.h), and a decision; the frame's bytes of the
//! block's stages (3 streams) and the termination's (12)
constexpr size_t fptd_shared_bytes(int L, bool staged)
{
    return size_t(L / STAGES_PER_THREAD) * 2 * 2 * S * 4 + size_t(L) * (2 * 4 + 4 + (staged ? 4 : 0) + 1) +
           size_t(3 * L + 12);
}

/*! How the host hands a pre-launched kernel its frame (mapped host memory). The kernel, launched
 *  for sequence number `seq`, waits until the low half of `doorbell` reads seq: then it decodes
 *  the frame if the high half is 1 or ends if it is 0 (one word, so one read over PCIe). A kernel
 *  whose doorbell has not rung after `expiry_ns` ends without decoding. Its decisions come back
 *  tagged (fptd_args::tagged), which tells the host that they have arrived without a fence or a
 *  separate done word. */
struct fptd_mailbox {
    uint64_t doorbell;
};
constexpr uint64_t ring_word(uint32_t seq, uint32_t frames) { return uint64_t(frames) << 32 | seq; }

//! a tagged word: a byte of decisions in bits 0-7, the low 24 bits of the kernel's sequence
//! number above them (one 4-byte store, so the host never sees one without the other)
constexpr uint32_t TAG_MASK = 0xFFFFFFu;

struct fptd_args {
    const int8_t* in; // frames x (3K + 12), d0 | d1 | d2 streams (device or mapped host memory)
    int n, K, L, iterations;
    float sf;                             // extrinsic scaling
    int scale16;                          // the same, in sixteenths (fixed point)
    const uint32_t* pi;                   // K
    const uint32_t* inv;                  // K
    const uint32_t* plan;                 // the staged kernels': fptd_exchange_plan::packed()
    uint8_t* bits;                        // frames x K / 8, packed MSB first (device or mapped host memory)
    fptd_mailbox* mailbox;                // a pre-launched kernel's (device address of mapped memory)
    uint32_t* tagged;                     // a pre-launched kernel's decisions: K / 8 tagged words (mapped)
    uint32_t seq;
    uint64_t expiry_ns;
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // clusters; the host refuses older GPUs
constexpr float NEG = -1e30f; // log(0), as the CPU FPTD
__device__ __forceinline__ float soft_f(int8_t v) { return float(v < -127 ? -127 : v); }

__device__ __forceinline__ uint64_t load_acquire_system(const uint64_t* p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint64_t global_ns()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

//! the doorbell's answer for kernel a.seq (1 decode, 0 end), or 0 once a.expiry_ns have passed
__device__ uint32_t poll_doorbell(const fptd_args& a)
{
    const uint64_t t0 = global_ns();
    for (;;) {
        const uint64_t bell = load_acquire_system(&a.mailbox->doorbell);
        if (uint32_t(bell) == a.seq)
            return uint32_t(bell >> 32);
        if (global_ns() - t0 > a.expiry_ns)
            return 0;
    }
}

/* A pre-launched kernel's wait for its frame: thread 0 of the cluster's first block polls the
 * doorbell (one reader of host memory a cluster); lane r of its warp then hands the answer to
 * block r: a store into its shared memory, then an arrival with release semantics on its
 * barrier `go_mbar`, on which its thread 0 waits with acquire semantics; a block barrier passes
 * it on. So the host's frame, written before the doorbell that the poll read with acquire
 * semantics, is visible to every thread (__syncwarp orders the lanes after the poll). A cluster
 * barrier with release/acquire semantics, which did this before, took 1.6 us on an H100. The
 * caller has made every block's barriers visible to the cluster (barrier_init_fence, then a
 * cluster barrier). */
template <bool CLUSTER>
__device__ uint32_t wait_for_frame(const fptd_args& a, int rank, int C, uint32_t go_mbar)
{
    __shared__ uint32_t s_go;
    namespace cm = cluster_msg;
    if (!CLUSTER) {
        if (threadIdx.x == 0)
            s_go = poll_doorbell(a);
        __syncthreads();
        return s_go;
    }
    if (rank == 0 && threadIdx.x < 32) {
        const int lane = int(threadIdx.x);
        uint32_t go = lane == 0 ? poll_doorbell(a) : 0;
        __syncwarp();
        go = __shfl_sync(0xffffffffu, go, 0);
        if (lane < C) { // C <= MAX_CLUSTER < 32
            cm::store_remote(cm::map_to_rank(cm::smem_address(&s_go), lane), go);
            cm::arrive_release(cm::map_to_rank(go_mbar, lane));
        }
    }
    if (threadIdx.x == 0)
        cm::wait_acquire(go_mbar, 0);
    __syncthreads();
    return s_go;
}

/* One algorithmic block of the LTE code, from alpha into the stage, beta into the next one, the
 * systematic value with its a-priori value (su) and the parity (pr): the CPU's g = x su + p pr
 * and e = p pr + alpha + beta without the terms that are 0 * x, which add nothing. In two parts,
 * so that the extrinsic value, which goes to another block, leaves before the metrics, which
 * mostly stay in this one: */

//! the extrinsic value (the maxima start at s = 0)
__device__ __forceinline__ float fptd_extrinsic(const float (&al)[S], const float (&be)[S], float pr)
{
    float m0 = 0.f, m1 = 0.f;
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int nx = lte_next(s, x), p = lte_par(s, x);
            const float e = __fadd_rn(p ? __fadd_rn(al[s], pr) : al[s], be[nx]); // (a + b = b + a exactly)
            if (x)
                m1 = s == 0 ? e : fmaxf(m1, e);
            else
                m0 = s == 0 ? e : fmaxf(m0, e);
        }
    return __fsub_rn(m1, m0);
}

//! a metric plus the branch of input x and parity p: su = the systematic value with its
//! a-priori value, pr = the parity value, spr = su + pr (terms 0 * x left out)
__device__ __forceinline__ float plus_branch(float m, int x, int p, float su, float pr, float spr)
{
    return x ? __fadd_rn(m, p ? spr : su) : (p ? __fadd_rn(m, pr) : m);
}

//! the unnormalised alpha out of a stage: state nx is reached from nx >> 1 (s < 4) first
__device__ __forceinline__ void fptd_alpha_out(const float (&al)[S], float su, float pr, float (&an)[S])
{
    const float spr = __fadd_rn(su, pr);
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const int nx = lte_next(s, x);
            const float ca = plus_branch(al[s], x, lte_par(s, x), su, pr, spr);
            an[nx] = s < 4 ? ca : fmaxf(an[nx], ca);
        }
}

//! the unnormalised beta into a stage, from the beta into the next one: x = 0 first
__device__ __forceinline__ void fptd_beta_in(const float (&be)[S], float su, float pr, float (&bn)[S])
{
    const float spr = __fadd_rn(su, pr);
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
        for (int x = 0; x < 2; ++x) {
            const float cb = plus_branch(be[lte_next(s, x)], x, lte_par(s, x), su, pr, spr);
            bn[s] = x == 0 ? cb : fmaxf(bn[s], cb);
        }
}

//! metrics normalised to state 0 (which becomes 0 exactly, as the CPU's m - m)
__device__ __forceinline__ void normalise(const float (&m)[S], float (&out)[S])
{
    out[0] = 0.f;
#pragma unroll
    for (int s = 1; s < S; ++s)
        out[s] = __fsub_rn(m[s], m[0]);
}

//! 8 metrics to shared address `a` (states 0-3) and `a + chunk2` (states 4-7): another block's (a
//! cluster address) by messages counted on its barrier `mbar`, this block's by stores
__device__ __forceinline__ void put8(uint32_t a, uint32_t chunk2, const float (&v)[S], bool remote, uint32_t mbar)
{
    if (remote) {
        cluster_msg::send4(a, v[0], v[1], v[2], v[3], mbar);
        cluster_msg::send4(a + chunk2, v[4], v[5], v[6], v[7], mbar);
    } else {
        asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(a), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
                     : "memory");
        asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(a + chunk2), "f"(v[4]), "f"(v[5]), "f"(v[6]),
                     "f"(v[7])
                     : "memory");
    }
}

//! 4 words (8 int16 metrics) to shared address `a`: another block's by a message counted on its
//! barrier `mbar`, this block's by a store
__device__ __forceinline__ void put4(uint32_t a, const uint32_t (&w)[4], bool remote, uint32_t mbar)
{
    if (remote)
        cluster_msg::send4(a, __uint_as_float(w[0]), __uint_as_float(w[1]), __uint_as_float(w[2]),
                           __uint_as_float(w[3]), mbar);
    else
        asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
                     : "memory");
}

#define GPUFEC_FPTD_BODY 1
#endif

/*! STAGED (cluster only): extrinsic values leave through the block's send buffer, grouped by
 *  destination block (see STAGED_MIN_STAGES).
 *  ARMED: a pre-launched kernel of one frame (see fptd_mailbox), which does everything that does
 *  not depend on the frame before it waits for it. FX: fixed point (turbo_fptd_fixed_cpu.cc's
 *  arithmetic, engine=fixed): a thread's two stages are the two int16 halves of each metric word
 *  (turbo_fixed_pairs.cuh, low half: its first stage), so one instruction advances both; a metric
 *  vector is 4 words (16 bytes) where the float one is 8, and the extrinsic values are ints. */
template <bool CLUSTER, int SPT, bool ARMED, bool FX, bool STAGED>
__global__ void fptd_kernel(fptd_args a)
{
#ifdef GPUFEC_FPTD_BODY
    // two stages a thread: its first stage is even, and a byte of decisions is four threads'
    // (four stages a thread, measured slower, are not kept)
    static_assert(SPT == 2, "the kernel reads and writes a thread's two stages as pairs");
    namespace cm = cluster_msg;
    using namespace turbo_fx;
    cg::cluster_group cluster = cg::this_cluster();
    const int C = CLUSTER ? int(cluster.num_blocks()) : 1, rank = CLUSTER ? int(cluster.block_rank()) : 0;
    const int frame = int(blockIdx.x) / C, K = a.K, L = a.L, D = K + 4, T = L / SPT;
    const int t = int(threadIdx.x), l0 = t * SPT, i0 = rank * L + l0; // the thread's first stage
    const int stages_here = max(0, min(L, K - rank * L));
    const bool live = l0 < stages_here; // then so are its other stages: both are multiples of 8
    static_assert(CLUSTER || !STAGED, "only a cluster stages its extrinsic values");
    extern __shared__ __align__(16) float smem[];
    // Values are kept by the parity of the half that reads them (row): stage l reads row h & 1 in
    // half h, and every value written in half h is read in half h + 1, so it goes to the other
    // row. Metrics lie [row][chunk][T][4], two chunks of 4 states, so that a warp's 16-byte
    // loads and stores of one chunk are contiguous (no bank conflicts).
    float* s_alpha = smem;              // alpha into each thread's first stage
    float* s_beta = s_alpha + 4 * T * 4; // beta into each thread's last stage (beta of the stage after it)
    float* s_ext = s_beta + 4 * T * 4;  // [row][L]: the other code's extrinsic value for the stage
    float* s_sys2 = s_ext + 2 * L;      // [L]: the systematic value of stage pi(rank L + l)
    float* s_send = s_sys2 + L;         // [L]: staged, the extrinsic values by destination
    uint8_t* s_bit = reinterpret_cast<uint8_t*>(STAGED ? s_send + L : s_send);
    int8_t* s_in = reinterpret_cast<int8_t*>(s_bit + L); // [3][L] the streams, then [3][4] the termination
    // transaction barriers of even and odd halves and of the set-up; a pre-launched kernel's go
    __shared__ uint64_t s_mbar[4];
    const uint32_t mbar = cm::smem_address(&s_mbar[0]);
    // the bytes other threads send this block in a half: an extrinsic value per stage, alpha
    // from the block before and beta from the block after
    constexpr int edge = FX ? 16 : 32;
    const uint32_t half_bytes = uint32_t(4 * stages_here + (rank > 0 && stages_here > 0 ? edge : 0) +
                                         (rank * L + L < K ? edge : 0));
    // fixed point: the extrinsic values and the lower code's systematic values are ints
    int* const s_exti = reinterpret_cast<int*>(s_ext);
    const int* const s_sys2i = reinterpret_cast<const int*>(s_sys2);
    if (CLUSTER && t == 0) {
        for (uint32_t b = 0; b < 4; ++b)
            cm::barrier_init(mbar + 8 * b, 1);
        cm::barrier_init_fence();
        cm::expect(mbar, half_bytes);                     // half 0
        cm::expect(mbar + 16, uint32_t(4 * stages_here)); // the set-up: a systematic value a stage
    }
    auto slot = [T](float* m, int row, int q, int th) { return m + ((row * 2 + q) * T + th) * 4; };
    const uint32_t chunk2 = uint32_t(T) * 16u; // bytes from a metric's first chunk to its second
    const uint32_t row_m = 2u * chunk2, row_e = uint32_t(L) * 4u; // from row 0 to row 1
    const int8_t* in = a.in + size_t(frame) * size_t(a.n);

    // The stage's values for both codes, in registers for the whole frame. Stage l0 + m runs the
    // upper code in half h if m + h is even (i0 is even).
    float sys[SPT], sys2[SPT], par0[SPT], par1[SPT];
    // A[m]: alpha into stage l0 + m (m > 0), B[m]: beta into it (m < SPT - 1), both from the
    // half before, by the neighbouring stage of this thread; the first stage's alpha and the
    // last one's beta come from other threads through shared memory
    float A[SPT][S], B[SPT][S];
#pragma unroll
    for (int m = 0; m < SPT; ++m) {
        sys[m] = sys2[m] = par0[m] = par1[m] = 0.f;
#pragma unroll
        for (int s = 0; s < S; ++s)
            A[m][s] = B[m][s] = 0.f; // half 0: no metrics from other stages yet
    }
    // Fixed point: the same as ints, and as the words of the halves: in half h the first stage
    // runs code h & 1, the second the other, so sysP[h & 1] and parP[h & 1] hold the two
    // stages' systematic and parity values. KA: alpha out of the first stage (its low halves
    // are the second stage's alpha in the next half), KB: beta into the second stage (its high
    // halves are the first stage's beta of the stage after it in the next half).
    int isys[SPT] = {}, isys2[SPT] = {};
    u32 sysP[2] = {}, parP[2] = {}, KA[S], KB[S];
#pragma unroll
    for (int s = 0; s < S; ++s)
        KA[s] = KB[s] = 0;
    // Where this thread's outputs go (cluster addresses with a cluster, else the block's own, row
    // 0). The extrinsic value of code r of stage l0 + m goes to the other code's stage pi^-1(i)
    // (r = 0) or pi(i) (r = 1), into the row the next half reads. Not STAGED: straight there
    // (ext_to), a store or (cluster) a message. STAGED: through the block's send buffer
    // (fptd_exchange.h): in halves of parity P to slot send_slot[P][m], and the thread sends
    // slots t and t + T of the buffer on (send_to[P][k]), so that consecutive threads write
    // consecutive places of a block; stage l0 + m finds its own value at read_at[P][m] of the
    // row it reads. The set-up sends the stage's systematic value to the lower code's stage
    // pi^-1(i) (s_sys2 lies 2 L floats after s_ext; staged: by sys_to). The last stage's alpha
    // goes to the next thread's first stage, the first stage's beta to the previous thread's last.
    uint32_t ext_to[2][SPT], ext_mbar[2][SPT], sys_to[SPT], sys_mbar[SPT];
    uint32_t send_slot[2][SPT], send_to[2][SPT], send_mbar[2][SPT];
    int read_at[2][SPT];
    bool send_ok[SPT];
    uint32_t alpha_to = 0, beta_to = 0, alpha_mbar = 0, beta_mbar = 0;
    const bool has_alpha = live && i0 + SPT < K, has_beta = live && i0 > 0;
    bool alpha_remote = false, beta_remote = false;
    auto target = [&](const void* p, int tr) {
        const uint32_t local = cm::smem_address(p);
        return CLUSTER ? cm::map_to_rank(local, tr) : local;
    };
    if (live) {
#pragma unroll
        for (int m = 0; m < SPT; ++m) {
            const int i = i0 + m;
            if (STAGED) {
                const int j = int(a.inv[i]), tr = j / L;
                sys_to[m] = target(s_sys2 + (j - tr * L), tr);
                sys_mbar[m] = target(s_mbar, tr) + 16; // the set-up's barrier
                for (int P = 0; P < 2; ++P) {
                    send_slot[P][m] = cm::smem_address(s_send + a.plan[P * K + i]);
                    read_at[P][m] = int(a.plan[2 * K + 2 * C * L + P * K + i]);
                }
            } else {
                for (int r = 0; r < 2; ++r) {
                    const int j = int(r == 0 ? a.inv[i] : a.pi[i]), tr = j / L;
                    ext_to[r][m] = target(s_ext + (j - tr * L), tr);
                    ext_mbar[r][m] = target(s_mbar, tr);
                }
            }
            s_ext[l0 + m] = 0.f; // row 0: no extrinsic value in half 0 (every position of the row)
        }
        // The values of row 0, which half 0 reads; half 0 writes row 1. Leaving row 1 alone means
        // that no store here meets a message of half 0 from another block, which the relaxed
        // barrier after this set-up would not order. Alpha into stage 0 and beta into the last
        // stage are never sent: they are set in both rows here.
        if (FX) // 4 words a vector: states 2j and 2j + 1 in word j
            for (int j = 0; j < 4; ++j) {
                const u32 start = j == 0 ? pk16(0, -UNKNOWN) : pk16(-UNKNOWN, -UNKNOWN); // the trellis starts in 0
                reinterpret_cast<u32*>(slot(s_alpha, 0, 0, t))[j] = i0 == 0 ? start : 0u;
                if (i0 == 0)
                    reinterpret_cast<u32*>(slot(s_alpha, 1, 0, t))[j] = start;
                reinterpret_cast<u32*>(slot(s_beta, 0, 0, t))[j] = 0u;
            }
        else
            for (int s = 0; s < S; ++s) {
                slot(s_alpha, 0, s / 4, t)[s % 4] = i0 == 0 && s != 0 ? NEG : 0.f; // the trellis starts in 0
                if (i0 == 0)
                    slot(s_alpha, 1, s / 4, t)[s % 4] = s != 0 ? NEG : 0.f;
                slot(s_beta, 0, s / 4, t)[s % 4] = 0.f;
            }
        if (has_alpha) { // to stage i0 + SPT, the first of its thread
            const int j = i0 + SPT, tr = j / L;
            const float* p = slot(s_alpha, 0, 0, (j - tr * L) / SPT);
            alpha_remote = tr != rank;
            alpha_to = alpha_remote ? target(p, tr) : cm::smem_address(p);
            alpha_mbar = target(s_mbar, tr);
        }
        if (has_beta) { // to stage i0 - 1, the last of its thread
            const int j = i0 - 1, tr = j / L;
            const float* p = slot(s_beta, 0, 0, (j - tr * L) / SPT);
            beta_remote = tr != rank;
            beta_to = beta_remote ? target(p, tr) : cm::smem_address(p);
            beta_mbar = target(s_mbar, tr);
        }
    }
    if (STAGED)
#pragma unroll
        for (int k = 0; k < SPT; ++k) {
            const int q = t + k * T;
            send_ok[k] = t < T && q < stages_here;
            if (send_ok[k])
                for (int P = 0; P < 2; ++P) {
                    const uint32_t w = a.plan[2 * K + (P * C + rank) * L + q];
                    const int tb = int(w >> 16);
                    send_to[P][k] = target(s_ext + (1 - P) * L + (w & 0xFFFFu), tb);
                    send_mbar[P][k] = target(s_mbar, tb) + 8 * P;
                }
        }
    // So far nothing depended on the frame: a pre-launched kernel waits for it here, after the
    // cluster barrier that the one below is for a launched kernel.
    if constexpr (ARMED) {
        if (CLUSTER)
            cm::execution_barrier();
        if (!wait_for_frame<CLUSTER>(a, rank, C, mbar + 24))
            return; // cancelled, or nobody came
    }
    {
        // The frame's bytes of the block's stages, and in the block of the last stage the 4
        // termination values of each stream, staged through shared memory: 4-byte reads by
        // consecutive threads (K, L, D and the frame's size are multiples of 4), so that a warp
        // reads 128 contiguous bytes of a stream. On the latency path they cross PCIe, where
        // fewer and larger requests arrive sooner. A thread has at most two words (3 L / 4 + 3
        // words, at least max(32, L / 2) threads), both read before either is stored, so that
        // all the block's reads are in flight at once.
        const int words = stages_here / 4, body = 3 * words; // a stream's words, all streams'
        const int n = body + (stages_here > 0 && rank * L + stages_here == K ? 3 : 0);
        char4 v[2];
        int dst[2];
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int j = t + k * int(blockDim.x);
            if (j < n) {
                const int d = j < body ? j / words : j - body, w = j < body ? j - d * words : 0;
                v[k] = *reinterpret_cast<const char4*>(in + (j < body ? d * D + rank * L + 4 * w : d * D + K));
                dst[k] = j < body ? d * L + 4 * w : 3 * L + 4 * d;
            }
        }
#pragma unroll
        for (int k = 0; k < 2; ++k)
            if (t + k * int(blockDim.x) < n)
                *reinterpret_cast<char4*>(s_in + dst[k]) = v[k];
        __syncthreads();
    }
    if (live) {
        const char2 v0 = *reinterpret_cast<const char2*>(s_in + l0); // (l0 is even)
        const char2 v1 = *reinterpret_cast<const char2*>(s_in + L + l0);
        const char2 v2 = *reinterpret_cast<const char2*>(s_in + 2 * L + l0);
        sys[0] = soft_f(v0.x), sys[1] = soft_f(v0.y);
        par0[0] = soft_f(v1.x), par0[1] = soft_f(v1.y);
        par1[0] = soft_f(v2.x), par1[1] = soft_f(v2.y);
        if (FX) {
            isys[0] = soft_in(v0.x), isys[1] = soft_in(v0.y);
            parP[0] = pk16(soft_in(v1.x), soft_in(v2.y)); // half 0: the upper code, then the lower
            parP[1] = pk16(soft_in(v2.x), soft_in(v1.y));
        }
        if (FX && i0 + SPT == K) // beta into the last stage, as the float one below, in ints
            for (int r = 0; r < 2; ++r) {
                const int8_t* d0 = s_in + 3 * L + 2 * r;
                const int tv[6] = { soft_in(d0[0]), soft_in(d0[4]), soft_in(d0[8]),
                                    soft_in(d0[1]), soft_in(d0[5]), soft_in(d0[9]) };
                int b[S];
                for (int s = 0; s < S; ++s)
                    b[s] = s == 0 ? 0 : -UNKNOWN;
                for (int j = 2; j >= 0; --j) {
                    int bn[S];
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        const int x = lte_fb(s), p = lte_par(s, x);
                        bn[s] = b[lte_next(s, x)] + x * tv[2 * j] + p * tv[2 * j + 1];
                    }
                    for (int s = 0; s < S; ++s)
                        b[s] = bn[s];
                }
                for (int j = 0; j < 4; ++j)
                    reinterpret_cast<u32*>(slot(s_beta, 1 - r, 0, t))[j] = pk16(b[2 * j], b[2 * j + 1]);
            }
        else if (i0 + SPT == K) // beta into the last stage: from the termination stages, once
            for (int r = 0; r < 2; ++r) {
                // stream d's termination values K + 2r and K + 2r + 1, staged at 3 L + 4 d
                const int8_t* d0 = s_in + 3 * L + 2 * r;
                const float tv[6] = { soft_f(d0[0]), soft_f(d0[4]), soft_f(d0[8]),
                                      soft_f(d0[1]), soft_f(d0[5]), soft_f(d0[9]) };
                float b[S];
                for (int s = 0; s < S; ++s)
                    b[s] = s == 0 ? 0.f : NEG;
                for (int j = 2; j >= 0; --j) {
                    float bn[S];
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        const int x = lte_fb(s), p = lte_par(s, x);
                        bn[s] = __fadd_rn(__fadd_rn(b[lte_next(s, x)], __fmul_rn(float(x), tv[2 * j])),
                                          __fmul_rn(float(p), tv[2 * j + 1]));
                    }
                    for (int s = 0; s < S; ++s)
                        b[s] = bn[s];
                }
                // the last stage (m = SPT - 1, odd) runs code r in the halves of parity 1 - r
                for (int s = 0; s < S; ++s)
                    slot(s_beta, 1 - r, s / 4, t)[s % 4] = b[s];
            }
    }
    // Every block has started and armed its transaction barriers (barrier_init_fence made them
    // visible to the cluster) before any message goes out; no block reads another's memory.
    // Then each stage sends its systematic value to the lower code's stage that takes it (the
    // one at pi^-1(i)), a message counted on the set-up barrier. With a cluster, half 0 waits
    // for them only after its extrinsic values have gone out, which do not depend on them.
    if (CLUSTER) {
        if (!ARMED)
            cm::execution_barrier();
        if (live)
#pragma unroll
            for (int m = 0; m < SPT; ++m) // to that block's set-up barrier
                cm::send(STAGED ? sys_to[m] : ext_to[0][m] + 2 * row_e, FX ? __int_as_float(isys[m]) : sys[m],
                         STAGED ? sys_mbar[m] : ext_mbar[0][m] + 16);
    } else if (live) {
#pragma unroll
        for (int m = 0; m < SPT; ++m)
            asm volatile("st.shared.f32 [%0], %1;" ::"r"(ext_to[0][m] + 2 * row_e), "f"(FX ? __int_as_float(isys[m]) : sys[m])
                         : "memory");
    }
    const auto set_up_done = [&] { // every systematic value of the lower code has come
        if (CLUSTER)
            cm::wait(mbar + 16, 0);
        else
            __syncthreads();
        if (live && FX) {
            isys2[0] = s_sys2i[l0], isys2[1] = s_sys2i[l0 + 1];
            sysP[0] = pk16(isys[0], isys2[1]);
            sysP[1] = pk16(isys2[0], isys[1]);
        } else if (live) {
#pragma unroll
            for (int m = 0; m < SPT; ++m)
                sys2[m] = s_sys2[l0 + m];
        }
    };
    if (!CLUSTER || a.iterations == 0) // (half 0 waits for them with a cluster)
        set_up_done();

    float own_ext[SPT]; // each stage's latest extrinsic value of the upper code
#pragma unroll
    for (int m = 0; m < SPT; ++m)
        own_ext[m] = 0.f;
    const int H = 2 * a.iterations;
    // the extrinsic inputs of the thread's stages in a half of parity P (rows: s_ext or s_exti)
    const auto ext_in = [&](auto parity, const auto* rows, auto (&e)[SPT]) {
        constexpr int P = decltype(parity)::value;
        if (STAGED) {
#pragma unroll
            for (int m = 0; m < SPT; ++m)
                e[m] = rows[P * L + read_at[P][m]];
        } else { // the two stages' values side by side: one 8-byte load
            using pair = std::conditional_t<std::is_same_v<std::decay_t<decltype(*rows)>, float>, float2, int2>;
            const pair v = *reinterpret_cast<const pair*>(rows + P * L + l0);
            e[0] = v.x, e[1] = v.y;
        }
    };
    // the extrinsic value v of code r of stage l0 + m, out in a half of parity P: into the send
    // buffer (staged), else to its reader (a message with a cluster, a store without)
    const auto ext_out = [&](auto parity, int m, int r, float v) {
        constexpr int P = decltype(parity)::value;
        if (CLUSTER && !STAGED)
            cm::send(ext_to[r][m] + (1 - P) * row_e, v, ext_mbar[r][m] + 8 * P);
        else
            asm volatile("st.shared.f32 [%0], %1;" ::"r"(STAGED ? send_slot[P][m] : ext_to[r][m] + (1 - P) * row_e),
                         "f"(v)
                         : "memory");
    };
    // staged: once the block's extrinsic values are in its send buffer, slots t and t + T to
    // their blocks (consecutive threads, consecutive places: fptd_exchange.h); the block barrier
    // at the end of the half keeps the next half's stores from a slot not yet sent
    const auto send_out = [&](auto parity) {
        constexpr int P = decltype(parity)::value;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < SPT; ++k)
            if (send_ok[k])
                cm::send(send_to[P][k], s_send[t + k * T], send_mbar[P][k]);
    };
    // one half-iteration; P = h & 1 is known here, so is the code each stage runs
    auto half = [&](auto parity, int h) {
        constexpr int P = decltype(parity)::value;
        if (CLUSTER && h > 0) // the previous half's values from other threads
            cm::wait(mbar + 8 * uint32_t(1 - P), uint32_t((h - 1) >> 1) & 1u);
        float e_in[SPT], al[SPT][S], be[SPT][S], su[SPT], pr[SPT];
        if (live) {
            ext_in(parity, s_ext, e_in);
            const auto load8 = [&](float* m, float (&v)[S]) {
                const float4 c0 = *reinterpret_cast<const float4*>(slot(m, P, 0, t));
                const float4 c1 = *reinterpret_cast<const float4*>(slot(m, P, 1, t));
                v[0] = c0.x, v[1] = c0.y, v[2] = c0.z, v[3] = c0.w, v[4] = c1.x, v[5] = c1.y, v[6] = c1.z, v[7] = c1.w;
            };
            load8(s_alpha, al[0]);
            load8(s_beta, be[SPT - 1]);
#pragma unroll
            for (int m = 0; m < SPT; ++m)
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    if (m > 0)
                        al[m][s] = A[m][s];
                    if (m < SPT - 1)
                        be[m][s] = B[m][s];
                }
            // the extrinsic values first: they travel furthest; they land in the other row
#pragma unroll
            for (int m = 0; m < SPT; ++m) {
                const int r = (m + P) & 1; // 0: the upper code, 1: the lower
                pr[m] = r == 0 ? par0[m] : par1[m];
                const float ext = fptd_extrinsic(al[m], be[m], pr[m]);
                if (r == 0)
                    own_ext[m] = ext;
                ext_out(parity, m, r, ext);
            }
        }
        if (STAGED)
            send_out(parity);
        if (CLUSTER && P == 0 && h == 0)
            set_up_done();
        if (live) {
#pragma unroll
            for (int m = 0; m < SPT; ++m) {
                const int r = (m + P) & 1;
                su[m] = __fadd_rn(__fmul_rn(a.sf, e_in[m]), r == 0 ? sys[m] : sys2[m]);
            }
            // then the metrics that leave the thread: beta out of its first stage, alpha out of its last
            const uint32_t base = (1 - P) * row_m;
            float m8[S], out[S];
            if (has_beta) {
                fptd_beta_in(be[0], su[0], pr[0], m8);
                normalise(m8, out);
                put8(beta_to + base, chunk2, out, CLUSTER && beta_remote, beta_mbar + 8 * P);
            }
            if (has_alpha) {
                fptd_alpha_out(al[SPT - 1], su[SPT - 1], pr[SPT - 1], m8);
                normalise(m8, out);
                put8(alpha_to + base, chunk2, out, CLUSTER && alpha_remote, alpha_mbar + 8 * P);
            }
        }
        // Last, the metrics between this thread's stages, which stay in its registers. With a
        // cluster they overlap the cluster barrier's latency, as no other thread waits for them.
        const auto kept_metrics = [&] {
            if (live)
#pragma unroll
                for (int m = 0; m < SPT; ++m) {
                    float m8[S];
                    if (m < SPT - 1) {
                        fptd_alpha_out(al[m], su[m], pr[m], m8);
                        normalise(m8, A[m + 1]);
                    }
                    if (m > 0) {
                        fptd_beta_in(be[m], su[m], pr[m], m8);
                        normalise(m8, B[m - 1]);
                    }
                }
        };
        if (!CLUSTER) {
            kept_metrics();
            __syncthreads();
            return;
        }
        // the next half's barrier: its previous phase (half h - 1) completed above
        if (t == 0 && h + 1 < H)
            cm::expect(mbar + 8 * uint32_t(1 - P), half_bytes);
        __syncthreads();
        cm::execution_arrive();
        kept_metrics();
        cm::execution_wait();
    };
    // one half-iteration in fixed point: both stages of the thread at once, in the halves of
    // the words (the same order of work and the same synchronisation as half())
    int iown[SPT] = {}; // each stage's latest extrinsic value of the upper code, unscaled
    auto half_fx = [&](auto parity, int h) {
        constexpr int P = decltype(parity)::value;
        if (CLUSTER && h > 0)
            cm::wait(mbar + 8 * uint32_t(1 - P), uint32_t((h - 1) >> 1) & 1u);
        u32 al[S], be[S];
        int e_in[SPT];
        if (live) {
            ext_in(parity, s_exti, e_in);
            // the first stage's alpha and the second's beta of the stage after it, from other
            // threads (word j: states 2j, 2j + 1), joined with the halves this thread kept
            const uint4 ra = *reinterpret_cast<const uint4*>(slot(s_alpha, P, 0, t));
            const uint4 rb = *reinterpret_cast<const uint4*>(slot(s_beta, P, 0, t));
            const u32 wa[4] = { ra.x, ra.y, ra.z, ra.w }, wb[4] = { rb.x, rb.y, rb.z, rb.w };
#pragma unroll
            for (int s = 0; s < S; ++s) {
                al[s] = __byte_perm(wa[s / 2], KA[s], s & 1 ? 0x5432 : 0x5410);
                be[s] = __byte_perm(KB[s], wb[s / 2], s & 1 ? 0x7632 : 0x5432);
            }
            // the extrinsic values first: they travel furthest; they land in the other row
            const u32 m1 = extrinsic_max(al, be, parP[P], 1), m0 = extrinsic_max(al, be, parP[P], 0);
            const int ext[SPT] = { lo16(m1) - lo16(m0), hi16(m1) - hi16(m0) };
#pragma unroll
            for (int m = 0; m < SPT; ++m) {
                const int r = (m + P) & 1; // 0: the upper code, 1: the lower
                if (r == 0)
                    iown[m] = ext[m];
                const float v = __int_as_float(scale_ext(ext[m], a.scale16));
                ext_out(parity, m, r, v);
            }
        }
        if (STAGED)
            send_out(parity);
        if (CLUSTER && P == 0 && h == 0)
            set_up_done();
        if (live) {
            const branch g = make_branch(add2(pk16(e_in[0], e_in[1]), sysP[P]), parP[P]);
            forward_step(al, g); // alpha out of each stage
            backward_step(be, g); // beta into each stage
            const uint32_t base = (1 - P) * row_m;
            u32 w[4];
            if (has_beta) { // the first stage's beta (low halves) to the previous thread
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    w[j] = __byte_perm(be[2 * j], be[2 * j + 1], 0x5410);
                put4(beta_to + base, w, CLUSTER && beta_remote, beta_mbar + 8 * P);
            }
            if (has_alpha) { // the second stage's alpha (high halves) to the next thread
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    w[j] = __byte_perm(al[2 * j], al[2 * j + 1], 0x7632);
                put4(alpha_to + base, w, CLUSTER && alpha_remote, alpha_mbar + 8 * P);
            }
#pragma unroll
            for (int s = 0; s < S; ++s)
                KA[s] = al[s], KB[s] = be[s];
        }
        if (CLUSTER && t == 0 && h + 1 < H)
            cm::expect(mbar + 8 * uint32_t(1 - P), half_bytes);
        __syncthreads();
        if (CLUSTER)
            cm::execution_barrier();
    };
    for (int h = 0; h < H; h += 2) {
        if constexpr (FX) {
            half_fx(std::integral_constant<int, 0>(), h);
            half_fx(std::integral_constant<int, 1>(), h + 1);
        } else {
            half(std::integral_constant<int, 0>(), h);
            half(std::integral_constant<int, 1>(), h + 1);
        }
    }
    if (CLUSTER && H > 0)
        cm::wait(mbar + 8 * uint32_t((H - 1) & 1), uint32_t((H - 1) >> 1) & 1u);
    __syncthreads();

    // decisions: the a-posteriori value sf ext_lower + sys + ext_upper, as the CPU sums it; the
    // upper code's input of stage l0 + m lies in row m & 1 (staged: at read_at[m & 1][m])
    if (live)
#pragma unroll
        for (int m = 0; m < SPT; ++m) {
            const int e = (m & 1) * L + (STAGED ? read_at[m & 1][m] : l0 + m);
            s_bit[l0 + m] = FX ? s_exti[e] + isys[m] + iown[m] > 0
                               : __fadd_rn(__fadd_rn(__fmul_rn(a.sf, s_ext[e]), sys[m]), own_ext[m]) > 0.f;
        }
    __syncthreads();
    if (live && l0 % 8 == 0) { // L and rank L are multiples of 8: a byte never spans two blocks
        uint32_t byte = 0;
        for (int b = 0; b < 8; ++b)
            byte = byte << 1 | s_bit[l0 + b];
        if (ARMED) // the word itself tells the host that it has come (no fence, no done word)
            *reinterpret_cast<volatile uint32_t*>(a.tagged + i0 / 8) = a.seq << 8 | byte;
        else
            a.bits[size_t(frame) * size_t(K / 8) + size_t(i0 / 8)] = uint8_t(byte);
    }
    if (CLUSTER)
        cm::execution_barrier(); // no block leaves while another may still address it
#else
    (void)a;
#endif
}

//! the kernels of one arithmetic (FX: fixed point) and exchange (STAGED): a frame per cluster,
//! or (small K) a frame per block; the same, pre-launched for a frame to come
struct fptd_kernels {
    void (*cluster)(fptd_args);
    void (*block)(fptd_args);
    void (*armed_cluster)(fptd_args);
    void (*armed_block)(fptd_args);
};
template <bool FX, bool STAGED>
constexpr fptd_kernels kernels_of()
{
    return { fptd_kernel<true, STAGES_PER_THREAD, false, FX, STAGED>, fptd_kernel<false, STAGES_PER_THREAD, false, FX, false>,
             fptd_kernel<true, STAGES_PER_THREAD, true, FX, STAGED>, fptd_kernel<false, STAGES_PER_THREAD, true, FX, false> };
}
fptd_kernels kernels_of(bool fixed, bool staged)
{
    return fixed ? (staged ? kernels_of<true, true>() : kernels_of<true, false>())
                 : (staged ? kernels_of<false, true>() : kernels_of<false, false>());
}

class fptd_cuda : public turbo_engine
{
public:
    fptd_cuda(const turbo_code& code, const turbo_options& o, int device, size_t max_batch, bool fixed)
        : d_code(code), d_opts(o), d_dev(device), d_fixed(fixed)
    {
        if (code.standard != turbo_standard::lte || !lte_trellis_matches(code.rsc) || code.K % 8)
            throw std::invalid_argument("algorithm: the GPU FPTD runs the LTE code");
        if (o.early_termination)
            throw std::invalid_argument("early_termination: the GPU FPTD runs every iteration "
                                        "(early_termination=false, or device=cpu)");
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            d_has_crc = true;
        }
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        if (prop.major < 9)
            throw std::invalid_argument("device: the GPU FPTD needs thread block clusters (compute capability 9.0)");
        const int K = code.K;
        // as many blocks per frame as keep ~128 or more stages each, up to a cluster of 16
        for (d_C = std::min(MAX_CLUSTER, (K + 127) / 128); d_C >= 1; --d_C) {
            d_L = 8 * ((K + 8 * d_C - 1) / (8 * d_C));
            d_staged = d_C > 1 && d_L >= STAGED_MIN_STAGES;
            d_k = kernels_of(fixed, d_staged);
            for (auto* f : { d_k.cluster, d_k.armed_cluster })
                GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
            d_threads = (d_L / STAGES_PER_THREAD + 31) / 32 * 32;
            d_shared = fptd_shared_bytes(d_L, d_staged);
            for (auto* f : { d_k.cluster, d_k.block, d_k.armed_cluster, d_k.armed_block })
                allow_dynamic_shared(f, d_shared, "turbo GPU FPTD");
            if (d_C == 1) { // no cluster
                d_active = prop.multiProcessorCount;
                break;
            }
            cudaLaunchConfig_t cfg = config(1, nullptr);
            int clusters = 0;
            if (cudaOccupancyMaxActiveClusters(&clusters, d_k.cluster, &cfg) == cudaSuccess && clusters > 0) {
                d_active = clusters;
                break;
            }
            (void)cudaGetLastError(); // an unsupported size: try a smaller one
        }
        if (d_C < 1)
            throw std::runtime_error("turbo: no thread block cluster fits the GPU FPTD on " + d_gpu);
        d_chunk = max_batch ? max_batch : size_t(std::max(1, d_active)) * 4;
        upload_permutations(d_perm, code);
        if (d_staged) // the staged kernels' exchange
            d_plan.assign(make_fptd_exchange_plan(code.pi.permutation(), code.pi.inverse(), d_C, d_L).packed());
        pipeline_layout l;
        l.in = { d_chunk * code.coded_bits() };
        l.out = { d_chunk * size_t(K / 8) };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
        make_direct_buffers();
        if (o.prelaunch && !d_direct_frames)
            throw std::invalid_argument("prelaunch: this GPU cannot read page-locked host memory (no mapped memory)");
    }

    ~fptd_cuda() override
    {
        // a kernel still waiting for a frame ends at once; nothing is freed before it has
        if (d_armed) {
            disarm();
            (void)cudaStreamSynchronize(d_direct_stream->get());
        }
    }
    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") FPTD max-log " + (d_fixed ? "int16" : "float") + ", " + std::to_string(d_C) +
               " blocks x " + std::to_string(d_L) + " stages per frame";
    }
    bool on_gpu() const override { return true; }

    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        const size_t bytes = size_t(d_code.K / 8);
        if (frames == 1 && d_opts.prelaunch) {
            decode_armed(in, bits);
        } else if (frames > 0 && frames <= d_direct_frames) {
            disarm(); // it shares the stream and the buffers
            decode_direct(in, frames, bits);
        } else {
            const turbo_chunks ch{ in, bits, nullptr, frames, d_chunk, d_code.coded_bits(), bytes };
            ch.run(d_dev, *d_pipe, [&](const slot_view& v, size_t m) {
                enqueue(v.stream, v.input<const int8_t>(0), m, v.output<uint8_t>(0));
            });
        }
        for (size_t f = 0; f < frames; ++f) {
            report[f].iterations = d_opts.max_iterations;
            report[f].check = d_has_crc ? int8_t(packed_crc_passes(d_crc, bits + f * bytes, size_t(d_code.K))) : -1;
        }
    }

    double time_kernels(const int8_t* in, size_t frames, int reps) override
    {
        device_guard g(d_dev);
        const size_t m = std::min(d_chunk, frames), n = d_code.coded_bits();
        device_buffer<int8_t> d_in(m * n);
        device_buffer<uint8_t> out(m * size_t(d_code.K / 8));
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in, m * n, cudaMemcpyHostToDevice, st.get()));
        const double t = time_on_stream(st.get(), reps, [&] { enqueue(st.get(), d_in.get(), m, out.get()); });
        return t * double(frames) / double(m);
    }

private:
    /* The latency path: a batch that the GPU runs at once (one frame, a few) skips the
     * pipeline's copies. The kernel reads the soft values from page-locked host memory and
     * writes the decisions back there (mapped memory); each copy that it saves costs some 3 us
     * on a PCIe host. */
    void make_direct_buffers()
    {
        const size_t frames = size_t(std::max(1, d_active));
        d_direct_in.resize(frames * d_code.coded_bits());
        d_direct_out.resize(frames * size_t(d_code.K / 8));
        void* in_dev = nullptr;
        void* out_dev = nullptr;
        if (!d_direct_in.pinned() || !d_direct_out.pinned() ||
            cudaHostGetDevicePointer(&in_dev, d_direct_in.get(), 0) != cudaSuccess ||
            cudaHostGetDevicePointer(&out_dev, d_direct_out.get(), 0) != cudaSuccess) {
            (void)cudaGetLastError(); // no mapped memory here: every batch takes the pipeline
            return;
        }
        d_direct_in_dev = static_cast<const int8_t*>(in_dev);
        d_direct_out_dev = static_cast<uint8_t*>(out_dev);
        if (d_opts.prelaunch) {
            d_mailbox.resize(1);
            d_tagged.resize(size_t(d_code.K / 8));
            void* mb_dev = nullptr;
            void* tagged_dev = nullptr;
            if (!d_mailbox.pinned() || !d_tagged.pinned() ||
                cudaHostGetDevicePointer(&mb_dev, d_mailbox.get(), 0) != cudaSuccess ||
                cudaHostGetDevicePointer(&tagged_dev, d_tagged.get(), 0) != cudaSuccess) {
                (void)cudaGetLastError();
                return;
            }
            *d_mailbox.get() = fptd_mailbox{};
            std::fill(d_tagged.get(), d_tagged.get() + d_tagged.size(), 0u); // tag 0, which no kernel has
            d_mailbox_dev = static_cast<fptd_mailbox*>(mb_dev);
            d_tagged_dev = static_cast<uint32_t*>(tagged_dev);
        }
        d_direct_stream = std::make_unique<cuda_stream>();
        if (d_opts.prelaunch)
            for (auto& e : d_armed_done)
                e = std::make_unique<cuda_event>();
        d_direct_frames = frames;
    }

    /* The pre-launched path (prelaunch=true, one frame). arm() launches a kernel that does the
     * frame-independent set-up and then waits on the GPU for its doorbell (fptd_mailbox); the
     * frame is then written to the mapped input, the doorbell rung, the next frame's kernel
     * launched while this one decodes, and its tagged decisions waited for. A waiting kernel
     * gives up after ARMED_EXPIRY; the host rings only within ARMED_USE of the launch call, which
     * comes before the kernel starts, so it never rings a kernel that has given up. Frames further
     * apart take the direct path and arm again. */
    static constexpr auto ARMED_USE = std::chrono::milliseconds(2);
    static constexpr uint64_t ARMED_EXPIRY_NS = 4000000;

    void decode_armed(const int8_t* in, uint8_t* bits)
    {
        device_guard g(d_dev);
        if (!d_armed || std::chrono::steady_clock::now() - d_armed_at > ARMED_USE) {
            disarm(); // it may have given up already: then this does nothing
            decode_direct(in, 1, bits);
            arm();
            return;
        }
        std::memcpy(d_direct_in.get(), in, d_code.coded_bits());
        fptd_mailbox* mb = d_mailbox.get();
        const uint32_t seq = d_seq;
        __atomic_store_n(&mb->doorbell, ring_word(seq, 1), __ATOMIC_RELEASE); // after the frame
        d_armed = false;
        d_tagged_seq = seq;       // (the words will hold its tag when the next kernel is rung)
        const int ended = d_slot; // the event after this frame's kernel
        arm(); // runs after this frame's kernel; its launch call overlaps the decoding
        wait_tagged(seq, *d_armed_done[ended], bits);
    }

    void arm()
    {
        // The tagged words hold the tag of the last frame decoded here (or 0) when this kernel
        // is rung: a kernel of that tag would seem to have answered at once. Its sequence
        // number is skipped (once in 2^24 kernels at most).
        do
            ++d_seq;
        while ((d_seq & TAG_MASK) == 0 || (d_seq & TAG_MASK) == (d_tagged_seq & TAG_MASK));
        fptd_args a = args(d_direct_in_dev, d_direct_out_dev);
        a.mailbox = d_mailbox_dev;
        a.tagged = d_tagged_dev;
        a.seq = d_seq;
        a.expiry_ns = ARMED_EXPIRY_NS;
        d_armed_at = std::chrono::steady_clock::now(); // before the kernel can start
        launch(d_k.armed_cluster, d_k.armed_block, d_direct_stream->get(), 1, a);
        d_slot ^= 1;
        d_armed_done[d_slot]->record(d_direct_stream->get());
        d_armed = true;
    }

    //! the waiting kernel ends without decoding (if it is still there)
    void disarm()
    {
        if (!d_armed)
            return;
        __atomic_store_n(&d_mailbox.get()->doorbell, ring_word(d_seq, 0), __ATOMIC_RELEASE);
        d_armed = false;
    }

    //! kernel `seq`'s decisions, as each tagged word comes (in any order: a word carries its
    //! own tag); a kernel that ended without them, or a GPU error, throws
    void wait_tagged(uint32_t seq, const cuda_event& ended, uint8_t* bits)
    {
        const uint32_t* w = d_tagged.get();
        const uint32_t tag = seq & TAG_MASK;
        const auto t0 = std::chrono::steady_clock::now();
        uint32_t spin = 0;
        for (size_t i = 0; i < d_tagged.size(); ++i) {
            uint32_t v;
            while (((v = __atomic_load_n(w + i, __ATOMIC_RELAXED)) >> 8) != tag) {
                if (++spin % 4096)
                    continue;
                const cudaError_t e = cudaEventQuery(ended.get());
                if (e == cudaSuccess && (__atomic_load_n(w + i, __ATOMIC_RELAXED) >> 8) != tag)
                    throw std::runtime_error("turbo GPU FPTD: the pre-launched kernel ended without "
                                             "decoding its frame");
                if (e != cudaSuccess && e != cudaErrorNotReady)
                    GPUFEC_CUDA_CHECK(e);
                if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(10))
                    throw std::runtime_error("turbo GPU FPTD: no answer from the GPU in 10 s");
            }
            bits[i] = uint8_t(v);
        }
    }

    void decode_direct(const int8_t* in, size_t frames, uint8_t* bits)
    {
        device_guard g(d_dev);
        const size_t bytes = frames * size_t(d_code.K / 8);
        std::memcpy(d_direct_in.get(), in, frames * d_code.coded_bits());
        enqueue(d_direct_stream->get(), d_direct_in_dev, frames, d_direct_out_dev);
        d_direct_stream->sync();
        std::memcpy(bits, d_direct_out.get(), bytes);
    }

    cudaLaunchConfig_t config(size_t frames, cudaStream_t s)
    {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(unsigned(frames) * unsigned(d_C));
        cfg.blockDim = dim3(unsigned(d_threads));
        cfg.dynamicSmemBytes = d_shared;
        cfg.stream = s;
        d_attr.id = cudaLaunchAttributeClusterDimension;
        d_attr.val.clusterDim.x = unsigned(d_C);
        d_attr.val.clusterDim.y = 1;
        d_attr.val.clusterDim.z = 1;
        cfg.attrs = &d_attr;
        cfg.numAttrs = 1;
        return cfg;
    }

    fptd_args args(const int8_t* in, uint8_t* bits) const
    {
        fptd_args a = {};
        a.in = in;
        a.n = int(d_code.coded_bits());
        a.K = d_code.K;
        a.L = d_L;
        a.iterations = d_opts.max_iterations;
        a.sf = d_opts.scaling;
        a.scale16 = int(std::lround(d_opts.scaling * 16));
        a.pi = d_perm.get();
        a.inv = d_perm.get() + d_code.K;
        a.plan = d_plan.get(); // null unless staged
        a.bits = bits;
        return a;
    }

    //! m frames: a cluster of d_C blocks each, or a block each (d_C = 1)
    void launch(void (*cluster_kernel)(fptd_args), void (*block_kernel)(fptd_args), cudaStream_t s, size_t m,
                const fptd_args& a)
    {
        if (d_C == 1) {
            block_kernel<<<unsigned(m), unsigned(d_threads), d_shared, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("fptd_kernel");
            return;
        }
        cudaLaunchConfig_t cfg = config(m, s);
        GPUFEC_CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_kernel, a));
    }

    void enqueue(cudaStream_t s, const int8_t* in, size_t m, uint8_t* bits)
    {
        launch(d_k.cluster, d_k.block, s, m, args(in, bits));
    }

    turbo_code d_code;
    turbo_options d_opts;
    int d_dev;
    bool d_fixed;
    fptd_kernels d_k{};
    int d_C = 1, d_L = 8, d_threads = 32, d_active = 0;
    bool d_staged = false; // blocks of STAGED_MIN_STAGES or more: the staged kernels
    size_t d_shared = 0, d_chunk = 0;
    std::string d_gpu;
    crc_spec d_crc;
    bool d_has_crc = false;
    cudaLaunchAttribute d_attr{};
    device_buffer<uint32_t> d_perm; // pi, then its inverse
    device_buffer<uint32_t> d_plan; // the staged kernels' exchange (fptd_exchange.h), else empty
    std::unique_ptr<batch_pipeline> d_pipe;
    // the latency path's mapped host buffers (d_direct_frames 0: not available)
    pinned_buffer<int8_t> d_direct_in;
    pinned_buffer<uint8_t> d_direct_out;
    const int8_t* d_direct_in_dev = nullptr;
    uint8_t* d_direct_out_dev = nullptr;
    size_t d_direct_frames = 0;
    std::unique_ptr<cuda_stream> d_direct_stream; // made on the decoder's GPU
    // the pre-launched path: its mailbox and tagged decisions (mapped), the sequence number of
    // the latest kernel, whether it waits and since when, an event after each of the last two
    pinned_buffer<fptd_mailbox> d_mailbox;
    fptd_mailbox* d_mailbox_dev = nullptr;
    pinned_buffer<uint32_t> d_tagged; // K / 8 tagged words of decisions (mapped)
    uint32_t* d_tagged_dev = nullptr;
    uint32_t d_tagged_seq = 0; // the kernel whose tag they hold (0: none)
    uint32_t d_seq = 0;
    bool d_armed = false;
    std::chrono::steady_clock::time_point d_armed_at;
    std::unique_ptr<cuda_event> d_armed_done[2]; // made on the decoder's GPU
    int d_slot = 0;                              // the waiting kernel's
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_fptd_cuda(const turbo_code& code, const turbo_options& o, int device,
                                                   size_t max_batch, bool fixed)
{
    return std::make_unique<fptd_cuda>(code, o, device, max_batch, fixed);
}

} // namespace gpufec
