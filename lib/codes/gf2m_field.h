/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* GF(2^m) arithmetic by log and antilog tables, for the BCH decoders (bch.cc on the CPU, the
 * tables bch_gpu.cu copies to the GPU) and the Reed-Solomon codes (GF(2^8)). */
#ifndef INCLUDED_GPUFEC_CODES_GF2M_FIELD_H
#define INCLUDED_GPUFEC_CODES_GF2M_FIELD_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

//! the degree of a polynomial over GF(2) whose bit i is its coefficient of x^i (0 for 0 and 1)
inline int gf2_degree(uint32_t p)
{
    int d = 0;
    while (p >> (d + 1))
        ++d;
    return d;
}

//! GF(2^m) by log and antilog tables; exp is doubled so that exp[a + b] needs no reduction
struct gf2m_field {
    int m = 0, size = 0; // size = 2^m - 1, the multiplicative group's order
    std::vector<uint16_t> exp, log;

    gf2m_field(int bits, uint32_t primitive) : m(bits), size((1 << bits) - 1)
    {
        exp.assign(size_t(2 * size), 0);
        log.assign(size_t(size + 1), 0);
        uint32_t x = 1;
        for (int i = 0; i < size; ++i) {
            if (x == 1 && i > 0)
                throw std::invalid_argument("GF(2^" + std::to_string(bits) + "): the polynomial is not primitive (alpha has order " +
                                            std::to_string(i) + ", not " + std::to_string(size) + ")");
            exp[size_t(i)] = exp[size_t(i + size)] = uint16_t(x);
            log[x] = uint16_t(i);
            x <<= 1;
            if (x >> bits)
                x ^= primitive;
        }
        if (x != 1)
            throw std::invalid_argument("GF(2^" + std::to_string(bits) + "): the polynomial is not primitive");
    }
    uint16_t mul(uint16_t a, uint16_t b) const
    {
        return a && b ? exp[size_t(log[a]) + log[b]] : 0;
    }
    uint16_t div(uint16_t a, uint16_t b) const { return a ? exp[size_t(log[a]) + size - log[b]] : 0; }
    uint16_t pow_alpha(long long e) const { return exp[size_t(((e % size) + size) % size)]; }
    /*! The minimal polynomial of alpha^j over GF(2) (bit i its coefficient of x^i): the product
     *  of (x + alpha^e) over j's cyclotomic coset {j, 2j, 4j, ...}, whose coefficients are 0 or 1 */
    uint32_t minimal_polynomial(long long j) const
    {
        std::vector<uint16_t> mp{ 1 };
        const long long first = ((j % size) + size) % size;
        for (long long e = first;;) {
            const uint16_t root = exp[size_t(e)];
            std::vector<uint16_t> next(mp.size() + 1, 0);
            for (size_t a = 0; a < mp.size(); ++a) {
                next[a + 1] ^= mp[a];
                next[a] ^= mul(mp[a], root);
            }
            mp.swap(next);
            e = (e * 2) % size;
            if (e == first)
                break;
        }
        uint32_t bits = 0;
        for (size_t a = 0; a < mp.size(); ++a) {
            if (mp[a] > 1)
                throw std::logic_error("GF(2^" + std::to_string(m) + "): a minimal polynomial outside GF(2)");
            bits |= uint32_t(mp[a]) << a;
        }
        return bits;
    }
    /*! Whether c(x) = c[0] + c[1] x + ... + c[d] x^d (c[d] != 0, c[0] != 0) has d distinct
     *  roots in the field: whether it divides x^(2^m) - x, that is x^(2^m) = x mod c, by m
     *  squarings mod c (a square in characteristic 2 is the squares of the coefficients, each
     *  moved to twice its degree). About m d^2 products: a BCH decoder's test before its Chien
     *  search, which a locator failing it could only fail in n d products. d > 32: true (not
     *  tested). */
    bool splits_distinct(const uint16_t* c, int d) const
    {
        if (d <= 1 || d > 32)
            return d >= 1;
        // c made monic: r mod c takes r[e] * (c[k] / c[d]) from r[e - d + k]
        int lm[33];
        for (int k = 0; k < d; ++k)
            lm[k] = c[k] ? int(log[c[k]]) + size - int(log[c[d]]) : -1; // (log, maybe >= size)
        uint16_t r[66] = {}; // r(x), degree < d; x itself to start
        r[1] = 1;
        for (int step = 0; step < m; ++step) {
            uint16_t sq[66] = {};
            for (int i = 0; i < d; ++i)
                sq[2 * i] = mul(r[i], r[i]);
            for (int e = 2 * d - 2; e >= d; --e) {
                if (!sq[e])
                    continue;
                const int le = int(log[sq[e]]);
                for (int k = 0; k < d; ++k)
                    if (lm[k] >= 0) { // (le + lm[k] < 3 size; exp is doubled)
                        const int at = le + lm[k];
                        sq[e - d + k] ^= exp[size_t(at >= 2 * size ? at - size : at)];
                    }
                sq[e] = 0;
            }
            for (int i = 0; i < d; ++i)
                r[i] = sq[i];
        }
        for (int i = 0; i < d; ++i)
            if (r[i] != (i == 1 ? 1 : 0))
                return false;
        return true;
    }
    //! GF(2^8) (m = 8): the tables as bytes, exp doubled to 510 entries, into the given arrays
    void tables8(uint8_t* exp510, uint8_t* log256) const
    {
        for (int i = 0; i < 2 * size; ++i)
            exp510[i] = uint8_t(exp[size_t(i)]);
        for (int i = 0; i <= size; ++i)
            log256[i] = uint8_t(log[size_t(i)]);
    }
};

} // namespace gpufec

#endif
