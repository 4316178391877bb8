/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* A systematic encoder for quasi-cyclic codes whose parity part is an invertible matrix of
 * circulants (AR4JA): H = [Q | P] with P the last mb block columns, both as matrices over the
 * ring of z x z circulants (polynomials mod x^z - 1 over GF(2)); P is inverted there by Gaussian
 * elimination with unit pivots, and the parity blocks are p = P^-1 Q u, block by block: a few
 * dozen ring products a codeword, where elimination of the bit matrix would take minutes for
 * the largest codes. */
#ifndef INCLUDED_GPUFEC_LDPC_QC_ENCODER_H
#define INCLUDED_GPUFEC_LDPC_QC_ENCODER_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace gpufec {

class qc_encoder
{
public:
    /*! The encoder of a QC code (circulants() describes it; no missing entries) whose last mb
     *  block columns form a matrix invertible over the ring; null when it is not (no unit pivot
     *  found), and the caller falls back to elimination of the bit matrix. */
    static std::shared_ptr<const qc_encoder> make(const ldpc_code& code);
    /*! The encoder of a generator given as the standards tabulate it (CCSDS C2's annex C, the
     *  telecommand codes): first_rows[j] holds the mb z parity bits (one per byte) of the
     *  codeword whose only information 1 is the first bit of information block j; the other
     *  rows of block j are those shifted right cyclically within each parity block. kb =
     *  first_rows.size(). std::invalid_argument when a row's length is not mb z. */
    static std::shared_ptr<const qc_encoder> from_first_rows(int z, int mb,
                                                             const std::vector<std::vector<uint8_t>>& first_rows);

    int information_bits() const { return d_kb * d_z; }

    //! k = (nb - mb) z information bits (one per byte) to the n codeword bits, column order
    void encode(const uint8_t* info, uint8_t* codeword) const;

private:
    int d_z = 0, d_mb = 0, d_kb = 0, d_words = 0;
    // W = P^-1 Q, mb x kb ring elements (z coefficients in d_words 64-bit words each), row-major
    std::vector<std::vector<uint64_t>> d_w;
};

} // namespace gpufec

#endif
