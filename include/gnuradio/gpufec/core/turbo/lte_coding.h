/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LTE channel coding around the turbo code (3GPP TS 36.212): code block segmentation with
 * filler bits (5.1.2) and rate matching of turbo-coded code blocks (5.1.4.1: sub-block
 * interleavers, the circular buffer, redundancy versions), with the receiver's inverse
 * (de-rate-matching soft values, combining repeated ones). With these a receiver goes from the
 * E soft values of a code block on the physical channel to the 3K + 12 values the turbo
 * decoder takes. */
#ifndef INCLUDED_GPUFEC_CORE_LTE_CODING_H
#define INCLUDED_GPUFEC_CORE_LTE_CODING_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

//! 5.1.2: how a transport block of B bits (its CRC-24A included) is cut into code blocks
struct lte_segmentation {
    int B = 0;              //!< input bits
    int C = 0;              //!< code blocks
    int K_plus = 0, K_minus = 0;
    int C_plus = 0, C_minus = 0;
    int F = 0;              //!< filler bits at the start of the first block
    int L = 0;              //!< CRC-24B bits per block (24 when C > 1, else 0)
    //! K of block r (the first C_minus blocks are K_minus long)
    int K(int r) const { return r < C_minus ? K_minus : K_plus; }

    static lte_segmentation compute(int B);
};

/*! Cuts `bits` (B of them) into code blocks as 5.1.2 does: filler bits (0 here, flagged in
 *  `filler`) first, each block with its CRC-24B when C > 1. Returns the blocks. */
std::vector<std::vector<uint8_t>> lte_segment(const lte_segmentation& seg, const uint8_t* bits,
                                              std::vector<uint8_t>* filler_of_first = nullptr);

/*! Rate matching of one turbo-coded block (5.1.4.1.1 / 5.1.4.1.2) for K (3K + 12 code bits in
 *  the turbo family's streams layout: d0 | d1 | d2, K + 4 each). */
class lte_rate_matcher
{
public:
    /*! K: the block size; F: filler bits at its start (their positions are <NULL> in d0 and
     *  d1 and never sent); Ncb: soft buffer size (0: the whole circular buffer, Kw = 3 K_pi,
     *  as for the uplink; else min_Ncb(K)..Kw: smaller buffers are refused) */
    explicit lte_rate_matcher(int K, int F = 0, int Ncb = 0);
    //! The smallest soft buffer that K allows (every redundancy version starts inside it)
    static int min_Ncb(int K);

    int K() const { return d_K; }
    int Kw() const { return 3 * d_Kpi; } //!< the circular buffer
    int Ncb() const { return d_Ncb; }
    //! k0 of redundancy version rv (0..3)
    int k0(int rv) const;

    //! E code bits of version rv from the 3K + 12 code bits
    std::vector<uint8_t> match(const uint8_t* coded, int E, int rv) const;
    /*! The receiver: adds the E soft values of version rv into `acc` (3K + 12 values in the
     *  streams layout, zero where nothing was received), so retransmissions combine. Filler
     *  positions are set to `filler_llr` (known 0 bits: a large negative value). */
    void accumulate(const float* soft, int E, int rv, float* acc, float filler_llr = -100.f) const;

    //! E of block r (5.1.4.1.2) for G bits of the transport block over C blocks
    static int block_E(int G, int C, int r, int Qm, int Nl = 1);

private:
    int d_K, d_F, d_D, d_R, d_Kpi, d_Ncb;
    // the circular buffer: entry j is the code-bit index (0 .. 3K+11) or -1 for <NULL>
    std::vector<int32_t> d_w;
};

} // namespace gpufec

#endif
