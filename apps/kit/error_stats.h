/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Error counting for the error-rate apps: counts, Wilson score intervals, and the stop rule
 * (minimum frame / bit errors, maximum frames / bits, never exceeded). Header-only, no
 * dependencies, tested in qa_error_stats.cc. */
#ifndef INCLUDED_GPUFEC_APPS_ERROR_STATS_H
#define INCLUDED_GPUFEC_APPS_ERROR_STATS_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpufec {
namespace app {

struct error_counts {
    uint64_t frames = 0, frame_errors = 0, bits = 0, bit_errors = 0, iterations = 0;
    uint64_t symbols = 0, symbol_errors = 0; //!< codes of symbols of several bits; else 0
    error_counts& operator+=(const error_counts& o)
    {
        frames += o.frames;
        frame_errors += o.frame_errors;
        bits += o.bits;
        bit_errors += o.bit_errors;
        iterations += o.iterations;
        symbols += o.symbols;
        symbol_errors += o.symbol_errors;
        return *this;
    }
};

struct interval {
    double lo, hi;
};

/*! Wilson score interval of a proportion k / n at the normal quantile z (1.96: 95%). Unlike
 *  the normal approximation it stays inside [0, 1] and is not empty at k = 0. n = 0: [0, 1]. */
inline interval wilson(uint64_t k, uint64_t n, double z = 1.959963984540054)
{
    if (n == 0)
        return { 0.0, 1.0 };
    const double nn = double(n), p = double(k) / nn, z2 = z * z;
    const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    const double half = z / (1 + z2 / nn) * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    // (exact bounds where the rounding of centre - half would leave a trace)
    return { k == 0 ? 0.0 : std::max(0.0, centre - half), k == n ? 1.0 : std::min(1.0, centre + half) };
}

/*! When a point is finished: once it has min_frame_errors frame errors and min_bit_errors bit
 *  errors (0: not required), or when max_frames or max_bits is reached (0: no limit). At
 *  least one limit must be set. frames_allowed() trims a batch so the maxima are exact. */
struct stop_rule {
    uint64_t min_frame_errors = 100, min_bit_errors = 0, max_frames = 0, max_bits = 100000000;

    bool done(const error_counts& c) const
    {
        const bool errors_enough = (min_frame_errors == 0 || c.frame_errors >= min_frame_errors) &&
                                   (min_bit_errors == 0 || c.bit_errors >= min_bit_errors) &&
                                   (min_frame_errors > 0 || min_bit_errors > 0);
        return errors_enough || (max_frames > 0 && c.frames >= max_frames) ||
               (max_bits > 0 && c.bits >= max_bits);
    }
    //! of `wanted` more frames of frame_bits bits, how many stay within the maxima
    uint64_t frames_allowed(const error_counts& c, uint64_t wanted, uint64_t frame_bits) const
    {
        uint64_t n = wanted;
        if (max_frames > 0)
            n = std::min(n, max_frames > c.frames ? max_frames - c.frames : 0);
        if (max_bits > 0 && frame_bits > 0)
            n = std::min(n, max_bits > c.bits ? (max_bits - c.bits) / frame_bits : 0);
        return n;
    }
    bool has_limit() const
    {
        return min_frame_errors > 0 || min_bit_errors > 0 || max_frames > 0 || max_bits > 0;
    }
};

} // namespace app
} // namespace gpufec

#endif
