/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gf2_systematic.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace gpufec {
using std::size_t;

gf2_systematic gf2_make_systematic(int n,
                                   const std::vector<int>& row_start,
                                   const std::vector<int>& row_cols)
{
    const int m = static_cast<int>(row_start.size()) - 1;
    const int words = (n + 63) / 64;
    // dense rows of 64-bit words
    std::vector<uint64_t> a(size_t(m) * words, 0);
    for (int r = 0; r < m; ++r)
        for (int e = row_start[r]; e < row_start[r + 1]; ++e)
            a[size_t(r) * words + row_cols[e] / 64] ^= uint64_t(1) << (row_cols[e] % 64);
    auto bit = [&](int r, int c) { return (a[size_t(r) * words + c / 64] >> (c % 64)) & 1; };

    gf2_systematic s;
    std::vector<int> pivot_of_row;
    std::vector<char> is_pivot(size_t(n), 0);
    int rank = 0;
    for (int c = n - 1; c >= 0 && rank < m; --c) {
        int r = rank;
        while (r < m && !bit(r, c))
            ++r;
        if (r == m)
            continue;
        if (r != rank)
            for (int w = 0; w < words; ++w)
                std::swap(a[size_t(r) * words + w], a[size_t(rank) * words + w]);
        // clear column c in every other row (reduced echelon form)
        for (int q = 0; q < m; ++q)
            if (q != rank && bit(q, c))
                for (int w = 0; w < words; ++w)
                    a[size_t(q) * words + w] ^= a[size_t(rank) * words + w];
        pivot_of_row.push_back(c);
        is_pivot[size_t(c)] = 1;
        ++rank;
    }
    s.rank = rank;
    for (int c = 0; c < n; ++c)
        if (!is_pivot[size_t(c)])
            s.info_cols.push_back(c);
    s.parity_cols = pivot_of_row;
    s.parity_sums.resize(size_t(rank));
    for (int r = 0; r < rank; ++r)
        for (int c : s.info_cols)
            if (bit(r, c))
                s.parity_sums[size_t(r)].push_back(c);
    return s;
}

} // namespace gpufec
