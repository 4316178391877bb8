/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* 16x2-bit SIMD and byte-permute helpers of the CUDA Viterbi kernels: native on sm_90 (the DPX
 * generation), emulated before it. Path metrics are two signed 16-bit lanes a word; branch
 * metrics are int8 bytes that one PRMT spreads into such lanes. */
#ifndef INCLUDED_GPUFEC_VITERBI_VIT_CUDA_SIMD_CUH
#define INCLUDED_GPUFEC_VITERBI_VIT_CUDA_SIMD_CUH

#include <cstdint>

namespace gpufec {
namespace vit_simd {

__device__ __forceinline__ uint32_t add2(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("add.s16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return __vadd2(a, b);
#endif
}
__device__ __forceinline__ uint32_t sub2(uint32_t a, uint32_t b) { return __vsub2(a, b); }
__device__ __forceinline__ uint32_t min2(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("min.s16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return __vmins2(a, b);
#endif
}
//! PTX prmt in its default mode: a selector nibble's bit 3 replicates the chosen byte's sign
//! (which __byte_perm does not offer), so one instruction sign-extends int8 metrics to 16 bits.
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
    return r;
}
__device__ __forceinline__ uint32_t pack_bytes(int b0, int b1, int b2, int b3)
{
    return (uint32_t(b0) & 0xff) | ((uint32_t(b1) & 0xff) << 8) | ((uint32_t(b2) & 0xff) << 16) |
           ((uint32_t(b3) & 0xff) << 24);
}

} // namespace vit_simd
} // namespace gpufec

#endif
