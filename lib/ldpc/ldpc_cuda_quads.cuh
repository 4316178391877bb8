/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The layered kernel with four codewords a thread, in half2 arithmetic: pair_row_half's row
 * update (ldpc_cuda_pairs.cuh: the same bits, exact where fp16 holds every value) on two half2
 * words at once, codewords 4q and 4q + 1 in the first, 4q + 2 and 4q + 3 in the second. What a
 * row costs apart from its arithmetic (the table entry and the bit's address, the shared-memory
 * instructions, the message slots' byte moves, the loop and the barrier) then serves four
 * codewords instead of two, and each thread has two independent chains of arithmetic.
 *
 * Mapping: quad q of the block has Z threads; its thread r owns row r of every layer of the
 * quad's four codewords. Shared memory: the posteriors of quad q as n uint2 words (bit v: word
 * q * n + v; .x the half2 of codewords 4q, 4q + 1, .y of 4q + 2, 4q + 3), each thread's messages
 * as one row of S 32-bit slots (a slot: the four codewords' bytes u = m + 128, pair_row_half's
 * biased form), read and written V slots an access (S odd for V 1, S / 4 odd for V 4:
 * conflict-free), the per-codeword flags, the layer words. Included by ldpc_cuda.cu only, after
 * ldpc_cuda_pairs.cuh. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_QUADS_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_QUADS_CUH

#include "ldpc_cuda_pairs.cuh"

namespace gpufec {
namespace {

/*! A row's message slots as quad_row_half reads and writes them: V 32-bit slots a
 *  shared-memory access (1 or 4; with 4, each layer's slots start at a multiple of 4 and those
 *  past the row's D are padding, loaded and stored back as they are) */
template <int D, int V>
struct quad_slots {
    static_assert(V == 1 || V == 4, "one or four slots an access");
    static constexpr int words = V == 1 ? D : (D + 3) / 4 * 4;
    unsigned w[words];

    __device__ __forceinline__ void load(const unsigned* lrow)
    {
#pragma unroll
        for (int j = 0; j < words; j += V) {
            if constexpr (V == 1) {
                w[j] = lrow[j];
            } else {
                const uint4 x = reinterpret_cast<const uint4*>(lrow)[j / 4];
                w[j] = x.x;
                w[j + 1] = x.y;
                w[j + 2] = x.z;
                w[j + 3] = x.w;
            }
        }
    }
    //! entry i's old messages as halves: h 0 codewords 4q, 4q + 1; h 1 the other two
    __device__ __forceinline__ __half2 message(int i, int h) const { return half_message(w[i], h == 1); }
    //! entry i's new messages (halves m + 1152 of each half2: the bytes u in their low bytes)
    __device__ __forceinline__ void put(int i, unsigned biased_lo, unsigned biased_hi)
    {
        w[i] = prmt(biased_lo, biased_hi, 0x6420);
    }
    __device__ __forceinline__ void store(unsigned* lrow) const
    {
#pragma unroll
        for (int j = 0; j < words; j += V) {
            if constexpr (V == 1)
                lrow[j] = w[j];
            else
                reinterpret_cast<uint4*>(lrow)[j / 4] = make_uint4(w[j], w[j + 1], w[j + 2], w[j + 3]);
        }
    }
};

/*! One check row of D entries for the four codewords of a quad: pair_row_half on each half2
 *  word of the posteriors (gcw: the quad's uint2 words). KEEP: the halves where keep.x / keep.y
 *  is 0 (a codeword that has stopped while others go on) keep their messages. */
template <int D, bool KEEP, int V>
__device__ __forceinline__ void quad_row_half(unsigned char* gcw, unsigned* lrow, const int2* ent, unsigned rb,
                                              unsigned rbz, const pair_fixed& k, uint2 keep)
{
    unsigned off[D];
    __half2 rho0[D], rho1[D];
    __half2 min1a = as_half2(0x68006800u), min2a = min1a, min1b = min1a, min2b = min1a; // 2048
    unsigned sx0 = 0, sx1 = 0;
    quad_slots<D, V> slots;
    slots.load(lrow);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        off[i] = bit_offset<unsigned>(ent[i], rb, rbz);
        const uint2 g = *reinterpret_cast<const uint2*>(gcw + off[i]);
        rho0[i] = __hsub2(as_half2(g.x), slots.message(i, 0));
        rho1[i] = __hsub2(as_half2(g.y), slots.message(i, 1));
        sx0 ^= half2_bits(rho0[i]);
        sx1 ^= half2_bits(rho1[i]);
        const __half2 mag0 = __habs2(rho0[i]), mag1 = __habs2(rho1[i]);
        min2a = __hmin2(min2a, __hmax2(min1a, mag0));
        min1a = __hmin2(min1a, mag0);
        min2b = __hmin2(min2b, __hmax2(min1b, mag1));
        min1b = __hmin2(min1b, mag1);
    }
    // as pair_row_half: the row's sign in the two magnitudes, t = 1.0 where |rho_i| > min1
    const unsigned sign0 = sx0 & half_signs, sign1 = sx1 & half_signs;
    const __half2 n1a = as_half2(half_norm(min1a, k) ^ sign0), n2a = as_half2(half_norm(min2a, k) ^ sign0);
    const __half2 n1b = as_half2(half_norm(min1b, k) ^ sign1), n2b = as_half2(half_norm(min2b, k) ^ sign1);
    const __half2 stepa = __hsub2(n1a, n2a), stepb = __hsub2(n1b, n2b);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const __half2 t0 = __hgt2(__habs2(rho0[i]), min1a), t1 = __hgt2(__habs2(rho1[i]), min1b);
        unsigned msg0 = half2_bits(__hfma2(t0, stepa, n2a)) ^ (half2_bits(rho0[i]) & half_signs);
        unsigned msg1 = half2_bits(__hfma2(t1, stepb, n2b)) ^ (half2_bits(rho1[i]) & half_signs);
        if constexpr (KEEP) {
            msg0 = (keep.x & msg0) | (~keep.x & half2_bits(slots.message(i, 0)));
            msg1 = (keep.y & msg1) | (~keep.y & half2_bits(slots.message(i, 1)));
        }
        slots.put(i, half2_bits(__hadd2(as_half2(msg0), as_half2(half_1152))),
                  half2_bits(__hadd2(as_half2(msg1), as_half2(half_1152))));
        *reinterpret_cast<uint2*>(gcw + off[i]) =
            make_uint2(half2_bits(__hadd2(rho0[i], as_half2(msg0))), half2_bits(__hadd2(rho1[i], as_half2(msg1))));
    }
    slots.store(lrow);
}

//! the parity of one row for the four codewords: bit h set where codeword 4q + h's row fails
template <int D>
__device__ __forceinline__ unsigned quad_row_parity(unsigned char* gcw, const int2* ent, unsigned rb, unsigned rbz)
{
    unsigned x0 = 0, x1 = 0;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const uint2 g = *bit_of<uint2>(gcw, ent[i], rb, rbz);
        x0 ^= g.x;
        x1 ^= g.y;
    }
    return (x0 >> 15 & 1u) | (x0 >> 30 & 2u) | (x1 >> 13 & 4u) | (x1 >> 28 & 8u);
}

//! dynamic shared memory of a block of Q quads of Z threads: posteriors, messages (S 32-bit
//! slots a thread), the flags of 4Q codewords, the layer words
__host__ __device__ inline size_t quad_smem_bytes(int n, int z, int S, int Q, int mb)
{
    return align16(size_t(Q) * n * 8) + align16(size_t(Q) * z * S * 4) + align16(size_t(4 * Q) * 4 * 4) +
           layer_words_bytes(mb);
}

/* Launch bounds: up to 128 registers a thread (one block of 512 an SM). A quad's shared memory
 * holds an SM to far fewer threads (802.11n 1944: five quads, 480 threads), and its rows of 8
 * bits spill at 64 (two values an entry, two chains). */
template <int MAXD>
struct quad_bounds {
    static constexpr int threads = 512;
    static constexpr int blocks = 1;
};

/* p.cw_per_block = 4Q. The table's entries count bytes of uint2 words (entry.x = shift * 8). */
template <int MAXD, int V>
__global__ void __launch_bounds__(quad_bounds<MAXD>::threads, quad_bounds<MAXD>::blocks)
    ldpc_quad_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                     uint8_t* __restrict__ out, frame_status* __restrict__ results, float* __restrict__ posteriors,
                     int* __restrict__ queue)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int C = p.cw_per_block, Q = C / 4, z = p.z, n = p.n, S = p.msg_stride;
    unsigned char* cursor = smem;
    uint2* s_gamma = reinterpret_cast<uint2*>(cursor);
    cursor += align16(size_t(Q) * n * 8);
    unsigned* s_msg = reinterpret_cast<unsigned*>(cursor); // thread t: s_msg[t * S + i]
    const size_t msg_bytes = align16(size_t(Q) * z * S * 4);
    cursor += msg_bytes;
    int* s_bad = reinterpret_cast<int*>(cursor); // per codeword
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;
    cursor += align16(size_t(C) * 4 * 4);
    constexpr bool lean = MAXD <= 8; // (as the pair kernel: every barrier, no layer words)
    uint32_t* s_layer = reinterpret_cast<uint32_t*>(cursor);
    if constexpr (!lean)
        copy_layer_words(tab.layer, s_layer, p.mb);

    const int quad = threadIdx.x / z, row = threadIdx.x - quad * z;
    const bool lane_used = quad < Q;
    const int local0 = 4 * quad; // the quad's first codeword within the block
    uint2* gamma = s_gamma + (lane_used ? size_t(quad) * n : 0);
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    const unsigned rb = unsigned(row) * 8u, rbz = rb - unsigned(z) * 8u; // bit_of
    unsigned* mrow = s_msg + (lane_used ? size_t(threadIdx.x) * S : 0);
    const pair_fixed k(p.fx);

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw0 = group * C + local0;
        bool active[4];
#pragma unroll
        for (int h = 0; h < 4; ++h)
            active[h] = lane_used && cw0 + h < p.frames;

        begin_group<lean ? 1 : 4, int16_t, 4>(p, tab, soft, reinterpret_cast<int16_t*>(s_gamma), n, group, s_msg,
                                              msg_bytes, s_done, s_iters, half_zero_messages);
        convert_pair_words<true>(reinterpret_cast<unsigned*>(s_gamma), 2 * Q * n);
        __syncthreads();

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            bool work[4];
#pragma unroll
            for (int h = 0; h < 4; ++h)
                work[h] = active[h] && !s_done[local0 + h];
            // a codeword past the last frame is updated with the others (its results are not
            // written); one that has stopped keeps its values
            auto half_keep = [&](int h) { return !active[h] || work[h] ? (h % 2 ? 0xffff0000u : 0x0000ffffu) : 0u; };
            const uint2 keep = make_uint2(half_keep(0) | half_keep(1), half_keep(2) | half_keep(3));
            const bool any_work = work[0] || work[1] || work[2] || work[3];
            int slot = 0;
            uint32_t next = lean ? 0u : s_layer[0];
            for (int l = 0; l < p.mb; ++l) {
                const layer_word lw{ next };
                if constexpr (!lean)
                    next = s_layer[l + 1];
                const int e0 = lean ? tab.layer_start[l] : lw.first();
                const int d = lean ? tab.layer_start[l + 1] - e0 : lw.entries();
                if (any_work) {
                    with_degree<MAXD>(d, [&](auto deg) {
                        constexpr int D = decltype(deg)::value;
                        if (keep.x == ~0u && keep.y == ~0u)
                            quad_row_half<D, false, V>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                        else
                            quad_row_half<D, true, V>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                    });
                }
                slot += pair_layer_slots(d, V);
                if (lean || !lw.free_next())
                    __syncthreads();
            }
            all_done = end_pair_iteration(p, it, work, active, lane_used, row == 0, local0, s_bad, s_done, s_iters, [&] {
                unsigned bad = 0;
                for (int l = 0; l < p.mb && bad != 15u; ++l) {
                    const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0;
                    with_degree<MAXD>(d, [&](auto deg) {
                        bad |= quad_row_parity<decltype(deg)::value>(gcw, tab.entry + e0, rb, rbz);
                    });
                }
                return bad;
            });
        }
        __syncthreads();
        if (p.want_post) { // (the hard bits read the sign bits, the same in both forms)
            convert_pair_words<false>(reinterpret_cast<unsigned*>(s_gamma), 2 * Q * n);
            __syncthreads();
        }

#pragma unroll
        for (int h = 0; h < 4; ++h)
            if (active[h])
                write_results<int16_t, 4>(p, reinterpret_cast<const int16_t*>(gamma) + h, cw0 + h, row, z,
                                          s_iters[local0 + h], s_bad[local0 + h] != 0, out, results, posteriors);
    }
}

//! the quad kernel whose rows are unrolled to at least max_degree entries, its message slots
//! `vector` an access (1 or 4)
template <int V>
kernel_fn quad_kernel_by_degree(int max_degree)
{
    return max_degree <= 8    ? ldpc_quad_kernel<8, V>
           : max_degree <= 16 ? ldpc_quad_kernel<16, V>
           : max_degree <= 24 ? ldpc_quad_kernel<24, V>
                              : ldpc_quad_kernel<32, V>;
}

inline kernel_fn quad_kernel_for(int max_degree, int vector)
{
    return vector == 4 ? quad_kernel_by_degree<4>(max_degree) : quad_kernel_by_degree<1>(max_degree);
}

} // namespace
} // namespace gpufec

#endif
