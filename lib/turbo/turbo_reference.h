/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The turbo family's float decoders, a frame at a time on the CPU: the reference BCJR (max-log
 * or log-MAP, windows or the whole block) and the fully parallel decoder. The family runs them
 * through the pooled engine (engine=reference, log-map, fptd); the tests compare the
 * fixed-point engines with them. Internal: not installed. */
#ifndef INCLUDED_GPUFEC_TURBO_REFERENCE_H
#define INCLUDED_GPUFEC_TURBO_REFERENCE_H

#include <gnuradio/gpufec/core/turbo/turbo.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

//! per frame: full iterations run, CRC result (-1: no CRC)
struct turbo_result {
    int iterations = 0;
    int crc_ok = -1;
};

//! a float decoder of one frame at a time on the CPU (the reference BCJR, the FPTD)
class turbo_float_decoder
{
public:
    virtual ~turbo_float_decoder() = default;
    virtual turbo_result decode(const float* llr, uint8_t* bits, float* app = nullptr) = 0;
    virtual size_t output_bits() const = 0;
};

/*! Reference decoder (CPU, float): one frame at a time. `llr`: 3K + 12 values in the code's
 *  layout, positive = bit 1, in LLR units (max-log does not depend on the scale). Writes the
 *  output_bits() decisions (one per byte) and, if `app` is not null, the K a-posteriori LLRs of
 *  the information bits. */
class turbo_reference_decoder : public turbo_float_decoder
{
public:
    turbo_reference_decoder(const turbo_code& code, const turbo_options& options);
    turbo_result decode(const float* llr, uint8_t* bits, float* app = nullptr) override;
    size_t output_bits() const override;
    const turbo_code& code() const { return d_code; }

private:
    turbo_code d_code;
    turbo_options d_opts;
    bool d_has_crc = false;
    crc_spec d_crc;
    // scratch
    std::vector<float> d_sys, d_sys2, d_par1, d_par2, d_tail1, d_tail2, d_ext1, d_ext2, d_apri, d_apri2,
        d_app, d_alpha, d_beta;
    std::vector<float> d_bound_a1, d_bound_b1, d_bound_a2, d_bound_b2; // window boundaries
    std::vector<uint8_t> d_hard, d_prev;
};

/*! The fully parallel turbo decoder (algorithm fptd), CPU, float: exact max* (`exact`) or
 *  max. Same input, output and stopping rules as the reference; an iteration is two
 *  half-iterations, each running every other stage of both codes at once. */
class turbo_fptd_decoder : public turbo_float_decoder
{
public:
    turbo_fptd_decoder(const turbo_code& code, const turbo_options& options, bool exact = true);
    turbo_result decode(const float* llr, uint8_t* bits, float* app = nullptr) override;
    size_t output_bits() const override;

private:
    turbo_code d_code;
    turbo_options d_opts;
    bool d_exact;
    bool d_has_crc = false;
    crc_spec d_crc;
    std::vector<float> d_sys, d_par[2], d_apri[2], d_ext[2], d_alpha[2], d_beta[2];
    std::vector<uint8_t> d_hard, d_prev;
};

} // namespace gpufec

#endif
