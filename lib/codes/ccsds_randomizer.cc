/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/ccsds_randomizer.h>

namespace gpufec {

const std::vector<uint8_t>& ccsds_pn_sequence()
{
    static const std::vector<uint8_t> seq = [] {
        std::vector<uint8_t> p(255);
        // p[i + 8] = p[i + 7] ^ p[i + 5] ^ p[i + 3] ^ p[i]: h(x) = x^8 + x^7 + x^5 + x^3 + 1
        for (size_t i = 0; i < 8; ++i)
            p[i] = 1;
        for (size_t i = 8; i < p.size(); ++i)
            p[i] = p[i - 1] ^ p[i - 3] ^ p[i - 5] ^ p[i - 8];
        return p;
    }();
    return seq;
}

void ccsds_randomize(uint8_t* bits, size_t n)
{
    const auto& p = ccsds_pn_sequence();
    for (size_t i = 0, j = 0; i < n; ++i, j = j + 1 == p.size() ? 0 : j + 1)
        bits[i] ^= p[j];
}

void ccsds_randomize_packed(uint8_t* bytes, size_t n)
{
    // the sequence packed: 255 bytes hold 8 periods, so whole bytes repeat every 255 bytes
    static const std::vector<uint8_t> packed = [] {
        const auto& p = ccsds_pn_sequence();
        std::vector<uint8_t> b(255, 0);
        for (size_t i = 0; i < 255 * 8; ++i)
            b[i / 8] |= uint8_t(p[i % 255] << (7 - i % 8));
        return b;
    }();
    const size_t whole = n / 8;
    for (size_t i = 0, j = 0; i < whole; ++i, j = j + 1 == packed.size() ? 0 : j + 1)
        bytes[i] ^= packed[j];
    const auto& p = ccsds_pn_sequence();
    for (size_t i = whole * 8; i < n; ++i)
        bytes[i / 8] ^= uint8_t(p[i % 255] << (7 - i % 8));
}

template <typename T>
static void randomize_soft(T* values, size_t n)
{
    const auto& p = ccsds_pn_sequence();
    for (size_t i = 0, j = 0; i < n; ++i, j = j + 1 == p.size() ? 0 : j + 1)
        if (p[j])
            values[i] = T(-values[i]);
}

void ccsds_randomize_soft(float* values, size_t n) { randomize_soft(values, n); }
// (-(-128) wraps to -128 in int8; soft values stay within [-127, 127] by the quantiser's rule)
void ccsds_randomize_soft(int8_t* values, size_t n) { randomize_soft(values, n); }

} // namespace gpufec
