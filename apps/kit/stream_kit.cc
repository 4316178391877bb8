/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The streaming Viterbi kit. The simulated stream is one endless stream per point, starting
 * in state 0; its "frames" are the decoder's blocks of D = block_len bits. Block b draws its D
 * information bits, then the noise of the coded values it produced, from its own generator, so
 * any range of blocks can be made on its own: the blocks around it (the L stages of traceback
 * before and after) are made too, and the encoder state at its start comes from the blocks
 * before. Decoding goes through decode_blocks(), what push() runs inside. */
#include "frames_ahead.h"
#include "kit_buffer.h"
#include "kits.h"

#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include "runtime/cpu_pool.h"
#include "sim/stream_frames.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpufec {
namespace app {

namespace {

class stream_kit : public code_kit
{
public:
    stream_kit(const frame_options& opts, const device_spec& device) : d_pool(get_cpu_pool(0)), d_device(device)
    {
        option_reader r("viterbi", opts, &frame_family_info("viterbi").schema);
        d_code = conv_code_from_options(r);
        r.get("mode", "streaming");
        d_opts.mode = conv_mode::streaming;
        d_opts.block_len = int(r.get_int("block_len", 512, 8, 1 << 20));
        d_opts.traceback = int(r.get_int("traceback", 0, 0, 4096));
        d_opts.max_batch = int(r.get_int("max_batch", 0, 0, max_batch_limit));
        d_opts.cpu_threads = int(r.get_int("cpu_threads", 0, 0, 1024));
        d_soft_bits = int(r.get_int("soft_bits", 8, 4, 8));
        d_soft_scale = float(r.get_float("soft_scale", default_soft_scale, 1, 127));
        if (d_soft_bits != 4 && d_soft_bits != 8)
            throw std::invalid_argument("soft_bits: " + std::to_string(d_soft_bits) + " is not 4 or 8");
        r.finish();
        d_dec = std::make_unique<viterbi_stream_decoder>(d_code, d_opts, device);
        d_enc = std::make_unique<conv_encoder>(d_code, conv_mode::streaming);
        const int64_t D = d_opts.block_len, P = d_code.period();
        d_align = P / std::gcd(D, P); // blocks from one period boundary to the next
        d_margin = (d_dec->traceback() + D - 1) / D;
        if (d_code.puncture.empty())
            d_spectrum = distance_spectrum(d_code);
        d_rx.resize(size_t(d_pool->size()));
    }

    std::string describe() const override
    {
        std::string scale = d_soft_scale == default_soft_scale ? "" : ", soft scale " + std::to_string(int(d_soft_scale));
        return "viterbi " + d_code.describe() + ", streaming D=" + std::to_string(d_opts.block_len) +
               " L=" + std::to_string(d_dec->traceback()) + (d_soft_bits == 4 ? ", 4-bit input" : "") + scale;
    }
    std::string backend() const override { return d_dec->backend(); }
    double rate() const override { return double(d_code.period()) / d_code.kept_per_period(); }
    uint64_t info_bits_per_frame() const override { return uint64_t(d_opts.block_len); }
    uint64_t preferred_frames() const override
    {
        // a GPU: 65536 blocks of 512 bits a call (9.0 Gb/s simulated on an H200 with the drawn stream, 6.2 at 16384)
        return d_opts.max_batch > 0 ? uint64_t(d_opts.max_batch) : (d_dec->backend().rfind("cuda", 0) == 0 ? 65536 : 512);
    }
    double union_bound_ber(double ebn0) const override
    {
        return d_spectrum.empty() ? NAN : gpufec::union_bound_ber(d_spectrum, rate(), ebn0);
    }

    std::string choose_frame_maker(const std::string& maker, const channel_kit& ch, uint64_t seed) override
    {
        d_gpu.reset();
        d_ahead.reset();
        auto refusal = [&]() -> std::string {
            if (std::isnan(ch.awgn_sigma()))
                return "the drawn stream is BPSK over AWGN only, not " + ch.name();
            try {
                d_stream_code = sim::make_stream_code(d_code);
            } catch (const std::invalid_argument& e) { // (a puncturing period keeping very many values)
                return e.what();
            }
            return "";
        };
        return choose_drawn(
            maker, ch, seed, refusal, "the stream drawn by Philox, exact int8 levels,",
            [&] {
                d_gpu = sim::make_stream_maker_gpu(resolve_backend(d_device).device, d_stream_code, d_soft_bits);
                return d_gpu->device();
            },
            d_sim);
    }

    void simulate(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch,
                  frame_result* out) override
    {
        if (d_sim) {
            simulate_drawn(key, first, count, ch, out);
            return;
        }
        make_blocks(key, first, count, ch);
        decode();
        const size_t D = size_t(d_opts.block_len), bytes = D / 8;
        const size_t skip = size_t(first - d_made_first); // blocks made before `first`
        for_frames(*d_pool, count, [&](uint64_t b, int) {
            const uint8_t* got = d_packed + b * bytes;
            const uint8_t* sent = d_info.data() + (skip + b) * D;
            uint32_t e = 0;
            for (size_t i = 0; i < D; ++i)
                e += packed_bit(got, i) != sent[i];
            out[b].bit_errors = e;
            out[b].iterations = 1;
        });
    }

    void bench_prepare(const sim_key& key, uint64_t count, const channel_kit& ch) override
    {
        make_blocks(key, 0, count, ch);
    }
    uint64_t bench_input_bytes() const override { return d_soft_bits == 4 ? (d_soft_len + 1) / 2 : d_soft_len; }
    void bench_decode() override { decode(); }
    double bench_kernel_seconds(int reps) override
    {
        // as many blocks as one engine call takes (max_batch), scaled to the whole input
        const int64_t D = d_opts.block_len, L = d_dec->traceback();
        const int64_t n = int64_t(d_count);
        const int64_t k = d_opts.max_batch > 0 ? std::min<int64_t>(n, d_opts.max_batch) : n;
        if (d_first != 0 || d_made_first != 0)
            return -1;
        const int8_t* in = d_soft_bits == 4 ? reinterpret_cast<const int8_t*>(d_soft4) : d_soft;
        const double s = d_dec->time_kernels_only(in, size_t(d_code.kept_for_stages(k * D + L)), k, reps, d_soft_bits);
        return s > 0 ? s * double(n) / double(k) : s;
    }
    error_counts bench_errors() const override
    {
        error_counts c;
        const size_t D = size_t(d_opts.block_len), skip = size_t(d_first - d_made_first);
        for (uint64_t b = 0; b < d_count; ++b) {
            uint64_t e = 0;
            for (size_t i = 0; i < D; ++i)
                e += packed_bit(d_packed + b * D / 8, i) != d_info[(skip + b) * D + i];
            c.bit_errors += e;
            c.frame_errors += e > 0;
        }
        c.frames = c.iterations = d_count;
        c.bits = d_count * D;
        return c;
    }

private:
    /* Makes blocks [lo, hi) around [first, first + count): lo = first - margin (at least 0)
     * rounded down to a puncturing-period boundary, so the soft values start where
     * decode_blocks() can take them; hi = first + count + margin. The encoder starts d_align
     * blocks before lo (state 0 there is wrong, but d_align * D >= K - 1 bits later the shift
     * register holds the true state) and its output for those blocks is dropped. */
    //! the first block whose values decoding blocks from `first` on needs: the margin before
    //! it, rounded down to a puncturing-period boundary
    uint64_t first_made_block(uint64_t first) const
    {
        uint64_t lo = first > uint64_t(d_margin) ? first - uint64_t(d_margin) : 0;
        return lo - lo % uint64_t(d_align);
    }

    void make_blocks(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch)
    {
        const uint64_t D = uint64_t(d_opts.block_len), A = uint64_t(d_align), lo = first_made_block(first);
        const uint64_t lead = lo >= A ? A : 0, hi = first + count + uint64_t(d_margin);
        const uint64_t from = lo - lead, blocks = hi - from;
        d_first = first;
        d_count = count;
        d_made_first = from;
        // information bits, block by block
        d_info.resize(blocks * D);
        d_rng.clear();
        d_rng.reserve(blocks);
        for (uint64_t b = 0; b < blocks; ++b)
            d_rng.emplace_back(key.seed, key.point, from + b);
        for_frames(*d_pool, blocks, [&](uint64_t b, int) { random_bits(d_info.data() + b * D, D, d_rng[b]); });
        // encoding (one stream, serial); block b's coded values are [d_off[b], d_off[b + 1])
        d_enc->reset(); // state 0 and puncturing phase 0 at block `from`
        d_coded.resize(size_t(d_code.kept_for_stages(int64_t(blocks * D))) + size_t(d_code.n()));
        d_off.assign(blocks + 1, 0);
        size_t at = 0;
        for (uint64_t b = 0; b < blocks; ++b) {
            at += d_enc->encode(d_info.data() + b * D, D, d_coded.data() + at);
            d_off[b + 1] = at;
        }
        // the channel, block by block; soft values from block `lead` (stage lo * D) on
        const size_t base = d_off[lead];
        d_soft_len = at - base;
        d_soft = d_in.get<int8_t>(d_soft_len);
        for_frames(*d_pool, blocks - lead, [&](uint64_t i, int w) {
            const uint64_t b = lead + i;
            const size_t n = d_off[b + 1] - d_off[b];
            auto& rx = d_rx[size_t(w)];
            rx.resize(n);
            ch.transmit(d_coded.data() + d_off[b], n, rx.data(), d_rng[b]);
            quantize_soft(rx.data(), d_soft + d_off[b] - base, n, d_soft_scale);
        });
        d_stage0 = int64_t(lo * D);
        if (d_soft_bits == 4) {
            // packed two values a byte, in chunks of an even number of values
            constexpr size_t chunk = size_t(1) << 16;
            d_soft4 = d_in4.get<uint8_t>((d_soft_len + 1) / 2);
            for_frames(*d_pool, (d_soft_len + chunk - 1) / chunk, [&](uint64_t c, int) {
                const size_t a = size_t(c) * chunk;
                pack_soft4(d_soft + a, d_soft4 + a / 2, std::min(chunk, d_soft_len - a));
            });
        }
    }

    //! the stretch of the stream blocks [first, first + count) need: from lo (as make_blocks) to hi
    sim::stream_stretch stretch_of(uint64_t first, uint64_t count) const
    {
        const uint64_t D = uint64_t(d_opts.block_len), lo = first_made_block(first);
        const uint64_t hi = first + count + uint64_t(d_margin);
        sim::stream_stretch st;
        st.v0 = uint64_t(d_code.kept_for_stages(int64_t(lo * D)));
        st.v1 = uint64_t(d_code.kept_for_stages(int64_t(hi * D)));
        st.s0 = int64_t(first * D);
        st.s1 = int64_t((first + count) * D);
        return st;
    }

    /*! The drawn stream (choose_frame_maker): made on the GPU (the next call's stretch guessed
     *  and made while this one decodes) or on the CPU, then decoded and compared. */
    void simulate_drawn(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch, frame_result* out)
    {
        const double sigma = ch.awgn_sigma();
        const sim::awgn_levels& levels = d_levels.at(sigma, d_soft_scale);
        const sim::span_key sk = sim::make_span_key(key.seed, key.point);
        const sim::stream_stretch st = stretch_of(first, count);
        sim::span_output in;
        if (d_gpu) {
            in = d_ahead.made(
                { key.seed, key.point, first, count, sigma },
                [&](int slot, const frames_ahead::batch& b) { d_gpu->start(slot, levels, sk, stretch_of(b.first, b.count)); },
                [&](int slot) { return d_gpu->wait(slot); });
        } else {
            const uint64_t values = st.v1 - st.v0;
            if (d_soft_bits == 4)
                in.soft4 = d_in4.get<uint8_t>((values + 1) / 2);
            else
                in.soft8 = d_in.get<int8_t>(values);
            in.info = d_drawn_info.get<uint8_t>(st.info_bytes());
            sim::make_stream_cpu(d_stream_code, levels, sk, st, in);
        }
        d_first = first;
        d_count = count;
        d_stage0 = int64_t(first_made_block(first) * uint64_t(d_opts.block_len));
        d_soft_len = size_t(st.v1 - st.v0);
        d_soft = in.soft8;
        d_soft4 = in.soft4;
        decode();
        const size_t bytes = size_t(d_opts.block_len) / 8;
        for_frames(*d_pool, count, [&](uint64_t b, int) {
            out[b].bit_errors = uint32_t(packed_bit_differences(d_packed + b * bytes, in.info + b * bytes, 8 * bytes));
            out[b].iterations = 1;
        });
    }

    void decode()
    {
        d_packed = d_out.get<uint8_t>(d_count * size_t(d_opts.block_len) / 8);
        if (d_soft_bits == 4)
            d_dec->decode_blocks_soft4(d_soft4, d_soft_len, d_stage0, int64_t(d_first), int64_t(d_count), d_packed);
        else
            d_dec->decode_blocks(d_soft, d_soft_len, d_stage0, int64_t(d_first), int64_t(d_count), d_packed);
    }

    conv_code d_code;
    viterbi_options d_opts;
    std::unique_ptr<viterbi_stream_decoder> d_dec;
    std::unique_ptr<conv_encoder> d_enc;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<spectrum_term> d_spectrum;
    int64_t d_align = 1, d_margin = 1;
    // the blocks made last
    uint64_t d_first = 0, d_count = 0, d_made_first = 0;
    int64_t d_stage0 = 0;
    std::vector<unit_rng> d_rng;
    std::vector<uint8_t> d_info, d_coded;
    std::vector<size_t> d_off;
    std::vector<std::vector<float>> d_rx; // per pool worker
    kit_buffer d_in, d_in4, d_out;
    int d_soft_bits = 8;         // 4: the decoder gets d_soft packed (pack_soft4) in d_soft4
    float d_soft_scale = default_soft_scale; // quantize_soft's int8 units per unit of amplitude
    int8_t* d_soft = nullptr;
    uint8_t* d_soft4 = nullptr;
    size_t d_soft_len = 0;
    uint8_t* d_packed = nullptr;
    device_spec d_device;
    // the drawn stream (choose_frame_maker)
    bool d_sim = false;
    sim::stream_code d_stream_code;
    std::unique_ptr<sim::stream_maker_gpu> d_gpu; //!< null: drawn on the CPU
    levels_cache d_levels;
    kit_buffer d_drawn_info;
    frames_ahead d_ahead; //!< the GPU maker's slots
};

} // namespace

std::unique_ptr<code_kit> make_stream_kit(const std::string& options, const device_spec& device)
{
    return std::make_unique<stream_kit>(parse_frame_options(options), device);
}

} // namespace app
} // namespace gpufec
