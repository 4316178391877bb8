/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "block_params.h"

#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <stdexcept>

namespace gr {
namespace gpufec {

bool input_stream_ended(gr::block& b, size_t counted, int port)
{
    const auto reader = b.detail()->input(unsigned(port));
    gr::thread::scoped_lock guard(*reader->mutex());
    return reader->done() && size_t(reader->items_available()) == counted;
}

::gpufec::conv_code block_code(const std::string& code, int k, const std::vector<int>& polys,
                               const std::vector<int>& puncture)
{
    auto join = [](const std::vector<int>& v) {
        std::string s;
        for (int x : v)
            s += (s.empty() ? "" : " ") + std::to_string(x);
        return s;
    };
    ::gpufec::frame_options o = { { "code", code.empty() ? "custom" : code } };
    if (o["code"] == "custom") {
        o["k"] = std::to_string(k);
        o["polys"] = join(polys);
        o["puncture"] = join(puncture);
    }
    const auto& schema = ::gpufec::frame_family_info("viterbi").schema;
    ::gpufec::check_options("viterbi", schema, o);
    ::gpufec::option_reader r("viterbi", o, &schema);
    return ::gpufec::conv_code_from_options(r);
}

void check_decoder_params(int max_batch, float scale, const std::string* input_type)
{
    constexpr int limit = ::gpufec::max_batch_limit;
    if (max_batch < 0 || max_batch > limit)
        throw std::invalid_argument("max_batch: " + std::to_string(max_batch) +
                                    " is not valid (allowed: 0 = automatic, or 1.." + std::to_string(limit) + ")");
    if (!(scale > 0.f) || scale > 1e6f)
        throw std::invalid_argument("scale: must be a positive number up to 1e6");
    if (input_type && *input_type != "float" && *input_type != "int8")
        throw std::invalid_argument("input_type: '" + *input_type + "' is not valid (allowed: float, int8)");
}

} // namespace gpufec
} // namespace gr
