/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc_load_plan.h"

#include <algorithm>
#include <stdexcept>

namespace gpufec {

std::vector<int32_t> ldpc_load_plan(const std::vector<int32_t>& from, int z, int nb, int frame_values)
{
    if (z < 1 || nb < 1 || from.size() != size_t(nb) * size_t(z))
        throw std::invalid_argument("ldpc_load_plan: the table has not nb * z entries");
    const int groups = (nb + 7) / 8;
    std::vector<int32_t> plan(size_t(nb) + size_t(groups), -1);
    auto at = [&](int b, int u) { return from[size_t(b) * size_t(z) + size_t(u)]; };
    for (int b = 0; b < nb; ++b) {
        bool straight = at(b, 0) >= 0;
        for (int u = 1; u < z && straight; ++u)
            straight = at(b, u) == at(b, 0) + u;
        if (straight)
            plan[size_t(b)] = at(b, 0);
    }
    // column b continues the run of column b - 1 where every bit is the next sent value
    auto follows = [&](int b) {
        for (int u = 0; u < z; ++u)
            if (at(b - 1, u) < 0 || at(b, u) != at(b - 1, u) + 1)
                return false;
        return true;
    };
    // each thread's piece: from the 8-byte boundary at or below its first value, 8 bytes, or
    // 16 where that value is not on a boundary
    auto pieces_fit = [&](int b) {
        for (int u = 0; u < z; ++u) {
            const int f = at(b, u);
            if (f < 0 || (f & ~7) + (f % 8 ? 16 : 8) > frame_values)
                return false;
        }
        return true;
    };
    const bool aligned = frame_values % 8 == 0;
    for (int g = 0; g < groups && aligned; ++g) {
        const int first = 8 * g, end = std::min(nb, first + 8);
        int best_lo = 0, best = 0;
        for (int lo = first; lo < end;) {
            if (plan[size_t(lo)] >= 0) { // (straight columns read best as they are)
                ++lo;
                continue;
            }
            int hi = lo + 1;
            while (hi < end && plan[size_t(hi)] < 0 && follows(hi))
                ++hi;
            if (hi - lo > best && hi - lo >= 2 && pieces_fit(lo)) {
                best = hi - lo;
                best_lo = lo - first;
            }
            lo = hi;
        }
        plan[size_t(nb + g)] = load_plan_group(best_lo, best);
    }
    for (int g = 0; g < groups && !aligned; ++g)
        plan[size_t(nb + g)] = 0;
    return plan;
}

} // namespace gpufec
