/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>

#include <algorithm>
#include <stdexcept>

namespace gpufec {

namespace {

/* Which rates each modulation carries (EN 302 307-1 Table 12; EN 302 307-2's MODCODs, as
 * gr-dtv's dvbs2_physical_cc numbers them) and the order its columns are read in: a rate's
 * order, where it has one, as "3201" (the symbol's most significant bit from column 3, ...),
 * for normal frames and, where they differ, short ones. */
struct twist {
    const char* rate;
    const char* normal; // column order, "" for the modulation's plain 0 1 2 ...
    const char* short_;  // null: the normal frames' order
};
struct modulation_spec {
    const char* name;
    int columns;
    std::vector<std::string> normal_rates, short_rates;
    std::vector<twist> twists;
};

const std::vector<modulation_spec>& modulation_specs()
{
    static const std::vector<modulation_spec> all = {
        { "8psk", 3,
          { "3/5", "2/3", "3/4", "5/6", "8/9", "9/10", "23/36", "25/36", "13/18" },
          { "3/5", "2/3", "3/4", "5/6", "8/9", "7/15", "8/15", "26/45", "32/45" },
          { { "3/5", "210", nullptr }, { "25/36", "102", nullptr }, { "13/18", "102", nullptr },
            { "7/15", "102", nullptr }, { "8/15", "102", nullptr }, { "26/45", "102", nullptr } } },
        { "8apsk", 3, { "100/180", "104/180" }, {}, {} }, // 8APSK-L
        { "16apsk", 4,
          { "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10", "26/45", "28/45", "23/36", "25/36", "13/18",
            "140/180", "154/180" },
          { "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "26/45", "7/15", "8/15", "32/45" },
          { { "3/5", "3210", "3201" }, { "26/45", "3201", "2130" }, { "28/45", "3012", nullptr },
            { "23/36", "3021", nullptr }, { "13/18", "3021", nullptr }, { "25/36", "2310", nullptr },
            { "7/15", "2103", nullptr }, { "8/15", "2103", nullptr }, { "140/180", "3210", nullptr },
            { "154/180", "0321", nullptr } } },
        { "8+8apsk", 4, { "90/180", "96/180", "100/180", "18/30", "20/30" }, {},
          { { "90/180", "3210", nullptr }, { "96/180", "2310", nullptr }, { "100/180", "2301", nullptr } } },
        { "32apsk", 5, { "3/4", "4/5", "5/6", "8/9", "9/10" }, { "3/4", "4/5", "5/6", "8/9" }, {} },
        { "4+12+16apsk", 5, { "2/3" }, { "2/3", "32/45" },
          { { "2/3", "21430", "41230" }, { "32/45", "", "10423" } } },
        { "4+8+4+16apsk", 5, { "128/180", "132/180", "140/180" }, {},
          { { "128/180", "40312", nullptr }, { "132/180", "40312", nullptr }, { "140/180", "40213", nullptr } } },
        { "64apsk", 6, { "128/180" }, {}, { { "128/180", "305214", nullptr } } },
        { "8+16+20+20apsk", 6, { "7/9", "4/5", "5/6" }, {},
          { { "7/9", "201543", nullptr }, { "4/5", "124053", nullptr }, { "5/6", "421053", nullptr } } },
        { "4+12+20+28apsk", 6, { "132/180" }, {}, { { "132/180", "520143", nullptr } } },
        { "256apsk", 8, { "116/180", "20/30", "124/180", "128/180", "22/30", "135/180" }, {},
          { { "116/180", "40372156", nullptr }, { "124/180", "46320571", nullptr },
            { "128/180", "75642301", nullptr }, { "135/180", "50743612", nullptr } } },
    };
    return all;
}

} // namespace

std::vector<std::string> dvbs2_modulations()
{
    std::vector<std::string> out = { "none", "bpsk", "qpsk" };
    for (const auto& m : modulation_specs())
        out.push_back(m.name);
    return out;
}

std::vector<int> dvbs2_bit_interleaver(int n, const std::string& rate, const std::string& modulation)
{
    if (n != 64800 && n != 16200)
        throw std::invalid_argument("DVB-S2 bit interleaver: FECFRAMEs are 64800 or 16200 bits, not " + std::to_string(n));
    if (modulation == "none" || modulation == "bpsk" || modulation == "qpsk")
        return {};
    const modulation_spec* m = nullptr;
    for (const auto& x : modulation_specs())
        if (modulation == x.name)
            m = &x;
    if (!m) {
        std::string list;
        for (const auto& x : dvbs2_modulations())
            list += (list.empty() ? "" : ", ") + x;
        throw std::invalid_argument("DVB-S2 bit interleaver: modulation '" + modulation + "' is not valid (allowed: " +
                                    list + "; 128APSK is not built)");
    }
    const auto& rates = n == 64800 ? m->normal_rates : m->short_rates;
    if (std::find(rates.begin(), rates.end(), rate) == rates.end()) {
        std::string list;
        for (const auto& r : rates)
            list += (list.empty() ? "" : ", ") + r;
        throw std::invalid_argument("DVB-S2 bit interleaver: " + modulation + " is not sent at rate " + rate +
                                    (n == 16200 ? " in short frames" : " in normal frames") +
                                    " (the standards' rates: " + (list.empty() ? "none" : list) + ")");
    }
    // the column each bit of a symbol comes from, most significant first
    std::vector<int> order;
    for (int c = 0; c < m->columns; ++c)
        order.push_back(c);
    for (const auto& t : m->twists)
        if (rate == t.rate) {
            const char* o = n == 16200 && t.short_ ? t.short_ : t.normal;
            if (*o)
                for (int c = 0; c < m->columns; ++c)
                    order[size_t(c)] = o[c] - '0';
        }
    const int rows = n / m->columns;
    std::vector<int> perm(static_cast<size_t>(n));
    for (int j = 0; j < rows; ++j)
        for (int b = 0; b < m->columns; ++b)
            perm[size_t(j * m->columns + b)] = order[size_t(b)] * rows + j;
    return perm;
}

} // namespace gpufec
