/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The turbo constituent codes as compile-time functions for the CUDA and SIMD decoders, so that
 * state indices are constants and the metrics stay in registers: LTE (feedback 13, feed-forward
 * 15 octal) and CCSDS (23; 33, 25, 37), state bit 0 = the newest register value.
 * rsc_matches() checks them against the codes layer's trellis. */
#ifndef INCLUDED_GPUFEC_TURBO_RSC_H
#define INCLUDED_GPUFEC_TURBO_RSC_H

#include <gnuradio/gpufec/core/codes/trellis.h>

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

/*! The constituent codes the lanes run, as compile-time functions of (state, input): the
 *  codes layer's convention (state bit 0 = the newest register value, a = x ^ feedback). The
 *  engines check them against the codes layer's trellis (matches()). */
struct lte_rsc {
    static constexpr int S = 8, NP = 1, TAIL = 3; // states, parity outputs, tail stages
    static constexpr int fb(int s) { return lte_fb(s); }
    static constexpr int next(int s, int x) { return lte_next(s, x); }
    static constexpr int prev(int n, int h) { return lte_prev(n, h); }
    static constexpr int prev_x(int n, int h) { return lte_prev_x(n, h); }
    static constexpr int par(int, int s, int x) { return lte_par(s, x); }
};

//! CCSDS 131.0-B: feedback G0 = 23, parities G1 = 33, G2 = 25, G3 = 37 (octal), 16 states
struct ccsds_rsc {
    static constexpr int S = 16, NP = 3, TAIL = 4;
    static constexpr int fb(int s) { return ((s >> 2) ^ (s >> 3)) & 1; }
    static constexpr int a(int s, int x) { return x ^ fb(s); }
    static constexpr int next(int s, int x) { return ((s << 1) | a(s, x)) & 15; }
    static constexpr int prev(int n, int h) { return (n >> 1) | (h << 3); }
    static constexpr int prev_x(int n, int h) { return (n & 1) ^ fb(prev(n, h)); }
    static constexpr int par(int j, int s, int x)
    {
        const int v = a(s, x);
        return j == 0   ? (v ^ s ^ (s >> 2) ^ (s >> 3)) & 1               // 33: D^0 D^1 D^3 D^4
               : j == 1 ? (v ^ (s >> 1) ^ (s >> 3)) & 1                   // 25: D^0 D^2 D^4
                        : (v ^ s ^ (s >> 1) ^ (s >> 2) ^ (s >> 3)) & 1;   // 37: D^0 .. D^4
    }
};

//! true when the code's functions give the trellis `t` (next states, parities, tail inputs)
template <class C>
bool rsc_matches(const trellis& t)
{
    if (int(t.states()) != C::S || t.n() != C::NP + 1)
        return false;
    for (int s = 0; s < C::S; ++s)
        for (int x = 0; x < 2; ++x) {
            if (int(t.next_state(uint32_t(s), uint32_t(x))) != C::next(s, x) ||
                int(t.termination_input(uint32_t(s))) != C::fb(s))
                return false;
            for (int j = 0; j < C::NP; ++j)
                if (int((t.output(uint32_t(s), uint32_t(x)) >> (j + 1)) & 1u) != C::par(j, s, x))
                    return false;
        }
    return true;
}

//! true when `t` is the LTE constituent code these functions describe
inline bool lte_trellis_matches(const trellis& t) { return rsc_matches<lte_rsc>(t); }

} // namespace gpufec

#endif
