/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc/dvbs2_codes.h"

#include "ldpc/ldpc_standard_text.h"
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

struct dvbs2_table {
    int n = 0, q = 0;
    std::string rate;
    std::vector<std::vector<int>> addresses; // one row per group of 360 information bits
};

//! the compiled-in tables: "[n=<n> rate=<r> q=<q>]" headers, then address rows ('#' comments)
const std::vector<dvbs2_table>& tables()
{
    static const std::vector<dvbs2_table> all = [] {
        std::vector<dvbs2_table> out;
        std::istringstream in(dvbs2_ldpc_tables_text());
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (line[0] == '[') {
                dvbs2_table t;
                std::istringstream h(line.substr(1, line.find(']') - 1));
                std::string kv;
                while (h >> kv) {
                    const auto eq = kv.find('=');
                    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
                    if (key == "n")
                        t.n = std::stoi(value);
                    else if (key == "q")
                        t.q = std::stoi(value);
                    else if (key == "rate")
                        t.rate = value;
                }
                out.push_back(t);
                continue;
            }
            std::istringstream row(line);
            std::vector<int> a;
            for (int x; row >> x;)
                a.push_back(x);
            out.back().addresses.push_back(a);
        }
        return out;
    }();
    return all;
}

} // namespace

std::vector<std::string> dvbs2_code_ids()
{
    std::vector<std::string> ids;
    for (const auto& t : tables())
        ids.push_back("dvbs2:" + std::to_string(t.n) + ":" + t.rate);
    return ids;
}

ldpc_code dvbs2_code(int n, const std::string& rate, const std::string& id)
{
    for (const auto& t : tables()) {
        if (t.n != n || t.rate != rate)
            continue;
        const int m = 360 * t.q, k = n - m;
        std::vector<std::vector<int>> rows(static_cast<size_t>(m));
        // information bit 360 g + w: the checks (x + w q) mod m of its group's addresses x
        for (size_t g = 0; g < t.addresses.size(); ++g)
            for (int w = 0; w < 360; ++w)
                for (int x : t.addresses[g])
                    rows[size_t((x + w * t.q) % m)].push_back(int(g) * 360 + w);
        // the accumulator: check j holds parity bits j - 1 and j
        for (int j = 0; j < m; ++j) {
            if (j > 0)
                rows[size_t(j)].push_back(k + j - 1);
            rows[size_t(j)].push_back(k + j);
        }
        ldpc_code code = ldpc_code::from_rows(n, rows, id);
        code.set_default_normalization(0.875f);
        return code;
    }
    std::string valid;
    for (const auto& t : tables())
        if (t.n == n)
            valid += (valid.empty() ? "" : ", ") + t.rate;
    throw std::invalid_argument("LDPC code '" + id + "': DVB-S2 defines FECFRAMEs of n = 64800 and 16200" +
                                (valid.empty() ? std::string() : "; the rates for n = " + std::to_string(n) +
                                                                     " are " + valid));
}

} // namespace gpufec
