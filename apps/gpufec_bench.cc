/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_bench: decoder throughput of any family, in decoded information bits per second, host
 * memory to host memory with every transfer included (and, where the decoder measures it, the
 * device kernels alone), on one device or on several at once (the sum and each).
 * `gpufec_bench --help` lists every option; docs/apps.md shows examples. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include "kit/cli_options.h"
#include "kit/devices.h"
#include "kit/kits.h"
#include "kit/report.h"
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

using namespace gpufec;
using namespace gpufec::app;

namespace {

using clk = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? NAN : v[v.size() / 2];
}

struct device_run {
    std::unique_ptr<code_kit> kit;
    uint64_t frames = 0;
    uint64_t input_bytes = 0;
    std::vector<double> seconds; // per repetition
    double kernel_s = -1, latency_s = NAN;
    error_counts errors;
};

/* Every device decodes its prepared frames at the same moment, `reps` times; returns the wall
 * time of each repetition (all devices done) and fills each device's own times. */
std::vector<double> run_together(std::vector<device_run>& runs, int reps)
{
    std::vector<double> wall;
    for (int r = 0; r < reps; ++r) {
        std::vector<std::thread> threads;
        std::vector<std::string> errors(runs.size());
        const auto t0 = clk::now();
        for (size_t i = 0; i < runs.size(); ++i) {
            auto job = [&, i] {
                try {
                    const auto a = clk::now();
                    runs[i].kit->bench_decode();
                    runs[i].seconds.push_back(std::chrono::duration<double>(clk::now() - a).count());
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            };
            if (i + 1 < runs.size())
                threads.emplace_back(job);
            else
                job(); // the last device on this thread (a single device never leaves it)
        }
        for (auto& t : threads)
            t.join();
        wall.push_back(std::chrono::duration<double>(clk::now() - t0).count());
        for (const auto& e : errors)
            if (!e.empty())
                throw std::runtime_error(e);
    }
    return wall;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App cli{ "gpufec_bench: throughput of a gr-gpufec decoder in decoded information bits per "
                  "second, host memory to host memory (transfers included), on one or several "
                  "devices at once. Input: soft values of BPSK over AWGN at --ebn0, int8 (or float "
                  "LLRs for float decoders) in page-locked memory; output: packed bits." };
    std::string family = "viterbi", options, devices = "auto";
    std::string channel = "bpsk-awgn", csv, json;
    uint64_t frames = 0, bits = uint64_t(1) << 26, seed = 1;
    double ebn0 = 3.0;
    int reps = 7;
    bool latency = true;
    std::vector<std::string> mix;
    CLI::Option* options_opt = add_code_options(cli, family, options,
                     "viterbi with mode=streaming decodes one stream of blocks of block_len bits");
    cli.add_option("--mix", mix,
                   "encoder options, repeated: frame f is made by the (f mod count)-th, so a decoder of "
                   "several lengths decodes a mixed batch (-f turbo -o code=lte:any --mix code=lte:6144 "
                   "--mix code=lte:6080); figures count each frame's own information bits");
    cli.add_option("-d,--devices,--device", devices,
                   "auto, all (every GPU), or a list such as cuda:0,cuda:1: one decoder per device, the "
                   "frames split among them, all decoding at once")
        ->capture_default_str();
    cli.add_option("--frames", frames, "frames (streaming: blocks) in all (0: from --bits)")
        ->capture_default_str()
        ->transform(count_value);
    cli.add_option("--bits", bits, "information bits in all, rounded down to whole frames (at least "
                                   "one per device)")
        ->capture_default_str()
        ->transform(count_value)
        ->check(CLI::Validator([](std::string& v) { return v == "0" ? std::string("must be at least 1") : std::string(); },
                               "POSITIVE"));
    cli.add_option("-e,--ebn0", ebn0, "Eb/N0 of the input in dB (iterative decoders stop earlier at "
                                      "higher Eb/N0)")
        ->capture_default_str()
        ->check(CLI::Range(-20.0, 40.0));
    CLI::Option* channel_opt = cli.add_option("--channel", channel, "the channel (default: the one the family's decoder reads): bpsk-awgn, poisson-ppm[:kb=K] (-e is then Ks in dB; scppm), or bsid[:ps=P][:max_insertions=I] (insertions and deletions; -e is then p = Pi = Pd; tvb)");
    cli.add_option("--reps", reps, "timed repetitions; the median is reported")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cli.add_option("--seed", seed, "random seed of the input")->capture_default_str()->transform(count_value);
    cli.add_flag("!--no-latency", latency, "skip the one-frame latency measurement");
    cli.add_option("--csv", csv, "append a row per device (and one for all) to this CSV");
    cli.add_option("--json", json, "JSON report: device, commit, code, options, units, figures");
    cli.set_version_flag("--version", std::string("gpufec_bench ") + gpufec::version() + " (commit " + build_commit() + ")");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    }
    try {
        resolve_family_defaults(family, options, options_opt->count() > 0, channel, channel_opt->count() > 0);
        auto ch = make_channel(channel);
        std::vector<device_run> runs;
        for (const auto& d : parse_devices(devices)) {
            device_run r;
            r.kit = make_code_kit(family, options, d, mix);
            runs.push_back(std::move(r));
        }
        const code_kit& first = *runs.front().kit;
        const uint64_t bpf = first.info_bits_per_frame();
        const uint64_t total = std::max<uint64_t>(frames ? frames : bits / bpf, runs.size());
        {
            // the input, the sent bits and the output of every frame are held at once: refuse
            // what this machine cannot hold, before allocating (a bare bad_alloc or worse)
            const double per_frame = double(bpf) / first.rate() * 4 + double(bpf) * 2 + 64;
            const double need = double(total) * per_frame;
            const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
            if (have > 0 && need > 0.75 * have) {
                char b[256];
                std::snprintf(b, sizeof b,
                              "--frames/--bits: %llu frames of %llu information bits need about %.3g GiB here, "
                              "more than this machine's %.3g GiB can hold; ask for fewer",
                              (unsigned long long)total, (unsigned long long)bpf, need / double(1ull << 30),
                              have / double(1ull << 30));
                throw CLI::ValidationError(b);
            }
        }
        ch->set_point(ebn0, first.rate());
        // contiguous shares; device i's frames are point i of the seed (its own data)
        for (size_t i = 0; i < runs.size(); ++i) {
            runs[i].frames = total * (i + 1) / runs.size() - total * i / runs.size();
            runs[i].kit->bench_prepare({ seed, i }, runs[i].frames, *ch);
            runs[i].input_bytes = runs[i].kit->bench_input_bytes();
        }
        run_together(runs, 1); // warm-up: first-call costs, clocks up
        for (auto& r : runs) {
            r.seconds.clear();
            r.errors = r.kit->bench_errors();
        }
        const std::vector<double> wall = run_together(runs, reps);
        for (auto& r : runs)
            r.kernel_s = r.kit->bench_kernel_seconds(reps);
        if (latency) { // one frame, host to host, on the first device
            auto& k = *runs.front().kit;
            k.bench_prepare({ seed, 0 }, 1, *ch);
            std::vector<double> t;
            for (int i = -1; i < std::max(reps, 21); ++i) {
                const auto a = clk::now();
                k.bench_decode();
                if (i >= 0)
                    t.push_back(std::chrono::duration<double>(clk::now() - a).count());
            }
            runs.front().latency_s = median(t);
        }

        // the report: one line per device, and the sum
        // one CSV for every family and channel: the channel and its point (in its own measure) as columns
        csv_table table({ "family", "options", "code", "device", "input", "channel", "point", "frames", "info_bits",
                          "input_bytes", "reps", "seconds", "gbps_host_to_host", "gbps_kernels", "fer",
                          "mean_iterations", "latency_us", "commit" });
        nlohmann::json jdev = nlohmann::json::array();
        auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
        std::printf("%s; input %s at %s %s; median of %d runs\n", first.describe().c_str(),
                    first.input_kind().c_str(), ch->measure_label().c_str(), ch->format_point(ebn0).c_str(), reps);
        std::printf("%-44s %10s %12s %10s %11s %11s %9s %7s %11s\n", "device", "frames", "info_bits", "ms",
                    "Gb/s(h2h)", "Gb/s(kern)", "FER", "avg_it", "latency_us");
        double kernel_sum = 0;
        bool all_kernels = true;
        uint64_t all_bits = 0, all_bytes = 0;
        error_counts all_err;
        auto row = [&](const std::string& dev, uint64_t f, uint64_t b, uint64_t bytes, double s, double kern,
                       const error_counts& e, double lat) {
            const double gbps = double(b) / s / 1e9, kgbps = kern > 0 ? double(b) / kern / 1e9 : NAN;
            const double fer = e.frames ? double(e.frame_errors) / double(e.frames) : NAN;
            const double it = first.iterates() && e.frames ? double(e.iterations) / double(e.frames) : NAN;
            std::printf("%-44s %10llu %12llu %10.3f %11.4f %11.4f %9.2e %7.2f %11.1f\n", dev.c_str(),
                        (unsigned long long)f, (unsigned long long)b, s * 1e3, gbps, kgbps, fer, it, lat * 1e6);
            table.add({ family, options, first.describe(), dev, first.input_kind(),
                        ch->name() + " (" + ch->measure() + ")", ebn0, f, b, bytes,
                        uint64_t(reps), s, gbps, kgbps, fer, it, lat * 1e6, std::string(build_commit()) });
            jdev.push_back({ { "device", dev }, { "frames", f }, { "info_bits", b }, { "input_bytes", bytes },
                             { "seconds", s }, { "gbps_host_to_host", gbps }, { "gbps_kernels", num(kgbps) },
                             { "fer", num(fer) }, { "mean_iterations", num(it) },
                             { "latency_us", num(lat * 1e6) } });
        };
        for (auto& r : runs) {
            const uint64_t b = r.errors.bits; // every frame's own information bits
            row(r.kit->backend(), r.frames, b, r.input_bytes, median(r.seconds), r.kernel_s,
                r.errors, r.latency_s);
            all_bits += b;
            all_bytes += r.input_bytes;
            all_err += r.errors;
            if (r.kernel_s > 0)
                kernel_sum += double(b) / r.kernel_s;
            else
                all_kernels = false;
        }
        if (runs.size() > 1)
            row("all " + std::to_string(runs.size()) + " devices at once", total, all_bits, all_bytes, median(wall),
                all_kernels ? double(all_bits) / kernel_sum : -1, all_err, NAN);
        if (!csv.empty()) {
            try {
                table.append(csv);
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("--csv: ") + e.what());
            }
        }
        if (!json.empty()) {
            nlohmann::json j = { { "app", "gpufec_bench" },
                                 { "commit", build_commit() },
                                 { "family", family },
                                 { "options", options },
                                 { "code", first.describe() },
                                 { "input", first.input_kind() },
                                 { "output", "packed bits" },
                                 { ch->measure(), ebn0 },
                                 { "reps", reps },
                                 { "units",
                                   { { "gbps", "decoded information bits per second / 1e9" },
                                     { "seconds", "median wall-clock per decode of all frames" },
                                     { "latency_us", "one frame, host to host" } } },
                                 { "devices", jdev } };
            try {
                write_text_file(json, j.dump(2) + "\n");
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("--json: ") + e.what());
            }
        }
    } catch (const CLI::Error& e) {
        return cli.exit(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
