/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/soft.h>
#include "soft4.h"

#include <algorithm>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpufec {

namespace {

// The one rounding rule: clamp (NaN fails every comparison and is caught by v == v), add half
// away from zero, truncate. The SSE2 path below does the same float operations in bulk, so both
// give identical results (checked in qa_runtime).
inline int8_t quantize_one(float x, float scale, size_t& nans)
{
    float v = x * scale;
    const bool is_num = v == v;
    nans += !is_num;
    v = v > 127.f ? 127.f : v;
    v = v < -127.f ? -127.f : v;
    v = is_num ? v : 0.f;
    v += v < 0.f ? -0.5f : 0.5f;
    return static_cast<int8_t>(static_cast<int>(v));
}

#if defined(__SSE2__)
inline __m128i quantize4(__m128 x, __m128 scale, __m128i& nan_lanes)
{
    const __m128 v0 = _mm_mul_ps(x, scale);
    const __m128 is_num = _mm_cmpeq_ps(v0, v0);
    nan_lanes = _mm_sub_epi32(nan_lanes, _mm_castps_si128(_mm_cmpneq_ps(v0, v0))); // +1 per NaN
    // max/min return their second operand for a NaN; the mask then makes it 0
    __m128 v = _mm_min_ps(_mm_max_ps(v0, _mm_set1_ps(-127.f)), _mm_set1_ps(127.f));
    v = _mm_and_ps(v, is_num);
    const __m128 half = _mm_or_ps(_mm_and_ps(v, _mm_set1_ps(-0.f)), _mm_set1_ps(0.5f));
    return _mm_cvttps_epi32(_mm_add_ps(v, half));
}

//! Sixteen values per step; returns how many were done (a multiple of 16).
size_t quantize_bulk(const float* in, int8_t* out, size_t n, float scale, size_t& nans)
{
    const __m128 s = _mm_set1_ps(scale);
    size_t i = 0;
    while (i + 16 <= n) {
        // the NaN count is kept per lane and folded every chunk, so it cannot overflow
        __m128i nan_lanes = _mm_setzero_si128();
        const size_t end = i + std::min<size_t>(n - i, size_t(1) << 24) / 16 * 16;
        for (; i < end; i += 16) {
            const __m128i q0 = quantize4(_mm_loadu_ps(in + i), s, nan_lanes);
            const __m128i q1 = quantize4(_mm_loadu_ps(in + i + 4), s, nan_lanes);
            const __m128i q2 = quantize4(_mm_loadu_ps(in + i + 8), s, nan_lanes);
            const __m128i q3 = quantize4(_mm_loadu_ps(in + i + 12), s, nan_lanes);
            const __m128i bytes =
                _mm_packs_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), bytes);
        }
        alignas(16) uint32_t lanes[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), nan_lanes);
        nans += size_t(lanes[0]) + lanes[1] + lanes[2] + lanes[3];
    }
    return i;
}
#else
size_t quantize_bulk(const float*, int8_t*, size_t, float, size_t&) { return 0; }
#endif

} // namespace

size_t quantize_soft(const float* in, int8_t* out, size_t n, float scale)
{
    size_t nans = 0;
    for (size_t i = quantize_bulk(in, out, n, scale, nans); i < n; ++i)
        out[i] = quantize_one(in[i], scale, nans);
    return nans;
}

void widen_soft(const int8_t* in, float* out, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = float(std::max<int8_t>(in[i], -127));
}

size_t sanitize_soft(const float* in, float* out, size_t n)
{
    size_t nans = 0;
    for (size_t i = 0; i < n; ++i) {
        const float v = in[i];
        if (std::isnan(v)) {
            out[i] = 0.f;
            ++nans;
        } else {
            out[i] = std::max(-1e30f, std::min(1e30f, v));
        }
    }
    return nans;
}

namespace {

inline uint8_t nibble_of(int8_t v)
{
    const int a = v < 0 ? -int(v) : int(v);
    const int q = std::min(7, (a + 8) >> 4);
    return uint8_t((v < 0 ? -q : q) & 0xf);
}

} // namespace

void pack_soft4(const int8_t* in, uint8_t* out, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        out[i / 2] = uint8_t(nibble_of(in[i]) | (nibble_of(in[i + 1]) << 4));
    if (n & 1)
        out[n / 2] = nibble_of(in[n - 1]);
}

size_t pack_soft4(const float* in, uint8_t* out, size_t n, float scale)
{
    // through int8 in chunks that stay in the cache
    constexpr size_t chunk = 4096;
    int8_t q[chunk];
    size_t nans = 0;
    for (size_t i = 0; i < n; i += chunk) {
        const size_t m = std::min(chunk, n - i);
        nans += quantize_soft(in + i, q, m, scale);
        pack_soft4(q, out + i / 2, m);
    }
    return nans;
}

void unpack_soft4(const uint8_t* in, int8_t* out, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = int8_t(soft4_value(in, int64_t(i)));
}

} // namespace gpufec
