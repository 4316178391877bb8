/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Viterbi block in streaming mode (the frame modes are the generic frame block:
 * viterbi_decoder.cc's make() picks). */
#ifndef INCLUDED_GPUFEC_VITERBI_DECODER_IMPL_H
#define INCLUDED_GPUFEC_VITERBI_DECODER_IMPL_H

#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include "viterbi/viterbi_async_stream.h"
#include <gnuradio/gpufec/viterbi_decoder.h>
#include "runtime/partial_batch.h"
#include <memory>
#include <vector>

namespace gr {
namespace gpufec {

class viterbi_stream_impl : public viterbi_decoder
{
public:
    viterbi_stream_impl(const ::gpufec::conv_code& code,
                         const ::gpufec::viterbi_options& options,
                         const std::string& device,
                         bool float_input,
                         bool packed_output,
                         float scale);

    bool check_topology(int ninputs, int noutputs) override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

    std::string backend() const override;
    std::string code_description() const override { return d_code.describe(); }
    int input_per_unit() const override { return d_in_unit; }
    int output_per_unit() const override { return d_out_unit; }
    uint64_t nan_count() const override { return d_nans; }

private:

    ::gpufec::conv_code d_code;
    ::gpufec::viterbi_options d_opts;
    bool d_float, d_packed;
    float d_scale;
    int d_in_unit, d_out_unit; // items per frame (frames) or per puncturing period (stream)
    std::unique_ptr<::gpufec::viterbi_async_stream> d_stream;
    uint64_t d_nans = 0;
    // GPUFEC_PROFILE=1: where the block's thread spends its time, logged at stop()
    bool d_profile = false;
    double d_t_read = 0, d_t_push = 0, d_t_wait = 0;
    uint64_t d_calls = 0, d_waits = 0, d_flushes = 0;
    ::gpufec::partial_batch_policy d_partial;
    int d_multiple_units = 1; // puncturing periods (unpacked) or bytes (packed) per output multiple
    // the end of a finite stream: its last partial block and their overlap completed with
    // erasures (d_pad_left values still to push), the output ending at its last real bit
    bool d_ending = false;
    uint64_t d_end_bits = 0, d_pad_left = 0;
    std::vector<int8_t> d_zeros;
};

} // namespace gpufec
} // namespace gr

#endif
