/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The LDPC block: names LDPC's parameters and builds its decoder; batching, tags and the end of
 * a stream are the generic frame block's (frame_decoder_impl). */
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/ldpc_decoder.h>

#include "block_params.h"
#include "frame_decoder_impl.h"
#include <cstdio>
#include <stdexcept>

namespace gr {
namespace gpufec {

class ldpc_decoder_impl : public ldpc_decoder, public frame_decoder_impl
{
public:
    ldpc_decoder_impl(std::unique_ptr<::gpufec::batch_decoder> dec,
                      const frame_block_settings& s,
                      int n,
                      int k)
        : gr::block("ldpc_decoder", frame_block_input(s.float_input), frame_block_output()),
          frame_decoder_impl(std::move(dec), s),
          d_n(n),
          d_k(k)
    {
    }

    int codeword_bits() const override { return d_n; }
    int info_bits() const override { return d_k; }

private:
    int d_n, d_k;
};

ldpc_decoder::sptr ldpc_decoder::make(const std::string& code,
                                      int max_iterations,
                                      bool early_termination,
                                      const std::string& algorithm,
                                      const std::string& device,
                                      int max_batch,
                                      const std::string& input_type,
                                      const std::string& output,
                                      bool packed_output,
                                      const std::string& precision,
                                      float normalization,
                                      float offset,
                                      float scale,
                                      const std::string& status_tags,
                                      const std::string& length_tag_key,
                                      const std::string& outer,
                                      const std::string& interleaver)
{
    install_gr_log_handler();
    ::gpufec::ldpc_options o;
    o.algorithm = ::gpufec::parse_ldpc_algorithm(algorithm);
    o.precision = ::gpufec::parse_ldpc_precision(precision);
    o.max_iterations = max_iterations;
    o.early_termination = early_termination;
    o.normalization = normalization;
    o.offset = offset;
    o.validate();
    check_decoder_params(max_batch, scale, &input_type);
    if (output != "info" && output != "codeword")
        throw std::invalid_argument("output: '" + output + "' is not valid (allowed: info, codeword)");
    if (input_type == "int8" && o.algorithm == ::gpufec::ldpc_algorithm::sum_product)
        throw std::invalid_argument("input_type: sum-product needs true LLRs; use float input");
    const auto c = ::gpufec::ldpc_code::named(code);
    frame_block_settings s =
        make_block_settings(input_type, packed_output, scale, status_tags, length_tag_key, max_batch);
    // the ldpc family's decoder from the same settings, so that they can change while it runs
    char num[64];
    auto real = [&](float v) {
        std::snprintf(num, sizeof num, "%.9g", double(v));
        return std::string(num);
    };
    const ::gpufec::frame_options opts = { { "code", code },
                                           { "algorithm", algorithm },
                                           { "precision", precision },
                                           { "max_iterations", std::to_string(max_iterations) },
                                           { "early_termination", early_termination ? "true" : "false" },
                                           { "normalization", real(normalization) },
                                           { "offset", real(offset) },
                                           { "output", output },
                                           { "outer", outer },
                                           { "interleaver", interleaver } };
    s.recipe = std::make_shared<const decoder_recipe>("ldpc", opts, max_batch, ::gpufec::device_spec::parse(device));
    s.fallback = s.recipe->fallback();
    auto dec = s.recipe->make();
    // the soft values a codeword as sent (5G NR: all but the first 2Z bits), its information bits
    const int sent = int(dec->input_per_frame());
    const int info = output == "info" ? int(dec->output_bits()) : c.k(); // (K_bch with the BCH)
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(std::move(dec), s, sent, info);
}

} // namespace gpufec
} // namespace gr
