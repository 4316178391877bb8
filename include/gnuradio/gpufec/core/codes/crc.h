/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The codes layer's cyclic redundancy checks, over bits (one per byte), MSB first, not
 * reflected (the convention of 3GPP and CCSDS): the register starts at `init`, each bit enters
 * at the top, and the parity bits appended to a block are the register's bits from the highest
 * degree down, after `xorout`. */
#ifndef INCLUDED_GPUFEC_CORE_CRC_H
#define INCLUDED_GPUFEC_CORE_CRC_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

struct crc_spec {
    int width = 0;       //!< 1..32
    uint32_t poly = 0;   //!< generator without the x^width term (x^24 + x^23 + x + 1 -> 0x800003)
    uint32_t init = 0;
    uint32_t xorout = 0;
    std::string name;

    /*! "lte-24a", "lte-24b", "lte-16", "lte-8" (TS 36.212 5.1.1), "ccsds-16" (CCSDS 132.0-B
     *  frame error control: x^16 + x^12 + x^5 + 1, register initialised to ones), "ccsds-32" (CCSDS 142.0-B-1
     *  3.6: x^32 + x^29 + x^18 + x^14 + x^3 + 1, register initialised to ones). Unknown names
     *  throw std::invalid_argument listing these. */
    static crc_spec named(const std::string& name);
    static std::vector<std::string> names();
};

//! the register after `nbits` bits (one per byte)
uint32_t crc_bits(const crc_spec& spec, const uint8_t* bits, size_t nbits);
//! the same over bytes, MSB first (for check values such as CRC("123456789"))
uint32_t crc_bytes(const crc_spec& spec, const uint8_t* bytes, size_t n);
//! appends the width parity bits to `bits`
void crc_append(const crc_spec& spec, std::vector<uint8_t>& bits);
//! true when the last width bits of the block are the CRC of the ones before
bool crc_check(const crc_spec& spec, const uint8_t* bits, size_t nbits_with_crc);

} // namespace gpufec

#endif
