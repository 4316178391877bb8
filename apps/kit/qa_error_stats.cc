/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "error_stats.h"
#include <gtest/gtest.h>

namespace gpufec::app {
namespace {

TEST(error_stats, wilson_matches_published_values)
{
    // Wilson (1927) / Newcombe (1998) table values at 95%
    const interval a = wilson(0, 100);
    EXPECT_DOUBLE_EQ(a.lo, 0.0);
    EXPECT_NEAR(a.hi, 0.0370, 5e-5);
    const interval b = wilson(50, 100);
    EXPECT_NEAR(b.lo, 0.4038, 5e-5);
    EXPECT_NEAR(b.hi, 0.5962, 5e-5);
    const interval c = wilson(81, 263); // Newcombe's example: 0.2553 .. 0.3662
    EXPECT_NEAR(c.lo, 0.2553, 5e-5);
    EXPECT_NEAR(c.hi, 0.3662, 5e-5);
    const interval none = wilson(0, 0);
    EXPECT_EQ(none.lo, 0.0);
    EXPECT_EQ(none.hi, 1.0);
}

TEST(error_stats, stop_rule_maxima_are_exact)
{
    stop_rule r;
    r.min_frame_errors = 0;
    r.max_bits = 300000; // the old app ran 1,048,464 bits for --max-bits 3e5
    error_counts c;
    while (!r.done(c)) {
        const uint64_t n = r.frames_allowed(c, 1024, 1024);
        if (n == 0)
            break;
        c.frames += n;
        c.bits += n * 1024;
    }
    EXPECT_EQ(c.bits, 292u * 1024u);
    EXPECT_LE(c.bits, r.max_bits);
    EXPECT_EQ(r.frames_allowed(c, 1024, 1024), 0u);

    stop_rule f;
    f.min_frame_errors = 0;
    f.max_bits = 0;
    f.max_frames = 10;
    error_counts d;
    EXPECT_EQ(f.frames_allowed(d, 64, 8), 10u);
    d.frames = 10;
    EXPECT_TRUE(f.done(d));
}

TEST(error_stats, stop_rule_needs_both_error_minima)
{
    stop_rule r;
    r.min_frame_errors = 10;
    r.min_bit_errors = 100;
    r.max_bits = 0;
    error_counts c;
    c.frame_errors = 10;
    c.bit_errors = 99;
    EXPECT_FALSE(r.done(c));
    c.bit_errors = 100;
    EXPECT_TRUE(r.done(c));
    stop_rule none;
    none.min_frame_errors = none.min_bit_errors = none.max_frames = none.max_bits = 0;
    EXPECT_FALSE(none.has_limit());
}

} // namespace
} // namespace gpufec::app
