/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Philox4x32-10 of many counters at once on the CPU: counters (c0 + i, c1, c2, c3) for
 * i < count, under one key, computed in SIMD lanes (16 with AVX-512, 8 with AVX2, 4 without;
 * the instruction set chosen at run time as the engines choose theirs). The same words as
 * philox4x32_10 counter by counter (tested); written out as four arrays, word w of counter i
 * at out[w][i]. For the CPU makers of simulation frames, whose values take a draw a pair. */
#ifndef INCLUDED_GPUFEC_SIM_PHILOX_LANES_H
#define INCLUDED_GPUFEC_SIM_PHILOX_LANES_H

#include "span_frames.h"
#include <cstddef>
#include <cstdint>

namespace gpufec {
namespace sim {

//! the most counters one call takes (the makers' chunks)
constexpr size_t philox_lanes_max = 256;

/*! out[w][i] = word w of philox4x32_10((c0 + i, c1, c2, c3), key), i < count <= philox_lanes_max
 *  (c0 + i wraps at 2^32 as the counter word does) */
using philox_many_fn = void (*)(span_key key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, size_t count,
                                uint32_t (*out)[philox_lanes_max]);
//! the widest this machine runs (GPUFEC_SIMD caps it, read now)
philox_many_fn pick_philox_many();

} // namespace sim
} // namespace gpufec

#endif
