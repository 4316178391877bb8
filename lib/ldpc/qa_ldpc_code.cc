/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <chrono>
#include <sstream>

#include "ldpc_schedule.h"
#include "testing/test_util.h"
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

using namespace gpufec;

namespace {

std::set<int> distinct(const std::vector<int>& v) { return { v.begin(), v.end() }; }

double rate_of(const std::string& id)
{
    const std::string r = id.substr(id.rfind(':') + 1);
    return std::stoi(r.substr(0, 1)) / double(std::stoi(r.substr(2, 1)));
}

} // namespace

TEST(ldpc_code, every_standard_code_has_the_expected_size_and_structure)
{
    const auto ids = ldpc_code::standard_ids();
    ASSERT_EQ(ids.size(), 12u + 114u + 2u * 51u + 21u + 30u + 9u + 2u + 2u + 9u);
    int nr = 0, dvbs2 = 0, ar4ja = 0;
    // EN 302 307-1 Tables 5a, 5b: the LDPC information bits (N_bch) of each rate
    const std::map<std::string, int> dvbs2_k = {
        { "64800:1/4", 16200 }, { "64800:1/3", 21600 }, { "64800:2/5", 25920 }, { "64800:1/2", 32400 },
        { "64800:3/5", 38880 }, { "64800:2/3", 43200 }, { "64800:3/4", 48600 }, { "64800:4/5", 51840 },
        { "64800:5/6", 54000 }, { "64800:8/9", 57600 }, { "64800:9/10", 58320 }, { "16200:1/4", 3240 },
        { "16200:1/3", 5400 },  { "16200:2/5", 6480 },  { "16200:1/2", 7200 },  { "16200:3/5", 9720 },
        { "16200:2/3", 10800 }, { "16200:3/4", 11880 }, { "16200:4/5", 12600 }, { "16200:5/6", 13320 },
        { "16200:8/9", 14400 },
        // DVB-S2X VL-SNR (gr-dtv's dvb_ldpc_bb: N_bch, plus the shortened bits): the short codes
        // are short codes of the tables, punctured (and 1/5 spread, shortened by 560)
        { "16200:1/5-vlsnr", 3240 }, { "16200:1/5-vlsnr-sf2", 3240 }, { "16200:11/45-vlsnr-sf2", 3960 },
        { "16200:4/15-vlsnr", 4320 }, { "16200:1/3-vlsnr", 5400 }
    };
    // what each VL-SNR code sends: n less its punctured parity bits and shortened information
    // bits (gr-dtv: the frame sizes 64800 - 3240, 32400 - 1620, 16200 - 810 or 1224)
    const std::map<std::string, std::pair<int, int>> vlsnr_sent = {
        { "64800:2/9", { 3240, 0 } },        { "32400:1/5", { 980, 640 } },
        { "32400:11/45", { 1620, 0 } },      { "32400:1/3", { 1620, 0 } },
        { "16200:1/5-vlsnr", { 1224, 0 } },  { "16200:1/5-vlsnr-sf2", { 250, 560 } },
        { "16200:11/45-vlsnr-sf2", { 810, 0 } }, { "16200:4/15-vlsnr", { 1224, 0 } },
        { "16200:1/3-vlsnr", { 1224, 0 } }
    };
    for (const auto& id : ids) {
        const ldpc_code c = ldpc_code::standard(id);
        if (id.rfind("dvbs2:", 0) == 0) { // information bits first, then the accumulator
            // DVB-S2X (EN 302 307-2): k = n times the rate, exactly
            const std::string rate = id.substr(id.rfind(':') + 1);
            const int n = std::stoi(id.substr(6)), den = std::stoi(rate.substr(rate.find('/') + 1));
            const auto want = dvbs2_k.find(id.substr(6));
            const int k = want != dvbs2_k.end() ? want->second : n / den * std::stoi(rate);
            EXPECT_EQ(c.n(), n) << id;
            EXPECT_EQ(c.k(), k) << id;
            EXPECT_EQ(c.m(), c.n() - c.k()) << id;
            EXPECT_TRUE(c.is_qc()) << id; // (after the standard's permutation, Z = 360)
            EXPECT_EQ(c.z(), 360) << id;
            EXPECT_EQ(c.send_order().size(), size_t(c.n())) << id;
            ASSERT_NE(c.systematic_form(), nullptr) << id; // solved check by check, not eliminated
            EXPECT_EQ(c.info_columns().back(), c.k() - 1) << id;
            const float nf = c.default_normalization(); // measured per code (dvbs2_codes.cc)
            EXPECT_TRUE(nf == 0.75f || nf == 0.8125f || nf == 0.875f) << id << " " << nf;
            const auto sent = vlsnr_sent.find(id.substr(6));
            const auto tx = ldpc_transmission::parse(c, "", "");
            EXPECT_EQ(tx.punctured.size(), size_t(sent == vlsnr_sent.end() ? 0 : sent->second.first)) << id;
            EXPECT_EQ(tx.shortened.size(), size_t(sent == vlsnr_sent.end() ? 0 : sent->second.second)) << id;
            const auto cd = c.column_degrees();
            EXPECT_EQ(cd[size_t(c.n() - 1)], 1) << id; // the last parity bit: one check
            EXPECT_EQ(*std::min_element(cd.begin(), cd.begin() + c.n() - 1), 2) << id;
            ++dvbs2;
            continue;
        }
        if (id == "ccsds:128:64" || id == "ccsds:512:256") { // 231.0-B 4.2: 4 x 8 blocks of k / 4, rank k
            const int k = std::stoi(id.substr(id.rfind(':') + 1));
            EXPECT_EQ(c.n(), 2 * k) << id;
            EXPECT_EQ(c.k(), k) << id;
            EXPECT_EQ(c.z(), k / 4) << id;
            const auto rd = c.row_degrees(), cd = c.column_degrees();
            EXPECT_EQ(distinct(rd), std::set<int>{ 8 }) << id; // checks of 8, bits of 5 (I + Phi blocks) and 3
            EXPECT_EQ(std::count(cd.begin(), cd.begin() + k, 5), k) << id;
            EXPECT_EQ(std::count(cd.begin() + k, cd.end(), 3), k) << id;
            continue;
        }
        if (id == "ccsds:8160:7136") { // C2 as sent: the basic H, the expurgated generator
            EXPECT_EQ(c.n(), 8176);
            EXPECT_EQ(c.m(), 1022);
            EXPECT_EQ(c.k(), 7154);
            EXPECT_NE(c.qc_form(), nullptr);
            EXPECT_EQ(c.default_shorten(), "0:18");
            EXPECT_EQ(c.fill_bits(), 2);
            continue;
        }
        if (id.rfind("ccsds:", 0) == 0 && id != "ccsds:8176:7156") {
            // AR4JA (131.0-B 7.4): k = K M, (K + 3) M bits of which the last M are punctured, 3 M
            // checks of full rank, blocks of circulants of M / 4; encoded by circulant products
            const int sent = std::stoi(id.substr(6)), k = std::stoi(id.substr(id.rfind(':') + 1));
            const int K = 2 * k / (sent - k), M = k / K;
            EXPECT_TRUE(K == 2 || K == 4 || K == 8) << id;
            EXPECT_EQ(c.k(), k) << id;
            EXPECT_EQ(c.n(), (K + 3) * M) << id;
            EXPECT_EQ(c.m(), 3 * M) << id;
            EXPECT_EQ(c.z(), M / 4) << id;
            EXPECT_EQ(c.default_puncture(), std::to_string((K + 2) * M) + ":" + std::to_string((K + 3) * M)) << id;
            EXPECT_NE(c.qc_form(), nullptr) << id;
            const auto cd = c.column_degrees();
            EXPECT_EQ(*std::max_element(cd.begin(), cd.end()), 6) << id; // the punctured block's bits
            ++ar4ja;
            continue;
        }
        if (id == "ccsds:8176:7156") { // 131.0-B 7.3: 2 x 16 circulants of 511, weight 2; rank 1020
            EXPECT_EQ(c.n(), 8176);
            EXPECT_EQ(c.m(), 1022);
            EXPECT_EQ(c.k(), 7156);
            const auto rd = c.row_degrees(), cd = c.column_degrees();
            EXPECT_EQ(*std::min_element(rd.begin(), rd.end()), 32);
            EXPECT_EQ(*std::max_element(rd.begin(), rd.end()), 32);
            EXPECT_EQ(*std::min_element(cd.begin(), cd.end()), 4);
            EXPECT_EQ(*std::max_element(cd.begin(), cd.end()), 4);
            continue;
        }
        if (id.rfind("nr:", 0) == 0) { // 38.212 5.3.2: 46 x 68 (BG1) or 42 x 52 (BG2) blocks of Z
            const bool bg1 = id.compare(0, 6, "nr:bg1") == 0;
            const int z = std::stoi(id.substr(7));
            EXPECT_EQ(c.z(), z) << id;
            EXPECT_EQ(c.n(), (bg1 ? 68 : 52) * z) << id;
            EXPECT_EQ(c.k(), (bg1 ? 22 : 10) * z) << id;
            EXPECT_EQ(c.m(), (bg1 ? 46 : 42) * z) << id;
            EXPECT_EQ(c.edges(), (bg1 ? 316 : 197) * z) << id; // the tables' non-zero entries
            EXPECT_TRUE(c.dual_diagonal()) << id;
            EXPECT_EQ(c.core_rows(), 4) << id;
            EXPECT_EQ(c.id(), id);
            ++nr;
            continue;
        }
        const int n = std::stoi(id.substr(id.find(':') + 1));
        EXPECT_EQ(c.n(), n) << id;
        EXPECT_EQ(c.z() * 24, n) << id;
        EXPECT_EQ(c.nb(), 24) << id;
        EXPECT_NEAR(double(c.k()) / c.n(), rate_of(id), 1e-12) << id;
        EXPECT_EQ(c.m(), c.n() - c.k()) << id;
        EXPECT_TRUE(c.dual_diagonal()) << id;
        EXPECT_EQ(c.id(), id);
        // every check of a layer has the layer's weight; every bit is checked at least twice
        const auto cd = c.column_degrees();
        EXPECT_GE(*std::min_element(cd.begin(), cd.end()), 2) << id;
    }
    EXPECT_EQ(nr, 102);
    EXPECT_EQ(dvbs2, 21 + 30 + 9);
    EXPECT_EQ(ar4ja, 9);
}

TEST(ldpc_code, degree_distributions_match_the_standards)
{
    // row (check) and column (bit) degrees as the standards' codes are described
    struct expect {
        const char* id;
        std::set<int> rows, cols;
    };
    const expect table[] = {
        { "802.11n:1944:1/2", { 7, 8 }, { 2, 3, 4, 11 } },
        { "802.11n:648:2/3", { 11 }, { 2, 3, 4, 6, 8 } },
        { "802.11n:1296:3/4", { 14, 15 }, { 2, 3, 6 } },
        { "802.11n:1944:5/6", { 19, 20 }, { 2, 3, 4 } },
        { "802.16e:2304:1/2", { 6, 7 }, { 2, 3, 6 } },
        { "802.16e:576:1/2", { 6, 7 }, { 2, 3, 6 } },
        { "802.16e:2304:2/3A", { 10 }, { 2, 3, 6 } },
        { "802.16e:2304:2/3B", { 10, 11 }, { 2, 3, 4 } },
        { "802.16e:2304:3/4A", { 14, 15 }, { 2, 3, 4 } },
        { "802.16e:2304:3/4B", { 14, 15 }, { 2, 3, 6 } },
        { "802.16e:2304:5/6", { 20 }, { 2, 3, 4 } },
    };
    for (const auto& e : table) {
        const ldpc_code c = ldpc_code::standard(e.id);
        EXPECT_EQ(distinct(c.row_degrees()), e.rows) << e.id;
        EXPECT_EQ(distinct(c.column_degrees()), e.cols) << e.id;
    }
    // 802.16e rate 1/2: 11 block columns of degree 2, 1 + 7 of degree 3, 5 of degree 6
    const auto cd = ldpc_code::standard("802.16e:2304:1/2").column_degrees();
    EXPECT_EQ(std::count(cd.begin(), cd.end(), 2), 11 * 96);
    EXPECT_EQ(std::count(cd.begin(), cd.end(), 3), 8 * 96);
    EXPECT_EQ(std::count(cd.begin(), cd.end(), 6), 5 * 96);
}

TEST(ldpc_code, shift_scaling_of_802_16e)
{
    // n = 576 (z = 24): rate 1/2 entry 94 -> floor(94 * 24 / 96) = 23; rate 2/3A keeps p mod z
    const ldpc_code a = ldpc_code::standard("802.16e:576:1/2");
    EXPECT_EQ(a.shifts()[1], 23);
    EXPECT_EQ(a.shifts()[2], 73 * 24 / 96);
    const ldpc_code b = ldpc_code::standard("802.16e:576:2/3A");
    EXPECT_EQ(b.shifts()[24 + 4], 36 % 24); // row 1, column 4 holds 36
    EXPECT_EQ(ldpc_code::standard("802.16e:2304:2/3A").shifts()[24 + 4], 36);
}

TEST(ldpc_schedule, steps_that_touch_none_of_the_bits_since_the_last_wait_are_free)
{
    // a layer of one circulant a block: steps are layers; layer 1 touches other columns than
    // layer 0 (free), layer 2 shares column 1 with layer 0 (waits), layer 3 none of layer 2's
    const ldpc_code layers = ldpc_code::from_base_matrix(4, 4, 6,
                                                         { 0, 1, -1, -1, -1, -1, //
                                                           -1, -1, 2, 3, -1, -1, //
                                                           -1, 0, -1, -1, 1, -1, //
                                                           2, -1, -1, -1, -1, 0 });
    EXPECT_EQ(ldpc_steps_free_of_previous(layers), (std::vector<bool>{ false, true, false, true }));
    // a block of two circulants two apart (rows r and r + 2 share bits): four sub-layers of one
    // row; row 1 shares nothing with row 0, row 2 shares bits with row 0, row 3 none with row 2
    const ldpc_code sub = ldpc_code::from_circulants(4, 1, 2, { { 0, 0, 0, -1 }, { 0, 0, 2, -1 }, { 0, 1, 0, -1 } });
    ASSERT_EQ(sub.row_stride(0), 4);
    EXPECT_EQ(ldpc_steps_free_of_previous(sub), (std::vector<bool>{ false, true, false, true }));
    EXPECT_TRUE(ldpc_steps_free_of_previous(ldpc_code::from_rows(4, { { 0, 1 }, { 2, 3 } })).empty());

    // the standard codes: every free step's bits are disjoint from those of the steps since the
    // last wait (sets of bits, step by step); 5G NR's extension rows and AR4JA's sub-layers
    // leave some free, the IEEE codes' layers share columns all the way
    for (const char* id : { "nr:bg1:384", "nr:bg2:52", "ccsds:32768:16384", "ccsds:8160:7136", "dvbs2:16200:1/2",
                            "802.16e:2304:1/2" }) {
        const ldpc_code c = ldpc_code::standard(id);
        const auto free = ldpc_steps_free_of_previous(c);
        std::set<int> since;
        size_t step = 0, waits = 0;
        int row = 0;
        for (int l = 0; l < c.mb(); ++l)
            for (int k = 0; k < c.row_stride(l); ++k, ++step) {
                std::set<int> bits;
                for (int r = row; r < row + c.z() / c.row_stride(l); ++r)
                    for (int e = c.row_start()[size_t(r)]; e < c.row_start()[size_t(r) + 1]; ++e)
                        bits.insert(c.row_cols()[size_t(e)]);
                row += c.z() / c.row_stride(l);
                ASSERT_LT(step, free.size()) << id;
                bool disjoint = step > 0;
                for (int b : bits)
                    disjoint = disjoint && !since.count(b);
                EXPECT_EQ(bool(free[step]), disjoint) << id << " step " << step;
                if (!disjoint) {
                    since.clear();
                    ++waits;
                }
                since.insert(bits.begin(), bits.end());
            }
        EXPECT_EQ(step, free.size()) << id;
        if (std::string(id).rfind("802", 0) == 0)
            EXPECT_EQ(waits, free.size()) << id;
        else
            EXPECT_LT(waits, free.size()) << id;
    }
}

TEST(ldpc_code, ids_are_forgiving_about_case_and_strict_about_the_rest)
{
    EXPECT_EQ(ldpc_code::standard("802.16e:2304:2/3a").id(), "802.16e:2304:2/3A");
    for (const char* bad : { "", "802.11n", "802.11n:1944", "802.11n:2000:1/2", "802.11n:1944:2/3A",
                             "802.16e:600:1/2", "802.16e:2400:1/2", "802.16e:2304:7/8", "dvb:1944:1/2" }) {
        try {
            ldpc_code::standard(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("802.11n:<648|1296|1944>"), std::string::npos) << e.what();
        }
    }
}

TEST(ldpc_encoder, every_standard_codeword_satisfies_every_check)
{
    for (const auto& id : ldpc_code::standard_ids()) {
        const ldpc_code c = ldpc_code::standard(id);
        const ldpc_encoder enc(c);
        const int frames = 3;
        const auto info = test::random_bits(size_t(c.k()) * frames, 7);
        std::vector<uint8_t> cw(size_t(c.n()) * frames), sent(cw.size());
        enc.encode_columns(info.data(), frames, cw.data());
        enc.encode(info.data(), frames, sent.data()); // the same bits in the send order
        for (int f = 0; f < frames; ++f)
            for (int i = 0; i < c.n(); ++i)
                ASSERT_EQ(sent[size_t(f) * c.n() + size_t(i)],
                          cw[size_t(f) * c.n() + size_t(c.send_order().empty() ? i : c.send_order()[size_t(i)])])
                    << id;
        for (int f = 0; f < frames; ++f) {
            EXPECT_TRUE(c.satisfied(cw.data() + size_t(f) * c.n())) << id;
            // systematic: the information bits stand at info_columns() (the first k for the IEEE
            // and 5G NR codes; C2's elimination leaves two of them among the last block columns)
            const auto& cols = c.info_columns();
            for (size_t j = 0; j < cols.size(); ++j)
                ASSERT_EQ(cw[size_t(f) * c.n() + size_t(cols[j])], info[size_t(f) * c.k() + j]) << id << ": not systematic";
            if (id.rfind("ccsds:", 0) != 0)
                EXPECT_EQ(cols.back(), c.k() - 1) << id << ": information bits not first";
        }
        // and a changed information bit gives a different, still valid codeword
        std::vector<uint8_t> info2(info.begin(), info.begin() + c.k()), cw2(size_t(c.n()));
        info2[5] ^= 1;
        enc.encode_columns(info2.data(), 1, cw2.data());
        EXPECT_TRUE(c.satisfied(cw2.data())) << id;
        EXPECT_FALSE(std::equal(cw2.begin(), cw2.end(), cw.begin())) << id;
    }
}

TEST(ldpc_encoder, generic_codes_through_gaussian_elimination)
{
    // Hamming (7,4): not quasi-cyclic; and a QC code without the dual-diagonal parity part
    const ldpc_code ham = ldpc_code::from_rows(7, { { 0, 1, 2, 4 }, { 1, 2, 3, 5 }, { 0, 1, 3, 6 } }, "hamming");
    EXPECT_EQ(ham.k(), 4);
    EXPECT_FALSE(ham.is_qc());
    const ldpc_code qc = ldpc_code::from_base_matrix(5, 2, 5, { 0, 1, 2, 3, 4, 0, 2, 4, 1, 3 }, "qc");
    EXPECT_FALSE(qc.dual_diagonal());
    EXPECT_EQ(qc.k(), 25 - 9); // the two block rows share one dependent check
    for (const ldpc_code* c : { &ham, &qc }) {
        const ldpc_encoder enc(*c);
        for (uint32_t seed = 0; seed < 20; ++seed) {
            const auto info = test::random_bits(size_t(c->k()), seed);
            std::vector<uint8_t> cw(size_t(c->n()));
            enc.encode(info.data(), 1, cw.data());
            EXPECT_TRUE(c->satisfied(cw.data())) << c->id();
            for (int i = 0; i < c->k(); ++i)
                EXPECT_EQ(cw[size_t(c->info_columns()[size_t(i)])], info[size_t(i)]);
        }
    }
}

TEST(ldpc_code, alist_round_trip_and_file_loading)
{
    const ldpc_code c = ldpc_code::standard("802.11n:648:3/4");
    const ldpc_code back = ldpc_code::from_alist(c.to_alist(), "copy");
    EXPECT_EQ(back.n(), c.n());
    EXPECT_EQ(back.k(), c.k());
    EXPECT_FALSE(back.is_qc());
    // same checks, row by row (sets of columns)
    for (int r = 0; r < c.m(); ++r) {
        std::set<int> a(c.row_cols().begin() + c.row_start()[r], c.row_cols().begin() + c.row_start()[r + 1]);
        std::set<int> b(back.row_cols().begin() + back.row_start()[r],
                        back.row_cols().begin() + back.row_start()[r + 1]);
        ASSERT_EQ(a, b) << r;
    }
    const std::string path = ::testing::TempDir() + "gpufec_test.alist";
    std::ofstream(path) << c.to_alist();
    EXPECT_EQ(ldpc_code::load(path).n(), 648);
    const std::string bpath = ::testing::TempDir() + "gpufec_test_base.txt";
    std::ofstream(bpath) << "# a small QC code\nZ=3\n0 1 -1 0 -1\n2 -1 0 0 0\n";
    const ldpc_code q = ldpc_code::load(bpath);
    EXPECT_EQ(q.n(), 15);
    EXPECT_EQ(q.z(), 3);
    std::remove(path.c_str());
    std::remove(bpath.c_str());
    EXPECT_THROW(ldpc_code::load("/nonexistent/code.alist"), std::invalid_argument);
}

TEST(ldpc_code, malformed_inputs_fail_with_a_message)
{
    auto fails_with = [](auto make, const std::string& needle) {
        try {
            make();
            ADD_FAILURE() << "no error, expected one mentioning '" << needle << "'";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    // base matrices
    fails_with([] { ldpc_code::from_base_matrix_text("0 1\n0 1\n"); }, "Z=");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 1 2\n0 1\n"); }, "line 3");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 x 2\n"); }, "'x'");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 7 2\n"); }, "shift 7");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 -1 -1\n1 2 3\n"); }, "at least 2");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 1 -1\n1 2 -1\n"); }, "in no check");
    fails_with([] { ldpc_code::from_base_matrix_text("Z=4\n0 1\n1 2\n"); }, "rows < columns");
    // alists: truncated, out-of-range indices, inconsistent degrees and lists
    const std::string good = "4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n1 2\n1 3 4\n2 3 4\n";
    EXPECT_EQ(ldpc_code::from_alist(good).n(), 4);
    // gr-fec and MacKay write each list with exactly its degree's entries (no zero padding);
    // the rows may be left out, and a file may pad one part and not the other
    const std::string unpadded = "4 2\n2 3\n1 1 2 2\n3 3\n1\n2\n1 2\n1 2\n1 3 4\n2 3 4\n";
    const std::string no_rows = "4 2\n2 3\n1 1 2 2\n3 3\n1\n2\n1 2\n1 2\n";
    const std::string rows_padded = "5 2\n2 4\n1 1 2 1 1\n4 2\n1\n2\n1 2\n1\n1\n1 3 4 5\n2 3 0 0\n";
    for (const auto* text : { &unpadded, &no_rows, &rows_padded }) {
        const ldpc_code c = ldpc_code::from_alist(*text, "unpadded");
        EXPECT_EQ(c.to_alist(), ldpc_code::from_alist(c.to_alist()).to_alist());
        EXPECT_EQ(c.n(), text == &rows_padded ? 5 : 4);
    }
    EXPECT_EQ(ldpc_code::from_alist(unpadded).to_alist(), ldpc_code::from_alist(good).to_alist());
    fails_with([] { ldpc_code::from_alist("4 2\n2 3\n1 1 2 2\n3 3\n1\n2\n1 2\n1 2\n1 2 4\n2 3 4\n"); },
               "disagree");
    fails_with([&] { ldpc_code::from_alist(good.substr(0, good.size() - 8)); }, "ends before");
    fails_with([] { ldpc_code::from_alist("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 3\n1 2\n1 2 3\n1 3 4\n"); },
               "names row 3");
    fails_with([] { ldpc_code::from_alist("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n1 2\n1 2 4\n2 3 4\n"); },
               "disagree");
    fails_with([] { ldpc_code::from_alist("4 2\n2 3\n1 1 2 2\n3 3\n1 5\n2 0\n1 2\n1 2\n1 3 4\n2 3 4\n"); },
               "more rows than its degree");
    fails_with([] { ldpc_code::from_alist("4 2\n2 3\n1 1 2 2\n2 3\n1 0\n2 0\n1 2\n1 2\n1 3 0\n2 3 4\n"); },
               "has degree");
    fails_with([] { ldpc_code::from_alist("4 x\n"); }, "'x'");
    fails_with([] { ldpc_code::from_alist("2 5\n"); }, "not valid");
    fails_with([&] { ldpc_code::from_alist(good + "7\n"); }, "after the end");
}

namespace {
std::string write_temp(const std::string& name, const std::string& text)
{
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}
std::string load_error(const std::string& path, const std::string& format = "auto")
{
    try {
        ldpc_code::load(path, format);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}
bool printable_ascii(const std::string& s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}
} // namespace

TEST(ldpc_code, file_format_comes_from_the_header_and_messages_are_printable)
{
    // a base matrix without its Z= line: the format is not guessed from a stray letter
    const std::string no_z = write_temp("gpufec_noz.txt", "# comment\n0 1 -1 0 -1\n2 -1 0 0 0\n");
    std::string e = load_error(no_z);
    EXPECT_NE(e.find("cannot tell the format"), std::string::npos) << e;
    EXPECT_NE(e.find("gpufec_noz.txt"), std::string::npos) << e;
    // spaces around '=' and a lower-case z are fine
    const std::string spaced = write_temp("gpufec_spaced.txt", "# comment z\nZ = 3\n0 1 -1 0 -1\n2 -1 0 0 0\n");
    EXPECT_EQ(ldpc_code::load(spaced).z(), 3);
    EXPECT_EQ(ldpc_code::named("base-matrix:" + spaced).n(), 15);
    // an alist with a stray letter: an alist error with its line, not a base-matrix one
    const std::string alist = write_temp("gpufec_z.alist",
                                         "4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 z\n1 2\n1 3 4\n2 3 4\n");
    e = load_error(alist);
    EXPECT_NE(e.find("alist"), std::string::npos) << e;
    EXPECT_NE(e.find("line 7"), std::string::npos) << e;
    // bytes that are not text are quoted as \xNN, so the message is always printable
    const std::string bin = write_temp("gpufec_bin.alist", std::string("4 2\n2 \xff\xfe 3\n"));
    e = load_error(bin);
    EXPECT_TRUE(printable_ascii(e)) << e;
    EXPECT_NE(e.find("\\xff"), std::string::npos) << e;
    EXPECT_NE(e.find("line 2"), std::string::npos) << e;
    // directories, devices and empty files
    EXPECT_NE(load_error(::testing::TempDir()).find("not a regular file"), std::string::npos);
    EXPECT_NE(load_error("/dev/null").find("not a regular file"), std::string::npos);
    EXPECT_NE(load_error(write_temp("gpufec_empty.txt", "\n\n")).find("empty"), std::string::npos);
    EXPECT_NE(load_error(spaced, "xml").find("format"), std::string::npos);
    for (const auto& p : { no_z, spaced, alist, bin })
        std::remove(p.c_str());
}

TEST(ldpc_code, small_files_that_mean_huge_work_are_refused_quickly)
{
    // 802.11n-like: 12 x 24 base matrix, Z=4096, one extra shift that breaks the
    // dual-diagonal shortcut -> dense elimination of 49152 x 98304 (hours): refused at once
    std::ostringstream text;
    text << "Z=4096\n";
    for (int r = 0; r < 12; ++r) {
        for (int c = 0; c < 24; ++c) {
            int v = -1;
            if (c < 12)
                v = (r * 7 + c * 13) % 4096;
            else if (c == 12)
                v = (r == 0 || r == 11) ? 5 : (r == 6 ? 0 : -1);
            else if (c - 13 == r || c - 13 == r - 1)
                v = 0;
            if (r == 3 && c == 20)
                v = 9; // the extra shift
            text << v << (c == 23 ? "\n" : " ");
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
        ldpc_code::from_base_matrix_text(text.str(), "big");
        ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("GPUFEC_LDPC_MAX_ELIMINATION"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    // the limit can be raised (and lowered: a small code over a tiny limit is refused)
    const double old = ldpc_code::elimination_limit();
    ldpc_code::set_elimination_limit(10);
    EXPECT_THROW(ldpc_code::from_base_matrix_text("Z=3\n0 1 -1 0 1\n2 -1 0 0 0\n"), std::invalid_argument);
    ldpc_code::set_elimination_limit(old);
    EXPECT_EQ(ldpc_code::from_base_matrix_text("Z=3\n0 1 -1 0 1\n2 -1 0 0 0\n").n(), 15);
    // a base matrix whose lifted code has billions of edges is refused, not a bad_alloc
    std::ostringstream dense;
    dense << "Z=4096\n";
    for (int r = 0; r < 200; ++r)
        for (int c = 0; c < 400; ++c)
            dense << (r + c) % 4096 << (c == 399 ? "\n" : " ");
    try {
        ldpc_code::from_base_matrix_text(dense.str(), "dense");
        ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("edges"), std::string::npos) << e.what();
    }
}

namespace {

//! a hexadecimal string as bits, most significant first, the first `skip` bits dropped
std::vector<uint8_t> hex_bits(const std::string& hex, int skip = 0)
{
    std::vector<uint8_t> out;
    for (char ch : hex) {
        const int v = std::stoi(std::string(1, ch), nullptr, 16);
        for (int b = 3; b >= 0; --b)
            out.push_back(uint8_t((v >> b) & 1));
    }
    return std::vector<uint8_t>(out.begin() + skip, out.end());
}

} // namespace

TEST(ldpc_code, ccsds_c2_generator_equals_the_standards_annex_c)
{
    // 131.0-B-2 Annex C tabulates the first rows of the generator's circulants B_i,j, 511 bits
    // as 128 hexadecimal digits whose first is octal. Four of them, taken from the standard's
    // text (b14,1, b14,2) and from an independent MATLAB check of the annex (b1,1, b1,2;
    // gomspace_s-band_earth_station, calculate_Bvalues_from_131.m)
    const std::map<int, std::pair<std::string, std::string>> annex = {
        { 1,
          { "55BF56CC55283DFEEFEA8C8CFF04E1EBD9067710988E25048D67525426939E2068D2DC6FCD2F822BEB6BD96C8A76F4932AAE9BC53AD20A"
            "2A9C86BB461E43759C",
            "6855AE08698A50AA3051768793DC238544AF3FE987391021AAF6383A6503409C3CE971A80B3ECE12363EE809A01D91204F1811123EAB"
            "867D3E40E8C652585D28" } },
        { 14,
          { "7273E8342918E097B1C1F5FEF32A150AEF5E11184782B5BD5A1D8071E94578B0AC722D7BF49E8C78D391294371FFBA7B88FABF8CC03A"
            "62B940CE60D669DFB7B6",
            "087EA12042793307045B283D7305E93D8F74725034E77D25D3FF043ADC5F8B5B186DB70A968A816835EFB575952EAE7EA4E76DF0D5F0"
            "97590E1A2A978025573E" } }
    };
    const ldpc_code c = ldpc_code::standard("ccsds:8160:7136");
    ASSERT_EQ(c.k(), 7154);
    const ldpc_encoder enc(c);
    std::vector<uint8_t> info(7154), cw(8176);
    for (const auto& [i, b] : annex) {
        for (int r : { 0, 1, 300 }) { // row r of block i: the first row shifted right by r
            std::fill(info.begin(), info.end(), uint8_t(0));
            info[size_t((i - 1) * 511 + r)] = 1;
            enc.encode_columns(info.data(), 1, cw.data());
            EXPECT_TRUE(c.satisfied(cw.data()));
            for (int half = 0; half < 2; ++half) {
                const auto want = hex_bits(half ? b.second : b.first, 1);
                ASSERT_EQ(want.size(), 511u);
                for (int t = 0; t < 511; ++t)
                    ASSERT_EQ(cw[size_t(7154 + half * 511 + t)], want[size_t((t - r + 511) % 511)])
                        << "b" << i << "," << half + 1 << " row " << r << " bit " << t;
            }
        }
    }
    // a random message: a codeword of H too, systematic
    const auto msg = test::random_bits(7154, 3);
    enc.encode_columns(msg.data(), 1, cw.data());
    EXPECT_TRUE(c.satisfied(cw.data()));
    EXPECT_TRUE(std::equal(msg.begin(), msg.end(), cw.begin()));
}

TEST(ldpc_code, ccsds_telecommand_codes_encode_as_the_standards_generator)
{
    // 231.0-B (and 231.1-O-1): the generator's parity part W, its rows 1, M + 1, 2M + 1, 3M + 1
    // in hexadecimal (four circulants of M each); row a M + j is row a M shifted right by j
    // within each circulant. The published generator, not H: it checks the shifts of H.
    const std::map<std::string, std::vector<std::string>> w = {
        { "ccsds:128:64", { "0E69166BEF4C0BC2", "7766137EBB248418", "C480FEB9CD53A713", "4EAA22FA465EEA11" } },
        { "ccsds:512:256",
          { "1D21794A22761FAE59945014257E130D74D60540037940142DADEB9CA25EF12E",
            "60E0B6623C5CE5124D2C81ECC7F469AB20678DBFB7523ECE2B54B906A9DBE98C",
            "F6739BCF54273E77167BDA120C6C47744C071EFF5E32A7593138670C095C39B5",
            "28706BD0453002582DAB85F05B9201D08DFDEE2D9D84CA88B371FAE63A4EB07E" } }
    };
    for (const auto& [id, rows] : w) {
        const ldpc_code c = ldpc_code::standard(id);
        const int k = c.k(), m = k / 4;
        const ldpc_encoder enc(c);
        for (uint32_t seed = 1; seed <= 4; ++seed) {
            const auto info = test::random_bits(size_t(k), seed);
            std::vector<uint8_t> cw(size_t(c.n())), parity(size_t(k), 0);
            enc.encode_columns(info.data(), 1, cw.data());
            for (int i = 0; i < k; ++i) {
                if (!info[size_t(i)])
                    continue;
                const auto row = hex_bits(rows[size_t(i / m)]);
                const int j = i % m;
                for (int t = 0; t < k; ++t) // block t / m, rotated right by j
                    parity[size_t(t)] ^= row[size_t((t / m) * m + (t % m - j + m) % m)];
            }
            EXPECT_TRUE(std::equal(info.begin(), info.end(), cw.begin())) << id;
            EXPECT_TRUE(std::equal(parity.begin(), parity.end(), cw.begin() + k)) << id << " seed " << seed;
        }
    }
}
