/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What every LDPC engine (CPU reference, CUDA) implements: decode a batch of codewords from
 * int8 soft values (positive = bit 1) to hard bits (packed, MSB first, each codeword starting
 * on a byte), per-codeword results and optionally posteriors. ldpc_common.h holds
 * the arithmetic they share. */
#ifndef INCLUDED_GPUFEC_LDPC_ENGINE_H
#define INCLUDED_GPUFEC_LDPC_ENGINE_H

#include <gnuradio/gpufec/core/ldpc.h>
#include <memory>
#include <string>

namespace gpufec {

class ldpc_engine
{
public:
    virtual ~ldpc_engine() = default;
    virtual std::string name() const = 0;
    /*! packed: the first out_bits hard bits of every codeword, packed MSB first in
     *  ceil(out_bits / 8) bytes per frame (trailing bits 0); out_bits = n gives the codeword,
     *  k the information bits of a systematic-first code. res: one per frame; post: n per
     *  frame or null. */
    virtual void run(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, ldpc_result* res,
                     float* post) = 0;
    //! float input, float32 precision only
    virtual void run_float(const float* soft, size_t frames, uint8_t* packed, int out_bits, ldpc_result* res,
                           float* post);
    //! GPU only: seconds per batch for the kernels alone (data already on the device)
    virtual double time_kernels(const int8_t* soft, size_t frames, int reps);
};

std::unique_ptr<ldpc_engine> make_ldpc_reference_engine(const ldpc_code& code, const ldpc_options& o);
//! layered min-sum in fixed point, vectorised across codewords
std::unique_ptr<ldpc_engine> make_ldpc_cpu_engine(const ldpc_code& code, const ldpc_options& o);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<ldpc_engine> make_ldpc_cuda_engine(const ldpc_code& code, const ldpc_options& o, int device);
#endif

} // namespace gpufec

#endif
