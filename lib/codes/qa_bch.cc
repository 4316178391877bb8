/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/bch.h>

#include "codes/gf2m_field.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

using gpufec::bch_code;

namespace {

//! polynomial product over GF(2), coefficients lowest degree first
std::vector<uint8_t> mul(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    std::vector<uint8_t> p(a.size() + b.size() - 1, 0);
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < b.size(); ++j)
            p[i + j] ^= a[i] & b[j];
    return p;
}

std::vector<uint8_t> coefficients(const std::string& lowest_first)
{
    std::vector<uint8_t> c;
    for (char ch : lowest_first)
        c.push_back(uint8_t(ch - '0'));
    return c;
}

const char* const rates_normal[] = { "1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10" };

} // namespace

TEST(bch, textbook_code_has_the_textbook_generator)
{
    // BCH(15, 7) t = 2 over GF(16) from x^4 + x + 1: g = x^8 + x^7 + x^6 + x^4 + 1 (Lin & Costello 6.1)
    const bch_code c(4, 0x13, 2, 15);
    EXPECT_EQ(c.k(), 7);
    EXPECT_EQ(c.generator(), coefficients("100010111"));
    // (15, 5) t = 3: g = x^10 + x^8 + x^5 + x^4 + x^2 + x + 1
    EXPECT_EQ(bch_code(4, 0x13, 3, 15).generator(), coefficients("11101100101"));
}

TEST(bch, dvbs2_generators_are_the_standards_products)
{
    // EN 302 307-1 Tables 6a and 6b: g_1 .. g_12, lowest degree first; the code of t errors has
    // g = g_1 g_2 ... g_t
    const char* const normal[] = { "10110100000000001", "11001110100000001", "10111101111100001",
                                   "10101010010110101", "11110100111110001", "10101101111011111",
                                   "10100110111101011", "11100110110011101", "10000101011100001",
                                   "11100101101011101", "10110100010111001", "11000111010110001" };
    const char* const short_g[] = { "110101000000001", "100000101001001", "111000100110001", "100010011010101",
                                    "101010101101011", "100100011100011", "101001110011011", "100001001111001",
                                    "111100000110001", "100100100101101", "100010000001101", "111101111010011" };
    for (const char* rate : rates_normal) {
        const bch_code c = bch_code::dvbs2(64800, rate);
        std::vector<uint8_t> g{ 1 };
        for (int i = 0; i < c.t(); ++i)
            g = mul(g, coefficients(normal[i]));
        EXPECT_EQ(c.generator(), g) << rate;
        EXPECT_EQ(c.parity_bits(), 16 * c.t()) << rate;
        EXPECT_EQ(c.m(), 16);
    }
    std::vector<uint8_t> g{ 1 };
    for (const char* p : short_g)
        g = mul(g, coefficients(p));
    for (int i = 0; i < 10; ++i) {
        const bch_code c = bch_code::dvbs2(16200, rates_normal[i]);
        EXPECT_EQ(c.generator(), g) << rates_normal[i];
        EXPECT_EQ(c.parity_bits(), 168);
    }
    // g_i is the minimal polynomial of alpha^(2i - 1) in the field of g_1 (what the GPU decoder's
    // syndromes divide by: gf2m_field::minimal_polynomial)
    auto bits_of = [](const char* lowest_first) {
        uint32_t b = 0;
        for (int i = 0; lowest_first[i]; ++i)
            b |= uint32_t(lowest_first[i] - '0') << i;
        return b;
    };
    const gpufec::gf2m_field gf16(16, bits_of(normal[0])), gf14(14, bits_of(short_g[0]));
    for (int i = 0; i < 12; ++i) {
        EXPECT_EQ(gf16.minimal_polynomial(2 * i + 1), bits_of(normal[i])) << "g_" << i + 1;
        EXPECT_EQ(gf14.minimal_polynomial(2 * i + 1), bits_of(short_g[i])) << "short g_" << i + 1;
    }
    // K_bch (Tables 5a, 5b), a few
    EXPECT_EQ(bch_code::dvbs2(64800, "1/2").k(), 32208);
    EXPECT_EQ(bch_code::dvbs2(64800, "2/3").k(), 43040);
    EXPECT_EQ(bch_code::dvbs2(64800, "9/10").k(), 58192);
    EXPECT_EQ(bch_code::dvbs2(16200, "1/4").k(), 3072);
    EXPECT_EQ(bch_code::dvbs2(16200, "8/9").k(), 14232);
}

TEST(bch, minimal_polynomials_are_the_textbook_ones)
{
    // GF(16) from x^4 + x + 1 (Lin & Costello, Table 2.9): alpha^0 x + 1, alpha (and alpha^2)
    // x^4 + x + 1, alpha^3 x^4 + x^3 + x^2 + x + 1, alpha^5 x^2 + x + 1, alpha^7 x^4 + x^3 + 1
    const gpufec::gf2m_field gf(4, 0x13);
    EXPECT_EQ(gf.minimal_polynomial(0), 0x3u);
    EXPECT_EQ(gf.minimal_polynomial(1), 0x13u);
    EXPECT_EQ(gf.minimal_polynomial(2), 0x13u);
    EXPECT_EQ(gf.minimal_polynomial(3), 0x1fu);
    EXPECT_EQ(gf.minimal_polynomial(5), 0x7u);
    EXPECT_EQ(gf.minimal_polynomial(7), 0x19u);
    EXPECT_EQ(gf.minimal_polynomial(-1), 0x19u); // (alpha^14 = alpha^-1, alpha^7's coset)
    EXPECT_EQ(gpufec::gf2_degree(0x19u), 4);
    EXPECT_EQ(gpufec::gf2_degree(0x7u), 2);
    EXPECT_EQ(gpufec::gf2_degree(1u), 0);
}

TEST(bch, up_to_t_errors_are_corrected_and_more_are_reported)
{
    std::mt19937 rng(5);
    std::vector<bch_code> codes;
    for (const char* r : rates_normal)
        codes.push_back(bch_code::dvbs2(64800, r));
    for (int i = 0; i < 10; ++i)
        codes.push_back(bch_code::dvbs2(16200, rates_normal[i]));
    codes.push_back(bch_code(4, 0x13, 2, 15));
    codes.push_back(bch_code(8, 0x11d, 4, 100)); // shortened, k not a multiple of 8
    int beyond = 0, reported = 0, miscorrected = 0;
    for (const auto& c : codes) {
        for (int trial = 0; trial < 4; ++trial) {
            std::vector<uint8_t> msg(size_t(c.k())), cw(size_t(c.n()));
            for (auto& b : msg)
                b = uint8_t(rng() & 1);
            c.encode(msg.data(), cw.data());
            ASSERT_TRUE(std::equal(msg.begin(), msg.end(), cw.begin())) << c.describe(); // systematic
            auto clean = cw;
            EXPECT_EQ(c.decode(clean.data()), 0) << c.describe();
            EXPECT_EQ(clean, cw);
            for (int errors : { 1, c.t(), c.t() + 1, c.t() + 3 }) {
                std::set<int> at;
                while (int(at.size()) < errors)
                    at.insert(int(rng() % unsigned(c.n())));
                auto rx = cw;
                for (int p : at)
                    rx[size_t(p)] ^= 1;
                const auto sent = rx;
                const int r = c.decode(rx.data());
                if (errors <= c.t()) {
                    EXPECT_EQ(r, errors) << c.describe();
                    EXPECT_EQ(rx, cw) << c.describe();
                    continue;
                }
                ++beyond;
                if (r < 0) {
                    ++reported;
                    EXPECT_EQ(rx, sent) << "a failure must leave the word as it came";
                } else {
                    // a miscorrection lands on another codeword within t of the word
                    ++miscorrected;
                    auto again = rx;
                    EXPECT_EQ(c.decode(again.data()), 0);
                    EXPECT_NE(rx, cw);
                }
            }
        }
    }
    // beyond t a decoder lands on another codeword only rarely (about 1 / t! of the patterns
    // for these long shortened codes; the tiny (15, 7) and (100, ..) codes more often)
    EXPECT_GE(reported, beyond - 6) << miscorrected << " of " << beyond << " miscorrected";
}

/* The decoder's test before its Chien search: a locator has as many distinct roots in the field
 * as its degree, counted here by trying every element; on locators made from chosen roots (which
 * pass), with a root twice or an irreducible quadratic factor (which fail), and at random (which
 * mostly fail), in GF(2^8) and in DVB-S2's GF(2^16). */
TEST(bch, every_word_decodes_to_the_codeword_within_t_or_fails)
{
    // bounded-distance decoding against a search over every codeword: a word within t of
    // a codeword comes back as that codeword with its distance, any other is reported
    // (-1) and left as it came. (15, 7) t = 2 (designed distance 5): all 2^15 words. (24,
    // 9) t = 3, shortened from 31 (distance 7): every codeword with 0 to 6 errors at
    // random places and random words (whose nearest codewords can lie in the shortened
    // part: reported)
    std::mt19937 rng(9);
    for (const bch_code& c : { bch_code(4, 0x13, 2, 15), bch_code(5, 0x25, 3, 24) }) {
        const int n = c.n(), k = c.k(), t = c.t();
        ASSERT_LE(n, 31);
        std::vector<uint32_t> codewords;
        std::vector<uint8_t> msg(static_cast<size_t>(k)), bits(static_cast<size_t>(n));
        for (uint32_t m = 0; m < (1u << k); ++m) {
            for (int i = 0; i < k; ++i)
                msg[size_t(i)] = uint8_t((m >> i) & 1);
            c.encode(msg.data(), bits.data());
            uint32_t w = 0;
            for (int i = 0; i < n; ++i)
                w |= uint32_t(bits[size_t(i)]) << i;
            codewords.push_back(w);
        }
        int checked = 0, corrected = 0, failures = 0, wrong = 0;
        std::string first;
        const auto check = [&](uint32_t w) {
            int best = n + 1;
            uint32_t nearest = 0;
            for (uint32_t cw : codewords) {
                const int d = __builtin_popcount(w ^ cw);
                if (d < best) {
                    best = d;
                    nearest = cw;
                }
            }
            for (int i = 0; i < n; ++i)
                bits[size_t(i)] = uint8_t((w >> i) & 1);
            const int r = c.decode(bits.data());
            uint32_t out = 0;
            for (int i = 0; i < n; ++i)
                out |= uint32_t(bits[size_t(i)]) << i;
            const bool ok = best <= t ? r == best && out == nearest : r == -1 && out == w;
            ++checked;
            corrected += best <= t && best > 0;
            failures += best > t;
            if (!ok && wrong++ == 0)
                first = c.describe() + ": word " + std::to_string(w) + " at " +
                        std::to_string(best) + " from its nearest codeword, decoded " +
                        std::to_string(r);
        };
        if (n == 15)
            for (uint32_t w = 0; w < (1u << 15); ++w)
                check(w);
        else
            for (int trial = 0; trial < 20000; ++trial) {
                uint32_t w = codewords[rng() % codewords.size()];
                if (trial % 4 == 3)
                    w = uint32_t(rng()) & ((1u << n) - 1); // a random word
                else
                    for (int e = trial % 7; e > 0;
                         --e) // (a place may come twice: fewer errors)
                        w ^= 1u << (rng() % unsigned(n));
                check(w);
            }
        EXPECT_EQ(wrong, 0) << first;
        EXPECT_GT(corrected, checked / 10)
            << c.describe(); // (both kinds of word are many)
        EXPECT_GT(failures, checked / 10) << c.describe();
    }
}

TEST(bch, a_locator_splits_where_every_element_tried_finds_its_roots)
{
    std::mt19937 rng(11);
    for (const auto& f : { gpufec::gf2m_field(8, 0x11d), gpufec::gf2m_field(16, 0x1002d) }) {
        auto roots_counted = [&](const std::vector<uint16_t>& c) {
            int count = 0;
            for (int x = 1; x <= f.size; ++x) {
                uint16_t v = 0, p = 1;
                for (uint16_t ci : c) {
                    v ^= f.mul(ci, p);
                    p = f.mul(p, uint16_t(x));
                }
                count += v == 0;
            }
            return count;
        };
        auto times_linear = [&](const std::vector<uint16_t>& c, uint16_t root) { // c (x + root)
            std::vector<uint16_t> r(c.size() + 1, 0);
            for (size_t i = 0; i < c.size(); ++i) {
                r[i + 1] ^= c[i];
                r[i] ^= f.mul(c[i], root);
            }
            return r;
        };
        auto element = [&] { return uint16_t(1 + rng() % unsigned(f.size)); };
        int passed = 0, failed = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const int d = 1 + trial % 12, kind = trial % 4;
            std::vector<uint16_t> c{ 1 };
            if (kind == 3) { // at random, c[0] and c[d] not zero
                c.assign(size_t(d + 1), 0);
                for (auto& x : c)
                    x = uint16_t(rng() % unsigned(f.size + 1));
                c[0] = element();
                c[size_t(d)] = element();
            } else {
                std::set<uint16_t> chosen;
                while (int(chosen.size()) < d - (kind == 0 ? 0 : 1))
                    chosen.insert(element());
                for (uint16_t r : chosen)
                    c = times_linear(c, r);
                if (kind == 1 && d >= 2) // a root twice
                    c = times_linear(c, *chosen.begin());
                if (kind == 2 && d >= 3) { // x^2 + x + b without roots in the field, for a b whose
                    // trace is 1, in place of two linear factors
                    c = { 1 };
                    auto it = chosen.begin();
                    for (int i = 0; i < d - 2; ++i, ++it)
                        c = times_linear(c, *it);
                    uint16_t b = 0;
                    for (int tries = 0; tries < 1000 && !b; ++tries) {
                        const uint16_t cand = element();
                        std::vector<uint16_t> q{ cand, 1, 1 };
                        if (roots_counted(q) == 0)
                            b = cand;
                    }
                    ASSERT_NE(b, 0);
                    std::vector<uint16_t> q{ b, 1, 1 }, r(c.size() + 2, 0);
                    for (size_t i = 0; i < c.size(); ++i)
                        for (size_t j = 0; j < 3; ++j)
                            r[i + j] ^= f.mul(c[i], q[j]);
                    c = r;
                }
                if (int(c.size()) != d + 1)
                    continue; // (d too small for the kind)
            }
            const bool expect = roots_counted(c) == d;
            EXPECT_EQ(f.splits_distinct(c.data(), d), expect) << "m " << f.m << " degree " << d << " kind " << kind;
            (expect ? passed : failed)++;
        }
        EXPECT_GE(passed, 10);
        EXPECT_GE(failed, 10);
    }
}

TEST(bch, packed_and_unpacked_faces_agree)
{
    const bch_code c = bch_code::dvbs2(16200, "1/2");
    std::mt19937 rng(9);
    std::vector<uint8_t> msg(size_t(c.k())), cw(size_t(c.n()));
    for (auto& b : msg)
        b = uint8_t(rng() & 1);
    c.encode(msg.data(), cw.data());
    std::vector<uint8_t> pm(size_t(c.k()) / 8), pc(size_t(c.n()) / 8, 0xff);
    for (int i = 0; i < c.k(); ++i)
        pm[size_t(i / 8)] |= uint8_t(msg[size_t(i)] << (7 - i % 8));
    c.encode_packed(pm.data(), pc.data());
    for (int i = 0; i < c.n(); ++i)
        ASSERT_EQ((pc[size_t(i / 8)] >> (7 - i % 8)) & 1, cw[size_t(i)]) << i;
    pc[100] ^= 0x81; // two errors
    EXPECT_EQ(c.decode_packed(pc.data()), 2);
    for (int i = 0; i < c.n(); ++i)
        ASSERT_EQ((pc[size_t(i / 8)] >> (7 - i % 8)) & 1, cw[size_t(i)]) << i;
}

TEST(bch, bad_parameters_are_refused)
{
    EXPECT_THROW(bch_code(2, 0x7, 1, 3), std::invalid_argument);       // m too small
    EXPECT_THROW(bch_code(4, 0x1f, 2, 15), std::invalid_argument);     // x^4+x^3+x^2+x+1: not primitive
    EXPECT_THROW(bch_code(4, 0x13, 2, 16), std::invalid_argument);     // n > 2^m - 1
    EXPECT_THROW(bch_code(4, 0x13, 8, 15), std::invalid_argument);     // no message bits
    EXPECT_THROW(bch_code::dvbs2(16200, "9/10"), std::invalid_argument); // no short 9/10
    EXPECT_THROW(bch_code::dvbs2(1000, "1/2"), std::invalid_argument);
}
