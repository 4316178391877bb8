/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one shape of an engine (a family's CPU reference, fast CPU path or CUDA code) and the one
 * batch_decoder built over engines (engine_decoder.cc), which owns what every family needs
 * around its engine: the input's order, the output's packing, the status, the backend string,
 * batch sizes. A decoder that works a frame at a time (a float reference) becomes an engine
 * through the pooled adapter (pooled_engine.cc): one worker with its scratch per CPU thread.
 * lib/repetition is the template: a CPU engine and a small CUDA engine. */
#ifndef INCLUDED_GPUFEC_FRAME_ENGINE_H
#define INCLUDED_GPUFEC_FRAME_ENGINE_H

#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

//! a batch in host memory: int8 soft values (or float, where the engine takes float), frames
//! of input_per_frame values each (or of lengths[f]: always given where the family's frames vary)
struct engine_batch {
    const int8_t* soft = nullptr;
    const float* soft_f = nullptr;
    const uint8_t* soft4 = nullptr; //!< packed 4-bit values (frame_batch::soft4), to engines that take them

    const size_t* lengths = nullptr;
    size_t frames = 0;
};

//! where the results go, in host memory: packed decisions (ceil(packed_bits / 8) bytes a
//! frame, MSB first), a status per frame (iterations, check; an engine that reads input it
//! cannot use sets erased and check 0; the decoder marks all-zero frames), and soft output
//! where asked (null: not asked; frame_shape::soft_output values a frame)
struct engine_output {
    uint8_t* packed = nullptr;
    frame_status* status = nullptr;
    float* soft_out = nullptr;
};

constexpr int32_t input_erased = -1, input_known_zero = -2, input_known_one = -3;

/*! A piece of an input order (frame_shape::input_order): `length` values at `at` of the
 *  engine's frame, copied from the frame's value `from` on, or (from < 0) the fill input_erased,
 *  input_known_zero or input_known_one. Puncturing and shortening are a few long runs; a
 *  permutation (turbo's interleaved layout) is many runs of one. */
struct input_run {
    int32_t from;
    size_t at, length;
};

//! an input order as runs, in order (throws std::logic_error for an entry below input_known_one)
std::vector<input_run> input_runs(const std::vector<int32_t>& order);

class frame_engine
{
public:
    virtual ~frame_engine() = default;
    virtual std::string name() const = 0; //!< "cpu (...)", "cuda:0 (...)": the backend string
    virtual bool on_gpu() const { return false; }
    //! whether run() reads engine_batch::soft4 (packed 4-bit values, the same bits as their
    //! unpack_soft4 values); the decoder unpacks them for the others
    virtual bool takes_soft4() const { return false; }
    //! decodes a batch host memory to host memory, blocking
    virtual void run(const engine_batch& in, const engine_output& out) = 0;
    //! whether run() writes every frame's status whole (each field), so that the decoder need
    //! not reset them before (batch_decoder::writes_whole_status)
    virtual bool writes_whole_status() const { return false; }
    //! seconds per run of `frames` frames in the device kernels alone; negative where not measured
    virtual double time_kernels(const int8_t*, size_t /*frames*/, int /*reps*/) { return -1; }
    /*! An engine that can put a frame's values in its own order as it loads them (a GPU kernel
     *  reading the sent values and filling the rest) says so here and from then on takes frames
     *  of `frame_values` int8 values; the decoder then skips its own pass over the batch.
     *  `runs` (input_runs()) place a frame's `frame_values` into the engine's `engine_values`. */
    virtual bool take_input_order(const std::vector<input_run>& /*runs*/, size_t /*engine_values*/,
                                  size_t /*frame_values*/)
    {
        return false;
    }
};

//! int8 frames of fixed length through an engine (tests that compare engines)
inline void run_engine(frame_engine& e, const int8_t* soft, size_t frames, uint8_t* packed, frame_status* status)
{
    engine_batch in;
    in.soft = soft;
    in.frames = frames;
    engine_output out;
    out.packed = packed;
    out.status = status;
    e.run(in, out);
}

//! what a family's frames are, whatever engine decodes them
struct frame_shape {
    std::string family;
    std::string description;
    size_t input_per_frame = 0; //!< (the longest, for variable frames)
    size_t output_bits = 0;
    //! bits a frame the engine writes (0: output_bits); the decoder keeps the first output_bits
    //! (turbo: the code block, whose CRC ends it)
    size_t packed_bits = 0;
    size_t soft_output = 0; //!< soft values out a frame (0: none)
    size_t symbol_bits = 1;
    bool has_check = false;
    std::string check_name = "check_ok";
    bool iterates = false;
    bool counts_corrections = false; //!< the engine writes frame_status::corrected
    bool wants_float = false; //!< the engine reads engine_batch::soft_f (exact max* needs the scale)
    //! variable frames (lengths min_input .. input_per_frame; output and soft output fixed)
    bool variable = false;
    size_t min_input = 0;
    std::string lengths_text; //!< the accepted lengths, in words, for errors
    /*! where not empty: the engine's frames have input_order.size() values, value i being value
     *  input_order[i] of the frame as it comes (a code's layout other than the engine's), or
     *  one the frame does not carry: input_erased (0: punctured), input_known_zero or
     *  input_known_one (shortened bits: the strongest value of that sign) */
    std::vector<int32_t> input_order;
    //! where not empty: output bit i is bit output_order[i] of what the engine wrote (LDPC's
    //! information bits where they are not the codeword's first k)
    std::vector<int32_t> output_order;
    //! where set: run on each frame's results after the engine (packed decisions, soft output
    //! or null, status), frames in parallel (SCPPM's de-randomizer, DVB-S2's BCH after LDPC)
    std::function<void(uint8_t* packed, float* soft_out, frame_status& status)> post_frame;
    size_t batch_cpu = 64, batch_gpu = 4096; //!< frames per call when max_batch is 0
    //! CPU batches beyond four cores: frames a core (cpu_batch_units); 0: batch_cpu a pair
    size_t batch_cpu_per_core = 0;
    size_t min_efficient_cpu = 1, min_efficient_gpu = 1024;
    int cpu_threads = 0; //!< the CPU pool of the decoder's own steps (unpacking, post_frame)
};

//! one frame for a decoder that works a frame at a time: its soft values and where its results go
struct engine_frame {
    const int8_t* soft = nullptr; //!< (one of soft, soft_f)
    const float* soft_f = nullptr;
    size_t length = 0;
    uint8_t* packed = nullptr;
    frame_status* status = nullptr;
    float* soft_out = nullptr; //!< null: not asked
    //! value i as a float: the float input as given, int8 as is (-128 read as -127, symmetric)
    float value(size_t i) const { return soft_f ? soft_f[i] : float(std::max<int8_t>(soft[i], -127)); }
};

//! a per-frame decoder with its scratch (one per CPU thread of a pooled engine)
class frame_worker
{
public:
    virtual ~frame_worker() = default;
    virtual void decode(const engine_frame& frame) = 0;
};

struct pooled_engine_spec {
    std::string name; //!< "cpu float reference": the threads and the pool's kind are added
    int cpu_threads = 0;
    size_t input_per_frame = 0; //!< the stride of fixed frames (variable: lengths summed)
    size_t packed_bytes = 0;    //!< output bytes a frame
    size_t soft_output = 0;     //!< soft output values a frame
    std::function<std::unique_ptr<frame_worker>()> make_worker;
};

//! the pooled adapter: a frame per CPU pool task, each thread with its own worker
std::unique_ptr<frame_engine> make_pooled_engine(const pooled_engine_spec& spec);

//! the one batch_decoder over an engine; max_batch 0: the shape's batch for the engine's kind
std::unique_ptr<batch_decoder> make_engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine,
                                                   size_t max_batch);

} // namespace gpufec

#endif
