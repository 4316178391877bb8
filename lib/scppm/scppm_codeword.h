/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* One SCPPM codeword decoded on the CPU: iterations between the inner SISO (accumulator + PPM)
 * and the outer SISO (4-state code) through the interleaver, the CRC-32 of the outer decoder's
 * decisions checked after every iteration (stop when it passes, or at max_iterations). One
 * object per worker thread (it owns its scratch). */
#ifndef INCLUDED_GPUFEC_SCPPM_CODEWORD_H
#define INCLUDED_GPUFEC_SCPPM_CODEWORD_H

#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/scppm/scppm.h>

#include "scppm_siso.h"
#include <vector>

namespace gpufec {
namespace scppm {

struct report {
    int32_t iterations = 0;
    int8_t check = 0; //!< 1: the CRC passed
};

/*! Where interleaved bit j's extrinsic lands in the outer decoder's 3K code-bit LLRs (the
 *  deinterleaver and the depuncturing in one map): outer index of v[pi(j)]. */
std::vector<uint32_t> inner_to_outer_map(const scppm_code& code);

/*! The CRC-32 as a sum (the GPU's check): for the K - 2 bits of (information | CRC), the value
 *  each bit set to 1 adds (XOR) to the register; the bits pass when the XOR of the responses of
 *  their set bits equals crc_zero(code), the CRC of all-zero information. */
std::vector<uint32_t> crc_responses(const scppm_code& code);
uint32_t crc_zero(const scppm_code& code);

template <class P>
class codeword_decoder
{
public:
    using T = typename P::T;
    codeword_decoder(const scppm_code& code, int max_iterations, float scaling)
        : d_code(code), d_max_it(max_iterations), d_scale(scaling), d_K(code.outer_input_bits()),
          d_inner(code.m, code.symbols()), d_outer(d_K), d_map(inner_to_outer_map(code)),
          d_la(scppm_code::code_bits), d_le(scppm_code::code_bits), d_lc(3 * size_t(d_K), T(0)),
          d_lo(3 * size_t(d_K)), d_lu(size_t(d_K)), d_hard(size_t(d_K)), d_crc(crc_spec::named("ccsds-32"))
    {
    }

    /*! ch: symbols() * M slot metrics. info: info_bits() decisions, one per byte. soft (or
     *  null): the information bits' a-posteriori LLRs in nats (metric / unit). */
    report decode(const T* ch, uint8_t* info, float* soft = nullptr, float unit = 1.f)
    {
        report r;
        std::fill(d_la.begin(), d_la.end(), T(0));
        const size_t n = d_map.size(), check_bits = size_t(d_K) - 2;
        for (int it = 1; it <= d_max_it; ++it) {
            d_inner.run(ch, d_la.data(), d_le.data(), d_scale);
            for (size_t j = 0; j < n; ++j)
                d_lc[d_map[j]] = d_le[j];
            d_outer.run(d_lc.data(), d_lo.data(), d_lu.data(), d_scale);
            for (size_t k = 0; k < size_t(d_K); ++k)
                d_hard[k] = d_lu[k] > 0;
            r.iterations = it;
            if (crc_check(d_crc, d_hard.data(), check_bits)) {
                r.check = 1;
                break;
            }
            if (it < d_max_it)
                for (size_t j = 0; j < n; ++j)
                    d_la[j] = d_lo[d_map[j]];
        }
        const size_t k = size_t(d_code.info_bits());
        std::copy(d_hard.begin(), d_hard.begin() + long(k), info);
        if (soft)
            for (size_t i = 0; i < k; ++i)
                soft[i] = float(d_lu[i]) / unit;
        return r;
    }

private:
    scppm_code d_code;
    int d_max_it;
    ext_scale d_scale;
    int d_K;
    inner_siso<P> d_inner;
    outer_siso<P> d_outer;
    std::vector<uint32_t> d_map;
    std::vector<T> d_la, d_le, d_lc, d_lo, d_lu;
    std::vector<uint8_t> d_hard;
    crc_spec d_crc;
};

} // namespace scppm
} // namespace gpufec

#endif
