/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one shape of an engine (a family's CPU reference, fast CPU path or CUDA code) and the one
 * frame_decoder built over engines (engine_decoder.cc), which owns what every family needs
 * around its engine: the output's packing, the status, the backend string, batch sizes.
 * The repetition family is the first on it (lib/repetition: a CPU and a CUDA engine); the
 * other families move onto it one by one. */
#ifndef INCLUDED_GPUFEC_FRAME_ENGINE_H
#define INCLUDED_GPUFEC_FRAME_ENGINE_H

#include <gnuradio/gpufec/core/frame_decoder.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gpufec {

//! a batch in host memory: int8 soft values (or float, where the engine takes float), frames
//! of input_per_frame values each (or of lengths[f], where the family's frames vary)
struct engine_batch {
    const int8_t* soft = nullptr;
    const float* soft_f = nullptr;
    const size_t* lengths = nullptr;
    size_t frames = 0;
};

//! where the results go, in host memory: packed decisions (ceil(output bits / 8) bytes a
//! frame, MSB first), a status per frame (iterations, check; the decoder marks erasures), and
//! soft output where asked (null: not asked)
struct engine_output {
    uint8_t* packed = nullptr;
    frame_status* status = nullptr;
    float* soft_out = nullptr;
};

class frame_engine
{
public:
    virtual ~frame_engine() = default;
    virtual std::string name() const = 0; //!< "cpu (...)", "cuda:0 (...)": the backend string
    virtual bool on_gpu() const { return false; }
    //! decodes a batch host memory to host memory, blocking
    virtual void run(const engine_batch& in, const engine_output& out) = 0;
    //! seconds per run of `frames` frames in the device kernels alone; negative where not measured
    virtual double time_kernels(const int8_t*, size_t /*frames*/, int /*reps*/) { return -1; }
};

//! what a family's frames are, whatever engine decodes them
struct frame_shape {
    std::string family;
    std::string description;
    size_t input_per_frame = 0;
    size_t output_bits = 0;
    size_t soft_output = 0; //!< soft values out a frame (0: none)
    bool has_check = false;
    std::string check_name = "check_ok";
    bool iterates = false;
    size_t batch_cpu = 64, batch_gpu = 4096; //!< frames per call when max_batch is 0
    size_t min_efficient_gpu = 1024;
};

//! the one frame_decoder over an engine; max_batch 0: the shape's batch for the engine's kind
std::unique_ptr<frame_decoder> make_engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine,
                                                   size_t max_batch);

} // namespace gpufec

#endif
