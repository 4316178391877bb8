/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/crc.h>

#include <stdexcept>

namespace gpufec {

crc_spec crc_spec::named(const std::string& name)
{
    // generators from TS 36.212 5.1.1 (gCRC24A, gCRC24B, gCRC16, gCRC8) and CCSDS 142.0-B-1
    if (name == "lte-24a")
        return { 24, 0x864CFB, 0, 0, name }; // D^24+D^23+D^18+D^17+D^14+D^11+D^10+D^7+D^6+D^5+D^4+D^3+D+1
    if (name == "lte-24b")
        return { 24, 0x800063, 0, 0, name }; // D^24+D^23+D^6+D^5+D+1
    if (name == "lte-16")
        return { 16, 0x1021, 0, 0, name }; // D^16+D^12+D^5+1
    if (name == "lte-8")
        return { 8, 0x9B, 0, 0, name }; // D^8+D^7+D^4+D^3+D+1
    if (name == "ccsds-16") // CCSDS 132.0-B 4.1.4.2 (frame error control): x^16+x^12+x^5+1, init ones
        return { 16, 0x1021, 0xFFFF, 0, name };
    if (name == "ccsds-32")
        return { 32, 0x20044009, 0xFFFFFFFFu, 0, name }; // x^32+x^29+x^18+x^14+x^3+1, init ones
    throw std::invalid_argument("crc: '" + name +
                                "' is not known (allowed: lte-24a, lte-24b, lte-16, lte-8, ccsds-16, ccsds-32)");
}

std::vector<std::string> crc_spec::names() {
    return { "lte-24a", "lte-24b", "lte-16", "lte-8", "ccsds-16", "ccsds-32" };
}

namespace {
uint32_t mask(int width) { return width == 32 ? 0xFFFFFFFFu : ((1u << width) - 1); }

uint32_t step(const crc_spec& s, uint32_t reg, uint32_t bit)
{
    const uint32_t top = (reg >> (s.width - 1)) & 1u;
    reg = (reg << 1) & mask(s.width);
    return (top ^ (bit & 1u)) ? reg ^ s.poly : reg;
}
} // namespace

uint32_t crc_bits(const crc_spec& s, const uint8_t* bits, size_t nbits)
{
    if (s.width < 1 || s.width > 32)
        throw std::invalid_argument("crc: width must be 1..32");
    uint32_t reg = s.init & mask(s.width);
    for (size_t i = 0; i < nbits; ++i)
        reg = step(s, reg, bits[i]);
    return (reg ^ s.xorout) & mask(s.width);
}

uint32_t crc_bytes(const crc_spec& s, const uint8_t* bytes, size_t n)
{
    uint32_t reg = s.init & mask(s.width);
    for (size_t i = 0; i < n; ++i)
        for (int b = 7; b >= 0; --b)
            reg = step(s, reg, (bytes[i] >> b) & 1u);
    return (reg ^ s.xorout) & mask(s.width);
}

void crc_append(const crc_spec& s, std::vector<uint8_t>& bits)
{
    const uint32_t c = crc_bits(s, bits.data(), bits.size());
    for (int b = s.width - 1; b >= 0; --b)
        bits.push_back(uint8_t((c >> b) & 1u));
}

bool crc_check(const crc_spec& s, const uint8_t* bits, size_t n)
{
    if (n < size_t(s.width))
        return false;
    const size_t k = n - size_t(s.width);
    const uint32_t c = crc_bits(s, bits, k);
    for (int b = 0; b < s.width; ++b)
        if (((c >> (s.width - 1 - b)) & 1u) != (bits[k + size_t(b)] & 1u))
            return false;
    return true;
}

} // namespace gpufec
