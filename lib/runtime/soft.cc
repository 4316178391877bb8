/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/soft.h>

#include <cmath>

namespace gpufec {

size_t quantize_soft(const float* in, int8_t* out, size_t n, float scale)
{
    // branch-free so that the compiler vectorises it: clamp (NaN fails every comparison and
    // is caught by v == v), round half away from zero, truncate
    size_t nans = 0;
    for (size_t i = 0; i < n; ++i) {
        float v = in[i] * scale;
        const bool is_num = v == v;
        nans += !is_num;
        v = v > 127.f ? 127.f : v;
        v = v < -127.f ? -127.f : v;
        v = is_num ? v : 0.f;
        v += v < 0.f ? -0.5f : 0.5f;
        out[i] = static_cast<int8_t>(static_cast<int>(v));
    }
    return nans;
}

} // namespace gpufec
