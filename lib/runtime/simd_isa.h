/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The SIMD instruction set the CPU engines use: the widest the processor has, capped by the
 * environment variable GPUFEC_SIMD (avx512, avx2 or baseline; for comparisons and tests). */
#ifndef INCLUDED_GPUFEC_RUNTIME_SIMD_ISA_H
#define INCLUDED_GPUFEC_RUNTIME_SIMD_ISA_H

namespace gpufec {

enum class simd_isa { baseline, avx2, avx512 };

simd_isa detect_simd_isa();
const char* simd_isa_name(simd_isa isa);

} // namespace gpufec

#endif
