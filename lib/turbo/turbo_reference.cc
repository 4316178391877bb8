/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The reference turbo decoder: BCJR of each constituent code in the log domain (float), with
 * exact max* (log-map) or max (max-log), over windows whose boundary metrics come from the
 * previous iteration (one window = the exact BCJR), two half-iterations per iteration. The fast
 * paths are checked against it. */
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"

#include "codes/max_star.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr int SMAX = 16;      // states: LTE 8, CCSDS 16
constexpr float NEG = -1e30f; // log(0)


struct siso_io {
    const float* sys;  // K systematic LLRs (this decoder's order)
    const float* apri; // K a-priori LLRs
    const float* par;  // stages x P parity LLRs (0 where not sent), P = outputs - 1
    const float* tail_sys; // the tail stages' systematic (feedback) LLRs (0 where not sent)
    float* ext;        // K extrinsic out
    float* app;        // K a-posteriori out (or null)
    float* bound_a;    // alpha at each window start (windows x S), kept between iterations
    float* bound_b;    // beta at each window end (windows x S)
    bool first;        // first iteration: the inner boundaries are unknown (uniform)
};

/* One constituent decoder over K info stages and m tail stages. Windows of W stages (the
 * last one also holds the tail); W = K: one window, the exact BCJR. A branch's metric is
 * x (sys + apri) + the sum of its parity bits' LLRs: psum[label], label = its parity bits. */
template <bool LOGMAP>
void siso(const trellis& t, int K, int W, const siso_io& io, std::vector<float>& alpha, std::vector<float>& beta)
{
    const int S = t.states(), P = t.n() - 1, m = t.k() - 1;
    const int windows = (K + W - 1) / W;
    alpha.resize(size_t(W + 1) * size_t(S));
    beta.resize(size_t(W + m + 1) * size_t(S));
    // branch labels: (s, x) -> parity bits, computed once
    uint32_t label[2 * SMAX], next[2 * SMAX];
    for (uint32_t s = 0; s < uint32_t(S); ++s)
        for (uint32_t x = 0; x < 2; ++x) {
            label[2 * s + x] = t.output(s, x) >> 1;
            next[2 * s + x] = t.next_state(s, x);
        }
    float psum[8];
    auto parity_sums = [&](int k) {
        const float* p = io.par + size_t(k) * size_t(P);
        for (uint32_t l = 0; l < (1u << P); ++l) {
            float v = 0.f;
            for (int r = 0; r < P; ++r)
                if ((l >> r) & 1u)
                    v += p[r];
            psum[l] = v;
        }
    };
    // windows run in order: window w overwrites the alpha boundary window w + 1 is about to
    // read, so the old value waits in `carry`; beta boundaries go to window w - 1, which has
    // already read its own
    float carry[SMAX] = {};
    for (int w = 0; w < windows; ++w) {
        const int k0 = w * W, k1 = std::min(K, k0 + W), len = k1 - k0;
        const bool last = w == windows - 1;
        // forward
        float* a = alpha.data();
        for (int s = 0; s < S; ++s)
            a[s] = w == 0 ? (s == 0 ? 0.f : NEG) : io.first ? 0.f : carry[s];
        for (int i = 0; i < len; ++i) {
            const int k = k0 + i;
            parity_sums(k);
            const float u = io.sys[k] + io.apri[k];
            float* an = a + (i + 1) * S;
            std::fill(an, an + S, NEG);
            for (int s = 0; s < S; ++s)
                for (int x = 0; x < 2; ++x) {
                    const int br = 2 * s + x;
                    an[next[br]] = max_star<LOGMAP>(an[next[br]], a[i * S + s] + float(x) * u + psum[label[br]]);
                }
            const float mx = *std::max_element(an, an + S);
            for (int s = 0; s < S; ++s)
                an[s] -= mx;
        }
        if (!last) {
            std::copy(io.bound_a + (w + 1) * S, io.bound_a + (w + 2) * S, carry);
            std::copy(a + len * S, a + (len + 1) * S, io.bound_a + (w + 1) * S);
        }
        // backward: the last window starts at the true end (state 0 after the tail)
        const int tl = last ? m : 0; // tail stages in this window
        float* b = beta.data();      // b[(i) * S]: beta at stage k0 + i, i = 0..len+tl
        float* bend = b + (len + tl) * S;
        for (int s = 0; s < S; ++s)
            bend[s] = last ? (s == 0 ? 0.f : NEG) : io.first ? 0.f : io.bound_b[w * S + s];
        for (int j = tl - 1; j >= 0; --j) { // tail stages: the input is the feedback
            parity_sums(K + j);
            float* bc = b + (len + j) * S;
            const float* bn = bc + S;
            for (int s = 0; s < S; ++s) {
                const int br = 2 * s + int(t.termination_input(uint32_t(s)));
                bc[s] = bn[next[br]] + float(br & 1) * io.tail_sys[j] + psum[label[br]];
            }
        }
        for (int i = len - 1; i >= 0; --i) {
            const int k = k0 + i;
            parity_sums(k);
            const float u = io.sys[k] + io.apri[k];
            float* bc = b + i * S;
            const float* bn = bc + S;
            for (int s = 0; s < S; ++s)
                bc[s] = max_star<LOGMAP>(bn[next[2 * s]] + psum[label[2 * s]],
                                        bn[next[2 * s + 1]] + u + psum[label[2 * s + 1]]);
            const float mx = *std::max_element(bc, bc + S);
            for (int s = 0; s < S; ++s)
                bc[s] -= mx;
            // extrinsic of stage k: the parity and the metrics, not sys and a-priori
            float m0 = NEG, m1 = NEG;
            for (int s = 0; s < S; ++s) {
                m0 = max_star<LOGMAP>(m0, a[i * S + s] + psum[label[2 * s]] + bn[next[2 * s]]);
                m1 = max_star<LOGMAP>(m1, a[i * S + s] + psum[label[2 * s + 1]] + bn[next[2 * s + 1]]);
            }
            io.ext[k] = m1 - m0;
            if (io.app)
                io.app[k] = u + io.ext[k];
        }
        if (w > 0)
            std::copy(b, b + S, io.bound_b + (w - 1) * S);
    }
}

} // namespace

turbo_reference_decoder::turbo_reference_decoder(const turbo_code& code, const turbo_options& options)
    : d_code(code), d_opts(options)
{
    d_opts.validate();
    if (d_code.rsc.states() > SMAX || d_code.rsc.n() > 4)
        throw std::invalid_argument("turbo: the decoder takes constituent codes of up to 16 states and 3 parities");
    d_has_crc = !d_opts.crc.empty();
    if (d_has_crc) {
        d_crc = crc_spec::named(d_opts.crc);
        if (d_code.K <= d_crc.width)
            throw std::invalid_argument("crc: K=" + std::to_string(d_code.K) + " leaves no room for " +
                                        d_opts.crc);
    }
    const size_t K = size_t(d_code.K);
    for (auto* v : { &d_sys, &d_sys2, &d_ext1, &d_ext2, &d_apri, &d_apri2, &d_app })
        v->resize(K);
    const size_t P = size_t(d_code.rsc.n() - 1), m = size_t(d_code.tail_stages());
    d_par1.resize((K + m) * P);
    d_par2.resize((K + m) * P);
    d_tail1.resize(m);
    d_tail2.resize(m);
    const int S = d_code.rsc.states();
    const int W = d_opts.window > 0 ? std::min(d_opts.window, d_code.K) : d_code.K;
    const size_t windows = size_t((d_code.K + W - 1) / W);
    for (auto* v : { &d_bound_a1, &d_bound_b1, &d_bound_a2, &d_bound_b2 })
        v->resize(windows * size_t(S));
    d_hard.resize(K);
    d_prev.resize(K);
}

size_t turbo_reference_decoder::output_bits() const
{
    return size_t(d_code.K) - (d_has_crc ? size_t(d_crc.width) : 0);
}

turbo_result turbo_reference_decoder::decode(const float* llr, uint8_t* bits, float* app_out)
{
    const turbo_code& c = d_code;
    const int K = c.K;
    const size_t Ks = size_t(K);
    // every encoder output from where the code puts it (0: not sent)
    auto at = [&](int e, int r, int k) {
        const int64_t p = c.position(e, r, k);
        return p >= 0 ? llr[p] : 0.f;
    };
    const int P = c.rsc.n() - 1, N = c.stages();
    for (int k = 0; k < N; ++k)
        for (int r = 0; r < P; ++r) {
            d_par1[size_t(k * P + r)] = at(0, r + 1, k);
            d_par2[size_t(k * P + r)] = at(1, r + 1, k);
        }
    for (int k = 0; k < K; ++k)
        d_sys[size_t(k)] = at(0, 0, k);
    for (size_t k = 0; k < Ks; ++k)
        d_sys2[k] = d_sys[c.pi[k]];
    for (int j = 0; j < c.tail_stages(); ++j) {
        d_tail1[size_t(j)] = at(0, 0, K + j);
        d_tail2[size_t(j)] = at(1, 0, K + j);
    }

    const int W = d_opts.window > 0 ? std::min(d_opts.window, K) : K;
    const float sf = d_opts.scaling;
    std::fill(d_apri.begin(), d_apri.end(), 0.f);
    turbo_result r;
    for (int it = 1; it <= d_opts.max_iterations; ++it) {
        siso_io io1{ d_sys.data(), d_apri.data(), d_par1.data(), d_tail1.data(), d_ext1.data(), nullptr,
                     d_bound_a1.data(), d_bound_b1.data(), it == 1 };
        if (d_opts.algorithm == turbo_algorithm::log_map)
            siso<true>(c.rsc, K, W, io1, d_alpha, d_beta);
        else
            siso<false>(c.rsc, K, W, io1, d_alpha, d_beta);
        for (size_t k = 0; k < Ks; ++k)
            d_apri2[k] = sf * d_ext1[c.pi[k]];
        siso_io io2{ d_sys2.data(), d_apri2.data(), d_par2.data(), d_tail2.data(), d_ext2.data(), d_app.data(),
                     d_bound_a2.data(), d_bound_b2.data(), it == 1 };
        if (d_opts.algorithm == turbo_algorithm::log_map)
            siso<true>(c.rsc, K, W, io2, d_alpha, d_beta);
        else
            siso<false>(c.rsc, K, W, io2, d_alpha, d_beta);
        d_prev.swap(d_hard);
        for (size_t k = 0; k < Ks; ++k) {
            d_apri[c.pi[k]] = sf * d_ext2[k];
            d_hard[c.pi[k]] = d_app[k] > 0.f;
        }
        r.iterations = it;
        if (d_has_crc) {
            r.crc_ok = crc_check(d_crc, d_hard.data(), Ks) ? 1 : 0;
            if (d_opts.early_termination && r.crc_ok)
                break;
        } else if (d_opts.early_termination && it > 1 && d_hard == d_prev) {
            break;
        }
    }
    std::copy(d_hard.begin(), d_hard.begin() + long(output_bits()), bits);
    if (app_out)
        for (size_t k = 0; k < Ks; ++k)
            app_out[c.pi[k]] = d_app[k];
    return r;
}

} // namespace gpufec
