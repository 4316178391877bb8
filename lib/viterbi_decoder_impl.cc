/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi_decoder_impl.h"

#include "block_code.h"
#include <gnuradio/gpufec/core/soft.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufec {

viterbi_decoder::sptr viterbi_decoder::make(const std::string& code,
                                            int k,
                                            const std::vector<int>& polys,
                                            const std::vector<int>& puncture,
                                            const std::string& mode,
                                            int frame_bits,
                                            int block_len,
                                            int traceback,
                                            const std::string& device,
                                            int max_batch,
                                            const std::string& input_type,
                                            bool packed_output,
                                            float scale)
{
    install_gr_log_handler();
    const ::gpufec::conv_code c = block_code(code, k, polys, puncture);
    ::gpufec::viterbi_options o;
    o.mode = ::gpufec::parse_conv_mode(mode);
    o.frame_bits = frame_bits;
    o.block_len = block_len;
    o.traceback = traceback;
    o.max_batch = max_batch;
    if (input_type != "float" && input_type != "int8")
        throw std::invalid_argument("input_type: '" + input_type +
                                    "' is not valid (allowed: float, int8)");
    if (!(scale > 0.f) || scale > 1e6f)
        throw std::invalid_argument("scale: must be a positive number");
    if (packed_output && o.mode != ::gpufec::conv_mode::streaming && frame_bits % 8 != 0)
        throw std::invalid_argument("packed_output: frame_bits must be a multiple of 8");
    return gnuradio::make_block_sptr<viterbi_decoder_impl>(
        c, o, device, input_type == "float", packed_output, scale);
}

viterbi_decoder_impl::viterbi_decoder_impl(const ::gpufec::conv_code& code,
                                           const ::gpufec::viterbi_options& options,
                                           const std::string& device,
                                           bool float_input,
                                           bool packed_output,
                                           float scale)
    : gr::block("viterbi_decoder",
                gr::io_signature::make(1, 1, float_input ? sizeof(float) : sizeof(int8_t)),
                gr::io_signature::make(1, 1, sizeof(uint8_t))),
      d_code(code),
      d_opts(options),
      d_float(float_input),
      d_packed(packed_output),
      d_scale(scale)
{
    const auto spec = ::gpufec::device_spec::parse(device);
    // Work per call. GNU Radio sizes the upstream buffer from this block's output multiple
    // (about twice the input that one multiple needs), so a large multiple is how a block gets
    // batches big enough for the GPU: thousands of jobs per call instead of the handful that
    // the default 32 KiB buffers hold. The forecasts below ask for one unit only, so a call
    // still happens with any amount of input (and nothing is stranded when a stream ends).
    if (d_opts.mode == ::gpufec::conv_mode::streaming) {
        d_stream = std::make_unique<::gpufec::viterbi_stream_decoder>(d_code, d_opts, spec);
        const bool gpu = d_stream->backend().rfind("cuda", 0) == 0;
        d_in_unit = static_cast<int>(d_stream->input_multiple());
        d_out_unit = static_cast<int>(d_stream->stages_per_multiple());
        const int64_t pbs = d_opts.max_batch > 0 ? d_opts.max_batch : (gpu ? 4096 : 512);
        d_max_stream_input = static_cast<size_t>(d_code.kept_for_stages(pbs * d_opts.block_len));
        d_max_stream_input -= d_max_stream_input % d_in_unit;
        set_output_multiple(static_cast<int>(pbs * d_opts.block_len / (d_packed ? 8 : 1)));
        set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit) * (d_packed ? 8 : 1));
    } else {
        d_frames = std::make_unique<::gpufec::viterbi_frame_decoder>(d_code, d_opts, spec);
        const bool gpu = d_frames->backend().rfind("cuda", 0) == 0;
        d_in_unit = static_cast<int>(d_frames->input_per_frame());
        d_out_unit = d_packed ? d_opts.frame_bits / 8 : d_opts.frame_bits;
        int frames = gpu ? std::min(16384, std::max(1, (1 << 21) / d_opts.frame_bits))
                         : std::max(16, (1 << 16) / d_opts.frame_bits);
        if (d_opts.max_batch > 0)
            frames = d_opts.max_batch;
        set_output_multiple(frames * d_out_unit);
        set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit));
    }
    d_logger->info("{} {}, backend {}", d_code.describe(), ::gpufec::to_string(d_opts.mode),
                   backend());
}

std::string viterbi_decoder_impl::backend() const
{
    return d_stream ? d_stream->backend() : d_frames->backend();
}

void viterbi_decoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    if (d_stream) {
        // any whole puncturing period lets the decoder make progress
        ninput_items_required[0] = d_in_unit;
        return;
    }
    // one frame is enough to make progress; work() decodes as many as there are
    ninput_items_required[0] = noutput_items >= d_out_unit ? d_in_unit : 0;
}

const int8_t* viterbi_decoder_impl::to_int8(const void* in, size_t n)
{
    if (!d_float)
        return static_cast<const int8_t*>(in);
    d_q.resize(std::max(d_q.size(), n));
    const size_t nans = ::gpufec::quantize_soft(static_cast<const float*>(in), d_q.data(), n, d_scale);
    if (nans) {
        if (d_nans == 0)
            d_logger->warn("NaN soft values in the input are decoded as erasures (0); "
                           "nan_count() keeps the total");
        d_nans += nans;
    }
    return d_q.data();
}

int viterbi_decoder_impl::work_stream(int noutput_items, int ninput, const void* in, uint8_t* out)
{
    const int bits_per_item = d_packed ? 8 : 1;
    // 1. hand out what is already decoded
    size_t produced = d_stream->read(out, size_t(noutput_items) * bits_per_item, d_packed) / bits_per_item;
    if (d_stream->available() > 0) {
        consume_each(0);
        return int(produced);
    }
    // 2. decode new input, bounded so that the pending output stays small. Small pushes wait
    //    for a batch of blocks (batch_hint); one period of input stays unconsumed meanwhile, so
    //    that the scheduler calls again when the upstream finishes, and then everything is
    //    decoded.
    size_t n = std::min<size_t>(size_t(ninput), d_max_stream_input);
    n -= n % d_in_unit;
    const bool upstream_done = detail()->input(0)->done();
    if (!upstream_done && n > 0)
        n -= d_in_unit;
    if (n > 0 || upstream_done) {
        d_stream->push(n ? to_int8(in, n) : nullptr, n, !upstream_done);
        produced += d_stream->read(out + produced,
                                   size_t(noutput_items - produced) * bits_per_item, d_packed) /
                    bits_per_item;
    }
    consume_each(int(n));
    return int(produced);
}

int viterbi_decoder_impl::work_frames(int noutput_items, int ninput, const void* in, uint8_t* out)
{
    int frames = std::min(ninput / d_in_unit, noutput_items / d_out_unit);
    if (d_opts.max_batch > 0)
        frames = std::min(frames, d_opts.max_batch);
    if (frames <= 0) {
        consume_each(0);
        return 0;
    }
    const size_t n = size_t(frames) * d_in_unit;
    d_frames->decode(to_int8(in, n), size_t(frames), out, d_packed);
    consume_each(int(n));
    return frames * d_out_unit;
}

int viterbi_decoder_impl::general_work(int noutput_items,
                                       gr_vector_int& ninput_items,
                                       gr_vector_const_void_star& input_items,
                                       gr_vector_void_star& output_items)
{
    auto* out = static_cast<uint8_t*>(output_items[0]);
    if (d_stream)
        return work_stream(noutput_items, ninput_items[0], input_items[0], out);
    return work_frames(noutput_items, ninput_items[0], input_items[0], out);
}

} // namespace gpufec
} // namespace gr
