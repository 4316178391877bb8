/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The codes layer's trellis: the state machine of a binary rate-1/n convolutional code, either
 * feed-forward (the Viterbi family's codes) or recursive systematic (the turbo and SCPPM
 * constituent codes). Decoders of every family read their branches from here. */
#ifndef INCLUDED_GPUFEC_CORE_TRELLIS_H
#define INCLUDED_GPUFEC_CORE_TRELLIS_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

/*! states = 2^m with m = K - 1 memory bits. A branch leaves `state` on input bit x to
 *  next_state(state, x) and emits output(state, x): bit r = output r of the n outputs.
 *  For recursive codes, termination_input(state) is the input bit that the feedback makes
 *  zero, so m such bits bring any state to 0. */
class trellis
{
public:
    //! a feed-forward code in gr-fec's convention (conv_code: polys, inversions)
    static trellis feed_forward(const conv_code& code);
    /*! A recursive systematic code: output 0 is the input bit, outputs 1.. are the parities of
     *  `feedforward` polynomials, with `feedback` fed back. Polynomials in the textbook octal
     *  convention of 3GPP (MSB = the current input, e.g. LTE: feedback 013, feedforward 015),
     *  given as integers (so 013 octal is 11). */
    static trellis recursive_systematic(int k, int feedback, const std::vector<int>& feedforward);
    //! the LTE turbo code's constituent code (TS 36.212 5.1.3.2.1): K=4, 013 / 015 octal
    static trellis lte_turbo_constituent();
    /*! the CCSDS turbo code's constituent code (CCSDS 131.0-B 6.3 h): K=5, backward G0 = 10011
     *  (023 octal), forward G1 = 11011, G2 = 10101, G3 = 11111 (033, 025, 037) as outputs 1..3;
     *  each rate sends a subset of them (turbo_code) */
    static trellis ccsds_turbo_constituent();

    int k() const { return d_k; }
    int n() const { return d_n; }
    int states() const { return 1 << (d_k - 1); }
    bool recursive() const { return d_recursive; }
    uint32_t next_state(uint32_t state, uint32_t x) const { return d_next[state * 2 + x]; }
    uint32_t output(uint32_t state, uint32_t x) const { return d_out[state * 2 + x]; }
    //! input bit that moves `state` towards 0 (feed-forward codes: 0)
    uint32_t termination_input(uint32_t state) const { return d_term[state]; }
    //! the (state, input) pairs that lead into `state` (two per state)
    const std::vector<std::pair<uint32_t, uint32_t>>& predecessors(uint32_t state) const
    {
        return d_prev[state];
    }
    /*! Encodes bits from state 0; with `terminate`, m tail inputs follow (termination_input),
     *  whose outputs are appended. Returns the outputs stage by stage, n per stage. */
    std::vector<uint8_t> encode(const std::vector<uint8_t>& bits, bool terminate,
                                std::vector<uint8_t>* tail_inputs = nullptr) const;
    std::string describe() const;

private:
    void finish();
    int d_k = 0, d_n = 0;
    bool d_recursive = false;
    std::vector<uint32_t> d_next, d_out, d_term;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> d_prev;
    std::string d_desc;
};

} // namespace gpufec

#endif
