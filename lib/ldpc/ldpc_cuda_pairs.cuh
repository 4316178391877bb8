/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The layered kernel with two codewords a thread (int8 precision, one lane a row): the same
 * arithmetic as ldpc_cuda_layered.cuh's, bit for bit (ldpc_common.h: int16 posteriors that
 * never saturate, int8 messages), on the two codewords' values side by side in one 32-bit
 * register: the low 16 bits codeword 2p of the block, the high 16 bits codeword 2p + 1.
 * Hopper's packed 16-bit instructions (DPX: add-and-minimum / add-and-maximum, minimum and
 * maximum of two halfwords, one instruction each) then do both codewords' work at once, where
 * the one-codeword kernel spends about as many instructions on one; the engine takes it on
 * compute capability 9.0 and up (older GPUs emulate DPX).
 *
 * Mapping: pair p of the block has Z threads; its thread r owns row r of every layer of both
 * codewords. Shared memory: the posteriors of pair p as n int16x2 words (bit v: word p * n + v),
 * each thread's messages as one row of S int8x2 slots (S * 2 / 4 odd: conflict-free), the
 * per-codeword flags, the layer words. Included by ldpc_cuda.cu only, after
 * ldpc_cuda_layered.cuh. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_PAIRS_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_PAIRS_CUH

#include "ldpc_cuda_layered.cuh"

#include <cuda_fp16.h>
#include <type_traits>
#include <vector>

namespace gpufec {
namespace {

// two int16 in a 32-bit word: the operations the row update needs, each on both halves
constexpr unsigned pair_low = 0x80008000u; // INT16_MIN twice: max(x, pair_low) = x
constexpr unsigned pair_one = 0x00010001u;

__device__ __forceinline__ unsigned pair_add(unsigned a, unsigned b) { return __viaddmax_s16x2(a, b, pair_low); }
//! |a| as max(~a + 1, a): two instructions
__device__ __forceinline__ unsigned pair_abs(unsigned a) { return __viaddmax_s16x2(~a, pair_one, a); }
__device__ __forceinline__ unsigned pair_neg(unsigned a) { return pair_add(~a, pair_one); }
//! 0xffff in each half that is negative (its top byte's sign copied over the half)
__device__ __forceinline__ unsigned pair_signs(unsigned a) { return prmt(a, 0, 0xbb99); }
//! x negated in the halves where s is 0xffff
__device__ __forceinline__ unsigned pair_negate_where(unsigned x, unsigned s) { return pair_add(x ^ s, s & pair_one); }
//! two int8 (a message slot) to two int16, and back (|x| <= 127)
__device__ __forceinline__ unsigned pair_widen(unsigned m) { return prmt(m, 0, 0x9180); }
__device__ __forceinline__ uint16_t pair_narrow(unsigned a) { return uint16_t(prmt(a, 0, 0x0020)); }

//! a row's constants: -offset and the message limit in both halves, the normalisation
struct pair_fixed {
    unsigned minus_offset, mmax, norm16;
    __device__ explicit pair_fixed(const ldpc_fixed& f)
        : minus_offset(unsigned(uint16_t(-f.offset)) * pair_one), mmax(unsigned(f.mmax) * pair_one),
          norm16(unsigned(f.norm16))
    {
    }
};

/*! ldpc_norm of two magnitudes (0 .. 32767) at once: (m * k) >> 4 as (m >> 4) * k + ((m & 15) *
 *  k) >> 4 (neither product leaves its half: k <= 16), then minus the offset, within 0 .. mmax */
__device__ __forceinline__ unsigned pair_norm(unsigned m, const pair_fixed& k)
{
    const unsigned high = ((m >> 4) & 0x0fff0fffu) * k.norm16;
    const unsigned low = (((m & 0x000f000fu) * k.norm16) >> 4) & 0x000f000fu;
    return __viaddmin_s16x2_relu(high + low, k.minus_offset, k.mmax);
}

/*! One check row of D entries for both codewords of the pair: layered_row's update (pass 1:
 *  rho, the two smallest magnitudes and the sign product; pass 2: the messages and the
 *  posteriors), each step on both halves. KEEP: the halves where `keep` is 0 (a codeword that
 *  has stopped while its partner goes on) keep their messages, and so their posteriors. */
template <int D, bool KEEP>
__device__ __forceinline__ void pair_row(unsigned char* gcw, uint16_t* lrow, const int2* ent, unsigned rb,
                                         unsigned rbz, const pair_fixed& k, unsigned keep)
{
    unsigned off[D], rho[D];
    unsigned min1 = 0x7fff7fffu, min2 = 0x7fff7fffu, sx = 0;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        off[i] = bit_offset<unsigned>(ent[i], rb, rbz);
        const unsigned g = *reinterpret_cast<const unsigned*>(gcw + off[i]);
        rho[i] = pair_add(g, pair_neg(pair_widen(lrow[i])));
        const unsigned mag = pair_abs(rho[i]);
        sx ^= rho[i]; // (the sign bit of each half: the parity of its negative rho)
        min2 = __vmins2(min2, __vmaxs2(min1, mag));
        min1 = __vmins2(min1, mag);
    }
    // the row's sign folded into the two magnitudes; |rho| == min1 where |rho| + ~min1 < 0
    const unsigned row_sign = pair_signs(sx);
    const unsigned n1 = pair_negate_where(pair_norm(min1, k), row_sign);
    const unsigned n2 = pair_negate_where(pair_norm(min2, k), row_sign);
    const unsigned not_min1 = ~min1; // -min1 - 1
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const unsigned at_min1 = __viaddmin_s16x2(pair_abs(rho[i]), not_min1, 0u); // 0xffff or 0
        const unsigned m = (at_min1 & n2) | (~at_min1 & n1);
        unsigned msg = pair_negate_where(m, pair_signs(rho[i]));
        if constexpr (KEEP)
            msg = (keep & msg) | (~keep & pair_widen(lrow[i]));
        lrow[i] = pair_narrow(msg);
        *reinterpret_cast<unsigned*>(gcw + off[i]) = pair_add(rho[i], msg);
    }
}

/* The same row update in half2 arithmetic (fp16 x 2), where it is exact. Every value the row
 * update computes is an integer: fp16 holds each integer of magnitude up to 2048 exactly, and a
 * sum, difference, product, minimum or maximum of such integers that stays within 2048 is
 * computed exactly (no rounding happens). The posteriors are bounded by 128 + (column degree) *
 * 127 (ldpc_common.h): the engine takes this form only where that is at most 2048 (column
 * degrees up to 15: the IEEE codes, not 5G NR's base graphs) and where a magnitude of 1023
 * already normalises to the message limit, so that the minima may be clamped there before the
 * integer normalisation. Zeros: a posterior or rho is never -0 (x - x and x + (-x) give +0, and
 * -0 only comes from -0 + -0 or -0 - +0), so the sign bits are those of the int16 form and the
 * parity, the hard bits and the sign products are unchanged; a message may be -0, which adds and
 * stores as +0.
 *
 * Why: the int16x2 form spends most of its instructions on the integer ALU pipe (rho = gamma -
 * message takes a widening, a complement and two DPX adds; |x| two more), which bounds the
 * 802.16e kernel; half2 additions, minima and fused multiply-adds run on the FMA pipe, take |x|
 * and -x as free operand modifiers, and leave the ALU the byte moves and the sign bits.
 *
 * Messages are stored as bytes u = m + 128 (zero: 0x80), so that one byte permute makes the half
 * 1024 + u (0x64 above u: fp16's integers 1024..2047 have exponent 0x64.. and u in the
 * mantissa), and m = that - 1152. */
__device__ __forceinline__ __half2 as_half2(unsigned u)
{
    __half2 h;
    memcpy(&h, &u, 4);
    return h;
}
__device__ __forceinline__ unsigned half2_bits(__half2 h)
{
    unsigned u;
    memcpy(&u, &h, 4);
    return u;
}
constexpr unsigned half_1023 = 0x63fe63feu, half_1024 = 0x64006400u, half_1152 = 0x64806480u;
constexpr unsigned half_signs = 0x80008000u;
constexpr unsigned half_zero_messages = 0x80808080u; // bytes u = 0 + 128

//! a stored message slot (two bytes u = m + 128: the low 16 bits of `word`, or where `high` its
//! high 16 bits) as two halves m
__device__ __forceinline__ __half2 half_message(unsigned word, bool high = false)
{
    return __hsub2(as_half2(prmt(word, 0x64u, high ? 0x4342 : 0x4140)), as_half2(half_1152));
}
/*! norm() of two magnitudes (integers 0 .. 2048) as halves: clamped to 1023 (which the engine
 *  checked normalises to the limit), moved to int16 through the mantissa of 1024 + m,
 *  normalised, and back. Below 1024, m * k (k <= 16) stays within its half (at most 16368), so
 *  one multiply of the word and one shift normalise both halves (pair_norm, for magnitudes up
 *  to 32767, splits the product in two). */
__device__ __forceinline__ unsigned half_norm(__half2 m, const pair_fixed& k)
{
    const unsigned v = half2_bits(__hadd2(__hmin2(m, as_half2(half_1023)), as_half2(half_1024))) & 0x03ff03ffu;
    const unsigned n = __viaddmin_s16x2_relu(((v * k.norm16) >> 4) & 0x0fff0fffu, k.minus_offset, k.mmax);
    return half2_bits(__hsub2(as_half2(n | half_1024), as_half2(half_1024)));
}

/*! A row's message slots as the half2 row update reads and writes them: V slots (2 bytes each)
 *  a shared-memory access, V = 1 or 4. With V = 4 each layer's slots start at a multiple of 4
 *  (the engine pads them: layered_slots) and the slots past the row's D are padding, loaded and
 *  written back as they are; a word's two slots take their new bytes in one byte permute when
 *  both are entries (put() keeps the even entry's value until its partner comes). Fewer
 *  shared-memory instructions and byte moves an entry, where the padding costs the SM no pair. */
template <int D, int V>
struct half_slots {
    static_assert(V == 1 || V == 4, "one or four slots an access");
    static constexpr int words = V == 1 ? D : (D + 3) / 4 * 2; // V 1: one slot a word, else two
    unsigned w[words];
    unsigned even = 0; // (V 4) the last even entry's new value, biased, until its odd partner's

    __device__ __forceinline__ void load(const uint16_t* lrow)
    {
#pragma unroll
        for (int j = 0; j < words; ++j) {
            if constexpr (V == 1) {
                w[j] = lrow[j];
            } else if (j % 2 == 0) {
                const uint2 x = reinterpret_cast<const uint2*>(lrow)[j / 2];
                w[j] = x.x;
                w[j + 1] = x.y;
            }
        }
    }
    //! the old message of entry i, as halves
    __device__ __forceinline__ __half2 message(int i) const
    {
        return V == 1 ? half_message(w[i]) : half_message(w[i / 2], i % 2 == 1);
    }
    //! entry i's new message (halves m + 1152: the bytes u = m + 128 in their low bytes)
    __device__ __forceinline__ void put(int i, unsigned biased)
    {
        if constexpr (V == 1)
            w[i] = prmt(biased, 0, 0x0020);
        else if (i % 2 == 1)
            w[i / 2] = prmt(even, biased, 0x6420); // (the low bytes of the four halves)
        else if (i + 1 < D)
            even = biased; // (its word is written with the odd entry's)
        else
            w[i / 2] = prmt(biased, w[i / 2], 0x7620); // (the high slot kept: padding)
    }
    __device__ __forceinline__ void store(uint16_t* lrow) const
    {
#pragma unroll
        for (int j = 0; j < words; ++j) {
            if constexpr (V == 1)
                lrow[j] = uint16_t(w[j]);
            else if (j % 2 == 0)
                reinterpret_cast<uint2*>(lrow)[j / 2] = make_uint2(w[j], w[j + 1]);
        }
    }
};

//! pair_row in half2 arithmetic: the same bits (see above); gcw holds the pair's posteriors as
//! half2 words, lrow the row's slots read V at a time (half_slots)
template <int D, bool KEEP, int V>
__device__ __forceinline__ void pair_row_half(unsigned char* gcw, uint16_t* lrow, const int2* ent, unsigned rb,
                                              unsigned rbz, const pair_fixed& k, unsigned keep)
{
    unsigned off[D];
    __half2 rho[D];
    __half2 min1 = as_half2(0x68006800u), min2 = min1; // 2048: above every magnitude
    unsigned sx = 0;
    half_slots<D, V> slots;
    slots.load(lrow);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        off[i] = bit_offset<unsigned>(ent[i], rb, rbz);
        rho[i] = __hsub2(as_half2(*reinterpret_cast<const unsigned*>(gcw + off[i])), slots.message(i));
        const __half2 mag = __habs2(rho[i]);
        sx ^= half2_bits(rho[i]);
        min2 = __hmin2(min2, __hmax2(min1, mag));
        min1 = __hmin2(min1, mag);
    }
    // the row's sign folded into the two magnitudes; message i is n2 where |rho_i| == min1,
    // else n1 (t = 1.0 where |rho_i| > min1: one comparison), with rho_i's own sign
    const unsigned row_sign = sx & half_signs;
    const __half2 n1 = as_half2(half_norm(min1, k) ^ row_sign), n2 = as_half2(half_norm(min2, k) ^ row_sign);
    const __half2 step = __hsub2(n1, n2);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const __half2 t = __hgt2(__habs2(rho[i]), min1);
        unsigned msg = half2_bits(__hfma2(t, step, n2)) ^ (half2_bits(rho[i]) & half_signs);
        if constexpr (KEEP)
            msg = (keep & msg) | (~keep & half2_bits(slots.message(i)));
        slots.put(i, half2_bits(__hadd2(as_half2(msg), as_half2(half_1152))));
        *reinterpret_cast<unsigned*>(gcw + off[i]) = half2_bits(__hadd2(rho[i], as_half2(msg)));
    }
    slots.store(lrow);
}

//! `words` int16x2 posteriors to half2 in place (exact: |x| <= 2048), or back (TO_HALF false)
template <bool TO_HALF>
__device__ __forceinline__ void convert_pair_words(unsigned* at, int words)
{
    for (int i = threadIdx.x; i < words; i += blockDim.x) {
        const unsigned w = at[i];
        if constexpr (TO_HALF) {
            at[i] = half2_bits(__halves2half2(__short2half_rn(short(w & 0xffffu)), __short2half_rn(short(w >> 16))));
        } else {
            const __half2 h = as_half2(w);
            at[i] = unsigned(uint16_t(__half2short_rn(__low2half(h)))) |
                    unsigned(uint16_t(__half2short_rn(__high2half(h)))) << 16;
        }
    }
}

//! the parity of one row for both codewords: bit 0 set where the low codeword's row fails, bit 1
//! the high one's
template <int D>
__device__ __forceinline__ unsigned pair_row_parity(unsigned char* gcw, const int2* ent, unsigned rb, unsigned rbz)
{
    unsigned x = 0;
#pragma unroll
    for (int i = 0; i < D; ++i)
        x ^= *bit_of<unsigned>(gcw, ent[i], rb, rbz);
    return (x >> 15 & 1u) | (x >> 30 & 2u);
}

/*! end_iteration for the two codewords of a thread (local0, local0 + 1 of the block):
 *  rows_bad() gives the bits of pair_row_parity over the thread's rows */
template <class RowsBad>
__device__ __forceinline__ bool end_pair_iteration(const gpu_params& p, int it, const bool (&work)[2],
                                                   const bool (&active)[2], bool lane_used, bool first, int local0,
                                                   int* s_bad, int* s_done, int* s_iters, RowsBad&& rows_bad)
{
    bool mine_done[2];
    if (p.early_termination || it == p.max_iter) {
        if (lane_used && first) {
            s_bad[local0] = 0;
            s_bad[local0 + 1] = 0;
        }
        __syncthreads();
        if (work[0] || work[1]) {
            const unsigned bad = rows_bad();
            for (int h = 0; h < 2; ++h)
                if (work[h] && (bad >> h & 1u))
                    flag_bad(s_bad, local0 + h);
        }
        __syncthreads();
        for (int h = 0; h < 2; ++h) {
            const bool passed = lane_used && !s_bad[local0 + h];
            if (work[h] && first) {
                s_iters[local0 + h] = it;
                if (p.early_termination && passed)
                    s_done[local0 + h] = 1;
            }
            mine_done[h] = !work[h] || (p.early_termination && passed);
        }
    } else {
        for (int h = 0; h < 2; ++h) {
            if (work[h] && first)
                s_iters[local0 + h] = it;
            mine_done[h] = !work[h];
        }
    }
    return __syncthreads_and((!active[0] || mine_done[0]) && (!active[1] || mine_done[1]));
}

//! dynamic shared memory of a block of P pairs of Z threads: posteriors, messages (S int8x2
//! slots a thread), the flags of 2P codewords, the layer words
__host__ __device__ inline size_t pair_smem_bytes(int n, int z, int S, int P, int mb)
{
    return align16(size_t(P) * n * 4) + align16(size_t(P) * z * S * 2) + align16(size_t(2 * P) * 4 * 4) +
           layer_words_bytes(mb);
}

/* Launch bounds: rows of up to 8 bits get 64 registers (two blocks of 512 threads an SM; the
 * shared memory of a pair holds an SM to fewer threads than that: 802.16e 2304 nine pairs, 864
 * threads), which they need without spilling (40 spilled); longer rows what they need. */
template <int MAXD>
struct pair_bounds {
    static constexpr int threads = 512;
    static constexpr int blocks = MAXD <= 8 ? 2 : 1;
};

/* p.cw_per_block = 2P. The table's entries count bytes of int16x2 words (entry.x = shift * 4).
 * HALF: the rows in half2 arithmetic (pair_row_half), the posteriors held as half2 words
 * between the load and the results; V: its message slots a shared-memory access (half_slots),
 * each layer's first slot at a multiple of V. PROFILE: void (the layers as a loop over the
 * table's bounds), or the code's layer_profile (its layers unrolled). */
template <int MAXD, bool HALF, int V, class PROFILE>
__device__ __forceinline__ void pair_kernel_body(const gpu_params& p, const gpu_table& tab,
                                                 const int8_t* __restrict__ soft, uint8_t* __restrict__ out,
                                                 frame_status* __restrict__ results, float* __restrict__ posteriors,
                                                 int* __restrict__ queue)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int C = p.cw_per_block, P = C / 2, z = p.z, n = p.n, S = p.msg_stride;
    unsigned char* cursor = smem;
    unsigned* s_gamma = reinterpret_cast<unsigned*>(cursor);
    cursor += align16(size_t(P) * n * 4);
    uint16_t* s_msg = reinterpret_cast<uint16_t*>(cursor); // thread t: s_msg[t * S + i]
    cursor += align16(size_t(P) * z * S * 2);
    int* s_bad = reinterpret_cast<int*>(cursor); // per codeword
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;
    cursor += align16(size_t(C) * 4 * 4);
    constexpr bool lean = MAXD <= 8; // (as the one-codeword kernel: every barrier, no layer words)
    uint32_t* s_layer = reinterpret_cast<uint32_t*>(cursor);
    if constexpr (!lean)
        copy_layer_words(tab.layer, s_layer, p.mb);

    const int pair = threadIdx.x / z, row = threadIdx.x - pair * z;
    const bool lane_used = pair < P;
    const int local0 = 2 * pair; // the pair's first codeword within the block
    unsigned* gamma = s_gamma + (lane_used ? size_t(pair) * n : 0);
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    const unsigned rb = unsigned(row) * 4u, rbz = rb - unsigned(z) * 4u; // bit_of
    uint16_t* mrow = s_msg + (lane_used ? size_t(threadIdx.x) * S : 0);
    const pair_fixed k(p.fx);

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw0 = group * C + local0;
        const bool active[2] = { lane_used && cw0 < p.frames, lane_used && cw0 + 1 < p.frames };

        // (the IEEE rate-1/2 codes' compiled layers leave the scatter out, as the layered kernel's)
        begin_group<lean ? 1 : 4, int16_t, 2, std::is_void_v<PROFILE>>(p, tab, soft,
                                                                      reinterpret_cast<int16_t*>(s_gamma), n, group,
                                                                      s_msg, align16(size_t(P) * z * S * 2), s_done,
                                                                      s_iters, HALF ? half_zero_messages : 0u);
        if constexpr (HALF) {
            convert_pair_words<true>(s_gamma, P * n);
            __syncthreads();
        }

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work[2] = { active[0] && !s_done[local0], active[1] && !s_done[local0 + 1] };
            // a codeword past the last frame is updated with its partner (its results are not
            // written); one that has stopped keeps its values
            const unsigned keep = (!active[0] || work[0] ? 0x0000ffffu : 0u) | (!active[1] || work[1] ? 0xffff0000u : 0u);
            // one row of D entries from table entry e0, its slots from `slot` on
            auto row_update = [&](auto deg, int e0, int slot) {
                constexpr int D = decltype(deg)::value;
                if constexpr (HALF) {
                    if (keep == ~0u)
                        pair_row_half<D, false, V>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                    else
                        pair_row_half<D, true, V>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                } else if (keep == ~0u) {
                    pair_row<D, false>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                } else {
                    pair_row<D, true>(gcw, mrow + slot, tab.entry + e0, rb, rbz, k, keep);
                }
            };
            if constexpr (!std::is_void_v<PROFILE>) {
                const bool any = work[0] || work[1];
                profile_layers<PROFILE, V>(
                    [&](auto deg, int e0, int slot) {
                        if (any)
                            row_update(deg, e0, slot);
                    },
                    [&](int l) {
                        if (lean || !layer_word{ tab.layer[l] }.free_next())
                            __syncthreads();
                    });
            } else {
                int slot = 0;
                uint32_t next = lean ? 0u : s_layer[0];
                for (int l = 0; l < p.mb; ++l) {
                    const layer_word lw{ next };
                    if constexpr (!lean)
                        next = s_layer[l + 1];
                    const int e0 = lean ? tab.layer_start[l] : lw.first();
                    const int d = lean ? tab.layer_start[l + 1] - e0 : lw.entries();
                    if (work[0] || work[1])
                        with_degree<MAXD>(d, [&](auto deg) { row_update(deg, e0, slot); });
                    slot += layer_slots(d, V);
                    if (lean || !lw.free_next())
                        __syncthreads();
                }
            }
            all_done = end_pair_iteration(p, it, work, active, lane_used, row == 0, local0, s_bad, s_done, s_iters, [&] {
                unsigned bad = 0;
                // (flagged_bad: `known` the codewords this thread need not look at any more, a
                // bit each: stopped, or a failing row found by some thread)
                unsigned known = (work[0] ? 0u : 1u) | (work[1] ? 0u : 2u);
                auto exchange = [&] {
                    for (int h = 0; h < 2; ++h) {
                        if (work[h] && (bad >> h & 1u))
                            flag_bad(s_bad, local0 + h);
                        if ((bad >> h & 1u) || flagged_bad(s_bad, local0 + h))
                            known |= 1u << h;
                    }
                };
                if constexpr (!std::is_void_v<PROFILE>) {
                    profile_layers<PROFILE, V>(
                        [&](auto deg, int e0, int) {
                            if (known != 3u)
                                bad |= pair_row_parity<decltype(deg)::value>(gcw, tab.entry + e0, rb, rbz);
                        },
                        [&](int l) {
                            if (l % 4 == 3)
                                exchange();
                        });
                } else {
                    for (int l = 0; l < p.mb && (bad | known) != 3u; ++l) {
                        if (l % 4 == 3)
                            exchange();
                        const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0;
                        with_degree<MAXD>(d, [&](auto deg) {
                            bad |= pair_row_parity<decltype(deg)::value>(gcw, tab.entry + e0, rb, rbz);
                        });
                    }
                }
                return bad;
            });
        }
        __syncthreads();
        if (HALF && p.want_post) { // (the hard bits read the sign bits, the same in both forms)
            convert_pair_words<false>(s_gamma, P * n);
            __syncthreads();
        }

        for (int h = 0; h < 2; ++h)
            if (active[h])
                write_results<int16_t, 2>(p, reinterpret_cast<const int16_t*>(gamma) + h, cw0 + h, row, z,
                                          s_iters[local0 + h], s_bad[local0 + h] != 0, out, results, posteriors);
    }
}

template <int MAXD, bool HALF, int V = 1>
__global__ void __launch_bounds__(pair_bounds<MAXD>::threads, pair_bounds<MAXD>::blocks)
    ldpc_pair_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                     uint8_t* __restrict__ out, frame_status* __restrict__ results, float* __restrict__ posteriors,
                     int* __restrict__ queue)
{
    pair_kernel_body<MAXD, HALF, V, void>(p, tab, soft, out, results, posteriors, queue);
}

/*! The half2 pair kernel with PROFILE's layers unrolled. Compiled for compute capability 9.0 on
 *  only (the engine takes the pair kernel there by default, and a profile only there), so that
 *  the older targets' builds do not pay for its unrolled code. */
template <class PROFILE, int V>
__global__ void __launch_bounds__(pair_bounds<profile_maxd<PROFILE>>::threads,
                                  pair_bounds<profile_maxd<PROFILE>>::blocks)
    ldpc_pair_profile_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                             uint8_t* __restrict__ out, frame_status* __restrict__ results,
                             float* __restrict__ posteriors, int* __restrict__ queue)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    pair_kernel_body<profile_maxd<PROFILE>, true, V, PROFILE>(p, tab, soft, out, results, posteriors, queue);
#else
    __trap(); // (never launched below 9.0)
#endif
}

template <bool HALF, int V>
kernel_fn pair_kernel_by_degree(int max_degree)
{
    return max_degree <= 8    ? ldpc_pair_kernel<8, HALF, V>
           : max_degree <= 16 ? ldpc_pair_kernel<16, HALF, V>
           : max_degree <= 24 ? ldpc_pair_kernel<24, HALF, V>
                              : ldpc_pair_kernel<32, HALF, V>;
}

//! the pair kernel whose rows are unrolled to at least max_degree entries, in half2 arithmetic
//! where `half` with `vector` message slots an access (1 or 4; the int16x2 form: 1)
inline kernel_fn pair_kernel_for(int max_degree, bool half, int vector)
{
    if (!half)
        return pair_kernel_by_degree<false, 1>(max_degree);
    return vector == 4 ? pair_kernel_by_degree<true, 4>(max_degree) : pair_kernel_by_degree<true, 1>(max_degree);
}

//! the half2 pair kernel of PROFILE's layers, `vector` slots an access
template <class PROFILE>
kernel_fn profile_pair_kernel(int vector)
{
    return vector == 4 ? ldpc_pair_profile_kernel<PROFILE, 4> : ldpc_pair_profile_kernel<PROFILE, 1>;
}

/*! The layer profiles the half2 pair kernel is compiled for: the rate-1/2 codes of 802.11n 1944
 *  and of 802.16e (every lifting size; the engine takes pairs from Z = 64 on, so 802.11n 1296 and
 *  648 and 802.16e up to 1440 bits decode one codeword a thread and would not use theirs). */
using profile_80211n_1944_half = layer_profile<7, 7, 7, 7, 7, 7, 8, 7, 7, 7, 7, 8>;
using profile_80216e_half = layer_profile<6, 7, 7, 6, 6, 7, 6, 6, 7, 6, 6, 6>;

//! the half2 pair kernel compiled for a code of these layer degrees, or null where none is
inline kernel_fn pair_kernel_for_profile(const std::vector<int>& degrees, int vector)
{
    if (profile_80211n_1944_half::matches(degrees))
        return profile_pair_kernel<profile_80211n_1944_half>(vector);
    if (profile_80216e_half::matches(degrees))
        return profile_pair_kernel<profile_80216e_half>(vector);
    return nullptr;
}

} // namespace
} // namespace gpufec

#endif
