/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_VITERBI_VIT_ENGINE_H
#define INCLUDED_GPUFEC_VITERBI_VIT_ENGINE_H

#include "vit_common.h"
#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <cstddef>
#include <memory>
#include <string>

namespace gpufec {

//! Builds the part of vit_params that depends on the code only.
vit_params make_code_params(const conv_code& code);

//! Soft values [soft_lo, soft_hi) and packed output bytes [out_lo, out_hi) used by jobs [a, b),
//! and the params that address them from soft + soft_lo and out + out_lo with job indices from 0.
struct vit_chunk {
    vit_params params;
    int64_t soft_lo, soft_hi, out_lo, out_hi;
};
vit_chunk make_chunk(const conv_code& code, const vit_params& p, int64_t a, int64_t b);

/*! One way of running a batch of jobs (see vit_common.h). `soft` holds the soft values the
 *  jobs address (soft_len of them; with p.soft_bits == 4 packed two a byte, (soft_len + 1) / 2
 *  bytes); `out` receives packed output bits at each job's out_byte. */
class vit_engine
{
public:
    virtual ~vit_engine() = default;
    virtual void run(const vit_params& p,
                     const int8_t* soft,
                     size_t soft_len,
                     int64_t njobs,
                     uint8_t* out,
                     size_t out_len) = 0;
    virtual std::string name() const = 0;
    virtual bool on_gpu() const { return false; }
    /*! sizes the engine's buffers for runs of these params of up to max_jobs jobs (0: the
     *  engine's own chunk size); decoders call it once, at construction, so that no batch
     *  allocates. Runs of other params or more jobs still work (they allocate). */
    virtual void reserve(const vit_params&, int64_t /*max_jobs*/) {}
    //! Benchmarks only: seconds per run of the device kernels alone, data already on the
    //! device; negative where the engine has no device kernels.
    virtual double time_kernels(const vit_params&, const int8_t*, size_t, int64_t, int)
    {
        return -1;
    }
};

std::unique_ptr<vit_engine> make_viterbi_reference(const conv_code& code);
std::unique_ptr<vit_engine> make_viterbi_cpu(const conv_code& code, int threads);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<vit_engine> make_viterbi_cuda(const conv_code& code, int device, int max_jobs);
#endif

} // namespace gpufec

#endif
