/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/bits.h>

namespace gpufec {

void pack_bits(const uint8_t* bits, size_t nbits, uint8_t* bytes)
{
    const size_t full = nbits / 8;
    for (size_t i = 0; i < full; ++i) {
        const uint8_t* b = bits + 8 * i;
        bytes[i] = static_cast<uint8_t>(((b[0] & 1) << 7) | ((b[1] & 1) << 6) | ((b[2] & 1) << 5) |
                                        ((b[3] & 1) << 4) | ((b[4] & 1) << 3) | ((b[5] & 1) << 2) |
                                        ((b[6] & 1) << 1) | (b[7] & 1));
    }
    if (nbits % 8) {
        uint8_t v = 0;
        for (size_t k = 0; k < nbits % 8; ++k)
            v |= static_cast<uint8_t>((bits[8 * full + k] & 1) << (7 - k));
        bytes[full] = v;
    }
}

void unpack_bits(const uint8_t* bytes, size_t nbits, uint8_t* bits)
{
    for (size_t i = 0; i < nbits; ++i)
        bits[i] = (bytes[i / 8] >> (7 - i % 8)) & 1;
}

} // namespace gpufec
