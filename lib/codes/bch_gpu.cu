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
 *    codeword's bytes, c_l(x), and divides it four bytes at a time by M_j(x), the minimal
 *    polynomial of alpha^j (a CRC of at most 16 bits: r <- r x^32 + four bytes, the parts from
 *    x^16 up reduced by four table reads), so that c_l(alpha^j) = r(alpha^j), evaluated once
 *    by two more tables (r's low and high byte). Each thread's part is then raised to its place
 *    by a constant of its own (syndrome_scales), each warp sums them by shuffles and the first
 *    warp sums the warps'. Most codewords end here, all syndromes zero. (Before: a warp a
 *    codeword, by Horner in the field itself, P <- P alpha^(8j) + byte(alpha^j), three table
 *    reads a byte and syndrome, and each part raised to its place through the log and antilog
 *    tables in global memory.)
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
 * Shared memory: 1536 words a syndrome (bch_table_words), per block; the Chien search
 * borrows them (64 words a term) and loads them again. */
#include "codes/bch_gpu.h"
#include "codes/gf2m_field.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"

#include <gnuradio/gpufec/core/frame/batch_decoder.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

namespace {

constexpr int bch_max_t = 16;
constexpr int bch_warps = 4;        // a block's warps, one codeword at a time
// a syndrome's tables of 256 words, where they start: v(alpha^j) and alpha^(8j) v(alpha^j) (a
// remainder's low and high byte evaluated), v(x) x^e mod M_j(x) for e = 16, 24, 32, 40 (a byte
// at x^e reduced)
constexpr int bch_low = 0, bch_high = 256, bch_x16 = 512, bch_x24 = 768, bch_x32 = 1024, bch_x40 = 1280;
constexpr int bch_table_words = 1536;

//! the bytes each of a block's threads takes of a codeword of nbytes (whole words of 4)
__host__ __device__ inline int bch_chunk(int nbytes)
{
    const int threads = 32 * bch_warps;
    return ((nbytes + threads - 1) / threads + 3) / 4 * 4;
}

struct bch_params {
    int m;
    uint32_t primitive;   // the field's polynomial, bit i the coefficient of x^i
    int size;             // 2^m - 1
    int t, n, nbytes, pad; // pad: 8 nbytes - n, the zero bits after the codeword's last
    const uint16_t* exp;  // alpha^i for i < 2 size (doubled: exp[log a + log b] needs no reduction)
    const uint16_t* log;  // log of 1 .. size (log[0] unused)
    const uint16_t* tables; // t syndromes' tables, bch_table_words each
    //! [l t + i]: thread l's part of syndrome 2i + 1 raised to its place, alpha^((2i + 1)(8 x the
    //! bytes after the thread's, less the padding bits)) (syndrome_scales)
    const uint16_t* scale;
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

/*! a b in GF(2^m) without tables: Horner over b's bits, each shift reduced by the field's
 *  polynomial (the locator test's products, which would otherwise each wait on a table read) */
__device__ __forceinline__ uint32_t gf_mul_bits(const bch_params& p, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
#pragma unroll
    for (int i = 15; i >= 0; --i)
        if (i < p.m) {
            r <<= 1;
            r ^= (r >> p.m) ? p.primitive : 0u;
            r ^= ((b >> i) & 1u) ? a : 0u;
        }
    return r;
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

//! the syndromes' tables into shared memory by the block (16 bytes a load: t * 1536 words)
__device__ __forceinline__ void load_syndrome_tables(const bch_params& p, uint16_t* s_tab)
{
    for (int i = threadIdx.x; i < p.t * bch_table_words / 8; i += blockDim.x)
        reinterpret_cast<uint4*>(s_tab)[i] = reinterpret_cast<const uint4*>(p.tables)[i];
}

__global__ void __launch_bounds__(32 * bch_warps)
    bch_kernel(bch_params p, uint8_t* __restrict__ packed, size_t stride, size_t frames,
               frame_status* __restrict__ status, int* __restrict__ corrected, uint8_t* __restrict__ message,
               size_t message_bytes)
{
    extern __shared__ __align__(16) uint16_t s_tab[]; // t * bch_table_words
    __shared__ uint16_t s_part[bch_warps][bch_max_t];  // each warp's part of the syndromes
    __shared__ uint16_t s_syndrome[2 * bch_max_t + 1]; // S_1 .. S_2t
    __shared__ uint16_t s_locator[2 * bch_max_t + 2];
    __shared__ int s_result, s_roots, s_root_at[bch_max_t + 1];
    load_syndrome_tables(p, s_tab);
    __syncthreads();

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, threads = 32 * bch_warps; // (syndrome_scales)
    for (size_t f = blockIdx.x; f < frames; f += gridDim.x) {
        uint8_t* cw = packed + f * stride;
        // the odd syndromes of this thread's bytes [a, b)
        const int chunk = bch_chunk(p.nbytes), a = min(int(threadIdx.x) * chunk, p.nbytes),
                  b = min(a + chunk, p.nbytes), words_end = a + (b - a) / 4 * 4;
        // (r: a polynomial of degree < 16 congruent to this thread's bytes mod M_j, not reduced
        // below M_j's degree, which a field of m < 16 bits has)
        uint32_t r[bch_max_t];
#pragma unroll
        for (int i = 0; i < bch_max_t; ++i)
            r[i] = 0;
        // four bytes a step (their polynomial b0 x^24 + b1 x^16 + b2 x^8 + b3): r x^32 takes two
        // table reads, the first two bytes two more that do not wait on r; then the last bytes
        // one at a time
#pragma unroll 2
        for (int k = a; k < words_end; k += 4) {
            const uint32_t b0 = cw[k], b1 = cw[k + 1], low = uint32_t(cw[k + 2]) << 8 | cw[k + 3];
#pragma unroll
            for (int i = 0; i < bch_max_t; ++i)
                if (i < p.t) {
                    const uint16_t* tab = s_tab + i * bch_table_words;
                    r[i] = tab[bch_x40 + (r[i] >> 8)] ^ tab[bch_x32 + (r[i] & 0xffu)] ^ tab[bch_x24 + b0] ^
                           tab[bch_x16 + b1] ^ low;
                }
        }
        for (int k = words_end; k < b; ++k) {
            const uint32_t v = cw[k];
#pragma unroll
            for (int i = 0; i < bch_max_t; ++i)
                if (i < p.t)
                    r[i] = (((r[i] & 0xffu) << 8) | v) ^ s_tab[i * bch_table_words + bch_x16 + (r[i] >> 8)];
        }
        // each part to its place (a product by a constant of the thread's, without the log and
        // antilog tables: twelve chains of two reads in global memory were most of the kernel's
        // time), summed over the warp and then over the block's warps
#pragma unroll
        for (int i = 0; i < bch_max_t; ++i)
            if (i < p.t) {
                const uint32_t part = s_tab[i * bch_table_words + bch_low + (r[i] & 0xffu)] ^
                                      s_tab[i * bch_table_words + bch_high + (r[i] >> 8)];
                uint16_t v = uint16_t(gf_mul_bits(p, part, p.scale[threadIdx.x * p.t + i]));
                for (int o = 16; o > 0; o >>= 1)
                    v ^= uint16_t(__shfl_xor_sync(0xffffffffu, v, o));
                if (lane == 0)
                    s_part[warp][i] = v;
            }
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
            // one to the next by four reads of tables in shared memory (the syndromes' tables'
            // place, loaded again after): term i's value v times alpha^-i is the sum of
            // N_iq[nibble q of v], q < 4, tables of 16 words in 8 banks, so that a warp's read
            // takes one wavefront (byte tables: about 3.5; the log and antilog tables in global
            // memory, as before: a round trip a position; performance-history.md).
            for (int x = threadIdx.x; x < L * 64; x += blockDim.x) {
                const int i = x / 64 + 1, q = (x / 16) % 4;
                const uint32_t v = uint32_t(x % 16) << (4 * q);
                s_tab[x] = uint16_t(gf_mul_bits(p, p.exp[p.size - i], v)); // (bits of v past m: 0)
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
                        const uint16_t* step = s_tab + (i - 1) * 64;
                        const uint32_t v = term[i];
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
            load_syndrome_tables(p, s_tab); // (the next codeword's syndromes read them after the barrier below)
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
        if (message)
            for (size_t i = threadIdx.x; i < message_bytes; i += blockDim.x)
                message[f * message_bytes + i] = cw[i];
    }
}

/*! bch_params::scale: for each of a block's threads l (its bytes [a, b) as bch_kernel takes
 *  them) and odd syndrome j = 2i + 1, alpha^(j (8 (nbytes - b) - pad)): the part's place in
 *  the codeword, its padding bits after the last taken off */
std::vector<uint16_t> syndrome_scales(const bch_code& code, const gf2m_field& gf)
{
    const int threads = 32 * bch_warps, nbytes = (code.n() + 7) / 8, pad = 8 * nbytes - code.n();
    const int chunk = bch_chunk(nbytes);
    std::vector<uint16_t> scale(size_t(threads) * size_t(code.t()));
    for (int l = 0; l < threads; ++l) {
        const int b = std::min(std::min(l * chunk, nbytes) + chunk, nbytes);
        for (int i = 0; i < code.t(); ++i)
            scale[size_t(l) * size_t(code.t()) + size_t(i)] =
                gf.pow_alpha((2LL * i + 1) * (8LL * (nbytes - b) - pad));
    }
    return scale;
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
        // each odd syndrome's tables (bch_table_words)
        std::vector<uint16_t> tables(size_t(code.t()) * bch_table_words, 0);
        for (int i = 0; i < code.t(); ++i) {
            const long long j = 2 * i + 1;
            const uint32_t mp = gf.minimal_polynomial(j);
            const int degree = gf2_degree(mp);
            uint16_t* tab = tables.data() + size_t(i) * bch_table_words;
            for (uint32_t v = 0; v < 256; ++v) {
                uint16_t x = 0;
                for (int bit = 0; bit < 8; ++bit)
                    if ((v >> bit) & 1)
                        x ^= gf.pow_alpha(j * bit);
                tab[bch_low + v] = x;
                tab[bch_high + v] = gf.mul(x, gf.pow_alpha(8 * j));
                const int at[4] = { bch_x16, bch_x24, bch_x32, bch_x40 };
                for (int e = 0; e < 4; ++e) { // v(x) x^(16 + 8e) mod M_j(x), bit by bit from the top
                    const int top = 23 + 8 * e;
                    uint64_t red = uint64_t(v) << (16 + 8 * e);
                    for (int bit = top; bit >= degree; --bit)
                        if ((red >> bit) & 1)
                            red ^= uint64_t(mp) << (bit - degree);
                    tab[at[e] + v] = uint16_t(red);
                }
            }
        }
        d_exp.assign(gf.exp);
        d_log.assign(gf.log);
        d_tables.assign(tables);
        d_p.m = code.m();
        d_p.primitive = code.primitive();
        d_p.size = gf.size;
        d_p.t = code.t();
        d_p.n = code.n();
        d_p.nbytes = (code.n() + 7) / 8;
        d_p.pad = 8 * d_p.nbytes - code.n();
        d_p.exp = d_exp.get();
        d_p.log = d_log.get();
        d_p.tables = d_tables.get();
        d_scale.assign(syndrome_scales(code, gf));
        d_p.scale = d_scale.get();
        d_smem = size_t(code.t()) * bch_table_words * sizeof(uint16_t);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
        d_grid_limit = prop.multiProcessorCount * 8;
    }

    void decode(uint8_t* packed, size_t stride, size_t frames, frame_status* status, int* corrected,
                void* stream, uint8_t* message, size_t message_bytes) const override
    {
        if (frames == 0)
            return;
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
    device_buffer<uint16_t> d_exp, d_log, d_tables, d_scale;
};

} // namespace

std::unique_ptr<bch_gpu> make_bch_gpu(const bch_code& code, int device)
{
    return std::make_unique<bch_gpu_impl>(code, device);
}

} // namespace gpufec
