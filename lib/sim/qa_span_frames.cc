/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Span frames: Philox against its published answers, the AWGN levels against quantize_soft of
 * Gaussian noise drawn another way, the frames against the family's encoder, and the GPU maker
 * against the CPU one. */
#include "sim/philox_lanes.h"
#include "sim/span_frames.h"
#include "testing/test_util.h"

#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>

#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace gpufec::sim {
namespace {

TEST(SpanFrames, PhiloxKnownAnswers)
{
    // Random123's kat_vectors: counter, key, result
    struct kat {
        philox4x32 c;
        uint32_t k0, k1;
        philox4x32 want;
    };
    const kat cases[] = {
        { { { 0, 0, 0, 0 } }, 0, 0, { { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } } },
        { { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff } }, 0xffffffff, 0xffffffff,
          { { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } } },
        { { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 } }, 0xa4093822, 0x299f31d0,
          { { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } } },
    };
    for (const auto& c : cases) {
        const philox4x32 r = philox4x32_10(c.c, c.k0, c.k1);
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(r.v[i], c.want.v[i]) << i;
    }
}

// The SIMD draws are Philox's, counter by counter, on every instruction set: counts that are
// not a multiple of the lanes, and a first word that wraps.
TEST(SpanFrames, DrawsInLanesArePhiloxs)
{
    const span_key key = make_span_key(17, 4);
    for (const char* isa : { "baseline", "avx2", "avx512" }) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        const philox_many_fn many = pick_philox_many();
        for (const uint32_t c0 : { 0u, 1000u, 0xfffffff0u })
            for (const size_t count : { size_t(1), size_t(7), size_t(64), size_t(129), philox_lanes_max }) {
                uint32_t out[4][philox_lanes_max];
                many(key, c0, 3u, 0xabcdefu, 5u, count, out);
                for (size_t i = 0; i < count; ++i) {
                    const philox4x32 r = philox4x32_10({ { c0 + uint32_t(i), 3u, 0xabcdefu, 5u } }, key.k0, key.k1);
                    for (int w = 0; w < 4; ++w)
                        ASSERT_EQ(out[w][i], r.v[w]) << isa << " c0 " << c0 << " i " << i;
                }
            }
    }
    unsetenv("GPUFEC_SIMD");
}

// The CPU maker (draws made ahead in lanes, levels through the index) makes the frames of the
// rule as the GPU computes it (each draw where it is needed, levels by binary search).
TEST(SpanFrames, CpuMakerIsTheRule)
{
    auto enc = make_frame_encoder("ldpc", parse_frame_options("code=802.11n:648:1/2"));
    const size_t n = enc->coded_bits();
    const auto b = make_span_basis(enc->info_bits(), n, [&](const uint8_t* u, uint8_t* c) { enc->encode(u, 1, c); }, 2);
    ASSERT_TRUE(b);
    const awgn_levels lv = make_awgn_levels(0.8, default_soft_scale);
    const span_key key = make_span_key(2, 9);
    const uint64_t first = (uint64_t(1) << 32) - 3, count = 7; // frame numbers across 2^32
    std::vector<int8_t> got(count * n), want(count * n);
    std::vector<uint8_t> info(count * b->info_bytes());
    make_span_frames_cpu(*b, lv, key, first, count, { got.data(), nullptr, info.data() });
    for (uint64_t f = 0; f < count; ++f) {
        const uint64_t frame = first + f, mask = span_mask(key, frame);
        for (size_t w = 0; w < b->code_words; ++w)
            span_word_values([&](uint64_t u) { return awgn_level(lv.t, u); },
                             [&](uint64_t p) { return span_pair_draw(key, frame, p); },
                             span_code_word(b->code.data(), b->code_words, mask, w), w, n,
                             [&](size_t j, int v) { want[f * n + j] = int8_t(v); });
    }
    EXPECT_EQ(got, want);
}

// The levels give the distribution of quantize_soft(1 + sigma z): compared with that rule run on
// Gaussian values from std::normal_distribution (chi-square over levels expected >= 20 times).
TEST(SpanFrames, LevelsAreQuantisedGaussianNoise)
{
    for (const double sigma : { 0.35, 0.8, 1.6 }) {
        const awgn_levels lv = make_awgn_levels(sigma, default_soft_scale);
        for (int j = 1; j < 256; ++j)
            ASSERT_LE(lv.t[j - 1], lv.t[j]);
        std::mt19937_64 rng(7);
        std::normal_distribution<float> gauss(0.f, float(sigma));
        const size_t draws = 400000;
        std::vector<double> seen(255, 0), drawn(255, 0);
        for (size_t i = 0; i < draws; ++i) {
            const float x = 1.f + gauss(rng);
            int8_t q;
            quantize_soft(&x, &q, 1, default_soft_scale);
            seen[size_t(q + 127)] += 1;
            drawn[size_t(awgn_level(lv.t, rng()) + 127)] += 1;
        }
        double chi2 = 0, chi2_drawn = 0, pooled_e = 0, pooled_o = 0, pooled_d = 0;
        int bins = 0;
        for (int q = 0; q < 255; ++q) {
            const double lo = q == 0 ? 0.0 : std::ldexp(double(lv.t[q - 1]), -64);
            const double hi = q == 254 ? 1.0 : std::ldexp(double(lv.t[q]), -64);
            pooled_e += (hi - lo) * draws;
            pooled_o += seen[size_t(q)];
            pooled_d += drawn[size_t(q)];
            if (pooled_e >= 20 || q == 254) {
                chi2 += (pooled_o - pooled_e) * (pooled_o - pooled_e) / pooled_e;
                chi2_drawn += (pooled_d - pooled_e) * (pooled_d - pooled_e) / pooled_e;
                ++bins;
                pooled_e = pooled_o = pooled_d = 0;
            }
        }
        const double df = bins - 1, limit = df + 6 * std::sqrt(2 * df); // far out in the tail
        EXPECT_LT(chi2, limit) << "sigma " << sigma << ", " << bins << " bins";
        EXPECT_LT(chi2_drawn, limit) << "sigma " << sigma;
        EXPECT_GT(bins, 10);
    }
}

// The CPU's indexed lookup gives the binary search's level (what the GPU runs) for every u:
// random ones, every threshold and its neighbours, the ends.
TEST(SpanFrames, IndexedLevelsAreTheBinarySearchs)
{
    std::mt19937_64 rng(3);
    for (const double sigma : { 0.05, 0.35, 0.8, 3.0, 40.0 }) {
        const awgn_levels lv = make_awgn_levels(sigma, default_soft_scale);
        const awgn_index ix = make_awgn_index(lv);
        std::vector<uint64_t> us = { 0, 1, ~uint64_t(0), ~uint64_t(0) - 1 };
        for (int j = 0; j < 256; ++j)
            for (const uint64_t d : { uint64_t(0), uint64_t(1), ~uint64_t(0) })
                us.push_back(lv.t[j] + d);
        for (int i = 0; i < 4096; ++i)
            us.push_back(uint64_t(i) << 52);
        for (int i = 0; i < 200000; ++i)
            us.push_back(rng());
        for (const uint64_t u : us)
            ASSERT_EQ(awgn_level_indexed(lv.t, ix, u), awgn_level(lv.t, u)) << "sigma " << sigma << " u " << u;
    }
}

TEST(SpanFrames, Soft4NibbleIsPackSoft4s)
{
    for (int v = -128; v < 128; ++v) {
        const int8_t in[2] = { int8_t(v), 0 };
        uint8_t out = 0;
        pack_soft4(in, &out, 2);
        EXPECT_EQ(soft4_nibble(v), uint32_t(out & 0xf)) << v;
    }
}

struct encoder_case {
    std::string family, options;
};

span_encode_fn encode_with(frame_encoder& e)
{
    return [&e](const uint8_t* u, uint8_t* c) { e.encode(u, 1, c); };
}

// Without noise (sigma tiny, every value +-32) a frame's signs are the encoder's output for the
// frame's own information bits: the basis, the mask and the packing agree with the encoder.
TEST(SpanFrames, FramesAreCodewordsOfTheirInformationBits)
{
    const encoder_case cases[] = { { "ldpc", "code=802.11n:648:1/2" },
                                   { "ldpc", "code=802.16e:2304:5/6" },
                                   { "turbo", "code=lte:40" },
                                   { "viterbi", "code=ccsds, mode=terminated, frame_bits=100" } };
    for (const auto& ec : cases) {
        auto enc = make_frame_encoder(ec.family, parse_frame_options(ec.options));
        const size_t k = enc->info_bits(), n = enc->coded_bits();
        const auto b = make_span_basis(k, n, encode_with(*enc), 5);
        ASSERT_TRUE(b) << ec.options;
        const awgn_levels lv = make_awgn_levels(1e-3, default_soft_scale);
        const span_key key = make_span_key(5, 2);
        const uint64_t count = 9, first = 1000;
        std::vector<int8_t> soft(count * n);
        std::vector<uint8_t> info(count * b->info_bytes()), u(k), c(n);
        make_span_frames_cpu(*b, lv, key, first, count, { soft.data(), nullptr, info.data() });
        size_t ones = 0;
        for (uint64_t f = 0; f < count; ++f) {
            for (size_t i = 0; i < k; ++i)
                u[i] = packed_bit(info.data() + f * b->info_bytes(), i);
            enc->encode(u.data(), 1, c.data());
            for (size_t j = 0; j < n; ++j)
                ASSERT_EQ(soft[f * n + j], c[j] ? 32 : -32) << ec.options << " frame " << f << " value " << j;
            for (size_t i = 0; i < k; ++i)
                ones += u[i];
        }
        EXPECT_NEAR(double(ones) / double(count * k), 0.5, 0.1) << ec.options; // not all zero
        // the padding of the information bytes is zero
        if (k % 32)
            for (uint64_t f = 0; f < count; ++f)
                for (size_t i = k; i < b->info_bytes() * 8; ++i)
                    ASSERT_EQ(packed_bit(info.data() + f * b->info_bytes(), i), 0);
    }
}

TEST(SpanFrames, FramesDoNotDependOnTheBatch)
{
    auto enc = make_frame_encoder("ldpc", parse_frame_options("code=802.11n:648:1/2"));
    const size_t n = enc->coded_bits();
    const auto b = make_span_basis(enc->info_bits(), n, encode_with(*enc), 1);
    ASSERT_TRUE(b);
    const awgn_levels lv = make_awgn_levels(0.9, default_soft_scale);
    const span_key key = make_span_key(1, 0);
    std::vector<int8_t> all(20 * n), part(5 * n);
    std::vector<uint8_t> info_all(20 * b->info_bytes()), info_part(5 * b->info_bytes());
    make_span_frames_cpu(*b, lv, key, 0, 20, { all.data(), nullptr, info_all.data() });
    make_span_frames_cpu(*b, lv, key, 7, 5, { part.data(), nullptr, info_part.data() });
    EXPECT_EQ(std::memcmp(all.data() + 7 * n, part.data(), part.size()), 0);
    EXPECT_EQ(std::memcmp(info_all.data() + 7 * b->info_bytes(), info_part.data(), info_part.size()), 0);
    // another point or seed: other frames
    make_span_frames_cpu(*b, lv, make_span_key(1, 1), 7, 5, { part.data(), nullptr, info_part.data() });
    EXPECT_NE(std::memcmp(all.data() + 7 * n, part.data(), part.size()), 0);
    // packed 4-bit frames are the int8 ones packed
    std::vector<uint8_t> four(20 * n / 2), want(20 * n / 2);
    make_span_frames_cpu(*b, lv, key, 0, 20, { nullptr, four.data(), info_all.data() });
    pack_soft4(all.data(), want.data(), all.size());
    EXPECT_EQ(four, want);
}

TEST(SpanFrames, RefusesEncodersThatAreNotAffine)
{
    // a "code" whose parity is the AND of two information bits
    const auto b = make_span_basis(8, 9, [](const uint8_t* u, uint8_t* c) {
        std::memcpy(c, u, 8);
        c[8] = uint8_t(u[0] & u[1]);
    }, 3);
    EXPECT_FALSE(b);
    EXPECT_THROW(make_awgn_levels(0, 32), std::invalid_argument);
    EXPECT_THROW(make_awgn_levels(NAN, 32), std::invalid_argument);
}

TEST(SpanFramesGpu, SameBytesAsTheCpu)
{
    GPUFEC_REQUIRE_GPU();
    for (const char* code : { "code=802.11n:648:1/2", "code=802.16e:2304:1/2" }) {
        auto enc = make_frame_encoder("ldpc", parse_frame_options(code));
        const size_t n = enc->coded_bits();
        const auto b = make_span_basis(enc->info_bits(), n, encode_with(*enc), 11);
        ASSERT_TRUE(b);
        for (const int bits : { 8, 4 }) {
            auto gpu = make_span_maker_gpu(0, *b, bits);
            const awgn_levels lv = make_awgn_levels(0.7, default_soft_scale);
            const span_key key = make_span_key(11, 3);
            const uint64_t first = (uint64_t(1) << 33) + 5; // frame numbers past 32 bits
            for (const uint64_t count : { uint64_t(1), uint64_t(37), uint64_t(3000) }) {
                const size_t vb = bits == 4 ? count * n / 2 : count * n;
                std::vector<uint8_t> values(vb), info(count * b->info_bytes());
                span_output cpu{ nullptr, nullptr, info.data() };
                if (bits == 4)
                    cpu.soft4 = values.data();
                else
                    cpu.soft8 = reinterpret_cast<int8_t*>(values.data());
                make_span_frames_cpu(*b, lv, key, first, count, cpu);
                gpu->start(int(count % 2), lv, key, first, count);
                const span_output got = gpu->wait(int(count % 2));
                const uint8_t* gv = bits == 4 ? got.soft4 : reinterpret_cast<const uint8_t*>(got.soft8);
                EXPECT_EQ(std::memcmp(gv, values.data(), vb), 0) << code << " " << bits << " bits, " << count;
                EXPECT_EQ(std::memcmp(got.info, info.data(), info.size()), 0) << code << " " << count;
            }
        }
    }
}

} // namespace
} // namespace gpufec::sim
