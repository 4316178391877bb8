/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>

#include <algorithm>
#include <stdexcept>

namespace gpufec {

std::vector<std::string> dvbs2_modulations() { return { "none", "bpsk", "qpsk", "8psk", "16apsk", "32apsk" }; }

std::vector<int> dvbs2_bit_interleaver(int n, const std::string& rate, const std::string& modulation)
{
    if (n != 64800 && n != 16200)
        throw std::invalid_argument("DVB-S2 bit interleaver: FECFRAMEs are 64800 or 16200 bits, not " + std::to_string(n));
    if (modulation == "none" || modulation == "bpsk" || modulation == "qpsk")
        return {};
    // the rates EN 302 307-1 Table 12 (and -2 for 16APSK 3/5) pairs with each modulation
    struct mod {
        const char* name;
        int columns;
        std::vector<std::string> rates;
    };
    const mod mods[] = { { "8psk", 3, { "3/5", "2/3", "3/4", "5/6", "8/9", "9/10" } },
                         { "16apsk", 4, { "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10" } },
                         { "32apsk", 5, { "3/4", "4/5", "5/6", "8/9", "9/10" } } };
    const mod* m = nullptr;
    for (const auto& x : mods)
        if (modulation == x.name)
            m = &x;
    if (!m)
        throw std::invalid_argument("DVB-S2 bit interleaver: modulation '" + modulation +
                                    "' is not valid (allowed: none, bpsk, qpsk, 8psk, 16apsk, 32apsk)");
    if (std::find(m->rates.begin(), m->rates.end(), rate) == m->rates.end() || (n == 16200 && rate == "9/10")) {
        std::string list;
        for (const auto& r : m->rates)
            list += (list.empty() ? "" : ", ") + r;
        throw std::invalid_argument("DVB-S2 bit interleaver: " + modulation + " is not sent at rate " + rate +
                                    (n == 16200 ? " in short frames" : "") + " (the standard's rates: " + list + ")");
    }
    // the column each bit of a symbol comes from, most significant first
    std::vector<int> order;
    for (int c = 0; c < m->columns; ++c)
        order.push_back(c);
    if (rate == "3/5" && m->columns == 3)
        order = { 2, 1, 0 };
    if (rate == "3/5" && m->columns == 4)
        order = n == 64800 ? std::vector<int>{ 3, 2, 1, 0 } : std::vector<int>{ 3, 2, 0, 1 };
    const int rows = n / m->columns;
    std::vector<int> perm(static_cast<size_t>(n));
    for (int j = 0; j < rows; ++j)
        for (int b = 0; b < m->columns; ++b)
            perm[size_t(j * m->columns + b)] = order[size_t(b)] * rows + j;
    return perm;
}

} // namespace gpufec
