/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Mutated code files: every loader must either build a code or throw std::invalid_argument
 * with a printable message, never crash, hang or throw anything else. Seeds are the standard
 * codes written as alist and base-matrix text; mutations flip, insert, delete and duplicate
 * bytes and tokens. GPUFEC_FUZZ_ITERATIONS sets the count (scripts/sanitize.sh runs many under
 * AddressSanitizer); the default keeps CI quick. */
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include "testing/file_fuzz.h"
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

const char* const tokens[] = { "0", "-1", "4096", "999999999999", "Z=", "z", "#", "[", "]",
                               "=", "\n", " ", "\xff", "-", "1e3", "\t" };

TEST(ldpc_fuzz, mutated_code_files_give_a_code_or_a_clear_error)
{
    const int iterations = test::fuzz_iterations(600);
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
        const std::string text = test::mutate(seed.first, rng, tokens);
        for (const bool as_alist : { true, false }) {
            try {
                const ldpc_code c = as_alist ? ldpc_code::from_alist(text, "fuzz")
                                             : ldpc_code::from_base_matrix_text(text, "fuzz");
                EXPECT_GE(c.k(), 1);
                ++built;
            } catch (const std::invalid_argument& e) {
                EXPECT_TRUE(test::readable_message(e.what())) << e.what();
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
