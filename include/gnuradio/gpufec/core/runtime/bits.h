/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_BITS_H
#define INCLUDED_GPUFEC_CORE_BITS_H

#include <cstddef>
#include <cstdint>

namespace gpufec {

//! bits (one per byte) -> bytes, MSB first, as GNU Radio's pack_k_bits_bb(8); the last byte is
//! zero-padded when nbits is not a multiple of 8
void pack_bits(const uint8_t* bits, size_t nbits, uint8_t* bytes);
//! bytes, MSB first -> nbits bits (one per byte)
void unpack_bits(const uint8_t* bytes, size_t nbits, uint8_t* bits);
//! how many of the first nbits bits of two MSB-first packed arrays differ
size_t packed_bit_differences(const uint8_t* a, const uint8_t* b, size_t nbits);
//! ORs nbits bits of `src` from bit `src_bit` into `dst` from bit `dst_bit` (both packed MSB
//! first), 56 at a time; the destination's bits there must be clear. Reads and writes only the
//! bytes that hold the two ranges.
void copy_packed_bits(const uint8_t* src, size_t src_bit, uint8_t* dst, size_t dst_bit, size_t nbits);
//! bit i of bits packed MSB first
inline uint8_t packed_bit(const uint8_t* bytes, size_t i) { return uint8_t((bytes[i / 8] >> (7 - i % 8)) & 1); }
//! sets bit i of bits packed MSB first where `bit` is 1 (the byte starts cleared)
inline void set_packed_bit(uint8_t* bytes, size_t i, unsigned bit)
{
    bytes[i / 8] |= uint8_t((bit & 1u) << (7 - i % 8));
}

} // namespace gpufec

#endif
