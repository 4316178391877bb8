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
#include <cstring>

// every function here is inlined into its caller, so the ABI of vector arguments and results
// between instruction sets never applies (the engines that include this silence the same
// warning for their own files: GCC reports a template where it was written)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

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
// int8 lanes that engines compute in (saturating), with int16 lanes of as many for their sums
typedef int8_t i8x64 __attribute__((vector_size(64), aligned(16)));
typedef int16_t i16x64 __attribute__((vector_size(128), aligned(16)));

//! LANES int64: each lane's next eight bytes (simd_transpose_bytes)
template <int LANES>
struct simd_words;
template <>
struct simd_words<4> {
    typedef int64_t type __attribute__((vector_size(32), aligned(16)));
};
template <>
struct simd_words<8> {
    typedef int64_t type __attribute__((vector_size(64), aligned(16)));
};
template <>
struct simd_words<16> {
    typedef int64_t type __attribute__((vector_size(128), aligned(16)));
};
template <>
struct simd_words<32> {
    typedef int64_t type __attribute__((vector_size(256), aligned(16)));
};
template <>
struct simd_words<64> {
    typedef int64_t type __attribute__((vector_size(512), aligned(16)));
};

/*! Eight bytes of each of LANES streams as eight vectors of lanes, sign-extended:
 *  out[k][l] = from[l][at + k]. One 8-byte load a lane and vector shifts, where filling lanes
 *  byte by byte costs a load and a store a lane and byte (the engines' inputs are a codeword or a
 *  stream a lane, lanes apart in memory). */
template <class V, int LANES>
__attribute__((always_inline)) inline void simd_transpose_bytes(const int8_t* const* from, size_t at, V* out)
{
    typedef typename simd_words<LANES>::type W;
    W x;
    for (int l = 0; l < LANES; ++l)
        std::memcpy(&x[l], from[l] + at, 8);
    for (int k = 0; k < 8; ++k) // (byte k of each lane's word)
        out[k] = __builtin_convertvector((x << (W{} + int64_t(56 - 8 * k))) >> (W{} + int64_t(56)), V);
}

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

#pragma GCC diagnostic pop

#endif
