/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Viterbi's frame modes (terminated, tail-biting, truncated) as a frame engine
 * (frame/frame_engine.h): a frame is one job of the Viterbi engines (vit_engine.h: a CUDA
 * thread or a CPU SIMD lane per frame), its decisions packed on byte boundaries. The family's
 * decoder and the public viterbi_frame_decoder both run on it. */
#ifndef INCLUDED_GPUFEC_VITERBI_FRAMES_ENGINE_H
#define INCLUDED_GPUFEC_VITERBI_FRAMES_ENGINE_H

#include <gnuradio/gpufec/core/viterbi/viterbi.h>

#include "frame/frame_engine.h"
#include "vit_engine.h"
#include <memory>

namespace gpufec {

class viterbi_frames_engine : public frame_engine
{
public:
    //! the engine by the device rule; options checked (a streaming mode is refused)
    viterbi_frames_engine(const conv_code& code, const viterbi_options& options, const device_spec& device);
    //! sizes the engine for runs of up to `frames` frames; a GPU whose buffers do not fit
    //! follows the device rule (device auto: the CPU from here on)
    void reserve(size_t frames);
    size_t input_per_frame() const { return size_t(d_p.in_per_frame); }
    size_t output_bits() const { return size_t(d_opts.frame_bits); }
    const conv_code& code() const { return d_code; }

    std::string name() const override;
    bool on_gpu() const override;
    void run(const engine_batch& in, const engine_output& out) override;
    double time_kernels(const int8_t* soft, size_t frames, int reps) override;

private:
    conv_code d_code;
    viterbi_options d_opts;
    device_spec d_device;
    vit_params d_p;
    std::unique_ptr<vit_engine> d_engine;
};

} // namespace gpufec

#endif
