/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Reed-Solomon codes over GF(2^8): the CCSDS telemetry codes (131.0-B: (255, 223) E = 16 and
 * (255, 239) E = 8, Berlekamp's dual basis or the conventional one, interleaving depth I = 1..8,
 * virtual fill) and general RS(n, k) codes given by their field, first root and primitive
 * element (DVB's (204, 188)). The encoder is here; the decoders are the Reed-Solomon family's. */
#ifndef INCLUDED_GPUFEC_CORE_CODES_REED_SOLOMON_H
#define INCLUDED_GPUFEC_CORE_CODES_REED_SOLOMON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

/*! A Reed-Solomon code over GF(2^8), its codewords 255 symbols long before shortening.
 *  The generator polynomial is g(x) = prod_{i < nroots} (x - a^(prim (fcr + i))), a a root of
 *  gfpoly (libfec's init_rs_char(8, gfpoly, fcr, prim, nroots, pad) is the same code).
 *  A codeblock is `interleave` codewords, symbol s of codeword j at byte s * I + j: the k I
 *  information bytes come first, in order, then the 2E I check bytes (CCSDS 131.0-B 4.3).
 *  `virtual_fill` leading symbols of every codeword are zero and not sent (shortening). */
struct rs_code {
    int nroots = 32;        //!< 2E check symbols a codeword
    int gfpoly = 0x187;     //!< the field's polynomial, x^8 term included
    int fcr = 112;          //!< first consecutive root, as a power of a^prim
    int prim = 11;          //!< the roots' primitive element, as a power of a
    bool dual_basis = true; //!< symbols in Berlekamp's dual basis (CCSDS), else conventional
    int interleave = 1;     //!< I, codewords a codeblock
    int virtual_fill = 0;   //!< symbols a codeword not sent

    int n() const { return 255 - virtual_fill; } //!< symbols sent a codeword
    int k() const { return n() - nroots; }       //!< information symbols sent a codeword
    size_t info_bytes() const { return size_t(k()) * size_t(interleave); }
    size_t block_bytes() const { return size_t(n()) * size_t(interleave); }
    int correctable() const { return nroots / 2; } //!< E, symbol errors a codeword

    /*! A named code: "ccsds:255:223" (E = 16), "ccsds:255:239" (E = 8), each with dual basis
     *  and I = 1 (set the fields for others), or "dvb:204:188" (ETSI EN 300 421: GF(2^8) with
     *  x^8 + x^4 + x^3 + x^2 + 1, roots a^0 .. a^15, 51 symbols of virtual fill).
     *  std::invalid_argument names the known ones otherwise. */
    static rs_code named(const std::string& name);
    /*! named(name) with the options every face takes: basis "default" (the code's own), "dual"
     *  or "conventional"; interleave; virtual_fill (negative: the code's own). Checked:
     *  std::invalid_argument names what is wrong. */
    static rs_code configured(const std::string& name, const std::string& basis, int interleave,
                              int virtual_fill = -1);
    static std::vector<std::string> names();
    //! std::invalid_argument naming the field that is out of range or not a code
    void check() const;
    std::string describe() const;
};

//! Berlekamp's dual basis of CCSDS 131.0-B 4.4.2 (beta = a^117) from the conventional basis
//! of the CCSDS field (x^8 + x^7 + x^2 + x + 1), and back; bit 7 of a byte is z0, sent first.
uint8_t rs_ccsds_to_dual(uint8_t conventional);
uint8_t rs_ccsds_from_dual(uint8_t dual);

/*! Systematic encoder: info_bytes() information bytes in, block_bytes() codeblock bytes out,
 *  the information first and unchanged (each codeword's symbols interleaved as rs_code says). */
class rs_encoder
{
public:
    explicit rs_encoder(const rs_code& code);
    void encode(const uint8_t* info, uint8_t* block) const;
    //! `frames` codeblocks, back to back
    void encode_frames(const uint8_t* info, size_t frames, uint8_t* blocks) const;
    const rs_code& code() const { return d_code; }

private:
    rs_code d_code;
    std::vector<uint8_t> d_rows; // 256 x nroots: the remainder's update for each feedback symbol
};

} // namespace gpufec

#endif
