/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder that the fast CPU path and the CUDA decoder share,
 * bit for bit. Integer arithmetic only, so any order of evaluation gives the same values:
 *  - input: int8 soft values (positive = bit 1), -128 read as -127;
 *  - branch metric of (state s, input x): x (sys + apri) + p par, p the parity of (s, x);
 *  - alpha, beta: normalised after every information stage by subtracting the metric of
 *    state 0 (one broadcast on the GPU, not a reduction); unknown states start at -UNKNOWN;
 *    boundaries of the first iteration are 0 (uniform);
 *  - windows of W stages, W a multiple of 8, the last one shorter; training T, a multiple of 8
 *    (8..64): window [k0, k1)'s forward recursion starts at max(k0 - T, 0) and its backward
 *    recursion at min(k1 + T, K). At 0 from the known start; at K from the known end through
 *    the 3 tail stages (input = feedback, not normalised); elsewhere from the metric stored
 *    there in the previous iteration (0 in the first) by the window whose own stages hold
 *    that boundary: the alpha before stage p, the beta after the backward step of stage p;
 *  - extrinsic: max over (s, x=1) minus max over (s, x=0) of alpha + p par + beta, scaled by
 *    scale16 / 16 with an arithmetic shift (floor), clamped to +-EXT_MAX;
 *  - decision after the second half-iteration: sys + apri + extrinsic (unscaled) > 0.
 *
 * Why every metric, and every sum the recursions and the extrinsic form, fits int16 without a
 * clamp (the GPU adds and maxes pairs of int16; the CPU computes in int and gets the same):
 * a branch metric g lies in [-G, G], G = 127 + EXT_MAX + 127 = 2301. Any state reaches any
 * state in exactly 3 stages, so 3 or more stages after any start the spread of the metrics is at
 * most 3 (2G) = 13806; normalised, they lie in [-13806, 13806]. Within 2 stages of a start whose
 * spread is S they lie in [-S - 4G, 13806]: S = UNKNOWN = 8192 at a known start, S <= 13806 at
 * stored boundaries (T >= 8 puts every stored boundary 8 or more stages from its start), hence
 * >= -23010, and a sum metric + g >= -25311. In the extrinsic, the alphas within 2 stages of a
 * start are those of the frame's first stages (spread 8192: >= -17396); betas there are 8 or
 * more stages from theirs (>= -13806), so alpha + beta + par >= -31329 > -32768. The tail betas
 * are sums of 3 tail branch metrics of int8 values. */
#ifndef INCLUDED_GPUFEC_TURBO_FIXED_H
#define INCLUDED_GPUFEC_TURBO_FIXED_H

#include <gnuradio/gpufec/core/codes/trellis.h>
#include <cstdint>

#include "runtime/host_device.h"

namespace gpufec {
namespace turbo_fx {

constexpr int STATES = 8;
constexpr int EXT_MAX = 2047;
constexpr int UNKNOWN = 8192; //!< not larger: see the int16 bound above
constexpr int MAX_WINDOW = 256; //!< longer windows gain nothing
constexpr int GPU_WINDOW = 16;  //!< the CUDA decoder keeps a window's alphas in registers
//! the CPU-only int8 engine's default window: with training 32, half a training stage a stage
//! decoded against the GPU window's four (twice the speed at K = 6144), at the same error rate
constexpr int CPU_INT8_WINDOW = 128;
//! a window the fixed-point decoder takes: a multiple of 8 (the int16 bound above) up to MAX_WINDOW
GPUFEC_HD bool valid_window(int w) { return w >= 8 && w <= MAX_WINDOW && w % 8 == 0; }
//! the training lengths the CUDA decoder is compiled for
GPUFEC_HD bool gpu_training(int t) { return t == 16 || t == 24 || t == 32; }
//! default training stages: a window's recursions start this far outside it
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
GPUFEC_HD int16_t scale_ext(int e, int scale16)
{
    int s = (e * scale16) >> 4; // arithmetic shift: floor
    s = s > EXT_MAX ? EXT_MAX : s;
    s = s < -EXT_MAX ? -EXT_MAX : s;
    return int16_t(s);
}
GPUFEC_HD int max2(int a, int b) { return a > b ? a : b; }

//! the beta into the last stage from the 3 tail stages, tail stage j taking the values (x, p) =
//! (tv[2 j], tv[2 j + 1]) (already through soft_in): the input is the feedback, not normalised
inline void tail_betas(const rsc_tables& T, const int (&tv)[6], int (&b)[STATES])
{
    for (int s = 0; s < STATES; ++s)
        b[s] = s == 0 ? 0 : -UNKNOWN;
    for (int j = 2; j >= 0; --j) {
        int bn[STATES];
        for (int s = 0; s < STATES; ++s) {
            const int x = T.term[s];
            bn[s] = b[T.next[s * 2 + x]] + x * tv[2 * j] + T.par[s * 2 + x] * tv[2 * j + 1];
        }
        for (int s = 0; s < STATES; ++s)
            b[s] = bn[s];
    }
}

} // namespace turbo_fx
} // namespace gpufec

#endif
