/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "testing/test_util.h"
#include <limits>

using namespace gpufec;

namespace {

conv_code make_code(int k, std::vector<int> polys, std::vector<uint8_t> punct = {})
{
    conv_code c;
    c.k = k;
    c.polys = std::move(polys);
    c.puncture = std::move(punct);
    return c;
}

// a spread of codes: K = 3..9, n = 2..4, inverted outputs, punctured
std::vector<conv_code> codes_under_test()
{
    return { make_code(3, { 7, 5 }),
             make_code(4, { 15, 11 }),
             conv_code{ 5, polys_from_octal({ 23, 35 }, 5), {} },
             make_code(6, { 53, 47, 61 }),
             conv_code::preset("ccsds"),
             conv_code::preset("80211-3/4"),
             conv_code::preset("80211-2/3"),
             conv_code::preset("dvbs-7/8"),
             conv_code::preset("lte"),
             make_code(7, { 91, 101, 117, 79 }),
             make_code(7, { 79, 46 }), // (46 taps neither the newest nor the oldest bit: no symmetric butterflies)
             make_code(8, { 229, 159 }),
             make_code(9, { 501, 283 }),
             make_code(9, { 501, 283, 367 }, { 1, 1, 0, 1, 0, 0 }) };
}

struct frame_case {
    std::vector<uint8_t> bits;
    std::vector<int8_t> soft;
};

frame_case make_frames(const conv_code& c, conv_mode mode, int fb, int frames, double ebn0,
                       bool noise, uint32_t seed)
{
    conv_encoder enc(c, mode, fb);
    frame_case fc;
    fc.bits = test::random_bits(size_t(fb) * frames, seed);
    std::vector<uint8_t> coded(enc.output_per_frame() * frames);
    enc.encode_frames(fc.bits.data(), frames, coded.data());
    fc.soft = test::channel(coded, test::code_rate(c), ebn0, seed + 1, noise);
    return fc;
}

std::vector<uint8_t> decode_frames(const conv_code& c, conv_mode mode, int fb, int frames,
                                   const std::vector<int8_t>& soft, bool reference)
{
    viterbi_options o;
    o.mode = mode;
    o.frame_bits = fb;
    o.cpu_reference = reference;
    viterbi_frame_decoder dec(c, o, device_spec::parse("cpu"));
    EXPECT_EQ(dec.input_per_frame() * frames, soft.size());
    std::vector<uint8_t> out(size_t(fb) * frames, 7);
    dec.decode(soft.data(), frames, out.data());
    return out;
}

} // namespace

TEST(viterbi_cpu, noiseless_round_trip_every_code_and_frame_mode)
{
    for (const auto& c : codes_under_test())
        for (auto mode : { conv_mode::terminated, conv_mode::tailbiting, conv_mode::truncated })
            for (bool reference : { true, false }) {
                const int fb = 12 * c.period() * 5; // a multiple of every period used
                const int frames = reference ? 3 : 21;
                const auto fc = make_frames(c, mode, fb, frames, 0, false, 11);
                const auto out = decode_frames(c, mode, fb, frames, fc.soft, reference);
                EXPECT_EQ(out, fc.bits) << c.describe() << " " << to_string(mode)
                                        << (reference ? " reference" : " fast");
            }
}

TEST(viterbi_cpu, fast_engine_equals_reference_on_noisy_input)
{
    for (const auto& c : codes_under_test())
        for (auto mode : { conv_mode::terminated, conv_mode::tailbiting, conv_mode::truncated }) {
            const int fb = 8 * c.period() * 7;
            const int frames = 37; // not a multiple of the 16 lanes
            const auto fc = make_frames(c, mode, fb, frames, 1.0, true, 21);
            const auto ref = decode_frames(c, mode, fb, frames, fc.soft, true);
            const auto fast = decode_frames(c, mode, fb, frames, fc.soft, false);
            EXPECT_EQ(ref, fast) << c.describe() << " " << to_string(mode);
        }
}

TEST(viterbi_cpu, every_simd_width_gives_the_reference_output)
{
    // GPUFEC_SIMD caps the instruction set (and so the lane count: 32, 16, 8) of the fast
    // engine; a cap above what the processor has changes nothing, so this runs on any machine
    for (const char* isa : { "avx512", "avx2", "baseline" }) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        for (const conv_code& c : codes_under_test()) {
            const std::string name = c.describe();
            for (auto mode : { conv_mode::terminated, conv_mode::tailbiting }) {
                const int fb = 8 * c.period() * 9, frames = 45;
                const auto fc = make_frames(c, mode, fb, frames, 2.0, true, 5);
                EXPECT_EQ(decode_frames(c, mode, fb, frames, fc.soft, false),
                          decode_frames(c, mode, fb, frames, fc.soft, true))
                    << isa << " " << name << " " << to_string(mode);
            }
            // streaming: 75 blocks of 64, the first of a different shape
            conv_encoder enc(c, conv_mode::streaming);
            const auto bits = test::random_bits(size_t(c.period()) * 64 * 80, 3);
            std::vector<uint8_t> coded(bits.size() * c.n());
            coded.resize(enc.encode(bits.data(), bits.size(), coded.data()));
            const auto soft = test::channel(coded, test::code_rate(c), 2.0, 4);
            std::vector<uint8_t> out[2];
            for (int ref = 0; ref < 2; ++ref) {
                viterbi_options o;
                o.block_len = 64;
                o.cpu_reference = ref == 1;
                viterbi_stream_decoder d(c, o, device_spec::parse("cpu"));
                d.push(soft.data(), soft.size());
                out[ref].resize(d.available());
                out[ref].resize(d.read(out[ref].data(), out[ref].size()));
            }
            EXPECT_GT(out[0].size(), 0u);
            EXPECT_EQ(out[0], out[1]) << isa << " " << name << " streaming";
        }
    }
    unsetenv("GPUFEC_SIMD");
}

TEST(viterbi_cpu, ber_near_union_bound)
{
    // K=7 rate 1/2 at Eb/N0 = 4 dB: the union bound is 1.2e-5 ... a decoder of 7-bit
    // metrics must stay well inside a factor of 10 (statistics over 4e5 bits).
    const conv_code c = conv_code::preset("ccsds");
    const int fb = 2000, frames = 200;
    const auto fc = make_frames(c, conv_mode::terminated, fb, frames, 4.0, true, 99);
    const auto out = decode_frames(c, conv_mode::terminated, fb, frames, fc.soft, false);
    const double ber = double(test::count_errors(out.data(), fc.bits.data(), out.size())) / out.size();
    const double bound = union_bound_ber(distance_spectrum(c, 6), 0.5, 4.0);
    EXPECT_LT(ber, 10 * bound + 2e-5);
    EXPECT_GT(bound, 1e-6);
    EXPECT_LT(bound, 1e-4);
}

TEST(viterbi_cpu, nan_and_inf_soft_values_are_handled)
{
    const conv_code c = conv_code::preset("ccsds");
    conv_encoder enc(c, conv_mode::terminated, 64);
    const auto bits = test::random_bits(64, 4);
    std::vector<uint8_t> coded(enc.output_per_frame());
    enc.encode_frames(bits.data(), 1, coded.data());
    std::vector<float> f(coded.size());
    for (size_t i = 0; i < f.size(); ++i)
        f[i] = coded[i] ? 1.f : -1.f;
    // a few NaN (erasures) and infinities (clamped to +-127, the right sign here)
    f[3] = std::numeric_limits<float>::quiet_NaN();
    f[40] = std::numeric_limits<float>::quiet_NaN();
    f[10] = coded[10] ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    std::vector<int8_t> q(f.size());
    EXPECT_EQ(quantize_soft(f.data(), q.data(), q.size()), 2u);
    EXPECT_EQ(q[3], 0);
    EXPECT_EQ(std::abs(q[10]), 127);
    const auto out = decode_frames(c, conv_mode::terminated, 64, 1, q, false);
    EXPECT_EQ(out, bits);
}

TEST(viterbi_cpu, bad_options_fail_at_construction)
{
    viterbi_options o;
    o.mode = conv_mode::terminated;
    o.frame_bits = 0;
    EXPECT_THROW(viterbi_frame_decoder(conv_code::preset("ccsds"), o, device_spec::parse("cpu")),
                 std::invalid_argument);
    o.frame_bits = 100; // not a multiple of the 3/4 period
    EXPECT_THROW(viterbi_frame_decoder(conv_code::preset("80211-3/4"), o, device_spec::parse("cpu")),
                 std::invalid_argument);
    o = viterbi_options{};
    o.block_len = 100;
    EXPECT_THROW(viterbi_stream_decoder(conv_code::preset("ccsds"), o, device_spec::parse("cpu")),
                 std::invalid_argument);
    EXPECT_THROW(device_spec::parse("gpu7"), std::invalid_argument);
    EXPECT_THROW(device_spec::parse("cuda:x"), std::invalid_argument);
}

TEST(viterbi_cpu, packed_output_matches_unpacked)
{
    const conv_code c = conv_code::preset("ccsds");
    const auto fc = make_frames(c, conv_mode::terminated, 64, 5, 2.0, true, 8);
    viterbi_options o;
    o.mode = conv_mode::terminated;
    o.frame_bits = 64;
    viterbi_frame_decoder dec(c, o, device_spec::parse("cpu"));
    std::vector<uint8_t> u(5 * 64), p(5 * 8), pu(5 * 64);
    dec.decode(fc.soft.data(), 5, u.data());
    dec.decode(fc.soft.data(), 5, p.data(), true);
    unpack_bits(p.data(), pu.size(), pu.data());
    EXPECT_EQ(u, pu);
}
