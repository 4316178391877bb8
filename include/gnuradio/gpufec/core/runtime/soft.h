/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_SOFT_H
#define INCLUDED_GPUFEC_CORE_SOFT_H

#include <cstddef>
#include <cstdint>

namespace gpufec {

/*! The one place where float soft values become int8 (docs/soft_input.md).
 *
 *  q = round(clamp(scale * x, -127, 127)), halves away from zero; positive means bit 1
 *  (gr-fec's convention).
 *  NaN becomes 0 (an erasure: no information), +Inf/-Inf become +127/-127.
 *  The default scale, 32, maps BPSK symbols of amplitude 1 to +-32, leaving room up to
 *  about 4 before clipping. Returns how many inputs were NaN. */
constexpr float default_soft_scale = 32.0f;
size_t quantize_soft(const float* in, int8_t* out, size_t n, float scale = default_soft_scale);

/*! For decoders that take float values as they are (LLRs): copies in to out with NaN as an
 *  erasure (0) and infinities clamped to +-1e30. Returns how many inputs were NaN. */
size_t sanitize_soft(const float* in, float* out, size_t n);

//! int8 soft values as float for decoders that take float (-128 acts as -127, as everywhere)
void widen_soft(const int8_t* in, float* out, size_t n);

} // namespace gpufec

#endif
