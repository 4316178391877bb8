/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The channel kits. */
#include "kits.h"
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include <map>
#include <gnuradio/gpufec/core/tvb/bsid.h>
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gnuradio/gpufec/core/scppm/scppm.h>
#include <cmath>
#include <cstdio>
#include <map>
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
    double awgn_sigma() const override { return d_sigma; }

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
    std::string name() const override
    {
        char s[48];
        std::snprintf(s, sizeof s, "poisson-ppm kb=%g", d_kb);
        return s;
    }
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
    std::string name() const override
    {
        char s[96];
        std::snprintf(s, sizeof s, "bsid ps=%g max_insertions=%d%s", d_p.Ps, d_p.max_insertions,
                      d_p.max_insertions == bsid_params::max_insertion_cap ? " (uncapped)" : "");
        return s;
    }
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
/*! the values of "base:key=V:key=V" (or with commas), each in lo..hi; keys not in `defaults`
 *  and malformed parts are refused with `hint` */
std::map<std::string, double> channel_args(const std::string& name, const std::string& base,
                                           std::map<std::string, double> defaults, const std::string& hint)
{
    std::string rest = name.size() > base.size() ? name.substr(base.size() + 1) : "";
    for (auto& c : rest)
        if (c == ',')
            c = ':';
    size_t at = 0;
    while (at < rest.size() || (name.size() > base.size() && at == 0)) {
        const size_t end = std::min(rest.find(':', at), rest.size());
        const std::string part = rest.substr(at, end - at), key = part.substr(0, part.find('='));
        size_t used = 0;
        double v = 0;
        try {
            if (part.find('=') == std::string::npos || !defaults.count(key))
                throw std::invalid_argument("");
            v = std::stod(part.substr(key.size() + 1), &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != part.size() - key.size() - 1 || !std::isfinite(v))
            throw std::invalid_argument("channel: '" + name + "': write " + hint);
        defaults[key] = v;
        at = end + 1;
    }
    return defaults;
}
} // namespace

std::string channel_kind(const std::string& name)
{
    const std::string base = name.substr(0, name.find(':'));
    if (base == "awgn")
        return "bpsk-awgn";
    if (base == "poisson")
        return "poisson-ppm";
    return base;
}

void resolve_family_defaults(const std::string& family, std::string& options, bool options_given,
                             std::string& channel, bool channel_given)
{
    const frame_family& info = frame_family_info(family);
    if (!options_given)
        options = info.app_options;
    if (!channel_given)
        channel = info.channel;
    if (channel_kind(channel) != info.channel) {
        static const std::map<std::string, std::string> reads = {
            { "bpsk-awgn", "soft values of its code bits" },
            { "poisson-ppm", "photon counts of PPM slots" },
            { "bsid", "the bits of an insertion/deletion channel" }
        };
        const auto it = reads.find(info.channel);
        throw std::invalid_argument("--channel: " + channel + " cannot feed " + family + " decoders, which read " +
                                    (it != reads.end() ? it->second : info.channel) + ": use --channel " +
                                    info.channel + " (or leave --channel out)");
    }
}

std::unique_ptr<channel_kit> make_channel(const std::string& name)
{
    if (name == "bpsk-awgn" || name == "awgn")
        return make_bpsk_awgn();
    const std::string base = name.substr(0, name.find(':'));
    if (base == "poisson-ppm" || base == "poisson")
        return make_poisson_ppm(
            channel_args(name, base, { { "kb", 0.2 } }, "poisson-ppm:kb=<background photons per slot>").at("kb"));
    if (base == "bsid") {
        const auto a = channel_args(name, base, { { "ps", 0.0 }, { "max_insertions", bsid_params::max_insertion_cap } },
                                    "bsid[:ps=<substitution probability>][:max_insertions=<0..64, insertions in a "
                                    "row; 64: uncapped>]");
        const double cap = a.at("max_insertions");
        if (cap != std::floor(cap) || cap < 0 || cap > bsid_params::max_insertion_cap)
            throw std::invalid_argument("channel: '" + name + "': max_insertions must be an integer 0..64");
        return make_bsid(a.at("ps"), int(cap));
    }
    throw std::invalid_argument("channel: '" + name +
                                "' is not known (allowed: bpsk-awgn, poisson-ppm[:kb=K], "
                                "bsid[:ps=P][:max_insertions=I])");
}

} // namespace app
} // namespace gpufec
