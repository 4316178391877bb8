/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The ordered ring of batch slots behind every asynchronous decoder (async_decoder,
 * viterbi_async_stream): which slot is being filled, which are submitted, decoded or free, the
 * thread that decodes them in order (or none: decoding in submit()), and the waiting. What a
 * slot holds and how it is decoded belong to the owner, through decode(index). */
#ifndef INCLUDED_GPUFEC_CORE_SLOT_RING_H
#define INCLUDED_GPUFEC_CORE_SLOT_RING_H

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpufec {

/*! Whether a CPU decoder decodes its slots in submit(), on the caller's thread: on machines of up
 *  to 4 cores (its worker pool already uses every core, with the caller as one of its threads,
 *  and a decode thread of its own oversubscribed the 2-core machine); on larger ones a thread of
 *  its own decodes while the caller copies the next batch in and the last one out, as for a GPU.
 *  GPUFEC_CPU_DECODE_THREAD=auto|on|off overrides it (a tuning aid). */
bool cpu_decodes_inline();

class slot_ring
{
public:
    enum class state { free, filling, submitted, decoded };
    static constexpr size_t none = size_t(-1);

    /*! decode(i) decodes slot i (an exception is kept and rethrown by front()). inline_decode:
     *  decode in submit(), on the caller's thread; else on a thread of the ring's own. */
    slot_ring(size_t slots, bool inline_decode, std::function<void(size_t)> decode);
    ~slot_ring();
    slot_ring(const slot_ring&) = delete;
    slot_ring& operator=(const slot_ring&) = delete;

    size_t size() const { return d_states.size(); }
    //! the slot being filled (on_acquire(i) runs when a free slot becomes it), or none
    size_t filling(const std::function<void(size_t)>& on_acquire = nullptr);
    //! decode the slot being filled
    void submit();
    //! the oldest submitted slot once decoded (wait: until it is), else none; a slot whose
    //! decode threw is freed and its exception rethrown
    size_t front(bool wait);
    //! the same, waiting at most max_wait for the oldest submitted slot to be decoded
    size_t front_within(std::chrono::microseconds max_wait);
    void release_front();

    size_t in_flight() const;  //!< submitted, not yet decoded
    size_t unreleased() const; //!< submitted or decoded, not yet released
    //! f(i) for the decoded slots from the front, in order, while they are decoded
    void for_each_ready(const std::function<void(size_t)>& f) const;
    state slot_state(size_t i) const;

private:
    void run();
    void process(size_t i);

    std::function<void(size_t)> d_decode;
    std::vector<state> d_states;
    std::vector<std::exception_ptr> d_errors;
    size_t d_fill = 0, d_read = 0, d_next = 0;
    mutable std::mutex d_mutex;
    std::condition_variable d_work, d_done;
    bool d_stop = false;
    bool d_inline;
    std::thread d_thread;
};

} // namespace gpufec

#endif
