/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include <array>
#include <cstring>

namespace gpufec {

namespace {
// byte -> its eight bits, MSB first, as the eight bytes of one word (little-endian order);
// unpacking is then one table load and one 8-byte store per input byte (blocks hand out
// unpacked bits at several Gb/s, which a loop over bits does not reach)
std::array<uint64_t, 256> make_unpack_table()
{
    std::array<uint64_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
        uint8_t bytes[8];
        for (int j = 0; j < 8; ++j)
            bytes[j] = uint8_t((b >> (7 - j)) & 1);
        std::memcpy(&t[b], bytes, 8);
    }
    return t;
}
const std::array<uint64_t, 256> unpack_table = make_unpack_table();
} // namespace

size_t packed_bit_differences(const uint8_t* a, const uint8_t* b, size_t nbits)
{
    // eight bytes at a time, then the rest; the last byte's bits past nbits do not count
    const size_t whole = nbits / 8;
    size_t c = 0, i = 0;
    for (; i + 8 <= whole; i += 8) {
        uint64_t x, y;
        std::memcpy(&x, a + i, 8);
        std::memcpy(&y, b + i, 8);
        c += size_t(__builtin_popcountll(x ^ y));
    }
    for (; i < whole; ++i)
        c += size_t(__builtin_popcount(unsigned(a[i] ^ b[i])));
    if (nbits % 8)
        c += size_t(__builtin_popcount(unsigned(a[whole] ^ b[whole]) & (0xff00u >> (nbits % 8))));
    return c;
}

void pack_bits(const uint8_t* bits, size_t nbits, uint8_t* bytes)
{
    // eight bits (bit 0 of eight bytes) gathered MSB first by one multiplication: byte t's bit
    // lands at bit 63 - t of the product, and no two partial products share a bit
    const size_t full = nbits / 8;
    for (size_t i = 0; i < full; ++i) {
        uint64_t w;
        std::memcpy(&w, bits + 8 * i, 8);
        bytes[i] = static_cast<uint8_t>(((w & 0x0101010101010101ull) * 0x8040201008040201ull) >> 56);
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
    const size_t full = nbits / 8;
    for (size_t i = 0; i < full; ++i)
        std::memcpy(bits + 8 * i, &unpack_table[bytes[i]], 8);
    for (size_t i = full * 8; i < nbits; ++i)
        bits[i] = (bytes[i / 8] >> (7 - i % 8)) & 1;
}

void copy_packed_bits(const uint8_t* src, size_t src_bit, uint8_t* dst, size_t dst_bit, size_t nbits)
{
    // 56 bits a step: eight bytes read big-endian from the byte that holds src_bit, shifted to
    // put that bit on top (at most 7 places, so the top 56 are all from the range), then ORed
    // into the eight bytes from the one that holds dst_bit, shifted down by at most 7 (its low
    // byte zero: no bit past the 56 is touched). With 72 bits or more left, both windows lie
    // inside the bytes of their ranges; the rest goes a bit at a time.
    auto load_be = [](const uint8_t* p) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        return __builtin_bswap64(w);
    };
    while (nbits >= 72) {
        const uint64_t chunk = (load_be(src + src_bit / 8) << (src_bit % 8)) & ~uint64_t(0xff);
        const uint64_t out = load_be(dst + dst_bit / 8) | (chunk >> (dst_bit % 8));
        const uint64_t be = __builtin_bswap64(out);
        std::memcpy(dst + dst_bit / 8, &be, 8);
        src_bit += 56;
        dst_bit += 56;
        nbits -= 56;
    }
    for (size_t i = 0; i < nbits; ++i)
        set_packed_bit(dst, dst_bit + i, packed_bit(src, src_bit + i));
}

} // namespace gpufec
