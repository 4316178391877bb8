/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Reading packed 4-bit soft values (runtime/soft.h, pack_soft4): shared by unpack_soft4 and
 * the decoders that read packed input in place (the CUDA Viterbi, turbo and LDPC kernels), so
 * all give the same int8 values. */
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

/*! Four packed 4-bit values, the two bytes `h` (little-endian: value 0 in the low nibble), as four
 *  int8 in a word, lowest byte first, each as soft4_value reads it: the nibble to the high half of
 *  its byte (16 q, sign-extended) and -8 (the byte -128) read as -7 (-112, 0x90). For kernels that
 *  load a codeword four values at a time. */
GPUFEC_HD uint32_t soft4_word4(uint32_t h)
{
    const uint32_t w = ((h & 0xfu) << 4) | ((h & 0xf0u) << 8) | ((h & 0xf00u) << 12) | ((h & 0xf000u) << 16);
    // 0x80 in each byte of w that is 0x80 (exact, no carry between bytes), then 0x10 there
    const uint32_t x = w ^ 0x80808080u;
    const uint32_t at128 = ~(((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x | 0x7f7f7f7fu);
    return w | (at128 >> 3);
}

} // namespace gpufec

#endif
