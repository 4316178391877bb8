/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The max-log SCPPM engines in 32-bit fixed point (scppm_siso.h's maxlog_fixed): the CPU one
 * (the sequential recursions, a codeword per SIMD lane: scppm_cpu_lanes.h) and the CUDA one
 * (trellis-stage combining) give the same bits, iteration counts and CRC results. Input: int8 per slot,
 * photon counts (input=counts; a negative count is read as 0 and reported) or slot LLRs. */
#ifndef INCLUDED_GPUFEC_SCPPM_ENGINE_H
#define INCLUDED_GPUFEC_SCPPM_ENGINE_H

#include <gnuradio/gpufec/core/scppm/scppm.h>

#include "frame/frame_engine.h"
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

/* The engines (frame/frame_engine.h): frames x slots() int8 in, frames x ceil(info_bits / 8)
 * bytes of decisions out (packed, MSB first), per frame the iterations run and the CRC result;
 * a codeword with a negative photon count (not a count) is decoded with those slots read as 0
 * and reported erased, its check failed. */
std::unique_ptr<frame_engine> make_scppm_fixed_cpu(const scppm_setup& s, int cpu_threads);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<frame_engine> make_scppm_cuda(const scppm_setup& s, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
