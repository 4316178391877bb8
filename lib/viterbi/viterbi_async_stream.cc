/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include "viterbi/viterbi_async_stream.h"

#include "runtime/cpu_pool.h"
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
    // GPU: one thread per parallel block, so a slot needs tens of thousands of blocks to keep
    // the kernel from being latency-bound (4096 capped a flowgraph at about 3.3 Gb/s); under
    // light traffic slots go out partly filled anyway
    // CPU: 512 blocks (16 groups of 32 lanes), 256 a core beyond four cores (cpu_batch_units;
    // 8192 blocks on 16 cores measured 1.23-1.39 Gb/s against 4096's 1.45), at most 2^22 stages
    const size_t cpu_batch = std::max<size_t>(512, std::min(cpu_batch_units(512, 256), size_t(1 << 22) / size_t(d_D)));
    d_batch = batch > 0 ? batch : gpu ? 32768 : int(cpu_batch);
    if (d_batch > (1 << 20) || int64_t(d_batch) * d_D > (int64_t(1) << 28))
        throw std::invalid_argument("max_batch: " + std::to_string(d_batch) + " blocks of block_len " +
                                    std::to_string(d_D) +
                                    " stages exceed 2^28 stages per batch; use a smaller max_batch");
    if (depth < 2 || depth > 16)
        throw std::invalid_argument("depth: must be 2..16");
    d_dec->reserve(d_batch);
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
        d_copy_pool = get_cpu_pool(int(std::min(4u, hw / 2))); // a small private pool
    // CPU: decode in the caller's thread (the engine's pool uses every core); GPU: a thread
    d_ring = std::make_unique<slot_ring>(d_slots.size(), !gpu && cpu_decodes_inline(),
                                         [this](size_t i) { decode_slot(i); });
}

viterbi_async_stream::~viterbi_async_stream() = default;

std::string viterbi_async_stream::backend() const
{
    std::lock_guard<std::mutex> lock(d_dec_mutex);
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
    d_filling = d_ring->filling([this](size_t i) {
        slot& s = d_slots[i];
        s.stage0 = d_carry_stage0;
        s.first_pb = d_next_pb;
        s.held = d_carry.size();
        s.read = 0;
        s.n_pbs = 0;
        if (!d_carry.empty()) // (an empty vector's data() may be null)
            std::memcpy(s.in->data(), d_carry.data(), d_carry.size());
    });
    return d_filling == slot_ring::none ? nullptr : &d_slots[d_filling];
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
    s.n_pbs = n;
    d_submitted++;
    d_submitted_blocks += uint64_t(n);
    d_filling = slot_ring::none;
    d_ring->submit();
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
    size_t bits = 0;
    d_ring->for_each_ready([&](size_t i) {
        bits += (size_t(d_slots[i].n_pbs) * size_t(d_D) / 8 - d_slots[i].read) * 8;
    });
    return bits;
}

bool viterbi_async_stream::holds_output() const
{
    if (d_ring->unreleased() > 0)
        return true;
    if (d_filling != slot_ring::none)
        return complete_blocks(d_slots[d_filling]) > 0;
    // only the carry: complete blocks in it (they go out with the next slot)
    slot probe;
    probe.stage0 = d_carry_stage0;
    probe.first_pb = d_next_pb;
    probe.held = d_carry.size();
    return complete_blocks(probe) > 0;
}

size_t viterbi_async_stream::in_flight() const { return d_ring->in_flight(); }

int64_t viterbi_async_stream::pending_blocks() const
{
    return d_filling == slot_ring::none ? 0 : complete_blocks(d_slots[d_filling]);
}

void viterbi_async_stream::wait() { d_ring->front(true); }

bool viterbi_async_stream::wait_for(std::chrono::microseconds max_wait)
{
    return d_ring->front_within(max_wait) != slot_ring::none;
}

size_t viterbi_async_stream::read(uint8_t* out, size_t max_bits, bool packed)
{
    size_t bits = 0;
    while (bits + 8 <= max_bits) {
        const size_t i = d_ring->front(false);
        if (i == slot_ring::none)
            break;
        slot& s = d_slots[i];
        const size_t total = size_t(s.n_pbs) * size_t(d_D) / 8;
        const size_t bytes = std::min(total - s.read, (max_bits - bits) / 8);
        const uint8_t* src = s.out->data() + s.read;
        if (packed) {
            std::memcpy(out + bits / 8, src, bytes);
        } else if (d_copy_pool) {
            // one byte per bit out: split over the helpers like the copies in (8 bytes out a byte in)
            uint8_t* dst = out + bits;
            parallel_ranges(*d_copy_pool, bytes, 8, [&](size_t a, size_t b) {
                unpack_bits(src + a, (b - a) * 8, dst + a * 8);
            });
        } else {
            unpack_bits(src, bytes * 8, out + bits);
        }
        s.read += bytes;
        bits += bytes * 8;
        if (s.read == total)
            d_ring->release_front();
    }
    return bits;
}

void viterbi_async_stream::decode_slot(size_t i)
{
    const slot& s = d_slots[i];
    auto decode_with = [&](viterbi_stream_decoder& dec) {
        dec.decode_blocks(reinterpret_cast<const int8_t*>(s.in->data()), s.held, s.stage0, s.first_pb, s.n_pbs,
                          s.out->data());
    };
    try {
        decode_with(*d_dec);
    } catch (const std::exception& ex) {
        if (d_device.type != device_spec::kind::automatic || d_dec->backend().rfind("cuda", 0) != 0)
            throw;
        auto cpu = std::make_unique<viterbi_stream_decoder>(d_code, d_opts, device_spec::parse("cpu"));
        log(log_level::error,
            "Viterbi decoder " + d_dec->backend() + " failed (" + ex.what() + "); continuing on " + cpu->backend());
        decode_with(*cpu);
        std::lock_guard<std::mutex> lock(d_dec_mutex);
        d_retired.push_back(std::move(d_dec));
        d_dec = std::move(cpu);
    }
}

} // namespace gpufec
