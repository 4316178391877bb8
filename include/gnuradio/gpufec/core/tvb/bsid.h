/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The binary substitution, insertion and deletion (BSID) channel of Davey and MacKay. For each
 * bit that enters: with probability Pi a random bit is inserted and the channel stays at the
 * same input bit (at most `max_insertions` times in a row; after that the bit is deleted or
 * transmitted in the ratio Pd : Pt); otherwise the bit is deleted (Pd) or transmitted (Pt = 1 -
 * Pi - Pd), and a transmitted bit is flipped with probability Ps.
 *
 * The drift after t input bits (received bits minus sent bits so far) is a random walk whose
 * distribution is computed exactly here (bsid_drift_distribution), which gives the drift range a
 * decoder must consider for a chosen probability of leaving it (bsid_drift_limits). */
#ifndef INCLUDED_GPUFEC_CORE_BSID_H
#define INCLUDED_GPUFEC_CORE_BSID_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

struct bsid_params {
    double Pi = 0, Pd = 0, Ps = 0;
    static constexpr int max_insertion_cap = 64; //!< the largest cap: "uncapped" in effect
    int max_insertions = 2; //!< insertions in a row before one input bit
    double Pt() const { return 1.0 - Pi - Pd; }
    //! throws std::invalid_argument naming the bad parameter
    void check() const;
};

/*! Sends `n` bits (one per byte) through the channel; `out` gets what comes out (its length
 *  varies). Any random bit generator. */
template <class URBG>
void bsid_transmit(const uint8_t* in, size_t n, const bsid_params& p, URBG& rng, std::vector<uint8_t>& out)
{
    p.check();
    std::uniform_real_distribution<double> u(0.0, 1.0);
    out.clear();
    out.reserve(n + n / 8 + 16);
    const double pt_pd = p.Pt() + p.Pd;
    for (size_t i = 0; i < n; ++i) {
        int inserted = 0;
        while (true) {
            const double x = u(rng);
            if (inserted < p.max_insertions && x < p.Pi) {
                out.push_back(uint8_t(u(rng) < 0.5));
                ++inserted;
                continue;
            }
            // deleted or transmitted: in the ratio Pd : Pt, whether or not insertions were possible
            const double y = inserted < p.max_insertions ? (x - p.Pi) / pt_pd : u(rng);
            if (y < p.Pd / pt_pd)
                break; // deleted
            out.push_back(uint8_t(in[i] ^ (u(rng) < p.Ps)));
            break;
        }
    }
}

//! the most bits a drift distribution or range is computed over (2^22)
constexpr size_t bsid_max_bits = size_t(1) << 22;

//! the drift's distribution after t input bits: values for drifts lo .. lo + size - 1
struct drift_distribution {
    int lo = 0;
    std::vector<double> p;
    int hi() const { return lo + int(p.size()) - 1; }
};
//! exact, tails below `floor` dropped as they are computed (1e-300: nothing that matters)
drift_distribution bsid_drift_distribution(const bsid_params& p, size_t t, double floor = 1e-300);

/*! The smallest drift range [lo, hi] (lo <= 0 <= hi) after t input bits whose two tails each hold
 *  at most exclusion / 2 of the probability. */
struct drift_limits {
    int lo = 0, hi = 0;
    int size() const { return hi - lo + 1; }
};
drift_limits bsid_drift_limits(const bsid_params& p, size_t t, double exclusion);

} // namespace gpufec

#endif
