/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Which code kit a family and its options get. */
#include "kits.h"

#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <cmath>
#include <stdexcept>

namespace gpufec {
namespace app {

double code_kit::union_bound_ber(double) const { return NAN; }

std::string code_kit::choose_frame_maker(const std::string& maker, const channel_kit&, uint64_t)
{
    if (maker == "auto" || maker == "encoder")
        return "each frame through the encoder, on the CPU";
    if (maker == "gpu" || maker == "cpu")
        throw std::invalid_argument("--frame-maker " + maker + ": " + describe() +
                                    " makes its frames through its encoder only (use auto or encoder)");
    throw std::invalid_argument("--frame-maker: '" + maker + "' is not auto, gpu, cpu or encoder");
}

std::string code_kit::choose_drawn(const std::string& maker, const channel_kit& ch, uint64_t seed,
                                   const std::function<std::string()>& refusal, const std::string& what,
                                   const std::function<std::string()>& make_gpu, bool& drawn)
{
    drawn = false;
    if (maker != "auto" && maker != "gpu" && maker != "cpu")
        return code_kit::choose_frame_maker(maker, ch, seed); // "encoder", or a bad name
    const std::string why_not = refusal();
    if (!why_not.empty()) {
        if (maker != "auto")
            throw std::invalid_argument("--frame-maker " + maker + ": " + why_not);
        return code_kit::choose_frame_maker("auto", ch, seed) + " (" + why_not + ")";
    }
    drawn = true;
    if (maker == "cpu" || backend().rfind("cuda", 0) != 0) {
        if (maker == "gpu")
            throw std::invalid_argument("--frame-maker gpu: the decoder runs on the CPU (" + backend() + ")");
        return what + " on the CPU";
    }
    try {
        return what + " on " + make_gpu();
    } catch (const std::exception& e) {
        if (maker == "gpu")
            throw;
        return what + " on the CPU (" + e.what() + ")";
    }
}

std::unique_ptr<code_kit> make_code_kit(const std::string& family, const std::string& options,
                                        const device_spec& device, const std::vector<std::string>& mix)
{
    const frame_options opts = parse_frame_options(options);
    const auto mode = opts.find("mode");
    if (family == "viterbi" && mode != opts.end() && mode->second == "streaming") {
        if (!mix.empty())
            throw std::invalid_argument("--mix: the streaming Viterbi decoder takes one code");
        return make_stream_kit(options, device);
    }
    return make_frame_kit(family, options, device, mix);
}

} // namespace app
} // namespace gpufec
