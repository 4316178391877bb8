/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The channel kits. */
#include "kits.h"

#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <cmath>
#include <random>
#include <stdexcept>

namespace gpufec {
namespace app {

namespace {

class bpsk_awgn : public channel_kit
{
public:
    std::string name() const override { return "bpsk-awgn"; }
    void set_point(double ebn0_db, double rate) override
    {
        if (!(rate > 0) || !std::isfinite(ebn0_db))
            throw std::invalid_argument("bpsk-awgn: Eb/N0 must be finite and the rate positive");
        d_sigma = float(std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0))));
    }
    void transmit(const uint8_t* bits, size_t n, float* out, unit_rng& rng) const override
    {
        std::normal_distribution<float> gauss(0.f, d_sigma);
        for (size_t i = 0; i < n; ++i)
            out[i] = (bits[i] ? 1.f : -1.f) + gauss(rng);
    }
    float llr_scale() const override { return 2.f / (d_sigma * d_sigma); }
    double uncoded_ber(double ebn0_db) const override { return uncoded_bpsk_ber(ebn0_db); }

private:
    float d_sigma = 1.f;
};

} // namespace

std::unique_ptr<channel_kit> make_bpsk_awgn() { return std::make_unique<bpsk_awgn>(); }

std::unique_ptr<channel_kit> make_channel(const std::string& name)
{
    if (name == "bpsk-awgn" || name == "awgn")
        return make_bpsk_awgn();
    throw std::invalid_argument("channel: '" + name + "' is not known (allowed: bpsk-awgn)");
}

} // namespace app
} // namespace gpufec
