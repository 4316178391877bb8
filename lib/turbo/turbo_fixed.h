/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder that the fast CPU path and the CUDA decoder share,
 * bit for bit. Integer arithmetic only, so any order of evaluation gives the same values:
 *  - input: int8 soft values (positive = bit 1), -128 read as -127;
 *  - branch metric of (state s, input x): x (sys + apri) + p par, p the parity of (s, x);
 *  - alpha, beta: int32 while computed, normalised after every information stage by
 *    subtracting the metric of state 0 (one broadcast on the GPU, not a reduction), then
 *    clamped to +-METRIC_MAX and stored as int16; unknown states start at -UNKNOWN;
 *    boundaries of the first iteration are 0 (uniform);
 *  - windows of W stages (the last one also runs the 3 tail stages, not normalised); a
 *    window's forward recursion starts min(TRAIN, W) stages before it and its backward
 *    recursion min(TRAIN, next window's length) stages after it, from the metrics its
 *    neighbours stored at those stages in the previous iteration (0 in the first);
 *  - extrinsic: max over (s, x=1) minus max over (s, x=0) of alpha + p par + beta, scaled by
 *    scale16 / 16 with an arithmetic shift (floor), clamped to +-EXT_MAX, stored as int16;
 *  - decision after the second half-iteration: sys + apri + extrinsic (unscaled) > 0. */
#ifndef INCLUDED_GPUFEC_TURBO_FIXED_H
#define INCLUDED_GPUFEC_TURBO_FIXED_H

#include <gnuradio/gpufec/core/trellis.h>
#include <cstdint>

#ifdef __CUDACC__
#define GPUFEC_HD __host__ __device__ __forceinline__
#else
#define GPUFEC_HD inline
#endif

namespace gpufec {
namespace turbo_fx {

constexpr int STATES = 8;
constexpr int EXT_MAX = 2047;
constexpr int METRIC_MAX = 30000;
constexpr int UNKNOWN = 16384;
constexpr int MAX_WINDOW = 256; //!< longer windows gain nothing and cost alpha memory on the GPU
//! training stages: a window's recursions start this far outside it, from the boundary
//! metrics the neighbouring window stored there in the previous iteration (at most W)
constexpr int TRAIN = 32;

//! the constituent code as small tables (passed to kernels by value)
struct rsc_tables {
    uint8_t next[STATES * 2];   //!< next state of (s, x) at s * 2 + x
    uint8_t par[STATES * 2];    //!< parity bit of (s, x)
    uint8_t term[STATES];       //!< tail input of s
};

inline rsc_tables make_tables(const trellis& t)
{
    rsc_tables r{};
    for (uint32_t s = 0; s < STATES; ++s) {
        for (uint32_t x = 0; x < 2; ++x) {
            r.next[s * 2 + x] = uint8_t(t.next_state(s, x));
            r.par[s * 2 + x] = uint8_t((t.output(s, x) >> 1) & 1u);
        }
        r.term[s] = uint8_t(t.termination_input(s));
    }
    return r;
}

GPUFEC_HD int soft_in(int8_t v) { return v < -127 ? -127 : int(v); }
GPUFEC_HD int clamp_metric(int v) { return v < -METRIC_MAX ? -METRIC_MAX : v > METRIC_MAX ? METRIC_MAX : v; }
GPUFEC_HD int16_t scale_ext(int e, int scale16)
{
    int s = (e * scale16) >> 4; // arithmetic shift: floor
    s = s > EXT_MAX ? EXT_MAX : s;
    s = s < -EXT_MAX ? -EXT_MAX : s;
    return int16_t(s);
}
GPUFEC_HD int max2(int a, int b) { return a > b ? a : b; }

} // namespace turbo_fx
} // namespace gpufec

#endif
