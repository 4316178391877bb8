/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/bits.h>
#include <gnuradio/gpufec/core/soft.h>
#include <gnuradio/gpufec/core/viterbi_async_stream.h>

#include "runtime/worker_pool.h"
#include <algorithm>
#include <atomic>
#include <thread>
#include <cstring>
#include <stdexcept>

namespace gpufec {

// Stage bookkeeping (P = puncturing period, K = soft values kept per period, D = block_len,
// L = traceback): a slot holds soft values from stage0 (a period boundary) on; block p needs
// stages [pD - L, pD + D + L). A slot that decodes blocks [first, first + n) is filled up to
// stage (first + n)D + L; the next slot starts from stage (first + n)D - L with the overlap
// copied over (d_carry), so every input value is copied into page-locked memory once, plus 2L
// stages per slot.

viterbi_async_stream::viterbi_async_stream(const conv_code& code,
                                           const viterbi_options& options,
                                           const device_spec& device,
                                           int batch,
                                           int depth)
    : d_code(code), d_opts(options), d_device(device)
{
    d_dec = std::make_unique<viterbi_stream_decoder>(code, options, device);
    d_D = d_dec->block_len();
    d_L = d_dec->traceback();
    const bool gpu = d_dec->backend().rfind("cuda", 0) == 0;
    d_batch = batch > 0 ? batch : (gpu ? 4096 : 512);
    if (d_batch > (1 << 20) || int64_t(d_batch) * d_D > (int64_t(1) << 28))
        throw std::invalid_argument("max_batch: " + std::to_string(d_batch) + " blocks of block_len " +
                                    std::to_string(d_D) +
                                    " stages exceed 2^28 stages per batch; use a smaller max_batch");
    if (depth < 2 || depth > 16)
        throw std::invalid_argument("depth: must be 2..16");
    const int64_t P = code.period();
    int64_t span = int64_t(d_batch) * d_D + 2 * d_L + 2 * P;
    span += (P - span % P) % P;
    d_capacity = size_t(code.kept_for_stages(span));
    const size_t out_bytes = size_t(d_batch) * size_t(d_D) / 8;
    d_slots.resize(size_t(depth));
    for (auto& s : d_slots) {
        s.in = std::make_unique<host_buffer>(d_capacity);
        s.out = std::make_unique<host_buffer>(out_bytes);
    }
    // the caller's copy into the slots is most of its work; one thread's copy does not reach
    // the memory's speed, so large copies are split over a few helpers
    const unsigned hw = std::thread::hardware_concurrency();
    if (hw > 2 && gpu) // (CPU decoders use every core themselves)
        d_copy_pool = std::make_unique<worker_pool>(int(std::min(4u, hw / 2)));
    d_inline = !gpu;
    if (!d_inline)
        d_thread = std::thread([this] { run(); });
}

viterbi_async_stream::~viterbi_async_stream()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_stop = true;
    }
    d_work.notify_all();
    if (d_thread.joinable())
        d_thread.join();
}

std::string viterbi_async_stream::backend() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_dec->backend();
}

int64_t viterbi_async_stream::complete_blocks(const slot& s) const
{
    const int64_t end = s.stage0 + int64_t(s.held) / d_code.kept_per_period() * d_code.period();
    if (end < d_L + d_D)
        return 0;
    return std::clamp<int64_t>((end - d_L) / d_D - s.first_pb, 0, d_batch);
}

viterbi_async_stream::slot* viterbi_async_stream::filling_slot()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    slot& s = d_slots[d_fill];
    if (s.st == state::free) {
        s.st = state::filling;
        s.stage0 = d_carry_stage0;
        s.first_pb = d_next_pb;
        s.held = d_carry.size();
        s.read = 0;
        s.n_pbs = 0;
        if (!d_carry.empty()) // (an empty vector's data() may be null)
            std::memcpy(s.in->data(), d_carry.data(), d_carry.size());
    }
    return s.st == state::filling ? &s : nullptr;
}

void viterbi_async_stream::submit(slot& s, int64_t n)
{
    const int64_t P = d_code.period(), K = d_code.kept_per_period();
    const int64_t next_pb = s.first_pb + n;
    int64_t new0 = std::max<int64_t>(0, next_pb * d_D - d_L);
    new0 -= new0 % P;
    const size_t offset = size_t((new0 - s.stage0) / P * K);
    d_carry.assign(reinterpret_cast<const int8_t*>(s.in->data()) + offset,
                   reinterpret_cast<const int8_t*>(s.in->data()) + s.held);
    d_carry_stage0 = new0;
    d_next_pb = next_pb;
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        s.n_pbs = n;
        s.st = state::submitted;
        d_fill = (d_fill + 1) % d_slots.size();
    }
    if (d_inline)
        process(s);
    else
        d_work.notify_one();
}

template <class Copy>
size_t viterbi_async_stream::push_any(size_t count, Copy&& copy)
{
    const size_t K = size_t(d_code.kept_per_period());
    const int64_t P = d_code.period();
    if (count % K != 0)
        throw std::invalid_argument("push: " + std::to_string(count) +
                                    " soft values is not a multiple of " + std::to_string(K));
    size_t taken = 0;
    while (taken < count) {
        slot* s = filling_slot();
        if (!s)
            break;
        int64_t target = (s->first_pb + d_batch) * int64_t(d_D) + d_L;
        target += (P - target % P) % P;
        const int64_t end = s->stage0 + int64_t(s->held / K) * P;
        const size_t room = size_t((target - end) / P) * K;
        const size_t n = std::min(count - taken, room);
        int8_t* dst = reinterpret_cast<int8_t*>(s->in->data()) + s->held;
        const size_t piece = (size_t(1) << 18) / K * K; // whole periods
        if (d_copy_pool && n >= 2 * piece) {
            const int64_t pieces = int64_t((n + piece - 1) / piece);
            d_copy_pool->parallel_for(pieces, [&](int64_t i, int) {
                const size_t a = size_t(i) * piece, b = std::min(n, a + piece);
                copy(taken + a, b - a, dst + a);
            });
        } else {
            copy(taken, n, dst);
        }
        s->held += n;
        taken += n;
        if (complete_blocks(*s) >= d_batch)
            submit(*s, d_batch);
    }
    return taken;
}

size_t viterbi_async_stream::push(const int8_t* soft, size_t count)
{
    return push_any(count, [&](size_t from, size_t n, int8_t* dst) { std::memcpy(dst, soft + from, n); });
}

size_t viterbi_async_stream::push(const float* soft, size_t count, float scale, size_t* nans)
{
    std::atomic<size_t> bad{ 0 }; // the copies may run on several threads
    const size_t taken = push_any(count, [&](size_t from, size_t n, int8_t* dst) {
        bad += quantize_soft(soft + from, dst, n, scale);
    });
    if (nans)
        *nans += bad.load();
    return taken;
}

void viterbi_async_stream::flush()
{
    slot* s = filling_slot();
    if (!s)
        return;
    const int64_t n = complete_blocks(*s);
    if (n > 0)
        submit(*s, n);
}

size_t viterbi_async_stream::available() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t bits = 0;
    for (size_t i = 0, k = d_read; i < d_slots.size(); ++i, k = (k + 1) % d_slots.size()) {
        const slot& s = d_slots[k];
        if (s.st != state::decoded || s.error)
            break;
        bits += (size_t(s.n_pbs) * size_t(d_D) / 8 - s.read) * 8;
    }
    return bits;
}

bool viterbi_async_stream::holds_output() const
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        for (const auto& s : d_slots)
            if (s.st == state::submitted || s.st == state::decoded)
                return true;
        const slot& f = d_slots[d_fill];
        if (f.st == state::filling)
            return complete_blocks(f) > 0;
    }
    // only the carry: complete blocks in it (they go out with the next slot)
    slot probe;
    probe.stage0 = d_carry_stage0;
    probe.first_pb = d_next_pb;
    probe.held = d_carry.size();
    return complete_blocks(probe) > 0;
}

size_t viterbi_async_stream::in_flight() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (const auto& s : d_slots)
        n += s.st == state::submitted;
    return n;
}

void viterbi_async_stream::wait()
{
    std::unique_lock<std::mutex> lock(d_mutex);
    slot& s = d_slots[d_read];
    if (s.st == state::submitted)
        d_done.wait(lock, [&] { return s.st == state::decoded; });
}

size_t viterbi_async_stream::read(uint8_t* out, size_t max_bits, bool packed)
{
    size_t bits = 0;
    while (bits + 8 <= max_bits) {
        slot* s;
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            s = &d_slots[d_read];
            if (s->st != state::decoded)
                break;
            if (s->error) {
                std::exception_ptr e = s->error;
                s->error = nullptr;
                s->st = state::free;
                d_read = (d_read + 1) % d_slots.size();
                std::rethrow_exception(e);
            }
        }
        const size_t total = size_t(s->n_pbs) * size_t(d_D) / 8;
        const size_t bytes = std::min(total - s->read, (max_bits - bits) / 8);
        const uint8_t* src = s->out->data() + s->read;
        if (packed)
            std::memcpy(out + bits / 8, src, bytes);
        else
            unpack_bits(src, bytes * 8, out + bits);
        s->read += bytes;
        bits += bytes * 8;
        if (s->read == total) {
            std::lock_guard<std::mutex> lock(d_mutex);
            s->st = state::free;
            d_read = (d_read + 1) % d_slots.size();
        }
    }
    return bits;
}

void viterbi_async_stream::run()
{
    for (;;) {
        slot* s;
        {
            std::unique_lock<std::mutex> lock(d_mutex);
            d_work.wait(lock, [&] { return d_stop || d_slots[d_decode].st == state::submitted; });
            if (d_stop)
                return;
            s = &d_slots[d_decode];
        }
        process(*s);
    }
}

void viterbi_async_stream::process(slot& sl)
{
    slot* s = &sl;
    auto decode_with = [&](viterbi_stream_decoder& dec) {
        dec.decode_blocks(reinterpret_cast<const int8_t*>(s->in->data()), s->held, s->stage0, s->first_pb,
                          s->n_pbs, s->out->data());
    };
    std::exception_ptr error;
    try {
        decode_with(*d_dec);
    } catch (const std::exception& ex) {
        if (d_device.type == device_spec::kind::automatic && d_dec->backend().rfind("cuda", 0) == 0) {
            try {
                auto cpu = std::make_unique<viterbi_stream_decoder>(d_code, d_opts, device_spec::parse("cpu"));
                log(log_level::error, "Viterbi decoder " + d_dec->backend() + " failed (" + ex.what() +
                                          "); continuing on " + cpu->backend());
                decode_with(*cpu);
                std::lock_guard<std::mutex> lock(d_mutex);
                d_retired.push_back(std::move(d_dec));
                d_dec = std::move(cpu);
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
        s->error = error;
        s->st = state::decoded;
        d_decode = (d_decode + 1) % d_slots.size();
    }
    d_done.notify_all();
}

} // namespace gpufec
