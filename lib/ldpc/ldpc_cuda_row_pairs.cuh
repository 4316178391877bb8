/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The layered kernel with two rows of one codeword a thread (int8 precision, a code's layers
 * compiled in): where one codeword fills an SM's shared memory (5G NR base graph 1 at Z = 384),
 * the pair kernel's two codewords a thread do not fit; but rows r and r + Z/2 of a circulant
 * meet the bits c and c + Z/2 of its block column (c = (r + s) mod Z), in one order or the
 * other. So the posteriors are kept as int16x2 words, word j of a block column holding its bits
 * j (low half) and j + Z/2 (high half), and one thread updates both rows in the pair kernel's
 * packed arithmetic (ldpc_cuda_pairs.cuh: the same bits as the one-codeword kernel); where its
 * row meets the word's high bit first (c >= Z/2), one byte permute swaps the halves on the way
 * in and out.
 *
 * Mapping: one codeword a block, TR * Z/2 threads; thread w owns the row pair w / TR (rows r and
 * r + Z/2), as lane q = w mod TR of its TR adjacent lanes (entries q, q + TR, ...). Shared
 * memory: the posteriors as n/2 int16x2 words (block column b's word j at b * Z/2 + j), each
 * thread's messages as a row of S int8x2 slots (low byte row r's, high byte row r + Z/2's),
 * the flags. The input is loaded in bit order into the message area and moved into words there
 * (and back before the results), so every input layout load_group knows applies. Included by
 * ldpc_cuda.cu only, after ldpc_cuda_pairs.cuh. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_ROW_PAIRS_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_ROW_PAIRS_CUH

#include "ldpc_cuda_pairs.cuh"

namespace gpufec {
namespace {

/*! Where table entry e puts row pair r's bits: c4 = 4 ((r + s) mod Z) from rb = 4 r and rbz = rb
 *  - 4 Z (entry.x = 4 s), then the word's byte offset in the block column, 4 (c mod Z/2) (hb =
 *  4 Z/2), and the byte permute that puts row r's bit low: 0x3210 (c < Z/2) or 0x1032 (swap) */
__device__ __forceinline__ unsigned row_pair_offset(int2 e, unsigned rb, unsigned rbz, unsigned hb, unsigned& sel)
{
    const unsigned c4 = __viaddmin_u32(rb, unsigned(e.x), rbz + unsigned(e.x));
    const unsigned w4 = __viaddmin_u32(c4, 0u - hb, c4);
    sel = w4 == c4 ? 0x3210u : 0x1032u;
    return unsigned(e.y) + w4;
}

/*! Entry q + TR i of a row (TR 1 or 2) for lane q: each a constant-bank operand where the row's
 *  table entries are (the kernel's parameter at fixed offsets), one selected by the lane. An
 *  index by the lane made the warp's two lanes of a row read two constant addresses at once,
 *  which the constant cache serves one after the other. (Past the row's last entry, lane 1
 *  reads the next row's first: masked off by its caller.) */
template <int TR>
__device__ __forceinline__ int2 lane_entry(const int2* ent, int i, int q)
{
    static_assert(TR == 1 || TR == 2, "one or two lanes a row pair");
    if constexpr (TR == 1)
        return ent[i];
    const int2 a = ent[2 * i], b = ent[2 * i + 1];
    return make_int2(q ? b.x : a.x, q ? b.y : a.y);
}

/*! One row pair's update: pair_row's arithmetic on the rows r (low halves) and r + Z/2 (high),
 *  this lane's D entries (q, q + TR, ...; of the row's d), the row's minima and signs gathered
 *  over its TR lanes */
template <int D, int TR>
__device__ __forceinline__ void row_pair_update(unsigned char* gcw, uint16_t* lrow, const int2* ent, int d, int q,
                                                unsigned rb, unsigned rbz, unsigned hb, const pair_fixed& k)
{
    unsigned off[D], sel[D], rho[D];
    bool valid[D];
    unsigned min1 = 0x7fff7fffu, min2 = 0x7fff7fffu, sx = 0;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int j = q + TR * i;
        valid[i] = TR == 1 || i < D - 1 || j < d; // (only the last entry may be absent)
        off[i] = row_pair_offset(lane_entry<TR>(ent, i, q), rb, rbz, hb, sel[i]);
        const unsigned g = prmt(*reinterpret_cast<const unsigned*>(gcw + off[i]), 0, sel[i]);
        rho[i] = pair_add(g, pair_neg(pair_widen(lrow[i])));
        const unsigned mag = valid[i] ? pair_abs(rho[i]) : 0x7fff7fffu;
        sx ^= valid[i] ? rho[i] : 0u;
        min2 = __vmins2(min2, __vmaxs2(min1, mag));
        min1 = __vmins2(min1, mag);
    }
    if constexpr (TR > 1) { // (combine_row for two halves: the signs ride in min1's bits 15 and 31)
        const unsigned lanes = row_lanes<TR>();
#pragma unroll
        for (int o = 1; o < TR; o <<= 1) {
            const unsigned a1 = __shfl_xor_sync(lanes, min1 | (sx & 0x80008000u), o, TR);
            const unsigned a2 = __shfl_xor_sync(lanes, min2, o, TR);
            const unsigned m1 = a1 & 0x7fff7fffu;
            min2 = __vmins2(__vmins2(min2, a2), __vmaxs2(min1, m1));
            min1 = __vmins2(min1, m1);
            sx ^= a1;
        }
    }
    const unsigned row_sign = pair_signs(sx);
    const unsigned n1 = pair_negate_where(pair_norm(min1, k), row_sign);
    const unsigned n2 = pair_negate_where(pair_norm(min2, k), row_sign);
    const unsigned not_min1 = ~min1;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const unsigned at_min1 = __viaddmin_s16x2(pair_abs(rho[i]), not_min1, 0u);
        const unsigned m = (at_min1 & n2) | (~at_min1 & n1);
        const unsigned msg = pair_negate_where(m, pair_signs(rho[i]));
        if (valid[i]) {
            lrow[i] = pair_narrow(msg);
            *reinterpret_cast<unsigned*>(gcw + off[i]) = prmt(pair_add(rho[i], msg), 0, sel[i]);
        }
    }
}

//! the parity of this lane's entries of a row pair: bit 15 row r's, bit 31 row r + Z/2's
template <int D, int TR>
__device__ __forceinline__ unsigned row_pair_parity(unsigned char* gcw, const int2* ent, int d, int q, unsigned rb,
                                                    unsigned rbz, unsigned hb)
{
    unsigned x = 0;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int j = q + TR * i;
        if (TR == 1 || i < D - 1 || j < d) {
            unsigned sel;
            const unsigned off = row_pair_offset(lane_entry<TR>(ent, i, q), rb, rbz, hb, sel);
            x ^= prmt(*reinterpret_cast<const unsigned*>(gcw + off), 0, sel);
        }
    }
    if constexpr (TR > 1)
        for (int o = 1; o < TR; o <<= 1)
            x ^= __shfl_xor_sync(row_lanes<TR>(), x, o, TR);
    return x & 0x80008000u;
}

/*! f(integral_constant<D>, first table entry E0, first slot) for layers L.. of PROFILE, each
 *  followed by barrier(L): profile_layers with a lane's slots of a layer ceil(D / TR) */
template <class PROFILE, int TR, int L = 0, int E0 = 0, int SLOT = 0, class Row, class Barrier>
__device__ __forceinline__ void row_pair_layers(Row&& row, Barrier&& barrier)
{
    if constexpr (L < PROFILE::layers) {
        constexpr int D = PROFILE::degree(L);
        row(std::integral_constant<int, D>(), E0, SLOT);
        barrier(L);
        row_pair_layers<PROFILE, TR, L + 1, E0 + D, SLOT + (D + TR - 1) / TR>(row, barrier);
    }
}

//! the n bits of a codeword between bit order (nat, int16) and row-pair words (z even)
template <bool TO_WORDS>
__device__ __forceinline__ void row_pair_reorder(int16_t* nat, unsigned* words, int n, int z)
{
    const int h = z / 2;
    for (int wd = threadIdx.x; wd < n / 2; wd += blockDim.x) {
        const int b = wd / h, j = wd - b * h, v = b * z + j;
        if constexpr (TO_WORDS) {
            words[wd] = unsigned(uint16_t(nat[v])) | unsigned(uint16_t(nat[v + h])) << 16;
        } else {
            const unsigned x = words[wd];
            nat[v] = int16_t(x & 0xffffu);
            nat[v + h] = int16_t(x >> 16);
        }
    }
}

//! a block's dynamic shared memory: the posteriors, TR * Z/2 rows of S int8x2 slots (which also
//! hold the codeword in bit order while it is loaded and written out), the flags
__host__ __device__ inline size_t row_pair_smem_bytes(int n, int threads, int S)
{
    const size_t msg = align16(size_t(threads) * S * 2);
    return align16(size_t(n) * 2) + (msg > align16(size_t(n) * 2) ? msg : align16(size_t(n) * 2)) + align16(4 * 4);
}

template <int TR>
struct row_pair_bounds {
    static constexpr int threads = TR == 1 ? 256 : 512;
};

template <class PROFILE, int TR>
__global__ void __launch_bounds__(row_pair_bounds<TR>::threads, 1)
    ldpc_row_pair_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                         uint8_t* __restrict__ out, frame_status* __restrict__ results,
                         float* __restrict__ posteriors, int* __restrict__ queue)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char smem[];
    const int z = p.z, n = p.n, S = p.msg_stride, h = z / 2, cwt = TR * h;
    unsigned* s_gamma = reinterpret_cast<unsigned*>(smem);
    unsigned char* cursor = smem + align16(size_t(n) * 2);
    uint16_t* s_msg = reinterpret_cast<uint16_t*>(cursor);
    const size_t msg_bytes = align16(size_t(cwt) * S * 2);
    cursor += msg_bytes > align16(size_t(n) * 2) ? msg_bytes : align16(size_t(n) * 2);
    int* s_bad = reinterpret_cast<int*>(cursor);
    int* s_done = s_bad + 1;
    int* s_iters = s_done + 1;
    int* s_group = s_iters + 1;
    int16_t* s_nat = reinterpret_cast<int16_t*>(s_msg); // (the codeword in bit order, at its ends)

    const int w = threadIdx.x, row = w / TR, q = w - row * TR;
    const bool lane_used = w < cwt;
    unsigned char* gcw = reinterpret_cast<unsigned char*>(s_gamma);
    const unsigned rb = unsigned(lane_used ? row : 0) * 4u, rbz = rb - unsigned(z) * 4u, hb = unsigned(h) * 4u;
    uint16_t* mrow = s_msg + (lane_used ? size_t(w) * S : 0);
    const pair_fixed k(p.fx);

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw = group;
        const bool active = cw < p.frames;
        load_group<4, int16_t, 1, false>(p, tab, soft, s_nat, n, group);
        __syncthreads();
        row_pair_reorder<true>(s_nat, s_gamma, n, z);
        __syncthreads();
        fill_shared(s_msg, msg_bytes);
        start_group_flags(p, group, s_done, s_iters);
        __syncthreads();

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[0]; // (the same in every thread: one codeword)
            if (work)
                row_pair_layers<PROFILE, TR>(
                    [&](auto deg, int e0, int slot) {
                        constexpr int D = decltype(deg)::value, DL = (D + TR - 1) / TR;
                        if (lane_used)
                            row_pair_update<DL, TR>(gcw, mrow + slot, tab.entry + e0, D, q, rb, rbz, hb, k);
                    },
                    [&](int l) {
                        if (!layer_word{ tab.layer[l] }.free_next())
                            __syncthreads();
                    });
            all_done = end_iteration(p, it, work, active, lane_used, w == 0, 0, s_bad, s_done, s_iters, [&] {
                unsigned bad = 0;
                row_pair_layers<PROFILE, TR>(
                    [&](auto deg, int e0, int) {
                        constexpr int D = decltype(deg)::value, DL = (D + TR - 1) / TR;
                        if (lane_used && (TR > 1 || bad == 0))
                            bad |= row_pair_parity<DL, TR>(gcw, tab.entry + e0, D, q, rb, rbz, hb);
                    },
                    [](int) {});
                return bad != 0;
            });
        }
        __syncthreads();
        row_pair_reorder<false>(s_nat, s_gamma, n, z);
        __syncthreads();
        if (active)
            write_results(p, s_nat, cw, w, int(blockDim.x), s_iters[0], s_bad[0] != 0, out, results, posteriors);
    }
#else
    __trap(); // (never launched below 9.0)
#endif
}

//! the row-pair kernel compiled for a code of these layer degrees (TR 1 or 2), or null
inline kernel_fn row_pair_kernel_for_profile(const std::vector<int>& degrees, int tr)
{
    if (profile_nr_bg1::matches(degrees))
        return tr == 1 ? ldpc_row_pair_kernel<profile_nr_bg1, 1> : ldpc_row_pair_kernel<profile_nr_bg1, 2>;
    return nullptr;
}

} // namespace
} // namespace gpufec

#endif
