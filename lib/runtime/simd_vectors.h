/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The SIMD vector types the CPU engines compute in (GCC/Clang vector extensions; a codeword or
 * frame per lane), and a broadcast. The engines compile their inner loops once per instruction
 * set (simd_isa.h) from these. */
#ifndef INCLUDED_GPUFEC_RUNTIME_SIMD_VECTORS_H
#define INCLUDED_GPUFEC_RUNTIME_SIMD_VECTORS_H

#include <cstdint>

namespace gpufec {

typedef int16_t i16x8 __attribute__((vector_size(16), aligned(16)));
typedef int32_t i32x4 __attribute__((vector_size(16), aligned(16)));
typedef int16_t i16x16 __attribute__((vector_size(32), aligned(16)));
typedef int32_t i32x8 __attribute__((vector_size(32), aligned(16)));
typedef int16_t i16x32 __attribute__((vector_size(64), aligned(16)));
typedef int32_t i32x16 __attribute__((vector_size(64), aligned(16)));
typedef int32_t i32x32 __attribute__((vector_size(128), aligned(16)));
// narrower lanes to store values the engines compute wider (the LDPC messages)
typedef int8_t i8x8 __attribute__((vector_size(8), aligned(8)));
typedef int8_t i8x16 __attribute__((vector_size(16), aligned(16)));
typedef int8_t i8x32 __attribute__((vector_size(32), aligned(16)));
typedef int16_t i16x4 __attribute__((vector_size(8), aligned(8)));

//! x in every lane
template <class V, int LANES, class S>
__attribute__((always_inline)) inline V simd_splat(S x)
{
    V v;
    for (int l = 0; l < LANES; ++l)
        v[l] = x;
    return v;
}

} // namespace gpufec

#endif
