/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The host side of span frames (span_frames.h): the basis, the AWGN level thresholds, the CPU
 * maker, and the GPU maker's stand-in where the library has no CUDA. */
#include "span_frames.h"
#include "philox_lanes.h"
#include "runtime/cpu_pool.h"
#include <gnuradio/gpufec/core/runtime/bits.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace gpufec {
namespace sim {

namespace {

uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

//! bits (one a byte) into a row of `words` words: pack_bits' bytes, zero padded
void pack_row(const uint8_t* bits, size_t nbits, uint32_t* row, size_t words)
{
    std::memset(row, 0, words * 4);
    pack_bits(bits, nbits, reinterpret_cast<uint8_t*>(row));
}

//! 2^64 p rounded, saturated (p in [0, 1])
uint64_t scaled_probability(long double p)
{
    const long double two64 = 18446744073709551616.0L;
    const long double x = std::round(p * two64);
    if (x <= 0)
        return 0;
    if (x >= two64)
        return std::numeric_limits<uint64_t>::max();
    return uint64_t(x);
}

} // namespace

span_key make_span_key(uint64_t seed, uint64_t point)
{
    const uint64_t h = mix64(mix64(seed + 0x9e3779b97f4a7c15ull) ^ (point * 0xd1b54a32d192ed03ull + 0x5851f42d4c957f2dull));
    return { uint32_t(h), uint32_t(h >> 32) };
}

std::optional<span_basis> make_span_basis(size_t k, size_t n, const span_encode_fn& encode, uint64_t seed)
{
    if (k == 0 || n == 0)
        throw std::invalid_argument("span frames: a code of no bits");
    span_basis b;
    b.k = k;
    b.n = n;
    b.info_words = (k + 31) / 32;
    b.code_words = (n + 31) / 32;
    b.info.assign(size_t(span_rows) * b.info_words, 0);
    b.code.assign(size_t(span_rows + 1) * b.code_words, 0);
    // the rows' bits from Philox under a key of the seed alone (point 2^64 - 1: no point's key)
    const span_key key = make_span_key(seed, ~uint64_t(0));
    auto random_info = [&](uint32_t row, uint32_t domain, std::vector<uint8_t>& u) {
        for (size_t i = 0; i < k; i += 128) {
            const philox4x32 r = philox4x32_10({ { uint32_t(i / 128), row, 0u, domain } }, key.k0, key.k1);
            for (size_t j = i; j < std::min(k, i + 128); ++j)
                u[j] = uint8_t(r.v[(j - i) / 32] >> ((j - i) % 32) & 1);
        }
    };
    std::vector<uint8_t> u(k, 0), c(n), c0(n);
    encode(u.data(), c0.data());
    pack_row(c0.data(), n, b.code.data() + size_t(span_rows) * b.code_words, b.code_words);
    for (int row = 0; row < span_rows; ++row) {
        random_info(uint32_t(row), 2, u);
        encode(u.data(), c.data());
        for (size_t j = 0; j < n; ++j)
            c[j] = uint8_t((c[j] ^ c0[j]) & 1);
        pack_row(u.data(), k, b.info.data() + size_t(row) * b.info_words, b.info_words);
        pack_row(c.data(), n, b.code.data() + size_t(row) * b.code_words, b.code_words);
    }
    // affine: a few random combinations, encoded, must be what the rows predict
    std::vector<uint32_t> got_info(b.info_words), got_code(b.code_words);
    for (uint32_t trial = 0; trial < 4; ++trial) {
        const philox4x32 r = philox4x32_10({ { 0u, trial, 0u, 3u } }, key.k0, key.k1);
        const uint64_t mask = r.v[0] | uint64_t(r.v[1]) << 32;
        std::vector<uint8_t> info_bytes(b.info_bytes());
        for (size_t w = 0; w < b.info_words; ++w) {
            const uint32_t x = span_row_word(b.info.data(), b.info_words, mask, w);
            std::memcpy(info_bytes.data() + 4 * w, &x, 4);
        }
        unpack_bits(info_bytes.data(), k, u.data());
        encode(u.data(), c.data());
        pack_row(c.data(), n, got_code.data(), b.code_words);
        for (size_t w = 0; w < b.code_words; ++w)
            if (got_code[w] != span_code_word(b.code.data(), b.code_words, mask, w))
                return std::nullopt;
    }
    return b;
}

awgn_levels make_awgn_levels(double sigma, double scale)
{
    if (!(sigma > 0) || !std::isfinite(sigma) || !(scale > 0))
        throw std::invalid_argument("span frames: the noise deviation and the scale must be positive");
    awgn_levels lv;
    for (int j = 0; j < 254; ++j) {
        // q <= j - 127 when scale (1 + sigma z) < j - 126.5, i.e. z < x
        const long double x = ((j - 126.5L) / scale - 1.0L) / sigma;
        // the smaller tail from erfc keeps its relative precision
        if (x < 0)
            lv.t[j] = scaled_probability(0.5L * std::erfc(-x / std::sqrt(2.0L)));
        else { // 2^64 minus the upper tail
            const uint64_t tail = scaled_probability(0.5L * std::erfc(x / std::sqrt(2.0L)));
            lv.t[j] = tail == 0 ? std::numeric_limits<uint64_t>::max() : std::numeric_limits<uint64_t>::max() - tail + 1;
        }
    }
    lv.t[254] = lv.t[255] = std::numeric_limits<uint64_t>::max();
    return lv;
}

awgn_index make_awgn_index(const awgn_levels& lv)
{
    awgn_index ix;
    int c = 0; // thresholds <= the range's first u
    for (uint64_t i = 0; i < 4096; ++i) {
        while (c < 254 && lv.t[c] <= i << 52)
            ++c;
        ix.start[i] = uint8_t(c);
    }
    return ix;
}

void make_span_frames_cpu(const span_basis& b, const awgn_levels& lv, span_key key, uint64_t first,
                          uint64_t count, const span_output& out)
{
    if (out.soft4 && b.n % 2)
        throw std::invalid_argument("span frames: packed 4-bit frames need an even number of values");
    const awgn_index ix = make_awgn_index(lv);
    auto level = [&](uint64_t u) { return awgn_level_indexed(lv.t, ix, u); };
    const philox_many_fn draws = pick_philox_many();
    constexpr size_t words_a_chunk = philox_lanes_max / 16; // a word's 32 values take 16 draws
    auto pool = get_cpu_pool(0);
    // a task: one frame (its mask drawn once); its draws made ahead in SIMD lanes, a chunk of
    // words at a time
    pool->parallel_for(int64_t(count), [&](int64_t fi, int) {
        const uint64_t f = uint64_t(fi), frame = first + f;
        const uint64_t mask = span_mask(key, frame);
        for (size_t iw = 0; iw < b.info_words; ++iw) {
            const uint32_t x = span_row_word(b.info.data(), b.info_words, mask, iw);
            std::memcpy(out.info + f * b.info_bytes() + 4 * iw, &x, 4);
        }
        int8_t* o8 = out.soft4 ? nullptr : out.soft8 + f * b.n;
        uint8_t* o4 = out.soft4 ? out.soft4 + f * (b.n / 2) : nullptr;
        uint32_t pairs[4][philox_lanes_max];
        for (size_t w0 = 0; w0 < b.code_words; w0 += words_a_chunk) {
            const size_t w1 = std::min(b.code_words, w0 + words_a_chunk), p0 = 16 * w0;
            const size_t np = std::min((b.n + 1) / 2, 16 * w1) - p0;
            draws(key, uint32_t(p0), uint32_t(frame), uint32_t(frame >> 32), 0u, np, pairs);
            auto draw = [&](uint64_t p) {
                const size_t i = size_t(p) - p0;
                return philox4x32{ { pairs[0][i], pairs[1][i], pairs[2][i], pairs[3][i] } };
            };
            for (size_t w = w0; w < w1; ++w) {
                const uint32_t bits = span_code_word(b.code.data(), b.code_words, mask, w);
                span_word_values(level, draw, bits, w, b.n,
                                 [&](size_t j, int v) { put_soft_value(o8, o4, j, v); });
            }
        }
    });
}

#if !defined(GPUFEC_HAVE_CUDA)
std::unique_ptr<span_maker_gpu> make_span_maker_gpu(int, const span_basis&, int)
{
    throw std::runtime_error("span frames on a GPU: this build of gr-gpufec has no CUDA");
}
#endif

} // namespace sim
} // namespace gpufec
