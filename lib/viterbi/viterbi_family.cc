/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Viterbi's frame modes (terminated, tail-biting, truncated) as a frame family: its frames
 * engine (viterbi_frames_engine.h) under the one decoder over engines, and its registration
 * ("viterbi").
 * Streaming is not a frame family: it has its own stream decoder and block. */
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>

#include "viterbi_frames_engine.h"
#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <sstream>

namespace gpufec {

namespace {

//! "79 -109" or "79:-109" -> {79, -109}
std::vector<int> int_list(const std::string& key, const std::string& text)
{
    std::string t = text;
    std::replace(t.begin(), t.end(), ':', ' ');
    std::istringstream in(t);
    std::vector<int> out;
    std::string tok;
    while (in >> tok) {
        size_t used = 0;
        long v = 0;
        try {
            v = std::stol(tok, &used, 0);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != tok.size() || v < -(1L << 30) || v > (1L << 30))
            throw std::invalid_argument(key + ": '" + tok + "' is not an integer");
        out.push_back(int(v));
    }
    return out;
}

} // namespace

conv_code conv_code_from_options(option_reader& r)
{
    const std::string name = r.get("code");
    conv_code code;
    if (name != "custom") {
        code = conv_code::preset(name);
    } else {
        code.k = int(r.get_int("k"));
        code.polys = int_list("polys", r.get("polys"));
        code.puncture.clear();
        for (int v : int_list("puncture", r.get("puncture"))) {
            if (v != 0 && v != 1) // (both roads to a code, options and the blocks' parameters, refuse it)
                throw std::invalid_argument("puncture: " + std::to_string(v) +
                                            " is not a puncturing entry (1: keep the bit, 0: drop it)");
            code.puncture.push_back(uint8_t(v));
        }
        code.validate();
    }
    return code;
}

namespace {

conv_mode mode_from_options(option_reader& r)
{
    const conv_mode mode = parse_conv_mode(r.get("mode"));
    if (mode == conv_mode::streaming)
        throw std::invalid_argument(
            "mode: streaming is not a frame mode (use the viterbi_decoder block, or "
            "terminated, tailbiting, truncated)");
    return mode;
}

class viterbi_frame_encoder : public frame_encoder
{
public:
    viterbi_frame_encoder(const conv_code& code, conv_mode mode, int bits) : d_enc(code, mode, bits) {}
    size_t info_bits() const override { return size_t(d_enc.frame_bits()); }
    size_t coded_bits() const override { return d_enc.output_per_frame(); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        d_enc.encode_frames(bits, frames, coded);
    }

private:
    conv_encoder d_enc;
};

std::unique_ptr<frame_encoder> make_encoder_from_options(option_reader& r)
{
    const conv_code code = conv_code_from_options(r);
    const conv_mode mode = mode_from_options(r);
    return std::make_unique<viterbi_frame_encoder>(code, mode,
                                                   int(r.get_int("frame_bits")));
}

//! the ML union bound of the code, for codes without puncturing (their spectrum is that of the code)
std::function<double(double, double)> union_bound_of_options(option_reader& r)
{
    const conv_code code = conv_code_from_options(r);
    if (!code.puncture.empty())
        return {};
    auto spectrum = std::make_shared<const std::vector<spectrum_term>>(distance_spectrum(code));
    return [spectrum](double rate, double ebn0_db) { return union_bound_ber(*spectrum, rate, ebn0_db); };
}

std::unique_ptr<batch_decoder> make_from_options(option_reader& r, const frame_common& common,
                                                 const device_spec& device)
{
    const conv_code code = conv_code_from_options(r);
    viterbi_options o;
    o.mode = mode_from_options(r);
    o.frame_bits = int(r.get_int("frame_bits"));
    o.traceback = int(r.get_int("traceback"));
    o.max_batch = common.max_batch;
    o.cpu_threads = common.cpu_threads;
    return make_viterbi_frame_decoder(code, o, device);
}

} // namespace

std::unique_ptr<batch_decoder> make_viterbi_frame_decoder(const conv_code& code,
                                                          const viterbi_options& options,
                                                          const device_spec& device)
{
    auto engine = std::make_unique<viterbi_frames_engine>(code, options, device);
    const size_t bits = size_t(options.frame_bits);
    // the GPU runs one frame per thread: it needs thousands of frames per call
    auto pick = [&] {
        return options.max_batch > 0 ? size_t(options.max_batch)
               : engine->on_gpu()    ? std::clamp<size_t>((size_t(1) << 24) / bits, 1, 65536)
                                     : std::clamp<size_t>((size_t(1) << 16) / bits, 16, 4096);
    };
    size_t batch = pick();
    const bool gpu = engine->on_gpu();
    engine->reserve(batch); // (with device auto, a GPU whose buffers do not fit leaves the CPU)
    if (gpu && !engine->on_gpu()) {
        batch = pick();
        engine->reserve(batch);
    }
    frame_shape shape;
    shape.family = "viterbi";
    shape.description = code.describe() + ", " + to_string(options.mode);
    shape.input_per_frame = engine->input_per_frame();
    shape.output_bits = bits;
    shape.min_efficient_cpu = 16;
    shape.min_efficient_gpu = 4096;
    shape.cpu_threads = options.cpu_threads;
    return make_engine_decoder(shape, std::move(engine), batch);
}

GPUFEC_REGISTER_FRAME_FAMILY(viterbi,
                             "viterbi",
                             "convolutional codes, K=3..9, terminated / tail-biting / truncated frames",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_from_options,
                             make_encoder_from_options,
                             "bpsk-awgn",
                             "code=ccsds, mode=streaming",
                             { opt_text("code", "ccsds", "a preset (conv_presets(): ccsds, nasa-dsn, 80211, lte, ...) or custom"),
                               opt_int("k", "7", 3, 9, "constraint length (custom)"),
                               opt_text("polys", "79 -109", "generator polynomials, octal-free integers; negative: inverted output (custom)"),
                               opt_text("puncture", "", "puncturing pattern, 1 keep 0 drop (custom; empty: none)"),
                               opt_choice("mode", "terminated", { "terminated", "tailbiting", "truncated" },
                                          "how a frame starts and ends (streaming: the viterbi_decoder block)",
                                          { "tail-biting", "tail_biting", "zero-tail", "zero_tail", "streaming", "stream", "continuous" }),
                               opt_int("frame_bits", "1024", 1, 1 << 24, "information bits a frame"),
                               opt_int("traceback", "0", 0, 4096, "traceback depth (0: 6K)"),
                               opt_int("block_len", "512", 8, 1 << 20,
                                       "mode=streaming in gpufec_bench / gpufec_ber: decoded bits a parallel block"),
                               opt_int("soft_bits", "8", 4, 8,
                                       "mode=streaming in gpufec_bench / gpufec_ber: 8 (int8 input) or 4 (packed 4-bit, pack_soft4)"),
                               opt_real("soft_scale", "32", 1, 127,
                                        "mode=streaming in gpufec_bench / gpufec_ber: quantize_soft's int8 units per unit of BPSK amplitude") },
                             union_bound_of_options,
                             {
                               "code=ccsds, mode=terminated, frame_bits=200",
                               "code=80211-3/4, mode=tailbiting, frame_bits=120",
                               "code=lte, mode=truncated, frame_bits=64" });

} // namespace gpufec
