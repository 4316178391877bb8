/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gtest/gtest.h>

using namespace gpufec;

TEST(conv_code, presets_are_valid_and_named)
{
    for (const auto& name : conv_code::preset_names()) {
        const conv_code c = conv_code::preset(name);
        EXPECT_NO_THROW(c.validate()) << name;
        EXPECT_EQ(c.k, 7) << name;
    }
    EXPECT_EQ(conv_code::preset("ccsds").polys, (std::vector<int>{ 79, -109 }));
    EXPECT_EQ(conv_code::preset("nasa-dsn").polys, (std::vector<int>{ -109, 79 }));
    EXPECT_EQ(conv_code::preset("80211-3/4").describe(), "K=7 polys=[109,79] rate 3/4");
    EXPECT_EQ(conv_code::preset("80211-5/6").describe(), "K=7 polys=[109,79] rate 5/6");
    EXPECT_EQ(conv_code::preset("dvbs-7/8").describe(), "K=7 polys=[79,109] rate 7/8");
    EXPECT_THROW(conv_code::preset("nope"), std::invalid_argument);
}

TEST(conv_code, octal_conversion_matches_gr_fec_convention)
{
    // conv_codes.md: 171 (octal) is 79 and 133 (octal) is 109 in gr-fec's convention
    EXPECT_EQ(polys_from_octal({ 171, 133 }, 7), (std::vector<int>{ 79, 109 }));
    EXPECT_EQ(conv_code::preset("lte").polys, polys_from_octal({ 133, 171, 165 }, 7));
    EXPECT_EQ(conv_code::preset("lte").n(), 3);
    EXPECT_THROW(polys_from_octal({ 181 }, 7), std::invalid_argument);
}

static void expect_invalid(const conv_code& c, const std::string& param)
{
    try {
        c.validate();
        FAIL() << "no exception for " << c.describe();
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind(param + ":", 0), 0u) << e.what();
    }
}

TEST(conv_code, impossible_parameters_are_rejected_with_the_parameter_named)
{
    conv_code c;
    c.k = 2;
    expect_invalid(c, "k");
    c.k = 10;
    expect_invalid(c, "k");
    c = conv_code{};
    c.polys = { 79, 200 }; // 8 bits wide for K=7
    expect_invalid(c, "polys");
    c.polys = { 79 };
    expect_invalid(c, "polys");
    c.polys = { 79, 0 };
    expect_invalid(c, "polys");
    c.polys = { 78, 108 }; // nobody taps the current input
    expect_invalid(c, "polys");
    c = conv_code{};
    c.puncture = { 1, 1, 1 }; // not a multiple of n = 2
    expect_invalid(c, "puncture");
    c.puncture = { 0, 0, 0, 0 };
    expect_invalid(c, "puncture");
    c.puncture = { 1, 2 };
    expect_invalid(c, "puncture");
}

TEST(conv_code, distance_spectrum_matches_published_tables)
{
    // K=7 (171,133): d_free = 10; bit-error weights 36, 211, 1404, 11633 (Odenwalder's
    // table, reproduced in Proakis, Digital Communications, table 8.2-x).
    const auto s = distance_spectrum(conv_code::preset("ccsds"), 4);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].d, 10);
    EXPECT_DOUBLE_EQ(s[0].info_weight, 36);
    EXPECT_EQ(s[1].d, 12);
    EXPECT_DOUBLE_EQ(s[1].info_weight, 211);
    EXPECT_EQ(s[2].d, 14);
    EXPECT_DOUBLE_EQ(s[2].info_weight, 1404);
    EXPECT_EQ(s[3].d, 16);
    EXPECT_DOUBLE_EQ(s[3].info_weight, 11633);
    // K=3 (7,5): T(D,N) = D^5 N / (1 - 2DN): events 1, 2, 4 and bit weights 1, 4, 12
    conv_code k3;
    k3.k = 3;
    k3.polys = { 7, 5 };
    const auto t = distance_spectrum(k3, 3);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].d, 5);
    EXPECT_DOUBLE_EQ(t[0].events, 1);
    EXPECT_DOUBLE_EQ(t[1].events, 2);
    EXPECT_DOUBLE_EQ(t[2].events, 4);
    EXPECT_DOUBLE_EQ(t[0].info_weight, 1);
    EXPECT_DOUBLE_EQ(t[1].info_weight, 4);
    EXPECT_DOUBLE_EQ(t[2].info_weight, 12);
    // the LTE rate-1/3 code has d_free = 15
    EXPECT_EQ(distance_spectrum(conv_code::preset("lte"), 1)[0].d, 15);
}

TEST(conv_code, modes_parse)
{
    EXPECT_EQ(parse_conv_mode("tail-biting"), conv_mode::tailbiting);
    EXPECT_EQ(parse_conv_mode("streaming"), conv_mode::streaming);
    EXPECT_THROW(parse_conv_mode("bogus"), std::invalid_argument);
}
