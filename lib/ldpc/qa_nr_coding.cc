/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* 5G NR transport blocks (nr_coding.h): the base graph, segmentation and rate matching against
 * TS 38.212 worked by hand, and end to end:
 * the family's encoder, rate matching, a noisy channel, the receiver's accumulation and the
 * family's decoder with the filler bits shortened. */
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/nr_coding.h>
#include <gtest/gtest.h>

#include "testing/test_util.h"
#include <random>

using namespace gpufec;

TEST(nr_rate_matcher, k0_is_the_tables_start_of_each_redundancy_version)
{
    // Table 5.4.2.1-2 by hand: BG1, Z = 384, Ncb = N = 25344: floor(a Ncb / 25344) 384
    const nr_rate_matcher bg1(1, 384, 8448);
    EXPECT_EQ(bg1.N(), 25344);
    EXPECT_EQ(bg1.k0(0), 0);
    EXPECT_EQ(bg1.k0(1), 17 * 384);
    EXPECT_EQ(bg1.k0(2), 33 * 384);
    EXPECT_EQ(bg1.k0(3), 56 * 384);
    // BG2, Z = 384: N = 19200
    const nr_rate_matcher bg2(2, 384, 3840);
    EXPECT_EQ(bg2.k0(1), 13 * 384);
    EXPECT_EQ(bg2.k0(2), 25 * 384);
    EXPECT_EQ(bg2.k0(3), 43 * 384);
    // limited buffer, Ncb = 20000: floor(17 * 20000 / 25344) = 13, floor(33 ...) = 26, floor(56 ...) = 44
    const nr_rate_matcher lbrm(1, 384, 8448, 20000);
    EXPECT_EQ(lbrm.k0(1), 13 * 384);
    EXPECT_EQ(lbrm.k0(2), 26 * 384);
    EXPECT_EQ(lbrm.k0(3), 44 * 384);
}

TEST(nr_rate_matcher, selection_skips_filler_bits_and_wraps_round_the_buffer)
{
    // BG2, Z = 8: N = 400; K = 80, K' = 70: fillers at buffer bits 54 .. 63; frames of 390
    const nr_rate_matcher rm(2, 8, 70);
    ASSERT_EQ(rm.sent(), 390);
    std::vector<uint8_t> frame = test::random_bits(390, 1);
    EXPECT_EQ(rm.match(frame.data(), 390, 0, 1), frame); // rv 0, E = all: the frame itself
    // rv 2 starts at buffer bit floor(25 * 400 / 400) 8 = 200 (frame bit 190, past the fillers)
    // and wraps after bit 399 (frame bit 389) to bit 0
    const auto e = rm.match(frame.data(), 300, 2, 1);
    ASSERT_EQ(rm.k0(2), 200);
    for (int k = 0; k < 200; ++k)
        ASSERT_EQ(e[size_t(k)], frame[size_t(190 + k)]) << k;
    for (int k = 200; k < 254; ++k) // buffer bits 0 .. 53
        ASSERT_EQ(e[size_t(k)], frame[size_t(k - 200)]) << k;
    for (int k = 254; k < 300; ++k) // buffer bits 64 .. 109 (frame 54 ..): the fillers skipped
        ASSERT_EQ(e[size_t(k)], frame[size_t(k - 200)]) << k;
    // repetition: E beyond the buffer sends the frame again from the start
    const auto rep = rm.match(frame.data(), 800, 0, 1);
    for (int k = 0; k < 800; ++k)
        ASSERT_EQ(rep[size_t(k)], frame[size_t(k % 390)]) << k;
}

TEST(nr_rate_matcher, interleaving_writes_the_rows_of_qm_columns)
{
    // 5.4.2.2: f_(i + j Qm) = e_(i E / Qm + j); E = 8, Qm = 4: e0 e2 e4 e6 e1 e3 e5 e7
    const nr_rate_matcher rm(2, 2, 20); // N = 100, no fillers
    std::vector<uint8_t> frame(100, 0);
    frame[1] = frame[2] = frame[7] = 1; // e = 0 1 1 0 0 0 0 1
    const auto f = rm.match(frame.data(), 8, 0, 4);
    const std::vector<uint8_t> want = { 0, 1, 0, 0, 1, 0, 0, 1 }; // e0 e2 e4 e6 e1 e3 e5 e7
    EXPECT_EQ(f, want);
}

TEST(nr_rate_matcher, accumulation_undoes_selection_and_interleaving)
{
    const nr_rate_matcher rm(1, 16, 300, 900); // N = 1056, K = 352: 52 fillers, limited buffer
    const auto frame = test::random_bits(size_t(rm.sent()), 2);
    for (int Qm : { 1, 2, 4, 6, 8 })
        for (int rv = 0; rv < 4; ++rv) {
            const int E = 1200 / Qm * Qm; // more than the buffer: some bits twice
            const auto f = rm.match(frame.data(), E, rv, Qm);
            std::vector<float> soft(f.size()), acc(size_t(rm.sent()), 0.f);
            for (size_t i = 0; i < f.size(); ++i)
                soft[i] = f[i] ? 1.f : -1.f;
            rm.accumulate(soft.data(), E, rv, Qm, acc.data());
            float total = 0;
            for (size_t i = 0; i < acc.size(); ++i) {
                total += std::fabs(acc[i]);
                if (acc[i] != 0.f)
                    ASSERT_EQ(acc[i] > 0, frame[i] == 1) << "Qm " << Qm << " rv " << rv << " bit " << i;
            }
            EXPECT_EQ(total, float(E)) << "Qm " << Qm << " rv " << rv; // every value landed once
        }
}

TEST(nr_rate_matcher, a_code_block_survives_rate_matching_and_noise)
{
    // nr:bg1:24 with K' = 500 (28 filler bits), sent at E = 1200 bits (rate 0.42), Qm = 2,
    // Eb/N0 3 dB, then decoded with the fillers shortened; redundancy versions 0 and 3, the
    // self-decodable ones (1 and 2 start past the systematic bits: they help retransmissions)
    const std::string options = "code=nr:bg1:24, shorten=500:528, max_iterations=20";
    auto enc = make_frame_encoder("ldpc", parse_frame_options(options));
    auto dec = make_frame_decoder("ldpc", parse_frame_options(options), device_spec::parse("cpu"));
    const nr_rate_matcher rm(1, 24, 500);
    ASSERT_EQ(enc->coded_bits(), size_t(rm.sent()));
    const int E = 1200, frames = 20;
    std::mt19937 rng(5);
    std::normal_distribution<float> gauss(0.f, 1.f);
    const float sigma = float(std::sqrt(1.0 / (2.0 * 500.0 / E * std::pow(10.0, 0.3))));
    size_t wrong = 0;
    for (int f = 0; f < frames; ++f) {
        const auto info = test::random_bits(500, uint32_t(10 + f));
        std::vector<uint8_t> frame(enc->coded_bits()), out(500);
        enc->encode(info.data(), 1, frame.data());
        const int rv = f % 2 ? 3 : 0;
        const auto tx = rm.match(frame.data(), E, rv, 2);
        std::vector<float> rx(tx.size()), acc(frame.size(), 0.f);
        for (size_t i = 0; i < tx.size(); ++i)
            rx[i] = (tx[i] ? 1.f : -1.f) + sigma * gauss(rng);
        rm.accumulate(rx.data(), E, rv, 2, acc.data());
        frame_batch b;
        b.frames = 1;
        b.bits = out.data();
        dec->decode_float(acc.data(), b);
        wrong += out != info;
    }
    EXPECT_EQ(wrong, 0u);
}

TEST(nr_rate_matcher, bad_arguments_are_refused)
{
    EXPECT_THROW(nr_rate_matcher(3, 384, 100), std::invalid_argument);
    EXPECT_THROW(nr_rate_matcher(1, 17, 100), std::invalid_argument);
    EXPECT_THROW(nr_rate_matcher(1, 384, 9000), std::invalid_argument);
    EXPECT_THROW(nr_rate_matcher(1, 384, 8448, 100), std::invalid_argument);
    const nr_rate_matcher rm(1, 16, 352);
    std::vector<uint8_t> frame(size_t(rm.sent()));
    EXPECT_THROW(rm.match(frame.data(), 10, 0, 4), std::invalid_argument); // E not a multiple of Qm
    EXPECT_THROW(rm.match(frame.data(), 12, 4, 4), std::invalid_argument); // rv
    EXPECT_THROW(rm.match(frame.data(), 12, 0, 3), std::invalid_argument); // Qm
}

TEST(nr_segmentation, code_blocks_are_cut_as_the_standard_says)
{
    // 5.2.2 worked by hand. B = 100, BG2: one block, Kb = 6, Z = 18 (6 x 16 = 96 < 100), K = 180
    nr_segmentation s = nr_segmentation::compute(100, 2);
    EXPECT_EQ(s.C, 1);
    EXPECT_EQ(s.L, 0);
    EXPECT_EQ(s.K_prime, 100);
    EXPECT_EQ(s.Z, 18);
    EXPECT_EQ(s.K, 180);
    EXPECT_EQ(s.F, 80);
    EXPECT_EQ(s.ldpc_options(), "code=nr:bg2:18, shorten=100:180");
    // B = 10000, BG1: C = ceil(10000 / 8424) = 2, B' = 10048, K' = 5024, Z = 240 (22 x 224 < 5024)
    s = nr_segmentation::compute(10000, 1);
    EXPECT_EQ(s.C, 2);
    EXPECT_EQ(s.L, 24);
    EXPECT_EQ(s.K_prime, 5024);
    EXPECT_EQ(s.Z, 240);
    EXPECT_EQ(s.K, 5280);
    EXPECT_EQ(s.F, 256);
    // B = 5000, BG2: C = ceil(5000 / 3816) = 2, K' = 2524, Kb = 10, Z = 256 (10 x 240 < 2524)
    s = nr_segmentation::compute(5000, 2);
    EXPECT_EQ(s.C, 2);
    EXPECT_EQ(s.K_prime, 2524);
    EXPECT_EQ(s.Z, 256);
    EXPECT_EQ(s.K, 2560);
    // B = 8448 exactly fits one BG1 block at Z = 384 with no filler
    s = nr_segmentation::compute(8448, 1);
    EXPECT_EQ(s.C, 1);
    EXPECT_EQ(s.F, 0);
    EXPECT_EQ(s.ldpc_options(), "code=nr:bg1:384");
    // the base graph and the transport block CRC (7.2.1, 7.2.2)
    EXPECT_EQ(nr_base_graph(292, 0.9), 2);
    EXPECT_EQ(nr_base_graph(3824, 0.67), 2);
    EXPECT_EQ(nr_base_graph(3824, 0.7), 1);
    EXPECT_EQ(nr_base_graph(20000, 0.25), 2);
    EXPECT_EQ(nr_base_graph(20000, 0.3), 1);
    EXPECT_EQ(nr_tb_crc_bits(3824), 16);
    EXPECT_EQ(nr_tb_crc_bits(3825), 24);
    EXPECT_THROW(nr_segmentation::compute(0, 1), std::invalid_argument);
    EXPECT_THROW(nr_segmentation::compute(100, 3), std::invalid_argument);
}

TEST(nr_segmentation, a_transport_block_goes_through_the_whole_chain)
{
    // A = 12000 payload bits + CRC24A, BG1 at rate ~1/2: two code blocks, each encoded, rate
    // matched to E bits (QPSK), sent through noise, accumulated, decoded, checked, joined
    const int A = 12000;
    ASSERT_EQ(nr_base_graph(A, 0.5), 1);
    std::vector<uint8_t> tb = test::random_bits(size_t(A), 21);
    crc_append(crc_spec::named("lte-24a"), tb);
    const nr_segmentation seg = nr_segmentation::compute(int(tb.size()), 1);
    ASSERT_EQ(seg.C, 2);
    const auto blocks = nr_segment(seg, tb.data());
    const std::string options = seg.ldpc_options() + ", max_iterations=20";
    auto enc = make_frame_encoder("ldpc", parse_frame_options(options));
    auto dec = make_frame_decoder("ldpc", parse_frame_options(options), device_spec::parse("cpu"));
    const nr_rate_matcher rm(1, seg.Z, seg.K_prime);
    const int E = 2 * seg.K_prime; // rate 1/2, a multiple of Qm = 2
    std::mt19937 rng(22);
    std::normal_distribution<float> gauss(0.f, 1.f);
    const float sigma = float(std::sqrt(1.0 / (2.0 * double(seg.K_prime) / E * std::pow(10.0, 0.25))));
    std::vector<uint8_t> decoded(size_t(seg.C) * size_t(seg.K_prime));
    for (int r = 0; r < seg.C; ++r) {
        ASSERT_EQ(blocks[size_t(r)].size(), size_t(seg.K_prime));
        std::vector<uint8_t> frame(enc->coded_bits());
        enc->encode(blocks[size_t(r)].data(), 1, frame.data());
        const auto tx = rm.match(frame.data(), E, 0, 2);
        std::vector<float> rx(tx.size()), acc(frame.size(), 0.f);
        for (size_t i = 0; i < tx.size(); ++i)
            rx[i] = (tx[i] ? 1.f : -1.f) + sigma * gauss(rng);
        rm.accumulate(rx.data(), E, 0, 2, acc.data());
        frame_batch b;
        b.frames = 1;
        b.bits = decoded.data() + size_t(r) * size_t(seg.K_prime);
        dec->decode_float(acc.data(), b);
    }
    std::vector<uint8_t> out(tb.size());
    std::vector<uint8_t> ok;
    EXPECT_TRUE(nr_desegment(seg, decoded.data(), out.data(), &ok));
    EXPECT_EQ(ok, std::vector<uint8_t>(2, 1));
    EXPECT_TRUE(crc_check(crc_spec::named("lte-24a"), out.data(), out.size()));
    EXPECT_EQ(out, tb);
    // a block decoded wrong is caught by its CRC24B
    decoded[size_t(seg.K_prime) + 5] ^= 1;
    EXPECT_FALSE(nr_desegment(seg, decoded.data(), out.data(), &ok));
    EXPECT_EQ(ok, (std::vector<uint8_t>{ 1, 0 }));
}
