/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "multi_length_decoder.h"
#include "runtime/cpu_pool.h"

#include <gnuradio/gpufec/core/device.h>

#include <algorithm>
#include <cstring>
#include <list>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

class multi_length_decoder : public frame_decoder
{
public:
    explicit multi_length_decoder(multi_length_spec spec) : d_spec(std::move(spec))
    {
        if (!d_spec.accepts || !d_spec.output_bits_for || !d_spec.make || d_spec.max_input == 0 ||
            d_spec.min_input > d_spec.max_input || d_spec.keep < 1)
            throw std::logic_error("multi_length_decoder: incomplete spec");
        if (!d_spec.soft_output_for)
            d_spec.soft_output_for = [](size_t) { return size_t(0); };
        d_proto = &get(d_spec.max_input);
        d_out_max = d_spec.output_bits_for(d_spec.max_input);
        d_soft_max = d_proto->soft_output_per_frame() ? d_spec.soft_output_for(d_spec.max_input) : 0;
        if (d_spec.batch == 0)
            d_spec.batch = d_proto->preferred_batch();
        d_gpu = d_proto->backend().compare(0, 4, "cuda") == 0;
    }

    std::string family() const override { return d_proto->family(); }
    std::string describe() const override { return d_spec.describe; }
    std::string backend() const override { return d_proto->backend(); }
    size_t input_per_frame() const override { return d_spec.max_input; }
    size_t min_input_per_frame() const override { return d_spec.min_input; }
    size_t output_bits() const override { return d_out_max; }
    bool variable_input() const override { return true; }
    bool accepts_length(size_t n) const override
    {
        return n >= d_spec.min_input && n <= d_spec.max_input && d_spec.accepts(n);
    }
    std::string accepted_lengths() const override { return d_spec.lengths_text; }
    size_t output_bits_for(size_t n) const override { return d_spec.output_bits_for(n); }
    size_t soft_output_for(size_t n) const override { return d_soft_max ? d_spec.soft_output_for(n) : 0; }
    bool has_check() const override { return d_proto->has_check(); }
    std::string check_name() const override { return d_proto->check_name(); }
    bool iterates() const override { return d_proto->iterates(); }
    size_t soft_output_per_frame() const override { return d_soft_max; }
    bool wants_float_input() const override { return d_proto->wants_float_input(); }
    size_t preferred_batch() const override { return d_spec.batch; }
    size_t min_efficient_batch() const override { return d_proto->min_efficient_batch(); }

protected:
    void decode_checked(const frame_batch& b) override
    {
        // each length's frames, in batch order, and where each frame's input starts
        d_start.resize(b.frames);
        size_t at = 0;
        for (size_t f = 0; f < b.frames; ++f) {
            d_start[f] = at;
            at += b.input_lengths ? b.input_lengths[f] : d_spec.max_input;
        }
        d_order.resize(b.frames);
        for (size_t f = 0; f < b.frames; ++f)
            d_order[f] = f;
        const auto len = [&](size_t f) { return b.input_lengths ? b.input_lengths[f] : d_spec.max_input; };
        std::stable_sort(d_order.begin(), d_order.end(), [&](size_t x, size_t y) { return len(x) < len(y); });
        for (size_t i = 0; i < b.frames;) {
            size_t j = i;
            while (j < b.frames && len(d_order[j]) == len(d_order[i]))
                ++j;
            decode_group(b, len(d_order[i]), i, j);
            i = j;
        }
    }

private:
    // frames d_order[i..j) all have `n` soft values
    void decode_group(const frame_batch& b, size_t n, size_t i, size_t j)
    {
        frame_decoder& dec = get(n);
        const size_t m = j - i, out_stride = output_bytes(b.packed), sub_stride = dec.output_bytes(b.packed);
        const size_t soft_n = b.soft_out ? dec.soft_output_per_frame() : 0;
        frame_batch g;
        g.frames = m;
        g.packed = b.packed;
        // a group that lies in the batch back to back with the same output stride needs no copies
        // (the sort is stable: the group is back to back when its first and last are m - 1 apart)
        const bool in_place = d_order[j - 1] - d_order[i] == m - 1 && sub_stride == out_stride &&
                              (!b.soft_out || soft_n == d_soft_max);
        const size_t f0 = d_order[i];
        if (in_place) {
            g.soft = b.soft ? b.soft + d_start[f0] : nullptr;
            g.soft_f = b.soft_f ? b.soft_f + d_start[f0] : nullptr;
            g.bits = b.bits + f0 * out_stride;
            g.status = b.status + f0;
            g.soft_out = b.soft_out ? b.soft_out + f0 * d_soft_max : nullptr;
            dec.decode(g);
            return;
        }
        // the group's frames gathered back to back, frames in parallel (a gather of a large
        // batch is hundreds of MB); for a GPU decoder into page-locked memory, which its
        // pipeline copies from directly instead of staging it a second time
        const size_t value = b.soft ? 1 : sizeof(float);
        uint8_t* gathered = gather_space(m * n * value);
        const auto* from = b.soft ? reinterpret_cast<const uint8_t*>(b.soft) : reinterpret_cast<const uint8_t*>(b.soft_f);
        parallel_ranges(*d_pool, m, n * value, [&](size_t first, size_t end) {
            for (size_t k = first; k < end; ++k)
                std::memcpy(gathered + k * n * value, from + d_start[d_order[i + k]] * value, n * value);
        });
        if (b.soft)
            g.soft = reinterpret_cast<const int8_t*>(gathered);
        else
            g.soft_f = reinterpret_cast<const float*>(gathered);
        d_bits.resize(m * sub_stride);
        d_status.resize(m);
        d_soft.resize(m * soft_n);
        g.bits = d_bits.data();
        g.status = d_status.data();
        g.soft_out = soft_n ? d_soft.data() : nullptr;
        dec.decode(g);
        for (size_t k = 0; k < m; ++k) {
            const size_t f = d_order[i + k];
            std::memcpy(b.bits + f * out_stride, d_bits.data() + k * sub_stride, sub_stride);
            b.status[f] = d_status[k];
            if (soft_n)
                std::memcpy(b.soft_out + f * d_soft_max, d_soft.data() + k * soft_n, soft_n * sizeof(float));
        }
    }

    //! room for a gathered group: grown (by half again at least, so a few batches settle it),
    //! never shrunk; page-locked for a GPU decoder
    uint8_t* gather_space(size_t bytes)
    {
        if (!d_gpu) {
            d_gather.resize(bytes);
            return d_gather.data();
        }
        if (!d_gather_pinned || d_gather_pinned->size() < bytes)
            d_gather_pinned = std::make_unique<host_buffer>(
                std::max(bytes, d_gather_pinned ? d_gather_pinned->size() / 2 * 3 : size_t(0)));
        return d_gather_pinned->data();
    }

    // the decoder for length n, made or moved to the front of the recently used list
    frame_decoder& get(size_t n)
    {
        for (auto it = d_cache.begin(); it != d_cache.end(); ++it)
            if (it->first == n) {
                d_cache.splice(d_cache.begin(), d_cache, it);
                return *d_cache.front().second;
            }
        auto dec = d_spec.make(n);
        if (!dec)
            throw std::logic_error("multi_length_decoder: no decoder made for length " + std::to_string(n));
        if (dec->input_per_frame() != n)
            throw std::logic_error("multi_length_decoder: the decoder for length " + std::to_string(n) + " takes " +
                                   std::to_string(dec->input_per_frame()));
        d_cache.emplace_front(n, std::move(dec));
        // the longest length's decoder stays (it answers for the properties)
        while (d_cache.size() > d_spec.keep + 1) {
            auto victim = std::prev(d_cache.end());
            if (victim->first == d_spec.max_input)
                victim = std::prev(victim);
            d_cache.erase(victim);
        }
        return *d_cache.front().second;
    }

    multi_length_spec d_spec;
    std::list<std::pair<size_t, std::unique_ptr<frame_decoder>>> d_cache;
    const frame_decoder* d_proto = nullptr;
    size_t d_out_max = 0, d_soft_max = 0;
    std::vector<size_t> d_start, d_order;
    bool d_gpu = false;
    std::shared_ptr<cpu_pool> d_pool = get_cpu_pool(0);
    std::vector<uint8_t> d_gather;
    std::unique_ptr<host_buffer> d_gather_pinned;
    std::vector<float> d_soft;
    std::vector<uint8_t> d_bits;
    std::vector<frame_status> d_status;
};

} // namespace

std::unique_ptr<frame_decoder> make_multi_length_decoder(multi_length_spec spec)
{
    return std::make_unique<multi_length_decoder>(std::move(spec));
}

} // namespace gpufec
