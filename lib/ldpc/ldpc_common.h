/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point LDPC arithmetic every engine shares, so that CPU and GPU give bit-identical
 * output on the same int8 input:
 *
 *  - internal LLR = -soft (positive = bit 0), every value saturated to +-qmax
 *    (qmax = 127 for int8 messages, 32767 for int16);
 *  - posterior gamma_v starts at the channel LLR, check-to-bit messages lambda at 0;
 *  - layered min-sum, one check row c with bits v_1..v_d:
 *      rho_j = sat(gamma_vj - lambda_cj); min1 <= min2 the two smallest |rho| (idx = the
 *      first j reaching min1); Lambda_j = sign * norm(j == idx ? min2 : min1), where sign is
 *      the product of the signs of the other rho (rho < 0 negative, 0 positive) and
 *      norm(x) = max(0, ((x * norm16) >> 4) - offset);
 *      lambda_cj = Lambda_j; gamma_vj = sat(rho_j + Lambda_j).
 *    Rows are taken in order; the rows of one QC layer touch distinct bits, so any engine may
 *    run them in parallel.
 *  - hard bit = gamma < 0; after each iteration the syndrome is checked; with early
 *    termination a codeword stops at the first iteration whose syndrome is zero. */
#ifndef INCLUDED_GPUFEC_LDPC_COMMON_H
#define INCLUDED_GPUFEC_LDPC_COMMON_H

#if defined(__CUDACC__)
#define GPUFEC_LDPC_HD __host__ __device__ __forceinline__
#else
#define GPUFEC_LDPC_HD inline
#endif

namespace gpufec {

struct ldpc_fixed {
    int qmax;   //!< 127 or 32767
    int norm16; //!< normalisation in sixteenths, 1..16
    int offset; //!< subtracted after normalisation, >= 0
};

GPUFEC_LDPC_HD int ldpc_sat(int v, int qmax) { return v > qmax ? qmax : (v < -qmax ? -qmax : v); }

GPUFEC_LDPC_HD int ldpc_norm(int mag, const ldpc_fixed& f)
{
    const int v = ((mag * f.norm16) >> 4) - f.offset;
    return v < 0 ? 0 : v;
}

} // namespace gpufec

#endif
