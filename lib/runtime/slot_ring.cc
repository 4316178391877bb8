/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "runtime/slot_ring.h"

#include "runtime/tuning.h"
#include <stdexcept>
#include <string>

namespace gpufec {

bool cpu_decodes_inline()
{
    const std::string want = tuning_choice("GPUFEC_CPU_DECODE_THREAD", { "auto", "on", "off" }, "auto");
    return want == "auto" ? std::thread::hardware_concurrency() <= 4 : want == "off";
}

slot_ring::slot_ring(size_t slots, bool inline_decode, std::function<void(size_t)> decode)
    : d_decode(std::move(decode)), d_states(slots, state::free), d_errors(slots), d_inline(inline_decode)
{
    if (slots < 2)
        throw std::invalid_argument("slot_ring: at least 2 slots");
    if (!d_inline)
        d_thread = std::thread([this] { run(); });
}

slot_ring::~slot_ring()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_stop = true;
    }
    d_work.notify_all();
    if (d_thread.joinable())
        d_thread.join();
}

size_t slot_ring::filling(const std::function<void(size_t)>& on_acquire)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (d_states[d_fill] == state::free) {
        d_states[d_fill] = state::filling;
        if (on_acquire)
            on_acquire(d_fill);
    }
    return d_states[d_fill] == state::filling ? d_fill : none;
}

void slot_ring::submit()
{
    size_t i;
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_states[d_fill] != state::filling)
            throw std::logic_error("slot_ring::submit: no slot is being filled");
        i = d_fill;
        d_states[i] = state::submitted;
        d_fill = (d_fill + 1) % d_states.size();
    }
    if (d_inline)
        process(i);
    else
        d_work.notify_one();
}

size_t slot_ring::front(bool wait)
{
    return front_within(wait ? std::chrono::microseconds::max() : std::chrono::microseconds(0));
}

size_t slot_ring::front_within(std::chrono::microseconds max_wait)
{
    std::unique_lock<std::mutex> lock(d_mutex);
    const size_t i = d_read;
    if (d_states[i] != state::submitted && d_states[i] != state::decoded)
        return none;
    if (d_states[i] == state::submitted) {
        const auto decoded = [&] { return d_states[i] == state::decoded; };
        if (max_wait == std::chrono::microseconds::max())
            d_done.wait(lock, decoded);
        else if (max_wait.count() <= 0 || !d_done.wait_for(lock, max_wait, decoded))
            return none;
    }
    if (d_errors[i]) {
        std::exception_ptr e = d_errors[i];
        d_errors[i] = nullptr;
        d_states[i] = state::free; // the batch is lost; the caller reports it
        d_read = (d_read + 1) % d_states.size();
        std::rethrow_exception(e);
    }
    return i;
}

void slot_ring::release_front()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (d_states[d_read] != state::decoded)
        throw std::logic_error("slot_ring::release_front: the front slot is not decoded");
    d_states[d_read] = state::free;
    d_read = (d_read + 1) % d_states.size();
}

size_t slot_ring::in_flight() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (auto s : d_states)
        n += s == state::submitted;
    return n;
}

size_t slot_ring::unreleased() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (auto s : d_states)
        n += s == state::submitted || s == state::decoded;
    return n;
}

void slot_ring::for_each_ready(const std::function<void(size_t)>& f) const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    for (size_t k = 0, i = d_read; k < d_states.size(); ++k, i = (i + 1) % d_states.size()) {
        if (d_states[i] != state::decoded || d_errors[i])
            break;
        f(i);
    }
}

slot_ring::state slot_ring::slot_state(size_t i) const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_states[i];
}

void slot_ring::run()
{
    for (;;) {
        size_t i;
        {
            std::unique_lock<std::mutex> lock(d_mutex);
            d_work.wait(lock, [&] { return d_stop || d_states[d_next] == state::submitted; });
            if (d_stop)
                return;
            i = d_next;
        }
        process(i);
    }
}

void slot_ring::process(size_t i)
{
    std::exception_ptr error;
    try {
        d_decode(i);
    } catch (...) {
        error = std::current_exception();
    }
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_errors[i] = error;
        d_states[i] = state::decoded;
        d_next = (d_next + 1) % d_states.size();
    }
    d_done.notify_all();
}

} // namespace gpufec
