/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The compact layered kernel: the layered kernel of ldpc_cuda_layered.cuh (int8 messages, int16
 * posteriors, one lane a row) for codes with pendant bits, in fewer bytes of shared memory a
 * codeword, so that an SM holds more codewords (5G NR BG1 with Z = 384: two instead of one).
 *
 *  - Pendant bits (5G NR's extension parity bits: trailing block columns of one circulant each,
 *    at most one of them a layer, the layer's last entry in the table) are in one check only, so
 *    their rho there is always their channel value (gamma - message = channel + message -
 *    message): neither their messages nor their posteriors are kept in shared memory. Their
 *    channel values wait in global memory, loaded a layer ahead; their posteriors are written
 *    beside them in the iterations whose syndrome or output may read them.
 *  - A row of more than 8 kept entries keeps its messages packed in two words instead of a byte
 *    each: word 0 the two signed normalised magnitudes n1, n2 (row_messages) and the index of
 *    the first entry whose |rho| is min1 (63: none), word 1 the sign of each rho. Message j is
 *    then (j == index ? n2 : n1), negated where rho_j < 0: what row_messages gave it.
 *
 * Both are exact: the same bits, iterations and syndromes as every other engine.
 *
 * Mapping as in the layered kernel: thread w of codeword `local` owns row w of every layer.
 * Shared memory: the kept posteriors (int16, C * kept), a thread's message row of S bytes (S / 4
 * odd: conflict-free; its layers' messages from the byte layer_word::msg_at() on, packed rows
 * word-aligned), flags, the layer words. Global memory (gpu_params::pend): per resident block
 * and codeword, the pendant bits' channel values then their posteriors, int16, bit
 * kept + (c - first pendant column) * Z + i at [(c - first) * Z + i]. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_COMPACT_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_COMPACT_CUH

#include "ldpc_cuda_layered.cuh"

namespace gpufec {
namespace {

constexpr int compact_threads = 384;   // the most threads a block (launch bounds)
constexpr int compact_packed_from = 9; // rows of this many kept entries or more keep them packed
constexpr unsigned compact_no_index = 63u;

/*! One check row of the compact kernel with D < compact_packed_from kept entries, a message
 *  byte each at lrow, and where `pend` the pendant bit of channel value ch after them (its rho;
 *  absent_entry where the layer has none: neither a minimum nor a sign). Returns the pendant's
 *  new posterior (where `pend`). */
template <int D>
__device__ __forceinline__ int short_row(unsigned char* gcw, int8_t* lrow, const int2* ent, unsigned rb,
                                         unsigned rbz, const ldpc_fixed& fx, bool pend, int ch)
{
    using T = int16_t;
    unsigned off[D];
    int rho[D];
    row_minima r;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        off[i] = bit_offset<T>(ent[i], rb, rbz);
        rho[i] = int(*reinterpret_cast<const T*>(gcw + off[i])) - int(lrow[i]);
        r.add(rho[i]);
    }
    r.add(pend ? ch : absent_entry);
    const row_messages message(r, fx);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int msg = message(rho[i]);
        lrow[i] = int8_t(msg);
        *reinterpret_cast<T*>(gcw + off[i]) = T(rho[i] + msg);
    }
    return pend ? ch + message(ch) : 0;
}

/*! short_row for D >= compact_packed_from kept entries, their messages packed in the two words
 *  at lrow. Under the registers of two blocks an SM a row of 19 entries would spill, so pass 1
 *  keeps rho in int16 pairs (|rho| stays below 2^15: ldpc_common.h's posterior bound) and the
 *  signs as it goes, and pass 2 works the bit offsets out again. */
template <int D>
__device__ __forceinline__ int packed_row(unsigned char* gcw, int8_t* lrow, const int2* ent, unsigned rb,
                                          unsigned rbz, const ldpc_fixed& fx, bool pend, int ch)
{
    using T = int16_t;
    uint32_t* words = reinterpret_cast<uint32_t*>(lrow);
    const uint32_t w0 = words[0], old_signs = words[1];
    const int n1 = int(int8_t(w0 & 0xffu)), n2 = int(int8_t((w0 >> 8) & 0xffu));
    const int index = int(w0 >> 16);
    uint32_t pairs[(D + 1) / 2];
    uint32_t signs = 0;
    row_minima r;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int m = i == index ? n2 : n1;
        const int old = (old_signs >> i) & 1u ? -m : m;
        const int rho = int(*reinterpret_cast<const T*>(gcw + bit_offset<T>(ent[i], rb, rbz))) - old;
        r.add(rho);
        signs |= uint32_t(rho < 0) << i;
        if (i % 2 == 0)
            pairs[i / 2] = uint32_t(rho) & 0xffffu;
        else
            pairs[i / 2] |= uint32_t(rho) << 16;
    }
    r.add(pend ? ch : absent_entry);
    const row_messages message(r, fx);
    unsigned first = compact_no_index;
#pragma unroll
    for (int i = D - 1; i >= 0; --i) {
        const int rho = i % 2 == 0 ? int(int16_t(pairs[i / 2] & 0xffffu)) : int(pairs[i / 2]) >> 16;
        *reinterpret_cast<T*>(gcw + bit_offset<T>(ent[i], rb, rbz)) = T(rho + message(rho));
        first = abs(rho) == message.min1 ? unsigned(i) : first;
    }
    const int m1 = message.n2 + message.step;
    words[0] = uint32_t(uint8_t(m1)) | uint32_t(uint8_t(message.n2)) << 8 | uint32_t(first) << 16;
    words[1] = signs;
    return pend ? ch + message(ch) : 0;
}

//! the row update of the compact kernel for D kept entries
template <int D>
__device__ __forceinline__ int compact_row(unsigned char* gcw, int8_t* lrow, const int2* ent, unsigned rb,
                                           unsigned rbz, const ldpc_fixed& fx, bool pend, int ch)
{
    if constexpr (D >= compact_packed_from)
        return packed_row<D>(gcw, lrow, ent, rb, rbz, fx, pend, ch);
    else
        return short_row<D>(gcw, lrow, ent, rb, rbz, fx, pend, ch);
}

/*! Parity of one row of the compact kernel (negative where odd): its kept entries' posteriors
 *  and, where it has one, its pendant's sign (`pend_sign`) */
template <int D>
__device__ __forceinline__ bool compact_row_bad(unsigned char* gcw, const int2* ent, unsigned rb, unsigned rbz,
                                                bool pend, bool pend_sign)
{
    return (row_parity<int16_t, D, 1>(gcw, ent, D, 0, rb, rbz) < 0) != (pend && pend_sign);
}

template <int MAXD>
__global__ void __launch_bounds__(compact_threads, 2)
    ldpc_compact_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                        uint8_t* __restrict__ out, frame_status* __restrict__ results,
                        float* __restrict__ posteriors, int* __restrict__ queue)
{
    using T = int16_t;
    extern __shared__ __align__(16) unsigned char smem[];
    const int C = p.cw_per_block, z = p.z, kept = p.kept, S = p.msg_stride;
    const int pendants = p.n - kept; // pendant bits a codeword
    unsigned char* cursor = smem;
    T* s_gamma = reinterpret_cast<T*>(cursor);
    cursor += align16(size_t(C) * kept * sizeof(T));
    int8_t* s_msg = reinterpret_cast<int8_t*>(cursor); // thread t's messages: s_msg[t * S ..]
    cursor += align16(size_t(C) * z * S);
    int* s_bad = reinterpret_cast<int*>(cursor);
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;
    cursor += align16(size_t(C) * 4 * 4);
    uint32_t* s_layer = reinterpret_cast<uint32_t*>(cursor);
    copy_layer_words(tab.layer, s_layer, p.mb);

    const int local = threadIdx.x / z, row = threadIdx.x - local * z;
    const bool lane_used = local < C;
    T* gamma = s_gamma + (lane_used ? local : 0) * kept;
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    const unsigned rb = unsigned(row) * sizeof(T), rbz = rb - unsigned(z) * sizeof(T);
    int8_t* mrow = s_msg + (lane_used ? size_t(threadIdx.x) * S : 0);
    // this codeword's pendant values from p.pend: its channel values, then its posteriors (bytes;
    // few registers are live across the layer loop, so that two blocks an SM do not spill)
    const unsigned pend_cw = unsigned((blockIdx.x * C + (lane_used ? local : 0)) * 2 * pendants) * sizeof(T);
    // where in them a layer's pendant bit of this thread's row is (the layer's last entry)
    auto pendant_at = [&](layer_word w) {
        return pend_cw + bit_offset<T>(tab.entry[w.first() + w.entries() - 1], rb, rbz) - unsigned(p.kept) * sizeof(T);
    };
    auto pend_value = [&](unsigned at) -> T& { return *reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(p.pend) + at); };
    const unsigned post_at = unsigned(pendants) * sizeof(T); // the posteriors after the channel values

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw = group * C + local;
        const bool active = lane_used && cw < p.frames;
        begin_group<1, T>(p, tab, soft, s_gamma, kept, group, s_msg, align16(size_t(C) * z * S), s_done, s_iters,
                          0u, p.pend + size_t(blockIdx.x) * C * 2 * pendants, kept, 2 * pendants);

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[local];
            // the pendant posteriors are written where the syndrome or the output may read them
            const bool last = p.early_termination || it == p.max_iter;
            uint32_t next = s_layer[0];
            int ch_next = 0;
            if (work && layer_word{ next }.pendant())
                ch_next = pend_value(pendant_at(layer_word{ next }));
            for (int l = 0; l < p.mb; ++l) {
                const layer_word lw{ next };
                next = s_layer[l + 1];
                const int ch = ch_next;
                // the next layer's pendant channel value, loaded a layer ahead (after the last
                // layer, the first one's: the next iteration)
                const layer_word nw{ l + 1 < p.mb ? next : s_layer[0] };
                if (work && nw.pendant())
                    ch_next = pend_value(pendant_at(nw));
                const bool pend = lw.pendant();
                if (work) {
                    const int e0 = lw.first(), d = lw.entries() - int(pend);
                    int g = 0;
                    with_degree<MAXD>(d, [&](auto deg) {
                        g = compact_row<decltype(deg)::value>(gcw, mrow + lw.msg_at(), tab.entry + e0, rb, rbz, p.fx,
                                                              pend, ch);
                    });
                    if (pend && last)
                        pend_value(pendant_at(lw) + post_at) = T(g);
                }
                if (!lw.free_next())
                    __syncthreads();
            }
            all_done = end_iteration(p, it, work, active, lane_used, row == 0, local, s_bad, s_done, s_iters, [&] {
                bool bad = false;
                for (int l = 0; l < p.mb && !bad; ++l) {
                    const layer_word lw{ s_layer[l] };
                    const bool pend = lw.pendant();
                    const bool sign = pend && pend_value(pendant_at(lw) + post_at) < 0;
                    with_degree<MAXD>(lw.entries() - int(pend), [&](auto deg) {
                        bad = compact_row_bad<decltype(deg)::value>(gcw, tab.entry + lw.first(), rb, rbz, pend, sign);
                    });
                }
                return bad;
            });
        }
        __syncthreads();

        if (active) {
            const T* post = p.pend + size_t(blockIdx.x * C + local) * 2 * pendants + pendants;
            write_results_by(
                p, [&](int v) { return v < kept ? gamma[v] : post[v - kept]; }, cw, row, z, s_iters[local],
                s_bad[local] != 0, out, results, posteriors);
        }
    }
}

//! the compact kernel for rows of up to max_degree kept entries (null beyond 32)
inline kernel_fn compact_kernel_for(int max_degree)
{
    return max_degree <= 8    ? ldpc_compact_kernel<8>
           : max_degree <= 16 ? ldpc_compact_kernel<16>
           : max_degree <= 24 ? ldpc_compact_kernel<24>
           : max_degree <= 32 ? ldpc_compact_kernel<32>
                              : nullptr;
}

} // namespace
} // namespace gpufec

#endif
