/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS pseudo-randomizer (131.0-B section 10, also used by SCPPM's information blocks):
 * a 255-bit sequence added (XOR) to the data from its first bit on, restarting each frame, so
 * one call randomizes and de-randomizes. Telemetry applies it to the codeblock after the
 * attached sync marker (the marker itself is not randomized). */
#ifndef INCLUDED_GPUFEC_CORE_CODES_CCSDS_RANDOMIZER_H
#define INCLUDED_GPUFEC_CORE_CODES_CCSDS_RANDOMIZER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

//! one period of the sequence: 255 bits of h(x) = x^8 + x^7 + x^5 + x^3 + 1 from the all-ones
//! state (the first bytes FF 48 0E C0 9A 0D 70 BC)
const std::vector<uint8_t>& ccsds_pn_sequence();
//! adds the sequence, from its start and repeated every 255 bits, to n bits (one per byte)
void ccsds_randomize(uint8_t* bits, size_t n);
//! the same on n bits packed 8 a byte, MSB first
void ccsds_randomize_packed(uint8_t* bytes, size_t n);
//! the same on n soft values: the sign of each one whose sequence bit is 1 flips
void ccsds_randomize_soft(float* values, size_t n);
void ccsds_randomize_soft(int8_t* values, size_t n);

} // namespace gpufec

#endif
