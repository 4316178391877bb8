/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "vit_engine.h"

#include <algorithm>
#include <cstring>

namespace gpufec {

vit_params make_code_params(const conv_code& code)
{
    vit_params p;
    std::memset(&p, 0, sizeof(p));
    p.K = code.k;
    p.n = code.n();
    p.shift = code.n() == 2 ? 1 : 2;
    p.soft_bits = 8;
    p.period = code.period();
    p.kept = code.kept_per_period();
    std::fill(std::begin(p.pos), std::end(p.pos), int8_t(-1));
    int e = 0;
    for (int t = 0; t < p.period; ++t)
        for (int r = 0; r < p.n; ++r)
            if (code.puncture.empty() || code.puncture[t * p.n + r])
                p.pos[t * p.n + r] = static_cast<int8_t>(e++);
    return p;
}

vit_chunk make_chunk(const conv_code& code, const vit_params& p, int64_t a, int64_t b)
{
    vit_chunk c;
    c.params = p;
    if (p.kind == vit_stream) {
        const int64_t first = p.first_pb + a;
        int64_t lo_stage = std::max<int64_t>(0, first * p.D - p.L);
        lo_stage -= lo_stage % p.period; // stays period aligned (stage0 is)
        const int64_t hi_stage = (p.first_pb + b) * p.D + p.L;
        const int64_t rel = lo_stage - p.stage0;
        c.soft_lo = (rel / p.period) * p.kept;
        c.soft_hi = c.soft_lo + code.kept_for_stages(hi_stage - lo_stage);
        c.params.stage0 = lo_stage;
        c.params.first_pb = first;
        c.out_lo = a * (p.D / 8);
        c.out_hi = b * (p.D / 8);
    } else {
        c.soft_lo = a * p.in_per_frame;
        c.soft_hi = b * p.in_per_frame;
        c.out_lo = a * p.out_bytes_per_frame;
        c.out_hi = b * p.out_bytes_per_frame;
    }
    return c;
}

} // namespace gpufec
