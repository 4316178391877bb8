/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Turbo codes as a frame family ("turbo"): the reference decoder over the CPU pool, one frame
 * per task, and the encoder (with the CRC of the code block appended where one is set). */
#include <gnuradio/gpufec/core/frame_registry.h>
#include <gnuradio/gpufec/core/turbo.h>

#include "runtime/cpu_pool.h"
#include <algorithm>
#include <memory>
#include <stdexcept>

namespace gpufec {

namespace {

class turbo_frames : public frame_decoder
{
public:
    turbo_frames(const turbo_code& code, const turbo_options& o, size_t batch)
        : d_code(code), d_opts(o), d_pool(get_cpu_pool(o.cpu_threads)), d_batch(batch)
    {
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back({ std::make_unique<turbo_reference_decoder>(code, o), {}, {} });
        d_out_bits = d_workers.front().dec->output_bits();
    }

    std::string family() const override { return "turbo"; }
    std::string describe() const override
    {
        std::string s = d_code.describe() + ", " + turbo_algorithm_name(d_opts.algorithm) + ", " +
                        std::to_string(d_opts.max_iterations) + " it";
        if (d_opts.window)
            s += ", window " + std::to_string(d_opts.window);
        if (!d_opts.crc.empty())
            s += ", " + d_opts.crc;
        return s;
    }
    std::string backend() const override
    {
        return "cpu reference (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    size_t input_per_frame() const override { return d_code.coded_bits(); }
    size_t output_bits() const override { return d_out_bits; }
    bool has_check() const override { return !d_opts.crc.empty(); }
    std::string check_name() const override { return "crc_ok"; }
    bool iterates() const override { return true; }
    size_t soft_output_per_frame() const override { return size_t(d_code.K); }
    //! log-map's max* depends on the LLR scale: it takes float LLRs
    bool wants_float_input() const override { return d_opts.algorithm == turbo_algorithm::log_map; }
    size_t preferred_batch() const override { return d_batch; }

protected:
    void decode_checked(const frame_batch& b) override
    {
        const size_t n = input_per_frame(), bytes = output_bytes(b.packed);
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t fi, int w) {
            const size_t f = size_t(fi);
            worker& wk = d_workers[size_t(w)];
            wk.llr.resize(n);
            if (b.soft_f)
                std::copy(b.soft_f + f * n, b.soft_f + (f + 1) * n, wk.llr.begin());
            else
                for (size_t i = 0; i < n; ++i) // int8 as is: max-log does not depend on the scale
                    wk.llr[i] = float(std::max<int8_t>(b.soft[f * n + i], -127));
            wk.bits.resize(d_out_bits);
            const turbo_result r =
                wk.dec->decode(wk.llr.data(), wk.bits.data(), b.soft_out ? b.soft_out + f * size_t(d_code.K) : nullptr);
            uint8_t* out = b.bits + f * bytes;
            if (b.packed) {
                std::fill(out, out + bytes, 0);
                for (size_t i = 0; i < d_out_bits; ++i)
                    out[i / 8] |= uint8_t(wk.bits[i] << (7 - i % 8));
            } else {
                std::copy(wk.bits.begin(), wk.bits.end(), out);
            }
            b.status[f].iterations = r.iterations;
            b.status[f].check = int8_t(r.crc_ok);
        });
    }

private:
    struct worker {
        std::unique_ptr<turbo_reference_decoder> dec;
        std::vector<float> llr;
        std::vector<uint8_t> bits;
    };
    turbo_code d_code;
    turbo_options d_opts;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<worker> d_workers;
    size_t d_batch, d_out_bits = 0;
};

struct turbo_config {
    turbo_code code;
    turbo_options opts;
};

turbo_config read_code(option_reader& r)
{
    turbo_config c;
    c.code = turbo_code::named(r.get("code", "lte:6144"), parse_turbo_layout(r.get("layout", "streams")));
    std::string crc = r.get("crc", "none");
    c.opts.crc = crc == "none" ? "" : crc;
    return c;
}

std::unique_ptr<frame_decoder> make_from_options(option_reader& r, const frame_common& common,
                                                 const device_spec& device)
{
    turbo_config c = read_code(r);
    turbo_options& o = c.opts;
    o.algorithm = parse_turbo_algorithm(r.get("algorithm", "max-log"));
    o.max_iterations = int(r.get_int("max_iterations", 6, 1, 100));
    o.scaling = float(r.get_float("scaling", o.algorithm == turbo_algorithm::max_log ? 0.75 : 1.0, 1e-3, 1.0));
    o.window = int(r.get_int("window", 0, 0, 6144));
    o.early_termination = r.get_bool("early_termination", true);
    o.cpu_threads = common.cpu_threads;
    o.validate();
    if (device.type == device_spec::kind::cuda)
        throw std::invalid_argument("device: the turbo family runs on the CPU for now (device=cpu or auto)");
    const size_t batch = common.max_batch > 0 ? size_t(common.max_batch) : 64;
    return std::make_unique<turbo_frames>(c.code, o, batch);
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
        d_block.resize(size_t(d_code.K));
    }
    size_t info_bits() const override { return size_t(d_code.K) - (d_has_crc ? size_t(d_crc.width) : 0); }
    size_t coded_bits() const override { return d_code.coded_bits(); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        const size_t k = info_bits();
        for (size_t f = 0; f < frames; ++f) {
            std::vector<uint8_t> block(bits + f * k, bits + (f + 1) * k);
            if (d_has_crc)
                crc_append(d_crc, block);
            turbo_encode(d_code, block.data(), coded + f * coded_bits());
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
    return std::make_unique<turbo_frame_encoder>(read_code(r));
}

} // namespace

GPUFEC_REGISTER_FRAME_FAMILY(turbo,
                             "turbo",
                             "turbo codes: LTE (all 188 K), BCJR max-log / log-map, sliding windows, CRC stop",
                             "code=<lte:K> (lte:6144), algorithm=<max-log|log-map> (max-log), "
                             "max_iterations=<1..100> (6), scaling (0.75 max-log, 1 log-map), "
                             "window=<0 = whole block | stages> (0), crc=<none|lte-24a|lte-24b> (none), "
                             "early_termination=<bool> (true: stop on CRC, or on unchanged decisions), "
                             "layout=<streams|interleaved> (streams: d0|d1|d2)",
                             make_from_options,
                             make_encoder_from_options);

} // namespace gpufec
