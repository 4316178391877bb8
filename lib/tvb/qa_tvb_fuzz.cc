/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Mutated SimCommSys system files: the loader builds a code or throws std::invalid_argument with
 * a readable message that names the file, never crashes, hangs or says nothing. Seeds are the
 * two example files (tvb versions 10 and 7). GPUFEC_FUZZ_ITERATIONS sets the count. */
#include <gnuradio/gpufec/core/tvb/tvb.h>

#include "testing/file_fuzz.h"
#include <gtest/gtest.h>
#include <fstream>
#include <sstream>

namespace gpufec {
namespace {

const char* const tokens[] = { "0", "-1", "1", "2", "12", "65537", "999999999999", "1e-300", "nan", "#",
                               "\n", " ", "\xff", "tvb<bool,double,float>\n", "qids<bool,float>\n",
                               "uncoded<double>\n", "\t" };

std::string slurp(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST(tvb_fuzz, mutated_system_files_give_a_code_or_a_clear_error)
{
    const std::string dir = std::string(GPUFEC_EXAMPLES_DIR) + "/tvb/";
    const std::string seeds[] = { slurp(dir + "qids-bool-tvb_modvec6_4_8_ld3-uncoded-gf16-50.txt"),
                                  slurp(dir + "tvb_q16_n8_modvec6.txt") };
    ASSERT_FALSE(seeds[0].empty());
    const int iterations = test::fuzz_iterations(1000);
    std::mt19937 rng(2026);
    int built = 0, refused = 0;
    for (int i = 0; i < iterations; ++i) {
        const std::string text = test::mutate(seeds[size_t(i) % 2], rng, tokens);
        try {
            const tvb_system s = tvb_from_simcommsys(text, "fuzz.txt");
            EXPECT_GE(s.code.q, 2);
            EXPECT_LE(s.N, size_t(tvb_max_block_length));
            ++built;
        } catch (const std::invalid_argument& e) {
            EXPECT_TRUE(test::readable_message(e.what())) << e.what();
            EXPECT_NE(std::string(e.what()).find("'fuzz.txt'"), std::string::npos) << e.what();
            ++refused;
        }
    }
    EXPECT_GT(built, 0);
    EXPECT_GT(refused, 0);
}

} // namespace
} // namespace gpufec
