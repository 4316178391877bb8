/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/fec_objects.h>

#include "block_params.h"
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <stdexcept>

namespace gr {
namespace gpufec {

namespace {

class fec_decoder_impl : public fec_decoder
{
public:
    fec_decoder_impl(std::unique_ptr<::gpufec::batch_decoder> dec, float scale)
        : d_dec(std::move(dec)), d_scale(scale)
    {
    }

    // one frame per call (gr-fec's way): float soft values in, one bit per byte out
    void generic_work(void* in, void* out) override
    {
        ::gpufec::frame_status st;
        ::gpufec::frame_batch b;
        b.frames = 1;
        b.bits = static_cast<uint8_t*>(out);
        b.status = &st;
        d_dec->decode_float(static_cast<const float*>(in), b, d_scale);
        d_frames++;
        d_iterations += uint64_t(st.iterations);
    }
    double rate() override { return double(d_dec->output_bits()) / double(d_dec->input_per_frame()); }
    int get_input_size() override { return int(d_dec->input_per_frame()); }
    int get_output_size() override { return int(d_dec->output_bits()); }
    int get_input_item_size() override { return sizeof(float); }
    int get_output_item_size() override { return sizeof(uint8_t); }
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }
    bool set_frame_size(unsigned int frame_size) override
    {
        // The frame is part of the code (frame_bits, the LDPC code): it does not change here.
        // gr-fec asks anyway (extended_tagged_decoder asks for mtu * 8 bits at its start, in
        // every working flowgraph): not an error, so it is said at debug level only.
        if (frame_size == d_dec->output_bits())
            return true;
        d_logger->debug("set_frame_size: {} bits asked; this {} code keeps its frames of {} bits "
                        "(set them with the options)",
                        frame_size, d_dec->family(), d_dec->output_bits());
        return false;
    }
    float get_iterations() override { return d_frames ? float(d_iterations) / float(d_frames) : 0.f; }

private:
    std::unique_ptr<::gpufec::batch_decoder> d_dec;
    float d_scale;
    uint64_t d_frames = 0, d_iterations = 0;
};

class fec_encoder_impl : public fec_encoder
{
public:
    explicit fec_encoder_impl(std::unique_ptr<::gpufec::frame_encoder> enc) : d_enc(std::move(enc)) {}
    void generic_work(void* in, void* out) override
    {
        d_enc->encode(static_cast<const uint8_t*>(in), 1, static_cast<uint8_t*>(out));
    }
    double rate() override { return double(d_enc->coded_bits()) / double(d_enc->info_bits()); }
    int get_input_size() override { return int(d_enc->info_bits()); }
    int get_output_size() override { return int(d_enc->coded_bits()); }
    bool set_frame_size(unsigned int frame_size) override
    {
        if (frame_size == d_enc->info_bits())
            return true;
        d_logger->debug("set_frame_size: {} bits asked; this code keeps its frames of {} bits "
                        "(set them with the options)",
                        frame_size, d_enc->info_bits());
        return false;
    }

private:
    std::unique_ptr<::gpufec::frame_encoder> d_enc;
};

} // namespace

gr::fec::generic_decoder::sptr
fec_decoder::make(const std::string& family, const std::string& options, const std::string& device, float scale)
{
    install_gr_log_handler();
    if (!(scale > 0.f) || scale > 1e6f)
        throw std::invalid_argument("scale: must be a positive number up to 1e6");
    auto dec = ::gpufec::make_frame_decoder(family, ::gpufec::parse_frame_options(options),
                                            ::gpufec::device_spec::parse(device));
    if (dec->variable_input())
        throw std::invalid_argument("family: " + family + " has frames of varying length; gr-fec cannot carry them");
    return std::make_shared<fec_decoder_impl>(std::move(dec), scale);
}

gr::fec::generic_encoder::sptr fec_encoder::make(const std::string& family, const std::string& options)
{
    install_gr_log_handler();
    return std::make_shared<fec_encoder_impl>(
        ::gpufec::make_frame_encoder(family, ::gpufec::parse_frame_options(options)));
}

} // namespace gpufec
} // namespace gr
