/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* When a decoder block sends a batch that is not full, the one rule both blocks (frames and
 * streaming Viterbi) follow. GNU Radio calls work() again at once between two arrivals of
 * input, so "the decoder is idle" alone would send every call's input as its own batch (on the
 * GPU a latency-bound few thousand frames or blocks). A partial batch goes out on an idle
 * decoder once it is large enough to keep the engine efficient, or once no input has come for
 * the stall time (light traffic: the latency stays bounded); the end of a stream is the
 * block's own case. With a batch in flight and nothing else to do, a block waits at most
 * max_wait for it and returns, so input arriving meanwhile is taken; holding a partial batch
 * on an idle decoder, it naps. */
#ifndef INCLUDED_GPUFEC_RUNTIME_PARTIAL_BATCH_H
#define INCLUDED_GPUFEC_RUNTIME_PARTIAL_BATCH_H

#include <chrono>
#include <cstddef>

namespace gpufec {

class partial_batch_policy
{
public:
    using clock = std::chrono::steady_clock;
    static constexpr std::chrono::microseconds max_wait{ 200 };
    static constexpr std::chrono::microseconds nap{ 50 };

    explicit partial_batch_policy(size_t efficient = 1,
                                  clock::duration stall = std::chrono::milliseconds(1))
        : d_efficient(efficient), d_stall(stall)
    {
    }

    /*! Once per work() call: input_now = a whole unit of input was there, idle = nothing in
     *  flight. Returns whether the input now counts as stalled. */
    bool update(bool input_now, bool idle, clock::time_point now)
    {
        if (input_now || !idle) {
            d_since = clock::time_point{};
            d_stalled = false;
        } else {
            if (d_since == clock::time_point{})
                d_since = now;
            d_stalled = now - d_since >= d_stall;
        }
        return d_stalled;
    }
    //! a partial batch of `pending` frames / blocks goes out now
    bool send(bool idle, size_t pending) const
    {
        return idle && pending > 0 && (d_stalled || pending >= d_efficient);
    }
    bool stalled() const { return d_stalled; }

private:
    size_t d_efficient;
    clock::duration d_stall;
    clock::time_point d_since{};
    bool d_stalled = false;
};

} // namespace gpufec

#endif
