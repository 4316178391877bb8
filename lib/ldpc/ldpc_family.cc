/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LDPC as a frame family: ldpc_decoder behind the frame_decoder interface, and its
 * registration ("ldpc"). */
#include <gnuradio/gpufec/core/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc.h>
#include <gnuradio/gpufec/core/ldpc_encoder.h>

#include <algorithm>
#include <stdexcept>

namespace gpufec {

namespace {

class ldpc_frame_decoder : public frame_decoder
{
public:
    ldpc_frame_decoder(const ldpc_code& code, const ldpc_options& o, const device_spec& device,
                       ldpc_output what, int batch)
        : d_dec(code, o, device), d_what(what)
    {
        const size_t in_bytes = size_t(code.n());
        // GPU: about 32 MB of int8 input per batch (the engine overlaps its chunks inside it);
        // CPU: enough codewords for every SIMD lane of every worker
        d_batch = batch > 0 ? size_t(batch)
                            : on_gpu() ? std::clamp<size_t>((size_t(32) << 20) / in_bytes, 256, 65536)
                                       : std::clamp<size_t>((size_t(1) << 20) / in_bytes, 64, 1024);
    }

    std::string family() const override { return "ldpc"; }
    std::string describe() const override { return d_dec.code().describe(); }
    std::string backend() const override { return d_dec.backend(); }
    size_t input_per_frame() const override { return size_t(d_dec.code().n()); }
    size_t output_bits() const override { return d_dec.output_bits(d_what); }
    bool has_check() const override { return true; }
    std::string check_name() const override { return "syndrome_ok"; }
    bool iterates() const override { return true; }
    size_t soft_output_per_frame() const override { return size_t(d_dec.code().n()); }
    bool wants_float_input() const override
    {
        return d_dec.options().precision == ldpc_precision::float32;
    }
    size_t preferred_batch() const override { return d_batch; }
    size_t min_efficient_batch() const override { return on_gpu() ? 1024 : 32; }
    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        return d_dec.time_kernels_only(soft, frames, reps);
    }

protected:
    void decode_checked(const frame_batch& b) override
    {
        d_res.resize(b.frames);
        if (b.soft_f)
            d_dec.decode(b.soft_f, b.frames, b.bits, d_what, b.packed, d_res.data(), b.soft_out);
        else
            d_dec.decode(b.soft, b.frames, b.bits, d_what, b.packed, d_res.data(), b.soft_out);
        for (size_t f = 0; f < b.frames; ++f) {
            b.status[f].iterations = d_res[f].iterations;
            b.status[f].check = d_res[f].syndrome_ok ? 1 : 0;
        }
    }

private:
    ldpc_decoder d_dec;
    ldpc_output d_what;
    size_t d_batch = 1;
    std::vector<ldpc_result> d_res;
};

std::unique_ptr<frame_decoder> make_from_options(option_reader& r, const frame_common& common,
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

std::unique_ptr<frame_decoder> make_ldpc_frame_decoder(const ldpc_code& code,
                                                       const ldpc_options& options,
                                                       const device_spec& device,
                                                       ldpc_output what,
                                                       int batch)
{
    return std::make_unique<ldpc_frame_decoder>(code, options, device, what, batch);
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
                                        "a standard code (802.11n:<n>:<rate>, 802.16e:<n>:<rate>), an alist or base-matrix file"),
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
                               "code=802.11n:648:3/4, algorithm=flooding, precision=float, max_iterations=20" });

} // namespace gpufec
