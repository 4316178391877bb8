/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* BCH decoding on the GPU, the CPU decoder's algorithm (bch.cc) in the same decisions:
 * syndromes, Berlekamp-Massey, Chien search, a failure where the locator's degree exceeds t or
 * its roots in the shortened code are not as many as its degree.
 *
 * Parallel mapping: a block of four warps a codeword, blocks striding over the codewords.
 *  - Syndromes S_j, j odd (S_2i = S_i^2 for a binary code): thread l takes a 128th of the
 *    codeword's bytes, c_l(x), and divides it four bytes at a time by P_q(x) = M_j(x) M_j+2(x),
 *    the product of two syndromes' minimal polynomials (a CRC of at most 32 bits: r <- r x^32 +
 *    the next word, r x^32 reduced by eight reads of nibble tables, T_qk[v] = v x^(32 + 4k) mod
 *    P_q), so that c_l(alpha^j) = r(alpha^j), evaluated once by eight more nibble tables a
 *    syndrome. A warp's read of a 16-entry table is one wavefront (byte tables: about three, and
 *    one table a syndrome instead of a pair's). Each thread's part is then raised to its place
 *    by an exponent of its own (syndrome_places) through the log and antilog tables, each warp
 *    sums them by shuffles and the first warp sums the warps'. Most codewords end here, all
 *    syndromes zero.
 *  Where a syndrome is not zero (rare after a decoded LDPC frame; at the waterfall or within a
 *  few iterations, common):
 *  - the even syndromes, Berlekamp-Massey (warp_berlekamp_massey) and the test of the locator
 *    on the first warp; a locator of degree L without L distinct roots in the field fails
 *    here (the warp squares x m times modulo it: warp_splits_distinct), as the frames beyond t
 *    errors mostly do;
 *  - the Chien search by the block: thread l evaluates the locator at a 128th of the n
 *    positions, each term stepped by alpha^-i through four reads of tables in shared memory;
 *    roots are gathered there, thread 0 flips them if they are as many as the locator's
 *    degree.
 * Shared memory, per block: 128 words a pair of syndromes and 128 halfwords a syndrome (the
 * tables above), and the Chien search's 64 halfwords a term. */
#include "codes/bch_gpu.h"
#include "codes/gf2m_field.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"

#include <gnuradio/gpufec/core/frame/batch_decoder.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

namespace {

constexpr int bch_max_t = 16;
constexpr int bch_warps = 4;        // a block's warps, one codeword at a time
constexpr int bch_max_pairs = bch_max_t / 2;
// a pair's step tables: 8 nibbles of r, 16 words each; a syndrome's evaluation tables: 8
// nibbles of r, 16 halfwords each
constexpr int bch_step_words = 8 * 16, bch_eval_halves = 8 * 16;
static_assert(bch_step_words * 4 % 16 == 0 && bch_eval_halves * 2 % 16 == 0, "tables loaded 16 bytes at a time");

//! the bytes each of a block's threads takes of a codeword of nbytes (whole words of 4)
__host__ __device__ inline int bch_chunk(int nbytes)
{
    const int threads = 32 * bch_warps;
    return ((nbytes + threads - 1) / threads + 3) / 4 * 4;
}

struct bch_params {
    int m;
    int size;             // 2^m - 1
    int t, n, nbytes, pad; // pad: 8 nbytes - n, the zero bits after the codeword's last
    const uint16_t* exp;  // alpha^i for i < 2 size (doubled: exp[log a + log b] needs no reduction)
    const uint16_t* log;  // log of 1 .. size (log[0] unused)
    int pairs;            // (t + 1) / 2
    //! pairs x bch_step_words words, T_qk[v] = v x^(32 + 4k) mod P_q, then t x bch_eval_halves
    //! halfwords, E_ik[v] = (v x^(4k))(alpha^(2i + 1)) (bch_kernel's shared tables as they lie)
    const uint4* tables;
    int table_vectors;    // the tables' size in 16-byte units
    //! [16 l + i]: the exponent that raises thread l's part of syndrome 2i + 1 to its place,
    //! (2i + 1)(8 x the bytes after the thread's, less the padding bits) mod size (syndrome_places)
    const uint16_t* place;
};

__device__ __forceinline__ uint16_t gf_mul(const bch_params& p, uint16_t a, uint16_t b)
{
    return a && b ? p.exp[p.log[a] + p.log[b]] : uint16_t(0);
}
__device__ __forceinline__ uint16_t gf_div(const bch_params& p, uint16_t a, uint16_t b)
{
    return a ? p.exp[p.log[a] + p.size - p.log[b]] : uint16_t(0);
}
__device__ __forceinline__ int mod_size(const bch_params& p, long long e)
{
    return int(((e % p.size) + p.size) % p.size);
}

/*! gf2m_field::splits_distinct on the warp: whether the locator C (degree d, 2 <= d <= 16, in
 *  shared memory) has d distinct roots in the field, x^(2^m) = x mod C. Lane k < d holds the
 *  coefficient of x^k of r, starting from x; m times r <- r^2 mod C. The square's terms x^e
 *  from e = d up (e <= 2d - 2 < 32, on lane e) are reduced by the remainders R_e = x^e mod C,
 *  made once (lane k holds their coefficients of x^k, as logarithms): each lane adds the d - 1
 *  products of its own, which do not wait on each other, by the log and antilog tables. A
 *  locator that fails needs no Chien search. (Reduced one top term at a time, each step waits
 *  on the one before: the test was most of the kernel's time where frames are beyond t.) */
__device__ bool warp_splits_distinct(const bch_params& p, const uint16_t* C, int d, int lane)
{
    constexpr unsigned all = 0xffffffffu;
    // the monic locator's coefficients m_k = c_k / c_d: x^d = sum of m_k x^k mod C
    const uint32_t mk = lane < d ? gf_div(p, C[lane], C[d]) : 0u;
    // lr[j]: log of coefficient `lane` of R_(d + j), -1 for 0; R_d = the m_k, R_(e + 1) = x R_e mod C
    int lr[bch_max_t - 1];
    uint32_t rem = mk;
#pragma unroll
    for (int j = 0; j < bch_max_t - 1; ++j) {
        lr[j] = -1;
        if (j < d - 1) { // (d is the warp's: every lane shuffles)
            lr[j] = lane < d && rem ? int(p.log[rem]) : -1;
            const uint32_t top = __shfl_sync(all, rem, d - 1);
            const uint32_t up = __shfl_up_sync(all, rem, 1);
            rem = lane < d ? (lane ? up : 0u) ^ gf_mul(p, uint16_t(top), uint16_t(mk)) : 0u;
        }
    }
    uint32_t r = lane == 1 ? 1u : 0u; // x
    for (int step = 0; step < p.m; ++step) {
        // the square: r_i^2 on lane 2i, as its logarithm (-1: 0)
        const uint32_t ri = __shfl_sync(all, r, lane / 2);
        int lsq = -1;
        if (lane % 2 == 0 && lane / 2 < d && ri) {
            const int twice = 2 * int(p.log[ri]);
            lsq = twice >= p.size ? twice - p.size : twice;
        }
        uint32_t next = lane < d && lsq >= 0 ? p.exp[lsq] : 0u;
#pragma unroll
        for (int j = 0; j < bch_max_t - 1; ++j)
            if (j < d - 1) {
                const int le = __shfl_sync(all, lsq, d + j); // (the square's term x^(d + j))
                if (le >= 0 && lr[j] >= 0)
                    next ^= p.exp[le + lr[j]];
            }
        r = lane < d ? next : 0u;
    }
    return __all_sync(all, lane >= d || r == (lane == 1 ? 1u : 0u));
}

/*! Berlekamp-Massey over S[1 .. 2t] as bch.cc runs it, on the warp: the locator in C (C[0] =
 *  1, 2t + 2 coefficients), its linear complexity as the result in every lane, or -1 where the
 *  decoder fails (L > t, or degree != L). Lane l holds coefficients l and l + 32 of C and of B
 *  (t <= 16: at most 34); a step's discrepancy is the warp's sum of one product a lane, and
 *  C's update one product a lane, B's coefficients shuffled to their places. (On lane 0 alone,
 *  as bch.cc writes it, each step took its products one after the other, each waiting on log
 *  and antilog reads in global memory.) */
__device__ int warp_berlekamp_massey(const bch_params& p, const uint16_t* S, uint16_t* C, int lane)
{
    const int len = 2 * p.t + 2;
    uint16_t c0 = lane == 0 ? 1 : 0, c1 = 0, b0 = c0, b1 = 0; // C[lane], C[lane + 32], B[..]
    int L = 0, shift = 1;
    uint16_t b = 1;
    for (int r = 0; r < 2 * p.t; ++r) {
        // d = S[r + 1] + sum over 1 <= i <= L of C[i] S[r + 1 - i] (L <= r: S[1 ..])
        uint16_t d = lane >= 1 && lane <= L ? gf_mul(p, c0, S[r + 1 - lane]) : uint16_t(0);
        for (int o = 16; o > 0; o >>= 1)
            d ^= uint16_t(__shfl_xor_sync(0xffffffffu, d, o));
        d ^= S[r + 1];
        if (d == 0) {
            ++shift;
            continue;
        }
        const uint16_t coef = gf_div(p, d, b);
        const uint16_t t0 = c0, t1 = c1;
        // C[j] ^= coef B[j - shift] for shift <= j < len
        const int k0 = lane - shift, k1 = lane + 32 - shift;
        const uint16_t from0 = uint16_t(__shfl_sync(0xffffffffu, b0, k0 & 31)); // (k0 < 32)
        const uint16_t lo1 = uint16_t(__shfl_sync(0xffffffffu, b0, k1 & 31));
        const uint16_t hi1 = uint16_t(__shfl_sync(0xffffffffu, b1, k1 & 31));
        const uint16_t from1 = k1 >= 32 ? hi1 : lo1;
        if (k0 >= 0 && lane < len)
            c0 ^= gf_mul(p, coef, from0);
        if (k1 >= 0 && lane + 32 < len)
            c1 ^= gf_mul(p, coef, from1);
        if (2 * L <= r) {
            L = r + 1 - L;
            b0 = t0;
            b1 = t1;
            b = d;
            shift = 1;
        } else {
            ++shift;
        }
    }
    if (lane < len)
        C[lane] = c0;
    if (lane + 32 < len)
        C[lane + 32] = c1;
    const unsigned high = __ballot_sync(0xffffffffu, c1 != 0), low = __ballot_sync(0xffffffffu, c0 != 0);
    const int degree = high ? 63 - __clz(high) : low ? 31 - __clz(low) : 0;
    return L > p.t || degree != L ? -1 : L;
}

/*! The sum of tables[16 k + nibble k of v] over v's first `nibbles` nibbles: a linear map of v
 *  by tables of 16 entries, one a nibble (a warp's read of one: a wavefront). The syndromes'
 *  step r x^32 mod P_q and evaluation r(alpha^j) (8 nibbles of r) */
template <int nibbles, typename T>
__device__ __forceinline__ uint32_t nibble_map(const T* tables, uint32_t v)
{
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < nibbles; ++k)
        s ^= tables[16 * k + ((v >> (4 * k)) & 15u)];
    return s;
}

//! the codeword's four bytes at cw + k as a polynomial of degree < 32, the first byte highest
__device__ __forceinline__ uint32_t codeword_word(const uint8_t* cw, int k, bool aligned)
{
    if (aligned)
        return __byte_perm(*reinterpret_cast<const uint32_t*>(cw + k), 0u, 0x0123);
    return uint32_t(cw[k]) << 24 | uint32_t(cw[k + 1]) << 16 | uint32_t(cw[k + 2]) << 8 | cw[k + 3];
}

/*! One step of a warp's sum of 2h values a lane by halves: lanes with bit 2h of their index set
 *  keep values h .. 2h - 1, the others 0 .. h - 1, each adding its partner's copy (one shuffle a
 *  value kept), in v[0 .. h - 1] */
template <int h>
__device__ __forceinline__ void warp_halve(uint32_t* v, int lane)
{
    const bool upper = lane & (2 * h);
#pragma unroll
    for (int k = 0; k < h; ++k) {
        const uint32_t send = upper ? v[k] : v[k + h], keep = upper ? v[k + h] : v[k];
        v[k] = keep ^ __shfl_xor_sync(0xffffffffu, send, 2 * h);
    }
}

// (64 registers at most, the form measured on the H200; __launch_bounds__(128) alone gives 40,
// with which one form ran its Chien search 4 % slower)
__global__ void __maxnreg__(64)
    bch_kernel(bch_params p, uint8_t* __restrict__ packed, size_t stride, size_t frames,
               frame_status* __restrict__ status, int* __restrict__ corrected, uint8_t* __restrict__ message,
               size_t message_bytes)
{
    extern __shared__ __align__(16) uint32_t s_step[]; // pairs * bch_step_words, then s_eval
    uint16_t* s_eval = reinterpret_cast<uint16_t*>(s_step + p.pairs * bch_step_words); // t * bch_eval_halves
    __shared__ uint16_t s_chien[bch_max_t * 64];        // the Chien search's step tables
    __shared__ uint16_t s_part[bch_warps][bch_max_t];  // each warp's part of the syndromes
    __shared__ uint16_t s_syndrome[2 * bch_max_t + 1]; // S_1 .. S_2t
    __shared__ uint16_t s_locator[2 * bch_max_t + 2];
    __shared__ int s_result, s_roots, s_root_at[bch_max_t + 1];
    for (int i = threadIdx.x; i < p.table_vectors; i += blockDim.x)
        reinterpret_cast<uint4*>(s_step)[i] = p.tables[i];
    __syncthreads();

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, threads = 32 * bch_warps; // (syndrome_places)
    // whole words where every codeword starts on one (a thread's bytes start on one: bch_chunk)
    const bool aligned = (reinterpret_cast<uintptr_t>(packed) | stride) % 4 == 0;
    for (size_t f = blockIdx.x; f < frames; f += gridDim.x) {
        uint8_t* cw = packed + f * stride;
        // the odd syndromes of this thread's bytes [a, b)
        const int chunk = bch_chunk(p.nbytes), a = min(int(threadIdx.x) * chunk, p.nbytes),
                  b = min(a + chunk, p.nbytes), words_end = a + (b - a) / 4 * 4;
        // (r: a polynomial of degree < 32 congruent to this thread's bytes mod P_q, not reduced
        // below P_q's degree)
        uint32_t r[bch_max_pairs];
#pragma unroll
        for (int q = 0; q < bch_max_pairs; ++q)
            r[q] = 0;
        // eight words loaded before any is used (one round trip to memory, not eight)
        for (int k0 = a; k0 < words_end; k0 += 32) {
            uint32_t w[8];
#pragma unroll
            for (int u = 0; u < 8; ++u)
                w[u] = k0 + 4 * u < words_end ? codeword_word(cw, k0 + 4 * u, aligned) : 0u;
#pragma unroll
            for (int u = 0; u < 8; ++u)
                if (k0 + 4 * u < words_end) {
#pragma unroll
                    for (int q = 0; q < bch_max_pairs; ++q)
                        if (q < p.pairs)
                            r[q] = nibble_map<8>(s_step + q * bch_step_words, r[q]) ^ w[u];
                }
        }
        // the last bytes one at a time: r x^8 + v, r's top byte (nibbles 6 and 7) reduced as
        // x^32 and x^36 by the first two tables
        for (int k = words_end; k < b; ++k) {
            const uint32_t v = cw[k];
#pragma unroll
            for (int q = 0; q < bch_max_pairs; ++q)
                if (q < p.pairs) {
                    const uint32_t* T = s_step + q * bch_step_words;
                    r[q] = (r[q] << 8 | v) ^ T[(r[q] >> 24) & 15u] ^ T[16 + (r[q] >> 28)];
                }
        }
        // each part evaluated and raised to its place: its log plus the thread's exponent, all
        // syndromes' reads issued together (a product by bits had taken 45 % of the kernel's
        // stall samples; the reads a syndrome at a time, a round trip each, about as much)
        uint32_t v[bch_max_t], e[bch_max_t];
#pragma unroll
        for (int i = 0; i < bch_max_t; ++i)
            v[i] = i < p.t ? nibble_map<8>(s_eval + i * bch_eval_halves, r[i / 2]) : 0u;
#pragma unroll
        for (int i = 0; i < bch_max_t; ++i) // (log[0] and the places past t: read, not used)
            e[i] = uint32_t(p.log[v[i]]) + p.place[threadIdx.x * bch_max_t + i];
#pragma unroll
        for (int i = 0; i < bch_max_t; ++i)
            v[i] = v[i] ? uint32_t(p.exp[e[i]]) : 0u;
        // summed over the warp by halves: each exchange sends the half of the values the lane
        // does not keep (8 + 4 + 2 + 1 + 1 shuffles, not 5 a syndrome), so lane l ends with
        // syndrome l / 2's sum; then the first warp sums the warps'
        warp_halve<8>(v, lane);
        warp_halve<4>(v, lane);
        warp_halve<2>(v, lane);
        warp_halve<1>(v, lane);
        v[0] ^= __shfl_xor_sync(0xffffffffu, v[0], 1);
        if (lane % 2 == 0 && lane / 2 < p.t)
            s_part[warp][lane / 2] = uint16_t(v[0]);
        __syncthreads();
        if (warp == 0) { // (the locator on one warp: most codewords end at their syndromes)
            bool any = false;
            if (lane < p.t) {
                uint16_t v = 0;
                for (int w = 0; w < threads / 32; ++w)
                    v ^= s_part[w][lane];
                s_syndrome[2 * lane + 1] = v;
                any = v != 0;
            }
            int L = 0;
            if (__any_sync(0xffffffffu, any)) {
                __syncwarp();
                // S_j for even j = 2^k o: S_o^(2^k) (a binary code's), a lane each
                const int j = lane + 1;
                if (j <= 2 * p.t && j % 2 == 0) {
                    const int k = __ffs(j) - 1;
                    const uint16_t so = s_syndrome[j >> k];
                    s_syndrome[j] = so ? p.exp[mod_size(p, (long long)p.log[so] << k)] : uint16_t(0);
                }
                __syncwarp();
                L = warp_berlekamp_massey(p, s_syndrome, s_locator, lane);
                __syncwarp();
                if (L > 1 && !warp_splits_distinct(p, s_locator, L, lane))
                    L = -1; // fewer than L roots in the field, so fewer among the n positions
            }
            if (lane == 0) {
                s_result = L;
                s_roots = 0;
            }
        }
        __syncthreads();
        int L = s_result;
        if (L > 0) {
            // Chien search by the block: position e (bit n-1-e) is wrong where C(alpha^-e) = 0.
            // Thread l takes a 128th of the positions, term i of C stepping by alpha^-i from
            // one to the next by four reads of tables in shared memory: term i's value v times
            // alpha^-i is the sum of N_iq[nibble q of v], q < 4, tables of 16 halfwords in 8
            // banks, so that a warp's read takes one wavefront (byte tables: about 3.5; the log
            // and antilog tables in global memory: a round trip a position;
            // performance-history.md).
            for (int x = threadIdx.x; x < L * 64; x += blockDim.x) {
                const int i = x / 64 + 1, q = (x / 16) % 4;
                const uint32_t v = uint32_t(x % 16) << (4 * q);
                // (v's bits past m dropped: a field element, N_iq's entries of them zero)
                s_chien[x] = gf_mul(p, p.exp[p.size - i], uint16_t(v & ((1u << p.m) - 1u)));
            }
            const int per = (p.n + threads - 1) / threads, e0 = min(int(threadIdx.x) * per, p.n),
                      e1 = min(e0 + per, p.n);
            uint32_t term[bch_max_t + 1]; // C_i alpha^(-i e) at this thread's position e
#pragma unroll
            for (int i = 0; i <= bch_max_t; ++i) {
                const uint16_t c = i <= L ? s_locator[i] : uint16_t(0);
                term[i] = c ? p.exp[mod_size(p, (long long)p.log[c] - (long long)i * e0)] : 0u;
            }
            __syncthreads();
            for (int e = e0; e < e1; ++e) {
                uint32_t sum = term[0];
#pragma unroll
                for (int i = 1; i <= bch_max_t; ++i)
                    if (i <= L) {
                        sum ^= term[i];
                        const uint16_t* step = s_chien + (i - 1) * 64;
                        const uint32_t v = term[i]; // (< 2^16: no mask on its top nibble)
                        term[i] = step[v & 15u] ^ step[16 + ((v >> 4) & 15u)] ^ step[32 + ((v >> 8) & 15u)] ^
                                  step[48 + (v >> 12)];
                    }
                if (sum == 0) {
                    const int at = atomicAdd(&s_roots, 1);
                    if (at <= bch_max_t)
                        s_root_at[at] = p.n - 1 - e;
                }
            }
            __syncthreads();
            if (threadIdx.x == 0) {
                if (s_roots != L)
                    L = -1; // roots outside the shortened code: more errors than t
                else
                    for (int q = 0; q < L; ++q) {
                        const int bit = s_root_at[q];
                        cw[bit / 8] ^= uint8_t(0x80u >> (bit % 8));
                    }
            }
        }
        if (threadIdx.x == 0) {
            if (status) {
                status[f].inner = status[f].check;
                status[f].check = int8_t(L >= 0);
            }
            if (corrected)
                corrected[f] = L;
        }
        __syncthreads(); // (s_part, s_result and s_roots are the next codeword's; the word corrected)
        if (message) { // (eight bytes a thread loaded before any is stored: a round trip for eight)
            uint8_t* out = message + f * message_bytes;
            const int bytes = int(message_bytes); // (< nbytes)
            for (int i0 = threadIdx.x; i0 < bytes; i0 += 8 * threads) {
                uint8_t v[8];
#pragma unroll
                for (int u = 0; u < 8; ++u)
                    v[u] = i0 + u * threads < bytes ? cw[i0 + u * threads] : uint8_t(0);
#pragma unroll
                for (int u = 0; u < 8; ++u)
                    if (i0 + u * threads < bytes)
                        out[i0 + u * threads] = v[u];
            }
        }
    }
}

/*! bch_params::place: for each of a block's threads l (its bytes [a, b) as bch_kernel takes
 *  them) and odd syndrome j = 2i + 1, j (8 (nbytes - b) - pad) mod size: the exponent of the
 *  part's place in the codeword, its padding bits after the last taken off */
std::vector<uint16_t> syndrome_places(const bch_code& code, const gf2m_field& gf)
{
    const int threads = 32 * bch_warps, nbytes = (code.n() + 7) / 8, pad = 8 * nbytes - code.n();
    const int chunk = bch_chunk(nbytes);
    std::vector<uint16_t> place(size_t(threads) * bch_max_t, 0); // (bch_max_t a thread: read whole)
    for (int l = 0; l < threads; ++l) {
        const int b = std::min(std::min(l * chunk, nbytes) + chunk, nbytes);
        for (int i = 0; i < code.t(); ++i) {
            const long long e = (2LL * i + 1) * (8LL * (nbytes - b) - pad);
            place[size_t(l) * bch_max_t + size_t(i)] = uint16_t(((e % gf.size) + gf.size) % gf.size);
        }
    }
    return place;
}

class bch_gpu_impl : public bch_gpu
{
public:
    bch_gpu_impl(const bch_code& code, int device) : d_device(device)
    {
        if (code.t() > bch_max_t)
            throw std::invalid_argument("the GPU BCH decoder corrects up to " + std::to_string(bch_max_t) +
                                        " errors; " + code.describe() + " asks for " + std::to_string(code.t()));
        device_guard guard(device);
        const gf2m_field gf(code.m(), code.primitive());
        // the pairs' step tables and the syndromes' evaluation tables (bch_params)
        const int pairs = (code.t() + 1) / 2;
        std::vector<uint32_t> step(size_t(pairs) * bch_step_words);
        for (int q = 0; q < pairs; ++q) {
            // P_q = M_j M_(j + 2), j = 4q + 1 (the last alone where t is odd): degree <= 2m <= 32
            const uint64_t low = gf.minimal_polynomial(4LL * q + 1);
            const uint64_t high = 2 * q + 1 < code.t() ? gf.minimal_polynomial(4LL * q + 3) : 1u;
            uint64_t P = 0;
            for (int bit = 0; bit < 32; ++bit)
                if ((high >> bit) & 1)
                    P ^= low << bit;
            int degree = 63;
            while (!((P >> degree) & 1))
                --degree;
            for (int k = 0; k < 8; ++k)
                for (uint64_t v = 0; v < 16; ++v) { // v x^(32 + 4k) mod P, bit by bit from the top
                    uint64_t red = v << (32 + 4 * k);
                    for (int bit = 35 + 4 * k; bit >= degree; --bit)
                        if ((red >> bit) & 1)
                            red ^= P << (bit - degree);
                    step[size_t(q) * bch_step_words + size_t(16 * k) + size_t(v)] = uint32_t(red);
                }
        }
        std::vector<uint16_t> eval(size_t(code.t()) * bch_eval_halves);
        for (int i = 0; i < code.t(); ++i)
            for (int k = 0; k < 8; ++k)
                for (int v = 0; v < 16; ++v) { // (v x^(4k))(alpha^j), j = 2i + 1
                    uint16_t x = 0;
                    for (int bit = 0; bit < 4; ++bit)
                        if ((v >> bit) & 1)
                            x ^= gf.pow_alpha((2LL * i + 1) * (4 * k + bit));
                    eval[size_t(i) * bch_eval_halves + size_t(16 * k + v)] = x;
                }
        d_exp.assign(gf.exp);
        d_log.assign(gf.log);
        // one buffer as the kernel's shared memory holds them: the step tables, then the
        // evaluation tables (each a whole number of 16-byte units)
        std::vector<uint4> tables((step.size() * sizeof(uint32_t) + eval.size() * sizeof(uint16_t)) / sizeof(uint4));
        std::memcpy(tables.data(), step.data(), step.size() * sizeof(uint32_t));
        std::memcpy(reinterpret_cast<uint8_t*>(tables.data()) + step.size() * sizeof(uint32_t), eval.data(),
                    eval.size() * sizeof(uint16_t));
        d_tables.assign(tables);
        d_p.m = code.m();
        d_p.size = gf.size;
        d_p.t = code.t();
        d_p.n = code.n();
        d_p.nbytes = (code.n() + 7) / 8;
        d_p.pad = 8 * d_p.nbytes - code.n();
        d_p.exp = d_exp.get();
        d_p.log = d_log.get();
        d_p.pairs = pairs;
        d_p.tables = d_tables.get();
        d_p.table_vectors = int(tables.size());
        d_place.assign(syndrome_places(code, gf));
        d_p.place = d_place.get();
        d_smem = tables.size() * sizeof(uint4);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
        d_grid_limit = prop.multiProcessorCount * 8;
    }

    void decode(uint8_t* packed, size_t stride, size_t frames, frame_status* status, int* corrected,
                void* stream, uint8_t* message, size_t message_bytes) const override
    {
        if (frames == 0)
            return;
        if (message && message_bytes > size_t(d_p.nbytes))
            throw std::invalid_argument("BCH on the GPU: a message of " + std::to_string(message_bytes) +
                                        " bytes out of codewords of " + std::to_string(d_p.nbytes));
        device_guard guard(d_device);
        const size_t blocks = std::min(frames, size_t(d_grid_limit));
        bch_kernel<<<unsigned(blocks), 32 * bch_warps, d_smem, static_cast<cudaStream_t>(stream)>>>(
            d_p, packed, stride, frames, status, corrected, message, message_bytes);
        GPUFEC_CUDA_CHECK_LAUNCH("bch_kernel");
    }

    void decode_host(uint8_t* packed, size_t stride, size_t frames, int* corrected) const override
    {
        if (frames == 0)
            return;
        device_guard guard(d_device);
        device_buffer<uint8_t> words(frames * stride);
        device_buffer<int> count(frames);
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(words.get(), packed, frames * stride, cudaMemcpyHostToDevice, st.get()));
        decode(words.get(), stride, frames, nullptr, count.get(), st.get(), nullptr, 0);
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(packed, words.get(), frames * stride, cudaMemcpyDeviceToHost, st.get()));
        GPUFEC_CUDA_CHECK(
            cudaMemcpyAsync(corrected, count.get(), frames * sizeof(int), cudaMemcpyDeviceToHost, st.get()));
        st.sync();
    }

private:
    int d_device;
    bch_params d_p{};
    size_t d_smem = 0;
    int d_grid_limit = 1;
    device_buffer<uint16_t> d_exp, d_log, d_place;
    device_buffer<uint4> d_tables;
};

} // namespace

std::unique_ptr<bch_gpu> make_bch_gpu(const bch_code& code, int device)
{
    return std::make_unique<bch_gpu_impl>(code, device);
}

} // namespace gpufec
