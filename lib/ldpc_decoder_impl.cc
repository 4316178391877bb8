/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc.h>
#include <gnuradio/gpufec/ldpc_decoder.h>

#include <gnuradio/gpufec/core/ldpc_code.h>

#include "block_code.h"
#include <gnuradio/io_signature.h>
#include <pmt/pmt.h>
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufec {

class ldpc_decoder_impl : public ldpc_decoder
{
public:
    ldpc_decoder_impl(const ::gpufec::ldpc_code& code,
                      const ::gpufec::ldpc_options& o,
                      const std::string& device,
                      bool float_input,
                      bool codeword_output,
                      bool packed,
                      float scale)
        : gr::block("ldpc_decoder",
                    gr::io_signature::make(1, 1, float_input ? sizeof(float) : sizeof(int8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_dec(code, o, ::gpufec::device_spec::parse(device)),
          d_float(float_input),
          d_what(codeword_output ? ::gpufec::ldpc_output::codeword : ::gpufec::ldpc_output::info),
          d_packed(packed),
          d_scale(scale),
          d_iter_key(pmt::intern("ldpc_iterations")),
          d_ok_key(pmt::intern("ldpc_syndrome_ok")),
          d_src(pmt::intern(alias()))
    {
        const size_t bits = d_dec.output_bits(d_what);
        d_in_unit = code.n();
        d_out_unit = int(d_packed ? (bits + 7) / 8 : bits);
        const bool gpu = d_dec.backend().rfind("cuda", 0) == 0;
        // a large output multiple makes GNU Radio size the upstream buffer for whole batches;
        // the forecast asks for one codeword only, so any complete codeword gets decoded
        d_batch = o.max_batch > 0 ? o.max_batch : (gpu ? 1024 : 64);
        set_output_multiple(d_batch * d_out_unit);
        set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit));
        set_tag_propagation_policy(TPP_DONT); // input tags are not aligned to codewords
        d_logger->info("{} {} {} iterations{}, backend {}", code.describe(), ::gpufec::to_string(o.algorithm),
                       o.max_iterations, o.early_termination ? " (early termination)" : "", d_dec.backend());
    }

    std::string backend() const override { return d_dec.backend(); }
    std::string code_description() const override { return d_dec.code().describe(); }
    int codeword_bits() const override { return d_dec.code().n(); }
    int info_bits() const override { return d_dec.code().k(); }
    uint64_t nan_count() const override { return d_nans; }
    uint64_t codewords() const override { return d_count; }
    uint64_t failed_codewords() const override { return d_failed; }
    double mean_iterations() const override { return d_count ? double(d_iters) / d_count : 0.0; }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        required[0] = noutput_items >= d_out_unit ? d_in_unit : 0;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int frames = std::min({ ninput_items[0] / d_in_unit, noutput_items / d_out_unit, d_batch });
        if (frames <= 0) {
            consume_each(0);
            return 0;
        }
        auto* out = static_cast<uint8_t*>(output_items[0]);
        d_res.resize(size_t(frames));
        if (d_float) {
            const size_t nans = d_dec.decode(static_cast<const float*>(input_items[0]), size_t(frames), out,
                                             d_what, d_packed, d_res.data(), nullptr, d_scale);
            if (nans && d_nans == 0)
                d_logger->warn("NaN soft values in the input are decoded as erasures (0); nan_count() "
                               "keeps the total");
            d_nans += nans;
        } else {
            d_dec.decode(static_cast<const int8_t*>(input_items[0]), size_t(frames), out, d_what, d_packed,
                         d_res.data());
        }
        const uint64_t first = nitems_written(0);
        for (int f = 0; f < frames; ++f) {
            const uint64_t at = first + uint64_t(f) * d_out_unit;
            add_item_tag(0, at, d_iter_key, pmt::from_long(d_res[f].iterations), d_src);
            add_item_tag(0, at, d_ok_key, pmt::from_bool(d_res[f].syndrome_ok != 0), d_src);
            d_iters += uint64_t(d_res[f].iterations);
            d_failed += d_res[f].syndrome_ok ? 0 : 1;
        }
        d_count += uint64_t(frames);
        consume_each(frames * d_in_unit);
        return frames * d_out_unit;
    }

private:
    ::gpufec::ldpc_decoder d_dec;
    bool d_float;
    ::gpufec::ldpc_output d_what;
    bool d_packed;
    float d_scale;
    pmt::pmt_t d_iter_key, d_ok_key, d_src;
    int d_in_unit = 0, d_out_unit = 0, d_batch = 1;
    std::vector<::gpufec::ldpc_result> d_res;
    uint64_t d_nans = 0, d_count = 0, d_failed = 0, d_iters = 0;
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
                                      float scale)
{
    install_gr_log_handler();
    ::gpufec::ldpc_options o;
    o.algorithm = ::gpufec::parse_ldpc_algorithm(algorithm);
    o.precision = ::gpufec::parse_ldpc_precision(precision);
    o.max_iterations = max_iterations;
    o.early_termination = early_termination;
    o.normalization = normalization;
    o.offset = offset;
    o.max_batch = max_batch;
    if (input_type != "float" && input_type != "int8")
        throw std::invalid_argument("input_type: '" + input_type + "' is not valid (allowed: float, int8)");
    if (output != "info" && output != "codeword")
        throw std::invalid_argument("output: '" + output + "' is not valid (allowed: info, codeword)");
    if (!(scale > 0.f) || scale > 1e6f)
        throw std::invalid_argument("scale: must be a positive number");
    if (input_type == "int8" && o.precision == ::gpufec::ldpc_precision::float32 &&
        o.algorithm == ::gpufec::ldpc_algorithm::sum_product)
        throw std::invalid_argument("input_type: sum-product needs true LLRs; use float input");
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(::gpufec::ldpc_code::named(code), o, device, input_type == "float",
                                                        output == "codeword", packed_output, scale);
}

} // namespace gpufec
} // namespace gr
