/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point LDPC arithmetic every engine shares, so that CPU and GPU give bit-identical
 * output on the same int8 input:
 *
 *  - internal LLR = -soft (positive = bit 0), integers;
 *  - check-to-bit messages saturate at +-mmax (127 for int8 messages, 32767 for int16);
 *    posteriors are exact: gamma_v = channel_v + the sum of v's messages, which needs no more
 *    than 127 + (column degree) * mmax, so int16 posteriors suffice for int8 messages and
 *    int32 for int16 (the decoder checks the column degrees). Saturating the posteriors
 *    instead would break the layered update (gamma - old message would lose its sign).
 *  - layered min-sum, one check row c with bits v_1..v_d:
 *      rho_j = gamma_vj - lambda_cj; min1 <= min2 the two smallest |rho| (idx = the first j
 *      reaching min1); Lambda_j = sign * norm(j == idx ? min2 : min1), where sign is the
 *      product of the signs of the other rho (rho < 0 negative, 0 positive) and
 *      norm(x) = min(mmax, max(0, ((x * norm16) >> 4) - offset));
 *      lambda_cj = Lambda_j; gamma_vj = rho_j + Lambda_j.
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
    int mmax;   //!< message limit: 127 or 32767
    int norm16; //!< normalisation in sixteenths, 1..16
    int offset; //!< subtracted after normalisation, >= 0
};

//! normalised, offset and saturated message magnitude; mag >= 0 may be as large as a posterior.
//! Magnitudes from 2^22 up all give mmax ((2^22 * 1) >> 4 - 127 > 32767), so clamping there
//! first keeps the arithmetic in 32 bits without changing any result. `small`: mag is below
//! 2^16 (int16 posteriors: int8 messages), where that clamp changes nothing and is left out.
//! In device code the limits 0 and mmax take one instruction (Hopper's minimum-with-zero)
//! instead of a comparison and two selects.
GPUFEC_LDPC_HD int ldpc_norm(int mag, const ldpc_fixed& f, bool small = false)
{
    const int m = small || mag < (1 << 22) ? mag : (1 << 22);
    const int v = ((m * f.norm16) >> 4) - f.offset;
#if defined(__CUDA_ARCH__)
    return __vimin_s32_relu(v, f.mmax);
#else
    return v < 0 ? 0 : (v > f.mmax ? f.mmax : v);
#endif
}

} // namespace gpufec

#endif
