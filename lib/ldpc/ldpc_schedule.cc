/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc_schedule.h"

namespace gpufec {

std::vector<bool> ldpc_steps_free_of_previous(const ldpc_code& code) { return ldpc_steps_free_of_previous(code, {}); }

std::vector<bool> ldpc_steps_free_of_previous(const ldpc_code& code, const std::vector<bool>& apart)
{
    std::vector<bool> free;
    if (!code.is_qc())
        return free;
    const auto& start = code.row_start();
    const auto& cols = code.row_cols();
    // group[v]: the last group of steps (between two waits) that touched bit v
    std::vector<int> group(size_t(code.n()), -1);
    auto counted = [&](int v) { return apart.empty() || !apart[size_t(v / code.z())]; };
    int g = -1, row = 0;
    for (int l = 0; l < code.mb(); ++l) {
        const int p = code.row_stride(l), rows = code.z() / p;
        for (int c = 0; c < p; ++c, row += rows) {
            bool clash = g < 0;
            for (int r = row; r < row + rows && !clash; ++r)
                for (int e = start[size_t(r)]; e < start[size_t(r) + 1] && !clash; ++e)
                    clash = counted(cols[size_t(e)]) && group[size_t(cols[size_t(e)])] == g;
            if (clash)
                ++g;
            free.push_back(!clash);
            for (int r = row; r < row + rows; ++r)
                for (int e = start[size_t(r)]; e < start[size_t(r) + 1]; ++e)
                    group[size_t(cols[size_t(e)])] = g;
        }
    }
    return free;
}

} // namespace gpufec
