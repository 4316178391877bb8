/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* CCSDS 142.0-B-1 SCPPM (serially concatenated convolutionally coded PPM, the deep-space
 * optical code): information bits + CRC-32 + 2 zero bits -> the outer (5,7,7) 4-state rate-1/3
 * convolutional code -> puncturing to 1/3, 1/2 or 2/3 (15120 code bits) -> the (11, 210)
 * quadratic bit interleaver -> the accumulator 1/(1+D) -> PPM of order M = 4 ... 256 (m = log2 M
 * accumulator bits per symbol, the first one the symbol's MSB). Parameters and which of them
 * were checked against what: docs/scppm.md.
 *
 * A codeword here ends at the PPM symbols: 15120 / m symbols, or as slots M values per symbol
 * (1 = the pulsed slot). Guard slots, the sync marker, the channel interleaver and the
 * randomizer are separate stages (scppm_framing.h).
 *
 * The Poisson channel: a pulsed slot sees Poisson(Ks + Kb) photons, every other slot
 * Poisson(Kb). The log-likelihood of "the pulse is in slot j" is, up to terms common to the
 * symbol's slots, y_j ln(1 + Ks / Kb): the decoder's per-slot metric (slot_llr_weight). */
#ifndef INCLUDED_GPUFEC_CORE_SCPPM_H
#define INCLUDED_GPUFEC_CORE_SCPPM_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpufec {

struct scppm_code {
    static constexpr int code_bits = 15120; //!< after puncturing: the interleaver's length
    int M = 16;                             //!< PPM order, 4 .. 256
    int m = 4;                              //!< log2(M): code bits per symbol
    int rate_num = 2, rate_den = 3;         //!< 1/3, 1/2 or 2/3

    //! M in {4, 8, ..., 256}, rate "1/3", "1/2" or "2/3"; anything else throws std::invalid_argument
    static scppm_code make(int M, const std::string& rate);
    std::string rate_name() const;
    std::string describe() const; //!< "SCPPM M=16 rate 2/3"

    int outer_input_bits() const { return code_bits * rate_num / rate_den; } //!< K: 5040, 7560, 10080
    int info_bits() const { return outer_input_bits() - 34; } //!< K - 32 (CRC) - 2 (termination)
    int symbols() const { return code_bits / m; }
    size_t slots() const { return size_t(symbols()) * size_t(M); }
    double rate() const { return double(info_bits()) / double(code_bits); } //!< info bits per code bit
    //! the puncturing pattern over c0 c1 c2 c0 c1 c2 (CCSDS 142.0-B-1 table 3-2): 1 = kept
    const char* puncture_pattern() const;
    //! whether outer code bit i (i = 3k + r, output r of input bit k) is sent
    bool kept(size_t i) const { return puncture_pattern()[i % 6] == '1'; }
};

//! pi(j) = (11 j + 210 j^2) mod 15120: interleaved[j] = in[pi(j)] (CCSDS 142.0-B-1 3.8.3)
uint32_t scppm_interleave_index(uint32_t j);
//! the permutation (15120 entries), computed once
const std::vector<uint32_t>& scppm_interleaver();
const std::vector<uint32_t>& scppm_deinterleaver(); //!< its inverse

/*! Encodes `info` (info_bits() bits, one per byte) to 15120 / m PPM symbols (0 .. M-1). Also
 *  returns the intermediate sequences where asked (for tests): u (info, CRC, 2 zeros), the
 *  punctured outer code bits and the interleaved bits. */
void scppm_encode(const scppm_code& code, const uint8_t* info, uint16_t* symbols,
                  std::vector<uint8_t>* u = nullptr, std::vector<uint8_t>* outer = nullptr,
                  std::vector<uint8_t>* interleaved = nullptr);
//! symbols -> slots, M per symbol, 1 in the pulsed slot
void ppm_slots(const uint16_t* symbols, size_t n, int M, uint8_t* slots);

//! the Poisson photon-counting channel of one slot pattern (pulses 0/1): counts out
void poisson_channel(const uint8_t* pulses, size_t n, double Ks, double Kb, std::mt19937_64& rng,
                     float* counts);
/*! ln(1 + Ks / Kb): the weight that makes a photon count a slot log-likelihood. Kb must be
 *  positive (Kb = 0 makes a single photon certain; give a small Kb instead), Ks >= 0. */
double slot_llr_weight(double Ks, double Kb);
//! the capacity of the Poisson PPM channel in bits per PPM symbol (Monte Carlo, `trials` symbols)
double poisson_ppm_capacity(int M, double Ks, double Kb, size_t trials, uint64_t seed);

} // namespace gpufec

#endif
