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

bool gf2_peel_systematic(int n,
                         const std::vector<int>& row_start,
                         const std::vector<int>& row_cols,
                         gf2_systematic& out)
{
    const int m = static_cast<int>(row_start.size()) - 1, k = n - m;
    if (m < 1 || k < 1)
        return false;
    // the checks of each parity column, and each check's count of unsolved parity bits
    std::vector<int> col_start(size_t(m) + 1, 0), col_rows(row_cols.size());
    std::vector<int> unsolved(size_t(m), 0);
    for (int r = 0; r < m; ++r)
        for (int e = row_start[r]; e < row_start[r + 1]; ++e)
            if (row_cols[e] >= k) {
                ++col_start[size_t(row_cols[e] - k) + 1];
                ++unsolved[size_t(r)];
            }
    for (int c = 0; c < m; ++c)
        col_start[size_t(c) + 1] += col_start[size_t(c)];
    std::vector<int> fill(col_start.begin(), col_start.end() - 1);
    for (int r = 0; r < m; ++r)
        for (int e = row_start[r]; e < row_start[r + 1]; ++e)
            if (row_cols[e] >= k)
                col_rows[size_t(fill[size_t(row_cols[e] - k)]++)] = r;

    gf2_systematic s;
    std::vector<char> solved(size_t(m), 0), used(size_t(m), 0);
    std::vector<int> ready;
    for (int r = 0; r < m; ++r)
        if (unsolved[size_t(r)] == 1)
            ready.push_back(r);
    while (!ready.empty()) {
        const int r = ready.back();
        ready.pop_back();
        if (used[size_t(r)])
            continue;
        used[size_t(r)] = 1;
        int target = -1;
        std::vector<int> sum;
        for (int e = row_start[r]; e < row_start[r + 1]; ++e) {
            const int c = row_cols[e];
            if (c >= k && !solved[size_t(c - k)])
                target = c;
            else
                sum.push_back(c);
        }
        if (target < 0)
            return false; // every bit of this check was solved by others: a dependent check
        solved[size_t(target - k)] = 1;
        s.parity_cols.push_back(target);
        s.parity_sums.push_back(std::move(sum));
        for (int i = col_start[size_t(target - k)]; i < col_start[size_t(target - k) + 1]; ++i) {
            const int other = col_rows[size_t(i)];
            if (--unsolved[size_t(other)] == 1 && !used[size_t(other)])
                ready.push_back(other);
        }
    }
    if (int(s.parity_cols.size()) != m)
        return false;
    s.rank = m;
    for (int c = 0; c < k; ++c)
        s.info_cols.push_back(c);
    out = std::move(s);
    return true;
}

} // namespace gpufec
