/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The LTE constituent code (feedback 13, feed-forward 15 octal; state bit 0 = the newest
 * register value) as compile-time functions for the CUDA and SIMD turbo decoders, so that state
 * indices are constants and the metrics stay in registers. lte_trellis_matches() checks them
 * against the codes layer. */
#ifndef INCLUDED_GPUFEC_TURBO_LTE_TRELLIS_H
#define INCLUDED_GPUFEC_TURBO_LTE_TRELLIS_H

#include <gnuradio/gpufec/core/trellis.h>

#ifdef __CUDACC__
#define GPUFEC_LTE_HD __host__ __device__
#else
#define GPUFEC_LTE_HD
#endif

namespace gpufec {

GPUFEC_LTE_HD constexpr int lte_fb(int s) { return ((s >> 1) ^ (s >> 2)) & 1; }
GPUFEC_LTE_HD constexpr int lte_next(int s, int x) { return ((s << 1) | (x ^ lte_fb(s))) & 7; }
GPUFEC_LTE_HD constexpr int lte_par(int s, int x)
{
    return (((s << 1) | (x ^ lte_fb(s))) ^ (s) ^ (s >> 2)) & 1; // a_t + a_t-1 + a_t-3
}
GPUFEC_LTE_HD constexpr int lte_prev(int n, int h) { return (n >> 1) | (h << 2); }
GPUFEC_LTE_HD constexpr int lte_prev_x(int n, int h) { return (n & 1) ^ lte_fb(lte_prev(n, h)); }

//! true when `t` is the code these functions describe
inline bool lte_trellis_matches(const trellis& t)
{
    if (t.states() != 8 || t.n() != 2)
        return false;
    for (int s = 0; s < 8; ++s)
        for (int x = 0; x < 2; ++x)
            if (int(t.next_state(uint32_t(s), uint32_t(x))) != lte_next(s, x) ||
                int((t.output(uint32_t(s), uint32_t(x)) >> 1) & 1u) != lte_par(s, x) ||
                int(t.termination_input(uint32_t(s))) != lte_fb(s))
                return false;
    return true;
}

} // namespace gpufec

#endif
