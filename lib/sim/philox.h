/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3",
 * SC 2011): a counter-based generator. Its output is a pure function of a 128-bit counter and
 * a 64-bit key, so any value of a simulation can be drawn where it is needed, on the CPU or a
 * GPU thread, in any order, and the two give the same bits. */
#ifndef INCLUDED_GPUFEC_SIM_PHILOX_H
#define INCLUDED_GPUFEC_SIM_PHILOX_H

#include "runtime/host_device.h"
#include <cstdint>

namespace gpufec {
namespace sim {

struct philox4x32 {
    uint32_t v[4];
};

GPUFEC_HD uint32_t philox_mulhi(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

//! the 10-round Philox4x32 of counter c under key (k0, k1)
GPUFEC_HD philox4x32 philox4x32_10(philox4x32 c, uint32_t k0, uint32_t k1)
{
    constexpr uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u; // round multipliers
    constexpr uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u; // key schedule (Weyl sequence)
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += w0;
            k1 += w1;
        }
        const uint32_t hi0 = philox_mulhi(m0, c.v[0]), lo0 = m0 * c.v[0];
        const uint32_t hi1 = philox_mulhi(m1, c.v[2]), lo1 = m1 * c.v[2];
        c = philox4x32{ { hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0 } };
    }
    return c;
}

} // namespace sim
} // namespace gpufec

#endif
