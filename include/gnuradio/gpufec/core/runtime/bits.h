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

} // namespace gpufec

#endif
