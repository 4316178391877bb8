/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one max* of the float decoders (turbo's reference BCJR and FPTD, SCPPM's log-MAP):
 * max*(a, b) = ln(e^a + e^b) = max(a, b) + ln(1 + e^-|a - b|), the Jacobian logarithm. Where
 * |a - b| > 30 the correction (below 1e-13) is left out: it cannot change a float sum. */
#ifndef INCLUDED_GPUFEC_CODES_MAX_STAR_H
#define INCLUDED_GPUFEC_CODES_MAX_STAR_H

#include <cmath>

namespace gpufec {

inline float max_star(float a, float b)
{
    const float hi = a > b ? a : b, d = std::fabs(a - b);
    return d > 30.f ? hi : hi + std::log1p(std::exp(-d));
}

//! max* (exact) or max (max-log)
inline float max_star(float a, float b, bool exact) { return exact ? max_star(a, b) : (a > b ? a : b); }

template <bool EXACT>
inline float max_star(float a, float b)
{
    return max_star(a, b, EXACT);
}

} // namespace gpufec

#endif
