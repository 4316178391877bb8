/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Reading one packed 4-bit soft value (runtime/soft.h, pack_soft4): shared by unpack_soft4 and
 * the decoders that read packed input in place (the CUDA Viterbi kernels), so all give the
 * same int8 value. */
#ifndef INCLUDED_GPUFEC_RUNTIME_SOFT4_H
#define INCLUDED_GPUFEC_RUNTIME_SOFT4_H

#include "host_device.h"
#include <cstdint>

namespace gpufec {

//! the int8 value 16 q of value i of a packed 4-bit array (q in [-7, 7]; -8 reads as -7)
GPUFEC_HD int soft4_value(const uint8_t* packed, int64_t i)
{
    const uint32_t b = packed[i >> 1];
    const int v = int(int8_t(uint8_t((i & 1) ? (b & 0xf0) : (b << 4)))); // 16 q, q sign-extended
    return v < -112 ? -112 : v;
}

} // namespace gpufec

#endif
