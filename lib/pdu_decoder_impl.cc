/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The PDU face: message handler -> batch slots (core/async_decoder.h) -> a collector thread
 * that assembles and publishes the output PDUs in order. */
#include <gnuradio/gpufec/pdu_decoder.h>

#include "block_params.h"
#include "frame_decoder_impl.h"
#include <gnuradio/gpufec/core/frame/async_decoder.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/io_signature.h>
#include <pmt/pmt.h>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpufec {

namespace {

/* One decoder and its PDUs: the block's own, and with options_key one more for each options
 * text the PDUs' metadata names (5G NR code blocks of every transport block size). */
struct decoder_channel {
    std::shared_ptr<const decoder_recipe> recipe;
    std::unique_ptr<::gpufec::async_decoder> async;
    size_t in = 0, bits = 0, bytes = 0, soft_len = 0;
    bool variable = false, has_check = false, counts = false;
    std::string key; // the metadata's options text ("" for the block's own)
    uint64_t last_used = 0;
};

class pdu_decoder_impl : public pdu_decoder
{
public:
    pdu_decoder_impl(std::shared_ptr<const decoder_recipe> recipe,
                     std::string family,
                     ::gpufec::frame_options options,
                     ::gpufec::device_spec device,
                     int max_batch,
                     bool packed,
                     float scale,
                     bool soft_output,
                     std::string options_key)
        : gr::block("pdu_decoder", gr::io_signature::make(0, 0, 0), gr::io_signature::make(0, 0, 0)),
          d_family(std::move(family)),
          d_options(std::move(options)),
          d_device(std::move(device)),
          d_max_batch(max_batch),
          d_packed(packed),
          d_scale(scale),
          d_soft_output(soft_output),
          d_options_key(std::move(options_key)),
          d_port(pmt::mp("pdus"))
    {
        d_channels.push_back(make_channel(std::move(recipe), ""));
        message_port_register_in(d_port);
        message_port_register_out(d_port);
        set_msg_handler(d_port, [this](const pmt::pmt_t& msg) { handle(msg); });
        const auto& c = *d_channels.front();
        d_logger->info("{}, backend {}, batches of {} frames{}", c.async->decoder().describe(), c.async->backend(),
                       c.async->batch_frames(),
                       d_options_key.empty() ? std::string()
                                             : "; PDUs whose metadata names options at \"" + d_options_key +
                                                   "\" get a decoder of those");
    }

    ~pdu_decoder_impl() override { stop_collector(); }

    bool start() override
    {
        d_stop = false;
        d_collector = std::thread([this] { collect(); });
        return true;
    }
    bool stop() override
    {
        stop_collector();
        return true;
    }

    std::string backend() const override { return d_channels.front()->async->backend(); }
    int input_per_frame() const override { return int(d_channels.front()->in); }
    void set_option(const std::string& key, const std::string& value) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        for (auto& c : d_channels)
            c->recipe = change_setting(*c->async, c->recipe, key, value);
        d_options[key] = value; // (the decoders made later take it too)
        d_logger->info("{} = {} from the next batch on", key, value);
    }
    void set_max_iterations(int n) override { set_option("max_iterations", std::to_string(n)); }
    void set_early_termination(bool on) override { set_option("early_termination", on ? "true" : "false"); }
    uint64_t pdus() const override { return d_sent; }
    uint64_t dropped_pdus() const override { return d_dropped; }
    uint64_t failed_frames() const override { return d_failed; }
    uint64_t nan_count() const override { return d_nans; }

private:
    struct pending {
        pmt::pmt_t meta;
        decoder_channel* channel = nullptr; // (while pending: a channel with PDUs is never evicted)
        bool has_check = false, counts = false; // (kept here: published after it left d_order)
        size_t frames = 0, done = 0;
        size_t out_bits = 0, soft_len = 0; // per frame (variable families: of this PDU's frame)
        std::vector<uint8_t> bits;
        std::vector<int32_t> iterations, corrected;
        std::vector<uint8_t> passed, erased, inner; // (inner: -1 stored as 255 where no outer code)
        std::vector<float> soft; // soft output, where asked for
    };

    //! at most this many decoders: one more evicts the longest unused idle one
    static constexpr size_t max_channels = 8;

    std::unique_ptr<decoder_channel> make_channel(std::shared_ptr<const decoder_recipe> recipe, std::string key)
    {
        auto c = std::make_unique<decoder_channel>();
        auto dec = recipe->make();
        c->variable = dec->variable_input();
        c->in = dec->input_per_frame();
        c->bits = dec->output_bits();
        c->bytes = dec->output_bytes(true);
        c->has_check = dec->has_check();
        c->counts = dec->counts_corrections();
        c->soft_len = d_soft_output ? dec->soft_output_per_frame() : 0;
        if (d_soft_output && c->soft_len == 0)
            throw std::invalid_argument("soft_output: the " + dec->family() + " family has no soft output");
        ::gpufec::async_decoder::options ao;
        ao.soft_output = d_soft_output;
        ao.batch_frames = d_max_batch > 0 ? size_t(d_max_batch) : 0;
        ao.packed = true;
        ao.variable_lengths = c->variable;
        c->async = std::make_unique<::gpufec::async_decoder>(std::move(dec), ao, recipe->fallback());
        c->recipe = std::move(recipe);
        c->key = std::move(key);
        return c;
    }

    bool idle(const decoder_channel& c) const // with d_mutex held
    {
        const auto* s = c.async->filling();
        if (c.async->unreleased() > 0 || c.async->in_flight() > 0 || (s && s->frames > 0))
            return false;
        for (const auto& p : d_order)
            if (p->channel == &c)
                return false;
        return true;
    }

    /*! The decoder of a PDU: the block's own, or (options_key) the one of the options its
     *  metadata names, made on first use over the block's options; null (and why) where they
     *  make no decoder. With d_mutex held. */
    decoder_channel* channel_for(const pmt::pmt_t& meta, std::string& why)
    {
        decoder_channel* c = d_channels.front().get();
        if (!d_options_key.empty() && pmt::is_dict(meta)) {
            const pmt::pmt_t v = pmt::dict_ref(meta, pmt::mp(d_options_key), pmt::PMT_NIL);
            if (!pmt::is_null(v)) {
                if (!pmt::is_symbol(v)) {
                    why = "its metadata \"" + d_options_key + "\" is not a string";
                    return nullptr;
                }
                const std::string text = pmt::symbol_to_string(v);
                c = nullptr;
                for (auto& ch : d_channels)
                    if (ch->key == text)
                        c = ch.get();
                if (!c) {
                    try {
                        ::gpufec::frame_options o = d_options;
                        for (const auto& kv : ::gpufec::parse_frame_options(text))
                            o[kv.first] = kv.second;
                        auto recipe = std::make_shared<const decoder_recipe>(d_family, o, d_max_batch, d_device);
                        if (d_channels.size() >= max_channels) { // the longest unused idle one goes
                            size_t victim = 0;
                            for (size_t i = 1; i < d_channels.size(); ++i)
                                if (idle(*d_channels[i]) &&
                                    (!victim || d_channels[i]->last_used < d_channels[victim]->last_used))
                                    victim = i;
                            if (victim)
                                d_channels.erase(d_channels.begin() + long(victim));
                        }
                        d_channels.push_back(make_channel(std::move(recipe), text));
                        c = d_channels.back().get();
                        d_logger->info("{}: {}, backend {}", text, c->async->decoder().describe(),
                                       c->async->backend());
                    } catch (const std::exception& e) {
                        why = "its options \"" + text + "\": " + e.what();
                        return nullptr;
                    }
                }
            }
        }
        c->last_used = ++d_uses;
        return c;
    }

    void drop(const std::string& why)
    {
        d_dropped++;
        d_logger->warn("PDU dropped: {}", why);
    }

    void handle(const pmt::pmt_t& msg)
    {
        if (!pmt::is_pair(msg) || !pmt::is_uniform_vector(pmt::cdr(msg))) {
            drop("not a PDU (a pair of metadata and a uniform vector)");
            return;
        }
        pmt::pmt_t meta = pmt::car(msg), vec = pmt::cdr(msg);
        if (!pmt::is_dict(meta) && !pmt::is_null(meta)) {
            drop("its metadata is not a dictionary");
            return;
        }
        const bool f32 = pmt::is_f32vector(vec);
        if (!f32 && !pmt::is_s8vector(vec) && !pmt::is_u8vector(vec)) {
            drop("soft values must be an f32vector, s8vector or u8vector");
            return;
        }
        const size_t len = pmt::length(vec);
        std::unique_lock<std::mutex> lock(d_mutex);
        std::string why;
        decoder_channel* ch = channel_for(meta, why);
        if (!ch) {
            lock.unlock();
            drop(why);
            return;
        }
        auto& async = *ch->async;
        async.collect_retired(); // (decoders replaced by set_option: no reference to them is held here)
        auto p = std::make_shared<pending>();
        p->channel = ch;
        p->has_check = ch->has_check;
        p->counts = ch->counts;
        if (ch->variable) { // one PDU, one frame, of any length the decoder takes
            const auto& dec = async.decoder();
            if (!dec.accepts_length(len)) {
                lock.unlock();
                drop("a frame of " + std::to_string(len) + " soft values; the " + dec.family() +
                     " decoder takes " + dec.accepted_lengths());
                return;
            }
            p->frames = 1;
            p->out_bits = dec.output_bits_for(len);
            p->soft_len = ch->soft_len ? dec.soft_output_for(len) : 0;
        } else {
            if (len == 0 || len % ch->in != 0) {
                lock.unlock();
                drop("length " + std::to_string(len) + " is not a whole number of frames of " + std::to_string(ch->in) +
                     (ch->key.empty() ? std::string() : " (" + ch->key + ")"));
                return;
            }
            p->frames = len / ch->in;
            p->out_bits = ch->bits;
            p->soft_len = ch->soft_len;
        }
        size_t off = 0;
        const void* base = f32 ? static_cast<const void*>(pmt::f32vector_elements(vec, off))
                               : static_cast<const void*>(pmt::uniform_vector_elements(vec, off));
        p->meta = pmt::is_null(meta) ? pmt::make_dict() : meta;
        p->bits.resize(p->frames * (d_packed ? (p->out_bits + 7) / 8 : p->out_bits));
        p->iterations.resize(p->frames);
        p->corrected.resize(p->counts ? p->frames : 0);
        p->passed.resize(p->frames);
        p->inner.resize(p->frames);
        p->erased.resize(p->frames);
        p->soft.resize(p->frames * p->soft_len);
        d_order.push_back(p);
        if (ch->variable) {
            for (;;) {
                auto* s = async.filling();
                while (!s) {
                    d_freed.wait(lock);
                    s = async.filling();
                }
                size_t nans = 0;
                const bool fits = f32 ? async.append_frame(static_cast<const float*>(base), len, d_scale, nans)
                                      : async.append_frame(static_cast<const int8_t*>(base), len);
                d_nans += nans;
                if (fits) {
                    if (s->frames == async.batch_frames())
                        submit(async);
                    break;
                }
                submit(async); // full: the frame goes into the next slot
            }
        }
        size_t frame = ch->variable ? p->frames : 0;
        while (frame < p->frames) {
            auto* s = async.filling();
            while (!s) { // every slot busy: wait for the collector to free one
                d_freed.wait(lock);
                s = async.filling();
            }
            const size_t n = std::min(p->frames - frame, async.batch_frames() - s->frames);
            if (f32)
                d_nans += async.append(static_cast<const float*>(base) + frame * ch->in, n, d_scale);
            else
                async.append(static_cast<const int8_t*>(base) + frame * ch->in, n);
            frame += n;
            if (s->frames == async.batch_frames())
                submit(async);
        }
        // a batch goes out now when the decoder idles; otherwise the collector sends it
        flush_if_idle();
        lock.unlock();
        d_work.notify_one();
    }

    // Hands the filling slot to the decoder and wakes the collector (with d_mutex held). The
    // collector must hear of every batch at once: a PDU of more frames than the slots hold
    // waits in handle() for the collector to free a slot, and a collector left asleep until
    // handle() returns would never free one.
    void submit(::gpufec::async_decoder& async)
    {
        async.submit();
        d_work.notify_one();
    }

    void flush_if_idle() // with d_mutex held: every decoder's
    {
        for (auto& c : d_channels) {
            auto* s = c->async->filling();
            if (s && s->frames > 0 && c->async->in_flight() == 0)
                submit(*c->async);
        }
    }

    decoder_channel* with_results() // with d_mutex held: a decoder with a batch to collect
    {
        for (auto& c : d_channels)
            if (c->async->unreleased() > 0)
                return c.get();
        return nullptr;
    }

    void collect()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            d_work.wait(lock, [&] { return d_stop || with_results(); });
            decoder_channel* ch = with_results();
            if (!ch && d_stop)
                return;
            lock.unlock();
            ::gpufec::async_decoder::slot* s = nullptr;
            try {
                s = ch->async->front(true);
            } catch (const std::exception& e) {
                d_logger->error("decoding failed: {}", e.what());
            }
            lock.lock();
            if (!s) {
                // the batch was lost: its PDUs cannot be completed
                continue;
            }
            size_t f = 0;
            for (auto it = d_order.begin(); it != d_order.end() && f < s->frames; ++it) {
                auto& p = **it;
                if (p.channel != ch || p.done == p.frames)
                    continue; // (another decoder's, or complete: this decoder's PDUs in order)
                const size_t n = std::min(s->frames - f, p.frames - p.done);
                const size_t ob = p.out_bits, obytes = (ob + 7) / 8;
                for (size_t i = 0; i < n; ++i) {
                    const auto& st = s->status[f + i];
                    const uint8_t* src = s->bits + (f + i) * ch->bytes; // (the longest frame's stride)
                    if (d_packed)
                        std::memcpy(p.bits.data() + (p.done + i) * obytes, src, obytes);
                    else
                        ::gpufec::unpack_bits(src, ob, p.bits.data() + (p.done + i) * ob);
                    p.iterations[p.done + i] = st.iterations;
                    if (p.counts)
                        p.corrected[p.done + i] = st.corrected;
                    p.passed[p.done + i] = st.check == 1;
                    p.inner[p.done + i] = uint8_t(st.inner);
                    p.erased[p.done + i] = st.erased != 0;
                    d_failed += st.check == 0;
                }
                for (size_t i = 0; i < n && p.soft_len; ++i)
                    std::memcpy(p.soft.data() + (p.done + i) * p.soft_len, s->soft_out + (f + i) * ch->soft_len,
                                p.soft_len * sizeof(float));
                p.done += n;
                f += n;
            }
            ch->async->release_front();
            flush_if_idle();
            // every PDU leaves in the order it came: those complete at the front go out
            std::vector<std::shared_ptr<pending>> ready;
            while (!d_order.empty() && d_order.front()->done == d_order.front()->frames) {
                ready.push_back(d_order.front());
                d_order.pop_front();
            }
            lock.unlock();
            d_freed.notify_all();
            for (const auto& p : ready)
                publish(*p);
            lock.lock();
        }
    }

    void publish(const pending& p)
    {
        pmt::pmt_t meta = p.meta;
        meta = pmt::dict_add(meta, pmt::mp("frames"), pmt::from_long(long(p.frames)));
        meta = pmt::dict_add(meta, pmt::mp("iterations"), pmt::init_s32vector(p.iterations.size(), p.iterations));
        if (p.has_check)
            meta = pmt::dict_add(meta, pmt::mp("passed"), pmt::init_u8vector(p.passed.size(), p.passed));
        if (p.counts) // (the Reed-Solomon family: symbols corrected a frame, -1 where it failed)
            meta = pmt::dict_add(meta, pmt::mp("corrected"), pmt::init_s32vector(p.corrected.size(), p.corrected));
        if (!p.inner.empty() && p.inner.front() != uint8_t(0xff)) // an outer code: the inner check's verdicts
            meta = pmt::dict_add(meta, pmt::mp("inner_passed"), pmt::init_u8vector(p.inner.size(), p.inner));
        meta = pmt::dict_add(meta, pmt::mp("erased"), pmt::init_u8vector(p.erased.size(), p.erased));
        if (p.soft_len)
            meta = pmt::dict_add(meta, pmt::mp("soft_out"), pmt::init_f32vector(p.soft.size(), p.soft));
        message_port_pub(d_port, pmt::cons(meta, pmt::init_u8vector(p.bits.size(), p.bits)));
        d_sent++;
    }

    void stop_collector()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            // what is still filling goes out before the collector stops
            for (auto& c : d_channels) {
                auto* s = c->async->filling();
                if (s && s->frames > 0)
                    c->async->submit();
            }
            d_stop = true;
        }
        d_work.notify_all();
        if (d_collector.joinable())
            d_collector.join();
    }

    std::string d_family;
    ::gpufec::frame_options d_options; // the block's (with set_option's changes)
    ::gpufec::device_spec d_device;
    int d_max_batch;
    bool d_packed;
    float d_scale;
    bool d_soft_output;
    std::string d_options_key;
    pmt::pmt_t d_port;
    std::mutex d_mutex; // the decoders, their slots being filled, the pending PDUs
    std::vector<std::unique_ptr<decoder_channel>> d_channels; // [0]: the block's own options
    uint64_t d_uses = 0;
    std::condition_variable d_work, d_freed;
    std::deque<std::shared_ptr<pending>> d_order; // every pending PDU, in the order they came
    bool d_stop = false;
    std::thread d_collector;
    std::atomic<uint64_t> d_sent{ 0 }, d_dropped{ 0 }, d_failed{ 0 }, d_nans{ 0 };
};

} // namespace

pdu_decoder::sptr pdu_decoder::make(const std::string& family,
                                    const std::string& options,
                                    const std::string& device,
                                    int max_batch,
                                    bool packed_output,
                                    float scale,
                                    bool soft_output,
                                    const std::string& options_key)
{
    install_gr_log_handler();
    check_decoder_params(max_batch, scale);
    const auto opts = ::gpufec::parse_frame_options(options);
    const auto dev = ::gpufec::device_spec::parse(device);
    auto recipe = std::make_shared<const decoder_recipe>(family, opts, max_batch, dev);
    return gnuradio::make_block_sptr<pdu_decoder_impl>(std::move(recipe), family, opts, dev, max_batch, packed_output,
                                                       scale, soft_output, options_key);
}

} // namespace gpufec
} // namespace gr
