/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* CUDA layered (TDMP) min-sum LDPC decoder for quasi-cyclic codes, after Xie Wen et al.
 * ("A high throughput LDPC decoder using a mid-range GPU"), bit-exact with the CPU reference
 * (ldpc_common.h).
 *
 * Parallel mapping: a thread block decodes C codewords at once; a codeword has R threads, R =
 * the most rows of a sub-layer (ldpc_code::row_stride: a layer of Z rows is taken as p
 * sub-layers of Z / p rows whose bits are distinct; p = 1, R = Z for codes of one circulant per
 * block and Z <= 512). Thread u of a codeword owns row c + p u of sub-layer c of every layer, so
 * a sub-layer is one parallel step, and the block synchronises between sub-layers. C is chosen
 * per code so that C * R threads keep the most codewords resident per SM with few idle threads
 * (chosen at run time from the occupancy). Blocks take groups of C codewords from a queue (one
 * atomic counter), so a block whose codewords stop early takes new ones instead of idling.
 * Several circulants may share a block (their entries repeat the block column) and a layer may
 * miss one row's entry (DVB-S2's corner: that thread skips it).
 *
 * Memory: posteriors gamma of the block's codewords in shared memory (int16 for int8 messages,
 * int32 for int16 messages: wide enough never to saturate, see ldpc_common.h), and one
 * check-to-bit message per edge, in shared memory where they fit (int8 or int16; for int8 this
 * is less than the compressed form of two minima, position and signs would take, and it saves
 * rebuilding every old message), else in global memory (DVB-S2 normal frames, 5G NR at Z = 384
 * where it lets more codewords share an SM). A thread's messages are S slots (its edges in
 * layer and sub-layer order, so a sub-layer's are at fixed offsets from one pointer): in shared
 * memory one row of S per thread with S / 4 odd, so the 32 rows of a warp fall in 32 different
 * banks; in global memory slot i of all the block's threads side by side (a warp's 32 messages
 * of one edge in one 32-byte sector). The base matrix travels in the launch parameters
 * (constant bank): every thread of the block reads the same entry at the same time, which the
 * uniform datapath serves without shared-memory traffic. Channel values are read once from
 * global memory, int8; the output is the packed leading hard bits (codeword, or information
 * bits of a systematic-first code), the per-codeword results and the optional posteriors
 * (float) each into their own buffer, copied back to the caller by the batch pipeline. */
#include "ldpc_common.h"
#include "ldpc_engine.h"
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gpufec {

namespace {

constexpr int max_table_entries = 2048; // circulants of the base matrix
constexpr int max_table_layers = 1024;  // its rows
constexpr int max_table_holes = 4;      // rows of a layer without one of its entries

/*! The base matrix, layer by layer, in the form the row update uses. Entry e (block column
 *  bc, shift s) as byte counts: entry[e].x = s * sizeof(T), entry[e].y = bc * Z * sizeof(T).
 *  The bit of row r is bc * Z + (r + s) mod Z (bit_of). */
constexpr int max_input_runs = 16; // pieces of a sent frame's layout (take_input_order)

struct gpu_table {
    int2 entry[max_table_entries];
    uint16_t layer_start[max_table_layers + 1]; // layer l: entries layer_start[l] .. [l + 1]
    uint16_t stride[max_table_layers];          // layer l: sub-layers p (rows c, c + p, ...)
    // row hole_row[h] of layer hole_layer[h] lacks its entry hole_entry[h] (from the layer's
    // first): it reads the codeword's sink there (hole_of)
    int hole_layer[max_table_holes], hole_row[max_table_holes], hole_entry[max_table_holes];
    // where codes are sent without some bits: run r puts run_len[r] values at bit run_at[r],
    // copied from sent value run_from[r] on, or (run_from < 0) the fill input_erased,
    // input_known_zero or input_known_one (frame/frame_engine.h)
    int run_at[max_input_runs], run_len[max_input_runs], run_from[max_input_runs];
};

struct gpu_params {
    int n, z, mb;
    int gstride;        // posteriors a codeword in shared memory: n, and the sink where holes
    int rows;           // R: threads a codeword (the most rows of a sub-layer)
    int holes;          // entries of the table's hole lists in use
    int global_msgs;    // messages in global memory (else shared)
    int in_stride;      // soft values a codeword in the input (n, or the sent ones)
    int runs;           // 0: the input is the codeword; else the table's runs place it
    int cw_per_block;   // C
    int msg_stride;     // S: messages per thread (>= their edges); shared: S * sizeof(M) / 4 odd
    int frames;         // codewords in this launch
    int groups;         // ceil(frames / C)
    int max_iter;
    int early_termination;
    int want_post;
    ldpc_fixed fx;
    int out_bits;        // leading hard bits written per codeword (n, or k)
    int nbytes;          // packed bytes per codeword: ceil(out_bits / 8)
};

__host__ __device__ inline size_t align16(size_t x) { return (x + 15) & ~size_t(15); }

//! messages per thread S: at least `entries`, with S * sizeof(M) / 4 odd (conflict-free rows)
template <typename M>
__host__ __device__ inline int msg_stride(int entries)
{
    int words = int((size_t(entries) * sizeof(M) + 3) / 4);
    words += words % 2 == 0 ? 1 : 0;
    return int(size_t(words) * 4 / sizeof(M));
}

//! dynamic shared memory of one block: gamma (T), messages (M, one row of S per thread) unless
//! they are in global memory, flags; R threads a codeword, `slots` messages a thread
template <typename T, typename M>
__host__ __device__ inline size_t smem_bytes(int n, int R, int slots, int C, bool global_msgs)
{
    return align16(size_t(C) * n * sizeof(T)) +
           (global_msgs ? 0 : align16(size_t(C) * R * msg_stride<M>(slots) * sizeof(M))) + align16(size_t(C) * 4 * 4);
}

/*! Address of the bit of table entry `e` for the thread whose row starts rb bytes into a
 *  block column of its codeword's posteriors `gcw` (rbz = rb - Z * sizeof(T)). (r + s) mod Z
 *  in bytes is the unsigned minimum of rb + s and rbz + s, the latter wrapping round to a huge
 *  value when it is negative: one add and one add-and-minimum (a single instruction on Hopper)
 *  instead of a comparison, a select and an add on the integer ALU, the kernel's busiest pipe. */
template <typename T>
__device__ __forceinline__ T* bit_of(unsigned char* gcw, int2 e, unsigned rb, unsigned rbz)
{
    const unsigned off = __viaddmin_u32(rb, unsigned(e.x), rbz + unsigned(e.x));
    return reinterpret_cast<T*>(gcw + e.y + off);
}

/*! One check row of degree D for one codeword (the thread's row of a sub-layer): the layered
 *  min-sum update of ldpc_common.h. lrow[j * ms] is the row's message j (ms: 1 in shared
 *  memory, the block's threads in global memory), ent[j] the table entry of its bit j. rho,
 *  magnitudes and bit addresses stay in registers between the two passes. */
template <typename T, typename M, int D>
__device__ __forceinline__ void layered_row(unsigned char* gcw, M* lrow, int ms, const int2* ent, unsigned rb,
                                            unsigned rbz, const ldpc_fixed& fx)
{
    T* at[D];
    int rho[D], mag[D];
    int min1 = 1 << 30, min2 = 1 << 30, sx = 0;
    // pass 1: rho = gamma - old message, the two smallest magnitudes and the sign product
    // (sign bit of the XOR of all rho)
#pragma unroll
    for (int j = 0; j < D; ++j) {
        at[j] = bit_of<T>(gcw, ent[j], rb, rbz);
        rho[j] = int(*at[j]) - int(lrow[j * ms]);
        mag[j] = abs(rho[j]);
        sx ^= rho[j];
        min2 = min(min2, max(min1, mag[j]));
        min1 = min(min1, mag[j]);
    }
    // the sign of all rho folded into the two magnitudes once per row
    int n1 = ldpc_norm(min1, fx), n2 = ldpc_norm(min2, fx);
    n1 = sx < 0 ? -n1 : n1;
    n2 = sx < 0 ? -n2 : n2;
    const int step = n1 - n2;
    // pass 2: new messages and posteriors (this thread alone touches these bits in this
    // layer). The first j at min1 gets min2; any other j at min1 means min2 == min1, so
    // |rho_j| == min1 selects the same magnitude: n2 + min(|rho_j| - min1, 1) * (n1 - n2), a
    // multiply-add rather than a comparison and a select. Message j carries the product of the
    // other signs: that of all rho (in n1, n2) times rho_j's own.
#pragma unroll
    for (int j = 0; j < D; ++j) {
        const int m = n2 + __viaddmin_s32(mag[j], -min1, 1) * step;
        const int msg = rho[j] < 0 ? -m : m;
        lrow[j * ms] = M(msg);
        *at[j] = T(rho[j] + msg);
    }
}

/*! The same row update for the general kernel (sub-layers, global messages, rows that lack an
 *  entry: `skip` reads `sink` instead), as a loop over the row's d entries that reads each
 *  bit and message again in the second pass rather than holding them: few registers, so that
 *  more codewords share an SM whatever the degree (DVB-S2 rows reach 30 bits, C2's 32). */
template <typename T, typename M, bool HOLES>
__device__ __forceinline__ void layered_row_loop(unsigned char* gcw, M* lrow, int ms, const int2* ent, int d,
                                                 unsigned rb, unsigned rbz, const ldpc_fixed& fx, int skip, T* sink)
{
    int min1 = 1 << 30, min2 = 1 << 30, sx = 0;
    for (int j = 0; j < d; ++j) {
        T* at = bit_of<T>(gcw, ent[j], rb, rbz);
        if constexpr (HOLES)
            at = j == skip ? sink : at;
        const int rho = int(*at) - int(lrow[j * ms]);
        const int mag = abs(rho);
        sx ^= rho;
        min2 = min(min2, max(min1, mag));
        min1 = min(min1, mag);
    }
    int n1 = ldpc_norm(min1, fx), n2 = ldpc_norm(min2, fx);
    n1 = sx < 0 ? -n1 : n1;
    n2 = sx < 0 ? -n2 : n2;
    const int step = n1 - n2;
    for (int j = 0; j < d; ++j) { // (this thread alone touches these bits in this sub-layer)
        T* at = bit_of<T>(gcw, ent[j], rb, rbz);
        if constexpr (HOLES)
            at = j == skip ? sink : at;
        const int rho = int(*at) - int(lrow[j * ms]);
        const int m = n2 + __viaddmin_s32(abs(rho), -min1, 1) * step;
        const int msg = rho < 0 ? -m : m;
        lrow[j * ms] = M(msg);
        *at = T(rho + msg);
    }
}

/*! Parity of one check row of degree D (the thread's row of a layer): negative when an odd
 *  number of its bits decide 1 (the sign bit of the XOR of their posteriors). */
template <typename T, int D>
__device__ __forceinline__ int row_parity(unsigned char* gcw, const int2* ent, unsigned rb, unsigned rbz, int skip)
{
    int x = 0;
#pragma unroll
    for (int j = 0; j < D; ++j)
        x ^= j == skip ? 0 : int(*bit_of<T>(gcw, ent[j], rb, rbz));
    return x;
}

/*! The entry (from the layer's first) that row r of layer l lacks, or -1. The row reads the
 *  codeword's sink there instead of a bit: a value beyond any posterior (hole_sink), whose
 *  magnitude is never a minimum and whose sign is positive, so the row updates as if it had no
 *  such entry, as the CPU engines do; what is written back there stays within a message of it. */
__device__ __forceinline__ int hole_of(const gpu_table& tab, int holes, int l, int r)
{
    int skip = -1;
    for (int h = 0; h < holes; ++h)
        if (tab.hole_layer[h] == l && tab.hole_row[h] == r)
            skip = tab.hole_entry[h];
    return skip;
}

//! the sink's value: beyond |rho| of any real bit (127 + 33 mmax, ldpc_common.h) by more than a
//! message, and normalised it is still at least mmax
template <typename T>
__host__ __device__ constexpr int hole_sink()
{
    return sizeof(T) == 2 ? 16384 : (1 << 22);
}

/*! f(std::integral_constant<int, d>) for a row degree d of 2..MAXD (ldpc_code refuses checks
 *  of fewer than 2 bits): one fully unrolled instantiation per degree, so loops have no
 *  predicated-off steps (802.16e rate 1/2 has rows of 6 and 7 bits). */
template <int MAXD, class F>
__device__ __forceinline__ void with_degree(int d, F&& f)
{
    switch (d) {
#define GPUFEC_LDPC_DEGREE(D)                                                                       \
    case D:                                                                                         \
        if constexpr (D <= MAXD)                                                                    \
            f(std::integral_constant<int, D>());                                                    \
        break;
        GPUFEC_LDPC_DEGREE(2) GPUFEC_LDPC_DEGREE(3) GPUFEC_LDPC_DEGREE(4) GPUFEC_LDPC_DEGREE(5)
        GPUFEC_LDPC_DEGREE(6) GPUFEC_LDPC_DEGREE(7) GPUFEC_LDPC_DEGREE(8) GPUFEC_LDPC_DEGREE(9)
        GPUFEC_LDPC_DEGREE(10) GPUFEC_LDPC_DEGREE(11) GPUFEC_LDPC_DEGREE(12) GPUFEC_LDPC_DEGREE(13)
        GPUFEC_LDPC_DEGREE(14) GPUFEC_LDPC_DEGREE(15) GPUFEC_LDPC_DEGREE(16) GPUFEC_LDPC_DEGREE(17)
        GPUFEC_LDPC_DEGREE(18) GPUFEC_LDPC_DEGREE(19) GPUFEC_LDPC_DEGREE(20) GPUFEC_LDPC_DEGREE(21)
        GPUFEC_LDPC_DEGREE(22) GPUFEC_LDPC_DEGREE(23) GPUFEC_LDPC_DEGREE(24) GPUFEC_LDPC_DEGREE(25)
        GPUFEC_LDPC_DEGREE(26) GPUFEC_LDPC_DEGREE(27) GPUFEC_LDPC_DEGREE(28) GPUFEC_LDPC_DEGREE(29)
        GPUFEC_LDPC_DEGREE(30) GPUFEC_LDPC_DEGREE(31) GPUFEC_LDPC_DEGREE(32)
#undef GPUFEC_LDPC_DEGREE
    default:
        break;
    }
}

//! gamma = -soft for four bits (the internal sign convention)
__device__ __forceinline__ void store_negated(int16_t* g, char4 s)
{
    *reinterpret_cast<short4*>(g) = make_short4(short(-s.x), short(-s.y), short(-s.z), short(-s.w));
}
__device__ __forceinline__ void store_negated(int32_t* g, char4 s)
{
    *reinterpret_cast<int4*>(g) = make_int4(-s.x, -s.y, -s.z, -s.w);
}

/* Registers: rows of up to 8 bits (the rate-1/2 codes) fit 40 registers, which lets 1536
 * threads (3 blocks of 512, or 6 of 256) share an SM; longer rows get what they need. */
template <typename T, typename M, int MAXD, bool GLOBAL, bool HOLES>
__global__ void __launch_bounds__(512, MAXD <= 8 ? 3 : 1)
    ldpc_layered_kernel(gpu_params p, const __grid_constant__ gpu_table tab,
                        const int8_t* __restrict__ soft,
                        uint8_t* __restrict__ out,         // packed hard bits
                        frame_status* __restrict__ results, // one per codeword
                        float* __restrict__ posteriors,    // n per codeword, where wanted
                        void* __restrict__ gmsg_v,         // messages (M), where they are in global memory
                        int* __restrict__ queue)
{
    M* gmsg = static_cast<M*>(gmsg_v);
    extern __shared__ __align__(16) unsigned char smem[];
    const int C = p.cw_per_block, z = p.z, n = p.n, S = p.msg_stride, R = p.rows;
    const int zbytes = z * int(sizeof(T));
    unsigned char* cursor = smem;
    T* s_gamma = reinterpret_cast<T*>(cursor);
    cursor += align16(size_t(C) * p.gstride * sizeof(T));
    // messages of thread t (codeword t / R, its thread t mod R): slot i at mrow[i * ms]
    M* s_msg = reinterpret_cast<M*>(cursor);
    if constexpr (!GLOBAL)
        cursor += align16(size_t(C) * R * S * sizeof(M));
    int* s_bad = reinterpret_cast<int*>(cursor); // per codeword: a check failed
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;

    const int local = threadIdx.x / R;     // codeword within the block
    const int u = threadIdx.x - local * R; // the thread's place in every sub-layer
    const bool lane_used = local < C;
    T* gamma = s_gamma + (lane_used ? local * p.gstride : 0);
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    M* mrow;
    int ms; // (1 in shared memory: a constant the compiler folds)
    if constexpr (GLOBAL) {
        mrow = gmsg + size_t(blockIdx.x) * blockDim.x * S + threadIdx.x;
        ms = int(blockDim.x);
    } else {
        mrow = s_msg + (lane_used ? size_t(threadIdx.x) * S : 0);
        ms = 1;
    }
    T* const sink = gamma + n;

    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0)
            *s_group = atomicAdd(queue, 1);
        __syncthreads();
        const int group = *s_group;
        if (group >= p.groups)
            return;
        const int cw = group * C + local;
        const bool active = lane_used && cw < p.frames;

        // load: gamma = -soft (the internal sign convention), four bits at a time where the
        // codewords keep 4-byte alignment; messages 0, 16 bytes at a time
        for (int c = 0; c < C; ++c) {
            const int id = group * C + c;
            const int8_t* src = soft + size_t(id) * p.in_stride;
            T* g = s_gamma + c * p.gstride;
            if (HOLES && threadIdx.x == 0)
                g[n] = T(hole_sink<T>());
            if (id >= p.frames) {
                for (int v = threadIdx.x; v < n; v += blockDim.x)
                    g[v] = T(0);
            } else if (p.runs) { // the sent values in place, erasures and known bits between them
                for (int r = 0; r < p.runs; ++r) {
                    const int at = tab.run_at[r], len = tab.run_len[r], from = tab.run_from[r];
                    // gamma = -soft: a known 0 (soft -127) is +127
                    const T fill = from == input_known_zero ? T(127) : from == input_known_one ? T(-127) : T(0);
                    for (int v = threadIdx.x; v < len; v += blockDim.x)
                        g[at + v] = from >= 0 ? T(-int(src[from + v])) : fill;
                }
            } else if (n % 4 == 0) {
                for (int v = threadIdx.x; v < n / 4; v += blockDim.x)
                    store_negated(g + 4 * v, reinterpret_cast<const char4*>(src)[v]);
            } else {
                for (int v = threadIdx.x; v < n; v += blockDim.x)
                    g[v] = T(-int(src[v]));
            }
        }
        if constexpr (GLOBAL) {
            for (int i = 0; i < S; ++i)
                mrow[size_t(i) * ms] = M(0);
        } else {
            for (int i = threadIdx.x; i < int(align16(size_t(C) * R * S * sizeof(M)) / 16); i += blockDim.x)
                reinterpret_cast<int4*>(s_msg)[i] = make_int4(0, 0, 0, 0);
        }
        if (threadIdx.x < C) {
            s_done[threadIdx.x] = group * C + threadIdx.x >= p.frames;
            s_iters[threadIdx.x] = 0;
        }
        __syncthreads();

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[local];
            bool mine_done;
            if constexpr (!GLOBAL) { // one sub-layer a layer: thread u owns row u, its messages at e0
                const unsigned rb = unsigned(u) * sizeof(T), rbz = rb - unsigned(zbytes); // bit_of
                for (int l = 0; l < p.mb; ++l) {
                    if (work) {
                        const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0;
                        with_degree<MAXD>(d, [&](auto deg) {
                            layered_row<T, M, decltype(deg)::value>(gcw, mrow + e0, 1, tab.entry + e0, rb, rbz, p.fx);
                        });
                    }
                    __syncthreads();
                }
            }
            int slot = 0; // the thread's message slots used so far this iteration
            for (int l = 0; GLOBAL && l < p.mb; ++l) {
                const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0, stride = tab.stride[l];
                const int rows = z / stride;
                for (int c = 0; c < stride; ++c) {
                    if (work && u < rows) {
                        const int r = c + stride * u;
                        const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - unsigned(zbytes); // bit_of
                        const int skip = HOLES ? hole_of(tab, p.holes, l, r) : -1;
                        layered_row_loop<T, M, HOLES>(gcw, mrow + size_t(slot + c * d) * ms, ms, tab.entry + e0, d, rb,
                                                      rbz, p.fx, skip, sink);
                    }
                    __syncthreads();
                }
                slot += stride * d;
            }
            if (p.early_termination || it == p.max_iter) {
                if (lane_used && u == 0)
                    s_bad[local] = 0;
                __syncthreads();
                if (work) {
                    bool bad = false;
                    for (int l = 0; l < p.mb && !bad; ++l) {
                        const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0, stride = tab.stride[l];
                        for (int r = u; r < z && !bad; r += R) { // every row of the layer, R at a time
                            const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - unsigned(zbytes);
                            const int skip = HOLES ? hole_of(tab, p.holes, l, r) : -1;
                            if constexpr (GLOBAL) {
                                int x = 0;
                                for (int j = 0; j < d; ++j)
                                    x ^= j == skip ? 0 : int(*bit_of<T>(gcw, tab.entry[e0 + j], rb, rbz));
                                bad = x < 0;
                            } else {
                                with_degree<MAXD>(d, [&](auto deg) {
                                    bad = row_parity<T, decltype(deg)::value>(gcw, tab.entry + e0, rb, rbz, skip) < 0;
                                });
                            }
                        }
                        (void)stride;
                    }
                    if (bad)
                        atomicOr(&s_bad[local], 1);
                }
                __syncthreads();
                // every row of a codeword reads s_bad after the barrier and so knows whether its
                // codeword is done; thread 0 alone records it. (Reading s_done here instead raced
                // with thread 0's write: compute-sanitizer racecheck.)
                const bool passed = lane_used && !s_bad[local];
                if (work && u == 0) {
                    s_iters[local] = it;
                    if (p.early_termination && passed)
                        s_done[local] = 1;
                }
                mine_done = !work || (p.early_termination && passed);
            } else {
                if (work && u == 0)
                    s_iters[local] = it;
                mine_done = !work;
            }
            all_done = __syncthreads_and(!active || mine_done);
        }
        __syncthreads();

        // results: packed hard bits, iterations and syndrome, posteriors
        if (active) {
            uint8_t* o = out + size_t(cw) * p.nbytes;
            for (int b = u; b < p.nbytes; b += R) {
                unsigned byte = 0;
                for (int i = 0; i < 8; ++i) {
                    const int v = b * 8 + i;
                    byte |= (v < p.out_bits && gamma[v] < 0) ? (0x80u >> i) : 0u;
                }
                o[b] = uint8_t(byte);
            }
            if (u == 0) {
                results[cw] = frame_status{ s_iters[local], int8_t(!s_bad[local]), 0 };
            }
            if (p.want_post) {
                float* post = posteriors + size_t(cw) * n;
                for (int v = u; v < n; v += R)
                    post[v] = float(-int(gamma[v]));
            }
        }
    }
}

typedef void (*kernel_fn)(gpu_params, const gpu_table, const int8_t*, uint8_t*, frame_status*, float*, void*, int*);

template <typename T, typename M, bool GLOBAL, bool HOLES>
kernel_fn pick_by_degree(int max_degree)
{
    if (max_degree <= 8)
        return ldpc_layered_kernel<T, M, 8, GLOBAL, HOLES>;
    if (max_degree <= 16)
        return ldpc_layered_kernel<T, M, 16, GLOBAL, HOLES>;
    if (max_degree <= 24)
        return ldpc_layered_kernel<T, M, 24, GLOBAL, HOLES>;
    return ldpc_layered_kernel<T, M, 32, GLOBAL, HOLES>;
}

/*! int8 messages with int16 posteriors, or int16 messages with int32 posteriors (ldpc_common.h);
 *  messages in shared or global memory; rows that lack an entry (only with global messages:
 *  DVB-S2, whose messages never fit shared memory at full speed) */
kernel_fn pick_kernel(bool int8_messages, int max_degree, bool global, bool holes)
{
    // the general kernel loops over a row's entries: one instantiation serves every degree (its
    // MAXD 8 only sets the launch bounds: 3 blocks of 512 threads an SM)
    if (holes)
        return int8_messages ? ldpc_layered_kernel<int16_t, int8_t, 8, true, true>
                             : ldpc_layered_kernel<int32_t, int16_t, 8, true, true>;
    if (global)
        return int8_messages ? ldpc_layered_kernel<int16_t, int8_t, 8, true, false>
                             : ldpc_layered_kernel<int32_t, int16_t, 8, true, false>;
    (void)max_degree;
    return int8_messages ? pick_by_degree<int16_t, int8_t, false, false>(max_degree)
                         : pick_by_degree<int32_t, int16_t, false, false>(max_degree);
}

class cuda_engine : public ldpc_engine
{
public:
    cuda_engine(const ldpc_code& code, const ldpc_options& o, int device)
        : ldpc_engine(code.n()), d_code(code), d_opts(o), d_device(device)
    {
        if (!code.is_qc())
            throw std::invalid_argument("the CUDA LDPC decoder needs a quasi-cyclic code");
        if (code.max_row_degree() > 32)
            throw std::invalid_argument("the CUDA LDPC decoder handles rows of up to 32 bits");
        device_guard guard(d_device);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = "cuda:" + std::to_string(device) + " (" + prop.name + ")";
        d_sms = prop.multiProcessorCount;
        if (code.mb() > max_table_layers)
            throw std::invalid_argument("the CUDA LDPC decoder handles base matrices of up to " +
                                        std::to_string(max_table_layers) + " rows");
        d_int8 = o.precision == ldpc_precision::int8; // int16 posteriors, else int32
        // the circulants, layer by layer, in column order (gpu_table); a thread's message slots
        // (stride x degree a layer) and the most rows of a sub-layer (its codeword's threads)
        const int tsize = d_int8 ? 2 : 4, z = code.z();
        d_table = std::make_unique<gpu_table>();
        d_entries = 0;
        d_slots = 0;
        d_rows = 0;
        d_holes = 0;
        const auto& circ = code.circulants();
        size_t ci = 0;
        std::vector<int> hole_at; // the table index of each missing entry's circulant
        for (int l = 0; l < code.mb(); ++l) {
            d_table->layer_start[l] = uint16_t(d_entries);
            const int stride = code.row_stride(l);
            d_table->stride[l] = uint16_t(stride);
            d_rows = std::max(d_rows, z / stride);
            const int first = d_entries;
            for (; ci < circ.size() && circ[ci].row == l; ++ci) {
                if (d_entries == max_table_entries)
                    throw std::invalid_argument("the CUDA LDPC decoder handles base matrices of up to " +
                                                std::to_string(max_table_entries) + " circulants");
                if (circ[ci].missing >= 0) {
                    if (d_holes == max_table_holes)
                        throw std::invalid_argument("the CUDA LDPC decoder handles up to " +
                                                    std::to_string(max_table_holes) + " missing entries");
                    d_table->hole_layer[d_holes] = l;
                    d_table->hole_row[d_holes] = circ[ci].missing;
                    hole_at.push_back(d_entries);
                    ++d_holes;
                }
                d_table->entry[d_entries++] = make_int2(circ[ci].shift * tsize, circ[ci].col * z * tsize);
            }
            d_slots += stride * (d_entries - first);
        }
        d_table->layer_start[code.mb()] = uint16_t(d_entries);
        // rows that lack an entry read the sink (index n of their codeword's posteriors) there
        d_gstride = code.n() + (d_holes ? 8 : 0);
        for (int h = 0; h < d_holes; ++h)
            d_table->hole_entry[h] = hole_at[size_t(h)] - d_table->layer_start[d_table->hole_layer[h]];

        // messages in shared memory where a codeword's fit (the fastest for the IEEE codes),
        // else in global memory; GPUFEC_LDPC_MESSAGES=shared|global chooses (a tuning aid)
        const size_t optin = size_t(prop.sharedMemPerBlockOptin);
        // sub-layers (several circulants a block, Z > 512) and missing entries: the general kernel,
        // whose messages are in global memory; the rest keeps the one-sub-layer kernel
        bool strided = d_holes > 0;
        for (int l = 0; l < code.mb(); ++l)
            strided |= code.row_stride(l) != 1;
        d_global = false;
        d_global = strided || smem(1) > optin;
        if (const char* where = std::getenv("GPUFEC_LDPC_MESSAGES")) {
            const std::string w = where;
            if (w != "shared" && w != "global")
                throw std::invalid_argument("GPUFEC_LDPC_MESSAGES: '" + w + "' is not valid (shared, global)");
            d_global = w == "global" || strided;
        }
        d_kernel = pick_kernel(d_int8, code.max_row_degree(), d_global, d_holes > 0);
        if (smem(1) > optin)
            throw std::invalid_argument("the code is too long for the GPU's shared memory (" +
                                        std::to_string(smem(1)) + " bytes a codeword, " + std::to_string(optin) +
                                        " a block)");

        // codewords per block C: the most codewords resident per SM, weighted by the share of
        // each block's threads that do work (C * R of a whole number of warps); ties go to the
        // smaller block (its per-layer synchronisation is cheaper). Measured on the H100 for
        // Z = 81 (802.11n 1944): C = 3 8.9 Gb/s, C = 5 (fewest idle threads) 7.8, C = 1 8.2.
        const size_t smem_limit = std::min<size_t>(optin, 100 << 10);
        allow_dynamic_shared(d_kernel, smem(1), "LDPC GPU decoder");
        // all of the unified L1 / shared memory as shared memory: the kernel reads global
        // memory once per codeword and needs no L1
        if (!d_global)
            GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(d_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                   int(cudaSharedmemCarveoutMaxShared)));
        int best = 1;
        double best_score = -1.0;
        for (int c = 1; c * d_rows <= 512; ++c) {
            if (smem(c) > smem_limit && c > 1)
                break;
            const int t = c * d_rows, padded = (t + 31) / 32 * 32;
            int per_sm = 0;
            GPUFEC_CUDA_CHECK(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d_kernel, padded, smem(c)));
            const double score = double(per_sm) * c * t / padded;
            if (score > best_score + 1e-9) {
                best_score = score;
                best = c;
            }
        }
        d_c = best;
        // tuning aid: GPUFEC_LDPC_CW_PER_BLOCK=C forces the codewords per block
        if (const char* force = std::getenv("GPUFEC_LDPC_CW_PER_BLOCK")) {
            const int c = std::atoi(force);
            if (c < 1 || c * d_rows > 512)
                throw std::invalid_argument("GPUFEC_LDPC_CW_PER_BLOCK: " + std::string(force) +
                                            " is not valid (1 .. 512 / rows of a sub-layer)");
            d_c = c;
        }
        if (smem(d_c) > optin)
            throw std::invalid_argument("the code is too long for the GPU's shared memory");
        allow_dynamic_shared(d_kernel, smem(d_c), "LDPC GPU decoder");
        d_threads = (d_c * d_rows + 31) / 32 * 32;
        const int bytes = int(smem(d_c));
        int per_sm = 0;
        GPUFEC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d_kernel, d_threads, bytes));
        d_per_sm = std::max(1, per_sm);
        d_resident = d_per_sm * d_sms;
        // half a wave of resident blocks per chunk: the next chunk's copy overlaps this one's
        // kernel, and the kernels of neighbouring chunks fill each other's tails. Measured on
        // the H100 (10 iterations, host to host, Gb/s): 802.11n 1944, 16384 codewords: half a
        // wave 12.24, a wave 11.89, a third 11.60; 4096 codewords: 9.60, 8.85, 9.60. 802.16e
        // 2304, 16384: 14.20, 13.75, 13.58; 4096: 11.15, 10.00, 11.33
        const size_t half_wave = std::max<size_t>(size_t(d_resident) / 2, 1) * size_t(d_c);
        d_per_chunk = d_opts.max_batch > 0 ? size_t(d_opts.max_batch) : half_wave;
        d_in_stride = size_t(code.n());
        // ports: in 0 channel values; out 0 packed hard bits, out 1 results, out 2 posteriors
        // (made on the first batch that asks for them); scratch 0 the block queue. Every
        // buffer is sized for a full chunk, once.
        const size_t n = size_t(code.n()), cw = d_per_chunk;
        pipeline_layout l;
        l.in = { cw * n };
        l.out = { cw * ((n + 7) / 8), cw * sizeof(frame_status) };
        // scratch 1: the messages of every resident block, where they are in global memory
        l.scratch = { sizeof(int), d_global ? size_t(d_resident) * d_threads * size_t(msg_slots()) * (d_int8 ? 1 : 2) : 0 };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
    }

    bool on_gpu() const override { return true; }

    //! the sent values are put in place as the kernel loads them: runs of copies and fills
    bool take_input_order(const std::vector<input_run>& runs, size_t engine_values, size_t frame_values) override
    {
        if (engine_values != size_t(d_code.n()) || runs.size() > size_t(max_input_runs))
            return false; // (a scattered pattern: the decoder's CPU pass places it)
        for (size_t r = 0; r < runs.size(); ++r) {
            d_table->run_at[r] = int(runs[r].at);
            d_table->run_len[r] = int(runs[r].length);
            d_table->run_from[r] = runs[r].from;
        }
        d_runs = int(runs.size());
        d_in_stride = frame_values;
        return true;
    }

    std::string name() const override
    {
        return d_name + " layered " + (d_int8 ? "int8" : "int16") + ", " + std::to_string(d_c) +
               " cw/block, " + std::to_string(d_per_sm) + " blocks/SM" + (d_global ? ", messages in global memory" : "");
    }

    void decode(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                float* post) override
    {
        if (frames == 0)
            return;
        device_guard guard(d_device);
        const size_t n = size_t(d_code.n()), in = d_in_stride, nbytes = (size_t(out_bits) + 7) / 8;
        const size_t per_chunk = d_per_chunk;
        const int64_t nchunks = int64_t((frames + per_chunk - 1) / per_chunk);
        const bool want_post = post != nullptr;
        if (want_post && d_pipe->layout().out.size() < 3)
            d_pipe->grow({ {}, { 0, 0, per_chunk * n * sizeof(float) }, {} });
        std::vector<gpu_params>& params = d_params; // (kept: no allocation per batch)
        params.resize(static_cast<size_t>(nchunks));
        d_pipe->run(
            nchunks,
            [&](int64_t c) {
                const size_t a = size_t(c) * per_chunk, b = std::min(frames, a + per_chunk);
                params[size_t(c)] = base_params(int(b - a), out_bits, want_post);
                chunk_io io;
                io.in[0] = soft + a * in;
                io.in_bytes[0] = (b - a) * in;
                io.out[0] = packed + a * nbytes;
                io.out_bytes[0] = (b - a) * nbytes;
                io.out[1] = res + a;
                io.out_bytes[1] = (b - a) * sizeof(frame_status);
                if (want_post) {
                    io.out[2] = post + a * n;
                    io.out_bytes[2] = (b - a) * n * sizeof(float);
                }
                return io;
            },
            [&](int64_t c, const slot_view& v) {
                launch(params[size_t(c)], v.input<const int8_t>(0), v.output<uint8_t>(0),
                       v.output<frame_status>(1), v.output<float>(2), v.scratch_as<void>(1), v.scratch_as<int>(0),
                       v.stream);
            });
    }

    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        device_guard guard(d_device);
        const gpu_params g = base_params(int(frames), d_code.k(), false);
        device_buffer<int8_t> in(frames * d_in_stride);
        device_buffer<uint8_t> out(frames * size_t(g.nbytes));
        device_buffer<frame_status> results(frames);
        device_buffer<int> queue(1);
        device_buffer<int8_t> msgs(d_global ? size_t(d_resident) * d_threads * size_t(msg_slots()) * (d_int8 ? 1 : 2) : 1);
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(in.get(), soft, frames * d_in_stride, cudaMemcpyHostToDevice, st.get()));
        return time_on_stream(st.get(), reps,
                              [&] { launch(g, in.get(), out.get(), results.get(), nullptr, msgs.get(), queue.get(), st.get()); });
    }

private:
    size_t smem(int c) const
    {
        return d_int8 ? smem_bytes<int16_t, int8_t>(d_gstride, d_rows, d_slots, c, d_global)
                      : smem_bytes<int32_t, int16_t>(d_gstride, d_rows, d_slots, c, d_global);
    }

    //! S: a thread's message slots (shared memory: padded so that S * sizeof(M) / 4 is odd)
    int msg_slots() const
    {
        if (d_global)
            return d_slots;
        return d_int8 ? msg_stride<int8_t>(d_slots) : msg_stride<int16_t>(d_slots);
    }

    gpu_params base_params(int frames, int out_bits, bool want_post) const
    {
        gpu_params g{};
        g.n = d_code.n();
        g.gstride = d_gstride;
        g.in_stride = int(d_in_stride);
        g.runs = d_runs;
        g.z = d_code.z();
        g.mb = d_code.mb();
        g.rows = d_rows;
        g.holes = d_holes;
        g.global_msgs = d_global;
        g.cw_per_block = d_c;
        g.msg_stride = msg_slots();
        g.frames = frames;
        g.groups = (frames + d_c - 1) / d_c;
        g.max_iter = d_opts.max_iterations;
        g.early_termination = d_opts.early_termination;
        g.want_post = want_post;
        g.fx.mmax = d_int8 ? 127 : 32767;
        g.fx.norm16 = ldpc_norm16(d_code, d_opts);
        g.fx.offset = int(std::lround(d_opts.offset));
        g.out_bits = out_bits;
        g.nbytes = (out_bits + 7) / 8;
        return g;
    }

    void launch(const gpu_params& g, const int8_t* in, uint8_t* out, frame_status* results, float* post,
                void* msgs, int* queue, cudaStream_t st) const
    {
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(queue, 0, sizeof(int), st));
        const unsigned grid = unsigned(std::min(g.groups, d_resident));
        const size_t bytes = smem(d_c);
        d_kernel<<<grid, d_threads, bytes, st>>>(g, *d_table, in, out, results, post, msgs, queue);
        GPUFEC_CUDA_CHECK_LAUNCH("ldpc_layered_kernel");
    }

    ldpc_code d_code;
    ldpc_options d_opts;
    int d_device;
    std::string d_name;
    int d_sms = 1, d_entries = 0, d_c = 1, d_threads = 32, d_resident = 1, d_per_sm = 1;
    int d_slots = 0; // message slots a thread (stride x degree, summed over the layers)
    int d_rows = 0;  // R: threads a codeword, the most rows of a sub-layer
    int d_holes = 0; // missing entries in the table
    int d_gstride = 0; // posteriors a codeword in shared memory (n, + the sink where holes)
    bool d_global = false; // messages in global memory
    bool d_int8 = false;
    kernel_fn d_kernel = nullptr;
    std::unique_ptr<gpu_table> d_table; // passed by value at each launch
    size_t d_per_chunk = 1;
    size_t d_in_stride = 0; // soft values a codeword in the input (n unless take_input_order)
    int d_runs = 0;
    std::unique_ptr<batch_pipeline> d_pipe;
    std::vector<gpu_params> d_params; // per chunk of the batch being run
};

} // namespace

std::unique_ptr<ldpc_engine> make_ldpc_cuda(const ldpc_code& code, const ldpc_options& o, int device)
{
    return std::make_unique<cuda_engine>(code, o, device);
}

} // namespace gpufec
