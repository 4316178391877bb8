/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_ber: bit and frame error rates against Eb/N0, BPSK over AWGN.
 *
 *   gpufec_ber [--code ccsds] [--mode streaming|terminated|tailbiting|truncated]
 *              [--frame-bits 1024] [--block-len 512] [--traceback L] [--device auto]
 *              [--ebn0 START:STEP:STOP] [--min-errors 200] [--max-bits 1e8] [--seed 1]
 *              [--csv ber.csv] [--png ber.png]
 *   LDPC codes (--code 802.11n:1944:1/2, 802.16e:..., or an alist / base-matrix file):
 *              [--iterations 10] [--no-et] [--algorithm layered|flooding|sum-product]
 *              [--precision int8|int16|float]
 *
 * Frames: in frame modes one frame; in streaming mode one block of D decoded bits; LDPC one
 * codeword (errors counted in the information bits).
 * The CSV has the union bound (unpunctured codes) and uncoded BPSK beside each point;
 * --png draws them with gpufec_plot_ber (Python 3 with matplotlib).
 */
#include <gnuradio/gpufec/core/conv_encoder.h>
#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <gnuradio/gpufec/core/ldpc.h>
#include <gnuradio/gpufec/core/ldpc_encoder.h>
#include <gnuradio/gpufec/core/soft.h>
#include <gnuradio/gpufec/core/viterbi.h>

#include "app_util.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gpufec;

namespace {

struct args {
    std::string code = "ccsds", mode = "streaming", device = "auto", csv = "ber.csv", png;
    double e0 = 0, estep = 0.5, e1 = 6;
    int frame_bits = 1024, block_len = 512, traceback = 0, iterations = 10;
    bool early_termination = true;
    std::string algorithm = "layered", precision = "int16";
    long long min_errors = 200;
    double max_bits = 1e8;
    unsigned seed = 1;
};

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&] { return app::option_value(argc, argv, i, "gpufec_ber"); };
        if (k == "--code") a.code = val();
        else if (k == "--mode") a.mode = val();
        else if (k == "--device") a.device = val();
        else if (k == "--frame-bits") a.frame_bits = std::stoi(val());
        else if (k == "--block-len") a.block_len = std::stoi(val());
        else if (k == "--traceback") a.traceback = std::stoi(val());
        else if (k == "--min-errors") a.min_errors = std::stoll(val());
        else if (k == "--max-bits") a.max_bits = std::stod(val());
        else if (k == "--seed") a.seed = unsigned(std::stoul(val()));
        else if (k == "--csv") a.csv = val();
        else if (k == "--png") a.png = val();
        else if (k == "--iterations") a.iterations = std::stoi(val());
        else if (k == "--no-et") a.early_termination = false;
        else if (k == "--algorithm") a.algorithm = val();
        else if (k == "--precision") a.precision = val();
        else if (k == "--ebn0") {
            const std::string v = val();
            if (std::sscanf(v.c_str(), "%lf:%lf:%lf", &a.e0, &a.estep, &a.e1) != 3 || a.estep <= 0)
                app::usage("gpufec_ber", "--ebn0 wants START:STEP:STOP, e.g. 0:0.5:6");
        } else
            app::usage("gpufec_ber", "unknown option " + k);
    }
    return a;
}

void progress(double ebn0, double done, double total, long long errs, long long target)
{
    const double f = std::min(1.0, std::max(done / total, double(errs) / target));
    const int w = 30, fill = int(f * w);
    std::fprintf(stderr, "\r  Eb/N0 %5.2f dB [%.*s%*s] %3d%%  %lld errors", ebn0, fill,
                 "##############################", w - fill, "", int(f * 100), errs);
}

//! every name that is not a convolutional preset is an LDPC code (standard id or file)
bool is_ldpc(const std::string& code)
{
    const auto conv = conv_code::preset_names();
    return std::find(conv.begin(), conv.end(), code) == conv.end();
}

void draw(const args& a)
{
    if (a.png.empty())
        return;
    // the installed script, else the source copy with Debian's Python (which has matplotlib)
    const std::string args = " \"" + a.csv + "\" \"" + a.png + "\"";
    const std::string script = std::string(GPUFEC_SOURCE_APPS) + "/gpufec_plot_ber.py";
    const std::string cmd = "gpufec_plot_ber" + args + " 2>/dev/null || /usr/bin/python3 \"" + script + "\"" + args +
                            " 2>/dev/null || python3 \"" + script + "\"" + args;
    if (std::system(cmd.c_str()) != 0)
        std::fprintf(stderr, "gpufec_ber: could not draw %s (needs python3-matplotlib); the CSV is in %s\n",
                     a.png.c_str(), a.csv.c_str());
}

//! LDPC: random information, systematic encoding, BPSK + AWGN, int8 (or float) soft values
int ldpc_ber(const args& a)
{
    const ldpc_code code = ldpc_code::named(a.code);
    ldpc_options o;
    o.algorithm = parse_ldpc_algorithm(a.algorithm);
    o.precision = parse_ldpc_precision(a.precision);
    o.max_iterations = a.iterations;
    o.early_termination = a.early_termination;
    ldpc_decoder dec(code, o, device_spec::parse(a.device));
    const ldpc_encoder enc(code);
    const std::string mode = to_string(o.algorithm) + "-" + to_string(o.precision) + "-" +
                             std::to_string(a.iterations) + "it" + (a.early_termination ? "" : "-noET");
    std::fprintf(stderr, "gpufec_ber: %s, %s, backend %s\n", code.describe().c_str(), mode.c_str(),
                 dec.backend().c_str());
    std::ofstream csv(a.csv);
    csv << "code,mode,ebn0_db,bits,bit_errors,ber,frames,frame_errors,fer,union_bound,uncoded,mean_iterations\n";
    std::mt19937 rng(a.seed);
    std::normal_distribution<float> gauss(0.f, 1.f);
    const size_t k = size_t(code.k()), n = size_t(code.n());
    const size_t batch = std::max<size_t>(1, (size_t(1) << 20) / k);
    std::vector<uint8_t> info, cw, out;
    std::vector<float> tx;
    std::vector<ldpc_result> res(batch);
    for (double e = a.e0; e <= a.e1 + 1e-9; e += a.estep) {
        const double sigma = std::sqrt(1.0 / (2.0 * code.rate() * std::pow(10.0, e / 10.0)));
        long long bits = 0, berr = 0, frames = 0, ferr = 0, iters = 0;
        while (bits < a.max_bits && ferr < a.min_errors) {
            info.resize(k * batch);
            for (auto& b : info)
                b = rng() & 1;
            cw.resize(n * batch);
            enc.encode(info.data(), batch, cw.data());
            tx.resize(cw.size());
            // float decoders take LLRs (2y / sigma^2); the fixed-point ones quantise y * 32
            const float llr = o.precision == ldpc_precision::float32 ? float(2.0 / (sigma * sigma)) : 1.f;
            for (size_t i = 0; i < cw.size(); ++i)
                tx[i] = llr * ((cw[i] ? 1.f : -1.f) + float(sigma) * gauss(rng));
            out.resize(k * batch);
            dec.decode(tx.data(), batch, out.data(), ldpc_output::info, false, res.data());
            for (size_t f = 0; f < batch; ++f) {
                long long fe = 0;
                for (size_t i = 0; i < k; ++i)
                    fe += out[f * k + i] != info[f * k + i];
                berr += fe;
                ferr += fe > 0;
                iters += res[f].iterations;
            }
            frames += (long long)batch;
            bits += (long long)(batch * k);
            progress(e, double(bits), a.max_bits, ferr, a.min_errors);
        }
        std::fprintf(stderr, "\n");
        const double ber = double(berr) / bits, fer = double(ferr) / frames;
        std::printf("Eb/N0 %5.2f dB  BER %.3e  FER %.3e  (%lld frames, %lld frame errors)  mean iterations %.2f\n",
                    e, ber, fer, frames, ferr, double(iters) / frames);
        csv << code.id() << "," << mode << "," << e << "," << bits << "," << berr << "," << ber << "," << frames
            << "," << ferr << "," << fer << ",nan," << uncoded_bpsk_ber(e) << "," << double(iters) / frames
            << "\n";
        csv.flush();
        if (berr == 0)
            break;
    }
    draw(a);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const args a = parse(argc, argv);
    try {
        if (is_ldpc(a.code))
            return ldpc_ber(a);
        const conv_code code = conv_code::preset(a.code);
        viterbi_options o;
        o.mode = parse_conv_mode(a.mode);
        o.frame_bits = a.frame_bits;
        o.block_len = a.block_len;
        o.traceback = a.traceback;
        const device_spec dev = device_spec::parse(a.device);
        const bool stream = o.mode == conv_mode::streaming;
        const double rate = double(code.period()) / code.kept_per_period();
        std::vector<spectrum_term> spectrum;
        if (code.puncture.empty())
            spectrum = distance_spectrum(code, 8);

        std::unique_ptr<viterbi_frame_decoder> fdec;
        std::unique_ptr<viterbi_stream_decoder> sdec;
        std::string backend;
        if (stream) {
            sdec = std::make_unique<viterbi_stream_decoder>(code, o, dev);
            backend = sdec->backend();
        } else {
            fdec = std::make_unique<viterbi_frame_decoder>(code, o, dev);
            backend = fdec->backend();
        }
        std::fprintf(stderr, "gpufec_ber: %s, %s, backend %s\n", code.describe().c_str(),
                     a.mode.c_str(), backend.c_str());
        std::ofstream csv(a.csv);
        csv << "code,mode,ebn0_db,bits,bit_errors,ber,frames,frame_errors,fer,union_bound,uncoded\n";
        std::mt19937 rng(a.seed);
        std::normal_distribution<float> gauss(0.f, 1.f);

        const int frame = stream ? o.block_len : o.frame_bits;
        const int frames_per_batch = std::max(1, (1 << 20) / frame);
        for (double e = a.e0; e <= a.e1 + 1e-9; e += a.estep) {
            const float sigma = float(std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, e / 10.0))));
            long long bits = 0, berr = 0, frames = 0, ferr = 0;
            if (stream)
                sdec->reset();
            conv_encoder enc(code, o.mode, stream ? 0 : o.frame_bits);
            std::vector<uint8_t> info, ref_stream, coded, out;
            std::vector<float> tx;
            std::vector<int8_t> soft;
            size_t ref_pos = 0; // streaming: decoded bits compared so far
            while (bits < a.max_bits && berr < a.min_errors) {
                // whole puncturing periods, so that every push is a multiple of the period
                size_t n = size_t(frame) * frames_per_batch;
                if (stream)
                    n -= n % size_t(code.period());
                info.resize(n);
                for (auto& b : info)
                    b = rng() & 1;
                if (stream) {
                    coded.resize(n * code.n());
                    coded.resize(enc.encode(info.data(), n, coded.data()));
                    ref_stream.insert(ref_stream.end(), info.begin(), info.end());
                } else {
                    coded.resize(enc.output_per_frame() * frames_per_batch);
                    enc.encode_frames(info.data(), frames_per_batch, coded.data());
                }
                tx.resize(coded.size());
                for (size_t i = 0; i < coded.size(); ++i)
                    tx[i] = (coded[i] ? 1.f : -1.f) + sigma * gauss(rng);
                soft.resize(tx.size());
                quantize_soft(tx.data(), soft.data(), tx.size());
                const uint8_t* ref;
                size_t got;
                if (stream) {
                    sdec->push(soft.data(), soft.size());
                    out.resize(sdec->available());
                    got = sdec->read(out.data(), out.size());
                    ref = ref_stream.data() + ref_pos;
                } else {
                    out.resize(n);
                    fdec->decode(soft.data(), frames_per_batch, out.data());
                    got = n;
                    ref = info.data();
                }
                for (size_t f = 0; f + frame <= got; f += frame) {
                    long long fe = 0;
                    for (int i = 0; i < frame; ++i)
                        fe += out[f + i] != ref[f + i];
                    berr += fe;
                    ferr += fe > 0;
                    ++frames;
                }
                bits += (long long)got;
                if (stream) {
                    ref_pos += got;
                    if (ref_pos > (1u << 24)) { // keep the reference bounded
                        ref_stream.erase(ref_stream.begin(), ref_stream.begin() + ref_pos);
                        ref_pos = 0;
                    }
                }
                progress(e, double(bits), a.max_bits, berr, a.min_errors);
            }
            std::fprintf(stderr, "\n");
            const double ber = bits ? double(berr) / bits : 0, fer = frames ? double(ferr) / frames : 0;
            const double ub = spectrum.empty() ? NAN : union_bound_ber(spectrum, rate, e);
            std::printf("Eb/N0 %5.2f dB  BER %.3e  FER %.3e  (%lld bits, %lld errors)  union bound %.3e\n",
                        e, ber, fer, bits, berr, ub);
            csv << a.code << "," << a.mode << "," << e << "," << bits << "," << berr << "," << ber
                << "," << frames << "," << ferr << "," << fer << "," << ub << ","
                << uncoded_bpsk_ber(e) << "\n";
            csv.flush();
            if (berr == 0)
                break; // nothing more to see at higher Eb/N0 with this many bits
        }
        draw(a);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_ber: %s\n", e.what());
        return 1;
    }
    return 0;
}
