/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LDPC as a frame family: its engine (ldpc_engine.h) under the one decoder over engines, and
 * its registration ("ldpc"). */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>

#include "ldpc_engine.h"
#include <algorithm>
#include <stdexcept>

namespace gpufec {

namespace {

std::unique_ptr<batch_decoder> make_from_options(option_reader& r, const frame_common& common,
                                                 const device_spec& device)
{
    const std::string code = r.get("code");
    ldpc_options o;
    o.algorithm = parse_ldpc_algorithm(r.get("algorithm"));
    o.precision = parse_ldpc_precision(r.get("precision"));
    o.max_iterations = int(r.get_int("max_iterations"));
    o.early_termination = r.get_bool("early_termination");
    o.normalization = float(r.get_float("normalization"));
    o.offset = float(r.get_float("offset"));
    o.cpu_threads = common.cpu_threads;
    const std::string out = r.get("output");
    if (out != "info" && out != "codeword")
        throw std::invalid_argument("output: '" + out + "' is not valid (allowed: info, codeword)");
    return make_ldpc_frame_decoder(ldpc_code::named(code), o, device,
                                   out == "info" ? ldpc_output::info : ldpc_output::codeword,
                                   common.max_batch);
}

class ldpc_frame_encoder : public frame_encoder
{
public:
    explicit ldpc_frame_encoder(const ldpc_code& code) : d_enc(code) {}
    size_t info_bits() const override { return size_t(d_enc.code().k()); }
    size_t coded_bits() const override { return size_t(d_enc.code().n()); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        d_enc.encode(bits, frames, coded);
    }

private:
    ldpc_encoder d_enc;
};

std::unique_ptr<frame_encoder> make_encoder_from_options(option_reader& r)
{
    // k information bits in, the n-bit codeword out (what a decoder with output=info undoes)
    return std::make_unique<ldpc_frame_encoder>(ldpc_code::named(r.get("code")));
}

} // namespace

std::unique_ptr<batch_decoder> make_ldpc_frame_decoder(const ldpc_code& code,
                                                       const ldpc_options& options,
                                                       const device_spec& device,
                                                       ldpc_output what,
                                                       int batch)
{
    std::unique_ptr<ldpc_engine> engine = make_ldpc_engine(code, options, device);
    const size_t n = size_t(code.n()), k = size_t(code.k());
    frame_shape shape;
    shape.family = "ldpc";
    shape.description = code.describe();
    shape.input_per_frame = n;
    shape.output_bits = what == ldpc_output::info ? k : n;
    // the engines write the leading bits of each codeword: the requested output when it is the
    // codeword or the information bits of a systematic-first code; else the codeword, from
    // which the information columns are taken
    const auto& info = code.info_columns();
    const bool prefix = what == ldpc_output::codeword || info.back() == int(k) - 1;
    shape.packed_bits = prefix ? shape.output_bits : n;
    if (!prefix)
        shape.output_order.assign(info.begin(), info.end());
    engine->set_output_bits(int(shape.packed_bits));
    shape.soft_output = n;
    shape.has_check = true;
    shape.check_name = "syndrome_ok";
    shape.iterates = true;
    shape.wants_float = options.precision == ldpc_precision::float32;
    // GPU: about 32 MB of int8 input per batch (the engine overlaps its chunks inside it);
    // CPU: enough codewords for every SIMD lane of every worker
    shape.batch_gpu = std::clamp<size_t>((size_t(32) << 20) / n, 256, 65536);
    shape.batch_cpu = std::clamp<size_t>((size_t(1) << 20) / n, 64, 1024);
    shape.min_efficient_cpu = 32;
    shape.min_efficient_gpu = 1024;
    shape.cpu_threads = options.cpu_threads;
    return make_engine_decoder(shape, std::move(engine), batch > 0 ? size_t(batch) : 0);
}

GPUFEC_REGISTER_FRAME_FAMILY(ldpc,
                             "ldpc",
                             "QC-LDPC and any LDPC code: layered / flooding min-sum, sum-product",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_from_options,
                             make_encoder_from_options,
                             "bpsk-awgn",
                             "",
                             { opt_text("code", "802.11n:1944:1/2",
                                        "a standard code (802.11n:<n>:<rate>, 802.16e:<n>:<rate>, nr:<bg1|bg2>:<Z>), an alist or base-matrix file"),
                               opt_choice("algorithm", "layered", { "layered", "flooding", "sum-product" },
                                          "layered min-sum (GPU and CPU), flooding min-sum or sum-product (CPU)",
                                          { "layered-min-sum", "flooding-min-sum", "spa" }),
                               opt_choice("precision", "int16", { "int8", "int16", "float" }, "the messages' arithmetic"),
                               opt_int("max_iterations", "10", 1, 1000, "iterations at most"),
                               opt_bool("early_termination", "true", "stop a codeword once its syndrome is zero"),
                               opt_real("normalization", "0.75", 1e-3, 1.0, "min-sum's normalisation factor"),
                               opt_real("offset", "0", 0.0, 127.0, "min-sum's offset"),
                               opt_choice("output", "info", { "info", "codeword" }, "the information bits, or the whole codeword") },
                             {},
                             {
                               "code=802.11n:648:1/2, max_iterations=10",
                               "code=802.16e:576:2/3A, precision=int8, early_termination=false",
                               "code=nr:bg2:20, precision=int8, max_iterations=8",
                               "code=nr:bg1:56, max_iterations=6",
                               "code=802.11n:648:3/4, algorithm=flooding, precision=float, max_iterations=20" });

} // namespace gpufec
