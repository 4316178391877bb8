/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What every LDPC engine (CPU reference, fast CPU, CUDA) implements: a frame engine
 * (frame/frame_engine.h) that decodes codewords from int8 soft values (positive = bit 1; float
 * where the precision is float) to the leading out_bits hard bits of each codeword (packed, MSB
 * first, each codeword starting on a byte: n for the codeword, k for the information bits of a
 * systematic-first code), the iterations and the syndrome per codeword, and optionally the
 * posteriors. ldpc_common.h holds the arithmetic they share. */
#ifndef INCLUDED_GPUFEC_LDPC_ENGINE_H
#define INCLUDED_GPUFEC_LDPC_ENGINE_H

#include <gnuradio/gpufec/core/codes/bch.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>

#include "frame/frame_engine.h"
#include "ldpc_common.h"
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace gpufec {

class ldpc_engine : public frame_engine
{
public:
    //! the leading hard bits of each codeword that run() writes (0, the default: the codeword)
    void set_output_bits(int bits) { d_out_bits = bits; }
    void run(const engine_batch& in, const engine_output& out) final
    {
        if (in.soft_f)
            decode_float(in.soft_f, in.frames, out.packed, d_out_bits, out.status, out.soft_out);
        else if (in.soft4)
            decode_soft4(in.soft4, in.frames, out.packed, d_out_bits, out.status, out.soft_out);
        else
            decode(in.soft, in.frames, out.packed, d_out_bits, out.status, out.soft_out);
    }
    /*! packed: ceil(out_bits / 8) bytes per frame (trailing bits 0); status: one per frame;
     *  post: n per frame or null */
    virtual void decode(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* status,
                        float* post) = 0;
    //! packed 4-bit input (runtime/soft4.h), engines whose takes_soft4() says so
    virtual void decode_soft4(const uint8_t* soft4, size_t frames, uint8_t* packed, int out_bits,
                              frame_status* status, float* post);
    //! float input, float32 precision only
    virtual void decode_float(const float* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* status,
                              float* post);
    //! GPU only: seconds per batch for the kernels alone (data already on the device)
    double time_kernels(const int8_t* soft, size_t frames, int reps) override;
    /*! Takes an outer BCH code to decode where the engine decodes, after each codeword (its
     *  codeword: the n bits from byte `at` of those it writes, corrected in place): the status's
     *  check becomes the BCH verdict, inner the syndrome's. False (the default): the caller
     *  decodes it. */
    virtual bool take_outer(std::shared_ptr<const bch_code>, size_t /*at*/) { return false; }
    /*! After take_outer: whether run() can write each frame's BCH message instead (its k bits
     *  from byte `at`, packed, k whole bytes), where set_output_bits asks for k bits; the caller
     *  then needs no pass over the frames to take them out */
    virtual bool writes_outer_message() const { return false; }

protected:
    explicit ldpc_engine(int n) : d_out_bits(n) {}

private:
    int d_out_bits;
};

//! the options' min-sum normalisation, or where they leave it (0) the code's own
inline float ldpc_normalization(const ldpc_code& code, const ldpc_options& o)
{
    return o.normalization > 0.f ? o.normalization : code.default_normalization();
}
//! the same in sixteenths, as the fixed-point engines use it (ldpc_common.h)
inline int ldpc_norm16(const ldpc_code& code, const ldpc_options& o)
{
    const int v = int(ldpc_normalization(code, o) * 16.f + 0.5f);
    return v < 1 ? 1 : v > 16 ? 16 : v;
}

//! the fixed-point constants of the options (ldpc_common.h): the message limit of the precision
//! (int8: 127, else 32767), the normalisation in sixteenths, the offset
inline ldpc_fixed ldpc_fixed_point(const ldpc_code& code, const ldpc_options& o)
{
    return { o.precision == ldpc_precision::int8 ? 127 : 32767, ldpc_norm16(code, o), int(std::lround(o.offset)) };
}
//! the largest magnitude an exact posterior reaches: a channel value (-soft, up to 128) and a
//! message of at most mmax from each of the bit's checks (ldpc_common.h)
inline long long ldpc_posterior_bound(const ldpc_code& code, int mmax)
{
    const auto cd = code.column_degrees();
    const long long dmax = cd.empty() ? 0 : *std::max_element(cd.begin(), cd.end());
    return 128 + dmax * mmax;
}

std::unique_ptr<ldpc_engine> make_ldpc_reference(const ldpc_code& code, const ldpc_options& o);
//! layered min-sum in fixed point, vectorised across codewords
std::unique_ptr<ldpc_engine> make_ldpc_cpu(const ldpc_code& code, const ldpc_options& o);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<ldpc_engine> make_ldpc_cuda(const ldpc_code& code, const ldpc_options& o, int device);
#endif
/*! The engine for the options and the device, by the one device rule (runtime/gpu_engine.h):
 *  the GPU runs layered min-sum in fixed point on quasi-cyclic codes; the rest, the fast CPU
 *  engine or (float, other algorithms, cpu_reference) the reference. */
std::unique_ptr<ldpc_engine> make_ldpc_engine(const ldpc_code& code, const ldpc_options& o, const device_spec& device);

} // namespace gpufec

#endif
