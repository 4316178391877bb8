/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The codes layer's interleavers: a permutation of K positions, out[i] = in[pi(i)] (3GPP's
 * convention: c'_i = c_pi(i)). */
#ifndef INCLUDED_GPUFEC_CORE_INTERLEAVER_H
#define INCLUDED_GPUFEC_CORE_INTERLEAVER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

class interleaver
{
public:
    //! any permutation of 0..K-1 (checked)
    static interleaver from_permutation(std::vector<uint32_t> pi);
    /*! The LTE turbo interleaver (TS 36.212 5.1.3.2.3): pi(i) = (f1 i + f2 i^2) mod K for the
     *  188 block sizes K = 40..6144 of table 5.1.3-3 (compiled in). Other K throw
     *  std::invalid_argument listing the rule. */
    static interleaver lte_qpp(int K);
    //! the 188 sizes lte_qpp() takes, ascending
    static std::vector<int> lte_sizes();
    /*! The CCSDS turbo code permutation (CCSDS 131.0-B 6.3 g): K = k1 k2 with k1 = 8 and
     *  k2 = 223, 446, 892 or 1115 (K = 1784, 3568, 7136, 8920), from the standard's closed form
     *  with its eight primes. Other K throw std::invalid_argument. */
    static interleaver ccsds_turbo(int K);
    //! the 4 sizes ccsds_turbo() takes, ascending
    static std::vector<int> ccsds_sizes() { return { 1784, 3568, 7136, 8920 }; }

    size_t size() const { return d_pi.size(); }
    uint32_t operator[](size_t i) const { return d_pi[i]; }
    const std::vector<uint32_t>& permutation() const { return d_pi; }
    const std::vector<uint32_t>& inverse() const { return d_inv; }

    //! out[i] = in[pi(i)]
    template <typename T>
    void interleave(const T* in, T* out) const
    {
        for (size_t i = 0; i < d_pi.size(); ++i)
            out[i] = in[d_pi[i]];
    }
    //! out[pi(i)] = in[i]
    template <typename T>
    void deinterleave(const T* in, T* out) const
    {
        for (size_t i = 0; i < d_pi.size(); ++i)
            out[d_pi[i]] = in[i];
    }

private:
    std::vector<uint32_t> d_pi, d_inv;
};

} // namespace gpufec

#endif
