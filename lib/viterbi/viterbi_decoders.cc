/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>

#include "runtime/gpu_engine.h"
#include "codes/conv_frame_checks.h"
#include "vit_engine.h"
#include "viterbi_frames_engine.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpufec {

namespace {

void check_options(const conv_code& code, const viterbi_options& o)
{
    code.validate();
    check_frame_bits(code, o.mode, o.frame_bits);
    if (o.block_len < 8 || o.block_len % 8 != 0 || o.block_len > (1 << 20))
        throw std::invalid_argument("block_len: " + std::to_string(o.block_len) +
                                    " is not valid (allowed: multiples of 8 from 8 to 1048576)");
    if (o.traceback < 0 || o.traceback > 4096)
        throw std::invalid_argument("traceback: " + std::to_string(o.traceback) +
                                    " is not valid (allowed: 0 = 6*K, or 1..4096)");
    if (o.max_batch < 0 || o.max_batch > (1 << 20))
        throw std::invalid_argument("max_batch: " + std::to_string(o.max_batch) +
                                    " is not valid (allowed: 0 = automatic, or 1..1048576)");
    if (o.cpu_threads < 0)
        throw std::invalid_argument("cpu_threads: must be >= 0 (0 = every core)");
}

} // namespace

std::unique_ptr<vit_engine> make_viterbi_engine(const conv_code& code,
                                                const viterbi_options& options,
                                                const device_spec& device)
{
    const backend_choice choice = resolve_backend(device);
#ifdef GPUFEC_HAVE_CUDA
    if (auto gpu = gpu_engine_or_cpu(device, choice, "viterbi",
                                     [&](int d) { return make_viterbi_cuda(code, d, options.max_batch); }))
        return gpu;
#endif
    if (options.cpu_reference)
        return make_viterbi_reference(code);
    return make_viterbi_cpu(code, options.cpu_threads);
}

std::string engine_name(const vit_engine& engine) { return engine.name(); }

// ---------------------------------------------------------------- frames

viterbi_frames_engine::viterbi_frames_engine(const conv_code& code, const viterbi_options& options,
                                             const device_spec& device)
    : d_code(code), d_opts(options), d_device(device)
{
    if (options.mode == conv_mode::streaming)
        throw std::invalid_argument(
            "mode: viterbi_frame_decoder needs a frame mode (terminated, tailbiting, truncated)");
    check_options(code, options);
    d_p = make_code_params(code);
    d_p.kind = options.mode == conv_mode::terminated  ? vit_terminated
               : options.mode == conv_mode::truncated ? vit_truncated
                                                      : vit_tailbiting;
    d_p.L = options.traceback_for(code);
    d_p.D = 0;
    d_p.frame_bits = options.frame_bits;
    d_p.frame_stages = options.frame_bits + (d_p.kind == vit_terminated ? code.k - 1 : 0);
    d_p.in_per_frame = int64_t(code.kept_for_stages(d_p.frame_stages));
    d_p.out_bytes_per_frame = (options.frame_bits + 7) / 8;
    d_engine = make_viterbi_engine(code, options, device);
}

void viterbi_frames_engine::reserve(size_t frames)
{
    try {
        d_engine->reserve(d_p, int64_t(frames));
    } catch (const std::exception& e) { // the GPU's buffers do not fit: the device rule
        if (!d_engine->on_gpu()) // (a CPU engine's failure is not the device's)
            throw;
        gpu_engine_failed(d_device, d_engine->name(), "viterbi", e);
        d_engine = make_viterbi_engine(d_code, d_opts, device_spec::parse("cpu"));
        d_engine->reserve(d_p, int64_t(frames));
    }
}

std::string viterbi_frames_engine::name() const { return d_engine->name(); }

bool viterbi_frames_engine::on_gpu() const { return d_engine->on_gpu(); }

void viterbi_frames_engine::run(const engine_batch& in, const engine_output& out)
{
    const size_t frames = in.frames;
    d_engine->run(d_p, in.soft, frames * input_per_frame(), int64_t(frames), out.packed,
                  frames * size_t(d_p.out_bytes_per_frame));
    std::fill(out.status, out.status + frames, frame_status{ 1, -1, 0 });
}

double viterbi_frames_engine::time_kernels(const int8_t* soft, size_t frames, int reps)
{
    return d_engine->time_kernels(d_p, soft, frames * input_per_frame(), int64_t(frames), reps);
}

viterbi_frame_decoder::viterbi_frame_decoder(const conv_code& code,
                                             const viterbi_options& options,
                                             const device_spec& device)
    : d_engine(std::make_unique<viterbi_frames_engine>(code, options, device))
{
}

viterbi_frame_decoder::~viterbi_frame_decoder() = default;

size_t viterbi_frame_decoder::input_per_frame() const { return d_engine->input_per_frame(); }
size_t viterbi_frame_decoder::output_per_frame() const { return d_engine->output_bits(); }
const conv_code& viterbi_frame_decoder::code() const { return d_engine->code(); }
void viterbi_frame_decoder::reserve(size_t frames) { d_engine->reserve(frames); }
std::string viterbi_frame_decoder::backend() const { return d_engine->name(); }

void viterbi_frame_decoder::decode(const int8_t* soft, size_t frames, uint8_t* out, bool packed)
{
    if (frames == 0)
        return;
    const size_t bits = output_per_frame(), bytes = (bits + 7) / 8;
    if (!packed)
        d_packed.resize(frames * bytes);
    d_status.resize(frames);
    run_engine(*d_engine, soft, frames, packed ? out : d_packed.data(), d_status.data());
    if (!packed)
        for (size_t f = 0; f < frames; ++f)
            unpack_bits(d_packed.data() + f * bytes, bits, out + f * bits);
}

// ---------------------------------------------------------------- stream

viterbi_stream_decoder::viterbi_stream_decoder(const conv_code& code,
                                               const viterbi_options& options,
                                               const device_spec& device)
    : d_code(code), d_opts(options), d_device(device)
{
    if (options.mode != conv_mode::streaming)
        throw std::invalid_argument("mode: viterbi_stream_decoder needs mode streaming");
    check_options(code, options);
    d_L = options.traceback_for(code);
    d_engine = make_viterbi_engine(code, options, device);
}

void viterbi_stream_decoder::reserve(int64_t max_blocks)
{
    try {
        d_engine->reserve(stream_params(), max_blocks);
    } catch (const std::exception& e) { // the GPU's buffers do not fit: the device rule
        if (!d_engine->on_gpu()) // (a CPU engine's failure is not the device's)
            throw;
        gpu_engine_failed(d_device, d_engine->name(), "viterbi", e);
        d_engine = make_viterbi_engine(d_code, d_opts, device_spec::parse("cpu"));
        d_engine->reserve(stream_params(), max_blocks);
    }
}

viterbi_stream_decoder::~viterbi_stream_decoder() = default;

std::string viterbi_stream_decoder::backend() const { return d_engine->name(); }

void viterbi_stream_decoder::reset()
{
    d_hist.clear();
    d_hist_stage0 = 0;
    d_stages = 0;
    d_next_pb = 0;
    d_out.clear();
    d_out_read = 0;
}

void viterbi_stream_decoder::decode_blocks(const int8_t* soft,
                                           size_t soft_len,
                                           int64_t stage0,
                                           int64_t first_pb,
                                           int64_t n_pbs,
                                           uint8_t* out_packed)
{
    decode_blocks_as(8, soft, soft_len, stage0, first_pb, n_pbs, out_packed);
}

void viterbi_stream_decoder::decode_blocks_soft4(const uint8_t* soft4,
                                                 size_t soft_len,
                                                 int64_t stage0,
                                                 int64_t first_pb,
                                                 int64_t n_pbs,
                                                 uint8_t* out_packed)
{
    decode_blocks_as(4, reinterpret_cast<const int8_t*>(soft4), soft_len, stage0, first_pb, n_pbs, out_packed);
}

void viterbi_stream_decoder::decode_blocks_as(int soft_bits,
                                              const int8_t* soft,
                                              size_t soft_len,
                                              int64_t stage0,
                                              int64_t first_pb,
                                              int64_t n_pbs,
                                              uint8_t* out_packed)
{
    if (soft_bits == 4 && d_code.kept_per_period() % 2 != 0)
        throw std::invalid_argument("decode_blocks_soft4: 4-bit input needs an even number of soft values per "
                                    "puncturing period; " + d_code.describe() + " keeps " +
                                    std::to_string(d_code.kept_per_period()));
    if (n_pbs <= 0)
        return;
    if (stage0 % d_code.period() != 0)
        throw std::invalid_argument("decode_blocks: stage0 must be a multiple of the period");
    const int64_t D = d_opts.block_len;
    const int64_t need_lo = std::max<int64_t>(0, first_pb * D - d_L);
    const int64_t need_hi = (first_pb + n_pbs) * D + d_L;
    if (need_lo < stage0 ||
        static_cast<int64_t>(soft_len) < d_code.kept_for_stages(need_hi - stage0))
        throw std::invalid_argument("decode_blocks: the soft values do not cover the blocks");
    vit_params p = stream_params(soft_bits);
    p.stage0 = stage0;
    p.first_pb = first_pb;
    d_engine->run(p, soft, soft_len, n_pbs, out_packed, static_cast<size_t>(n_pbs * D / 8));
}

double viterbi_stream_decoder::time_kernels_only(const int8_t* soft,
                                                 size_t soft_len,
                                                 int64_t n_pbs,
                                                 int reps,
                                                 int soft_bits)
{
    return d_engine->time_kernels(stream_params(soft_bits), soft, soft_len, n_pbs, reps);
}

vit_params viterbi_stream_decoder::stream_params(int soft_bits) const
{
    vit_params p = make_code_params(d_code);
    p.soft_bits = soft_bits;
    p.kind = vit_stream;
    p.D = d_opts.block_len;
    p.L = d_L;
    p.stage0 = 0;
    p.first_pb = 0;
    return p;
}

void viterbi_stream_decoder::push(const int8_t* soft, size_t count, bool defer)
{
    const size_t m = input_multiple();
    if (count % m != 0)
        throw std::invalid_argument("push: " + std::to_string(count) +
                                    " soft values is not a multiple of " + std::to_string(m));
    if (count)
        d_hist.insert(d_hist.end(), soft, soft + count);
    d_stages += static_cast<int64_t>(count / m) * d_code.period();

    const int64_t D = d_opts.block_len;
    const int64_t ready = d_stages >= d_L ? (d_stages - d_L) / D : 0; // blocks complete
    if (ready <= d_next_pb || (defer && ready - d_next_pb < batch_hint()))
        return;
    const int64_t n_pbs = ready - d_next_pb;
    const size_t old = d_out.size();
    d_out.resize(old + static_cast<size_t>(n_pbs * D / 8));
    decode_blocks(d_hist.data(), d_hist.size(), d_hist_stage0, d_next_pb, n_pbs, d_out.data() + old);
    d_next_pb = ready;

    // keep only the history the next block needs, from a period boundary
    int64_t keep = std::max<int64_t>(0, d_next_pb * D - d_L);
    keep -= keep % d_code.period();
    if (keep > d_hist_stage0) {
        const int64_t drop = (keep - d_hist_stage0) / d_code.period() * d_code.kept_per_period();
        d_hist.erase(d_hist.begin(), d_hist.begin() + drop);
        d_hist_stage0 = keep;
    }
}

size_t viterbi_stream_decoder::read(uint8_t* out, size_t max_bits, bool packed)
{
    size_t bytes = std::min(max_bits / 8, d_out.size() - d_out_read);
    if (bytes == 0)
        return 0; // (nothing decoded yet: d_out.data() may be null)
    if (packed)
        std::memcpy(out, d_out.data() + d_out_read, bytes);
    else
        unpack_bits(d_out.data() + d_out_read, bytes * 8, out);
    d_out_read += bytes;
    if (d_out_read == d_out.size()) {
        d_out.clear();
        d_out_read = 0;
    } else if (d_out_read > (1u << 20)) {
        d_out.erase(d_out.begin(), d_out.begin() + d_out_read);
        d_out_read = 0;
    }
    return bytes * 8;
}

} // namespace gpufec
