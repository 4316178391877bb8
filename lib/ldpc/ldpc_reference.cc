/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The reference LDPC decoders: one codeword at a time, written to be read, for any code given
 * by its rows (quasi-cyclic or not). Layered and flooding min-sum in fixed point or float, and
 * sum-product in float. The fixed-point layered decoder defines the output that the GPU must
 * reproduce bit for bit (ldpc_common.h). Codewords of a batch are spread over threads. */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "ldpc_common.h"
#include "ldpc_engine.h"
#include "../runtime/cpu_pool.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpufec {

void ldpc_engine::decode_float(const float*, size_t, uint8_t*, int, frame_status*, float*)
{
    throw std::logic_error("this LDPC engine takes int8 input only");
}

void ldpc_engine::decode_soft4(const uint8_t*, size_t, uint8_t*, int, frame_status*, float*)
{
    throw std::logic_error("this LDPC engine does not read packed 4-bit input (its decoder unpacks it)");
}

double ldpc_engine::time_kernels(const int8_t*, size_t, int) { return -1.0; }

namespace {

struct fixed_arith {
    ldpc_fixed f;
    typedef int value;
    value norm(value mag) const { return ldpc_norm(mag, f); }
    static value abs(value v) { return v < 0 ? -v : v; }
    static value big() { return 1 << 30; }
};

struct float_arith {
    float normalization, offset;
    typedef float value;
    value norm(value mag) const { return std::max(0.f, mag * normalization - offset); }
    static value abs(value v) { return std::fabs(v); }
    static value big() { return HUGE_VALF; }
};

/*! Scratch vector `slot` of the calling thread, reused from codeword to codeword (the pool's
 *  threads live as long as the engine), so that no codeword allocates. Slots 0-3 belong to the
 *  decoders, slot 4 to the input conversion. */
constexpr int input_slot = 4;
template <class V>
std::vector<V>& scratch(int slot)
{
    thread_local std::vector<V> v[5];
    return v[slot];
}

/*! Min-sum check update of one row: msg[j] from the inputs q[0..d) (ldpc_common.h: the other
 *  inputs' smallest magnitude, normalised, with the product of their signs). */
template <class A>
void min_sum_row(const A& a, const typename A::value* q, int d, typename A::value* msg)
{
    typedef typename A::value V;
    V min1 = A::big(), min2 = A::big();
    int idx = 0;
    bool parity = false;
    for (int j = 0; j < d; ++j) {
        const V mag = A::abs(q[j]);
        parity ^= q[j] < 0;
        if (mag < min1) {
            min2 = min1;
            min1 = mag;
            idx = j;
        } else if (mag < min2) {
            min2 = mag;
        }
    }
    const V n1 = a.norm(min1), n2 = a.norm(min2);
    for (int j = 0; j < d; ++j) {
        const V mag = j == idx ? n2 : n1;
        msg[j] = (parity != (q[j] < 0)) ? -mag : mag;
    }
}

class reference_engine : public ldpc_engine
{
public:
    reference_engine(const ldpc_code& code, const ldpc_options& o)
        : ldpc_engine(code.n()), d_code(code),
          d_opts(o),
          d_pool(get_cpu_pool(o.cpu_threads))
    {
        d_fixed.mmax = o.precision == ldpc_precision::int8 ? 127 : 32767;
        d_fixed.norm16 = ldpc_norm16(code, o);
        d_fixed.offset = int(std::lround(o.offset));
    }

    std::string name() const override
    {
        return "cpu reference (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }

    void decode(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                float* post) override
    {
        // min-sum does not depend on the scale of its input; sum-product needs true LLRs
        if (d_opts.algorithm == ldpc_algorithm::sum_product)
            throw std::invalid_argument("input: sum-product needs LLRs as float input, not int8 soft values");
        run_any(soft, frames, packed, out_bits, res, post);
    }

    void decode_float(const float* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                      float* post) override
    {
        if (d_opts.precision != ldpc_precision::float32)
            throw std::logic_error("float input to a fixed-point engine");
        run_any(soft, frames, packed, out_bits, res, post);
    }

private:
    template <class S>
    void run_any(const S* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res, float* post)
    {
        const size_t n = size_t(d_code.n()), nbytes = (size_t(out_bits) + 7) / 8;
        d_pool->parallel_for(int64_t(frames), [&](int64_t f, int) {
            auto& llr = scratch<float>(input_slot);
            auto& hard = scratch<uint8_t>(input_slot);
            llr.resize(n);
            hard.resize(n);
            for (size_t i = 0; i < n; ++i)
                llr[i] = -float(soft[size_t(f) * n + i]);
            decode_one(llr.data(), hard.data(), res + f, post ? post + size_t(f) * n : nullptr);
            pack_bits(hard.data(), size_t(out_bits), packed + size_t(f) * nbytes);
        });
    }

    //! llr: internal convention (positive = bit 0); integer-valued for fixed point
    void decode_one(const float* llr, uint8_t* hard, frame_status* res, float* post) const
    {
        if (d_opts.precision == ldpc_precision::float32) {
            const float_arith a{ ldpc_normalization(d_code, d_opts), d_opts.offset };
            if (d_opts.algorithm == ldpc_algorithm::layered_min_sum)
                layered(a, llr, hard, res, post);
            else
                flooding(a, llr, hard, res, post);
        } else {
            if (d_opts.algorithm == ldpc_algorithm::sum_product)
                throw std::invalid_argument("algorithm: sum-product needs precision float");
            const fixed_arith a{ d_fixed };
            if (d_opts.algorithm == ldpc_algorithm::layered_min_sum)
                layered(a, llr, hard, res, post);
            else
                flooding(a, llr, hard, res, post);
        }
    }

    /*! Runs one_iteration() until max_iterations, or until the hard decisions of gamma satisfy
     *  every check when early termination is on; then reports iterations, syndrome and the
     *  posteriors (module convention, positive = bit 1). */
    template <class V, class Iteration>
    void iterate(const std::vector<V>& gamma, uint8_t* hard, frame_status* res, float* post,
                 Iteration&& one_iteration) const
    {
        int it = 0;
        bool ok = false;
        while (it < d_opts.max_iterations) {
            ++it;
            one_iteration();
            for (size_t i = 0; i < gamma.size(); ++i)
                hard[i] = gamma[i] < 0;
            ok = d_code.satisfied(hard);
            if (ok && d_opts.early_termination)
                break;
        }
        *res = frame_status{ it, int8_t(ok), 0 };
        if (post)
            for (size_t i = 0; i < gamma.size(); ++i)
                post[i] = -float(gamma[i]);
    }

    template <class A>
    void layered(const A& a, const float* llr, uint8_t* hard, frame_status* res, float* post) const
    {
        typedef typename A::value V;
        const auto& rs = d_code.row_start();
        const auto& rc = d_code.row_cols();
        auto& gamma = scratch<V>(0);
        auto& lambda = scratch<V>(1);
        auto& rho = scratch<V>(2);
        auto& msg = scratch<V>(3);
        gamma.assign(llr, llr + d_code.n());
        lambda.assign(rc.size(), V(0));
        rho.resize(size_t(d_code.max_row_degree()));
        msg.resize(rho.size());
        iterate(gamma, hard, res, post, [&] {
            for (int r = 0; r < d_code.m(); ++r) {
                const int e0 = rs[r], d = rs[r + 1] - e0;
                for (int j = 0; j < d; ++j)
                    rho[j] = gamma[rc[e0 + j]] - lambda[e0 + j];
                min_sum_row(a, rho.data(), d, msg.data());
                for (int j = 0; j < d; ++j) {
                    lambda[e0 + j] = msg[j];
                    gamma[rc[e0 + j]] = rho[j] + msg[j];
                }
            }
        });
    }

    template <class A>
    void flooding(const A& a, const float* llr, uint8_t* hard, frame_status* res, float* post) const
    {
        typedef typename A::value V;
        const auto& rs = d_code.row_start();
        const auto& rc = d_code.row_cols();
        const size_t n = size_t(d_code.n());
        auto& ch = scratch<V>(0);
        auto& gamma = scratch<V>(1);
        auto& msg = scratch<V>(2);
        auto& q = scratch<V>(3);
        ch.assign(llr, llr + n);
        gamma = ch;
        msg.assign(rc.size(), V(0));
        q.resize(size_t(d_code.max_row_degree()));
        auto& acc = scratch<double>(0); // float: sums; fixed point: exact (below 2^53)
        auto& t = scratch<double>(1);
        auto& prefix = scratch<double>(2);
        auto& suffix = scratch<double>(3);
        acc.resize(n);
        t.resize(q.size());
        prefix.resize(q.size() + 1);
        suffix.resize(q.size() + 1);
        const bool spa = d_opts.algorithm == ldpc_algorithm::sum_product;
        iterate(gamma, hard, res, post, [&] {
            // checks: every row from the posteriors of the previous iteration
            for (int r = 0; r < d_code.m(); ++r) {
                const int e0 = rs[r], d = rs[r + 1] - e0;
                for (int j = 0; j < d; ++j)
                    q[j] = gamma[rc[e0 + j]] - msg[e0 + j];
                if (spa) {
                    // exact rule, exclusive products by prefix and suffix
                    for (int j = 0; j < d; ++j)
                        t[j] = std::tanh(0.5 * double(q[j]));
                    prefix[0] = suffix[d] = 1.0;
                    for (int j = 0; j < d; ++j)
                        prefix[j + 1] = prefix[j] * t[j];
                    for (int j = d - 1; j >= 0; --j)
                        suffix[j] = suffix[j + 1] * t[j];
                    for (int j = 0; j < d; ++j) {
                        const double p = std::max(-0.999999999, std::min(0.999999999, prefix[j] * suffix[j + 1]));
                        msg[e0 + j] = V(2.0 * std::atanh(p));
                    }
                    continue;
                }
                min_sum_row(a, q.data(), d, msg.data() + e0);
            }
            // bits: channel plus every incoming message
            for (size_t i = 0; i < n; ++i)
                acc[i] = double(ch[i]);
            for (size_t e = 0; e < rc.size(); ++e)
                acc[size_t(rc[e])] += double(msg[e]);
            for (size_t i = 0; i < n; ++i)
                gamma[i] = V(acc[i]); // exact for fixed point (sums of integers)
        });
    }

    ldpc_code d_code;
    ldpc_options d_opts;
    ldpc_fixed d_fixed;
    std::shared_ptr<cpu_pool> d_pool;
};

} // namespace

std::unique_ptr<ldpc_engine> make_ldpc_reference(const ldpc_code& code, const ldpc_options& o)
{
    return std::make_unique<reference_engine>(code, o);
}

} // namespace gpufec
