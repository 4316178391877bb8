/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The channel kits. */
#include "kits.h"

#include <gnuradio/gpufec/core/bsid.h>
#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <gnuradio/gpufec/core/scppm.h>
#include <cmath>
#include <cstdio>
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

class poisson_ppm : public channel_kit
{
public:
    explicit poisson_ppm(double kb) : d_kb(kb)
    {
        if (!(kb > 0) || !std::isfinite(kb))
            throw std::invalid_argument("poisson-ppm: kb (background photons per slot) must be positive");
    }
    std::string name() const override { return "poisson-ppm kb=" + std::to_string(d_kb); }
    std::string measure() const override { return "ks_db"; }
    std::string measure_label() const override { return "Ks"; }
    void set_point(double ks_db, double) override
    {
        if (!std::isfinite(ks_db))
            throw std::invalid_argument("poisson-ppm: Ks in dB must be finite");
        d_ks = std::pow(10.0, ks_db / 10.0);
    }
    void transmit(const uint8_t* bits, size_t n, float* out, unit_rng& rng) const override
    {
        poisson_channel(bits, n, d_ks, d_kb, rng, out);
    }
    float llr_scale() const override { return float(slot_llr_weight(d_ks, d_kb)); }
    float int8_scale() const override { return 1.f; }
    double uncoded_ber(double) const override { return NAN; }

private:
    double d_kb, d_ks = 1;
};

class bsid : public channel_kit
{
public:
    bsid(double ps, int max_insertions)
    {
        d_p.Ps = ps;
        d_p.max_insertions = max_insertions;
        d_p.check();
    }
    std::string name() const override { return "bsid ps=" + std::to_string(d_p.Ps); }
    std::string measure() const override { return "p"; }
    std::string measure_label() const override { return "p = Pi = Pd"; }
    std::string measure_unit() const override { return ""; }
    void set_point(double p, double) override
    {
        bsid_params q = d_p;
        q.Pi = q.Pd = p;
        q.check();
        d_p = q;
    }
    void transmit(const uint8_t*, size_t, float*, unit_rng&) const override
    {
        throw std::logic_error("bsid: the channel changes the length; use transmit_variable");
    }
    bool changes_length() const override { return true; }
    void transmit_variable(const uint8_t* bits, size_t n, std::vector<float>& out, unit_rng& rng) const override
    {
        thread_local std::vector<uint8_t> rx;
        bsid_transmit(bits, n, d_p, rng, rx);
        out.resize(rx.size());
        for (size_t i = 0; i < rx.size(); ++i)
            out[i] = rx[i] ? 1.f : -1.f;
    }
    float llr_scale() const override { return 1.f; }
    float int8_scale() const override { return 1.f; }
    double uncoded_ber(double) const override { return NAN; }
    std::string decoder_options() const override
    {
        char s[128];
        std::snprintf(s, sizeof s, "pi=%.17g, pd=%.17g, ps=%.17g, max_insertions=%d", d_p.Pi, d_p.Pd, d_p.Ps,
                      d_p.max_insertions);
        return s;
    }

private:
    bsid_params d_p;
};

} // namespace

std::unique_ptr<channel_kit> make_bsid(double ps, int max_insertions)
{
    return std::make_unique<bsid>(ps, max_insertions);
}

std::unique_ptr<channel_kit> make_bpsk_awgn() { return std::make_unique<bpsk_awgn>(); }
std::unique_ptr<channel_kit> make_poisson_ppm(double kb) { return std::make_unique<poisson_ppm>(kb); }

namespace {
//! the value of "base:key=V" (fallback without ":..."); anything else is refused with `hint`
double channel_arg(const std::string& name, const std::string& base, const std::string& key, double fallback,
                   const std::string& hint)
{
    if (base.size() == name.size())
        return fallback;
    const std::string arg = name.substr(base.size() + 1), prefix = key + "=";
    size_t used = 0;
    double v = 0;
    try {
        if (arg.rfind(prefix, 0) != 0)
            throw std::invalid_argument("");
        v = std::stod(arg.substr(prefix.size()), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != arg.size() - prefix.size())
        throw std::invalid_argument("channel: '" + name + "': write " + hint);
    return v;
}
} // namespace

std::unique_ptr<channel_kit> make_channel(const std::string& name)
{
    if (name == "bpsk-awgn" || name == "awgn")
        return make_bpsk_awgn();
    const std::string base = name.substr(0, name.find(':'));
    if (base == "poisson-ppm" || base == "poisson")
        return make_poisson_ppm(
            channel_arg(name, base, "kb", 0.2, "poisson-ppm:kb=<background photons per slot>"));
    if (base == "bsid")
        return make_bsid(channel_arg(name, base, "ps", 0.0, "bsid:ps=<substitution probability>"), 2);
    throw std::invalid_argument("channel: '" + name +
                                "' is not known (allowed: bpsk-awgn, poisson-ppm[:kb=K], bsid[:ps=P])");
}

} // namespace app
} // namespace gpufec
