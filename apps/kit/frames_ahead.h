/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the kits that make frames on a GPU (span frames, the drawn stream) keep between calls:
 * which of the maker's two slots holds a call's frames when they were made ahead, which frames
 * to make ahead for the next call, and the point's AWGN levels. */
#ifndef INCLUDED_GPUFEC_APPS_FRAMES_AHEAD_H
#define INCLUDED_GPUFEC_APPS_FRAMES_AHEAD_H

#include "sim/span_frames.h"
#include <cmath>
#include <cstdint>

namespace gpufec {
namespace app {

/*! The next call of a point most likely starts as far on from this call as this one did from
 *  the one before (the driver's rounds); a wrong guess costs only GPU time, as the frames asked
 *  for are then made at once. */
class frames_ahead
{
public:
    struct batch {
        uint64_t seed = 0, point = 0, first = 0, count = 0;
        double sigma = NAN;
        bool operator==(const batch& o) const
        {
            return seed == o.seed && point == o.point && first == o.first && count == o.count && sigma == o.sigma;
        }
    };
    //! the slot to read `b` from; `ready`: made ahead there
    int slot_for(const batch& b, bool& ready) const
    {
        ready = d_valid && d_pending == b;
        return d_valid ? d_slot : 0;
    }
    //! after `b` was read from `slot`: the batch to make ahead in the other slot (1 - slot)
    batch ahead_of(const batch& b, int slot)
    {
        const bool same_point = d_have_last && d_last.seed == b.seed && d_last.point == b.point;
        batch next = b;
        next.first = b.first + (same_point && b.first > d_last.first ? b.first - d_last.first : b.count);
        d_pending = next;
        d_slot = 1 - slot;
        d_valid = true;
        d_last = b;
        d_have_last = true;
        return next;
    }
    void reset() { d_valid = d_have_last = false; }

    /*! `want`'s frames: read where they were made ahead, or made now (start(slot, batch) puts a
     *  batch's making on the GPU, wait(slot) returns it); then the guess is started in the other
     *  slot, to be made while the caller decodes these */
    template <class Start, class Wait>
    auto made(const batch& want, Start&& start, Wait&& wait)
    {
        bool ready;
        const int slot = slot_for(want, ready);
        if (!ready)
            start(slot, want);
        auto got = wait(slot);
        start(1 - slot, ahead_of(want, slot));
        return got;
    }

private:
    batch d_pending, d_last;
    int d_slot = 0;
    bool d_valid = false, d_have_last = false;
};

//! a point's levels, made again only when the deviation or the scale changes
class levels_cache
{
public:
    const sim::awgn_levels& at(double sigma, double scale)
    {
        if (sigma != d_sigma || scale != d_scale) {
            d_levels = sim::make_awgn_levels(sigma, scale);
            d_sigma = sigma;
            d_scale = scale;
        }
        return d_levels;
    }

private:
    sim::awgn_levels d_levels{};
    double d_sigma = NAN, d_scale = NAN;
};

} // namespace app
} // namespace gpufec

#endif
