/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_ber: bit and frame error rates of any family over a channel, against Eb/N0, with
 * Wilson 95% intervals; on every listed device of a host, and under MPI on many hosts.
 * `gpufec_ber --help` lists every option; docs/apps.md shows examples. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include "kit/cli_options.h"
#include "kit/devices.h"
#include "kit/error_stats.h"
#include "kit/kits.h"
#include "kit/progress.h"
#include "kit/report.h"
#include "kit/sim_driver.h"
#include "kit/team.h"
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
#include <unistd.h>

using namespace gpufec;
using namespace gpufec::app;

namespace {

struct point {
    double ebn0;
    error_counts c;
    double seconds;
    std::string stopped; //!< why the point ended before its stop rule ("interrupt", "time limit"), or ""
};

/* Ctrl+C, as AFF3CT takes it: the first interrupt ends the point in progress (its counts are
 * written, marked as stopped); a second within half a second ends the run. */
std::atomic<bool> g_end_point{ false }, g_end_run{ false };
std::atomic<int64_t> g_last_interrupt_ns{ 0 };

void on_interrupt(int)
{
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); // (async-signal-safe)
    const int64_t ns = int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
    const int64_t last = g_last_interrupt_ns.exchange(ns);
    if (g_end_point.load() && last > 0 && ns - last < 500000000)
        g_end_run = true;
    g_end_point = true;
}

std::vector<double> ebn0_points(const std::string& spec)
{
    double a, step, b;
    char tail;
    if (std::sscanf(spec.c_str(), "%lf:%lf:%lf%c", &a, &step, &b, &tail) == 3) {
        if (!(step > 0) || b < a || (b - a) / step > 1000)
            throw CLI::ValidationError("--ebn0", "START:STEP:STOP needs STEP > 0, STOP >= START, "
                                                 "at most 1000 points");
        std::vector<double> v;
        for (int i = 0; a + i * step <= b + 1e-9; ++i)
            v.push_back(a + i * step);
        return v;
    }
    try {
        size_t used = 0;
        const double v = std::stod(spec, &used);
        if (used == spec.size() && std::isfinite(v))
            return { v };
    } catch (const std::exception&) {
    }
    throw CLI::ValidationError("--ebn0", "'" + spec + "' is not START:STEP:STOP or one value");
}

double ratio(uint64_t k, uint64_t n) { return n ? double(k) / double(n) : NAN; }

//! a symbol count: empty for binary codes (no symbols counted)
csv_table::cell symbol_cell(const error_counts& c, uint64_t v)
{
    return c.symbols ? csv_table::cell(v) : csv_table::cell(std::monostate{});
}

csv_table make_csv(const std::string& family, const std::string& options, const std::string& backends,
                   const channel_kit& ch, const code_kit& kit, const std::vector<point>& pts)
{
    csv_table t({ "family", "options", "backend", "channel", ch.measure(), "bits", "bit_errors", "ber",
                  "ber_lo95", "ber_hi95", "frames", "frame_errors", "fer", "fer_lo95", "fer_hi95",
                  "mean_iterations", "uncoded_ber", "union_bound", "symbols", "symbol_errors", "ser", "stopped",
                  "seconds" });
    for (const auto& p : pts) {
        const auto& c = p.c;
        const interval bi = wilson(c.bit_errors, c.bits), fi = wilson(c.frame_errors, c.frames);
        t.add({ family, options, backends, ch.name(), p.ebn0, c.bits, c.bit_errors,
                ratio(c.bit_errors, c.bits), bi.lo, bi.hi, c.frames, c.frame_errors,
                ratio(c.frame_errors, c.frames), fi.lo, fi.hi,
                kit.iterates() ? ratio(c.iterations, c.frames) : NAN, ch.uncoded_ber(p.ebn0),
                kit.union_bound_ber(p.ebn0), symbol_cell(c, c.symbols), symbol_cell(c, c.symbol_errors),
                ratio(c.symbol_errors, c.symbols), p.stopped, p.seconds });
    }
    return t;
}

//! the plot script installed beside this program (bindir), else the one of the install prefix
std::string plot_script()
{
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, size_t(n));
        dir.erase(dir.find_last_of('/') + 1);
        if (access((dir + "gpufec_plot_ber").c_str(), R_OK) == 0)
            return dir + "gpufec_plot_ber";
    }
    return GPUFEC_INSTALL_BINDIR "/gpufec_plot_ber";
}

} // namespace

int main(int argc, char** argv)
{
    std::unique_ptr<team> tm;
    try {
        tm = make_team(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_ber: %s\n", e.what());
        return 1;
    }
    const bool lead = tm->rank() == 0; // prints and writes the outputs
    CLI::App cli{ "gpufec_ber: bit and frame error rates of a gr-gpufec decoder against Eb/N0 "
                  "(BPSK over AWGN), with Wilson 95% confidence intervals; on several devices, "
                  "and across hosts when started by mpirun." };
    std::string family = "viterbi", options, devices = "auto";
    std::string channel = "bpsk-awgn", ebn0 = "0:0.5:6", csv = "ber.csv", json, plot;
    stop_rule rule;
    uint64_t seed = 1, batch = 0;
    bool quiet = false, keep_going = false;
    CLI::Option* options_opt = add_code_options(cli, family, options,
                     "viterbi with mode=streaming decodes one endless stream, a frame being a block of "
                     "block_len bits");
    cli.add_option("-d,--devices,--device", devices,
                   "auto, all (every GPU), or a list such as cuda:0,cuda:1 or cpu: one decoder per "
                   "device, frames split among them. Under mpirun with several ranks on a host, each "
                   "rank takes one of them: cuda:(local rank mod GPUs)")
        ->capture_default_str();
    CLI::Option* channel_opt = cli.add_option("--channel", channel, "the channel (default: the one the family's decoder reads): bpsk-awgn, poisson-ppm[:kb=K] (photon counting, Kb background photons per slot, 0.2 by default; scppm), or bsid[:ps=P][:max_insertions=I] (binary substitution, insertion and deletion, I insertions in a row at most, 64 = uncapped by default; -e is p = Pi = Pd; the decoder is told the channel; tvb)");
    cli.add_option("-e,--ebn0", ebn0, "Eb/N0 in dB (poisson-ppm: Ks, signal photons per pulse, in dB; bsid: p = Pi = Pd, a probability): START:STEP:STOP or one value")->capture_default_str();
    cli.add_option("--min-frame-errors", rule.min_frame_errors,
                   "a point ends once it has this many frame errors (0: not required)")
        ->capture_default_str();
    cli.add_option("--min-bit-errors", rule.min_bit_errors,
                   "... and this many bit errors (0: not required)")
        ->capture_default_str();
    cli.add_option("--max-frames", rule.max_frames, "a point ends at this many frames, never more (0: no limit)")
        ->capture_default_str()
        ->transform(count_value);
    cli.add_option("--max-bits", rule.max_bits,
                   "a point ends at this many information bits, never more (0: no limit)")
        ->capture_default_str()
        ->transform(count_value);
    cli.add_option("--batch", batch,
                   "frames per decoder call (0: the decoder's preferred batch; at most 1048576); the "
                   "counts do not depend on it")
        ->transform(count_value)
        ->check(CLI::Range(uint64_t(0), uint64_t(max_batch_limit)));
    cli.add_option("--seed", seed, "random seed; frame f of point i draws from (seed, i, f), so the "
                                   "counts do not depend on devices, ranks or batch")
        ->capture_default_str()
        ->transform(count_value);
    std::string frame_maker = "auto";
    cli.add_option("--frame-maker", frame_maker,
                   "how frames are made: auto (span frames where the code is affine and the channel "
                   "BPSK over AWGN with int8 or 4-bit input: on the decoder's GPU when it decodes on one, "
                   "else on the CPU; otherwise each frame through the encoder), gpu, cpu, or encoder "
                   "(each frame's random bits through the family's encoder, the sweeps of earlier "
                   "versions); gpu and cpu make the same frames")
        ->capture_default_str()
        ->check(CLI::IsMember({ "auto", "gpu", "cpu", "encoder" }));
    cli.add_option("--csv", csv, "CSV output (rewritten after every point)")->capture_default_str();
    cli.add_option("--json", json, "JSON output: device, commit, code, options, units and the points");
    cli.add_option("--plot", plot, "draw the curves into this file (.png, .pdf or .svg) with "
                                   "gpufec_plot_ber (needs a python3 with matplotlib)");
    double max_seconds = 0;
    cli.add_option("--max-seconds", max_seconds,
                   "a point ends after this many seconds (marked as stopped in the CSV and JSON; 0: no limit)")
        ->check(CLI::NonNegativeNumber);
    cli.add_flag("--keep-going", keep_going, "go on past a point without bit errors (default: the sweep "
                                             "ends there)");
    cli.add_flag("-q,--quiet", quiet, "no progress lines");
    std::string list_family;
    cli.add_option("--list-options", list_family, "print a family's options and exit");
    cli.set_version_flag("--version", std::string("gpufec_ber ") + gpufec::version() + " (commit " + build_commit() + ")");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return lead ? cli.exit(e) : (e.get_exit_code() ? 1 : 0);
    }
    try {
        if (!list_family.empty()) {
            const auto& info = frame_family_info(list_family);
            if (lead)
                std::printf("%s: %s\noptions:\n%s\n", info.name.c_str(), info.summary.c_str(),
                            info.schema.empty() ? info.options.c_str() : describe_options(info.schema).c_str());
            return 0;
        }
        if (!rule.has_limit())
            throw CLI::ValidationError("stop rule", "set at least one of --min-frame-errors, "
                                                    "--min-bit-errors, --max-frames, --max-bits");
        const auto points = ebn0_points(ebn0);
        resolve_family_defaults(family, options, options_opt->count() > 0, channel, channel_opt->count() > 0);
        auto ch = make_channel(channel);
        const std::string label = ch->measure_label();
        // this process's decoders; a rank that cannot make them fails the run on every rank
        std::vector<std::unique_ptr<code_kit>> kits;
        std::string made_error, frames_made;
        try {
            for (const auto& d : devices_for_process(parse_devices(devices), tm->local_rank(), tm->local_size())) {
                kits.push_back(make_code_kit(family, options, d));
                frames_made += (frames_made.empty() ? "" : " | ") + kits.back()->choose_frame_maker(frame_maker, *ch, seed);
            }
        } catch (const std::exception& e) {
            made_error = e.what();
        }
        // every rank learns whether any failed, so none waits on a rank that has left
        auto all_ok = [&](const std::string& error) {
            const int failed = tm->first_failure(error.empty());
            if (!error.empty())
                throw std::runtime_error(error);
            if (failed >= 0)
                throw other_rank_failed(failed);
        };
        all_ok(made_error);
        std::vector<code_kit*> raw;
        std::string backends;
        for (auto& k : kits) {
            raw.push_back(k.get());
            backends += (backends.empty() ? "" : " | ") + k->backend();
        }
        if (tm->size() > 1)
            backends = tm->kind() + ", rank 0: " + backends;
        code_kit& kit = *kits.front();
        sim_driver driver(raw, *tm, batch);
        if (lead)
            std::fprintf(stderr, "gpufec_ber: %s, rate %.4f, %s; %s; %llu frames per round; frames: %s\n",
                         kit.describe().c_str(), kit.rate(), ch->name().c_str(), backends.c_str(),
                         (unsigned long long)driver.round_frames(), frames_made.c_str());
        std::vector<point> done;
        std::signal(SIGINT, on_interrupt);
        progress_line progress(quiet || !lead);
        for (size_t i = 0; i < points.size() && !g_end_run; ++i) {
            ch->set_point(points[i], kit.rate());
            point p{ points[i], {}, 0, "" };
            const auto t0 = std::chrono::steady_clock::now();
            const std::string where = label + " " + ch->format_point(p.ebn0);
            progress.start(where);
            auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
            p.c = driver.run_point(
                { seed, i }, *ch, rule, [&](const error_counts& c) { progress.update(c, rule, max_seconds); },
                [&] { return g_end_point.load() || (max_seconds > 0 && elapsed() >= max_seconds); });
            p.seconds = elapsed();
            if (driver.interrupted())
                p.stopped = g_end_point.load() ? "interrupt" : "time limit";
            g_end_point = false;
            done.push_back(p);
            if (lead) {
                progress.finish();
                const auto& c = p.c;
                const interval bi = wilson(c.bit_errors, c.bits);
                std::string ser;
                if (c.symbols) {
                    char b[48];
                    std::snprintf(b, sizeof b, "  SER %.3e", ratio(c.symbol_errors, c.symbols));
                    ser = b;
                }
                std::printf("%s  BER %.3e [%.2e, %.2e]  FER %.3e%s  (%llu frames, %llu frame errors, %.2f s)%s\n",
                            where.c_str(), ratio(c.bit_errors, c.bits), bi.lo, bi.hi, ratio(c.frame_errors, c.frames),
                            ser.c_str(), (unsigned long long)c.frames, (unsigned long long)c.frame_errors, p.seconds,
                            p.stopped.empty() ? "" : ("  [stopped: " + p.stopped + "]").c_str());
                std::fflush(stdout);
            }
            std::string write_error;
            try {
                if (lead)
                    make_csv(family, options, backends, *ch, kit, done).write(csv);
            } catch (const std::exception& e) {
                write_error = std::string("--csv: ") + e.what();
            }
            all_ok(write_error);
            if (p.c.bit_errors == 0 && p.c.frames > 0 && !keep_going && p.stopped.empty())
                break; // nothing more to see at higher Eb/N0 with this many bits
        }
        if (g_end_run && lead)
            std::fprintf(stderr, "gpufec_ber: interrupted; the points done are written\n");
        if (lead && !json.empty()) {
            nlohmann::json j;
            j["app"] = "gpufec_ber";
            j["commit"] = build_commit();
            j["family"] = family;
            j["options"] = options;
            j["code"] = kit.describe();
            j["backend"] = backends;
            j["processes"] = tm->size();
            j["decoders_per_process"] = kits.size();
            j["channel"] = ch->name();
            j["rate"] = kit.rate();
            j["input"] = kit.input_kind();
            j["seed"] = seed;
            j["frames_made_by"] = frames_made;
            j["stop_rule"] = { { "min_frame_errors", rule.min_frame_errors },
                               { "min_bit_errors", rule.min_bit_errors },
                               { "max_frames", rule.max_frames },
                               { "max_bits", rule.max_bits } };
            j["x"] = ch->measure();
            j["units"] = { { ch->measure(), ch->measure_unit().empty() ? "probability" : ch->measure_unit() },
                           { "bits", "information bits" },
                           { "interval", "Wilson 95%" },
                           { "seconds", "wall-clock per point" } };
            if (kit.symbol_bits() > 1)
                j["units"]["symbols"] = std::to_string(kit.symbol_bits()) + "-bit symbols of the information";
            nlohmann::json pts = nlohmann::json::array();
            auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
            for (const auto& p : done) {
                const interval bi = wilson(p.c.bit_errors, p.c.bits), fi = wilson(p.c.frame_errors, p.c.frames);
                pts.push_back({ { ch->measure(), p.ebn0 },
                                { "bits", p.c.bits },
                                { "bit_errors", p.c.bit_errors },
                                { "ber", num(ratio(p.c.bit_errors, p.c.bits)) },
                                { "ber_interval", { bi.lo, bi.hi } },
                                { "frames", p.c.frames },
                                { "frame_errors", p.c.frame_errors },
                                { "fer", num(ratio(p.c.frame_errors, p.c.frames)) },
                                { "fer_interval", { fi.lo, fi.hi } },
                                { "mean_iterations", kit.iterates() ? num(ratio(p.c.iterations, p.c.frames))
                                                                    : nlohmann::json() },
                                { "uncoded_ber", num(ch->uncoded_ber(p.ebn0)) },
                                { "union_bound", num(kit.union_bound_ber(p.ebn0)) },
                                { "seconds", p.seconds },
                                { "stopped", p.stopped.empty() ? nlohmann::json() : nlohmann::json(p.stopped) } });
                if (p.c.symbols) {
                    pts.back()["symbols"] = p.c.symbols;
                    pts.back()["symbol_errors"] = p.c.symbol_errors;
                    pts.back()["ser"] = num(ratio(p.c.symbol_errors, p.c.symbols));
                }
            }
            j["points"] = pts;
            try {
                write_text_file(json, j.dump(2) + "\n");
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("--json: ") + e.what());
            }
        }
        if (lead && !plot.empty()) {
            // the script's first line names GNU Radio's Python; GPUFEC_PYTHON, where set, wins
            const char* py = std::getenv("GPUFEC_PYTHON");
            const std::string cmd = (py ? "'" + std::string(py) + "' " : std::string()) + "'" + plot_script() +
                                    "' '" + csv + "' -o '" + plot + "'" +
                                    (kit.symbol_bits() > 1 ? " --what ber,fer,ser" : "");
            if (std::system(cmd.c_str()) != 0)
                throw std::runtime_error("--plot: '" + cmd + "' failed (the CSV is written)");
        }
    } catch (const other_rank_failed& e) {
        std::fprintf(stderr, "gpufec_ber (rank %d): stopped: %s\n", tm->rank(), e.what());
        return 1;
    } catch (const CLI::Error& e) {
        return lead ? cli.exit(e) : 1;
    } catch (const std::exception& e) {
        if (tm->size() > 1)
            std::fprintf(stderr, "gpufec_ber (rank %d of %d): %s\n", tm->rank(), tm->size(), e.what());
        else
            std::fprintf(stderr, "gpufec_ber: %s\n", e.what());
        return 1;
    }
    return 0;
}
