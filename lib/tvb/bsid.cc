/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The BSID channel's parameters and its drift distribution. */
#include <gnuradio/gpufec/core/tvb/bsid.h>

#include <algorithm>

namespace gpufec {

void bsid_params::check() const
{
    auto prob = [](double x) { return x >= 0 && x < 1 && std::isfinite(x); };
    if (!prob(Pi))
        throw std::invalid_argument("Pi: the insertion probability must be in [0, 1)");
    if (!prob(Pd))
        throw std::invalid_argument("Pd: the deletion probability must be in [0, 1)");
    if (!(Pi + Pd < 1))
        throw std::invalid_argument("Pi + Pd must be below 1 (some bits must get through)");
    if (!(Ps >= 0 && Ps <= 0.5))
        throw std::invalid_argument("Ps: the substitution probability must be in [0, 0.5]");
    if (max_insertions < 0 || max_insertions > 64)
        throw std::invalid_argument("max_insertions: must be 0 .. 64");
}

namespace {
//! the drift change over one input bit: values -1 .. max_insertions, at index change + 1
std::vector<double> one_bit(const bsid_params& p)
{
    const int I = p.max_insertions;
    std::vector<double> d(size_t(I) + 2, 0.0);
    double pk = 1; // Pi^k
    for (int k = 0; k <= I; ++k) {
        const double end = k < I ? 1.0 : 1.0 / (p.Pt() + p.Pd); // the last one: Pd : Pt only
        d[size_t(k)] += pk * p.Pd * end;     // k inserted, the bit deleted: k - 1
        d[size_t(k) + 1] += pk * p.Pt() * end; // k inserted, the bit sent: k
        pk *= p.Pi;
    }
    return d;
}
} // namespace

namespace {
//! trims values below `floor` from both ends (one value stays)
void trim(drift_distribution& d, double floor)
{
    size_t first = 0, last = d.p.size();
    while (first + 1 < last && d.p[first] < floor)
        ++first;
    while (last > first + 1 && d.p[last - 1] < floor)
        --last;
    d.lo += int(first);
    d.p.assign(d.p.begin() + long(first), d.p.begin() + long(last));
}

drift_distribution convolve(const drift_distribution& a, const drift_distribution& b, double floor)
{
    drift_distribution c;
    c.lo = a.lo + b.lo;
    c.p.assign(a.p.size() + b.p.size() - 1, 0.0);
    for (size_t i = 0; i < a.p.size(); ++i)
        if (a.p[i] != 0)
            for (size_t j = 0; j < b.p.size(); ++j)
                c.p[i + j] += a.p[i] * b.p[j];
    trim(c, floor);
    return c;
}
} // namespace

drift_distribution bsid_drift_distribution(const bsid_params& p, size_t t, double floor)
{
    p.check();
    if (t > bsid_max_bits)
        throw std::invalid_argument("t: " + std::to_string(t) + " bits; the drift of at most " +
                                    std::to_string(bsid_max_bits) + " bits is computed");
    drift_distribution step;
    step.lo = -1;
    step.p = one_bit(p);
    drift_distribution d;
    d.p = { 1.0 };
    if (t <= 4096) { // a bit at a time: t (width) (insertions) steps
        for (size_t i = 0; i < t; ++i)
            d = convolve(d, step, floor);
        return d;
    }
    // long frames: by squaring, log2(t) convolutions of at most the final width squared (a bit
    // at a time grows as t^1.5: seconds at 10^5 bits, hours at 10^7)
    for (size_t k = t; k; k >>= 1) {
        if (k & 1)
            d = convolve(d, step, floor);
        if (k > 1)
            step = convolve(step, step, floor);
    }
    return d;
}

drift_limits bsid_drift_limits(const bsid_params& p, size_t t, double exclusion)
{
    if (!(exclusion > 0 && exclusion < 1))
        throw std::invalid_argument("exclusion: the probability of leaving the drift range must be in (0, 1)");
    const drift_distribution d = bsid_drift_distribution(p, t);
    drift_limits l;
    double tail = 0;
    size_t a = 0;
    while (a < d.p.size() && tail + d.p[a] <= exclusion / 2 && d.lo + int(a) < 0)
        tail += d.p[a++];
    tail = 0;
    size_t b = d.p.size();
    while (b > a + 1 && tail + d.p[b - 1] <= exclusion / 2 && d.lo + int(b) - 1 > 0)
        tail += d.p[--b];
    l.lo = std::min(0, d.lo + int(a));
    l.hi = std::max(0, d.lo + int(b) - 1);
    return l;
}

} // namespace gpufec
