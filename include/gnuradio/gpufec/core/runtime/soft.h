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

/*! Packed 4-bit soft values (docs/soft_input.md), half the bytes of int8 for decoders whose
 *  input crosses a link (the Viterbi decoders take them). Value i lies in byte i / 2, in the
 *  low nibble when i is even, the high one when odd, as a two's-complement number
 *  q in [-7, 7] that stands for the int8 value 16 q (-8 is read as -7). From int8:
 *  q = sign(v) * min(7, (|v| + 8) >> 4), i.e. v / 16 rounded half away from zero and clipped.
 *  `out` receives (n + 1) / 2 bytes; an odd n leaves the last high nibble 0. */
void pack_soft4(const int8_t* in, uint8_t* out, size_t n);
//! float values through quantize_soft (same scale, NaN as an erasure), then packed; returns NaNs
size_t pack_soft4(const float* in, uint8_t* out, size_t n, float scale = default_soft_scale);
//! the int8 values 16 q of n packed 4-bit values
void unpack_soft4(const uint8_t* in, int8_t* out, size_t n);

} // namespace gpufec

#endif
