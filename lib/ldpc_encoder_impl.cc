/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/ldpc_encoder.h>

#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include "block_params.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

//! the ldpc family's encoder (the bits sent: 5G NR codes leave their first 2Z bits out), so that
//! the encoder block and the decoder blocks agree on every code
class ldpc_encoder_impl : public ldpc_encoder
{
public:
    ldpc_encoder_impl(const std::string& code, const std::string& outer, const std::string& interleaver)
        : gr::block("ldpc_encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_description(::gpufec::ldpc_code::named(code).describe()),
          d_enc(::gpufec::make_frame_encoder("ldpc",
                                                { { "code", code }, { "outer", outer }, { "interleaver", interleaver } })),
          d_n(int(d_enc->coded_bits())),
          d_k(int(d_enc->info_bits()))
    {
        set_output_multiple(d_n);
        set_relative_rate(uint64_t(d_n), uint64_t(d_k));
    }

    std::string code_description() const override { return d_description; }
    int codeword_bits() const override { return d_n; }
    int info_bits() const override { return d_k; }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        required[0] = noutput_items / d_n * d_k;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int frames = std::min(noutput_items / d_n, ninput_items[0] / d_k);
        d_enc->encode(static_cast<const uint8_t*>(input_items[0]), size_t(frames),
                      static_cast<uint8_t*>(output_items[0]));
        consume_each(frames * d_k);
        return frames * d_n;
    }

private:
    std::string d_description;
    std::unique_ptr<::gpufec::frame_encoder> d_enc;
    int d_n, d_k;
};

ldpc_encoder::sptr ldpc_encoder::make(const std::string& code, const std::string& outer, const std::string& interleaver)
{
    install_gr_log_handler();
    return gnuradio::make_block_sptr<ldpc_encoder_impl>(code, outer, interleaver);
}

} // namespace gpufec
} // namespace gr
