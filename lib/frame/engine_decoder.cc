/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "frame/frame_engine.h"

#include <gnuradio/gpufec/core/bits.h>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

class engine_decoder : public frame_decoder
{
public:
    engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine, size_t max_batch)
        : d_shape(shape), d_engine(std::move(engine))
    {
        if (!d_engine)
            throw std::logic_error("engine_decoder: no engine");
        d_batch = max_batch ? max_batch : d_engine->on_gpu() ? shape.batch_gpu : shape.batch_cpu;
    }

    std::string family() const override { return d_shape.family; }
    std::string describe() const override { return d_shape.description; }
    std::string backend() const override { return d_engine->name(); }
    size_t input_per_frame() const override { return d_shape.input_per_frame; }
    size_t output_bits() const override { return d_shape.output_bits; }
    bool has_check() const override { return d_shape.has_check; }
    std::string check_name() const override { return d_shape.check_name; }
    bool iterates() const override { return d_shape.iterates; }
    size_t soft_output_per_frame() const override { return d_shape.soft_output; }
    size_t preferred_batch() const override { return d_batch; }
    size_t min_efficient_batch() const override { return d_engine->on_gpu() ? d_shape.min_efficient_gpu : 1; }
    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        return d_engine->time_kernels(soft, frames, reps);
    }

protected:
    void decode_checked(const frame_batch& b) override
    {
        // engines write packed decisions: straight into the output, or unpacked from a scratch
        const size_t k = d_shape.output_bits, bytes = (k + 7) / 8;
        if (!b.packed)
            d_packed.resize(b.frames * bytes);
        engine_batch in;
        in.soft = b.soft;
        in.soft_f = b.soft_f;
        in.lengths = b.input_lengths;
        in.frames = b.frames;
        engine_output out;
        out.packed = b.packed ? b.bits : d_packed.data();
        out.status = b.status;
        out.soft_out = b.soft_out;
        d_engine->run(in, out);
        if (!b.packed)
            for (size_t f = 0; f < b.frames; ++f)
                unpack_bits(d_packed.data() + f * bytes, k, b.bits + f * k);
    }

private:
    frame_shape d_shape;
    std::unique_ptr<frame_engine> d_engine;
    size_t d_batch = 1;
    std::vector<uint8_t> d_packed;
};

} // namespace

std::unique_ptr<frame_decoder> make_engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine,
                                                   size_t max_batch)
{
    return std::make_unique<engine_decoder>(shape, std::move(engine), max_batch);
}

} // namespace gpufec
