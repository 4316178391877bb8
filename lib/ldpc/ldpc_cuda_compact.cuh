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
 *    channel values wait in global memory, loaded a layer ahead; a thread keeps the signs of
 *    its rows' pendant posteriors in a 64-bit word (the syndrome) and, where the output needs
 *    them, writes the posteriors beside the channel values.
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

/*! One check row of the compact kernel: its D kept entries (D >= compact_packed_from: messages
 *  packed at lrow, else a byte each) and, where `pend`, the pendant bit of channel value ch
 *  after them. Returns the pendant's new posterior (where `pend`). */
template <int D>
__device__ __forceinline__ int compact_row(unsigned char* gcw, int8_t* lrow, const int2* ent, unsigned rb,
                                           unsigned rbz, const ldpc_fixed& fx, bool pend, int ch)
{
    using T = int16_t;
    constexpr bool packed = D >= compact_packed_from;
    // bit offsets kept between the passes for short rows; long (packed) rows work them out again
    // in pass 2 (two instructions an entry) rather than spill under the two-blocks-an-SM registers
    constexpr int kept_off = packed ? 1 : D;
    unsigned off[kept_off];
    int rho[D];
    row_minima r;
    int n1 = 0, n2 = 0, index = 0;
    uint32_t signs = 0;
    if constexpr (packed) {
        const uint32_t w0 = reinterpret_cast<const uint32_t*>(lrow)[0];
        signs = reinterpret_cast<const uint32_t*>(lrow)[1];
        n1 = int(int8_t(w0 & 0xffu));
        n2 = int(int8_t((w0 >> 8) & 0xffu));
        index = int(w0 >> 16);
    }
    // pass 1: rho = gamma - old message; the pendant's rho is its channel value (absent_entry
    // where the layer has none: neither a minimum nor a sign)
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const unsigned o = bit_offset<T>(ent[i], rb, rbz);
        if constexpr (!packed)
            off[i] = o;
        int old;
        if constexpr (packed) {
            const int m = i == index ? n2 : n1;
            old = (signs >> i) & 1u ? -m : m;
        } else {
            old = lrow[i];
        }
        rho[i] = int(*reinterpret_cast<const T*>(gcw + o)) - old;
        r.add(rho[i]);
    }
    r.add(pend ? ch : absent_entry);
    // pass 2: new messages and posteriors
    const row_messages message(r, fx);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int msg = message(rho[i]);
        if constexpr (!packed)
            lrow[i] = int8_t(msg);
        const unsigned o = packed ? bit_offset<T>(ent[i], rb, rbz) : off[packed ? 0 : i];
        *reinterpret_cast<T*>(gcw + o) = T(rho[i] + msg);
    }
    if constexpr (packed) {
        uint32_t s = 0;
        unsigned first = compact_no_index;
#pragma unroll
        for (int i = D - 1; i >= 0; --i) {
            s |= uint32_t(rho[i] < 0) << i;
            first = abs(rho[i]) == message.min1 ? unsigned(i) : first;
        }
        const int m1 = message.n2 + message.step;
        reinterpret_cast<uint32_t*>(lrow)[0] =
            uint32_t(uint8_t(m1)) | uint32_t(uint8_t(message.n2)) << 8 | uint32_t(first) << 16;
        reinterpret_cast<uint32_t*>(lrow)[1] = s;
    }
    return pend ? ch + message(ch) : 0;
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
    const int pendants = p.n - kept;                         // pendant bits a codeword
    const unsigned kept_bytes = unsigned(kept) * sizeof(T); // where pendant offsets start
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
    // this block's pendant values: codeword c's channel values, then its posteriors
    T* pend_block = p.pend + size_t(blockIdx.x) * C * 2 * pendants;
    T* pend_ch = pend_block + size_t(lane_used ? local : 0) * 2 * pendants;
    unsigned char* ch_bytes = reinterpret_cast<unsigned char*>(pend_ch);
    unsigned char* post_bytes = reinterpret_cast<unsigned char*>(pend_ch + pendants);
    const bool keep_post = p.want_post || p.out_bits > kept; // (the output reads pendant bits)
    // a layer's pendant: its byte offset among the pendant values of this thread's row
    auto pendant_at = [&](layer_word w) {
        return bit_offset<T>(tab.entry[w.first() + w.entries() - 1], rb, rbz) - kept_bytes;
    };

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw = group * C + local;
        const bool active = lane_used && cw < p.frames;
        begin_group<1, T>(p, tab, soft, s_gamma, kept, group, s_msg, align16(size_t(C) * z * S), s_done, s_iters,
                          0u, pend_block, kept, 2 * pendants);

        uint64_t pend_signs = 0; // bit i: the posterior of this thread's i-th pendant is negative
        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[local];
            uint32_t next = s_layer[0];
            unsigned pnext = 0;
            int ch_next = 0;
            if (work && layer_word{ next }.pendant()) {
                pnext = pendant_at(layer_word{ next });
                ch_next = *reinterpret_cast<const T*>(ch_bytes + pnext);
            }
            int pi = 0; // pendants of the layers before
            for (int l = 0; l < p.mb; ++l) {
                const layer_word lw{ next };
                next = s_layer[l + 1];
                const int ch = ch_next;
                const unsigned pat = pnext;
                // the next layer's pendant channel value, loaded a layer ahead (after the last
                // layer, the first one's: the next iteration)
                const layer_word nw{ l + 1 < p.mb ? next : s_layer[0] };
                if (work && nw.pendant()) {
                    pnext = pendant_at(nw);
                    ch_next = *reinterpret_cast<const T*>(ch_bytes + pnext);
                }
                const bool pend = lw.pendant();
                if (work) {
                    const int e0 = lw.first(), d = lw.entries() - int(pend);
                    int g = 0;
                    with_degree<MAXD>(d, [&](auto deg) {
                        g = compact_row<decltype(deg)::value>(gcw, mrow + lw.msg_at(), tab.entry + e0, rb, rbz, p.fx,
                                                              pend, ch);
                    });
                    if (pend) {
                        pend_signs = (pend_signs & ~(uint64_t(1) << pi)) | uint64_t(g < 0) << pi;
                        if (keep_post)
                            *reinterpret_cast<T*>(post_bytes + pat) = T(g);
                    }
                }
                pi += int(pend);
                if (!lw.free_next())
                    __syncthreads();
            }
            all_done = end_iteration(p, it, work, active, lane_used, row == 0, local, s_bad, s_done, s_iters, [&] {
                bool bad = false;
                int i = 0;
                for (int l = 0; l < p.mb && !bad; ++l) {
                    const layer_word lw{ s_layer[l] };
                    const bool pend = lw.pendant();
                    const bool sign = (pend_signs >> i) & 1u;
                    with_degree<MAXD>(lw.entries() - int(pend), [&](auto deg) {
                        bad = compact_row_bad<decltype(deg)::value>(gcw, tab.entry + lw.first(), rb, rbz, pend, sign);
                    });
                    i += int(pend);
                }
                return bad;
            });
        }
        __syncthreads();

        if (active) {
            const T* post = pend_ch + pendants;
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
