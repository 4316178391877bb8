/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The codes layer against independent data: CRC check values of the standard catalogue,
 * TS 36.212's interleaver formula and table, the textbook K=3 code, and the LTE constituent
 * encoder written out from 36.212's shift-register description. */
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/codes/interleaver.h>
#include <gnuradio/gpufec/core/codes/trellis.h>

#include "testing/test_util.h"
#include <gtest/gtest.h>
#include <cstring>

namespace gpufec {
namespace {

TEST(codes_crc, check_values_of_the_catalogue)
{
    // CRC("123456789"): CRC-24/LTE-A, CRC-24/LTE-B, CRC-16/XMODEM (= 36.212's gCRC16),
    // CRC-8/LTE, CRC-16/IBM-3740 (CCITT-FALSE, = the CCSDS frame error control), as the CRC
    // catalogue lists them
    const char* msg = "123456789";
    const auto* b = reinterpret_cast<const uint8_t*>(msg);
    EXPECT_EQ(crc_bytes(crc_spec::named("lte-24a"), b, 9), 0xCDE703u);
    EXPECT_EQ(crc_bytes(crc_spec::named("lte-24b"), b, 9), 0x23EF52u);
    EXPECT_EQ(crc_bytes(crc_spec::named("lte-16"), b, 9), 0x31C3u);
    EXPECT_EQ(crc_bytes(crc_spec::named("lte-8"), b, 9), 0xEAu);
    EXPECT_EQ(crc_bytes(crc_spec::named("ccsds-16"), b, 9), 0x29B1u);
    EXPECT_THROW(crc_spec::named("crc-7"), std::invalid_argument);
}

TEST(codes_crc, append_check_and_detect_errors)
{
    for (const auto& name : crc_spec::names()) {
        const crc_spec s = crc_spec::named(name);
        auto bits = test::random_bits(5000, 3);
        // bits and bytes agree
        std::vector<uint8_t> bytes(625);
        for (size_t i = 0; i < 5000; ++i)
            bytes[i / 8] |= uint8_t(bits[i] << (7 - i % 8));
        EXPECT_EQ(crc_bits(s, bits.data(), 5000), crc_bytes(s, bytes.data(), 625)) << name;
        crc_append(s, bits);
        ASSERT_EQ(bits.size(), 5000u + size_t(s.width));
        EXPECT_TRUE(crc_check(s, bits.data(), bits.size())) << name;
        // every single error and every burst up to the width is detected
        for (size_t i = 0; i < bits.size(); i += 7) {
            bits[i] ^= 1;
            EXPECT_FALSE(crc_check(s, bits.data(), bits.size())) << name << " bit " << i;
            bits[i] ^= 1;
        }
        for (int len = 2; len <= s.width; ++len) {
            bits[100] ^= 1;
            bits[100 + size_t(len) - 1] ^= 1;
            EXPECT_FALSE(crc_check(s, bits.data(), bits.size())) << name << " burst " << len;
            bits[100] ^= 1;
            bits[100 + size_t(len) - 1] ^= 1;
        }
    }
}

TEST(codes_interleaver, lte_qpp_is_36_212)
{
    const auto sizes = interleaver::lte_sizes();
    ASSERT_EQ(sizes.size(), 188u);
    EXPECT_EQ(sizes.front(), 40);
    EXPECT_EQ(sizes.back(), 6144);
    for (int K : sizes) {
        const interleaver it = interleaver::lte_qpp(K); // from_permutation checks it is one
        ASSERT_EQ(it.size(), size_t(K));
    }
    // the formula itself on two rows of table 5.1.3-3: K=40 (f1=3, f2=10), K=6144 (263, 480)
    const interleaver a = interleaver::lte_qpp(40);
    for (uint32_t i = 0; i < 40; ++i)
        EXPECT_EQ(a[i], (3 * i + 10 * i * i) % 40);
    const interleaver b = interleaver::lte_qpp(6144);
    for (uint64_t i = 0; i < 6144; i += 97)
        EXPECT_EQ(b[i], (263 * i + 480 * i * i) % 6144);
    // interleave then deinterleave is the identity; c'_i = c_pi(i)
    std::vector<int> x(40), y(40), z(40);
    for (int i = 0; i < 40; ++i)
        x[size_t(i)] = i * 11;
    a.interleave(x.data(), y.data());
    EXPECT_EQ(y[1], x[a[1]]);
    a.deinterleave(y.data(), z.data());
    EXPECT_EQ(z, x);
    EXPECT_THROW(interleaver::lte_qpp(41), std::invalid_argument);
    EXPECT_THROW(interleaver::from_permutation({ 0, 0, 1 }), std::invalid_argument);
}

TEST(codes_trellis, textbook_feed_forward_code)
{
    conv_code c;
    c.k = 3;
    c.polys = { 7, 5 }; // (111, 101): input 1011 gives 11 10 00 01
    const trellis t = trellis::feed_forward(c);
    EXPECT_EQ(t.states(), 4);
    EXPECT_FALSE(t.recursive());
    const std::vector<uint8_t> out = t.encode({ 1, 0, 1, 1 }, false);
    EXPECT_EQ(out, (std::vector<uint8_t>{ 1, 1, 1, 0, 0, 0, 0, 1 }));
    for (int s = 0; s < t.states(); ++s)
        EXPECT_EQ(t.predecessors(uint32_t(s)).size(), 2u);
}

TEST(codes_trellis, lte_constituent_matches_36_212_shift_register)
{
    const trellis t = trellis::lte_turbo_constituent();
    EXPECT_EQ(t.states(), 8);
    EXPECT_TRUE(t.recursive());
    const auto bits = test::random_bits(1000, 9);
    // TS 36.212 5.1.3.2: g0 = 1 + D^2 + D^3 (feedback), g1 = 1 + D + D^3; tail: the input
    // taken from the feedback, so the register fills with zeros
    int d1 = 0, d2 = 0, d3 = 0;
    std::vector<uint8_t> expect, expect_tail;
    auto step = [&](int x) {
        const int a = x ^ d2 ^ d3;
        expect.push_back(uint8_t(x));
        expect.push_back(uint8_t(a ^ d1 ^ d3));
        d3 = d2;
        d2 = d1;
        d1 = a;
    };
    for (uint8_t b : bits)
        step(b);
    for (int i = 0; i < 3; ++i) {
        const int x = d2 ^ d3;
        expect_tail.push_back(uint8_t(x));
        step(x);
    }
    EXPECT_EQ(d1 | d2 | d3, 0);
    std::vector<uint8_t> tail;
    EXPECT_EQ(t.encode(bits, true, &tail), expect);
    EXPECT_EQ(tail, expect_tail);
    EXPECT_THROW(trellis::recursive_systematic(4, 012, { 015 }), std::invalid_argument); // no constant term
}

} // namespace
} // namespace gpufec
