/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "block_params.h"

#include <gnuradio/gpufec/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpufec {

class conv_encoder_impl : public conv_encoder
{
public:
    conv_encoder_impl(const ::gpufec::conv_code& code, ::gpufec::conv_mode mode, int frame_bits)
        : gr::block("conv_encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_enc(code, mode, frame_bits)
    {
        if (mode == ::gpufec::conv_mode::streaming) {
            d_in_unit = code.period();
            d_out_unit = code.kept_per_period();
        } else {
            d_in_unit = frame_bits;
            d_out_unit = static_cast<int>(d_enc.output_per_frame());
        }
        set_output_multiple(d_out_unit);
        set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit));
    }

    std::string code_description() const override { return d_enc.code().describe(); }
    int output_per_frame() const override { return d_out_unit; }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        ninput_items_required[0] = (noutput_items / d_out_unit) * d_in_unit;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int units = std::min(ninput_items[0] / d_in_unit, noutput_items / d_out_unit);
        const auto* in = static_cast<const uint8_t*>(input_items[0]);
        auto* out = static_cast<uint8_t*>(output_items[0]);
        if (units > 0) {
            if (d_enc.mode() == ::gpufec::conv_mode::streaming)
                d_enc.encode(in, size_t(units) * d_in_unit, out);
            else
                d_enc.encode_frames(in, size_t(units), out);
        }
        consume_each(units * d_in_unit);
        return units * d_out_unit;
    }

private:
    ::gpufec::conv_encoder d_enc;
    int d_in_unit, d_out_unit;
};

conv_encoder::sptr conv_encoder::make(const std::string& code,
                                      int k,
                                      const std::vector<int>& polys,
                                      const std::vector<int>& puncture,
                                      const std::string& mode,
                                      int frame_bits)
{
    install_gr_log_handler();
    return gnuradio::make_block_sptr<conv_encoder_impl>(
        block_code(code, k, polys, puncture), ::gpufec::parse_conv_mode(mode), frame_bits);
}

} // namespace gpufec
} // namespace gr
