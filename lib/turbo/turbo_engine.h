/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo engines (turbo_fixed.h): the CPU one and the CUDA one give the
 * same bits. Input in the streams layout (d0 | d1 | d2, K + 4 each), int8. */
#ifndef INCLUDED_GPUFEC_TURBO_ENGINE_H
#define INCLUDED_GPUFEC_TURBO_ENGINE_H

#include <gnuradio/gpufec/core/turbo.h>
#include <memory>
#include <string>

namespace gpufec {

class turbo_engine
{
public:
    virtual ~turbo_engine() = default;
    virtual std::string name() const = 0;
    virtual bool on_gpu() const { return false; }
    //! frames x (3K + 12) int8 in, frames x K / 8 bytes of decisions out (packed, MSB first)
    virtual void decode(const int8_t* in, size_t frames, uint8_t* bits) = 0;
    //! seconds per decode() of `frames` frames in the kernels alone; negative on the CPU
    virtual double time_kernels(const int8_t*, size_t, int) { return -1; }
};

//! throws std::invalid_argument unless `window` and `training` suit the fixed-point decoders
//! (turbo_fixed.h)
void check_fixed_window(const turbo_code& code, int window, int training);
//! `window`: stages per window, a multiple of 8 up to turbo_fx::MAX_WINDOW
std::unique_ptr<turbo_engine> make_turbo_fixed_cpu(const turbo_code& code, const turbo_options& o, int window);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<turbo_engine> make_turbo_cuda(const turbo_code& code, const turbo_options& o, int window,
                                              int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
