/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_DISTANCE_SPECTRUM_H
#define INCLUDED_GPUFEC_CORE_DISTANCE_SPECTRUM_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <vector>

namespace gpufec {

//! Error events at Hamming distance d: how many, and their total information-bit weight.
struct spectrum_term {
    int d;
    double events;
    double info_weight;
};

/*! The first `terms` nonzero terms of the distance spectrum of an unpunctured code, by a
 *  search over paths that leave state 0 and first return to it (the first term is d_free). */
std::vector<spectrum_term> distance_spectrum(const conv_code& code, int terms = 6);

//! Union bound on the bit error rate of soft-decision ML decoding, BPSK over AWGN.
double union_bound_ber(const std::vector<spectrum_term>& spectrum, double rate, double ebn0_db);

//! Bit error rate of uncoded BPSK over AWGN.
double uncoded_bpsk_ber(double ebn0_db);

} // namespace gpufec

#endif
