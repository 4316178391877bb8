/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/frame/async_decoder.h>

#include <gnuradio/gpufec/core/runtime/soft.h>

#include "runtime/slot_ring.h"

#include <cstring>
#include <stdexcept>

namespace gpufec {

namespace {
size_t align64(size_t n) { return (n + 63) & ~size_t(63); }
} // namespace

async_decoder::async_decoder(std::unique_ptr<batch_decoder> decoder,
                             const options& opts,
                             std::function<std::unique_ptr<batch_decoder>()> fallback)
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
    const batch_decoder& dec = *d_dec;
    d_in_per_frame = dec.input_per_frame();
    d_capacity = d_batch * d_in_per_frame;
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
    for (auto& sl : d_slots) {
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
            sl.soft_f = reinterpret_cast<float*>(p);
        else
            sl.soft = reinterpret_cast<int8_t*>(p);
        p += in_bytes;
        if (len_bytes)
            sl.lengths = reinterpret_cast<size_t*>(p);
        p += len_bytes;
        sl.bits = p;
        p += out_bytes;
        sl.status = reinterpret_cast<frame_status*>(p);
        p += st_bytes;
        if (so_bytes)
            sl.soft_out = reinterpret_cast<float*>(p);
    }
    d_ring = std::make_unique<slot_ring>(d_slots.size(), !d_dec->on_gpu() && cpu_decodes_inline(),
                                         [this](size_t i) { decode_slot(i); });
}

async_decoder::~async_decoder() = default;

const batch_decoder& async_decoder::decoder() const
{
    std::lock_guard<std::mutex> lock(d_dec_mutex);
    return *d_dec;
}

std::string async_decoder::backend() const
{
    std::lock_guard<std::mutex> lock(d_dec_mutex);
    return d_dec->backend();
}

async_decoder::slot* async_decoder::filling()
{
    const size_t i = d_ring->filling([this](size_t j) {
        slot& s = d_slots[j];
        s.frames = s.used = s.read = 0;
    });
    return i == slot_ring::none ? nullptr : &d_slots[i];
}

async_decoder::slot& async_decoder::room_for(size_t frames)
{
    if (d_opts.variable_lengths)
        throw std::logic_error("async_decoder::append: slots of variable-length frames take append_frame()");
    const size_t i = d_ring->filling();
    if (i == slot_ring::none || d_slots[i].frames + frames > d_batch)
        throw std::logic_error("async_decoder::append: no filling slot with room for the frames");
    return d_slots[i];
}

size_t async_decoder::append(const int8_t* soft, size_t frames, const splitter& split)
{
    slot& s = room_for(frames);
    const size_t values = frames * d_in_per_frame;
    auto piece = [&](size_t a, size_t b) {
        if (s.soft)
            std::memcpy(s.soft + s.used + a, soft + a, b - a);
        else
            widen_soft(soft + a, s.soft_f + s.used + a, b - a);
        return size_t(0);
    };
    split ? split(values, piece) : piece(0, values);
    s.frames += frames;
    s.used += values;
    return 0;
}

size_t async_decoder::append(const float* soft, size_t frames, float scale, const splitter& split)
{
    slot& s = room_for(frames);
    const size_t values = frames * d_in_per_frame;
    auto piece = [&](size_t a, size_t b) {
        return s.soft ? quantize_soft(soft + a, s.soft + s.used + a, b - a, scale)
                      : sanitize_soft(soft + a, s.soft_f + s.used + a, b - a);
    };
    const size_t nans = split ? split(values, piece) : piece(0, values);
    s.frames += frames;
    s.used += values;
    return nans;
}

async_decoder::slot* async_decoder::room_for_frame(size_t length)
{
    if (!d_opts.variable_lengths)
        throw std::logic_error("async_decoder::append_frame: the slots were not made for variable lengths");
    const size_t i = d_ring->filling();
    if (i == slot_ring::none)
        throw std::logic_error("async_decoder::append_frame: no filling slot");
    slot& s = d_slots[i];
    if (length > d_in_per_frame)
        throw std::invalid_argument("async_decoder::append_frame: a frame of " + std::to_string(length) +
                                    " values is longer than the decoder's longest, " +
                                    std::to_string(d_in_per_frame));
    if (s.frames == d_batch || s.used + length > d_capacity)
        return nullptr;
    return &s;
}

bool async_decoder::append_frame(const int8_t* soft, size_t length)
{
    slot* s = room_for_frame(length);
    if (!s)
        return false;
    if (s->soft)
        std::memcpy(s->soft + s->used, soft, length);
    else
        widen_soft(soft, s->soft_f + s->used, length);
    s->lengths[s->frames++] = length;
    s->used += length;
    return true;
}

bool async_decoder::append_frame(const float* soft, size_t length, float scale, size_t& nans)
{
    slot* s = room_for_frame(length);
    if (!s)
        return false;
    nans += s->soft ? quantize_soft(soft, s->soft + s->used, length, scale)
                    : sanitize_soft(soft, s->soft_f + s->used, length);
    s->lengths[s->frames++] = length;
    s->used += length;
    return true;
}

void async_decoder::submit()
{
    const size_t i = d_ring->filling();
    if (i == slot_ring::none || d_slots[i].frames == 0)
        throw std::logic_error("async_decoder::submit: no filled slot");
    if (d_slots[i].frames > d_batch || d_slots[i].used > d_capacity)
        throw std::logic_error("async_decoder::submit: slot overfilled");
    d_ring->submit();
}

async_decoder::slot* async_decoder::front(bool wait)
{
    const size_t i = d_ring->front(wait);
    return i == slot_ring::none ? nullptr : &d_slots[i];
}

async_decoder::slot* async_decoder::front_within(std::chrono::microseconds max_wait)
{
    const size_t i = d_ring->front_within(max_wait);
    return i == slot_ring::none ? nullptr : &d_slots[i];
}

void async_decoder::release_front() { d_ring->release_front(); }
size_t async_decoder::in_flight() const { return d_ring->in_flight(); }
size_t async_decoder::unreleased() const { return d_ring->unreleased(); }

void async_decoder::replace_decoder(std::unique_ptr<batch_decoder> next,
                                    std::function<std::unique_ptr<batch_decoder>()> fallback)
{
    if (!next)
        throw std::invalid_argument("replace_decoder: no decoder");
    std::lock_guard<std::mutex> lock(d_dec_mutex);
    const batch_decoder& now = *d_dec;
    if (next->input_per_frame() != now.input_per_frame() || next->output_bits() != now.output_bits() ||
        next->min_input_per_frame() != now.min_input_per_frame() || next->variable_input() != now.variable_input() ||
        next->wants_float_input() != now.wants_float_input() ||
        next->soft_output_per_frame() != now.soft_output_per_frame() ||
        next->output_bytes(d_opts.packed) != now.output_bytes(d_opts.packed))
        throw std::invalid_argument("the new settings change the frames (" + next->describe() + " against " +
                                    now.describe() + "): a running decoder keeps its frames");
    d_pending = std::move(next);
    d_pending_fallback = std::move(fallback);
}

void async_decoder::collect_retired()
{
    std::lock_guard<std::mutex> lock(d_dec_mutex);
    d_retired.clear();
}

void async_decoder::decode_slot(size_t i)
{
    const slot& sl = d_slots[i];
    auto decode_with = [&](batch_decoder& dec) {
        frame_batch b;
        b.frames = sl.frames;
        b.soft = sl.soft;
        b.soft_f = sl.soft_f;
        b.input_lengths = d_opts.variable_lengths ? sl.lengths : nullptr;
        b.bits = sl.bits;
        b.packed = d_opts.packed;
        b.status = sl.status;
        b.soft_out = d_opts.soft_output ? sl.soft_out : nullptr;
        dec.decode(b);
    };
    std::shared_ptr<batch_decoder> dec;
    std::function<std::unique_ptr<batch_decoder>()> fallback;
    {
        std::lock_guard<std::mutex> lock(d_dec_mutex);
        if (d_pending) { // new settings take effect from this batch on
            d_retired.push_back(std::move(d_dec));
            d_dec = std::move(d_pending);
            d_fallback = std::move(d_pending_fallback);
            d_pending_fallback = nullptr;
        }
        dec = d_dec;
        fallback = d_fallback;
    }
    try {
        decode_with(*dec);
    } catch (const std::exception& ex) {
        if (!fallback)
            throw;
        std::shared_ptr<batch_decoder> replacement = fallback();
        log(log_level::error, "decoder " + dec->backend() + " failed (" + ex.what() + "); continuing on " +
                                  replacement->backend());
        decode_with(*replacement);
        std::lock_guard<std::mutex> lock(d_dec_mutex);
        if (d_dec == dec) { // (unless new settings came meanwhile: they take over next batch)
            d_retired.push_back(std::move(d_dec));
            d_dec = std::move(replacement);
            d_fallback = nullptr;
        }
    }
}

} // namespace gpufec
