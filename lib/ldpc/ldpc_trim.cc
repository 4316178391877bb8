/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc_trim.h"

#include <set>
#include <utility>

namespace gpufec {

std::optional<ldpc_trimmed_graph> ldpc_trim_unsent(const ldpc_code& code, const std::vector<int>& punctured)
{
    if (!code.is_qc() || !code.send_order().empty() || punctured.empty())
        return std::nullopt;
    const int z = code.z(), mb = code.mb(), nb = code.nb();
    const auto& circ = code.circulants();
    std::set<std::pair<int, int>> blocks;
    for (const qc_circulant& c : circ)
        if (c.missing >= 0 || !blocks.insert({ c.row, c.col }).second)
            return std::nullopt; // (a block of several circulants, or one lacking an entry)
    std::vector<char> unsent(size_t(code.n()), 0);
    for (int p : punctured)
        unsent[size_t(p)] = 1;
    std::vector<char> all_unsent(size_t(nb), 1);
    for (int v = 0; v < code.n(); ++v)
        all_unsent[size_t(v / z)] &= unsent[size_t(v)];
    std::vector<int> degree(size_t(nb), 0);
    std::vector<std::vector<int>> cols_of(static_cast<size_t>(mb));
    for (const qc_circulant& c : circ) {
        ++degree[size_t(c.col)];
        cols_of[size_t(c.row)].push_back(c.col);
    }
    std::vector<char> row_kept(size_t(mb), 1), col_kept(size_t(nb), 1);
    int dropped = 0;
    for (bool again = true; again;) {
        again = false;
        for (int l = 0; l < mb; ++l) {
            if (!row_kept[size_t(l)] || dropped + 1 == mb)
                continue;
            // a column of the row all unsent and tied to this row alone makes it an erasure
            // in every row of the block; the row goes if its other columns keep a check
            bool erased = false, others_kept = true;
            for (int b : cols_of[size_t(l)]) {
                if (all_unsent[size_t(b)] && degree[size_t(b)] == 1)
                    erased = true;
                else
                    others_kept = others_kept && degree[size_t(b)] >= 2;
            }
            if (!erased || !others_kept)
                continue;
            row_kept[size_t(l)] = 0;
            for (int b : cols_of[size_t(l)])
                if (--degree[size_t(b)] == 0)
                    col_kept[size_t(b)] = 0;
            ++dropped;
            again = true;
        }
    }
    if (dropped == 0)
        return std::nullopt;
    std::vector<int> new_row(size_t(mb), -1), new_col(size_t(nb), -1);
    int rows = 0, cols = 0;
    for (int l = 0; l < mb; ++l)
        if (row_kept[size_t(l)])
            new_row[size_t(l)] = rows++;
    for (int b = 0; b < nb; ++b)
        if (col_kept[size_t(b)])
            new_col[size_t(b)] = cols++;
    std::vector<qc_circulant> kept;
    for (const qc_circulant& c : circ)
        if (row_kept[size_t(c.row)])
            kept.push_back(qc_circulant{ new_row[size_t(c.row)], new_col[size_t(c.col)], c.shift, -1 });
    ldpc_trimmed_graph t{ ldpc_code::from_circulants(z, rows, cols, std::move(kept), code.id()), {}, dropped };
    t.code.set_default_normalization(code.default_normalization());
    t.column.assign(size_t(code.n()), -1);
    for (int v = 0; v < code.n(); ++v)
        if (col_kept[size_t(v / z)])
            t.column[size_t(v)] = new_col[size_t(v / z)] * z + v % z;
    // the information columns must stay information columns, in the same order
    const auto& info = code.info_columns();
    if (t.code.info_columns().size() != info.size())
        return std::nullopt;
    for (size_t i = 0; i < info.size(); ++i)
        if (t.code.info_columns()[i] != t.column[size_t(info[i])])
            return std::nullopt;
    return t;
}

} // namespace gpufec
