/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/async_decoder.h>

#include <stdexcept>

namespace gpufec {

namespace {
size_t align64(size_t n) { return (n + 63) & ~size_t(63); }
} // namespace

async_decoder::async_decoder(std::unique_ptr<frame_decoder> decoder,
                             const options& opts,
                             std::function<std::unique_ptr<frame_decoder>()> fallback)
    : d_dec(std::move(decoder)), d_fallback(std::move(fallback)), d_opts(opts)
{
    if (!d_dec)
        throw std::invalid_argument("async_decoder: no decoder");
    if (d_opts.depth < 2 || d_opts.depth > 16)
        throw std::invalid_argument("depth: " + std::to_string(d_opts.depth) +
                                    " is not valid (allowed: 2..16)");
    d_batch = d_opts.batch_frames ? d_opts.batch_frames : d_dec->preferred_batch();
    if (d_batch < 1 || d_batch > size_t(1) << 20)
        throw std::invalid_argument("max_batch: " + std::to_string(d_batch) +
                                    " frames is not valid (allowed: 1..1048576)");
    const frame_decoder& dec = *d_dec;
    d_capacity = d_batch * dec.input_per_frame();
    const size_t elem = dec.wants_float_input() ? sizeof(float) : sizeof(int8_t);
    const size_t in_bytes = align64(d_capacity * elem);
    const size_t len_bytes = d_opts.variable_lengths ? align64(d_batch * sizeof(size_t)) : 0;
    const size_t out_bytes = align64(d_batch * dec.output_bytes(d_opts.packed));
    const size_t st_bytes = align64(d_batch * sizeof(frame_status));
    const size_t so_bytes =
        d_opts.soft_output ? align64(d_batch * dec.soft_output_per_frame() * sizeof(float)) : 0;
    if (d_opts.soft_output && dec.soft_output_per_frame() == 0)
        throw std::invalid_argument("soft_output: the " + dec.family() + " decoder has none");
    const size_t total = in_bytes + len_bytes + out_bytes + st_bytes + so_bytes;
    // sizes are bounded above (batch <= 2^20 frames of bounded length); say what failed if
    // memory runs out rather than a bare bad_alloc
    d_slots.resize(size_t(d_opts.depth));
    for (auto& e : d_slots) {
        try {
            d_buffers.push_back(std::make_unique<host_buffer>(total));
        } catch (const std::bad_alloc&) {
            throw std::runtime_error("max_batch: " + std::to_string(d_batch) + " frames need " +
                                     std::to_string(total >> 20) + " MiB per slot (" +
                                     std::to_string(d_opts.depth) +
                                     " slots); not enough memory, use a smaller max_batch");
        }
        uint8_t* p = d_buffers.back()->data();
        if (elem == sizeof(float))
            e.s.soft_f = reinterpret_cast<float*>(p);
        else
            e.s.soft = reinterpret_cast<int8_t*>(p);
        p += in_bytes;
        if (len_bytes)
            e.s.lengths = reinterpret_cast<size_t*>(p);
        p += len_bytes;
        e.s.bits = p;
        p += out_bytes;
        e.s.status = reinterpret_cast<frame_status*>(p);
        p += st_bytes;
        if (so_bytes)
            e.s.soft_out = reinterpret_cast<float*>(p);
    }
    d_inline = !d_dec->on_gpu();
    if (!d_inline)
        d_thread = std::thread([this] { run(); });
}

async_decoder::~async_decoder()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_stop = true;
    }
    d_work.notify_all();
    if (d_thread.joinable())
        d_thread.join();
}

const frame_decoder& async_decoder::decoder() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return *d_dec;
}

std::string async_decoder::backend() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_dec->backend();
}

async_decoder::slot* async_decoder::filling()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    entry& e = d_slots[d_fill];
    if (e.st == state::free) {
        e.st = state::filling;
        e.s.frames = e.s.used = e.s.read = 0;
    }
    return e.st == state::filling ? &e.s : nullptr;
}

void async_decoder::submit()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        entry& e = d_slots[d_fill];
        if (e.st != state::filling || e.s.frames == 0)
            throw std::logic_error("async_decoder::submit: no filled slot");
        if (e.s.frames > d_batch || e.s.used > d_capacity)
            throw std::logic_error("async_decoder::submit: slot overfilled");
        e.st = state::submitted;
        d_fill = (d_fill + 1) % d_slots.size();
    }
    if (d_inline)
        process(d_slots[d_next_decode]);
    else
        d_work.notify_one();
}

async_decoder::slot* async_decoder::front(bool wait)
{
    std::unique_lock<std::mutex> lock(d_mutex);
    entry& e = d_slots[d_read];
    if (e.st != state::submitted && e.st != state::decoded)
        return nullptr;
    if (e.st == state::submitted) {
        if (!wait)
            return nullptr;
        d_done.wait(lock, [&] { return e.st == state::decoded; });
    }
    if (e.error) {
        std::exception_ptr err = e.error;
        e.error = nullptr;
        e.st = state::free; // the batch is lost; the caller reports it
        d_read = (d_read + 1) % d_slots.size();
        std::rethrow_exception(err);
    }
    return &e.s;
}

void async_decoder::release_front()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    entry& e = d_slots[d_read];
    if (e.st != state::decoded)
        throw std::logic_error("async_decoder::release_front: the front slot is not decoded");
    e.st = state::free;
    d_read = (d_read + 1) % d_slots.size();
}

size_t async_decoder::in_flight() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (const auto& e : d_slots)
        n += e.st == state::submitted;
    return n;
}

size_t async_decoder::unreleased() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (const auto& e : d_slots)
        n += e.st == state::submitted || e.st == state::decoded;
    return n;
}

void async_decoder::run()
{
    for (;;) {
        entry* e;
        {
            std::unique_lock<std::mutex> lock(d_mutex);
            d_work.wait(lock, [&] { return d_stop || d_slots[d_next_decode].st == state::submitted; });
            if (d_stop)
                return;
            e = &d_slots[d_next_decode];
        }
        process(*e);
    }
}

void async_decoder::process(entry& en)
{
    entry* e = &en;
    auto decode_with = [&](frame_decoder& dec) {
        frame_batch b;
        b.frames = e->s.frames;
        b.soft = e->s.soft;
        b.soft_f = e->s.soft_f;
        b.input_lengths = d_opts.variable_lengths ? e->s.lengths : nullptr;
        b.bits = e->s.bits;
        b.packed = d_opts.packed;
        b.status = e->s.status;
        b.soft_out = d_opts.soft_output ? e->s.soft_out : nullptr;
        dec.decode(b);
    };
    std::exception_ptr error;
    try {
        decode_with(*d_dec);
    } catch (const std::exception& ex) {
        if (d_fallback) {
            try {
                auto replacement = d_fallback();
                log(log_level::error, "decoder " + d_dec->backend() + " failed (" + ex.what() +
                                          "); continuing on " + replacement->backend());
                decode_with(*replacement);
                std::lock_guard<std::mutex> lock(d_mutex);
                d_retired.push_back(std::move(d_dec));
                d_dec = std::move(replacement);
                d_fallback = nullptr;
            } catch (...) {
                error = std::current_exception();
            }
        } else {
            error = std::current_exception();
        }
    } catch (...) {
        error = std::current_exception();
    }
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        e->error = error;
        e->st = state::decoded;
        d_next_decode = (d_next_decode + 1) % d_slots.size();
    }
    d_done.notify_all();
}

} // namespace gpufec
