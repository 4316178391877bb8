/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The general CUDA layered min-sum kernel: quasi-cyclic codes whose layers are taken as
 * sub-layers (several circulants a block, Z > 512: ldpc_code::row_stride), rows that lack an
 * entry (DVB-S2's corner), and codewords whose messages do not fit shared memory (DVB-S2, 5G
 * NR at Z = 384 in int16). Same arithmetic and bits as every LDPC engine (ldpc_common.h).
 *
 * Parallel mapping: a codeword has TR * R threads, R = the most rows of a sub-layer; row u of
 * a codeword is row c + p u of sub-layer c of every layer of p sub-layers (the rows of a
 * sub-layer touch distinct bits), so a sub-layer is one parallel step, followed by a barrier
 * where the next touches bits of the steps since the last (layer_word); TR adjacent lanes share
 * a row, lane q holding its entries q, q + TR, ... (layered_row: more threads where a sub-layer
 * has few rows, as C2's seven). A block decodes C codewords
 * (C * TR * R threads) and takes groups of C from the queue.
 *
 * Memory: posteriors in shared memory, each codeword's followed by a sink (hole_of); messages
 * in global memory, a thread's row of a sub-layer one packed piece (packed_row_words: 8, 16 or
 * 32 bytes, the pieces of a block's threads side by side, a thread's in layer and sub-layer
 * order), or (rows as loops, or !PACK) slot i of every thread side by side (a warp's 32
 * messages of one edge in one 32-byte sector); or (SHARED
 * kernels, where they fit: AR4JA k = 16384, the telecommand codes) in shared memory as the
 * layered kernel keeps them, a thread's slots in a row of S (S / 4 odd: conflict-free). A row is
 * updated in a loop that reads its bits and messages again in the second pass rather than
 * holding them: few registers whatever the degree (DVB-S2's rows reach 30 bits, C2's 32), so
 * that more codewords share an SM. Included by ldpc_cuda.cu only. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_GENERAL_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_GENERAL_CUH

#include "ldpc_cuda_layered.cuh"

namespace gpufec {
namespace {

//! gpu_table (ldpc_cuda_layered.cuh) and the sub-layers and missing entries
struct general_table {
    int2 entry[max_table_entries];              // as gpu_table's: several may share a column
    uint16_t layer_start[max_table_layers + 1]; // layer l: entries layer_start[l] .. [l + 1]
    // row hole_row[h] of layer hole_layer[h] lacks its entry hole_entry[h] (from the layer's
    // first): it reads the codeword's sink there (hole_of)
    int hole_layer[max_table_holes], hole_row[max_table_holes], hole_entry[max_table_holes];
    int run_at[max_input_runs], run_len[max_input_runs], run_from[max_input_runs]; // as gpu_table's
    uint32_t layer[max_table_layers + 1]; // as gpu_table's, with each layer's sub-layers
};

struct general_params {
    gpu_params base;  // (msg_stride: a thread's message slots, in global memory)
    int rows;         // R: the most rows of a sub-layer (a codeword has TR * R threads)
    int holes;        // entries of the table's hole lists in use
    int gstride;      // posteriors a codeword in shared memory: n, and the sink where holes
};

/* A missing entry (hole_of, ldpc_cuda_layered.cuh): the row reads the codeword's sink there
 * instead of a bit, a value beyond any posterior (hole_sink), whose magnitude is never a minimum
 * and whose sign is positive, so the row updates as if it had no such entry, as the CPU engines
 * do; what is written back there stays within a message of it. */

//! the sink's value: beyond |rho| of any real bit (127 + 33 mmax, ldpc_common.h) by more than a
//! message, and normalised it is still at least mmax
template <typename T>
__host__ __device__ constexpr int hole_sink()
{
    return sizeof(T) == 2 ? 16384 : (1 << 22);
}

/*! Words of 32 bits that hold a lane's MAXD messages (M) of one row, where the general kernel
 *  can keep its global messages packed (8, 16 or 32 bytes: one or two vector loads and stores a
 *  row instead of one of each a message, and a row's words read a whole step ahead); 0 where it
 *  keeps them one to a slot only (longer rows, the loop form). */
template <typename M>
__host__ __device__ constexpr int packed_row_words(int maxd)
{
    const int bytes = maxd * int(sizeof(M));
    return maxd > 0 && (bytes == 8 || bytes == 16 || bytes == 32) ? bytes / 4 : 0;
}

//! the vector a packed row is loaded and stored in: W words as one uint2 or uint4, or as W / 4
//! uint4 (planes)
template <int W>
using packed_vector = std::conditional_t<W == 2, uint2, uint4>;
template <int W>
constexpr int packed_planes = W <= 4 ? 1 : W / 4;

/*! A lane's messages of one row packed in W words, message i in byte (int8) or half (int16) i:
 *  read from `in`, the row's new ones written to `out` (layered_row_of, general_row). */
template <typename M, int W>
struct packed_messages {
    static constexpr int per_word = 4 / int(sizeof(M));
    const uint32_t (&in)[W];
    uint32_t out[W];
    __device__ __forceinline__ explicit packed_messages(const uint32_t (&words)[W]) : in(words)
    {
#pragma unroll
        for (int i = 0; i < W; ++i)
            out[i] = 0u;
    }
    //! (one byte permute: the message's bytes, its sign copied over the rest, rather than a
    //! shift and a sign extension)
    __device__ __forceinline__ int get(int i) const
    {
        const unsigned at = unsigned(i % per_word);
        const unsigned sel = sizeof(M) == 1 ? 0x8880u + 0x1111u * at : 0x9910u + 0x2222u * at;
        return int(prmt(in[i / per_word], 0u, sel));
    }
    __device__ __forceinline__ void set(int i, int v)
    {
        // (byte_perm: the word's own bytes 0..3, those of message i taken from v's low ones, 4 and 5)
        const int at = i % per_word;
        const unsigned sel = sizeof(M) == 1 ? (0x3210u & ~(0xfu << 4 * at)) | (0x4u << 4 * at)
                                            : (0x3210u & ~(0xffu << 8 * at)) | (0x54u << 8 * at);
        uint32_t& o = out[i / per_word];
        o = __byte_perm(o, uint32_t(v), sel);
    }
};

//! a packed row's W words from its planes (plane j at at[j * stride])
template <int W>
__device__ __forceinline__ void load_packed(const packed_vector<W>* at, size_t stride, uint32_t (&w)[W])
{
#pragma unroll
    for (int j = 0; j < packed_planes<W>; ++j) {
        const packed_vector<W> v = at[j * stride];
        if constexpr (W == 2) {
            w[0] = v.x, w[1] = v.y;
        } else {
            w[4 * j] = v.x, w[4 * j + 1] = v.y, w[4 * j + 2] = v.z, w[4 * j + 3] = v.w;
        }
    }
}

template <int W>
__device__ __forceinline__ void store_packed(packed_vector<W>* at, size_t stride, const uint32_t (&w)[W])
{
#pragma unroll
    for (int j = 0; j < packed_planes<W>; ++j) {
        packed_vector<W> v;
        if constexpr (W == 2) {
            v.x = w[0], v.y = w[1];
        } else {
            v.x = w[4 * j], v.y = w[4 * j + 1], v.z = w[4 * j + 2], v.w = w[4 * j + 3];
        }
        at[j * stride] = v;
    }
}

//! dynamic shared memory of one general block: C codewords' posteriors (and sinks), flags,
//! and (SHARED kernels) the S message slots (M) of each of its `threads` threads
template <typename T, typename M>
__host__ __device__ inline size_t general_smem_bytes(int gstride, int C, int threads = 0, int S = 0)
{
    return align16(size_t(C) * gstride * sizeof(T)) + align16(size_t(C) * 4 * 4) +
           align16(size_t(threads) * S * sizeof(M));
}

/*! The layered min-sum update of one row of d entries (ldpc_common.h), one lane a row:
 *  lrow[j * ms] is its message j, ent[j] the table entry of its bit j; HOLES: entry `skip`
 *  reads `sink`. */
template <typename T, typename M, bool HOLES>
__device__ __forceinline__ void layered_row_loop(unsigned char* gcw, M* lrow, int ms, const int2* ent, int d,
                                                 unsigned rb, unsigned rbz, const ldpc_fixed& fx, int skip, T* sink)
{
    row_minima r;
    for (int j = 0; j < d; ++j) {
        T* at = bit_of<T>(gcw, ent[j], rb, rbz);
        if constexpr (HOLES)
            at = j == skip ? sink : at;
        r.add(int(*at) - int(lrow[j * ms]));
    }
    const row_messages<sizeof(T) == 2> message(r, fx);
    for (int j = 0; j < d; ++j) { // (this thread alone touches these bits in this sub-layer)
        T* at = bit_of<T>(gcw, ent[j], rb, rbz);
        if constexpr (HOLES)
            at = j == skip ? sink : at;
        const int rho = int(*at) - int(lrow[j * ms]);
        const int msg = message(rho);
        lrow[j * ms] = M(msg);
        *at = T(rho + msg);
    }
}

/*! One row of a sub-layer (r: its row in the layer) whose messages `msgs` holds (strided_messages,
 *  or packed_messages where the kernel packs them): the loop form (MAXD 0, strided only) or
 *  unrolled by the lane's entries dq (layered_row_of), looking for a missing entry only in
 *  `holed` layers (two instructions an entry). */
template <typename T, int MAXD, bool HOLES, int TR, class Messages>
__device__ __forceinline__ void general_row(const general_params& gp, const general_table& tab, unsigned char* gcw,
                                            Messages& msgs, int l, int r, int e0, int d, int dq, int q, bool holed,
                                            unsigned zbytes, T* sink)
{
    const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - zbytes; // bit_of
    const ldpc_fixed& fx = gp.base.fx;
    if constexpr (MAXD == 0)
        layered_row_loop<T, std::remove_pointer_t<decltype(msgs.p)>, HOLES>(
            gcw, msgs.p, msgs.ms, tab.entry + e0, d, rb, rbz, fx, HOLES ? hole_of(tab, gp.holes, l, r) : -1, sink);
    else if (holed)
        with_degree<MAXD>(dq, [&](auto deg) { // (held in registers)
            layered_row_of<T, decltype(deg)::value, TR, true>(gcw, msgs, tab.entry + e0, d, q, rb, rbz, fx,
                                                              hole_of(tab, gp.holes, l, r), sink);
        });
    else
        with_degree<MAXD>(dq, [&](auto deg) {
            layered_row_of<T, decltype(deg)::value, TR>(gcw, msgs, tab.entry + e0, d, q, rb, rbz, fx);
        });
}

/*! Two rows of one lane each (k = 0, 1: rows of sub-layers that share no bits, so one after the
 *  other or interleaved gives the same bits), updated together: one thread then has twice the
 *  independent loads and arithmetic in flight. The arithmetic of layered_row (row_minima,
 *  row_messages). */
template <typename T, typename M, int D>
__device__ __forceinline__ void layered_row_pair(unsigned char* gcw, M* const (&lrow)[2], const int2* ent,
                                                 const unsigned (&rb)[2], const unsigned (&rbz)[2],
                                                 const ldpc_fixed& fx, int ms)
{
    unsigned off[2][D];
    int rho[2][D];
    row_minima r[2];
#pragma unroll
    for (int i = 0; i < D; ++i) {
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            off[k][i] = bit_offset<T>(ent[i], rb[k], rbz[k]);
            rho[k][i] = int(*reinterpret_cast<const T*>(gcw + off[k][i])) - int(lrow[k][i * ms]);
            r[k].add(rho[k][i]);
        }
    }
    using messages = row_messages<sizeof(T) == 2>;
    const messages message[2] = { messages(r[0], fx), messages(r[1], fx) };
#pragma unroll
    for (int i = 0; i < D; ++i) {
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int msg = message[k](rho[k][i]);
            lrow[k][i * ms] = M(msg);
            *reinterpret_cast<T*>(gcw + off[k][i]) = T(rho[k][i] + msg);
        }
    }
}

/* MAXD = 0: rows as loops (layered_row_loop, TR 1 only: 3 blocks of 512 threads an SM); else
 * a lane's entries unrolled up to MAXD and held in registers (layered_row of
 * ldpc_cuda_layered.cuh: faster where registers do not limit the codewords an SM holds;
 * DVB-S2's 64800 bits fill shared memory with one codeword anyway). */
template <int TR, int MAXD, bool WIDE>
struct general_bounds {
    static constexpr int threads = TR == 1 ? 512 : 1024;
    static constexpr int blocks = TR == 1 && !WIDE && (MAXD == 0 || MAXD <= 8) ? 3 : 1;
};

/* WIDE: registers as a block of 512 threads alone on an SM may have (where shared memory holds
 * one block an SM anyway: DVB-S2's 64800 bits), else few enough for three such blocks. SHARED:
 * the messages in shared memory. PACK: global messages packed where packed_row_words allows. */
template <typename T, typename M, int MAXD, bool HOLES, int TR, bool WIDE = false, bool SHARED = false,
          bool PACK = true>
__global__ void __launch_bounds__(general_bounds<TR, MAXD, WIDE>::threads, general_bounds<TR, MAXD, WIDE>::blocks)
    ldpc_general_kernel(general_params gp, const __grid_constant__ general_table tab,
                        const int8_t* __restrict__ soft,
                        uint8_t* __restrict__ out,          // packed hard bits
                        frame_status* __restrict__ results, // one per codeword
                        float* __restrict__ posteriors,     // n per codeword, where wanted
                        void* __restrict__ gmsg_v,          // the messages (M) of every resident block, unless SHARED
                        int* __restrict__ queue)
{
    static_assert(MAXD > 0 || TR == 1, "rows as loops take one lane a row");
    // two rows a step where a thread's registers allow: one lane a row of up to 8 entries, a block
    // with all the registers; not with missing entries (DVB-S2 16200 1/2 lost 4 % that way)
    constexpr bool PAIRS = SHARED && WIDE && !HOLES && TR == 1 && MAXD > 0 && MAXD <= 8;
    M* const gmsg = static_cast<M*>(gmsg_v);
    extern __shared__ __align__(16) unsigned char smem[];
    const gpu_params& p = gp.base;
    const int C = p.cw_per_block, z = p.z, n = p.n, S = p.msg_stride, R = gp.rows, cwt = TR * R;
    const int zbytes = z * int(sizeof(T));
    T* s_gamma = reinterpret_cast<T*>(smem);
    int* s_bad = reinterpret_cast<int*>(smem + align16(size_t(C) * gp.gstride * sizeof(T)));
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;
    M* const s_msg = reinterpret_cast<M*>(reinterpret_cast<unsigned char*>(s_bad) + align16(size_t(C) * 4 * 4));

    const int local = threadIdx.x / cwt;     // codeword within the block
    const int w = threadIdx.x - local * cwt; // the thread within its codeword
    const int u = w / TR, q = w - u * TR;    // its row in every sub-layer, its lane in the row
    const bool lane_used = local < C;
    T* gamma = s_gamma + (lane_used ? local * gp.gstride : 0);
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    T* const sink = gamma + n;
    // slot i of this thread: mrow[i * ms]
    const int ms = SHARED ? 1 : int(blockDim.x);
    M* const mrow = SHARED ? s_msg + size_t(threadIdx.x) * S : gmsg + size_t(blockIdx.x) * blockDim.x * S + threadIdx.x;
    // or (W > 0) a row's messages one packed row a sub-layer (packed_row_words: W words in P
    // planes of vectors), S / MAXD of them a thread: plane j of step k at
    // vrow[(k * P + j) * blockDim.x], a warp's 32 vectors side by side
    constexpr int W = SHARED || !PACK ? 0 : packed_row_words<M>(MAXD), P = packed_planes<W>;
    const int steps = W > 0 ? S / MAXD : 0;
    packed_vector<W>* const vrow =
        reinterpret_cast<packed_vector<W>*>(gmsg_v) + size_t(blockIdx.x) * blockDim.x * steps * P + threadIdx.x;
    const size_t vstride = size_t(blockDim.x) * P; // (a step's)

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw = group * C + local;
        const bool active = lane_used && cw < p.frames;

        // load: the codewords, their sinks, messages 0 (each thread its own slots)
        load_group<general_bounds<TR, MAXD, WIDE>::blocks == 1 ? 4 : 1>(p, tab, soft, s_gamma, gp.gstride, group);
        if (HOLES && threadIdx.x < C)
            s_gamma[threadIdx.x * gp.gstride + n] = T(hole_sink<T>());
        if constexpr (SHARED) {
            fill_shared(s_msg, align16(size_t(blockDim.x) * S * sizeof(M)));
        } else if constexpr (W > 0) {
            for (int k = 0; k < steps * P; ++k)
                vrow[size_t(k) * blockDim.x] = packed_vector<W>{};
        } else {
            for (int i = 0; i < S; ++i)
                mrow[size_t(i) * ms] = M(0);
        }
        start_group_flags(p, group, s_done, s_iters);
        __syncthreads();

        int it = 0;
        bool all_done = false;
        // W > 0: step k's row, read during the step before (its loads in flight across a row
        // and a barrier); `at`: where step k's vectors start (from vrow), k * vstride
        uint32_t cur[W > 0 ? W : 1] = {};
        const unsigned steps_end = unsigned(steps * vstride);
        unsigned at = 0;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[local];
            int slot = 0; // the thread's message slots of the layers before
            // (the layer words from the constant bank: read from shared memory, as the layered
            // kernel does, they cost this kernel 3 to 5 %: AR4JA k = 16384, DVB-S2, H200)
            uint32_t next = tab.layer[0];
            for (int l = 0; l < p.mb; ++l) {
                const layer_word lw{ next };
                next = tab.layer[l + 1];
                const int e0 = lw.first(), d = lw.entries(), stride = lw.stride();
                // (row c + stride u of a sub-layer exists where it is below z: stride divides z,
                // ldpc_code::row_stride. Rather than the rows z / stride a division at each layer's
                // start, whose latency stalled it: DVB-S2 64800 1/2 lost a tenth of its
                // instructions to it, AR4JA k = 16384 a tenth of its speed)
                const int dq = (d + TR - 1) / TR;
                // only the layers with a missing entry (DVB-S2: one) take the rows that look
                // for it, two instructions an entry
                const bool holed = HOLES && lw.holed();
                int c = 0;
                // sub-layers that share no bits (a layer without barriers inside) two at a time
                // (PAIRS: AR4JA k = 16384's layers of four sub-layers; H200, 10 iterations, host
                // to host: 9.25 -> 9.80 Gb/s, at 1.2 dB with early stop 3.50 -> 3.65)
                if constexpr (PAIRS) {
                    if (lw.free_inner() && !holed) {
                        for (; c + 1 < stride; c += 2) {
                            if (work && c + stride * u < z) {
                                M* const lrow[2] = { mrow + size_t(slot + c * dq) * ms,
                                                     mrow + size_t(slot + (c + 1) * dq) * ms };
                                const unsigned r0 = unsigned(c + stride * u) * sizeof(T);
                                const unsigned rb[2] = { r0, r0 + unsigned(sizeof(T)) };
                                const unsigned rbz[2] = { rb[0] - unsigned(zbytes), rb[1] - unsigned(zbytes) };
                                with_degree<MAXD>(dq, [&](auto deg) {
                                    layered_row_pair<T, M, decltype(deg)::value>(gcw, lrow, tab.entry + e0, rb, rbz,
                                                                                  p.fx, ms);
                                });
                            }
                            if (c + 2 == stride && !lw.free_next())
                                __syncthreads();
                        }
                    }
                }
                for (; c < stride; ++c) {
                    if constexpr (W > 0) {
                        // (the step after the last is the next iteration's first)
                        const unsigned after = at + unsigned(vstride);
                        const unsigned next_at = after == steps_end ? 0u : after;
                        uint32_t nw[W];
                        load_packed<W>(vrow + next_at, blockDim.x, nw);
                        if (work && c + stride * u < z) {
                            packed_messages<M, W> pm(cur);
                            general_row<T, MAXD, HOLES, TR>(gp, tab, gcw, pm, l, c + stride * u, e0, d, dq, q, holed,
                                                            unsigned(zbytes), sink);
                            store_packed<W>(vrow + at, blockDim.x, pm.out);
                            if (next_at == at) // (a code of one step: the load went before the store)
#pragma unroll
                                for (int j = 0; j < W; ++j)
                                    nw[j] = pm.out[j];
                        }
#pragma unroll
                        for (int j = 0; j < W; ++j)
                            cur[j] = nw[j];
                        at = next_at;
                    } else if (work && c + stride * u < z) {
                        strided_messages<M> sm{ mrow + size_t(slot + c * dq) * ms, ms };
                        general_row<T, MAXD, HOLES, TR>(gp, tab, gcw, sm, l, c + stride * u, e0, d, dq, q, holed,
                                                        unsigned(zbytes), sink);
                    }
                    if (c + 1 < stride ? !lw.free_inner() : !lw.free_next())
                        __syncthreads();
                }
                slot += stride * dq;
            }
            all_done = end_iteration(p, it, work, active, lane_used, w == 0, local, s_bad, s_done, s_iters, [&] {
                bool bad = false;
                for (int l = 0; l < p.mb && !bad; ++l) {
                    if (l % 4 == 3 && flagged_bad(s_bad, local))
                        break;
                    const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0;
                    for (int r = w; r < z && !bad; r += cwt) { // every row of the layer, a lane a row
                        const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - unsigned(zbytes);
                        const int skip = HOLES ? hole_of(tab, gp.holes, l, r) : -1;
                        int x = 0;
                        for (int j = 0; j < d; ++j)
                            x ^= j == skip ? 0 : int(*bit_of<T>(gcw, tab.entry[e0 + j], rb, rbz));
                        bad = x < 0;
                    }
                }
                return bad;
            });
        }
        __syncthreads();

        if (active)
            write_results(p, gamma, cw, w, cwt, s_iters[local], s_bad[local] != 0, out, results, posteriors);
    }
}

} // namespace
} // namespace gpufec

#endif
