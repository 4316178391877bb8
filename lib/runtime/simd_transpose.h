/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Sixty-four bytes of each of 32 streams as 64 vectors of 32 int16 lanes, sign-extended (or
 * negated): out[k][l] = from[l][at + k]. The CPU engines' inputs are a codeword or a stream a
 * lane, lanes apart in memory; simd_transpose_bytes (simd_vectors.h) moves eight bytes a lane at
 * a time through generic vectors of 32 int64, which GCC builds lane by lane, so that the LDPC
 * engine spent a quarter to a third of its time at 10 iterations filling its lanes (one Xeon core, 802.16e
 * 2304). Here: one 64-byte load a lane and a transpose by unpacks (AVX-512BW), about seven
 * instructions a byte position instead of about sixty. x86-64 with AVX-512BW only: the caller
 * runs it where the engine took that instruction set (simd_isa). */
#ifndef INCLUDED_GPUFEC_RUNTIME_SIMD_TRANSPOSE_H
#define INCLUDED_GPUFEC_RUNTIME_SIMD_TRANSPOSE_H

#include "simd_vectors.h"
#include <cstddef>
#include <cstdint>

namespace gpufec {

#if defined(__x86_64__)
/*! out[k][l] = from[l][at + k] (negate: its negation) for k < 64, l < 32; out 64-byte aligned.
 *  Needs AVX-512F and AVX-512BW. */
void simd_transpose_64x32_i16(const int8_t* const* from, size_t at, i16x32* out, bool negate);
#endif

} // namespace gpufec

#endif
