/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The max-log SCPPM engines in 32-bit fixed point (scppm_siso.h's maxlog_fixed): the CPU one
 * (a codeword per task over the CPU pool, the sequential recursions) and the CUDA one (trellis-
 * stage combining) give the same bits, iteration counts and CRC results. Input: int8 per slot,
 * photon counts (input=counts; a negative count is read as 0 and reported) or slot LLRs. */
#ifndef INCLUDED_GPUFEC_SCPPM_ENGINE_H
#define INCLUDED_GPUFEC_SCPPM_ENGINE_H

#include <gnuradio/gpufec/core/scppm.h>

#include "scppm_siso.h"
#include <memory>
#include <string>

namespace gpufec {

struct scppm_setup {
    scppm_code code;
    int max_iterations = 32;
    float scaling = 1.f; //!< extrinsic scaling (both SISOs)
    bool counts = true;  //!< input: photon counts (else slot LLRs)
};

//! per codeword: iterations run, CRC passed, and whether a negative count was read as 0
struct scppm_report {
    int32_t iterations = 0;
    int8_t check = 0;
    int8_t bad_input = 0;
};

class scppm_engine
{
public:
    virtual ~scppm_engine() = default;
    virtual std::string name() const = 0;
    virtual bool on_gpu() const { return false; }
    //! frames x slots() int8 in; frames x ceil(info_bits / 8) bytes of decisions out (packed,
    //! MSB first); a report per frame
    virtual void decode(const int8_t* in, size_t frames, uint8_t* bits, scppm_report* report) = 0;
    //! seconds per decode() of `frames` frames in the kernels alone; negative on the CPU
    virtual double time_kernels(const int8_t*, size_t, int) { return -1; }
};

std::unique_ptr<scppm_engine> make_scppm_fixed_cpu(const scppm_setup& s, int cpu_threads);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<scppm_engine> make_scppm_cuda(const scppm_setup& s, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
