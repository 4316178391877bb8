/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gtest/gtest.h>

#include "testing/test_util.h"

using namespace gpufec;

TEST(conv_encoder, impulse_response_is_the_generator_taps)
{
    // gr-fec convention: output r at time t of a single 1 is bit t of |poly r|
    for (const auto& name : conv_code::preset_names()) {
        conv_code c = conv_code::preset(name);
        c.puncture.clear();
        conv_encoder enc(c, conv_mode::streaming);
        std::vector<uint8_t> in(12, 0), out(12 * c.n());
        in[0] = 1;
        enc.encode(in.data(), in.size(), out.data());
        for (int t = 0; t < 12; ++t)
            for (int r = 0; r < c.n(); ++r) {
                const int p = c.polys[r];
                const int mag = p < 0 ? -p : p;
                const int expect = (t < c.k ? (mag >> t) & 1 : 0) ^ (p < 0);
                EXPECT_EQ(out[t * c.n() + r], expect) << name << " t=" << t << " r=" << r;
            }
    }
}

TEST(conv_encoder, ccsds_known_vector)
{
    // CCSDS 131.0-B: G1 = 171, G2 = 133 (octal), G2 inverted. Input 1,0,1,1 from state 0:
    // G1 taps (current first) 1,1,1,1,0,0,1 and G2 taps 1,1,0,1,1,0,1.
    conv_encoder enc(conv_code::preset("ccsds"), conv_mode::streaming);
    const std::vector<uint8_t> in{ 1, 0, 1, 1 };
    std::vector<uint8_t> out(8);
    enc.encode(in.data(), 4, out.data());
    // by hand, G1 = 79 taps bits {0,1,2,3,6}, G2 = 109 taps bits {0,2,3,5,6} of the register
    // (bit i = input i steps ago): t0 (1, 1^1), t1 (1, 0^1), t2 (1^1, 1^1^1), t3 (1^1^1, 1^1^1^1)
    const std::vector<uint8_t> expect{ 1, 0, 1, 1, 0, 1, 1, 1 };
    EXPECT_EQ(out, expect);
}

TEST(conv_encoder, streaming_in_pieces_equals_one_call_and_puncturing_removes_positions)
{
    for (const char* name : { "ccsds", "80211-3/4", "80211-5/6", "dvbs-7/8", "lte" }) {
        const conv_code c = conv_code::preset(name);
        const auto bits = test::random_bits(7 * 60, 3);
        conv_encoder whole(c, conv_mode::streaming);
        std::vector<uint8_t> a(bits.size() * c.n()), b(bits.size() * c.n());
        const size_t na = whole.encode(bits.data(), bits.size(), a.data());
        conv_encoder pieces(c, conv_mode::streaming);
        size_t nb = 0;
        for (size_t pos = 0, step = 1; pos < bits.size(); pos += step, step = step % 13 + 1) {
            const size_t len = std::min(step, bits.size() - pos);
            nb += pieces.encode(bits.data() + pos, len, b.data() + nb);
        }
        ASSERT_EQ(na, nb) << name;
        EXPECT_TRUE(std::equal(a.begin(), a.begin() + na, b.begin())) << name;
        EXPECT_EQ(na, size_t(c.kept_for_stages(bits.size()))) << name;

        conv_code plain = c;
        plain.puncture.clear();
        conv_encoder full(plain, conv_mode::streaming);
        std::vector<uint8_t> u(bits.size() * c.n());
        full.encode(bits.data(), bits.size(), u.data());
        std::vector<uint8_t> kept;
        for (size_t i = 0; i < u.size(); ++i)
            if (c.puncture.empty() || c.puncture[i % c.puncture.size()])
                kept.push_back(u[i]);
        ASSERT_EQ(kept.size(), na);
        EXPECT_TRUE(std::equal(kept.begin(), kept.end(), a.begin())) << name;
    }
}

TEST(conv_encoder, terminated_frames_end_in_state_zero_and_frames_are_independent)
{
    const conv_code c = conv_code::preset("ccsds");
    conv_encoder enc(c, conv_mode::terminated, 100);
    EXPECT_EQ(enc.output_per_frame(), size_t(2 * 106));
    auto bits = test::random_bits(300, 5);
    std::vector<uint8_t> out(3 * enc.output_per_frame());
    enc.encode_frames(bits.data(), 3, out.data());
    // the tail: once the register holds only zeros the CCSDS output is (0, 1) per stage
    conv_encoder stream(c, conv_mode::streaming);
    std::vector<uint8_t> s(2 * (100 + 6 + 6));
    std::vector<uint8_t> in(bits.begin() + 100, bits.begin() + 200);
    in.resize(112, 0);
    stream.encode(in.data(), in.size(), s.data());
    EXPECT_TRUE(std::equal(s.begin(), s.begin() + 212, out.begin() + 212));
    EXPECT_EQ(s[212], 0);
    EXPECT_EQ(s[213], 1); // state 0 reached: inverted G2 gives 1
}

TEST(conv_encoder, tailbiting_is_cyclic)
{
    // rotating the input of a tail-biting frame by one bit rotates its output by n bits
    for (const char* name : { "lte", "ccsds" }) {
        const conv_code c = conv_code::preset(name);
        const int nb = 40;
        conv_encoder enc(c, conv_mode::tailbiting, nb);
        auto bits = test::random_bits(nb, 9);
        std::vector<uint8_t> a(nb * c.n()), b(nb * c.n());
        enc.encode_frames(bits.data(), 1, a.data());
        std::rotate(bits.begin(), bits.begin() + 1, bits.end());
        enc.encode_frames(bits.data(), 1, b.data());
        std::rotate(a.begin(), a.begin() + c.n(), a.end());
        EXPECT_EQ(a, b) << name;
    }
}

TEST(conv_encoder, code_is_affine)
{
    // enc(x ^ y) = enc(x) ^ enc(y) ^ enc(0), in every frame mode
    for (auto mode : { conv_mode::terminated, conv_mode::tailbiting, conv_mode::truncated }) {
        const conv_code c = conv_code::preset("80211-3/4");
        conv_encoder enc(c, mode, 48);
        auto x = test::random_bits(48, 1), y = test::random_bits(48, 2);
        std::vector<uint8_t> z(48, 0), xy(48);
        for (int i = 0; i < 48; ++i)
            xy[i] = x[i] ^ y[i];
        const size_t L = enc.output_per_frame();
        std::vector<uint8_t> ex(L), ey(L), ez(L), exy(L);
        enc.encode_frames(x.data(), 1, ex.data());
        enc.encode_frames(y.data(), 1, ey.data());
        enc.encode_frames(z.data(), 1, ez.data());
        enc.encode_frames(xy.data(), 1, exy.data());
        for (size_t i = 0; i < L; ++i)
            EXPECT_EQ(exy[i], ex[i] ^ ey[i] ^ ez[i]);
    }
}

TEST(conv_encoder, frame_bits_must_fit_the_puncturing_period)
{
    EXPECT_THROW(conv_encoder(conv_code::preset("80211-3/4"), conv_mode::terminated, 100),
                 std::invalid_argument);
    EXPECT_NO_THROW(conv_encoder(conv_code::preset("80211-3/4"), conv_mode::terminated, 99));
    EXPECT_THROW(conv_encoder(conv_code::preset("ccsds"), conv_mode::terminated, 0),
                 std::invalid_argument);
}
