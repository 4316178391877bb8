/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "frame/frame_engine.h"

#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/cpu_pool.h"
#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpufec {

namespace {

class engine_decoder : public batch_decoder
{
public:
    engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine, size_t max_batch)
        : d_shape(shape), d_engine(std::move(engine)), d_pool(get_cpu_pool(shape.cpu_threads))
    {
        if (!d_engine)
            throw std::logic_error("engine_decoder: no engine");
        if (!d_shape.packed_bits)
            d_shape.packed_bits = d_shape.output_bits;
        if (d_shape.packed_bits < d_shape.output_bits)
            throw std::logic_error("engine_decoder: the engine writes fewer bits than the output");
        if (!d_shape.input_order.empty()) {
            plan_reorder();
            d_engine_orders = !d_shape.wants_float &&
                              d_engine->take_input_order(d_runs, d_shape.input_order.size(), d_shape.input_per_frame);
        }
        if (!d_shape.variable)
            d_shape.min_input = d_shape.input_per_frame;
        if (!d_shape.output_order.empty()) {
            if (d_shape.output_order.size() != d_shape.output_bits)
                throw std::logic_error("engine_decoder: the output order must name every output bit");
            for (int32_t i : d_shape.output_order)
                if (i < 0 || size_t(i) >= d_shape.packed_bits)
                    throw std::logic_error("engine_decoder: the output order names a bit the engine does not write");
            plan_output_runs();
        }
        // a CPU engine's batch grows with the cores (batch_cpu a pair of them, or
        // batch_cpu_per_core a core beyond four: cpu_batch_units), so that every worker gets
        // groups of SIMD lanes: turbo's 64 frames were two groups of 32, which kept 14 of the
        // H200 host's 16 cores idle in a flowgraph (0.06 Gb/s against 0.36 in gpufec_bench, whose
        // batches are whole runs). At most 128 Mi soft values a batch where that is more than
        // batch_cpu (a block holds three).
        const size_t pairs_of_cores = std::max<size_t>(1, std::thread::hardware_concurrency() / 2);
        const size_t cpu_batch = cpu_batch_units(shape.batch_cpu * pairs_of_cores, shape.batch_cpu_per_core);
        const size_t cpu_cap = std::max(shape.batch_cpu, (size_t(128) << 20) / std::max<size_t>(1, shape.input_per_frame));
        d_batch = max_batch ? max_batch : d_engine->on_gpu() ? shape.batch_gpu : std::min(cpu_batch, cpu_cap);
    }

    std::string family() const override { return d_shape.family; }
    std::string describe() const override { return d_shape.description; }
    std::string backend() const override { return d_engine->name(); }
    size_t input_per_frame() const override { return d_shape.input_per_frame; }
    size_t min_input_per_frame() const override { return d_shape.min_input; }
    bool variable_input() const override { return d_shape.variable; }
    std::string accepted_lengths() const override
    {
        return d_shape.lengths_text.empty() ? batch_decoder::accepted_lengths() : d_shape.lengths_text;
    }
    size_t output_bits() const override { return d_shape.output_bits; }
    size_t symbol_bits() const override { return d_shape.symbol_bits; }
    bool has_check() const override { return d_shape.has_check; }
    std::string check_name() const override { return d_shape.check_name; }
    bool counts_corrections() const override { return d_shape.counts_corrections; }
    bool iterates() const override { return d_shape.iterates; }
    size_t soft_output_per_frame() const override { return d_shape.soft_output; }
    bool wants_float_input() const override { return d_shape.wants_float; }
    bool takes_soft4() const override
    {
        return d_engine->takes_soft4() && !d_shape.wants_float && (d_shape.input_order.empty() || d_engine_orders);
    }
    size_t preferred_batch() const override { return d_batch; }
    size_t min_efficient_batch() const override
    {
        return d_engine->on_gpu() ? d_shape.min_efficient_gpu : d_shape.min_efficient_cpu;
    }
    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        return d_shape.input_order.empty() || d_engine_orders ? d_engine->time_kernels(soft, frames, reps) : -1;
    }

protected:
    bool writes_whole_status() const override { return d_engine->writes_whole_status(); }
    void decode_checked(const frame_batch& b) override
    {
        const size_t k = d_shape.output_bits, bytes = (k + 7) / 8, engine_bytes = (d_shape.packed_bits + 7) / 8;
        // engines write packed decisions: straight into the output where it has their form
        const bool direct = b.packed && bytes == engine_bytes && d_shape.output_order.empty();
        if (!direct)
            d_packed.resize(b.frames * engine_bytes);
        engine_batch in;
        in.soft = b.soft;
        in.soft_f = b.soft_f;
        in.soft4 = b.soft4;
        in.lengths = b.input_lengths;
        in.frames = b.frames;
        if (d_shape.variable && !in.lengths) { // (variable engines always get lengths)
            d_lengths.assign(b.frames, d_shape.input_per_frame);
            in.lengths = d_lengths.data();
        }
        if (!d_shape.input_order.empty() && !d_engine_orders)
            reorder(b, in);
        engine_output out;
        out.packed = direct ? b.bits : d_packed.data();
        out.status = b.status;
        out.soft_out = b.soft_out;
        d_engine->run(in, out);
        if (direct && !d_shape.post_frame)
            return;
        const size_t out_bytes = output_bytes(b.packed);
        parallel_ranges(*d_pool, b.frames, out_bytes, [&](size_t first, size_t end) {
            for (size_t f = first; f < end; ++f) {
                uint8_t* p = out.packed + f * engine_bytes;
                if (d_shape.post_frame)
                    d_shape.post_frame(p, b.soft_out ? b.soft_out + f * d_shape.soft_output : nullptr, b.status[f]);
                if (direct)
                    continue;
                uint8_t* o = b.bits + f * out_bytes;
                if (!d_shape.output_order.empty())
                    select_bits(p, o, b.packed);
                else if (!b.packed)
                    unpack_bits(p, k, o);
                else { // the leading bytes, the last one's unused bits cleared
                    std::copy(p, p + bytes, o);
                    if (k % 8)
                        o[bytes - 1] &= uint8_t(0xff << (8 - k % 8));
                }
            }
        });
    }

private:
    //! output bit i = engine bit output_order[i], unpacked or packed: a word copy a run of
    //! consecutive engine bits (C2's information bits are two runs, its shortened form's one)
    //! rather than a loop over bits; runs shorter than a word step a bit at a time, as before
    void select_bits(const uint8_t* p, uint8_t* o, bool packed) const
    {
        const size_t k = d_shape.output_bits, bytes = (k + 7) / 8;
        thread_local std::vector<uint8_t> staged;
        uint8_t* to = o;
        if (!packed) {
            staged.resize(bytes);
            to = staged.data();
        }
        std::fill(to, to + bytes, uint8_t(0));
        for (const bit_run& r : d_out_runs) {
            if (r.length >= 72) {
                copy_packed_bits(p, r.from, to, r.at, r.length);
                continue;
            }
            for (size_t i = 0; i < r.length; ++i) // (short runs: DVB-S2's codeword as sent)
                set_packed_bit(to, r.at + i, packed_bit(p, r.from + i));
        }
        if (!packed)
            unpack_bits(to, k, o);
    }

    //! the output order as runs of consecutive engine bits
    void plan_output_runs()
    {
        for (size_t i = 0; i < d_shape.output_order.size(); ++i) {
            const size_t from = size_t(d_shape.output_order[i]);
            if (!d_out_runs.empty() && d_out_runs.back().from + d_out_runs.back().length == from)
                ++d_out_runs.back().length;
            else
                d_out_runs.push_back(bit_run{ from, i, 1 });
        }
    }

    void plan_reorder()
    {
        if (d_shape.variable)
            throw std::logic_error("engine_decoder: an input order needs fixed frames");
        for (int32_t v : d_shape.input_order)
            if (v >= int64_t(d_shape.input_per_frame))
                throw std::logic_error("engine_decoder: the input order names a value the frame does not have");
        d_runs = input_runs(d_shape.input_order);
    }

    template <class T>
    void reorder_frame(const T* in, T* out, T known) const
    {
        for (const input_run& r : d_runs) {
            if (r.from >= 0) {
                std::copy(in + r.from, in + r.from + r.length, out + r.at);
                continue;
            }
            const T v = r.from == input_erased ? T(0) : r.from == input_known_zero ? T(-known) : known;
            std::fill(out + r.at, out + r.at + r.length, v);
        }
    }

    //! the frames in the engine's order, into scratch
    void reorder(const frame_batch& b, engine_batch& in)
    {
        const size_t n = d_shape.input_per_frame, m = d_shape.input_order.size();
        if (b.soft_f)
            d_in_f.resize(b.frames * m);
        else
            d_in.resize(b.frames * m);
        // (a known bit: int8's strongest value; float: the largest value the float path takes)
        parallel_ranges(*d_pool, b.frames, m, [&](size_t first, size_t end) {
            for (size_t f = first; f < end; ++f) {
                if (b.soft_f)
                    reorder_frame<float>(b.soft_f + f * n, d_in_f.data() + f * m, 1e30f);
                else
                    reorder_frame<int8_t>(b.soft + f * n, d_in.data() + f * m, int8_t(127));
            }
        });
        in.soft = b.soft_f ? nullptr : d_in.data();
        in.soft_f = b.soft_f ? d_in_f.data() : nullptr;
    }

    frame_shape d_shape;
    std::unique_ptr<frame_engine> d_engine;
    std::shared_ptr<cpu_pool> d_pool;
    size_t d_batch = 1;
    std::vector<uint8_t> d_packed;
    std::vector<size_t> d_lengths;
    std::vector<input_run> d_runs;
    struct bit_run {
        size_t from, at, length; //!< engine bits from .. from + length - 1 are output bits at ..
    };
    std::vector<bit_run> d_out_runs;
    bool d_engine_orders = false; //!< the engine reads the sent values in place
    std::vector<int8_t> d_in;
    std::vector<float> d_in_f;
};

} // namespace

std::vector<input_run> input_runs(const std::vector<int32_t>& order)
{
    std::vector<input_run> runs;
    for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] < input_known_one)
            throw std::logic_error("input_runs: " + std::to_string(order[i]) + " is not a value nor a fill");
        if (!runs.empty()) {
            input_run& last = runs.back();
            const bool extends = order[i] < 0 ? order[i] == last.from
                                              : last.from >= 0 && last.from + int64_t(last.length) == order[i];
            if (extends) {
                ++last.length;
                continue;
            }
        }
        runs.push_back(input_run{ order[i], i, 1 });
    }
    return runs;
}

std::unique_ptr<batch_decoder> make_engine_decoder(const frame_shape& shape, std::unique_ptr<frame_engine> engine,
                                                   size_t max_batch)
{
    return std::make_unique<engine_decoder>(shape, std::move(engine), max_batch);
}

} // namespace gpufec
