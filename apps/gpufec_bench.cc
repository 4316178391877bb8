/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_bench: decoder-level throughput in decoded information bits per second, host memory to
 * host memory with every transfer included (and, on a GPU, the kernels alone too).
 *
 *   gpufec_bench [--code ccsds] [--mode streaming|terminated|tailbiting|truncated]
 *                [--device auto|cpu|cuda|cuda:N] [--bits N] [--frame-bits N]
 *                [--block-len D] [--traceback L] [--max-batch N] [--threads N]
 *                [--reps N] [--reference] [--json FILE] [--csv FILE]
 *
 * Input: int8 soft values of a noisy BPSK stream (Eb/N0 3 dB), in page-locked host memory
 * where a GPU is present. Output: packed bits. The median of --reps runs is reported.
 */
#include <gnuradio/gpufec/core/conv_encoder.h>
#include <gnuradio/gpufec/core/viterbi.h>

#include "app_util.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

using namespace gpufec;

namespace {

struct args {
    std::string code = "ccsds", mode = "streaming", device = "auto", json, csv;
    int64_t bits = 1 << 26;
    int frame_bits = 1024, block_len = 512, traceback = 0, max_batch = 0, threads = 0, reps = 7;
    bool reference = false;
};

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&] { return app::option_value(argc, argv, i, "gpufec_bench"); };
        if (k == "--code") a.code = val();
        else if (k == "--mode") a.mode = val();
        else if (k == "--device") a.device = val();
        else if (k == "--bits") a.bits = std::stoll(val());
        else if (k == "--frame-bits") a.frame_bits = std::stoi(val());
        else if (k == "--block-len") a.block_len = std::stoi(val());
        else if (k == "--traceback") a.traceback = std::stoi(val());
        else if (k == "--max-batch") a.max_batch = std::stoi(val());
        else if (k == "--threads") a.threads = std::stoi(val());
        else if (k == "--reps") a.reps = std::max(1, std::stoi(val()));
        else if (k == "--reference") a.reference = true;
        else if (k == "--json") a.json = val();
        else if (k == "--csv") a.csv = val();
        else app::usage("gpufec_bench", "unknown option " + k);
    }
    return a;
}

//! noisy BPSK soft values for `coded` bits: a table of Gaussian samples walked by a fast
//! generator, so that building gigabits of input takes seconds
void make_soft(const std::vector<uint8_t>& coded, double rate, int8_t* out)
{
    const double sigma = std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, 0.3)));
    std::mt19937 rng(1);
    std::normal_distribution<double> g(0, sigma);
    std::vector<int8_t> table0(1 << 16), table1(1 << 16);
    for (size_t i = 0; i < table0.size(); ++i) {
        const double n = g(rng);
        table0[i] = int8_t(std::max(-127.0, std::min(127.0, std::nearbyint(32 * (-1 + n)))));
        table1[i] = int8_t(std::max(-127.0, std::min(127.0, std::nearbyint(32 * (1 + n)))));
    }
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < coded.size(); ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out[i] = coded[i] ? table1[x & 0xffff] : table0[x & 0xffff];
    }
}

} // namespace

int main(int argc, char** argv)
{
    const args a = parse(argc, argv);
    try {
        conv_code code = conv_code::preset(a.code);
        viterbi_options o;
        o.mode = parse_conv_mode(a.mode);
        o.frame_bits = a.frame_bits;
        o.block_len = a.block_len;
        o.traceback = a.traceback;
        o.max_batch = a.max_batch;
        o.cpu_threads = a.threads;
        o.cpu_reference = a.reference;
        const device_spec dev = device_spec::parse(a.device);
        const bool stream = o.mode == conv_mode::streaming;
        std::vector<double> times;
        double kernel_s = -1;
        int64_t info_bits = 0;
        size_t soft_bytes = 0;
        std::string backend;
        std::vector<uint8_t> bits_in;

        if (stream) {
            viterbi_stream_decoder dec(code, o, dev);
            backend = dec.backend();
            const int64_t D = o.block_len, L = dec.traceback();
            const int64_t n_pbs = std::max<int64_t>(1, a.bits / D);
            info_bits = n_pbs * D;
            const int64_t stages = info_bits + L;
            bits_in.resize(size_t(stages));
            std::mt19937 rng(5);
            for (auto& b : bits_in)
                b = rng() & 1;
            conv_encoder enc(code, conv_mode::streaming);
            std::vector<uint8_t> coded(size_t(stages) * code.n());
            coded.resize(enc.encode(bits_in.data(), size_t(stages), coded.data()));
            host_buffer soft(coded.size()), out(size_t(info_bits / 8));
            make_soft(coded, double(code.period()) / code.kept_per_period(),
                      reinterpret_cast<int8_t*>(soft.data()));
            soft_bytes = coded.size();
            for (int r = -1; r < a.reps; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                dec.decode_blocks(reinterpret_cast<const int8_t*>(soft.data()), soft.size(), 0, 0,
                                  n_pbs, out.data());
                const auto t1 = std::chrono::steady_clock::now();
                if (r >= 0)
                    times.push_back(std::chrono::duration<double>(t1 - t0).count());
            }
            // sanity: the decoded stream is the input at 3 dB, up to a few errors
            size_t errors = 0;
            for (int64_t i = 0; i < info_bits; ++i)
                errors += ((out.data()[i / 8] >> (7 - i % 8)) & 1) != bits_in[size_t(i)];
            std::printf("decoded bit errors at 3 dB: %zu of %lld (BER %.2e)\n", errors,
                        (long long)info_bits, double(errors) / info_bits);
            const int64_t kernel_pbs = std::min<int64_t>(n_pbs, o.max_batch > 0 ? o.max_batch : n_pbs);
            kernel_s = dec.time_kernels_only(reinterpret_cast<const int8_t*>(soft.data()),
                                             size_t(code.kept_for_stages(kernel_pbs * D + L)),
                                             kernel_pbs, a.reps);
            if (kernel_s > 0)
                kernel_s *= double(n_pbs) / kernel_pbs;
        } else {
            viterbi_frame_decoder dec(code, o, dev);
            backend = dec.backend();
            const int64_t frames = std::max<int64_t>(1, a.bits / a.frame_bits);
            info_bits = frames * a.frame_bits;
            bits_in.resize(size_t(info_bits));
            std::mt19937 rng(5);
            for (auto& b : bits_in)
                b = rng() & 1;
            conv_encoder enc(code, o.mode, a.frame_bits);
            std::vector<uint8_t> coded(enc.output_per_frame() * frames);
            enc.encode_frames(bits_in.data(), size_t(frames), coded.data());
            host_buffer soft(coded.size()), out(size_t(info_bits / 8 + frames));
            make_soft(coded, double(code.period()) / code.kept_per_period(),
                      reinterpret_cast<int8_t*>(soft.data()));
            soft_bytes = coded.size();
            const bool packed = a.frame_bits % 8 == 0;
            std::vector<uint8_t> unpacked(packed ? 0 : size_t(info_bits));
            for (int r = -1; r < a.reps; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                dec.decode(reinterpret_cast<const int8_t*>(soft.data()), size_t(frames),
                           packed ? out.data() : unpacked.data(), packed);
                const auto t1 = std::chrono::steady_clock::now();
                if (r >= 0)
                    times.push_back(std::chrono::duration<double>(t1 - t0).count());
            }
        }

        const double t = app::median(times);
        const double gbps = info_bits / t / 1e9;
        const double kgbps = kernel_s > 0 ? info_bits / kernel_s / 1e9 : -1;
        std::printf("%-10s %-11s %-34s %10s %6s %4s %12s %12s\n", "code", "mode", "backend",
                    "info_bits", "D", "L", "Gb/s(h2h)", "Gb/s(kern)");
        std::printf("%-10s %-11s %-34s %10lld %6d %4d %12.4f %12.4f\n", a.code.c_str(),
                    a.mode.c_str(), backend.c_str(), (long long)info_bits,
                    stream ? o.block_len : a.frame_bits, o.traceback_for(code), gbps, kgbps);
        std::printf("input: int8 soft values (%zu bytes), output: packed bits; median of %d runs; "
                    "%.3f ms per run\n", soft_bytes, a.reps, t * 1e3);
        char json[1024];
        std::snprintf(json, sizeof(json),
                      "{\"code\":\"%s\",\"mode\":\"%s\",\"backend\":\"%s\",\"info_bits\":%lld,"
                      "\"block_len\":%d,\"traceback\":%d,\"frame_bits\":%d,\"quantization\":\"int8\","
                      "\"seconds\":%.6f,\"gbps_host_to_host\":%.4f,\"gbps_kernels\":%.4f}",
                      a.code.c_str(), a.mode.c_str(), backend.c_str(), (long long)info_bits,
                      o.block_len, o.traceback_for(code), a.frame_bits, t, gbps, kgbps);
        if (!a.json.empty())
            std::ofstream(a.json, std::ios::app) << json << "\n";
        if (!a.csv.empty()) {
            std::ostringstream row;
            row << a.code << "," << a.mode << ",\"" << backend << "\"," << info_bits << "," << o.block_len << ","
                << o.traceback_for(code) << "," << a.frame_bits << "," << t << "," << gbps << "," << kgbps;
            app::append_csv(a.csv,
                            "code,mode,backend,info_bits,block_len,traceback,frame_bits,seconds,"
                            "gbps_host_to_host,gbps_kernels",
                            row.str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
