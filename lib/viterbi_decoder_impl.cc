/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi_decoder_impl.h"
#include <cstdio>

#include "block_params.h"
#include "frame_decoder_impl.h"
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpufec {

namespace {

//! the frame modes: the generic frame block with Viterbi's parameters
class viterbi_frames_impl : public viterbi_decoder, public frame_decoder_impl
{
public:
    viterbi_frames_impl(std::unique_ptr<::gpufec::batch_decoder> dec, const frame_block_settings& s)
        : gr::block("viterbi_decoder", frame_block_input(s.float_input), frame_block_output()),
          frame_decoder_impl(std::move(dec), s)
    {
    }
    std::string backend() const override { return frame_decoder_impl::backend(); }
    std::string code_description() const override { return frame_decoder_impl::code_description(); }
    int input_per_unit() const override { return input_per_frame(); }
    int output_per_unit() const override { return output_per_frame(); }
    uint64_t nan_count() const override { return frame_decoder_impl::nan_count(); }
};

} // namespace

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
    check_decoder_params(max_batch, scale, &input_type);
    if (o.mode == ::gpufec::conv_mode::streaming)
        return gnuradio::make_block_sptr<viterbi_stream_impl>(c, o, device, input_type == "float",
                                                              packed_output, scale);
    const auto spec = ::gpufec::device_spec::parse(device);
    frame_block_settings s = make_block_settings(input_type, packed_output, scale, "failures", "", max_batch);
    const auto make = [c, o](const ::gpufec::device_spec& d) { return ::gpufec::make_viterbi_frame_decoder(c, o, d); };
    s.fallback = cpu_fallback(spec, make);
    return gnuradio::make_block_sptr<viterbi_frames_impl>(make(spec), s);
}

viterbi_stream_impl::viterbi_stream_impl(const ::gpufec::conv_code& code,
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
    // decoding runs on the stream decoder's own thread, over page-locked slots of max_batch
    // parallel blocks (0: the stream decoder's choice, viterbi_async_stream.h); work() copies
    // input in and bits out
    d_stream = std::make_unique<::gpufec::viterbi_async_stream>(d_code, d_opts, spec, d_opts.max_batch, 3);
    d_in_unit = static_cast<int>(d_stream->input_multiple());
    d_out_unit = static_cast<int>(d_stream->stages_per_multiple());
    const int64_t stages = int64_t(d_stream->batch()) * d_opts.block_len;
    // GNU Radio's buffers: the output multiple sizes them (the input buffer holds about two
    // multiples' worth of input). Aim at about 4 MiB of input per multiple; this is independent
    // of the decoder's batch, and check_topology() shrinks it to fit a user's buffer limit.
    const double in_bytes_per_bit =
        double(d_in_unit) / d_out_unit * (d_float ? sizeof(float) : sizeof(int8_t));
    const int64_t bits = std::clamp<int64_t>(int64_t((4 << 20) / in_bytes_per_bit), 64, stages);
    d_multiple_units = int(std::max<int64_t>(1, bits / 8)); // bytes of decoded bits
    set_output_multiple(d_multiple_units * (d_packed ? 1 : 8));
    set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit) * (d_packed ? 8 : 1));
    d_logger->info("{} {}, backend {}, batches of {} blocks of {}", d_code.describe(),
                   ::gpufec::to_string(d_opts.mode), backend(), d_stream->batch(), d_opts.block_len);
    const char* prof = std::getenv("GPUFEC_PROFILE");
    d_profile = prof && *prof && *prof != '0';
    // a partly filled slot goes out on an idle decoder once it holds a quarter of a slot
    // (8192 blocks on a GPU), or after 1 ms without input; GPUFEC_VITERBI_IDLE_FLUSH (blocks,
    // 0: always) and GPUFEC_VITERBI_STALL_US override them
    long long efficient = std::max(1, d_stream->batch() / 4), stall_us = 1000;
    if (const char* f = std::getenv("GPUFEC_VITERBI_IDLE_FLUSH"))
        efficient = std::max<long long>(0, std::atoll(f));
    if (const char* f = std::getenv("GPUFEC_VITERBI_STALL_US"))
        stall_us = std::max<long long>(0, std::atoll(f));
    d_partial = ::gpufec::partial_batch_policy(size_t(efficient), std::chrono::microseconds(stall_us));
}

bool viterbi_stream_impl::stop()
{
    if (d_profile) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "profile: %llu work() calls, read %.3f s, push %.3f s, waiting %.3f s (%llu "
                      "waits), %llu flushes; %llu batches of %.0f blocks on average",
                      (unsigned long long)d_calls, d_t_read, d_t_push, d_t_wait,
                      (unsigned long long)d_waits, (unsigned long long)d_flushes,
                      (unsigned long long)d_stream->submitted_slots(),
                      d_stream->submitted_slots()
                          ? double(d_stream->submitted_blocks()) / double(d_stream->submitted_slots())
                          : 0.0);
        report_profile(*d_logger, alias(), msg);
    }
    return true;
}

bool viterbi_stream_impl::check_topology(int, int)
{
    const int per_byte = d_packed ? 1 : 8;
    int units = d_multiple_units;
    const long max_buf = max_output_buffer(0);
    if (max_buf > 0) {
        const long fit = max_buf / 2 / per_byte;
        if (fit < 1) {
            d_logger->error("max_output_buffer: {} items is too small; set it to at least {}",
                            max_buf, 2 * per_byte);
            return false;
        }
        units = int(std::min<long>(units, fit));
    }
    if (is_set_max_noutput_items())
        units = std::max(1, std::min(units, max_noutput_items() / per_byte));
    if (units != d_multiple_units) {
        d_multiple_units = units;
        set_output_multiple(units * per_byte);
    }
    return true;
}

std::string viterbi_stream_impl::backend() const { return d_stream->backend(); }

void viterbi_stream_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // bits still inside (decoding, decoded, or complete blocks waiting for a batch) must go out
    // even when no input will ever come again: ask for none while there are any, so the block
    // is not finished while it holds them
    // (and at the end of the input, once, to complete the last block: general_work)
    const bool ended = d_ending || detail()->input(0)->done();
    ninput_items_required[0] = d_stream->holds_output() || (ended && d_pad_left + !d_ending > 0) ? 0 : d_in_unit;
}

int viterbi_stream_impl::general_work(int noutput_items,
                                      gr_vector_int& ninput_items,
                                      gr_vector_const_void_star& input_items,
                                      gr_vector_void_star& output_items)
{
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    auto* out = static_cast<uint8_t*>(output_items[0]);
    const size_t per_item = d_packed ? 8 : 1;
    const uint64_t written = nitems_written(0) * per_item; // bits
    if (d_ending && d_pad_left == 0 && written >= d_end_bits / per_item * per_item)
        return WORK_DONE;
    size_t room = size_t(noutput_items) * per_item; // bits
    if (d_ending) // (nothing past the last bit that came in)
        room = size_t(std::min<uint64_t>(room, d_end_bits / per_item * per_item - std::min(written, d_end_bits)));
    // the stream hands out whole bytes of bits: the last bits of a stream that ends within a
    // byte come from one more byte, the rest of it (decisions on the erasures) left out
    auto read_out = [&](size_t bits) -> size_t {
        if (d_packed || bits % 8 == 0)
            return d_stream->read(out, bits, d_packed);
        const size_t whole = d_stream->read(out, bits / 8 * 8, false);
        uint8_t last[8];
        if (whole < bits / 8 * 8 || d_stream->read(last, 8, false) < 8)
            return whole;
        std::copy(last, last + (bits - whole), out + whole);
        return bits;
    };
    // 1. bits decoded earlier; nothing decoded is ever dropped, it waits for room
    size_t produced = read_out(room);
    const auto t1 = clock::now();
    // 2. new input into the slots (as much as free slots take)
    size_t n = size_t(ninput_items[0]);
    n -= n % size_t(d_in_unit);
    size_t taken = 0;
    if (n) {
        if (d_float) {
            size_t nans = 0;
            taken = d_stream->push(static_cast<const float*>(input_items[0]), n, d_scale, &nans);
            if (nans && d_nans == 0)
                d_logger->warn("NaN soft values in the input are decoded as erasures (0); "
                               "nan_count() keeps the total");
            d_nans += nans;
        } else {
            taken = d_stream->push(static_cast<const int8_t*>(input_items[0]), n);
        }
    }
    // 2b. the input has ended: the last partial block and the overlap after it are completed
    //     with erasures (0) once, so every bit that came in is decoded (the last ones without
    //     any later evidence); the output stops at the last real bit
    const bool upstream_done = detail()->input(0)->done();
    // (the scheduler counted the input before it may have seen the last items come: the end
    // is where none are left after the done flag, read first)
    if (upstream_done && !d_ending && taken == n &&
        detail()->input(0)->items_available() - taken < size_t(d_in_unit)) {
        d_ending = true;
        const uint64_t periods = (nitems_read(0) + taken) / uint64_t(d_in_unit);
        d_end_bits = periods * uint64_t(d_code.period());
        const int64_t stages = int64_t(d_stream->block_len()) + 2 * int64_t(d_stream->traceback());
        d_pad_left = uint64_t((stages + d_code.period() - 1) / d_code.period()) * uint64_t(d_in_unit);
        d_zeros.assign(size_t(d_pad_left), 0);
    }
    if (d_pad_left > 0)
        d_pad_left -= d_stream->push(d_zeros.data(), size_t(d_pad_left));
    if (d_ending) // (nothing past the last bit that came in; step 1 read only real bits)
        room = size_t(std::min<uint64_t>(room, d_end_bits / per_item * per_item - std::min(written + produced,
                                                                                         d_end_bits)));
    // 3. complete blocks go out before their slot is full as runtime/partial_batch.h says,
    //    and when the stream has ended
    const bool idle = d_stream->in_flight() == 0;
    const bool stalled = d_partial.update(n > 0, idle, t1);
    if (d_partial.send(idle, size_t(d_stream->pending_blocks())) || (upstream_done && taken == n && d_pad_left == 0)) {
        d_stream->flush();
        d_flushes++;
    }
    const auto t2 = clock::now();
    // 4. nothing else to do: after a stall or at the end, send what there is and wait for
    //    it; with a batch in flight, wait for it briefly; holding a partial slot, nap
    if (produced == 0 && taken == 0 && d_stream->holds_output()) {
        if (stalled || upstream_done) {
            if (d_stream->in_flight() == 0)
                d_stream->flush();
            d_stream->wait();
            produced = read_out(room);
            d_waits++;
        } else if (d_stream->in_flight() > 0) {
            if (d_stream->wait_for(::gpufec::partial_batch_policy::max_wait))
                produced = read_out(room);
            d_waits++;
        } else {
            std::this_thread::sleep_for(::gpufec::partial_batch_policy::nap);
        }
    }
    if (d_profile) {
        using sec = std::chrono::duration<double>;
        d_calls++;
        d_t_read += sec(t1 - t0).count();
        d_t_push += sec(t2 - t1).count();
        d_t_wait += sec(clock::now() - t2).count();
    }
    consume_each(int(taken));
    return int(produced / per_item);
}

} // namespace gpufec
} // namespace gr
