/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon reference decoder: one codeword at a time, errors and erasures, by syndromes,
 * Berlekamp-Massey, Chien search and Forney's formula, in the conventional basis (dual-basis
 * codes are converted on the way in and out). The faster engines give its results. */
#ifndef INCLUDED_GPUFEC_RS_RS_REFERENCE_H
#define INCLUDED_GPUFEC_RS_RS_REFERENCE_H

#include <gnuradio/gpufec/core/codes/reed_solomon.h>
#include <cstdint>
#include <vector>

namespace gpufec {

class rs_reference_decoder
{
public:
    explicit rs_reference_decoder(const rs_code& code);

    /*! Decodes one codeword in place: n() symbols as sent (the code's basis), erasures at
     *  `eras` (positions 0 .. n() - 1, each at most once). Returns the symbols it changed
     *  (errors, and erasures whose value was wrong: libfec's count), or -1 where the
     *  codeword is not decodable: more than E errors seen (2 errors + erasures > 2E), a locator
     *  whose roots do not match its degree, or an error in the virtual fill. On -1 the
     *  codeword is left as it came. */
    int decode_codeword(uint8_t* cw, const int* eras = nullptr, int n_eras = 0);

    /*! decode_codeword() after its syndromes, for engines that compute those their own way:
     *  r the whole word in the conventional basis (255 symbols, the virtual fill's zeros
     *  first), S its nroots syndromes r(b^(fcr + j)); corrects r in place. */
    int decode_from_syndromes(uint8_t* r, const uint8_t* S, const int* eras = nullptr, int n_eras = 0);
    //! the generator's root b^(fcr + j), b = a^prim
    uint8_t root(int j) const;

    /*! A codeblock (block_bytes(), interleaved as rs_code says) to its info_bytes(); result[j]
     *  is codeword j's decode_codeword() value (information bytes of a failed codeword are
     *  the received ones). */
    void decode_block(const uint8_t* block, uint8_t* info, int* result);

    const rs_code& code() const { return d_code; }

private:
    uint8_t mul(uint8_t a, uint8_t b) const { return a && b ? d_exp[size_t(d_log[a]) + d_log[b]] : 0; }
    uint8_t inv(uint8_t a) const { return d_exp[size_t(255 - d_log[a])]; }
    uint8_t pow_a(int e) const { return d_exp[size_t(((e % 255) + 255) % 255)]; }

    rs_code d_code;
    std::vector<uint8_t> d_exp, d_log;
    std::vector<uint8_t> d_cw; // (decode_block's codeword)
};

} // namespace gpufec

#endif
