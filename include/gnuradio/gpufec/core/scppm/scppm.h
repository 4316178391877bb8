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

#include <gnuradio/gpufec/core/codes/crc.h>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
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

/*! The encoder of one code: info_bits() bits (one per byte) to 15120 / m PPM symbols (0 .. M-1).
 *  It keeps its scratch (one object per thread): encoding allocates nothing. */
class scppm_encoder
{
public:
    explicit scppm_encoder(const scppm_code& code);
    void encode(const uint8_t* info, uint16_t* symbols);
    //! the last encode()'s intermediate sequences (for tests): u (info, CRC, 2 zeros), the
    //! punctured outer code bits, the interleaved bits
    const std::vector<uint8_t>& u() const { return d_u; }
    const std::vector<uint8_t>& outer() const { return d_v; }
    const std::vector<uint8_t>& interleaved() const { return d_w; }

private:
    scppm_code d_code;
    crc_spec d_crc;
    std::vector<uint8_t> d_u, d_v, d_w;
};
//! symbols -> slots, M per symbol, 1 in the pulsed slot
void ppm_slots(const uint16_t* symbols, size_t n, int M, uint8_t* slots);

//! the Poisson photon-counting channel of one slot pattern (pulses 0/1): counts out; any
//! random bit generator (std::mt19937_64, the apps' per-frame generators)
template <class URBG>
void poisson_channel(const uint8_t* pulses, size_t n, double Ks, double Kb, URBG& rng, float* counts)
{
    if (!(Ks >= 0) || !(Kb >= 0) || !std::isfinite(Ks) || !std::isfinite(Kb))
        throw std::invalid_argument("poisson channel: Ks and Kb must be finite and not negative");
    // (a Poisson distribution of mean 0 is not defined: such slots see no photon)
    std::poisson_distribution<int> off(Kb > 0 ? Kb : 1.0), on(Ks + Kb > 0 ? Ks + Kb : 1.0);
    for (size_t i = 0; i < n; ++i) {
        if (pulses[i])
            counts[i] = Ks + Kb > 0 ? float(on(rng)) : 0.f;
        else
            counts[i] = Kb > 0 ? float(off(rng)) : 0.f;
    }
}
/*! ln(1 + Ks / Kb): the weight that makes a photon count a slot log-likelihood. Kb must be
 *  positive (Kb = 0 makes a single photon certain; give a small Kb instead), Ks >= 0. */
double slot_llr_weight(double Ks, double Kb);
//! the capacity of the Poisson PPM channel in bits per PPM symbol (Monte Carlo, `trials` symbols)
double poisson_ppm_capacity(int M, double Ks, double Kb, size_t trials, uint64_t seed);

} // namespace gpufec

#endif
