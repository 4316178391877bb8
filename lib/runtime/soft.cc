/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/soft.h>

#include <cmath>

namespace gpufec {

size_t quantize_soft(const float* in, int8_t* out, size_t n, float scale)
{
    size_t nans = 0;
    for (size_t i = 0; i < n; ++i) {
        const float x = in[i];
        if (std::isnan(x)) {
            out[i] = 0;
            ++nans;
            continue;
        }
        float v = std::nearbyint(x * scale); // handles +-Inf: clamped below
        v = v > 127.f ? 127.f : (v < -127.f ? -127.f : v);
        out[i] = static_cast<int8_t>(v);
    }
    return nans;
}

} // namespace gpufec
