/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Binary BCH codes: narrow-sense, over GF(2^m), shortened to n bits, systematic (the k message
 * bits first, then the parity bits), bits MSB first: bit 0 of a codeword is the coefficient of
 * x^(n-1). Decoding: the remainder by the generator (zero for most frames, the fast path), the
 * syndromes from it, Berlekamp-Massey and a Chien search over the n positions; a word with
 * more errors than t is reported as a failure, never changed. */
#ifndef INCLUDED_GPUFEC_CORE_BCH_H
#define INCLUDED_GPUFEC_CORE_BCH_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

struct gf2m_field;

class bch_code
{
public:
    /*! GF(2^m) from the primitive polynomial `primitive` (bit i = the coefficient of x^i, x^m
     *  included), t errors corrected, shortened to n bits. std::invalid_argument for m outside
     *  3..16, a polynomial that is not primitive of degree m, n beyond 2^m - 1, or no message
     *  bits left; the parity (m t bits at most) is at most 256 bits. */
    bch_code(int m, uint32_t primitive, int t, int n);
    /*! The outer code of DVB-S2 (EN 302 307-1 5.3.1, Tables 5a/5b) and DVB-S2X: for the LDPC
     *  code of FECFRAME length ldpc_n (64800, 16200; 32400 for VL-SNR) and the rate of its id
     *  ("1/2", "13/45", "1/5-vlsnr-sf2", ...), n = N_bch (the LDPC's information bits, less the
     *  VL-SNR codes' shortened ones), k = K_bch, t = 12, 10 or 8 over GF(2^16) (normal), t = 12
     *  over GF(2^14) (short) or GF(2^15) (medium). */
    static bch_code dvbs2(int ldpc_n, const std::string& rate);

    int m() const { return d_m; }
    //! the field's primitive polynomial (bit i = the coefficient of x^i, x^m included)
    uint32_t primitive() const { return d_primitive; }
    int n() const { return d_n; }
    int k() const { return d_n - d_r; }
    int t() const { return d_t; }
    int parity_bits() const { return d_r; }
    //! the generator's coefficients g_0 .. g_r (g_r = 1)
    const std::vector<uint8_t>& generator() const { return d_gen; }
    std::string describe() const; //!< "BCH(32400, 32208, t=12) over GF(2^16)"

    //! k message bits (packed, MSB first) to n code bits (packed): the message, then the parity
    void encode_packed(const uint8_t* message, uint8_t* codeword) const;
    //! the same over bits one per byte
    void encode(const uint8_t* message, uint8_t* codeword) const;
    /*! Corrects a codeword (packed, MSB first; only its first n bits are read or changed) in
     *  place: the number of bits corrected (0 when it was a codeword), or -1 when it has more
     *  errors than the code corrects (left as it came). */
    int decode_packed(uint8_t* codeword) const;
    int decode(uint8_t* bits) const; //!< the same over bits one per byte

private:
    void remainder(const uint8_t* packed, size_t nbits, uint64_t* rem) const;

    int d_m, d_t, d_n, d_r;
    uint32_t d_primitive;
    std::shared_ptr<const gf2m_field> d_gf;
    std::vector<uint8_t> d_gen;
    // remainder by g of (a byte's polynomial) x^r, left-aligned in 256 bits, for each byte value
    std::vector<uint64_t> d_table;
    std::vector<uint64_t> d_gl; // g without x^r, left-aligned in the same 256 bits
};

} // namespace gpufec

#endif
