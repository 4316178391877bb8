/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The pooled adapter (frame_engine.h): decoders that work a frame at a time (the families'
 * float references) as an engine, a frame per CPU pool task, each thread with its own worker
 * and scratch, made once. */
#include "frame/frame_engine.h"

#include "runtime/cpu_pool.h"
#include <stdexcept>

namespace gpufec {

namespace {

class pooled_engine : public frame_engine
{
public:
    explicit pooled_engine(const pooled_engine_spec& spec) : d_spec(spec), d_pool(get_cpu_pool(spec.cpu_threads))
    {
        if (!d_spec.make_worker)
            throw std::logic_error("pooled_engine: no worker");
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back(d_spec.make_worker());
    }

    std::string name() const override
    {
        return d_spec.name + " (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }

    void run(const engine_batch& in, const engine_output& out) override
    {
        const size_t frames = in.frames;
        if (in.lengths) { // variable frames lie back to back
            d_start.resize(frames + 1);
            d_start[0] = 0;
            for (size_t f = 0; f < frames; ++f)
                d_start[f + 1] = d_start[f] + in.lengths[f];
        }
        d_pool->parallel_for(int64_t(frames), [&](int64_t fi, int w) {
            const size_t f = size_t(fi);
            const size_t at = in.lengths ? d_start[f] : f * d_spec.input_per_frame;
            engine_frame one;
            one.soft = in.soft ? in.soft + at : nullptr;
            one.soft_f = in.soft_f ? in.soft_f + at : nullptr;
            one.length = in.lengths ? in.lengths[f] : d_spec.input_per_frame;
            one.packed = out.packed + f * d_spec.packed_bytes;
            one.status = out.status + f;
            one.soft_out = out.soft_out ? out.soft_out + f * d_spec.soft_output : nullptr;
            d_workers[size_t(w)]->decode(one);
        });
    }

private:
    pooled_engine_spec d_spec;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<std::unique_ptr<frame_worker>> d_workers;
    std::vector<size_t> d_start;
};

} // namespace

std::unique_ptr<frame_engine> make_pooled_engine(const pooled_engine_spec& spec)
{
    return std::make_unique<pooled_engine>(spec);
}

} // namespace gpufec
