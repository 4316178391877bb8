/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "rs_cpu.h"

#include "codes/gf2m_field.h"

#include <algorithm>
#include <array>
#include <cstring>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace gpufec {

namespace {

constexpr int roots_a_pass = 8; // accumulators held in registers while the words stream by

/* Horner over the symbols, a codeword a byte lane: acc_j = acc_j * root_j + word_i for the
 * roots of one pass. acc * root is lo_j[acc & 15] ^ hi_j[acc >> 4] (GF(2^8) multiplication by
 * a constant is linear over GF(2), so it splits over the two nibbles), one byte shuffle each. */
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,avx512bw"))) void syndromes_avx512(const uint8_t* words, int first, int passes,
                                                                  const uint8_t* lo, const uint8_t* hi, uint8_t* S)
{
    constexpr int L = 64;
    const __m512i nib = _mm512_set1_epi8(0x0f);
    for (int pass = 0; pass < passes; ++pass) {
        __m512i tl[roots_a_pass], th[roots_a_pass], acc[roots_a_pass];
        for (int r = 0; r < roots_a_pass; ++r) {
            const int j = pass * roots_a_pass + r;
            tl[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo + 16 * j)));
            th[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(hi + 16 * j)));
            acc[r] = _mm512_setzero_si512();
        }
        for (int i = first; i < 255; ++i) {
            const __m512i x = _mm512_loadu_si512(words + size_t(i) * L);
            for (int r = 0; r < roots_a_pass; ++r) {
                const __m512i a = acc[r];
                const __m512i p = _mm512_xor_si512(_mm512_shuffle_epi8(tl[r], _mm512_and_si512(a, nib)),
                                                   _mm512_shuffle_epi8(th[r], _mm512_and_si512(_mm512_srli_epi16(a, 4), nib)));
                acc[r] = _mm512_xor_si512(p, x);
            }
        }
        for (int r = 0; r < roots_a_pass; ++r)
            _mm512_storeu_si512(S + size_t(pass * roots_a_pass + r) * L, acc[r]);
    }
}

__attribute__((target("avx2"))) void syndromes_avx2(const uint8_t* words, int first, int passes, const uint8_t* lo,
                                                    const uint8_t* hi, uint8_t* S)
{
    constexpr int L = 32;
    const __m256i nib = _mm256_set1_epi8(0x0f);
    for (int pass = 0; pass < passes; ++pass) {
        __m256i tl[roots_a_pass], th[roots_a_pass], acc[roots_a_pass];
        for (int r = 0; r < roots_a_pass; ++r) {
            const int j = pass * roots_a_pass + r;
            tl[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo + 16 * j)));
            th[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(hi + 16 * j)));
            acc[r] = _mm256_setzero_si256();
        }
        for (int i = first; i < 255; ++i) {
            const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + size_t(i) * L));
            for (int r = 0; r < roots_a_pass; ++r) {
                const __m256i a = acc[r];
                const __m256i p = _mm256_xor_si256(_mm256_shuffle_epi8(tl[r], _mm256_and_si256(a, nib)),
                                                   _mm256_shuffle_epi8(th[r], _mm256_and_si256(_mm256_srli_epi16(a, 4), nib)));
                acc[r] = _mm256_xor_si256(p, x);
            }
        }
        for (int r = 0; r < roots_a_pass; ++r)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(S + size_t(pass * roots_a_pass + r) * L), acc[r]);
    }
}
#endif

//! the same with plain bytes (any processor), 16 lanes
void syndromes_baseline(const uint8_t* words, int first, int passes, const uint8_t* lo, const uint8_t* hi, uint8_t* S)
{
    constexpr int L = 16;
    for (int j = 0; j < passes * roots_a_pass; ++j)
        for (int l = 0; l < L; ++l) {
            uint8_t a = 0;
            for (int i = first; i < 255; ++i)
                a = uint8_t(lo[16 * j + (a & 15)] ^ hi[16 * j + (a >> 4)] ^ words[size_t(i) * L + l]);
            S[size_t(j) * L + l] = a;
        }
}

int lanes_of(simd_isa isa)
{
#if defined(__x86_64__) || defined(__i386__)
    return isa == simd_isa::avx512 ? 64 : isa == simd_isa::avx2 ? 32 : 16;
#else
    (void)isa;
    return 16;
#endif
}

} // namespace

rs_cpu_decoder::rs_cpu_decoder(const rs_code& code)
    : d_code(code), d_solver(code), d_isa(detect_simd_isa()), d_lanes(lanes_of(d_isa))
{
    const int passes = (code.nroots + roots_a_pass - 1) / roots_a_pass;
    d_lo.assign(size_t(passes) * roots_a_pass * 16, 0); // (roots past nroots: zero tables, unused)
    d_hi.assign(d_lo.size(), 0);
    // each root's products by the 16 values of a nibble, low and high
    const gf2m_field gf(8, uint32_t(code.gfpoly));
    auto mul = [&](uint8_t a, uint8_t b) { return uint8_t(gf.mul(a, b)); };
    for (int j = 0; j < code.nroots; ++j) {
        const uint8_t rt = d_solver.root(j);
        for (int v = 0; v < 16; ++v) {
            d_lo[size_t(16 * j + v)] = mul(rt, uint8_t(v));
            d_hi[size_t(16 * j + v)] = mul(rt, uint8_t(v << 4));
        }
    }
    d_words.assign(size_t(255) * size_t(d_lanes), 0);
    d_syn.assign(size_t(passes) * roots_a_pass * size_t(d_lanes), 0);
    d_from.resize(256);
    d_to.resize(256);
    for (int x = 0; x < 256; ++x) {
        d_from[size_t(x)] = code.dual_basis ? rs_ccsds_from_dual(uint8_t(x)) : uint8_t(x);
        d_to[size_t(x)] = code.dual_basis ? rs_ccsds_to_dual(uint8_t(x)) : uint8_t(x);
    }
    d_eras.reserve(size_t(code.n()));
}

std::string rs_cpu_decoder::name() const
{
    return "cpu (" + std::to_string(d_lanes) + " lanes " + simd_isa_name(d_isa) + ")";
}

void rs_cpu_decoder::decode_blocks(const uint8_t* blocks, size_t nblocks, uint8_t* info, int* result,
                                   const uint8_t* erased)
{
    const int I = d_code.interleave, n = d_code.n(), k = d_code.k(), V = d_code.virtual_fill, R = d_code.nroots;
    const int L = d_lanes, passes = (R + roots_a_pass - 1) / roots_a_pass;
    const size_t bb = d_code.block_bytes(), ib = d_code.info_bytes();
    const size_t total = nblocks * size_t(I);
    const uint8_t* from = d_from.data();
    const uint8_t* to = d_to.data();
    std::array<uint8_t, 255> r{};
    std::array<uint8_t, 128> S{};
    for (size_t c0 = 0; c0 < total; c0 += size_t(L)) {
        const int used = int(std::min<size_t>(size_t(L), total - c0));
        // the group's words, a codeword a lane, in the conventional basis (rows V .. 254)
        for (int l = 0; l < L; ++l) {
            const size_t c = c0 + size_t(std::min(l, used - 1)); // (spare lanes repeat the last)
            const uint8_t* src = blocks + (c / size_t(I)) * bb + c % size_t(I);
            for (int s = 0; s < n; ++s)
                d_words[size_t(V + s) * size_t(L) + size_t(l)] = from[src[size_t(s) * size_t(I)]];
        }
#if defined(__x86_64__) || defined(__i386__)
        if (d_isa == simd_isa::avx512)
            syndromes_avx512(d_words.data(), V, passes, d_lo.data(), d_hi.data(), d_syn.data());
        else if (d_isa == simd_isa::avx2)
            syndromes_avx2(d_words.data(), V, passes, d_lo.data(), d_hi.data(), d_syn.data());
        else
#endif
            syndromes_baseline(d_words.data(), V, passes, d_lo.data(), d_hi.data(), d_syn.data());
        for (int l = 0; l < used; ++l) {
            const size_t c = c0 + size_t(l), b = c / size_t(I), j = c % size_t(I);
            const uint8_t* src = blocks + b * bb + j;
            uint8_t* dst = info + b * ib + j;
            bool clean = true;
            for (int q = 0; q < R; ++q) {
                S[size_t(q)] = d_syn[size_t(q) * size_t(L) + size_t(l)];
                clean = clean && S[size_t(q)] == 0;
            }
            d_eras.clear();
            if (erased)
                for (int s = 0; s < n; ++s)
                    if (erased[b * bb + size_t(s) * size_t(I) + j])
                        d_eras.push_back(s);
            int got = 0;
            if (int(d_eras.size()) > R) {
                got = -1; // (more erasures than check symbols: nothing to solve)
            } else if (!clean) {
                std::fill(r.begin(), r.begin() + V, 0);
                for (int s = 0; s < n; ++s)
                    r[size_t(V + s)] = d_words[size_t(V + s) * size_t(L) + size_t(l)];
                got = d_solver.decode_from_syndromes(r.data(), S.data(), d_eras.data(), int(d_eras.size()));
            }
            result[c] = got;
            for (int s = 0; s < k; ++s)
                dst[size_t(s) * size_t(I)] = got > 0 ? to[r[size_t(V + s)]] : src[size_t(s) * size_t(I)];
        }
    }
}

} // namespace gpufec
