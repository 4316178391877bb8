/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "simd_transpose.h"

#if defined(__x86_64__)
#include <immintrin.h>

namespace gpufec {

namespace {

//! 32 bytes sign-extended (NEGATE: negated) into 32 int16 at `to`
template <bool NEGATE>
__attribute__((target("avx512f,avx512bw"), always_inline)) inline void put_widened(i16x32* to, __m256i bytes)
{
    const __m512i w = _mm512_cvtepi8_epi16(bytes);
    _mm512_store_si512(reinterpret_cast<void*>(to), NEGATE ? _mm512_sub_epi16(_mm512_setzero_si512(), w) : w);
}

/* The transpose works within each 128-bit lane L of the 64-byte rows (bytes 16 L .. 16 L + 15),
 * which every unpack keeps apart: four stages of unpacks of pairs (bytes, words, doublewords,
 * quadwords) turn the 32 rows into 32 registers, register (u, t) holding in its lane L byte
 * 16 L + t of rows 16 u .. 16 u + 15, in row order (t = 8 h + 4 g + 2 f + e, where h, g, f, e
 * say hi or lo at stages 1 to 4). A quadword permute then puts the two halves of rows (u = 0,
 * 1) of one byte side by side: 32 bytes, sign-extended to 32 int16. */
template <bool NEGATE>
__attribute__((target("avx512f,avx512bw"))) void transpose_64x32_i16(const int8_t* const* from, size_t at, i16x32* out)
{
    __m512i a[32], b[32];
    for (int r = 0; r < 32; ++r)
        a[r] = _mm512_loadu_si512(from[r] + at);
    // stage 1, bytes: b[16 h + p] = rows 2p, 2p + 1 interleaved, bytes t = 8 h .. 8 h + 7
    for (int p = 0; p < 16; ++p) {
        b[p] = _mm512_unpacklo_epi8(a[2 * p], a[2 * p + 1]);
        b[16 + p] = _mm512_unpackhi_epi8(a[2 * p], a[2 * p + 1]);
    }
    // stage 2, words: a[16 h + 8 g + q] = rows 4q .. 4q + 3, bytes t = 8 h + 4 g ..
    for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 8; ++q) {
            a[16 * h + q] = _mm512_unpacklo_epi16(b[16 * h + 2 * q], b[16 * h + 2 * q + 1]);
            a[16 * h + 8 + q] = _mm512_unpackhi_epi16(b[16 * h + 2 * q], b[16 * h + 2 * q + 1]);
        }
    // stage 3, doublewords: b[8 (2h + g) + 4 f + s] = rows 8s .. 8s + 7, bytes t = 8 h + 4 g + 2 f ..
    for (int hg = 0; hg < 4; ++hg)
        for (int s = 0; s < 4; ++s) {
            b[8 * hg + s] = _mm512_unpacklo_epi32(a[8 * hg + 2 * s], a[8 * hg + 2 * s + 1]);
            b[8 * hg + 4 + s] = _mm512_unpackhi_epi32(a[8 * hg + 2 * s], a[8 * hg + 2 * s + 1]);
        }
    // stage 4, quadwords: a[2 t + u] = rows 16u .. 16u + 15, byte t of each lane
    for (int hgf = 0; hgf < 8; ++hgf)
        for (int u = 0; u < 2; ++u) {
            a[2 * (2 * hgf) + u] = _mm512_unpacklo_epi64(b[4 * hgf + 2 * u], b[4 * hgf + 2 * u + 1]);
            a[2 * (2 * hgf + 1) + u] = _mm512_unpackhi_epi64(b[4 * hgf + 2 * u], b[4 * hgf + 2 * u + 1]);
        }
    // the two row halves of byte 16 L + t side by side: L 0, 1 from one permute, 2, 3 from another
    const __m512i lanes01 = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    const __m512i lanes23 = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    for (int t = 0; t < 16; ++t) {
        const __m512i x = _mm512_permutex2var_epi64(a[2 * t], lanes01, a[2 * t + 1]);
        const __m512i y = _mm512_permutex2var_epi64(a[2 * t], lanes23, a[2 * t + 1]);
        put_widened<NEGATE>(out + t, _mm512_castsi512_si256(x));
        put_widened<NEGATE>(out + 16 + t, _mm512_extracti64x4_epi64(x, 1));
        put_widened<NEGATE>(out + 32 + t, _mm512_castsi512_si256(y));
        put_widened<NEGATE>(out + 48 + t, _mm512_extracti64x4_epi64(y, 1));
    }
}

} // namespace

void simd_transpose_64x32_i16(const int8_t* const* from, size_t at, i16x32* out, bool negate)
{
    if (negate)
        transpose_64x32_i16<true>(from, at, out);
    else
        transpose_64x32_i16<false>(from, at, out);
}

} // namespace gpufec

#endif
