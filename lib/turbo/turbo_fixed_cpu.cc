/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder on the CPU, the readable scalar twin: one frame per pool
 * task, the arithmetic of turbo_fixed.h state by state in int (the CUDA kernel computes two
 * frames at once in int16 halves, the SIMD engine turbo_fixed_lanes.cc a group per vector; the
 * bound in turbo_fixed.h makes them all equal). The tests compare the others with it. */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/cpu_pool.h"
#include "turbo_engine.h"
#include "turbo_fixed.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

using namespace turbo_fx;

struct scratch {
    std::vector<int16_t> apri1, apri2, bounds, alpha;
    std::vector<int8_t> sys2;
    std::vector<uint8_t> decisions;
};

class fixed_cpu : public turbo_engine
{
public:
    fixed_cpu(const turbo_code& code, const turbo_options& o, int window)
        : d_code(code), d_opts(o), d_W(window), d_T(make_tables(code.rsc)),
          d_pool(get_cpu_pool(o.cpu_threads))
    {
        check_fixed_window(code, window, o.training, o.crc);
        if (code.standard != turbo_standard::lte)
            throw std::invalid_argument("engine: the scalar fixed-point decoder runs the LTE code");
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            d_has_crc = true;
        }
        d_nwin = (code.K + window - 1) / window;
        d_train = o.training;
        d_scale16 = int(std::lround(o.scaling * 16));
        const auto& pi = code.pi.permutation();
        d_pi.assign(pi.begin(), pi.end());
        d_inv.assign(code.pi.inverse().begin(), code.pi.inverse().end());
        d_scratch.resize(size_t(d_pool->size()));
    }
    std::string name() const override
    {
        return "cpu scalar fixed-point max-log, window " + std::to_string(d_W) + ", training " + std::to_string(d_train) + " (" + std::to_string(d_pool->size()) +
               " threads " + d_pool->kind() + ")";
    }
    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        const size_t n = d_code.coded_bits(), bytes = size_t(d_code.K) / 8;
        d_pool->parallel_for(int64_t(frames), [&](int64_t f, int w) {
            scratch& sc = d_scratch[size_t(w)];
            report[f] = frame(in + size_t(f) * n, sc, bits + size_t(f) * bytes);
        });
    }

private:
    // one half-iteration of one frame: writes the scaled extrinsic through dst_index, and the
    // decisions through bit_index when `bits` is given
    void half(const int8_t* sys, const int8_t* par, const int8_t* tail, const int16_t* apri, int16_t* dst,
              const uint32_t* dst_index, int16_t* bound, bool first, uint8_t* bits, const uint32_t* bit_index,
              std::vector<int16_t>& alpha) const
    {
        const int K = d_code.K, W = d_W, T = d_train;
        const size_t nb = size_t(d_nwin) * STATES;
        // bound: [a_in | b_in | a_out | b_out], each windows x 8, indexed by the window that reads
        const int16_t* a_in = bound;
        const int16_t* b_in = bound + nb;
        int16_t* a_out = bound + 2 * nb;
        int16_t* b_out = bound + 3 * nb;
        alpha.resize(size_t(W) * STATES);
        auto gamma = [&](int k, int s, int x) {
            return x * (soft_in(sys[k]) + apri[k]) + d_T.par[s * 2 + x] * soft_in(par[k]);
        };
        int am[STATES], b[STATES];
        auto forward = [&](int k) {
            int an[STATES];
            std::fill(an, an + STATES, INT_MIN / 2);
            for (int s = 0; s < STATES; ++s)
                for (int x = 0; x < 2; ++x) {
                    const int nx = d_T.next[s * 2 + x];
                    an[nx] = max2(an[nx], am[s] + gamma(k, s, x));
                }
            for (int s = 0; s < STATES; ++s)
                am[s] = an[s] - an[0];
        };
        auto backward = [&](int k) {
            int bn[STATES];
            for (int s = 0; s < STATES; ++s)
                bn[s] = max2(b[d_T.next[s * 2]] + gamma(k, s, 0), b[d_T.next[s * 2 + 1]] + gamma(k, s, 1));
            for (int s = 0; s < STATES; ++s)
                b[s] = bn[s] - bn[0];
        };
        for (int w = 0; w < d_nwin; ++w) {
            const int k0 = w * W, k1 = std::min(K, k0 + W), len = k1 - k0;
            // forward from max(k0 - T, 0): the known start, or the alpha stored there
            const int fs = k0 - T;
            for (int s = 0; s < STATES; ++s)
                am[s] = fs <= 0 ? (s == 0 ? 0 : -UNKNOWN) : first ? 0 : a_in[w * STATES + s];
            for (int k = std::max(fs, 0); k < k0; ++k)
                forward(k);
            for (int i = 0; i < len; ++i) {
                const int p = k0 + i; // alpha_p: the start of window v's recursion if p = k0(v) - T
                if (p > 0 && (p + T) % W == 0 && (p + T) / W < d_nwin)
                    std::copy(am, am + STATES, a_out + (p + T) / W * STATES);
                std::copy(am, am + STATES, alpha.begin() + i * STATES);
                forward(p);
            }
            // backward from min(k1 + T, K): the known end through the 3 tail stages (the input is
            // the feedback, not normalised), or the beta stored there
            const int be = k1 + T;
            if (be >= K) {
                int tv[6];
                for (int j = 0; j < 6; ++j)
                    tv[j] = soft_in(tail[j]);
                tail_betas(d_T, tv, b);
            } else {
                for (int s = 0; s < STATES; ++s)
                    b[s] = first ? 0 : b_in[w * STATES + s];
            }
            for (int k = std::min(be, K) - 1; k >= k1; --k)
                backward(k);
            for (int i = len - 1; i >= 0; --i) {
                const int k = k0 + i;
                int m0 = INT_MIN / 2, m1 = INT_MIN / 2;
                for (int s = 0; s < STATES; ++s) {
                    const int al = alpha[size_t(i) * STATES + s];
                    m0 = max2(m0, al + d_T.par[s * 2] * soft_in(par[k]) + b[d_T.next[s * 2]]);
                    m1 = max2(m1, al + d_T.par[s * 2 + 1] * soft_in(par[k]) + b[d_T.next[s * 2 + 1]]);
                }
                const int ext = m1 - m0;
                dst[dst_index[k]] = scale_ext(ext, d_scale16);
                if (bits)
                    bits[bit_index[k]] = uint8_t(soft_in(sys[k]) + apri[k] + ext > 0);
                backward(k);
                // beta_k: the start of window v's recursion if k = k1(v) + T
                if (k - T >= W && (k - T) % W == 0)
                    std::copy(b, b + STATES, b_out + ((k - T) / W - 1) * STATES);
            }
        }
    }

    //! decodes one frame into `packed` (K / 8 bytes)
    frame_status frame(const int8_t* in, scratch& sc, uint8_t* packed) const
    {
        const size_t K = size_t(d_code.K), D = K + 4;
        const int8_t *d0 = in, *d1 = in + D, *d2 = in + 2 * D;
        const int8_t t1[6] = { d0[K], d1[K], d2[K], d0[K + 1], d1[K + 1], d2[K + 1] };
        const int8_t t2[6] = { d0[K + 2], d1[K + 2], d2[K + 2], d0[K + 3], d1[K + 3], d2[K + 3] };
        sc.sys2.resize(K);
        sc.decisions.resize(K);
        for (size_t k = 0; k < K; ++k)
            sc.sys2[k] = d0[d_pi[k]];
        sc.apri1.assign(K, 0);
        sc.apri2.assign(K, 0);
        const size_t nb = size_t(d_nwin) * STATES;
        sc.bounds.assign(8 * nb, 0); // two decoders x [a_in | b_in | a_out | b_out]
        frame_status r;
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            const bool final = it == d_opts.max_iterations, decide = final || d_has_crc;
            half(d0, d1, t1, sc.apri1.data(), sc.apri2.data(), d_inv.data(), sc.bounds.data(), it == 1, nullptr,
                 nullptr, sc.alpha);
            half(sc.sys2.data(), d2, t2, sc.apri2.data(), sc.apri1.data(), d_pi.data(), sc.bounds.data() + 4 * nb,
                 it == 1, decide ? sc.decisions.data() : nullptr, d_pi.data(), sc.alpha);
            r.iterations = uint8_t(it);
            if (decide) {
                pack_bits(sc.decisions.data(), K, packed);
                if (d_has_crc) {
                    r.check = int8_t(packed_crc_passes(d_crc, packed, K));
                    if (r.check && d_opts.early_termination)
                        break;
                }
            }
            for (int d = 0; d < 2; ++d) // the outputs become the next iteration's inputs
                std::copy(sc.bounds.begin() + long((4 * d + 2) * nb), sc.bounds.begin() + long((4 * d + 4) * nb),
                          sc.bounds.begin() + long(4 * d * nb));
        }
        return r;
    }

    turbo_code d_code;
    turbo_options d_opts;
    int d_W, d_nwin = 0, d_scale16 = 12, d_train = TRAIN;
    crc_spec d_crc;
    bool d_has_crc = false;
    rsc_tables d_T;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<uint32_t> d_pi, d_inv;
    mutable std::vector<scratch> d_scratch;
};

} // namespace

void check_fixed_window(const turbo_code& code, int window, int training, const std::string& crc)
{
    if (code.standard != turbo_standard::lte && code.standard != turbo_standard::ccsds)
        throw std::invalid_argument("engine: the fixed-point decoders run the LTE and CCSDS codes");
    if (!crc.empty() && crc_spec::named(crc).width % 8 != 0)
        throw std::invalid_argument("crc: the fixed-point decoders take CRCs of whole bytes");
    if (training < 8 || training > 64 || training % 8 != 0)
        throw std::invalid_argument("training: the fixed-point decoder takes a multiple of 8 from 8 to 64 stages, not " +
                                    std::to_string(training));
    if (!valid_window(window))
        throw std::invalid_argument("window: the fixed-point decoder takes a multiple of 8 from 8 to " +
                                    std::to_string(MAX_WINDOW) + " stages, not " + std::to_string(window));
    if (code.K % 8 != 0)
        throw std::invalid_argument("turbo: the fixed-point decoder needs K a multiple of 8 (every LTE size is)");
}

std::unique_ptr<turbo_engine> make_turbo_fixed_scalar(const turbo_code& code, const turbo_options& o, int window)
{
    return std::make_unique<fixed_cpu>(code, o, window);
}


} // namespace gpufec
