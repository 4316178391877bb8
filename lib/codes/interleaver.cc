/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/interleaver.h>

#include "codes/lte_qpp_table.h"
#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gpufec {

interleaver interleaver::from_permutation(std::vector<uint32_t> pi)
{
    interleaver it;
    it.d_inv.assign(pi.size(), uint32_t(-1));
    for (size_t i = 0; i < pi.size(); ++i) {
        if (pi[i] >= pi.size() || it.d_inv[pi[i]] != uint32_t(-1))
            throw std::invalid_argument("interleaver: not a permutation of 0.." +
                                        std::to_string(pi.size() - 1) + " (position " + std::to_string(i) + ")");
        it.d_inv[pi[i]] = uint32_t(i);
    }
    it.d_pi = std::move(pi);
    return it;
}

namespace {
struct qpp {
    int K, f1, f2;
};
// the table's rows (index, K, f1, f2) from the compiled-in 36.212 table 5.1.3-3
const std::vector<qpp>& qpp_table()
{
    static const std::vector<qpp> table = [] {
        std::vector<qpp> t;
        std::istringstream in(lte_qpp_table_text());
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#' || !std::isdigit(static_cast<unsigned char>(line[0])))
                continue;
            std::istringstream f(line);
            std::string idx, k, f1, f2;
            std::getline(f, idx, ',');
            std::getline(f, k, ',');
            std::getline(f, f1, ',');
            std::getline(f, f2, ',');
            t.push_back({ std::stoi(k), std::stoi(f1), std::stoi(f2) });
        }
        return t;
    }();
    return table;
}
} // namespace

std::vector<int> interleaver::lte_sizes()
{
    std::vector<int> k;
    for (const auto& q : qpp_table())
        k.push_back(q.K);
    return k;
}

interleaver interleaver::lte_qpp(int K)
{
    for (const auto& q : qpp_table())
        if (q.K == K) {
            std::vector<uint32_t> pi(static_cast<size_t>(K));
            for (int64_t i = 0; i < K; ++i)
                pi[size_t(i)] = uint32_t((int64_t(q.f1) * i + int64_t(q.f2) * i % K * i) % K);
            return from_permutation(std::move(pi));
        }
    throw std::invalid_argument("K: " + std::to_string(K) +
                                " is not an LTE turbo block size (allowed: 40..512 in steps of 8, "
                                "..1024 in steps of 16, ..2048 in steps of 32, ..6144 in steps of 64)");
}

interleaver interleaver::ccsds_turbo(int K)
{
    if (K != 1784 && K != 3568 && K != 7136 && K != 8920)
        throw std::invalid_argument("K: " + std::to_string(K) +
                                    " is not a CCSDS turbo block size (allowed: 1784, 3568, 7136, 8920)");
    static const int64_t p[8] = { 31, 37, 43, 47, 53, 59, 61, 67 };
    const int64_t k1 = 8, k2 = K / k1;
    std::vector<uint32_t> pi(static_cast<size_t>(K));
    // the standard counts s and pi(s) from 1; here both from 0: pi0[s - 1] = pi(s) - 1
    for (int64_t s = 1; s <= K; ++s) {
        const int64_t m = (s - 1) % 2;
        const int64_t i = (s - 1) / (2 * k2);
        const int64_t j = (s - 1) / 2 - i * k2;
        const int64_t t = (19 * i + 1) % (k1 / 2);
        const int64_t q = t % 8 + 1;
        const int64_t c = (p[q - 1] * j + 21 * m) % k2;
        pi[size_t(s - 1)] = uint32_t(2 * (t + c * (k1 / 2) + 1) - m - 1);
    }
    return from_permutation(std::move(pi));
}

} // namespace gpufec
