/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "simd_isa.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gpufec {

simd_isa detect_simd_isa()
{
    simd_isa isa = simd_isa::baseline;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f"))
        isa = simd_isa::avx512;
    else if (__builtin_cpu_supports("avx2"))
        isa = simd_isa::avx2;
#endif
    if (const char* cap = std::getenv("GPUFEC_SIMD")) {
        const std::string c = cap;
        const simd_isa want = c == "avx512" ? simd_isa::avx512
                              : c == "avx2" ? simd_isa::avx2
                              : c == "baseline"
                                  ? simd_isa::baseline
                                  : throw std::invalid_argument(
                                        "GPUFEC_SIMD: '" + c +
                                        "' is not valid (allowed: avx512, avx2, baseline)");
        isa = std::min(isa, want);
    }
    return isa;
}

const char* simd_isa_name(simd_isa isa)
{
    return isa == simd_isa::avx512 ? "avx512" : isa == simd_isa::avx2 ? "avx2" : "baseline";
}

} // namespace gpufec
