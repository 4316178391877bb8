/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/bits.h>
#include <gnuradio/gpufec/core/ldpc.h>
#include <gnuradio/gpufec/core/soft.h>

#include "runtime/gpu_engine.h"
#include "ldpc_engine.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

ldpc_algorithm parse_ldpc_algorithm(const std::string& name)
{
    if (name == "layered" || name == "layered-min-sum")
        return ldpc_algorithm::layered_min_sum;
    if (name == "flooding" || name == "flooding-min-sum")
        return ldpc_algorithm::flooding_min_sum;
    if (name == "sum-product" || name == "spa")
        return ldpc_algorithm::sum_product;
    throw std::invalid_argument("algorithm: '" + name +
                                "' is not valid (allowed: layered, flooding, sum-product)");
}

std::string to_string(ldpc_algorithm a)
{
    switch (a) {
    case ldpc_algorithm::layered_min_sum:
        return "layered";
    case ldpc_algorithm::flooding_min_sum:
        return "flooding";
    default:
        return "sum-product";
    }
}

ldpc_precision parse_ldpc_precision(const std::string& name)
{
    if (name == "float")
        return ldpc_precision::float32;
    if (name == "int16")
        return ldpc_precision::int16;
    if (name == "int8")
        return ldpc_precision::int8;
    throw std::invalid_argument("precision: '" + name + "' is not valid (allowed: float, int16, int8)");
}

std::string to_string(ldpc_precision p)
{
    return p == ldpc_precision::float32 ? "float" : p == ldpc_precision::int16 ? "int16" : "int8";
}

void ldpc_options::validate() const
{
    if (max_iterations < 1 || max_iterations > 1000)
        throw std::invalid_argument("max_iterations: " + std::to_string(max_iterations) +
                                    " is not valid (allowed: 1..1000)");
    if (!(normalization > 0.f) || normalization > 1.f)
        throw std::invalid_argument("normalization: must be in (0, 1]");
    if (!(offset >= 0.f) || offset > 127.f)
        throw std::invalid_argument("offset: must be in [0, 127]");
    if (algorithm == ldpc_algorithm::sum_product && precision != ldpc_precision::float32)
        throw std::invalid_argument("algorithm: sum-product needs precision float");
    if (max_batch < 0 || max_batch > (1 << 20))
        throw std::invalid_argument("max_batch: " + std::to_string(max_batch) +
                                    " is not valid (allowed: 0 = automatic, or 1..1048576)");
    if (cpu_threads < 0)
        throw std::invalid_argument("cpu_threads: must be >= 0 (0 = every core)");
}

ldpc_decoder::ldpc_decoder(const ldpc_code& code, const ldpc_options& options, const device_spec& device)
    : d_code(code), d_opts(options)
{
    d_opts.validate();
    if (d_opts.precision != ldpc_precision::float32) {
        // exact posteriors must fit their type: 127 + degree * message limit (ldpc_common.h)
        const auto cd = code.column_degrees();
        const long long dmax = *std::max_element(cd.begin(), cd.end());
        const long long limit = d_opts.precision == ldpc_precision::int8 ? 32767 : 2147483647LL;
        const long long mmax = d_opts.precision == ldpc_precision::int8 ? 127 : 32767;
        if (127 + dmax * mmax > limit)
            throw std::invalid_argument("precision: " + to_string(d_opts.precision) +
                                        " cannot hold the posteriors of bits in " + std::to_string(dmax) +
                                        " checks; use int16 or float");
    }
    const backend_choice choice = resolve_backend(device);
#ifdef GPUFEC_HAVE_CUDA
    if (choice.cuda) {
        // the GPU runs layered min-sum in fixed point on quasi-cyclic codes
        std::string why;
        if (!code.is_qc())
            why = "the code is not quasi-cyclic";
        else if (d_opts.algorithm != ldpc_algorithm::layered_min_sum)
            why = "algorithm " + to_string(d_opts.algorithm) + " runs on the CPU only";
        else if (d_opts.precision == ldpc_precision::float32)
            why = "precision float runs on the CPU only";
        if (why.empty()) {
            d_engine = gpu_engine_or_cpu(device, choice, "ldpc",
                                         [&](int d) { return make_ldpc_cuda_engine(code, d_opts, d); });
        } else if (device.type == device_spec::kind::cuda) {
            throw std::invalid_argument("device: cuda cannot decode this configuration: " + why);
        } else {
            log(log_level::info, "LDPC on the CPU: " + why);
        }
    }
#else
    (void)choice;
#endif
    if (!d_engine) {
        const bool fast = !d_opts.cpu_reference && d_opts.algorithm == ldpc_algorithm::layered_min_sum &&
                          d_opts.precision != ldpc_precision::float32;
        d_engine = fast ? make_ldpc_cpu_engine(code, d_opts) : make_ldpc_reference_engine(code, d_opts);
    }
}

ldpc_decoder::~ldpc_decoder() = default;

std::string ldpc_decoder::backend() const { return d_engine->name(); }

double ldpc_decoder::time_kernels_only(const int8_t* soft, size_t frames, int reps)
{
    return d_engine->time_kernels(soft, frames, reps);
}

void ldpc_decoder::finish(const uint8_t* cw_packed, size_t frames, uint8_t* out, ldpc_output what, bool packed)
{
    // only the outputs the engines cannot write themselves (direct_output): unpacked bits, or
    // information bits that are not a prefix of the codeword
    const size_t n = size_t(d_code.n()), nbytes = (n + 7) / 8, bits = output_bits(what);
    const size_t out_per_frame = packed ? (bits + 7) / 8 : bits;
    const auto& info = d_code.info_columns();
    const bool prefix = what == ldpc_output::codeword || info.back() == int(bits) - 1;
    std::vector<uint8_t> hard(prefix ? 0 : n), tmp(prefix ? 0 : bits);
    for (size_t f = 0; f < frames; ++f) {
        const uint8_t* cw = cw_packed + f * nbytes;
        uint8_t* o = out + f * out_per_frame;
        if (prefix) {
            unpack_bits(cw, bits, o);
            continue;
        }
        unpack_bits(cw, n, hard.data());
        for (size_t i = 0; i < bits; ++i)
            tmp[i] = hard[size_t(info[i])];
        if (packed)
            pack_bits(tmp.data(), bits, o);
        else
            std::copy(tmp.begin(), tmp.end(), o);
    }
}

bool ldpc_decoder::direct_output(ldpc_output what, bool packed) const
{
    // the engines write the leading bits of each codeword, packed: exactly the requested
    // output when it is the codeword, or the information bits of a systematic-first code
    const auto& info = d_code.info_columns();
    return packed && (what == ldpc_output::codeword || info.back() == int(info.size()) - 1);
}

void ldpc_decoder::run_engine(const int8_t* soft8, const float* softf, size_t frames, uint8_t* out,
                              ldpc_output what, bool packed, ldpc_result* results, float* posteriors)
{
    if (!results) {
        d_results.resize(frames);
        results = d_results.data();
    }
    const bool direct = direct_output(what, packed);
    const int out_bits = direct ? int(output_bits(what)) : d_code.n();
    if (!direct)
        d_hard.resize(frames * size_t((d_code.n() + 7) / 8));
    uint8_t* dst = direct ? out : d_hard.data();
    if (softf)
        d_engine->run_float(softf, frames, dst, out_bits, results, posteriors);
    else
        d_engine->run(soft8, frames, dst, out_bits, results, posteriors);
    if (!direct)
        finish(d_hard.data(), frames, out, what, packed);
}

void ldpc_decoder::decode(const int8_t* soft, size_t frames, uint8_t* out, ldpc_output what,
                          bool packed, ldpc_result* results, float* posteriors)
{
    if (frames == 0)
        return;
    if (d_opts.precision != ldpc_precision::float32) {
        run_engine(soft, nullptr, frames, out, what, packed, results, posteriors);
        return;
    }
    // min-sum does not depend on the scale of its input; sum-product needs true LLRs
    if (d_opts.algorithm == ldpc_algorithm::sum_product)
        throw std::invalid_argument("input: sum-product needs LLRs as float input, not int8 soft values");
    d_f.assign(soft, soft + frames * size_t(d_code.n()));
    run_engine(nullptr, d_f.data(), frames, out, what, packed, results, posteriors);
}

size_t ldpc_decoder::decode(const float* soft, size_t frames, uint8_t* out, ldpc_output what,
                            bool packed, ldpc_result* results, float* posteriors, float scale)
{
    if (frames == 0)
        return 0;
    const size_t len = frames * size_t(d_code.n());
    size_t nans = 0;
    if (d_opts.precision != ldpc_precision::float32) {
        d_q.resize(len);
        nans = quantize_soft(soft, d_q.data(), len, scale);
        run_engine(d_q.data(), nullptr, frames, out, what, packed, results, posteriors);
        return nans;
    }
    // float precision: the values as given (NaN as an erasure, infinities clamped)
    d_f.resize(len);
    nans = sanitize_soft(soft, d_f.data(), len);
    run_engine(nullptr, d_f.data(), frames, out, what, packed, results, posteriors);
    return nans;
}

} // namespace gpufec
