/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fully parallel turbo decoder (FPTD) on the CPU, the reference for its GPU version.
 * Every trellis stage i of the upper (r = 0) and the lower (r = 1) code is an algorithmic
 * block: from the forward metrics alpha[i] of the block before it, the backward metrics
 * beta[i + 1] of the block after it and the other code's extrinsic value, all from the
 * previous half-iteration, it makes alpha[i + 1], beta[i] and its own extrinsic value. One
 * half-iteration runs the even stages of the upper code and the odd stages of the lower code,
 * the next the others: the QPP interleaver maps even to even and odd to odd, so a block only
 * ever reads what blocks of the other set wrote. The termination stages are decoded once,
 * before the iterations (their beta[K] does not change). */
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"
#include "codes/max_star.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr int S = 8;
constexpr float NEG = -1e30f;


} // namespace

turbo_fptd_decoder::turbo_fptd_decoder(const turbo_code& code, const turbo_options& options, bool exact)
    : d_code(code), d_opts(options), d_exact(exact)
{
    d_opts.validate();
    if (d_code.standard != turbo_standard::lte)
        throw std::invalid_argument("algorithm: fptd runs the LTE code (CCSDS: max-log or log-map)");
    for (size_t i = 0; i < size_t(d_code.K); ++i)
        if ((d_code.pi[i] & 1u) != (i & 1u))
            throw std::invalid_argument("turbo: the FPTD needs an interleaver that maps even to even");
    if (!d_opts.crc.empty()) {
        d_crc = crc_spec::named(d_opts.crc);
        d_has_crc = true;
    }
    const size_t K = size_t(d_code.K);
    d_sys.resize(K);
    for (int r = 0; r < 2; ++r) {
        d_par[r].resize(K);
        d_ext[r].resize(K);
        d_alpha[r].resize((K + 1) * S);
        d_beta[r].resize((K + 1) * S);
    }
    d_hard.resize(K);
    d_prev.resize(K);
}

size_t turbo_fptd_decoder::output_bits() const
{
    return size_t(d_code.K) - (d_has_crc ? size_t(d_crc.width) : 0);
}

turbo_result turbo_fptd_decoder::decode(const float* llr, uint8_t* bits, float* app_out)
{
    const turbo_code& c = d_code;
    const trellis& t = c.rsc;
    const size_t K = size_t(c.K);
    const auto& pi = c.pi.permutation();
    const auto& inv = c.pi.inverse();
    for (size_t k = 0; k < K; ++k) {
        d_sys[k] = llr[c.pos(0, k)];
        d_par[0][k] = llr[c.pos(1, k)];
        d_par[1][k] = llr[c.pos(2, k)];
    }
    auto at = [&](int d, int i) { return llr[c.pos(d, K + size_t(i))]; };
    const float tails[2][6] = { { at(0, 0), at(1, 0), at(2, 0), at(0, 1), at(1, 1), at(2, 1) },
                                { at(0, 2), at(1, 2), at(2, 2), at(0, 3), at(1, 3), at(2, 3) } };
    for (int r = 0; r < 2; ++r) {
        std::fill(d_ext[r].begin(), d_ext[r].end(), 0.f);
        std::fill(d_alpha[r].begin(), d_alpha[r].end(), 0.f); // unknown: uniform
        std::fill(d_beta[r].begin(), d_beta[r].end(), 0.f);
        for (int s = 0; s < S; ++s)
            d_alpha[r][size_t(s)] = s == 0 ? 0.f : NEG; // the trellis starts in state 0
        // beta[K] from the termination stages, once (the input is the feedback)
        float b[S];
        for (int s = 0; s < S; ++s)
            b[s] = s == 0 ? 0.f : NEG;
        for (int j = 2; j >= 0; --j) {
            float bn[S];
            for (uint32_t s = 0; s < S; ++s) {
                const uint32_t x = t.termination_input(s), p = (t.output(s, x) >> 1) & 1u;
                bn[s] = b[t.next_state(s, x)] + float(x) * tails[r][2 * j] + float(p) * tails[r][2 * j + 1];
            }
            std::copy(bn, bn + S, b);
        }
        std::copy(b, b + S, d_beta[r].begin() + long(K * S));
    }
    const float sf = d_opts.scaling;
    // block i of code r, from the previous half-iteration's values
    auto block = [&](int r, size_t i) {
        const float sys = r == 0 ? d_sys[i] : d_sys[pi[i]];
        const float apri = sf * (r == 0 ? d_ext[1][inv[i]] : d_ext[0][pi[i]]);
        const float par = d_par[r][i];
        const float* a = d_alpha[r].data() + i * S;
        const float* bnext = d_beta[r].data() + (i + 1) * S;
        float an[S], bn[S], m0 = NEG, m1 = NEG;
        std::fill(an, an + S, NEG);
        for (uint32_t s = 0; s < S; ++s) {
            float bs = NEG;
            for (uint32_t x = 0; x < 2; ++x) {
                const uint32_t n = t.next_state(s, x), p = (t.output(s, x) >> 1) & 1u;
                const float g = float(x) * (apri + sys) + float(p) * par;
                an[n] = max_star(an[n], a[s] + g, d_exact);
                bs = max_star(bs, bnext[n] + g, d_exact);
                const float e = float(p) * par + a[s] + bnext[n];
                if (x)
                    m1 = max_star(m1, e, d_exact);
                else
                    m0 = max_star(m0, e, d_exact);
            }
            bn[s] = bs;
        }
        d_ext[r][i] = m1 - m0;
        float* ao = d_alpha[r].data() + (i + 1) * S;
        float* bo = d_beta[r].data() + i * S;
        for (int s = 0; s < S; ++s) {
            ao[s] = an[s] - an[0];
            if (i > 0) // beta[0] is not used
                bo[s] = bn[s] - bn[0];
        }
    };
    turbo_result res;
    for (int it = 1; it <= d_opts.max_iterations; ++it) {
        for (int half = 0; half < 2; ++half) {
            // half 0: even stages of the upper code, odd of the lower; half 1: the others
            for (size_t i = size_t(half); i < K; i += 2)
                block(0, i);
            for (size_t i = size_t(1 - half); i < K; i += 2)
                block(1, i);
        }
        d_prev.swap(d_hard);
        for (size_t k = 0; k < K; ++k) {
            const float app = sf * d_ext[1][inv[k]] + d_sys[k] + d_ext[0][k];
            d_hard[k] = app > 0.f;
            if (app_out)
                app_out[k] = app;
        }
        res.iterations = it;
        if (d_has_crc) {
            res.crc_ok = crc_check(d_crc, d_hard.data(), K) ? 1 : 0;
            if (d_opts.early_termination && res.crc_ok)
                break;
        } else if (d_opts.early_termination && it > 1 && d_hard == d_prev) {
            break;
        }
    }
    std::copy(d_hard.begin(), d_hard.begin() + long(output_bits()), bits);
    return res;
}

} // namespace gpufec
