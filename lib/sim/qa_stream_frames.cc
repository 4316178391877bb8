/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The simulated stream: its values against the library's streaming convolutional encoder run on
 * the stream's own information bits, stretches against a longer stretch, the GPU against the
 * CPU. */
#include "sim/stream_frames.h"
#include "testing/test_util.h"

#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>

#include <gtest/gtest.h>
#include <cstring>
#include <vector>

namespace gpufec::sim {
namespace {

struct stretch_out {
    std::vector<uint8_t> values, info;
    span_output out(bool four)
    {
        span_output o;
        if (four)
            o.soft4 = values.data();
        else
            o.soft8 = reinterpret_cast<int8_t*>(values.data());
        o.info = info.data();
        return o;
    }
};

stretch_out make(const stream_code& c, const awgn_levels& lv, span_key key, const stream_stretch& st, bool four)
{
    stretch_out r;
    r.values.assign(four ? (st.v1 - st.v0 + 1) / 2 : st.v1 - st.v0, 0);
    r.info.assign(st.info_bytes(), 0);
    make_stream_cpu(c, lv, key, st, r.out(four));
    return r;
}

TEST(StreamFrames, ValuesAreTheEncodersOutput)
{
    for (const char* name : { "ccsds", "80211-3/4", "dvbs-7/8", "lte" }) {
        const conv_code code = conv_code::preset(name);
        const stream_code c = make_stream_code(code);
        const awgn_levels lv = make_awgn_levels(1e-3, default_soft_scale); // no noise: +-32
        const span_key key = make_span_key(4, 1);
        const int64_t S = 7 * 64 * code.period();
        stream_stretch st;
        st.s0 = 0;
        st.s1 = S;
        st.v0 = 0;
        st.v1 = uint64_t(code.kept_for_stages(S));
        const stretch_out got = make(c, lv, key, st, false);
        std::vector<uint8_t> bits(static_cast<size_t>(S)), coded(static_cast<size_t>(st.v1) + code.n());
        for (int64_t t = 0; t < S; ++t)
            bits[size_t(t)] = packed_bit(got.info.data(), size_t(t));
        conv_encoder enc(code, conv_mode::streaming);
        ASSERT_EQ(enc.encode(bits.data(), size_t(S), coded.data()), size_t(st.v1)) << name;
        size_t ones = 0;
        for (uint64_t v = 0; v < st.v1; ++v) {
            ASSERT_EQ(int8_t(got.values[v]), coded[v] ? 32 : -32) << name << " value " << v;
            ones += coded[v];
        }
        EXPECT_NEAR(double(ones) / double(st.v1), 0.5, 0.05) << name;
    }
}

TEST(StreamFrames, StretchesAreSlicesOfTheStream)
{
    const conv_code code = conv_code::preset("80211-2/3"); // 3 values a period of 2 stages: odd starts
    const stream_code c = make_stream_code(code);
    const awgn_levels lv = make_awgn_levels(0.8, default_soft_scale);
    const span_key key = make_span_key(8, 0);
    stream_stretch all{ 0, uint64_t(code.kept_for_stages(4000)), 0, 4000 };
    stream_stretch part{ uint64_t(code.kept_for_stages(1002)), uint64_t(code.kept_for_stages(2502)), 1008, 2504 };
    ASSERT_EQ(part.v0 % 2, 1u);
    for (const bool four : { false, true }) {
        const stretch_out a = make(c, lv, key, all, false), p = make(c, lv, key, part, four);
        std::vector<int8_t> want(a.values.begin() + long(part.v0), a.values.begin() + long(part.v1));
        if (four) {
            std::vector<uint8_t> packed((want.size() + 1) / 2);
            pack_soft4(want.data(), packed.data(), want.size());
            EXPECT_EQ(p.values, packed);
        } else {
            EXPECT_EQ(std::memcmp(p.values.data(), want.data(), want.size()), 0);
        }
        for (int64_t t = part.s0; t < part.s1; ++t)
            ASSERT_EQ(packed_bit(p.info.data(), size_t(t - part.s0)), packed_bit(a.info.data(), size_t(t))) << t;
    }
    EXPECT_THROW(make_stream_code(conv_code{ 7, { 79, -109 }, std::vector<uint8_t>(2 * 100, 1) }), std::invalid_argument);
}

// The CPU maker (draws made ahead in lanes, levels through the index) makes the stream of the
// rule as the GPU computes it, across a pair counter's 2^32 boundary too.
TEST(StreamFrames, CpuMakerIsTheRule)
{
    const conv_code code = conv_code::preset("dvbs-7/8");
    const stream_code c = make_stream_code(code);
    const awgn_levels lv = make_awgn_levels(0.6, default_soft_scale);
    const span_key key = make_span_key(6, 2);
    const int64_t P = code.period();
    const int64_t at = ((int64_t(1) << 33) - 5000) / code.kept_per_period() * P; // values from 2^33 - 5000 on: pairs cross 2^32
    const stream_stretch st{ uint64_t(code.kept_for_stages(at)), uint64_t(code.kept_for_stages(at + 70 * P * 64)), at,
                             at + 64 };
    ASSERT_LT(st.v0, uint64_t(1) << 33);
    ASSERT_GT(st.v1, uint64_t(1) << 33);
    const stretch_out got = make(c, lv, key, st, false);
    std::vector<uint8_t> want(got.values.size());
    for (uint64_t v = st.v0; v < st.v1; v += 32)
        stream_group_values(c, [&](uint64_t u) { return awgn_level(lv.t, u); },
                            [&](uint64_t p) { return stream_pair_draw(key, p); }, key, v, st.v1,
                            [&](uint64_t y, int q) { want[y - st.v0] = uint8_t(int8_t(q)); });
    EXPECT_EQ(got.values, want);
}

TEST(StreamFramesGpu, SameBytesAsTheCpu)
{
    GPUFEC_REQUIRE_GPU();
    for (const char* name : { "ccsds", "dvbs-7/8" }) {
        const conv_code code = conv_code::preset(name);
        const stream_code c = make_stream_code(code);
        const awgn_levels lv = make_awgn_levels(0.7, default_soft_scale);
        const span_key key = make_span_key(2, 5);
        for (const int bits : { 8, 4 }) {
            auto gpu = make_stream_maker_gpu(0, c, bits);
            const int64_t P = code.period(), at = (int64_t(1) << 34) / P * P; // stages past 32 bits
            for (const int64_t stages : { int64_t(7) * P, int64_t(4096) * P * 97 }) {
                const stream_stretch st{ uint64_t(code.kept_for_stages(at)), uint64_t(code.kept_for_stages(at + stages)),
                                         at + 8, at + stages - 8 };
                const stretch_out want = make(c, lv, key, st, bits == 4);
                gpu->start(1, lv, key, st);
                const span_output got = gpu->wait(1);
                const uint8_t* gv = bits == 4 ? got.soft4 : reinterpret_cast<const uint8_t*>(got.soft8);
                EXPECT_EQ(std::memcmp(gv, want.values.data(), want.values.size()), 0) << name << " " << bits;
                EXPECT_EQ(std::memcmp(got.info, want.info.data(), want.info.size()), 0) << name;
            }
        }
    }
}

} // namespace
} // namespace gpufec::sim
