/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "frame_decoder_impl.h"
#include <cstdio>

#include "block_params.h"
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <atomic>
#include <thread>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpufec {

gr::io_signature::sptr frame_block_input(bool float_input)
{
    return gr::io_signature::make(1, 1, float_input ? sizeof(float) : sizeof(int8_t));
}

gr::io_signature::sptr frame_block_output() { return gr::io_signature::make(1, 1, sizeof(uint8_t)); }

frame_block_settings::tags parse_status_tags(const std::string& text)
{
    if (text == "all")
        return frame_block_settings::tags::all;
    if (text == "failures")
        return frame_block_settings::tags::failures;
    if (text == "none")
        return frame_block_settings::tags::none;
    throw std::invalid_argument("status_tags: '" + text + "' is not valid (allowed: all, failures, none)");
}

frame_block_settings make_block_settings(const std::string& input_type,
                                         bool packed_output,
                                         float scale,
                                         const std::string& status_tags,
                                         const std::string& length_tag_key,
                                         int max_batch)
{
    check_decoder_params(max_batch, scale, &input_type);
    frame_block_settings s;
    s.float_input = input_type == "float";
    s.packed = packed_output;
    s.scale = scale;
    s.status_tags = parse_status_tags(status_tags);
    s.length_tag_key = length_tag_key;
    s.max_batch = max_batch;
    return s;
}

decoder_recipe::decoder_recipe(std::string family, ::gpufec::frame_options options, int max_batch,
                               ::gpufec::device_spec device)
    : d_family(std::move(family)), d_options(std::move(options)), d_device(device)
{
    if (max_batch > 0)
        d_options["max_batch"] = std::to_string(max_batch);
}

std::unique_ptr<::gpufec::batch_decoder> decoder_recipe::make() const
{
    return ::gpufec::make_frame_decoder(d_family, d_options, d_device);
}

std::function<std::unique_ptr<::gpufec::batch_decoder>()> decoder_recipe::fallback() const
{
    if (d_device.type != ::gpufec::device_spec::kind::automatic)
        return {};
    decoder_recipe cpu = *this;
    cpu.d_device = ::gpufec::device_spec::parse("cpu");
    return [cpu] { return cpu.make(); };
}

const std::vector<std::string>& decoder_recipe::runtime_options()
{
    static const std::vector<std::string> keys = { "max_iterations", "early_termination", "scaling",
                                                   "normalization", "offset" };
    return keys;
}

decoder_recipe decoder_recipe::with(const std::string& key, const std::string& value) const
{
    const auto& keys = runtime_options();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string list;
        for (const auto& k : keys)
            list += (list.empty() ? "" : ", ") + k;
        throw std::invalid_argument("set_option: '" + key + "' cannot change while the decoder runs (these can: " +
                                    list + "); make a new block");
    }
    decoder_recipe next = *this;
    next.d_options[key] = value;
    return next;
}

std::shared_ptr<const decoder_recipe> change_setting(::gpufec::async_decoder& async,
                                                     const std::shared_ptr<const decoder_recipe>& recipe,
                                                     const std::string& key,
                                                     const std::string& value)
{
    if (!recipe)
        throw std::invalid_argument("set_option: this block's decoder has no settings that change while it runs");
    auto next = std::make_shared<const decoder_recipe>(recipe->with(key, value));
    async.replace_decoder(next->make(), next->fallback()); // (checks the value; frames unchanged)
    return next;
}

void frame_decoder_impl::set_option(const std::string& key, const std::string& value)
{
    std::lock_guard<std::mutex> lock(d_setting_mutex);
    d_set.recipe = change_setting(*d_async, d_set.recipe, key, value);
    d_logger->info("{} = {} from the next batch on", key, value);
}

frame_decoder::sptr frame_decoder::make(const std::string& family,
                                        const std::string& options,
                                        const std::string& device,
                                        int max_batch,
                                        const std::string& input_type,
                                        bool packed_output,
                                        float scale,
                                        const std::string& status_tags,
                                        const std::string& length_tag_key)
{
    install_gr_log_handler();
    frame_block_settings s =
        make_block_settings(input_type, packed_output, scale, status_tags, length_tag_key, max_batch);
    s.recipe = std::make_shared<const decoder_recipe>(family, ::gpufec::parse_frame_options(options), max_batch,
                                                      ::gpufec::device_spec::parse(device));
    s.fallback = s.recipe->fallback();
    auto dec = s.recipe->make();

    return gnuradio::make_block_sptr<frame_decoder_impl>(std::move(dec), s);
}

frame_decoder_impl::frame_decoder_impl(std::unique_ptr<::gpufec::batch_decoder> decoder,
                                       const frame_block_settings& settings)
    : gr::block("frame_decoder", frame_block_input(settings.float_input), frame_block_output()),
      d_set(settings)
{
    const auto& dec = *decoder;
    d_variable = dec.variable_input();
    if (d_variable && d_set.length_tag_key.empty())
        throw std::invalid_argument("length_tag_key: the " + dec.family() + " decoder (" + dec.describe() +
                                    ") has frames of varying length: name the length tag (tagged-stream "
                                    "face, a frame per packet) or use the PDU face");
    d_family = dec.family();
    d_describe = dec.describe();
    d_iterates = dec.iterates();
    d_has_check = dec.has_check();
    d_counts = dec.counts_corrections();
    if (dec.input_per_frame() > size_t(1) << 28 || dec.output_bytes(d_set.packed) > size_t(1) << 28)
        throw std::invalid_argument("frame: frames of more than 2^28 items are not supported");
    d_in_unit = int(dec.input_per_frame());
    d_min_in = d_variable ? dec.min_input_per_frame() : dec.input_per_frame();
    d_out_unit = int(dec.output_bytes(d_set.packed));
    if (d_set.packed && dec.output_bits() % 8 != 0)
        d_logger->info("packed_output: {} bits per frame, so each frame's last byte is padded with "
                       "zero bits",
                       dec.output_bits());
    ::gpufec::async_decoder::options ao;
    ao.batch_frames = d_set.max_batch > 0 ? size_t(d_set.max_batch) : 0;
    // slots always hold packed bits: the engines write them directly, and emit() unpacks
    // straight into GNU Radio's buffer when the user wants one bit per byte (one pass)
    ao.packed = true;
    ao.variable_lengths = d_variable;
    d_slot_bytes = dec.output_bytes(true);
    d_out_bits = dec.output_bits();
    ao.depth = 3;
    d_async = std::make_unique<::gpufec::async_decoder>(std::move(decoder), ao, d_set.fallback);

    d_iter_key = pmt::intern(d_family + "_iterations");
    d_check_key = pmt::intern(d_family + "_" + d_async->decoder().check_name());
    d_erased_key = pmt::intern(d_family + "_erased");
    d_inner_key = pmt::intern(d_family + "_inner_ok"); // (an outer code's inner check)
    d_corrected_key = pmt::intern(d_family + "_corrected");
    d_src = pmt::intern(alias());
    if (!d_set.length_tag_key.empty())
        d_len_key = pmt::intern(d_set.length_tag_key);

    // GNU Radio sizes our input buffer from the output multiple (about two multiples' worth of
    // input), so the multiple is what gets large buffers without the user setting any: aim at
    // about 4 MiB of input per multiple, never more than a batch. check_topology() shrinks it
    // when the user limits the output buffer.
    const size_t in_bytes = size_t(d_in_unit) * (d_set.float_input ? sizeof(float) : 1);
    d_frames_multiple = std::clamp<size_t>((size_t(4) << 20) / in_bytes, 1, d_async->batch_frames());
    set_output_multiple(int(d_frames_multiple) * d_out_unit);
    set_relative_rate(uint64_t(d_out_unit), uint64_t(d_in_unit));
    set_tag_propagation_policy(TPP_DONT); // tags move to the start of their frame (below)
    d_logger->info("{}, backend {}, batches of {} frames", d_describe, d_async->backend(),
                   d_async->batch_frames());
    const unsigned hw = std::thread::hardware_concurrency();
    if (hw > 2 && d_async->decoder().on_gpu()) // (CPU decoders use every core themselves)
        d_copy_pool = ::gpufec::get_cpu_pool(int(std::min(4u, hw / 2))); // a small private pool
    const char* prof = std::getenv("GPUFEC_PROFILE");
    d_profile = prof && *prof && *prof != '0';
    d_partial = ::gpufec::partial_batch_policy(
        std::clamp<size_t>(d_async->decoder().min_efficient_batch(), 1, d_async->batch_frames()));
}

frame_decoder_impl::~frame_decoder_impl() = default;

bool frame_decoder_impl::check_topology(int, int)
{
    // a small output buffer means a small multiple, not a flowgraph that never starts
    size_t frames = d_frames_multiple;
    const long max_buf = max_output_buffer(0);
    if (max_buf > 0) {
        const size_t fit = size_t(max_buf) / 2 / size_t(d_out_unit);
        if (fit < 1) {
            d_logger->error("max_output_buffer: {} items cannot hold two frames of {} items; "
                            "set it to at least {}",
                            max_buf, d_out_unit, 2 * d_out_unit);
            return false;
        }
        frames = std::min(frames, fit);
    }
    if (is_set_max_noutput_items())
        frames = std::min(frames, std::max<size_t>(1, size_t(max_noutput_items()) / size_t(d_out_unit)));
    if (frames != d_frames_multiple) {
        d_frames_multiple = frames;
        set_output_multiple(int(frames) * d_out_unit);
    }
    return true;
}

bool frame_decoder_impl::stop()
{
    if (d_bad_packets && d_variable)
        d_logger->warn("{} packets were dropped (a length the decoder does not take, or cut short by the "
                       "end of the stream)",
                       d_bad_packets);
    else if (d_bad_packets)
        d_logger->warn("{} packets were dropped (length not a whole number of frames of {}, or cut "
                       "short by the end of the stream)",
                       d_bad_packets, d_in_unit);
    if (d_profile) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "profile: %llu work() calls, %.3f s in work (fill %.3f, emit %.3f, waiting for "
                      "the decoder %.3f); %llu batches of %.0f frames on average",
                      (unsigned long long)d_calls, d_t_work, d_t_fill, d_t_emit, d_t_wait,
                      (unsigned long long)d_batches,
                      d_batches ? double(d_batch_frames_sum) / double(d_batches) : 0.0);
        report_profile(*d_logger, alias(), msg);
    }
    if (d_dropped && d_len_key)
        d_logger->warn("{} input items were not decoded (outside any packet, or in dropped packets)", d_dropped);
    else if (d_dropped)
        d_logger->warn("{} input items at the end of the stream made no whole frame of {} and "
                       "were not decoded",
                       d_dropped, d_in_unit);
    return true;
}

void frame_decoder_impl::forecast(int, gr_vector_int& required)
{
    // while frames are inside (filling, decoding, or decoded and not yet sent) the block must
    // be called without new input, or a stream that ends would strand them
    auto* s = d_async->filling();
    if (d_async->unreleased() > 0 || (s && s->frames > 0)) {
        required[0] = 0;
        return;
    }
    if (d_len_key) {
        // a packet's frames, or one item to read the next packet's length (or to skip it)
        // (at the end of a stream, whatever is left is taken, so a packet cut short is counted)
        const bool more = d_pkt_decode && d_pkt_left > 0 && !detail()->input(0)->done();
        required[0] = more ? (d_variable ? int(d_pkt_left) : d_in_unit) : 1; // (variable: the whole frame)
        return;
    }
    // at the end of a stream, a remainder shorter than a frame is taken (and reported)
    required[0] = detail()->input(0)->done() ? 1 : d_in_unit;
}

size_t frame_decoder_impl::parallel_chunks(size_t n, const std::function<size_t(size_t, size_t)>& fn)
{
    // copying soft values into the slots is most of this thread's work: large copies are
    // split over a few helper threads (one thread's memcpy does not reach the memory's speed)
    if (!d_copy_pool)
        return fn(0, n);
    std::atomic<size_t> total{ 0 };
    ::gpufec::parallel_ranges(*d_copy_pool, n, 1, [&](size_t a, size_t b) { total += fn(a, b); });
    return total.load();
}

size_t frame_decoder_impl::fill(const void* in_window, size_t first_item, size_t avail)
{
    const size_t in_unit = size_t(d_in_unit);
    const void* in = d_set.float_input
                         ? static_cast<const void*>(static_cast<const float*>(in_window) + first_item)
                         : static_cast<const void*>(static_cast<const int8_t*>(in_window) + first_item);
    size_t taken = 0;
    while (taken < avail) {
        auto* s = d_async->filling();
        if (!s)
            break;
        const size_t n = std::min(avail - taken, d_async->batch_frames() - s->frames);
        const size_t first = taken * in_unit;
        const auto split = [this](size_t values, const std::function<size_t(size_t, size_t)>& piece) {
            return parallel_chunks(values, piece);
        };
        if (d_set.float_input)
            d_nans += d_async->append(static_cast<const float*>(in) + first, n, d_set.scale, split);
        else
            d_async->append(static_cast<const int8_t*>(in) + first, n, split);
        taken += n;
        if (s->frames == d_async->batch_frames())
            submit();
    }
    if (taken) {
        move_tags(first_item, taken * in_unit, d_frames_in, in_unit);
        d_frames_in += taken;
    }
    return taken;
}

void frame_decoder_impl::move_tags(size_t first_item, size_t items, uint64_t frame0, size_t in_unit)
{
    // input tags go with the frame they fell in
    const uint64_t r0 = nitems_read(0) + first_item;
    get_tags_in_range(d_tag_scratch, 0, r0, r0 + items);
    for (const auto& t : d_tag_scratch)
        if (!d_len_key || !pmt::eq(t.key, d_len_key)) // packet lengths are rewritten
            d_tags.emplace_back(frame0 + (t.offset - r0) / in_unit, t);
}

bool frame_decoder_impl::fill_frame(const void* in_window, size_t first_item, size_t length)
{
    for (;;) {
        auto* s = d_async->filling();
        if (!s)
            return false; // every slot is busy
        const bool fits = d_set.float_input
                              ? d_async->append_frame(static_cast<const float*>(in_window) + first_item, length,
                                                      d_set.scale, d_nans)
                              : d_async->append_frame(static_cast<const int8_t*>(in_window) + first_item, length);
        if (!fits) { // the slot is full: send it, the frame goes into the next
            submit();
            continue;
        }
        if (s->frames == d_async->batch_frames())
            submit();
        break;
    }
    move_tags(first_item, length, d_frames_in, length);
    d_frames_in++;
    return true;
}

size_t frame_decoder_impl::take_stream(const void* in, size_t ninput, bool input_done)
{
    const size_t frames = ninput / size_t(d_in_unit);
    const size_t taken = fill(in, 0, frames);
    size_t consumed = taken * size_t(d_in_unit);
    if (input_done && taken == frames && d_async->unreleased() == 0 && consumed < ninput &&
        input_stream_ended(*this, ninput)) {
        // what is left can never make a frame: count it and let the stream end
        d_dropped += ninput - consumed;
        consumed = ninput;
    }
    return consumed;
}

size_t frame_decoder_impl::take_packets(const void* in, size_t ninput, bool input_done)
{
    const size_t in_unit = size_t(d_in_unit);
    const uint64_t r0 = nitems_read(0);
    get_tags_in_range(d_len_tags, 0, r0, r0 + ninput, d_len_key);
    size_t pos = 0;
    while (pos < ninput) {
        if (d_pkt_left == 0) {
            // a packet starts here, or the items up to the next packet are dropped
            const gr::tag_t* here = nullptr;
            uint64_t next = r0 + ninput;
            for (const auto& t : d_len_tags) {
                // (an empty packet shares its offset with the next one: the next one counts)
                if (t.offset == r0 + pos && t.offset != d_tag_seen &&
                    (!here || (pmt::is_integer(t.value) && pmt::to_long(t.value) != 0)))
                    here = &t;
                else if (t.offset > r0 + pos)
                    next = std::min(next, t.offset);
            }
            if (!here) {
                const size_t skip = size_t(next - (r0 + pos));
                d_dropped += skip;
                pos += skip;
                if (!d_warned_unframed) {
                    d_warned_unframed = true;
                    d_logger->warn("items outside any '{}' packet are dropped (dropped_items() counts them)",
                                   d_set.length_tag_key);
                }
                continue;
            }
            d_tag_seen = here->offset;
            const long len = pmt::is_integer(here->value) ? pmt::to_long(here->value) : -1;
            if (len == 0)
                continue; // an empty packet: nothing to decode, nothing to send
            const auto& dec = d_async->decoder();
            const bool bad = len < 0 || (d_variable ? !dec.accepts_length(size_t(len)) : size_t(len) % in_unit != 0);
            if (bad) {
                d_bad_packets++;
                if (d_variable)
                    d_logger->warn("packet of {} items at item {}: the {} decoder takes frames of {}; dropped", len,
                                   here->offset, dec.family(), dec.accepted_lengths());
                else
                    d_logger->warn("packet of {} items at item {}: not a whole number of frames of {}; dropped",
                                   len, here->offset, in_unit);
                d_pkt_decode = false;
                d_pkt_left = uint64_t(std::max(0L, len));
                continue;
            }
            d_pkt_decode = true;
            d_pkt_left = uint64_t(len);
            d_pkt_first_frame = d_frames_in;
            d_pkt_offset = here->offset;
            const size_t out_items = d_variable ? (d_set.packed ? (dec.output_bits_for(size_t(len)) + 7) / 8
                                                                : dec.output_bits_for(size_t(len)))
                                                : size_t(len) / in_unit * size_t(d_out_unit);
            gr::tag_t t;
            t.key = d_len_key;
            t.value = pmt::from_long(long(out_items));
            t.srcid = d_src;
            d_tags.emplace_back(d_frames_in, t);
        }
        const size_t n = size_t(std::min<uint64_t>(d_pkt_left, ninput - pos));
        if (!d_pkt_decode) {
            pos += n;
            d_pkt_left -= n;
            d_dropped += n;
            continue;
        }
        if (d_variable) { // the packet is one frame, taken whole
            if (n == d_pkt_left) {
                if (!fill_frame(in, pos, n))
                    break; // every slot is busy
                pos += n;
                d_pkt_left = 0;
                continue;
            }
            if (input_done && input_stream_ended(*this, ninput)) // it ended inside the frame
                pos = cut_packet(ninput, pos);
            break;
        }
        const size_t frames = n / in_unit;
        if (frames == 0) {
            if (input_done && input_stream_ended(*this, ninput)) // it ended inside a frame: the packet is cut short
                pos = cut_packet(ninput, pos);
            break;
        }
        const size_t took = fill(in, pos, frames);
        pos += took * in_unit;
        d_pkt_left -= took * in_unit;
        if (took < frames)
            break; // every slot is busy
    }
    // the stream ended on a frame boundary inside a packet
    if (pos == ninput && d_pkt_left > 0 && d_pkt_decode && input_done && input_stream_ended(*this, ninput))
        pos = cut_packet(ninput, pos);
    return pos;
}

size_t frame_decoder_impl::cut_packet(size_t ninput, size_t pos)
{
    // The stream ended inside a packet. Its whole frames are decoded and go out as a shorter
    // packet: its length tag, still waiting for its first frame, is set to what they make (or
    // taken away when no frame came), so the output stays a well-formed tagged stream; the
    // packet counts as dropped, and the items after its last whole frame as dropped items.
    d_bad_packets++;
    d_dropped += ninput - pos;
    d_pkt_left = 0;
    const uint64_t frames = d_frames_in - d_pkt_first_frame;
    auto tag = std::find_if(d_tags.begin(), d_tags.end(), [&](const auto& t) {
        return t.first == d_pkt_first_frame && pmt::eqv(t.second.key, d_len_key);
    });
    if (tag != d_tags.end() && frames == 0) {
        d_tags.erase(tag);
        d_logger->warn("the packet at item {} was cut short by the end of the stream before a whole frame; dropped",
                       d_pkt_offset);
    } else if (tag != d_tags.end()) {
        tag->second.value = pmt::from_long(long(frames * uint64_t(d_out_unit)));
        d_logger->warn("the packet at item {} was cut short by the end of the stream: its {} whole frames go out "
                       "as a packet of {} items; the rest is dropped",
                       d_pkt_offset, frames, frames * uint64_t(d_out_unit));
    } else {
        // its first frames went out already under the announced length (a packet longer than
        // what the block holds in flight): the last output packet is short
        d_logger->error("the packet at item {} was cut short by the end of the stream after its length tag "
                        "went out: the last output packet holds {} frames, fewer than its tag says",
                        d_pkt_offset, frames);
    }
    return ninput;
}

pmt::pmt_t frame_decoder_impl::iterations_pmt(int iterations)
{
    // one pmt per count, made once: tags are added for every frame
    if (iterations < 0 || iterations > 4096)
        return pmt::from_long(iterations);
    if (size_t(iterations) >= d_iter_pmts.size())
        for (size_t i = d_iter_pmts.size(); i <= size_t(iterations); ++i)
            d_iter_pmts.push_back(pmt::from_long(long(i)));
    return d_iter_pmts[size_t(iterations)];
}

void frame_decoder_impl::submit()
{
    d_batches++;
    d_batch_frames_sum += d_async->filling()->frames;
    d_async->submit();
}

void frame_decoder_impl::flush_if_idle(bool input_done)
{
    // a batch goes out unfilled when the stream has ended, or as runtime/partial_batch.h says;
    // under load it fills while the previous one decodes
    auto* s = d_async->filling();
    if (s && s->frames > 0 && (input_done || d_partial.send(d_async->in_flight() == 0, s->frames)))
        submit();
}

::gpufec::async_decoder::slot* frame_decoder_impl::front_slot(bool wait)
{
    try {
        return d_async->front(wait);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("frame_decoder: decoding failed: ") + e.what());
    }
}

size_t frame_decoder_impl::emit(uint8_t* out, size_t max_frames, bool wait)
{
    // The frames of a packet still arriving are held back while a slot has room for more, so
    // that a packet cut short by the end of the stream goes out under a corrected length tag
    // (cut_packet). Only a packet longer than every slot together is sent as it decodes.
    if (d_len_key && d_pkt_decode && d_pkt_left > 0 && d_async->filling() != nullptr) {
        if (d_frames_out >= d_pkt_first_frame)
            return 0;
        max_frames = std::min<uint64_t>(max_frames, d_pkt_first_frame - d_frames_out);
        wait = wait && d_async->unreleased() > 0;
    }
    size_t done = 0;
    while (done < max_frames) {
        ::gpufec::async_decoder::slot* s = front_slot(wait && done == 0);
        if (!s)
            break;
        const size_t n = std::min(s->frames - s->read, max_frames - done);
        const size_t ou = size_t(d_out_unit);
        if (d_set.packed) {
            std::memcpy(out + done * ou, s->bits + s->read * ou, n * ou);
        } else {
            // one byte per bit out: as much memory traffic as the input, so split like it
            const uint8_t* src = s->bits + s->read * d_slot_bytes;
            uint8_t* dst = out + done * ou;
            const auto unpack = [&](size_t a, size_t b) {
                for (size_t f = a; f < b; ++f)
                    ::gpufec::unpack_bits(src + f * d_slot_bytes, d_out_bits, dst + f * ou);
            };
            if (d_copy_pool)
                ::gpufec::parallel_ranges(*d_copy_pool, n, ou, unpack);
            else
                unpack(0, n);
        }
        const uint64_t w0 = nitems_written(0) + done * ou;
        for (size_t f = 0; f < n; ++f)
            tag_frame(w0 + f * ou, s->status[s->read + f], d_frames_out + f);
        d_frames_out += n;
        s->read += n;
        done += n;
        if (s->read == s->frames)
            d_async->release_front();
    }
    return done;
}

void frame_decoder_impl::tag_frame(uint64_t at, const ::gpufec::frame_status& st, uint64_t frame)
{
    d_iterations += uint64_t(st.iterations);
    d_failed += st.check == 0;
    d_erased += st.erased != 0;
    // tags cost GNU Radio about a microsecond each: at millions of frames a second,
    // "failures" (the default) tags only what a receiver has to act on
    const bool tag = d_set.status_tags == frame_block_settings::tags::all ||
                     (d_set.status_tags == frame_block_settings::tags::failures && (st.check == 0 || st.erased));
    if (tag) {
        if (d_iterates)
            add_item_tag(0, at, d_iter_key, iterations_pmt(st.iterations), d_src);
        if (d_has_check)
            add_item_tag(0, at, d_check_key, pmt::from_bool(st.check == 1), d_src);
        if (st.inner >= 0)
            add_item_tag(0, at, d_inner_key, pmt::from_bool(st.inner == 1), d_src);
        if (d_counts)
            add_item_tag(0, at, d_corrected_key, pmt::from_long(st.corrected), d_src);
        if (st.erased)
            add_item_tag(0, at, d_erased_key, pmt::PMT_T, d_src);
    }
    while (!d_tags.empty() && d_tags.front().first <= frame) {
        gr::tag_t t = d_tags.front().second;
        t.offset = at;
        add_item_tag(0, t);
        d_tags.pop_front();
    }
    if (st.erased && !d_warned_erased) {
        d_warned_erased = true;
        d_logger->warn("frames whose soft values are all zero or NaN are decoded but reported as "
                       "erased (tag {}, erased_frames())",
                       pmt::symbol_to_string(d_erased_key));
    }
}

size_t frame_decoder_impl::emit_variable(uint8_t* out, size_t room, bool wait)
{
    // frames of varying length, each a packet: as many whole frames as the room holds
    size_t done = 0;
    const auto& dec = d_async->decoder();
    for (;;) {
        ::gpufec::async_decoder::slot* s = front_slot(wait && done == 0);
        if (!s)
            break;
        while (s->read < s->frames) {
            const size_t f = s->read, bits = dec.output_bits_for(s->lengths[f]);
            const size_t items = d_set.packed ? (bits + 7) / 8 : bits;
            if (done + items > room)
                return done;
            const uint8_t* src = s->bits + f * d_slot_bytes;
            if (d_set.packed)
                std::memcpy(out + done, src, items);
            else
                ::gpufec::unpack_bits(src, bits, out + done);
            tag_frame(nitems_written(0) + done, s->status[f], d_frames_out);
            d_frames_out++;
            s->read++;
            done += items;
        }
        d_async->release_front();
    }
    return done;
}

size_t frame_decoder_impl::emit_items(uint8_t* out, size_t room, bool wait)
{
    if (d_variable)
        return emit_variable(out, room, wait);
    return emit(out, room / size_t(d_out_unit), wait) * size_t(d_out_unit);
}

int frame_decoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    d_async->collect_retired(); // (decoders replaced by set_option: no reference to them is held here)
    auto out = static_cast<uint8_t*>(output_items[0]);
    const size_t room = size_t(noutput_items);
    const bool input_done = detail()->input(0)->done();
    const uint64_t nans_before = d_nans;

    size_t produced = emit_items(out, room, false);
    const auto t1 = clock::now();
    const size_t ninput = size_t(ninput_items[0]);
    const size_t consumed = d_len_key ? take_packets(input_items[0], ninput, input_done)
                                      : take_stream(input_items[0], ninput, input_done);
    const bool stalled =
        d_partial.update(ninput >= d_min_in, d_async->in_flight() == 0, t1);
    flush_if_idle(input_done && consumed == ninput);
    const auto t2 = clock::now();
    if (produced == 0 && consumed == 0) {
        // nothing else to do: after a stall or at the end, wait for the oldest batch; with a
        // batch in flight, wait for it briefly; holding a partial batch, nap
        if (d_async->unreleased() > 0 && (stalled || input_done)) {
            produced = emit_items(out, room, true);
        } else if (d_async->unreleased() > 0) {
            if (d_async->front_within(::gpufec::partial_batch_policy::max_wait))
                produced = emit_items(out, room, false);
        } else if (auto* s = d_async->filling(); s && s->frames > 0) {
            std::this_thread::sleep_for(::gpufec::partial_batch_policy::nap);
        }
    }
    if (d_profile) {
        const auto t3 = clock::now();
        using sec = std::chrono::duration<double>;
        d_calls++;
        d_t_emit += sec(t1 - t0).count();
        d_t_fill += sec(t2 - t1).count();
        d_t_wait += sec(t3 - t2).count();
        d_t_work += sec(t3 - t0).count();
    }

    if (nans_before == 0 && d_nans > 0)
        d_logger->warn("NaN soft values in the input are decoded as erasures (0); nan_count() keeps "
                       "the total");
    consume_each(int(consumed));
    return int(produced);
}

} // namespace gpufec
} // namespace gr
