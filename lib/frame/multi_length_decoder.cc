/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "multi_length_decoder.h"
#include "runtime/cpu_pool.h"
#include "runtime/side_task.h"

#include <gnuradio/gpufec/core/runtime/device.h>

#include <algorithm>
#include <cstring>
#include <list>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

class multi_length_decoder : public batch_decoder
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
        if (d_spec.make_mixed) {
            d_mixed = d_spec.make_mixed();
            if (d_mixed && (d_mixed->output_bytes(true) != output_bytes(true) ||
                            d_mixed->output_bytes(false) != output_bytes(false) || !d_mixed->variable_input()))
                throw std::logic_error("multi_length_decoder: the mixed decoder's frames differ from the groups'");
        }
    }

    std::string family() const override { return d_proto->family(); }
    std::string describe() const override { return d_spec.describe; }
    std::string backend() const override { return d_mixed ? d_mixed->backend() : d_proto->backend(); }
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
    bool counts_corrections() const override { return d_proto->counts_corrections(); }
    bool iterates() const override { return d_proto->iterates(); }
    size_t soft_output_per_frame() const override { return d_soft_max; }
    bool wants_float_input() const override { return d_proto->wants_float_input(); }
    //! packed 4-bit input reaches a mixed decoder that takes it; else decode() unpacks it
    bool takes_soft4() const override { return d_mixed && d_mixed->takes_soft4(); }
    size_t preferred_batch() const override { return d_spec.batch; }
    size_t min_efficient_batch() const override { return d_proto->min_efficient_batch(); }

protected:
    void decode_checked(const frame_batch& b) override
    {
        if (d_mixed && (b.soft || b.soft4) && !b.soft_out) { // (soft4: only where the mixed decoder takes it)
            decode_mixed(b);
            return;
        }
        if (b.soft4) // (takes_soft4() is the mixed decoder's: the base unpacks for the groups)
            throw std::logic_error("multi_length_decoder: packed input for the groups");
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
        cut_pieces(b, len);

        // piece p decodes from buffer `cur` while the helper gathers the next gathered piece
        // (`ahead`) into the other; leaving early (an exception) waits for the helper first
        constexpr size_t none = size_t(-1);
        size_t ahead = none;
        int cur = 0;
        try {
            for (size_t p = 0; p < d_pieces.size(); ++p) {
                const piece& pc = d_pieces[p];
                if (pc.in_place) {
                    decode_in_place(b, pc);
                    continue;
                }
                if (ahead == p) {
                    ahead = none;
                    d_side->wait();
                    cur ^= 1;
                } else {
                    gather(b, pc, cur);
                }
                if (d_side)
                    for (size_t q = p + 1; q < d_pieces.size(); ++q)
                        if (!d_pieces[q].in_place) {
                            const int next = cur ^ 1;
                            d_side->start([this, &b, q, next] { gather(b, d_pieces[q], next); });
                            ahead = q;
                            break;
                        }
                decode_gathered(b, pc, cur);
            }
        } catch (...) {
            if (ahead != none)
                try {
                    d_side->wait();
                } catch (...) { // the decode's own error is the one that propagates
                }
            throw;
        }
    }

private:
    /*! the whole batch through the mixed decoder, its decisions through scratch so that past a
     *  frame's own bits its stride is left alone (as the groups leave it) */
    void decode_mixed(const frame_batch& b)
    {
        const size_t stride = output_bytes(b.packed);
        d_bits.resize(b.frames * stride);
        frame_batch g = b;
        g.bits = d_bits.data();
        d_mixed->decode(g);
        parallel_ranges(*d_pool, b.frames, stride, [&](size_t first, size_t end) {
            for (size_t f = first; f < end; ++f) {
                const size_t bits = d_spec.output_bits_for(b.input_lengths ? b.input_lengths[f] : d_spec.max_input);
                const uint8_t* from = d_bits.data() + f * stride;
                uint8_t* to = b.bits + f * stride;
                if (!b.packed) {
                    std::copy(from, from + bits, to);
                    continue;
                }
                std::copy(from, from + (bits + 7) / 8, to);
                if (bits % 8)
                    to[bits / 8] &= uint8_t(0xff << (8 - bits % 8));
            }
        });
    }

    //! frames d_order[i..j) all have `n` soft values; in_place: they lie back to back in the batch
    struct piece {
        size_t n, i, j;
        bool in_place;
    };

    // the groups of equal length, whole or (pieces) cut to about piece_bytes of input each
    template <class Len>
    void cut_pieces(const frame_batch& b, const Len& len)
    {
        const size_t value = b.soft ? 1 : sizeof(float);
        const size_t piece_bytes = d_spec.piece_bytes ? d_spec.piece_bytes : d_gpu ? size_t(64) << 20 : 0;
        if (piece_bytes && !d_side)
            d_side = std::make_unique<side_task>();
        d_pieces.clear();
        for (size_t i = 0; i < b.frames;) {
            const size_t n = len(d_order[i]);
            size_t j = i;
            while (j < b.frames && len(d_order[j]) == n)
                ++j;
            const size_t m = j - i;
            // a group that lies in the batch back to back with the same output stride needs no
            // copies (the sort is stable: the group is back to back when its first and last are
            // m - 1 apart); the strides from the spec, so that no decoder is made (or dropped
            // from the cache) before its turn
            const size_t bits = d_spec.output_bits_for(n);
            const bool in_place = d_order[j - 1] - d_order[i] == m - 1 &&
                                  (b.packed ? (bits + 7) / 8 : bits) == output_bytes(b.packed) &&
                                  (!b.soft_out || soft_output_for(n) == d_soft_max);
            const size_t per = in_place || !piece_bytes ? m : std::max<size_t>(1, piece_bytes / (n * value));
            for (size_t a = i; a < j; a += per)
                d_pieces.push_back({ n, a, std::min(j, a + per), in_place });
            i = j;
        }
    }

    void decode_in_place(const frame_batch& b, const piece& pc)
    {
        const size_t f0 = d_order[pc.i], out_stride = output_bytes(b.packed);
        frame_batch g;
        g.frames = pc.j - pc.i;
        g.packed = b.packed;
        g.soft = b.soft ? b.soft + d_start[f0] : nullptr;
        g.soft_f = b.soft_f ? b.soft_f + d_start[f0] : nullptr;
        g.bits = b.bits + f0 * out_stride;
        g.status = b.status + f0;
        g.soft_out = b.soft_out ? b.soft_out + f0 * d_soft_max : nullptr;
        get(pc.n).decode(g);
    }

    // the piece's frames back to back into gather buffer `slot`, frames in parallel (a
    // large batch's gather is hundreds of MB)
    void gather(const frame_batch& b, const piece& pc, int slot)
    {
        const size_t value = b.soft ? 1 : sizeof(float), m = pc.j - pc.i, bytes = pc.n * value;
        uint8_t* to = gather_space(slot, m * bytes);
        const auto* from = b.soft ? reinterpret_cast<const uint8_t*>(b.soft) : reinterpret_cast<const uint8_t*>(b.soft_f);
        parallel_ranges(*d_pool, m, bytes, [&](size_t first, size_t end) {
            for (size_t k = first; k < end; ++k)
                std::memcpy(to + k * bytes, from + d_start[d_order[pc.i + k]] * value, bytes);
        });
    }

    // decodes a piece gathered into buffer `slot` and puts its results at its frames' places
    void decode_gathered(const frame_batch& b, const piece& pc, int slot)
    {
        batch_decoder& dec = get(pc.n);
        const size_t m = pc.j - pc.i, out_stride = output_bytes(b.packed), sub_stride = dec.output_bytes(b.packed);
        const size_t soft_n = b.soft_out ? dec.soft_output_per_frame() : 0;
        frame_batch g;
        g.frames = m;
        g.packed = b.packed;
        if (b.soft)
            g.soft = reinterpret_cast<const int8_t*>(d_gathered[slot]);
        else
            g.soft_f = reinterpret_cast<const float*>(d_gathered[slot]);
        d_bits.resize(m * sub_stride);
        d_status.resize(m);
        d_soft.resize(m * soft_n);
        g.bits = d_bits.data();
        g.status = d_status.data();
        g.soft_out = soft_n ? d_soft.data() : nullptr;
        dec.decode(g);
        for (size_t k = 0; k < m; ++k) {
            const size_t f = d_order[pc.i + k];
            std::memcpy(b.bits + f * out_stride, d_bits.data() + k * sub_stride, sub_stride);
            b.status[f] = d_status[k];
            if (soft_n)
                std::memcpy(b.soft_out + f * d_soft_max, d_soft.data() + k * soft_n, soft_n * sizeof(float));
        }
    }

    //! room for a gathered piece in buffer `slot` (two: one decoded, one gathered): grown (by
    //! half again at least, so a few batches settle it), never shrunk; page-locked for a GPU
    //! decoder. Called by the helper thread for the other slot than the caller's.
    uint8_t* gather_space(int slot, size_t bytes)
    {
        if (!d_gpu) {
            d_gather[slot].resize(bytes);
            return d_gathered[slot] = d_gather[slot].data();
        }
        auto& buf = d_gather_pinned[slot];
        if (!buf || buf->size() < bytes)
            buf = std::make_unique<host_buffer>(std::max(bytes, buf ? buf->size() / 2 * 3 : size_t(0)));
        return d_gathered[slot] = buf->data();
    }

    // the decoder for length n, made or moved to the front of the recently used list
    batch_decoder& get(size_t n)
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
    std::list<std::pair<size_t, std::unique_ptr<batch_decoder>>> d_cache;
    const batch_decoder* d_proto = nullptr;
    std::unique_ptr<batch_decoder> d_mixed; // (spec.make_mixed)
    size_t d_out_max = 0, d_soft_max = 0;
    std::vector<size_t> d_start, d_order;
    bool d_gpu = false;
    std::shared_ptr<cpu_pool> d_pool = get_cpu_pool(0);
    std::vector<piece> d_pieces;
    std::vector<uint8_t> d_gather[2];
    std::unique_ptr<host_buffer> d_gather_pinned[2];
    uint8_t* d_gathered[2] = { nullptr, nullptr };
    std::unique_ptr<side_task> d_side; // gathers the next piece (pieces only)
    std::vector<float> d_soft;
    std::vector<uint8_t> d_bits;
    std::vector<frame_status> d_status;
};

} // namespace

std::unique_ptr<batch_decoder> make_multi_length_decoder(multi_length_spec spec)
{
    return std::make_unique<multi_length_decoder>(std::move(spec));
}

} // namespace gpufec
