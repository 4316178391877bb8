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
 *
 * Frames: in frame modes one frame; in streaming mode one block of D decoded bits.
 * The CSV has the union bound (unpunctured codes) and uncoded BPSK beside each point;
 * --png draws them with gpufec_plot_ber (Python 3 with matplotlib).
 */
#include <gnuradio/gpufec/core/conv_encoder.h>
#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <gnuradio/gpufec/core/soft.h>
#include <gnuradio/gpufec/core/viterbi.h>

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
    int frame_bits = 1024, block_len = 512, traceback = 0;
    long long min_errors = 200;
    double max_bits = 1e8;
    unsigned seed = 1;
};

[[noreturn]] void usage(const std::string& msg)
{
    std::fprintf(stderr, "gpufec_ber: %s\nsee the comment at the top of apps/gpufec_ber.cc\n",
                 msg.c_str());
    std::exit(2);
}

args parse(int argc, char** argv)
{
    args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc)
                usage("missing value for " + k);
            return argv[++i];
        };
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
        else if (k == "--ebn0") {
            const std::string v = val();
            if (std::sscanf(v.c_str(), "%lf:%lf:%lf", &a.e0, &a.estep, &a.e1) != 3 || a.estep <= 0)
                usage("--ebn0 wants START:STEP:STOP, e.g. 0:0.5:6");
        } else
            usage("unknown option " + k);
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

} // namespace

int main(int argc, char** argv)
{
    const args a = parse(argc, argv);
    try {
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
                const size_t n = size_t(frame) * frames_per_batch;
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
        if (!a.png.empty()) {
            const std::string cmd = "gpufec_plot_ber \"" + a.csv + "\" \"" + a.png + "\" || python3 \"" +
                                    std::string(GPUFEC_SOURCE_APPS) + "/gpufec_plot_ber.py\" \"" +
                                    a.csv + "\" \"" + a.png + "\"";
            if (std::system(cmd.c_str()) != 0)
                std::fprintf(stderr, "gpufec_ber: could not draw %s (needs python3-matplotlib); "
                                     "the CSV is in %s\n", a.png.c_str(), a.csv.c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpufec_ber: %s\n", e.what());
        return 1;
    }
    return 0;
}
