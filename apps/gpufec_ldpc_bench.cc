/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_ldpc_bench: LDPC decoder throughput in decoded information bits per second, host
 * memory to host memory with every transfer included (and on a GPU the kernels alone too),
 * plus the single-codeword latency.
 *
 *   gpufec_ldpc_bench [--code 802.16e:2304:1/2] [--device auto|cpu|cuda|cuda:N]
 *                     [--frames 4096] [--iterations 10] [--no-et] [--ebn0 dB]
 *                     [--precision int8|int16] [--algorithm layered|flooding]
 *                     [--max-batch N] [--threads N] [--reps N] [--json FILE] [--csv FILE]
 *
 * Input: int8 soft values of BPSK over AWGN at --ebn0 (default 3 dB), in page-locked memory
 * where a GPU is present. Output: packed information bits. The median of --reps runs. */
#include <gnuradio/gpufec/core/ldpc.h>
#include <gnuradio/gpufec/core/ldpc_encoder.h>
#include <gnuradio/gpufec/core/soft.h>

#include "app_util.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace gpufec;

namespace {

struct args {
    std::string code = "802.16e:2304:1/2", device = "auto", precision = "int16", algorithm = "layered", json,
                csv;
    int frames = 4096, iterations = 10, max_batch = 0, threads = 0, reps = 7;
    bool et = true;
    double ebn0 = 3.0;
};

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&] { return app::option_value(argc, argv, i, "gpufec_ldpc_bench"); };
        if (k == "--code") a.code = val();
        else if (k == "--device") a.device = val();
        else if (k == "--frames") a.frames = std::max(1, std::stoi(val()));
        else if (k == "--iterations") a.iterations = std::stoi(val());
        else if (k == "--no-et") a.et = false;
        else if (k == "--ebn0") a.ebn0 = std::stod(val());
        else if (k == "--precision") a.precision = val();
        else if (k == "--algorithm") a.algorithm = val();
        else if (k == "--max-batch") a.max_batch = std::stoi(val());
        else if (k == "--threads") a.threads = std::stoi(val());
        else if (k == "--reps") a.reps = std::max(1, std::stoi(val()));
        else if (k == "--json") a.json = val();
        else if (k == "--csv") a.csv = val();
        else app::usage("gpufec_ldpc_bench", "unknown option " + k);
    }
    return a;
}

} // namespace

int main(int argc, char** argv)
{
    const args a = parse(argc, argv);
    try {
        const ldpc_code code = ldpc_code::named(a.code);
        ldpc_options o;
        o.algorithm = parse_ldpc_algorithm(a.algorithm);
        o.precision = parse_ldpc_precision(a.precision);
        o.max_iterations = a.iterations;
        o.early_termination = a.et;
        o.max_batch = a.max_batch;
        o.cpu_threads = a.threads;
        ldpc_decoder dec(code, o, device_spec::parse(a.device));
        const size_t n = size_t(code.n()), k = size_t(code.k()), frames = size_t(a.frames);

        // random information, encoded, BPSK + AWGN, quantised
        std::mt19937 rng(3);
        std::vector<uint8_t> info(k * frames), cw(n * frames);
        for (auto& b : info)
            b = rng() & 1;
        ldpc_encoder(code).encode(info.data(), frames, cw.data());
        const double sigma = std::sqrt(1.0 / (2.0 * code.rate() * std::pow(10.0, a.ebn0 / 10)));
        std::normal_distribution<float> g(0.f, float(sigma));
        std::vector<float> y(cw.size());
        for (size_t i = 0; i < y.size(); ++i)
            y[i] = (cw[i] ? 1.f : -1.f) + g(rng);
        host_buffer soft(y.size()), out(frames * ((k + 7) / 8));
        quantize_soft(y.data(), reinterpret_cast<int8_t*>(soft.data()), y.size());
        const auto* s8 = reinterpret_cast<const int8_t*>(soft.data());
        std::vector<ldpc_result> res(frames);

        std::vector<double> times;
        for (int r = -1; r < a.reps; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            dec.decode(s8, frames, out.data(), ldpc_output::info, true, res.data());
            const auto t1 = std::chrono::steady_clock::now();
            if (r >= 0)
                times.push_back(std::chrono::duration<double>(t1 - t0).count());
        }
        // the run's own error count and iterations, as a sanity check of the figure
        size_t frame_errors = 0;
        double iters = 0;
        for (size_t f = 0; f < frames; ++f) {
            iters += res[f].iterations;
            for (size_t i = 0; i < k; ++i)
                if (((out.data()[f * ((k + 7) / 8) + i / 8] >> (7 - i % 8)) & 1) != info[f * k + i]) {
                    ++frame_errors;
                    break;
                }
        }
        iters /= double(frames);
        // single-codeword latency, host to host
        std::vector<double> lat;
        for (int r = -1; r < std::max(a.reps, 21); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            dec.decode(s8, 1, out.data(), ldpc_output::info, true, res.data());
            const auto t1 = std::chrono::steady_clock::now();
            if (r >= 0)
                lat.push_back(std::chrono::duration<double>(t1 - t0).count());
        }
        const double kernel_s = dec.time_kernels_only(s8, frames, a.reps);

        const double t = app::median(times), latency = app::median(lat);
        const double info_bits = double(k) * frames;
        const double gbps = info_bits / t / 1e9, kgbps = kernel_s > 0 ? info_bits / kernel_s / 1e9 : -1;
        std::printf("%-20s %-44s %6s %5s %4s %6s %7s %9s %11s %11s %11s\n", "code", "backend", "frames", "iter",
                    "ET", "Eb/N0", "avg_it", "FER", "Gb/s(h2h)", "Gb/s(kern)", "latency_us");
        std::printf("%-20s %-44s %6zu %5d %4s %6.2f %7.2f %9.2e %11.4f %11.4f %11.1f\n", code.id().c_str(),
                    dec.backend().c_str(), frames, a.iterations, a.et ? "on" : "off", a.ebn0, iters,
                    double(frame_errors) / frames, gbps, kgbps, latency * 1e6);
        std::printf("input: int8 soft values (%zu bytes), %s messages, output: packed information bits; "
                    "median of %d runs; %.3f ms per run\n",
                    y.size(), a.precision.c_str(), a.reps, t * 1e3);
        char json[1024];
        std::snprintf(json, sizeof(json),
                      "{\"code\":\"%s\",\"backend\":\"%s\",\"frames\":%zu,\"max_iterations\":%d,"
                      "\"early_termination\":%s,\"ebn0_db\":%.2f,\"avg_iterations\":%.3f,\"fer\":%.3e,"
                      "\"precision\":\"%s\",\"quantization\":\"int8\",\"seconds\":%.6f,"
                      "\"gbps_host_to_host\":%.4f,\"gbps_kernels\":%.4f,\"latency_us\":%.1f}",
                      code.id().c_str(), dec.backend().c_str(), frames, a.iterations, a.et ? "true" : "false",
                      a.ebn0, iters, double(frame_errors) / frames, a.precision.c_str(), t, gbps, kgbps,
                      latency * 1e6);
        if (!a.json.empty())
            std::ofstream(a.json, std::ios::app) << json << "\n";
        if (!a.csv.empty()) {
            std::ostringstream row;
            row << code.id() << ",\"" << dec.backend() << "\"," << frames << "," << a.iterations << ","
                << (a.et ? 1 : 0) << "," << a.ebn0 << "," << iters << "," << double(frame_errors) / frames << ","
                << a.precision << "," << t << "," << gbps << "," << kgbps << "," << latency * 1e6;
            app::append_csv(a.csv,
                            "code,backend,frames,max_iterations,early_termination,ebn0_db,avg_iterations,fer,"
                            "precision,seconds,gbps_host_to_host,gbps_kernels,latency_us",
                            row.str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_ldpc_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
