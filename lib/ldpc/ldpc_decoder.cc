/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>

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
    if (!(normalization >= 0.f) || normalization > 1.f)
        throw std::invalid_argument("normalization: must be in (0, 1], or 0 for the code's own");
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

std::unique_ptr<ldpc_engine> make_ldpc_engine(const ldpc_code& code, const ldpc_options& options,
                                              const device_spec& device)
{
    options.validate();
    if (options.precision != ldpc_precision::float32) {
        // exact posteriors must fit their type (ldpc_common.h)
        const long long limit = options.precision == ldpc_precision::int8 ? 32767 : 2147483647LL;
        const int mmax = ldpc_fixed_point(code, options).mmax;
        if (ldpc_posterior_bound(code, mmax) > limit) {
            const auto cd = code.column_degrees();
            throw std::invalid_argument("precision: " + to_string(options.precision) +
                                        " cannot hold the posteriors of bits in " +
                                        std::to_string(*std::max_element(cd.begin(), cd.end())) +
                                        " checks; use int16 or float");
        }
    }
    std::unique_ptr<ldpc_engine> engine;
    const backend_choice choice = resolve_backend(device);
#ifdef GPUFEC_HAVE_CUDA
    if (choice.cuda) {
        // the GPU runs layered min-sum in fixed point on quasi-cyclic codes
        std::string why;
        if (!code.is_qc())
            why = "the code is not quasi-cyclic";
        else if (options.algorithm != ldpc_algorithm::layered_min_sum)
            why = "algorithm " + to_string(options.algorithm) + " runs on the CPU only";
        else if (options.precision == ldpc_precision::float32)
            why = "precision float runs on the CPU only";
        if (why.empty())
            engine = gpu_engine_or_cpu(device, choice, "ldpc",
                                       [&](int d) { return make_ldpc_cuda(code, options, d); });
        else if (device.type == device_spec::kind::cuda)
            throw std::invalid_argument("device: cuda cannot decode this configuration: " + why);
        else
            log(log_level::info, "LDPC on the CPU: " + why);
    }
#else
    (void)choice;
#endif
    if (!engine) {
        const bool fast = !options.cpu_reference && options.algorithm == ldpc_algorithm::layered_min_sum &&
                          options.precision != ldpc_precision::float32;
        engine = fast ? make_ldpc_cpu(code, options) : make_ldpc_reference(code, options);
    }
    return engine;
}

ldpc_decoder::ldpc_decoder(const ldpc_code& code, const ldpc_options& options, const device_spec& device)
    : d_code(code), d_opts(options), d_device(device)
{
    d_info = make_ldpc_frame_decoder(d_code, d_opts, d_device, ldpc_output::info, d_opts.max_batch);
}

ldpc_decoder::~ldpc_decoder() = default;

std::string ldpc_decoder::backend() const { return d_info->backend(); }

double ldpc_decoder::time_kernels_only(const int8_t* soft, size_t frames, int reps)
{
    return d_info->time_kernels(soft, frames, reps);
}

batch_decoder& ldpc_decoder::decoder(ldpc_output what)
{
    if (what == ldpc_output::info)
        return *d_info;
    if (!d_codeword)
        d_codeword = make_ldpc_frame_decoder(d_code, d_opts, d_device, ldpc_output::codeword, d_opts.max_batch);
    return *d_codeword;
}

void ldpc_decoder::copy_results(size_t frames, ldpc_result* results) const
{
    if (results)
        for (size_t f = 0; f < frames; ++f)
            results[f] = ldpc_result{ d_status[f].iterations, d_status[f].check == 1 };
}

void ldpc_decoder::decode(const int8_t* soft, size_t frames, uint8_t* out, ldpc_output what,
                          bool packed, ldpc_result* results, float* posteriors)
{
    if (frames == 0)
        return;
    d_status.resize(frames);
    frame_batch b;
    b.frames = frames;
    b.soft = soft;
    b.bits = out;
    b.packed = packed;
    b.status = d_status.data();
    b.soft_out = posteriors;
    decoder(what).decode(b);
    copy_results(frames, results);
}

size_t ldpc_decoder::decode(const float* soft, size_t frames, uint8_t* out, ldpc_output what,
                            bool packed, ldpc_result* results, float* posteriors, float scale)
{
    if (frames == 0)
        return 0;
    d_status.resize(frames);
    frame_batch b;
    b.frames = frames;
    b.bits = out;
    b.packed = packed;
    b.status = d_status.data();
    b.soft_out = posteriors;
    const size_t nans = decoder(what).decode_float(soft, b, scale);
    copy_results(frames, results);
    return nans;
}

} // namespace gpufec
