/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LTE code block segmentation and turbo rate matching: worked examples of 5.1.2, the CRC-24B
 * of every block, k0 of the redundancy versions, rate-matching round trips for every version
 * with puncturing and repetition, combining, and a decode through it all. */
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/turbo/lte_coding.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"

#include "testing/test_util.h"
#include <gtest/gtest.h>
#include <cmath>
#include <random>

using namespace gpufec;

TEST(lte_coding, segmentation_examples)
{
    const auto one = lte_segmentation::compute(6144);
    EXPECT_EQ(one.C, 1);
    EXPECT_EQ(one.K_plus, 6144);
    EXPECT_EQ(one.F, 0);
    EXPECT_EQ(one.L, 0);
    const auto small = lte_segmentation::compute(100); // next size up is 104: 4 filler bits
    EXPECT_EQ(small.C, 1);
    EXPECT_EQ(small.K_plus, 104);
    EXPECT_EQ(small.F, 4);
    // B = 6145: C = 2, B' = 6193, K+ = 3136, K- = 3072, C- = floor((6272 - 6193) / 64) = 1, F = 15
    const auto two = lte_segmentation::compute(6145);
    EXPECT_EQ(two.C, 2);
    EXPECT_EQ(two.K_plus, 3136);
    EXPECT_EQ(two.K_minus, 3072);
    EXPECT_EQ(two.C_minus, 1);
    EXPECT_EQ(two.C_plus, 1);
    EXPECT_EQ(two.F, 15);
    EXPECT_EQ(two.L, 24);
    EXPECT_THROW(lte_segmentation::compute(0), std::invalid_argument);
}

TEST(lte_coding, segments_carry_the_bits_and_their_crc)
{
    const crc_spec crc24b = crc_spec::named("lte-24b");
    for (int B : { 40, 1000, 6144, 6145, 12000, 75376 }) {
        const auto seg = lte_segmentation::compute(B);
        EXPECT_EQ(seg.C_plus * seg.K_plus + seg.C_minus * seg.K_minus, B + seg.C * seg.L + seg.F) << B;
        const auto bits = test::random_bits(size_t(B), uint32_t(B));
        std::vector<uint8_t> filler;
        const auto blocks = lte_segment(seg, bits.data(), &filler);
        ASSERT_EQ(int(blocks.size()), seg.C);
        std::vector<uint8_t> back;
        for (int r = 0; r < seg.C; ++r) {
            ASSERT_EQ(int(blocks[size_t(r)].size()), seg.K(r)) << B << " block " << r;
            if (seg.C > 1)
                EXPECT_TRUE(crc_check(crc24b, blocks[size_t(r)].data(), blocks[size_t(r)].size()));
            const int from = r == 0 ? seg.F : 0;
            back.insert(back.end(), blocks[size_t(r)].begin() + from, blocks[size_t(r)].end() - seg.L);
        }
        EXPECT_EQ(back, bits) << B;
        EXPECT_EQ(std::count(filler.begin(), filler.end(), 1), seg.F);
    }
}

TEST(lte_coding, k0_and_E)
{
    // K = 6144: D = 6148, R = 193, K_pi = 6176, Kw = 18528; ceil(18528 / 1544) = 12
    lte_rate_matcher rm(6144);
    EXPECT_EQ(rm.Kw(), 18528);
    EXPECT_EQ(rm.k0(0), 386);
    EXPECT_EQ(rm.k0(1), 193 * 26);
    EXPECT_EQ(rm.k0(2), 193 * 50);
    EXPECT_EQ(rm.k0(3), 193 * 74);
    EXPECT_THROW(rm.k0(4), std::invalid_argument);
    // a buffer that every version cannot start in (or that holds only <NULL> places) is refused:
    // match() and accumulate() would never end
    for (int Ncb : { 1, 2, 16, 28, 25 * 2 })
        EXPECT_THROW(lte_rate_matcher(40, 0, Ncb), std::invalid_argument) << Ncb;
    EXPECT_THROW(lte_rate_matcher(6144, 0, lte_rate_matcher::min_Ncb(6144) - 1), std::invalid_argument);
    EXPECT_EQ(lte_rate_matcher::min_Ncb(6144), 26 * 193 + 1);
    for (int K : { 40, 1008, 6144 }) {
        const lte_rate_matcher small(K, 0, lte_rate_matcher::min_Ncb(K));
        const std::vector<uint8_t> coded(size_t(3 * K + 12), 1);
        for (int rv = 0; rv < 4; ++rv)
            EXPECT_EQ(small.match(coded.data(), 3 * K, rv).size(), size_t(3 * K)) << K << " rv " << rv;
    }
    // G = 1000 QPSK symbols x 2 bits over 3 blocks: G' = 1000, gamma = 1: 666, 666, 668
    EXPECT_EQ(lte_rate_matcher::block_E(2000, 3, 0, 2), 666);
    EXPECT_EQ(lte_rate_matcher::block_E(2000, 3, 1, 2), 666);
    EXPECT_EQ(lte_rate_matcher::block_E(2000, 3, 2, 2), 668);
}

TEST(lte_coding, rate_matching_round_trips_every_version)
{
    for (int K : { 40, 512, 6144 }) {
        for (int F : { 0, 13 }) {
            const turbo_code code = turbo_code::lte(K);
            auto bits = test::random_bits(size_t(K), uint32_t(K + F));
            std::fill(bits.begin(), bits.begin() + F, uint8_t(0));
            std::vector<uint8_t> cw(code.coded_bits());
            turbo_encode(code, bits.data(), cw.data());
            const lte_rate_matcher rm(K, F);
            for (int rv = 0; rv < 4; ++rv) {
                for (int E : { int(code.coded_bits()) / 2, rm.Kw() + 100 }) {
                    const auto e = rm.match(cw.data(), E, rv);
                    std::vector<float> soft(e.size()), acc(code.coded_bits(), 0.f);
                    for (size_t i = 0; i < e.size(); ++i)
                        soft[i] = e[i] ? 1.f : -1.f;
                    rm.accumulate(soft.data(), E, rv, acc.data());
                    size_t seen = 0;
                    for (size_t i = 0; i < acc.size(); ++i) {
                        if (acc[i] == 0.f)
                            continue;
                        ++seen;
                        ASSERT_EQ(acc[i] > 0, cw[i] == 1) << "K " << K << " rv " << rv << " position " << i;
                    }
                    if (E > rm.Kw()) // the whole buffer went out: every code bit but the fillers' twins
                        EXPECT_GE(seen, code.coded_bits() - size_t(F));
                }
            }
        }
    }
}

TEST(lte_coding, decode_after_de_rate_matching_and_combining)
{
    // K = 1024 at rate 1/2 (E = 2048) over AWGN: one version alone, then rv 0 + rv 2 combined
    const int K = 1024, E = 2048;
    const turbo_code code = turbo_code::lte(K);
    const lte_rate_matcher rm(K);
    turbo_options o;
    o.max_iterations = 8;
    turbo_reference_decoder dec(code, o);
    std::mt19937 rng(3);
    const double sigma = std::sqrt(1.0 / (2.0 * (double(K) / E) * std::pow(10.0, 0.2))); // 2 dB
    std::normal_distribution<double> g(0, sigma);
    int ok_one = 0, ok_two = 0;
    for (int f = 0; f < 20; ++f) {
        const auto bits = test::random_bits(size_t(K), uint32_t(100 + f));
        std::vector<uint8_t> cw(code.coded_bits()), out(static_cast<size_t>(K));
        turbo_encode(code, bits.data(), cw.data());
        std::vector<float> acc(code.coded_bits(), 0.f);
        for (int rv : { 0, 2 }) {
            const auto e = rm.match(cw.data(), E, rv);
            std::vector<float> soft(e.size());
            for (size_t i = 0; i < e.size(); ++i)
                soft[i] = float(2.0 * ((e[i] ? 1.0 : -1.0) + g(rng)) / (sigma * sigma));
            rm.accumulate(soft.data(), E, rv, acc.data());
            dec.decode(acc.data(), out.data());
            (rv == 0 ? ok_one : ok_two) += out == bits;
        }
    }
    EXPECT_GE(ok_one, 17); // rate 1/2 at 2 dB decodes nearly always
    EXPECT_EQ(ok_two, 20); // rate 1/4 after combining: always
}
