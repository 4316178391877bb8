/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_ber: bit and frame error rates of any family over a channel, against Eb/N0, with
 * Wilson 95% intervals. `gpufec_ber --help` lists every option; docs/apps.md shows examples. */
#include <gnuradio/gpufec/core/device.h>
#include <gnuradio/gpufec/core/frame_registry.h>

#include "kit/error_stats.h"
#include "kit/kits.h"
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#ifndef GPUFEC_GIT_COMMIT
#define GPUFEC_GIT_COMMIT "unknown"
#endif

using namespace gpufec;
using namespace gpufec::app;

namespace {

struct point {
    double ebn0;
    error_counts c;
    double seconds;
};

std::vector<double> ebn0_points(const std::string& spec)
{
    double a, step, b;
    if (std::sscanf(spec.c_str(), "%lf:%lf:%lf", &a, &step, &b) == 3) {
        if (!(step > 0) || b < a || (b - a) / step > 1000)
            throw CLI::ValidationError("--ebn0", "START:STEP:STOP needs STEP > 0, STOP >= START, "
                                                 "at most 1000 points");
        std::vector<double> v;
        for (int i = 0; a + i * step <= b + 1e-9; ++i)
            v.push_back(a + i * step);
        return v;
    }
    try {
        return { std::stod(spec) };
    } catch (const std::exception&) {
        throw CLI::ValidationError("--ebn0", "'" + spec + "' is not START:STEP:STOP or one value");
    }
}

void write_csv(const std::string& path, const std::string& family, const std::string& options,
               const std::string& backend, const channel_kit& ch, const std::vector<point>& pts)
{
    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("--csv: cannot write " + path);
    f << "family,options,backend,channel,ebn0_db,bits,bit_errors,ber,ber_lo95,ber_hi95,frames,"
         "frame_errors,fer,fer_lo95,fer_hi95,mean_iterations,uncoded_ber,seconds\n";
    for (const auto& p : pts) {
        const auto& c = p.c;
        const interval bi = wilson(c.bit_errors, c.bits), fi = wilson(c.frame_errors, c.frames);
        char row[512];
        std::snprintf(row, sizeof row,
                      "%.4g,%llu,%llu,%.6e,%.6e,%.6e,%llu,%llu,%.6e,%.6e,%.6e,%.4f,%.6e,%.3f", p.ebn0,
                      (unsigned long long)c.bits, (unsigned long long)c.bit_errors,
                      c.bits ? double(c.bit_errors) / double(c.bits) : NAN, bi.lo, bi.hi,
                      (unsigned long long)c.frames, (unsigned long long)c.frame_errors,
                      c.frames ? double(c.frame_errors) / double(c.frames) : NAN, fi.lo, fi.hi,
                      c.frames ? double(c.iterations) / double(c.frames) : NAN, ch.uncoded_ber(p.ebn0),
                      p.seconds);
        // text fields quoted (options hold commas)
        auto q = [](const std::string& s) {
            std::string o = "\"";
            for (char ch : s)
                o += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            return o + "\"";
        };
        f << q(family) << "," << q(options) << "," << q(backend) << "," << q(ch.name()) << "," << row << "\n";
    }
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App cli{ "gpufec_ber: bit and frame error rates of a gr-gpufec decoder against Eb/N0 "
                  "(BPSK over AWGN), with Wilson 95% confidence intervals." };
    std::string family = "viterbi", options = "code=ccsds, mode=streaming", device = "auto";
    std::string channel = "bpsk-awgn", ebn0 = "0:0.5:6", csv = "ber.csv", json;
    stop_rule rule;
    uint64_t seed = 1, batch = 0;
    bool quiet = false;
    cli.add_option("-f,--family", family, "decoder family: " + [] {
        std::string s;
        for (const auto& f : frame_families())
            s += (s.empty() ? "" : ", ") + f;
        return s;
    }())->capture_default_str();
    cli.add_option("-o,--options", options,
                   "the family's options, key=value separated by commas (gpufec_ber --list-options "
                   "FAMILY); viterbi with mode=streaming decodes one endless stream, a frame being a "
                   "block of block_len bits")
        ->capture_default_str();
    cli.add_option("-d,--device", device, "auto, cpu, cuda or cuda:N")->capture_default_str();
    cli.add_option("--channel", channel, "the channel (bpsk-awgn)")->capture_default_str();
    cli.add_option("-e,--ebn0", ebn0, "Eb/N0 in dB: START:STEP:STOP or one value")->capture_default_str();
    cli.add_option("--min-frame-errors", rule.min_frame_errors,
                   "a point ends once it has this many frame errors (0: not required)")
        ->capture_default_str();
    cli.add_option("--min-bit-errors", rule.min_bit_errors,
                   "... and this many bit errors (0: not required)")
        ->capture_default_str();
    cli.add_option("--max-frames", rule.max_frames, "a point ends at this many frames (0: no limit)")
        ->capture_default_str();
    cli.add_option("--max-bits", rule.max_bits,
                   "a point ends at this many information bits, never more (0: no limit)")
        ->capture_default_str()
        ->transform([](std::string v) { // accept 1e8
            try {
                size_t used = 0;
                const double d = std::stod(v, &used);
                if (used == v.size() && d >= 0 && d < 1.8e19 && d == std::floor(d))
                    return std::to_string((unsigned long long)d);
            } catch (const std::exception&) {
            }
            return v;
        });
    cli.add_option("--batch", batch, "frames per decoder call (0: the decoder's preferred batch)");
    cli.add_option("--seed", seed, "random seed; point i uses seed + i, so points do not depend on "
                                   "each other")
        ->capture_default_str();
    cli.add_option("--csv", csv, "CSV output (rewritten after every point)")->capture_default_str();
    cli.add_option("--json", json, "JSON output: device, commit, code, options, units and the points");
    cli.add_flag("-q,--quiet", quiet, "no progress lines");
    std::string list_family;
    cli.add_option("--list-options", list_family, "print a family's options and exit");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    }
    try {
        if (!list_family.empty()) {
            const auto& info = frame_family_info(list_family);
            std::printf("%s: %s\noptions: %s\n", info.name.c_str(), info.summary.c_str(), info.options.c_str());
            return 0;
        }
        if (!rule.has_limit())
            throw CLI::ValidationError("stop rule", "set at least one of --min-frame-errors, "
                                                    "--min-bit-errors, --max-frames, --max-bits");
        const auto points = ebn0_points(ebn0);
        auto ch = make_channel(channel);
        auto kit = make_code_kit(family, options, device_spec::parse(device));
        const uint64_t per_batch = batch ? batch : std::max<uint64_t>(1, kit->preferred_frames());
        std::fprintf(stderr, "gpufec_ber: %s, backend %s, rate %.4f, %s\n", kit->describe().c_str(),
                     kit->backend().c_str(), kit->rate(), ch->name().c_str());
        std::vector<point> done;
        for (size_t i = 0; i < points.size(); ++i) {
            std::mt19937_64 rng(seed + i);
            ch->set_point(points[i], kit->rate());
            kit->reset();
            point p{ points[i], {}, 0 };
            const auto t0 = std::chrono::steady_clock::now();
            while (!rule.done(p.c)) {
                const uint64_t n = rule.frames_allowed(p.c, per_batch, kit->info_bits_per_frame());
                if (n == 0)
                    break; // the next whole frame would pass --max-bits / --max-frames
                p.c += kit->run(n, *ch, rng);
                if (!quiet)
                    std::fprintf(stderr, "\r  Eb/N0 %6.2f dB: %llu frames, %llu frame errors, %llu bit errors   ",
                                 p.ebn0, (unsigned long long)p.c.frames,
                                 (unsigned long long)p.c.frame_errors, (unsigned long long)p.c.bit_errors);
            }
            p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (!quiet)
                std::fprintf(stderr, "\n");
            const auto& c = p.c;
            const interval bi = wilson(c.bit_errors, c.bits);
            std::printf("Eb/N0 %6.2f dB  BER %.3e [%.2e, %.2e]  FER %.3e  (%llu frames, %llu frame errors)\n",
                        p.ebn0, c.bits ? double(c.bit_errors) / double(c.bits) : NAN, bi.lo, bi.hi,
                        c.frames ? double(c.frame_errors) / double(c.frames) : NAN,
                        (unsigned long long)c.frames, (unsigned long long)c.frame_errors);
            std::fflush(stdout);
            done.push_back(p);
            write_csv(csv, family, options, kit->backend(), *ch, done);
            if (c.bit_errors == 0 && c.frames > 0)
                break; // nothing more to see at higher Eb/N0 with this many bits
        }
        if (!json.empty()) {
            nlohmann::json j;
            j["app"] = "gpufec_ber";
            j["commit"] = GPUFEC_GIT_COMMIT;
            j["family"] = family;
            j["options"] = options;
            j["code"] = kit->describe();
            j["backend"] = kit->backend();
            j["channel"] = ch->name();
            j["rate"] = kit->rate();
            j["seed"] = seed;
            j["stop_rule"] = { { "min_frame_errors", rule.min_frame_errors },
                               { "min_bit_errors", rule.min_bit_errors },
                               { "max_frames", rule.max_frames },
                               { "max_bits", rule.max_bits } };
            j["units"] = { { "ebn0", "dB" }, { "bits", "information bits" }, { "interval", "Wilson 95%" },
                           { "seconds", "wall-clock per point" } };
            nlohmann::json pts = nlohmann::json::array();
            for (const auto& p : done) {
                const interval bi = wilson(p.c.bit_errors, p.c.bits), fi = wilson(p.c.frame_errors, p.c.frames);
                nlohmann::json q = { { "ebn0", p.ebn0 },
                                     { "bits", p.c.bits },
                                     { "bit_errors", p.c.bit_errors },
                                     { "ber_interval", { bi.lo, bi.hi } },
                                     { "frames", p.c.frames },
                                     { "frame_errors", p.c.frame_errors },
                                     { "fer_interval", { fi.lo, fi.hi } },
                                     { "seconds", p.seconds } };
                // null, not -1, where a figure does not apply
                q["ber"] = p.c.bits ? nlohmann::json(double(p.c.bit_errors) / double(p.c.bits)) : nlohmann::json();
                q["fer"] = p.c.frames ? nlohmann::json(double(p.c.frame_errors) / double(p.c.frames))
                                      : nlohmann::json();
                q["mean_iterations"] = kit->iterates() && p.c.frames
                                           ? nlohmann::json(double(p.c.iterations) / double(p.c.frames))
                                           : nlohmann::json();
                pts.push_back(q);
            }
            j["points"] = pts;
            std::ofstream f(json);
            if (!f)
                throw std::runtime_error("--json: cannot write " + json);
            f << j.dump(2) << "\n";
        }
    } catch (const CLI::Error& e) {
        return cli.exit(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_ber: %s\n", e.what());
        return 1;
    }
    return 0;
}
