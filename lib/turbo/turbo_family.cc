/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Turbo codes as a frame family ("turbo"): max-log in fixed point on an engine (CUDA or the CPU
 * twin, the same bits), log-map and the exact FPTD on the float decoders through the pooled
 * engine; the encoder (with the CRC of the code block appended where one is set). */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"

#include "runtime/gpu_engine.h"
#include "runtime/tuning.h"
#include "frame/multi_length_decoder.h"
#include "turbo_engine.h"
#include "turbo_fixed.h"
#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace gpufec {

namespace {

//! log-map, the exact FPTD and engine=reference: the float decoders, a frame at a time (a worker
//! of the pooled engine)
class turbo_reference_worker : public frame_worker
{
public:
    turbo_reference_worker(const turbo_code& code, const turbo_options& o) : d_llr(code.coded_bits())
    {
        if (o.algorithm == turbo_algorithm::fptd || o.algorithm == turbo_algorithm::fptd_max_log)
            d_dec = std::make_unique<turbo_fptd_decoder>(code, o, o.algorithm == turbo_algorithm::fptd);
        else
            d_dec = std::make_unique<turbo_reference_decoder>(code, o);
        d_bits.resize(d_dec->output_bits());
    }

    void decode(const engine_frame& f) override
    {
        for (size_t i = 0; i < d_llr.size(); ++i) // (int8 as is: max-log does not depend on the scale)
            d_llr[i] = f.value(i);
        const turbo_result r = d_dec->decode(d_llr.data(), d_bits.data(), f.soft_out);
        pack_bits(d_bits.data(), d_bits.size(), f.packed);
        f.status->iterations = r.iterations;
        f.status->check = int8_t(r.crc_ok);
    }

private:
    std::unique_ptr<turbo_float_decoder> d_dec;
    std::vector<float> d_llr;
    std::vector<uint8_t> d_bits;
};

struct turbo_config {
    turbo_code code;
    turbo_options opts;
    bool any_k = false; //!< code=lte:any: K follows from each frame's length (code holds K = 6144)
};

turbo_config read_code(option_reader& r)
{
    turbo_config c;
    const std::string id = r.get("code");
    const turbo_layout layout = parse_turbo_layout(r.get("layout"));
    c.any_k = id == "lte:any";
    c.code = turbo_code::named(c.any_k ? "lte:6144" : id, layout);
    std::string crc = r.get("crc");
    c.opts.crc = crc == "none" ? "" : crc;
    return c;
}

//! everything the options say, checked, before a decoder is made for a code
struct turbo_setup {
    turbo_config c;
    bool fixed = false;
    frame_common common;
    device_spec device;
};

turbo_setup read_setup(option_reader& r, const frame_common& common, const device_spec& device)
{
    turbo_setup s;
    s.c = read_code(r);
    s.common = common;
    s.device = device;
    turbo_options& o = s.c.opts;
    o.algorithm = parse_turbo_algorithm(r.get("algorithm"));
    const bool maxlog = o.algorithm == turbo_algorithm::max_log;
    const bool lte = s.c.code.standard == turbo_standard::lte;
    const std::string engine = r.get("engine", maxlog ? "fixed" : "reference"); // (declared: fixed, reference)
    if (engine != "fixed" && engine != "reference")
        throw std::invalid_argument("engine: '" + engine + "' is not valid (allowed: fixed, reference)");
    s.fixed = engine == "fixed";
    const bool fptd_ml = o.algorithm == turbo_algorithm::fptd_max_log;
    if (s.fixed && !maxlog && !fptd_ml)
        throw std::invalid_argument("engine: fixed runs max-log and fptd-max-log only (log-map, fptd: engine=reference)");
    if (s.fixed && fptd_ml && !lte)
        throw std::invalid_argument("engine: the fixed-point FPTD runs the LTE code");
    o.max_iterations = int(r.get_int("max_iterations"));
    o.scaling = float(r.get_float_or("scaling", maxlog || fptd_ml ? 0.75 : 1.0));
    o.precision = r.get("precision") == "int8" ? 8 : 16;
    // windows: the GPU's length where the CPU engine must give its bits; the CPU-only int8
    // engine's own bits take long windows (an eighth of the training work, the same error rate)
    const int fixed_window = o.precision == 8 ? turbo_fx::CPU_INT8_WINDOW : turbo_fx::GPU_WINDOW;
    o.window = int(r.get_int_or("window", s.fixed && maxlog ? fixed_window : 0));
    o.training = int(r.get_int("training"));
    // the FPTD with max-log runs every iteration by default (the GPU one always does)
    o.early_termination = r.get_bool_or("early_termination", !fptd_ml);
    o.prelaunch = r.get_bool("prelaunch");
    o.cpu_threads = common.cpu_threads;
    o.validate();
    if (s.fixed && maxlog && o.window == 0)
        throw std::invalid_argument("window: engine=fixed needs windows (window=0, the whole block, is engine=reference)");
    if (s.fixed && maxlog)
        check_fixed_window(s.c.code, o.window, o.training, o.crc);
    if (o.precision == 8 && !(s.fixed && maxlog && lte))
        throw std::invalid_argument("precision: int8 is the fixed-point max-log engine's (LTE), not " +
                                    std::string(s.fixed ? (maxlog ? "the CCSDS code's" : "the FPTD's") : "engine=reference's"));
    if (o.precision == 8 && s.device.type == device_spec::kind::cuda)
        throw std::invalid_argument("precision: int8 runs on the CPU only (the GPU decodes int16, "
                                    "precision=int16)");
    return s;
}

//! the decoder of one code, as the setup says
std::unique_ptr<batch_decoder> build(const turbo_code& code, const turbo_setup& s)
{
    const turbo_options& o = s.c.opts;
    const device_spec& device = s.device;
    const bool lte = code.standard == turbo_standard::lte;
    const bool fptd_ml = o.algorithm == turbo_algorithm::fptd_max_log;
    std::unique_ptr<frame_engine> eng;
    const size_t crc_bits = o.crc.empty() ? 0 : size_t(crc_spec::named(o.crc).width);
    frame_shape shape;
    shape.family = "turbo";
    shape.description = code.describe() + ", " + turbo_algorithm_name(o.algorithm) + ", " +
                        std::to_string(o.max_iterations) + " it" +
                        (o.window ? ", window " + std::to_string(o.window) : "");
    shape.input_per_frame = code.coded_bits();
    shape.output_bits = size_t(code.K) - crc_bits;
    shape.has_check = crc_bits > 0;
    shape.check_name = "crc_ok";
    shape.iterates = true;
    shape.batch_cpu = o.precision == 8 ? 128 : 64; // a group per core of a pair: 64 int8 lanes, 32 int16
    shape.batch_cpu_per_core = 256; // beyond four cores (cpu_batch_units: 4096 frames on 16)
    shape.batch_gpu = 4096;
    shape.min_efficient_gpu = 256;
    shape.cpu_threads = s.common.cpu_threads;
    if (s.fixed && fptd_ml) { // the int16 FPTD: on the GPU as the float one, else its CPU twin
#ifdef GPUFEC_HAVE_CUDA
        const backend_choice choice = resolve_backend(device);
        if (!o.early_termination || device.type == device_spec::kind::cuda)
            eng = gpu_engine_or_cpu(device, choice, "turbo", [&](int d) {
                return make_turbo_fptd_cuda(code, o, d, size_t(s.common.max_batch), true);
            });
#else
        if (device.type == device_spec::kind::cuda)
            throw std::invalid_argument("device: this build has no CUDA");
#endif
        if (!eng)
            eng = make_turbo_fptd_fixed_cpu(code, o);
    } else if (s.fixed) {
        const backend_choice choice = resolve_backend(device);
#ifdef GPUFEC_HAVE_CUDA
        // the GPU runs windows of GPU_WINDOW stages and a few training lengths: others go to the CPU twin unless
        // the GPU was asked for by name (then the GPU engine says why it cannot)
        const bool gpu_window = o.precision == 16 && ((o.window == turbo_fx::GPU_WINDOW && turbo_fx::gpu_training(o.training)) ||
                                                      device.type == device_spec::kind::cuda);
        if (gpu_window && lte)
            eng = gpu_engine_or_cpu(device, choice, "turbo", [&](int d) {
                return make_turbo_cuda(code, o, o.window, d, size_t(s.common.max_batch));
            });
        // CCSDS: windows up to 32 stages on the GPU
        const bool ccsds_gpu = o.window <= 32 || device.type == device_spec::kind::cuda;
        if (ccsds_gpu && !lte)
            eng = gpu_engine_or_cpu(device, choice, "turbo", [&](int d) {
                return make_turbo_ccsds_cuda(code, o, o.window, d, size_t(s.common.max_batch));
            });
#else
        (void)choice;
#endif
        if (!eng)
            eng = make_turbo_fixed_cpu(code, o, o.window);
        if (o.precision == 8 && choice.cuda) { // device=auto on a machine with a GPU
            static std::once_flag told;
            std::call_once(told, [] { log(log_level::info, "turbo: precision=int8 decodes on the CPU (the GPU decodes int16)"); });
        }
    } else if (fptd_ml && lte) {
#ifdef GPUFEC_HAVE_CUDA
        // the GPU FPTD runs every iteration: with early_termination the CPU one, unless asked for by name
        const backend_choice choice = resolve_backend(device);
        if (!o.early_termination || device.type == device_spec::kind::cuda)
            eng = gpu_engine_or_cpu(device, choice, "turbo", [&](int d) {
                return make_turbo_fptd_cuda(code, o, d, size_t(s.common.max_batch));
            });
#else
        if (device.type == device_spec::kind::cuda)
            throw std::invalid_argument("device: this build has no CUDA");
#endif
    } else if (device.type == device_spec::kind::cuda) {
        throw std::invalid_argument("device: engine=reference (log-map, exact fptd, soft output) runs on the "
                                    "CPU only");
    }
    if (eng) { // the fixed-point engines: the code block's K bits, in the streams layout
        shape.description += ", training " + std::to_string(o.training);
        shape.packed_bits = size_t(code.K);
        if (code.layout == turbo_layout::interleaved) {
            const size_t K = size_t(code.K);
            shape.input_order.resize(shape.input_per_frame);
            for (int d = 0; d < 3; ++d)
                for (size_t k = 0; k < K + 4; ++k)
                    shape.input_order[size_t(d) * (K + 4) + k] = int32_t(code.pos(d, k));
        }
    } else { // the float decoders (their layout is the code's), with soft output
        const bool fptd = o.algorithm == turbo_algorithm::fptd || fptd_ml;
        pooled_engine_spec p;
        p.name = fptd ? "cpu fptd reference" : "cpu reference";
        p.cpu_threads = s.common.cpu_threads;
        p.input_per_frame = shape.input_per_frame;
        p.packed_bytes = (shape.output_bits + 7) / 8;
        p.soft_output = size_t(code.K);
        p.make_worker = [code, o] { return std::make_unique<turbo_reference_worker>(code, o); };
        eng = make_pooled_engine(p);
        shape.soft_output = size_t(code.K);
        // exact max* (log-map, fptd) depends on the LLR scale: float LLRs
        shape.wants_float = o.algorithm == turbo_algorithm::log_map || o.algorithm == turbo_algorithm::fptd;
    }
    if (!o.crc.empty())
        shape.description += ", " + o.crc;
    return make_engine_decoder(shape, std::move(eng), size_t(s.common.max_batch));
}

std::unique_ptr<batch_decoder> make_any_k(const turbo_setup& s)
{
    const size_t crc_bits = s.c.opts.crc.empty() ? 0 : size_t(crc_spec::named(s.c.opts.crc).width);
    multi_length_spec m;
    m.describe = "LTE turbo, any K (K from each frame's 3K + 12 values), " + turbo_algorithm_name(s.c.opts.algorithm) +
                 ", " + std::to_string(s.c.opts.max_iterations) + " it" + (crc_bits ? ", " + s.c.opts.crc : "");
    m.lengths_text = "3K + 12 soft values for an LTE K (132 .. 18444)";
    m.min_input = 3 * 40 + 12;
    m.max_input = 3 * 6144 + 12;
    m.accepts = [](size_t n) { return lte_k_of_length(n) != 0; };
    m.output_bits_for = [crc_bits](size_t n) { return size_t(lte_k_of_length(n)) - crc_bits; };
    m.soft_output_for = [](size_t n) { return size_t(lte_k_of_length(n)); }; // (where the engine has it)
    const turbo_layout layout = s.c.code.layout;
    m.make = [s, layout](size_t n) {
        return build(turbo_code::named("lte:" + std::to_string(lte_k_of_length(n)), layout), s);
    };
    m.batch = s.common.max_batch > 0 ? size_t(s.common.max_batch) : 0;
#ifdef GPUFEC_HAVE_CUDA
    // the max-log engine of GPU windows on a GPU: every K in one batch, frames where they lie;
    // GPUFEC_TURBO_ANY_K=groups decodes K by K as elsewhere (a tuning aid: the A/B of
    // docs/performance.md)
    const turbo_options& o = s.c.opts;
    const bool one_batch = tuning_choice("GPUFEC_TURBO_ANY_K", { "one-batch", "groups" }, "one-batch") == "one-batch";
    if (one_batch && s.fixed && o.algorithm == turbo_algorithm::max_log && layout == turbo_layout::streams &&
        o.window == turbo_fx::GPU_WINDOW && turbo_fx::gpu_training(o.training) && o.precision == 16)
        m.make_mixed = [s, crc_bits, describe = m.describe, lengths = m.lengths_text]() -> std::unique_ptr<batch_decoder> {
            const turbo_options& o = s.c.opts;
            const size_t max_batch = size_t(s.common.max_batch);
            auto eng = gpu_engine_or_cpu(s.device, resolve_backend(s.device), "turbo", [&](int d) {
                return make_turbo_cuda_any_k(o, o.window, d, max_batch);
            });
            if (!eng)
                return nullptr;
            frame_shape shape;
            shape.family = "turbo";
            shape.description = describe + ", training " + std::to_string(o.training);
            shape.input_per_frame = 3 * 6144 + 12;
            shape.min_input = 3 * 40 + 12;
            shape.variable = true;
            shape.lengths_text = lengths;
            shape.output_bits = 6144 - crc_bits;
            shape.packed_bits = 6144;
            shape.has_check = crc_bits > 0;
            shape.check_name = "crc_ok";
            shape.iterates = true;
            shape.batch_gpu = 4096;
            shape.min_efficient_gpu = 256;
            shape.cpu_threads = s.common.cpu_threads;
            return make_engine_decoder(shape, std::move(eng), max_batch);
        };
#endif
    return make_multi_length_decoder(std::move(m));
}

std::unique_ptr<batch_decoder> make_from_options(option_reader& r, const frame_common& common,
                                                 const device_spec& device)
{
    const turbo_setup s = read_setup(r, common, device);
    return s.c.any_k ? make_any_k(s) : build(s.c.code, s);
}

class turbo_frame_encoder : public frame_encoder
{
public:
    explicit turbo_frame_encoder(const turbo_config& c) : d_code(c.code)
    {
        if (!c.opts.crc.empty()) {
            d_crc = crc_spec::named(c.opts.crc);
            d_has_crc = true;
        }
        d_block.reserve(size_t(d_code.K));
    }
    size_t info_bits() const override { return size_t(d_code.K) - (d_has_crc ? size_t(d_crc.width) : 0); }
    size_t coded_bits() const override { return d_code.coded_bits(); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        const size_t k = info_bits();
        for (size_t f = 0; f < frames; ++f) {
            const uint8_t* block = bits + f * k;
            if (d_has_crc) { // the code block: the bits, then their CRC
                d_block.assign(block, block + k);
                crc_append(d_crc, d_block);
                block = d_block.data();
            }
            turbo_encode(d_code, block, coded + f * coded_bits());
        }
    }

private:
    turbo_code d_code;
    crc_spec d_crc;
    bool d_has_crc = false;
    std::vector<uint8_t> d_block;
};

std::unique_ptr<frame_encoder> make_encoder_from_options(option_reader& r)
{
    const turbo_config c = read_code(r);
    if (c.any_k)
        throw std::invalid_argument("code: an encoder takes one K (lte:K); lte:any is for decoders");
    return std::make_unique<turbo_frame_encoder>(c);
}

} // namespace

int lte_k_of_length(size_t n)
{
    if (n < 12 || (n - 12) % 3 != 0)
        return 0;
    static const std::vector<int> sizes = interleaver::lte_sizes();
    const int K = int((n - 12) / 3);
    return std::binary_search(sizes.begin(), sizes.end(), K) ? K : 0;
}

GPUFEC_REGISTER_FRAME_FAMILY(turbo,
                             "turbo",
                             "turbo codes: LTE (all 188 K), CCSDS (4 K, 4 rates), BCJR max-log / log-map, sliding "
                             "windows, CRC stop",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_from_options,
                             make_encoder_from_options,
                             "bpsk-awgn",
                             "",
                             { opt_text("code", "lte:6144",
                                        "lte:K (the 188 K), lte:any (K from each frame's length), ccsds:K[:1/r]"),
                               opt_choice("algorithm", "max-log", { "max-log", "log-map", "fptd", "fptd-max-log" },
                                          "BCJR max-log or log-MAP, the fully parallel decoder (FPTD)",
                                          { "maxlog", "logmap" }),
                               opt_choice("engine", "", { "fixed", "reference" },
                                          "fixed point (max-log, fptd-max-log; CPU or GPU) or the float reference; "
                                          "default: fixed for max-log, reference otherwise"),
                               opt_int("max_iterations", "6", 1, 100, "iterations at most"),
                               opt_choice("precision", "int16", { "int16", "int8" },
                                          "the fixed-point max-log engine's metrics: int16 (CPU and GPU, the same bits) or "
                                          "int8 (LTE, CPU only: saturating, twice the frames per vector, its own bits)"),
                               opt_real("scaling", "", 1e-3, 1.0, "extrinsic scaling; default 0.75 max-log, 1 log-map"),
                               opt_int("window", "", 0, 6144, "window stages, multiples of 8 (fixed); default 16 (fixed: the GPU runs 16 only; precision=int8: 128), 0 (reference: the whole block)"),
                               opt_int("training", "32", 0, 1000, "training stages outside each window (fixed: 8..64; the GPU runs 16, 24 or 32)"),
                               opt_text("crc", "none", "a CRC that stops a frame early: none, lte-24a, lte-24b, ccsds-16"),
                               opt_bool("early_termination", "",
                                        "stop a frame when its CRC passes (the reference also on unchanged decisions); "
                                        "default true, false for fptd-max-log"),
                               opt_bool("prelaunch", "false",
                                        "the GPU FPTD: the next frame's kernel waits on the GPU, up to 4 ms"),
                               opt_choice("layout", "streams", { "streams", "interleaved" },
                                          "LTE code bits: d0 | d1 | d2 streams, or d0 d1 d2 triplets") },
                             {},
                             { "code=lte:104, max_iterations=4", "code=lte:256, crc=lte-24a, layout=interleaved",
                               "code=ccsds:1784:1/2, max_iterations=4",
                               "code=lte:1024, precision=int8, crc=lte-24a, layout=interleaved" });

} // namespace gpufec
