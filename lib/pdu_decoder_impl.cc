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

class pdu_decoder_impl : public pdu_decoder
{
public:
    pdu_decoder_impl(std::shared_ptr<const decoder_recipe> recipe,
                     int max_batch,
                     bool packed,
                     float scale,
                     bool soft_output)
        : gr::block("pdu_decoder", gr::io_signature::make(0, 0, 0), gr::io_signature::make(0, 0, 0)),
          d_recipe(std::move(recipe)),
          d_packed(packed),
          d_scale(scale),
          d_port(pmt::mp("pdus"))
    {
        auto dec = d_recipe->make();
        d_variable = dec->variable_input();
        d_in = dec->input_per_frame();
        d_bits = dec->output_bits();
        d_bytes = dec->output_bytes(true);
        d_has_check = dec->has_check();
        d_soft_len = soft_output ? dec->soft_output_per_frame() : 0;
        if (soft_output && d_soft_len == 0)
            throw std::invalid_argument("soft_output: the " + dec->family() + " family has no soft output");
        ::gpufec::async_decoder::options ao;
        ao.soft_output = soft_output;
        ao.batch_frames = max_batch > 0 ? size_t(max_batch) : 0;
        ao.packed = true;
        ao.variable_lengths = d_variable;
        d_async = std::make_unique<::gpufec::async_decoder>(std::move(dec), ao, d_recipe->fallback());
        message_port_register_in(d_port);
        message_port_register_out(d_port);
        set_msg_handler(d_port, [this](const pmt::pmt_t& msg) { handle(msg); });
        d_logger->info("{}, backend {}, batches of {} frames", d_async->decoder().describe(), d_async->backend(),
                       d_async->batch_frames());
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

    std::string backend() const override { return d_async->backend(); }
    int input_per_frame() const override { return int(d_in); }
    void set_option(const std::string& key, const std::string& value) override
    {
        std::lock_guard<std::mutex> lock(d_setting_mutex);
        d_recipe = change_setting(*d_async, d_recipe, key, value);
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
        size_t frames = 0, done = 0;
        size_t out_bits = 0, soft_len = 0; // per frame (variable families: of this PDU's frame)
        std::vector<uint8_t> bits;
        std::vector<int32_t> iterations;
        std::vector<uint8_t> passed, erased, inner; // (inner: -1 stored as 255 where no outer code)
        std::vector<float> soft; // soft output, where asked for
    };

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
        d_async->collect_retired(); // (decoders replaced by set_option: no reference to them is held here)
        auto p = std::make_shared<pending>();
        if (d_variable) { // one PDU, one frame, of any length the decoder takes
            const auto& dec = d_async->decoder();
            if (!dec.accepts_length(len)) {
                drop("a frame of " + std::to_string(len) + " soft values; the " + dec.family() +
                     " decoder takes " + dec.accepted_lengths());
                return;
            }
            p->frames = 1;
            p->out_bits = dec.output_bits_for(len);
            p->soft_len = d_soft_len ? dec.soft_output_for(len) : 0;
        } else {
            if (len == 0 || len % d_in != 0) {
                drop("length " + std::to_string(len) + " is not a whole number of frames of " + std::to_string(d_in));
                return;
            }
            p->frames = len / d_in;
            p->out_bits = d_bits;
            p->soft_len = d_soft_len;
        }
        size_t off = 0;
        const void* base = f32 ? static_cast<const void*>(pmt::f32vector_elements(vec, off))
                               : static_cast<const void*>(pmt::uniform_vector_elements(vec, off));
        p->meta = pmt::is_null(meta) ? pmt::make_dict() : meta;
        p->bits.resize(p->frames * (d_packed ? (p->out_bits + 7) / 8 : p->out_bits));
        p->iterations.resize(p->frames);
        p->passed.resize(p->frames);
        p->inner.resize(p->frames);
        p->erased.resize(p->frames);
        p->soft.resize(p->frames * p->soft_len);
        std::unique_lock<std::mutex> lock(d_mutex);
        d_pending.push_back(p);
        if (d_variable) {
            for (;;) {
                auto* s = d_async->filling();
                while (!s) {
                    d_freed.wait(lock);
                    s = d_async->filling();
                }
                size_t nans = 0;
                const bool fits = f32 ? d_async->append_frame(static_cast<const float*>(base), len, d_scale, nans)
                                      : d_async->append_frame(static_cast<const int8_t*>(base), len);
                d_nans += nans;
                if (fits) {
                    if (s->frames == d_async->batch_frames())
                        submit();
                    break;
                }
                submit(); // full: the frame goes into the next slot
            }
        }
        size_t frame = d_variable ? p->frames : 0;
        while (frame < p->frames) {
            auto* s = d_async->filling();
            while (!s) { // every slot busy: wait for the collector to free one
                d_freed.wait(lock);
                s = d_async->filling();
            }
            const size_t n = std::min(p->frames - frame, d_async->batch_frames() - s->frames);
            if (f32)
                d_nans += d_async->append(static_cast<const float*>(base) + frame * d_in, n, d_scale);
            else
                d_async->append(static_cast<const int8_t*>(base) + frame * d_in, n);
            frame += n;
            if (s->frames == d_async->batch_frames())
                submit();
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
    void submit()
    {
        d_async->submit();
        d_work.notify_one();
    }

    void flush_if_idle() // with d_mutex held
    {
        auto* s = d_async->filling();
        if (s && s->frames > 0 && d_async->in_flight() == 0)
            submit();
    }

    void collect()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            d_work.wait(lock, [&] { return d_stop || d_async->unreleased() > 0; });
            if (d_async->unreleased() == 0 && d_stop)
                return;
            lock.unlock();
            ::gpufec::async_decoder::slot* s = nullptr;
            try {
                s = d_async->front(true);
            } catch (const std::exception& e) {
                d_logger->error("decoding failed: {}", e.what());
            }
            lock.lock();
            if (!s) {
                // the batch was lost: its PDUs cannot be completed
                continue;
            }
            std::vector<std::shared_ptr<pending>> ready;
            size_t f = 0;
            while (f < s->frames && !d_pending.empty()) {
                auto& p = *d_pending.front();
                const size_t n = std::min(s->frames - f, p.frames - p.done);
                const size_t ob = p.out_bits, obytes = (ob + 7) / 8;
                for (size_t i = 0; i < n; ++i) {
                    const auto& st = s->status[f + i];
                    const uint8_t* src = s->bits + (f + i) * d_bytes; // (the longest frame's stride)
                    if (d_packed)
                        std::memcpy(p.bits.data() + (p.done + i) * obytes, src, obytes);
                    else
                        ::gpufec::unpack_bits(src, ob, p.bits.data() + (p.done + i) * ob);
                    p.iterations[p.done + i] = st.iterations;
                    p.passed[p.done + i] = st.check == 1;
                    p.inner[p.done + i] = uint8_t(st.inner);
                    p.erased[p.done + i] = st.erased != 0;
                    d_failed += st.check == 0;
                }
                for (size_t i = 0; i < n && p.soft_len; ++i)
                    std::memcpy(p.soft.data() + (p.done + i) * p.soft_len, s->soft_out + (f + i) * d_soft_len,
                                p.soft_len * sizeof(float));
                p.done += n;
                f += n;
                if (p.done == p.frames) {
                    ready.push_back(d_pending.front());
                    d_pending.pop_front();
                }
            }
            d_async->release_front();
            flush_if_idle();
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
        if (d_has_check)
            meta = pmt::dict_add(meta, pmt::mp("passed"), pmt::init_u8vector(p.passed.size(), p.passed));
        if (!p.inner.empty() && p.inner.front() != uint8_t(0xff)) // an outer code: the inner check's verdicts
            meta = pmt::dict_add(meta, pmt::mp("inner_passed"), pmt::init_u8vector(p.inner.size(), p.inner));
        meta = pmt::dict_add(meta, pmt::mp("erased"), pmt::init_u8vector(p.erased.size(), p.erased));
        if (d_soft_len)
            meta = pmt::dict_add(meta, pmt::mp("soft_out"), pmt::init_f32vector(p.soft.size(), p.soft));
        message_port_pub(d_port, pmt::cons(meta, pmt::init_u8vector(p.bits.size(), p.bits)));
        d_sent++;
    }

    void stop_collector()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            // what is still filling goes out before the collector stops
            auto* s = d_async->filling();
            if (s && s->frames > 0)
                d_async->submit();
            d_stop = true;
        }
        d_work.notify_all();
        if (d_collector.joinable())
            d_collector.join();
    }

    std::unique_ptr<::gpufec::async_decoder> d_async;
    std::shared_ptr<const decoder_recipe> d_recipe;
    std::mutex d_setting_mutex;
    bool d_packed;
    float d_scale;
    pmt::pmt_t d_port;
    size_t d_in = 0, d_bits = 0, d_bytes = 0, d_soft_len = 0;
    bool d_has_check = false;
    bool d_variable = false; // frames of varying length: one per PDU
    std::mutex d_mutex; // the slot being filled, the pending PDUs
    std::condition_variable d_work, d_freed;
    std::deque<std::shared_ptr<pending>> d_pending;
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
                                    bool soft_output)
{
    install_gr_log_handler();
    check_decoder_params(max_batch, scale);
    auto recipe = std::make_shared<const decoder_recipe>(family, ::gpufec::parse_frame_options(options), max_batch,
                                                         ::gpufec::device_spec::parse(device));
    return gnuradio::make_block_sptr<pdu_decoder_impl>(std::move(recipe), max_batch, packed_output, scale,
                                                       soft_output);
}

} // namespace gpufec
} // namespace gr
