/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Mutated code files: every loader must either build a code or throw std::invalid_argument
 * with a printable message, never crash, hang or throw anything else. Seeds are the standard
 * codes written as alist and base-matrix text; mutations flip, insert, delete and duplicate
 * bytes and tokens. GPUFEC_FUZZ_ITERATIONS sets the count (scripts/sanitize.sh runs many under
 * AddressSanitizer); the default keeps CI quick. */
#include <gnuradio/gpufec/core/ldpc_code.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>

namespace gpufec {
namespace {

std::string base_matrix_text(const ldpc_code& c)
{
    std::ostringstream s;
    s << "# " << c.id() << "\nZ=" << c.z() << "\n";
    for (int r = 0; r < c.mb(); ++r)
        for (int b = 0; b < c.nb(); ++b)
            s << c.shifts()[size_t(r) * c.nb() + b] << (b + 1 == c.nb() ? "\n" : " ");
    return s.str();
}

std::string mutate(std::string t, std::mt19937& rng)
{
    const int edits = 1 + int(rng() % 4);
    static const char* tokens[] = { "0", "-1", "4096", "999999999999", "Z=", "z", "#", "[", "]",
                                    "=", "\n", " ", "\xff", "-", "1e3", "\t" };
    for (int e = 0; e < edits && !t.empty(); ++e) {
        const size_t at = rng() % t.size();
        switch (rng() % 5) {
        case 0:
            t[at] = char(rng() % 256);
            break;
        case 1:
            t.insert(at, tokens[rng() % (sizeof(tokens) / sizeof(*tokens))]);
            break;
        case 2:
            t.erase(at, 1 + rng() % 8);
            break;
        case 3: { // duplicate a line-sized piece
            const size_t len = std::min<size_t>(t.size() - at, 1 + rng() % 64);
            t.insert(rng() % t.size(), t.substr(at, len));
            break;
        }
        default:
            t.resize(at);
        }
    }
    return t;
}

bool printable(const std::string& s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

TEST(ldpc_fuzz, mutated_code_files_give_a_code_or_a_clear_error)
{
    const char* env = std::getenv("GPUFEC_FUZZ_ITERATIONS");
    const int iterations = env ? std::max(1, std::atoi(env)) : 600;
    std::vector<std::pair<std::string, bool>> seeds; // text, is alist
    for (const char* id : { "802.11n:648:1/2", "802.16e:576:2/3A", "802.16e:672:5/6" }) {
        const ldpc_code c = ldpc_code::standard(id);
        seeds.emplace_back(c.to_alist(), true);
        seeds.emplace_back(base_matrix_text(c), false);
    }
    std::mt19937 rng(12345);
    int built = 0, refused = 0;
    for (int i = 0; i < iterations; ++i) {
        const auto& seed = seeds[size_t(i) % seeds.size()];
        const std::string text = mutate(seed.first, rng);
        for (const bool as_alist : { true, false }) {
            try {
                const ldpc_code c = as_alist ? ldpc_code::from_alist(text, "fuzz")
                                             : ldpc_code::from_base_matrix_text(text, "fuzz");
                EXPECT_GE(c.k(), 1);
                ++built;
            } catch (const std::invalid_argument& e) {
                EXPECT_TRUE(printable(e.what())) << e.what();
                ++refused;
            }
        }
        EXPECT_TRUE(ldpc_code::detect_format(text).empty() || ldpc_code::detect_format(text) == "alist" ||
                    ldpc_code::detect_format(text) == "base-matrix");
    }
    EXPECT_GT(built, 0);
    EXPECT_GT(refused, 0);
}

} // namespace
} // namespace gpufec
