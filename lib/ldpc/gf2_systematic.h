/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Gaussian elimination of a parity-check matrix over GF(2), for codes without a structure to
 * exploit: finds the rank, which bits can be information bits, and each parity bit as a sum of
 * information bits (a systematic encoder). Pivots are taken from the last columns first, so
 * that codes whose parity part is the end of the codeword keep their information bits first. */
#ifndef INCLUDED_GPUFEC_LDPC_GF2_SYSTEMATIC_H
#define INCLUDED_GPUFEC_LDPC_GF2_SYSTEMATIC_H

#include <vector>

namespace gpufec {

struct gf2_systematic {
    int rank = 0;
    std::vector<int> info_cols;   //!< n - rank columns, ascending
    std::vector<int> parity_cols; //!< rank columns, one per independent check
    /*! parity_cols[i] = XOR of the bits at columns parity_sums[i]: information bits, and for a
     *  form found by peeling, parity bits of earlier entries (encode in order) */
    std::vector<std::vector<int>> parity_sums;
};

gf2_systematic gf2_make_systematic(int n,
                                   const std::vector<int>& row_start,
                                   const std::vector<int>& row_cols);

/*! The encoder of a code whose last m columns can be solved one check at a time (a
 *  triangular parity part in some check order, as DVB-S2's accumulator): each check that has
 *  one unsolved parity bit left gives it. Linear in the edges. False (out untouched) when the
 *  checks stall or one of them is left with no unsolved bit (a dependent check): the caller
 *  falls back to elimination. */
bool gf2_peel_systematic(int n,
                         const std::vector<int>& row_start,
                         const std::vector<int>& row_cols,
                         gf2_systematic& out);

} // namespace gpufec

#endif
