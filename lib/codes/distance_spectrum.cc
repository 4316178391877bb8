/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>

#include <cmath>
#include <map>
#include <stdexcept>

namespace gpufec {

std::vector<spectrum_term> distance_spectrum(const conv_code& code, int terms)
{
    code.validate();
    const uint32_t N = code.states();
    const uint32_t zero_out = code.output(0, 0); // the all-zero path's output (inversions)
    auto weight = [&](uint32_t s, uint32_t x) {
        return __builtin_popcount(code.output(s, x) ^ zero_out);
    };
    const int wmax = 12 * code.n() + 8 * code.k; // beyond the terms any K <= 9 code needs
    struct acc {
        double events = 0, info = 0;
    };
    // live[state][w]: paths that left state 0 and have not returned, by output weight
    std::vector<std::map<int, acc>> live(N), next(N);
    std::map<int, acc> found;
    live[1][weight(0, 1)] = { 1, 1 };
    for (int stage = 0; stage < 4096; ++stage) {
        bool any = false;
        for (auto& m : next)
            m.clear();
        for (uint32_t s = 1; s < N; ++s)
            for (const auto& [w, a] : live[s])
                for (uint32_t x = 0; x < 2; ++x) {
                    const uint32_t ns = ((s << 1) | x) & (N - 1);
                    const int nw = w + weight(s, x);
                    if (nw > wmax)
                        continue;
                    acc& dst = ns == 0 ? found[nw] : next[ns][nw];
                    dst.events += a.events;
                    dst.info += a.info + x * a.events;
                    any |= ns != 0;
                }
        live.swap(next);
        if (!any)
            break;
    }
    std::vector<spectrum_term> out;
    for (const auto& [d, a] : found) {
        if (static_cast<int>(out.size()) == terms)
            break;
        out.push_back({ d, a.events, a.info });
    }
    return out;
}

double uncoded_bpsk_ber(double ebn0_db)
{
    const double ebn0 = std::pow(10.0, ebn0_db / 10.0);
    return 0.5 * std::erfc(std::sqrt(ebn0));
}

double union_bound_ber(const std::vector<spectrum_term>& spectrum, double rate, double ebn0_db)
{
    const double ebn0 = std::pow(10.0, ebn0_db / 10.0);
    double pb = 0;
    for (const auto& t : spectrum)
        pb += t.info_weight * 0.5 * std::erfc(std::sqrt(t.d * rate * ebn0));
    return pb;
}

} // namespace gpufec
