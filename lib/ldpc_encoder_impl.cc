/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>
#include <gnuradio/gpufec/ldpc_encoder.h>

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include "block_params.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

class ldpc_encoder_impl : public ldpc_encoder
{
public:
    explicit ldpc_encoder_impl(const ::gpufec::ldpc_code& code)
        : gr::block("ldpc_encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_enc(code)
    {
        set_output_multiple(code.n());
        set_relative_rate(uint64_t(code.n()), uint64_t(code.k()));
    }

    std::string code_description() const override { return d_enc.code().describe(); }
    int codeword_bits() const override { return d_enc.code().n(); }
    int info_bits() const override { return d_enc.code().k(); }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        required[0] = noutput_items / d_enc.code().n() * d_enc.code().k();
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int n = d_enc.code().n(), k = d_enc.code().k();
        const int frames = std::min(noutput_items / n, ninput_items[0] / k);
        d_enc.encode(static_cast<const uint8_t*>(input_items[0]), size_t(frames),
                     static_cast<uint8_t*>(output_items[0]));
        consume_each(frames * k);
        return frames * n;
    }

private:
    ::gpufec::ldpc_encoder d_enc;
};

ldpc_encoder::sptr ldpc_encoder::make(const std::string& code)
{
    install_gr_log_handler();
    return gnuradio::make_block_sptr<ldpc_encoder_impl>(::gpufec::ldpc_code::named(code));
}

} // namespace gpufec
} // namespace gr
