/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/frame/batch_decoder.h>

#include "runtime/gpu_engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "runtime/side_task.h"

namespace gpufec {

size_t batch_decoder::batch_input(const frame_batch& b) const
{
    if (!b.input_lengths)
        return b.frames * input_per_frame();
    size_t total = 0;
    for (size_t f = 0; f < b.frames; ++f)
        total += b.input_lengths[f];
    return total;
}

void batch_decoder::decode(const frame_batch& batch)
{
    if (batch.frames == 0)
        return;
    if (batch.soft_f && !wants_float_input())
        throw std::invalid_argument("decode: the " + family() +
                                    " decoder takes int8 soft values (decode_float quantises float)");
    if (!batch.soft && !batch.soft_f && !batch.soft4)
        throw std::invalid_argument("decode: no soft input given");
    if (batch.soft4 && (batch.soft || batch.soft_f))
        throw std::invalid_argument("decode: give the soft values once (soft, soft_f or soft4)");
    if (batch.soft4 && wants_float_input())
        throw std::invalid_argument("decode: the " + family() + " decoder with these options takes float values, "
                                    "not packed 4-bit ones");
    if (!batch.bits)
        throw std::invalid_argument("decode: no output buffer given");
    if (batch.soft_out && soft_output_per_frame() == 0)
        throw std::invalid_argument("decode: the " + family() + " decoder has no soft output");
    if (batch.input_lengths) {
        for (size_t f = 0; f < batch.frames; ++f) {
            const size_t len = batch.input_lengths[f];
            if (!accepts_length(len))
                throw std::invalid_argument("decode: frame " + std::to_string(f) + " has " +
                                            std::to_string(len) + " soft values; the " + family() +
                                            " decoder takes " + accepted_lengths());
        }
    }
    if (batch.soft4) {
        for (size_t f = 0; f < (batch.input_lengths ? batch.frames : 1); ++f) // (fixed frames: one length)
            if ((batch.input_lengths ? batch.input_lengths[f] : input_per_frame()) % 2)
                throw std::invalid_argument("decode: frame " + std::to_string(f) +
                                            " has an odd number of soft values; packed 4-bit frames must start on a "
                                            "byte (give int8 values)");
        if (!takes_soft4()) { // the decoder's own int8 path, with the values 16 q
            const size_t n = batch_input(batch);
            d_q.resize(n);
            unpack_soft4(batch.soft4, d_q.data(), n);
            frame_batch b = batch;
            b.soft4 = nullptr;
            b.soft = d_q.data();
            decode(b);
            return;
        }
    }
    if (fault_injected("batch") && on_gpu()) // (runtime/gpu_engine.h: tests; on_gpu() builds a string)
        throw std::runtime_error("GPUFEC_FAULT=batch: a GPU batch of the " + family() + " decoder was made to fail");
    frame_batch b = batch;
    if (!b.status) {
        d_status.resize(b.frames);
        b.status = d_status.data();
    }
    if (!writes_whole_status())
        std::fill(b.status, b.status + b.frames, frame_status{});

    // A frame of zeros carries no information; whatever the decoder made of it (the all-zero
    // word satisfies every parity check), it is reported as erased and never as passed. The
    // scan reads one cache line per frame (a first value is almost never 0), which on a large
    // cold GPU batch costs ~0.1-0.2 ms of memory latency: there it runs on a helper thread
    // while the decoder works, so it is off the critical path.
    d_erased.resize(b.frames); // (find_erased sets every frame's)
    bool any_erased = false;
    constexpr size_t beside = 1024; // frames from which the helper thread pays off
    if (b.frames >= beside) {
        if (!d_side)
            d_side = std::make_unique<side_task>();
        d_side->start([this, &b, &any_erased] { any_erased = find_erased(b); });
        try {
            decode_checked(b);
        } catch (...) {
            d_side->wait();
            throw;
        }
        d_side->wait();
    } else {
        decode_checked(b);
        any_erased = find_erased(b);
    }
    for (size_t f = 0; any_erased && f < b.frames; ++f) {
        if (d_erased[f]) {
            b.status[f].erased = 1;
            if (b.status[f].check == 1)
                b.status[f].check = 0;
        }
    }
}

std::string batch_decoder::accepted_lengths() const
{
    if (!variable_input() || min_input_per_frame() == input_per_frame())
        return std::to_string(input_per_frame());
    return std::to_string(min_input_per_frame()) + ".." + std::to_string(input_per_frame());
}

batch_decoder::batch_decoder() = default;
batch_decoder::~batch_decoder() = default;

// Float values count as zero when they are subnormal too (what a dead input looks like; int8
// quantisation makes them 0 anyway). The next frames' first lines are prefetched.
bool batch_decoder::find_erased(const frame_batch& b)
{
    bool any = false;
    const size_t fixed = input_per_frame(), end = b.frames;
    size_t at = 0;
    constexpr size_t ahead = 8;
    for (size_t f = 0; f < end; ++f) {
        const size_t len = b.input_lengths ? b.input_lengths[f] : fixed;
        bool zero;
        if (b.soft_f) {
            const float* sf = b.soft_f + at;
            if (!b.input_lengths && f + ahead < end)
                __builtin_prefetch(sf + ahead * len);
            zero = std::all_of(sf, sf + len, [](float v) {
                return std::fpclassify(v) == FP_ZERO || std::fpclassify(v) == FP_SUBNORMAL;
            });
        } else if (b.soft4) { // (a frame starts on a byte: decode() checks it)
            const uint8_t* p = b.soft4 + at / 2;
            zero = std::all_of(p, p + len / 2, [](uint8_t v) { return v == 0; });
        } else {
            const int8_t* s8 = b.soft + at;
            if (!b.input_lengths && f + ahead < end)
                __builtin_prefetch(s8 + ahead * len);
            zero = std::all_of(s8, s8 + len, [](int8_t v) { return v == 0; });
        }
        d_erased[f] = zero;
        any |= zero;
        at += len;
    }
    return any;
}

size_t batch_decoder::decode_float(const float* soft, const frame_batch& rest, float scale)
{
    if (!(scale > 0.f) || !std::isfinite(scale))
        throw std::invalid_argument("scale: must be a positive number");
    frame_batch b = rest;
    b.soft = nullptr;
    b.soft_f = nullptr;
    const size_t n = batch_input(rest);
    size_t nans = 0;
    if (wants_float_input()) {
        // the values themselves: NaN is an erasure (0), infinities are clamped
        d_f.resize(n);
        nans = sanitize_soft(soft, d_f.data(), n);
        b.soft_f = d_f.data();
    } else {
        d_q.resize(n);
        nans = quantize_soft(soft, d_q.data(), n, scale);
        b.soft = d_q.data();
    }
    decode(b);
    return nans;
}

} // namespace gpufec
