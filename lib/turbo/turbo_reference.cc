/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The reference turbo decoder: BCJR of each constituent code in the log domain (float), with
 * exact max* (log-map) or max (max-log), over windows whose boundary metrics come from the
 * previous iteration (one window = the exact BCJR), two half-iterations per iteration. The fast
 * paths are checked against it. */
#include <gnuradio/gpufec/core/turbo.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr int S = 8;          // states of the LTE constituent code
constexpr float NEG = -1e30f; // log(0)

template <bool LOGMAP>
inline float maxstar(float a, float b)
{
    const float m = std::max(a, b);
    if (!LOGMAP)
        return m;
    return m + std::log1p(std::exp(-std::fabs(a - b)));
}

struct siso_io {
    const float* sys;  // K systematic LLRs (this decoder's order)
    const float* apri; // K a-priori LLRs
    const float* par;  // K parity LLRs
    const float* tail; // 6: x_K, z_K, x_K+1, z_K+1, x_K+2, z_K+2
    float* ext;        // K extrinsic out
    float* app;        // K a-posteriori out (or null)
    float* bound_a;    // alpha at each window start (windows x S), kept between iterations
    float* bound_b;    // beta at each window end (windows x S)
    bool first;        // first iteration: the inner boundaries are unknown (uniform)
};

/* One constituent decoder over K info stages and 3 tail stages. Windows of W stages (the
 * last one also holds the tail); W = K: one window, the exact BCJR. */
template <bool LOGMAP>
void siso(const trellis& t, int K, int W, const siso_io& io, std::vector<float>& alpha, std::vector<float>& beta)
{
    const int windows = (K + W - 1) / W;
    alpha.resize(size_t(W + 1) * S);
    beta.resize(size_t(W + 4) * S);
    // windows run in order: window w overwrites the alpha boundary window w + 1 is about to
    // read, so the old value waits in `carry`; beta boundaries go to window w - 1, which has
    // already read its own
    float carry[S] = {};
    auto gamma = [&](int k, uint32_t s, uint32_t x) {
        const uint32_t p = (t.output(s, x) >> 1) & 1u;
        return float(x) * (io.sys[k] + io.apri[k]) + float(p) * io.par[k];
    };
    for (int w = 0; w < windows; ++w) {
        const int k0 = w * W, k1 = std::min(K, k0 + W), len = k1 - k0;
        const bool last = w == windows - 1;
        // forward
        float* a = alpha.data();
        for (int s = 0; s < S; ++s)
            a[s] = w == 0 ? (s == 0 ? 0.f : NEG) : io.first ? 0.f : carry[s];
        for (int i = 0; i < len; ++i) {
            const int k = k0 + i;
            float* an = a + (i + 1) * S;
            std::fill(an, an + S, NEG);
            for (uint32_t s = 0; s < S; ++s)
                for (uint32_t x = 0; x < 2; ++x) {
                    const uint32_t n = t.next_state(s, x);
                    an[n] = maxstar<LOGMAP>(an[n], a[i * S + s] + gamma(k, s, x));
                }
            const float m = *std::max_element(an, an + S);
            for (int s = 0; s < S; ++s)
                an[s] -= m;
        }
        if (!last) {
            std::copy(io.bound_a + (w + 1) * S, io.bound_a + (w + 2) * S, carry);
            std::copy(a + len * S, a + (len + 1) * S, io.bound_a + (w + 1) * S);
        }
        // backward: the last window starts at the true end (state 0 after the tail)
        const int tl = last ? 3 : 0; // tail stages in this window
        float* b = beta.data();      // b[(i) * S]: beta at stage k0 + i, i = 0..len+tl
        float* bend = b + (len + tl) * S;
        for (int s = 0; s < S; ++s)
            bend[s] = last ? (s == 0 ? 0.f : NEG) : io.first ? 0.f : io.bound_b[w * S + s];
        for (int j = tl - 1; j >= 0; --j) { // tail stages: the input is the feedback
            float* bc = b + (len + j) * S;
            const float* bn = bc + S;
            for (uint32_t s = 0; s < S; ++s) {
                const uint32_t x = t.termination_input(s);
                const uint32_t p = (t.output(s, x) >> 1) & 1u;
                bc[s] = bn[t.next_state(s, x)] + float(x) * io.tail[2 * j] + float(p) * io.tail[2 * j + 1];
            }
        }
        for (int i = len - 1; i >= 0; --i) {
            const int k = k0 + i;
            float* bc = b + i * S;
            const float* bn = bc + S;
            for (uint32_t s = 0; s < S; ++s)
                bc[s] = maxstar<LOGMAP>(bn[t.next_state(s, 0)] + gamma(k, s, 0),
                                        bn[t.next_state(s, 1)] + gamma(k, s, 1));
            const float m = *std::max_element(bc, bc + S);
            for (int s = 0; s < S; ++s)
                bc[s] -= m;
            // extrinsic of stage k: the parity and the metrics, not sys and a-priori
            float m0 = NEG, m1 = NEG;
            for (uint32_t s = 0; s < S; ++s)
                for (uint32_t x = 0; x < 2; ++x) {
                    const uint32_t p = (t.output(s, x) >> 1) & 1u;
                    const float v = a[i * S + s] + float(p) * io.par[k] + bn[t.next_state(s, x)];
                    if (x)
                        m1 = maxstar<LOGMAP>(m1, v);
                    else
                        m0 = maxstar<LOGMAP>(m0, v);
                }
            io.ext[k] = m1 - m0;
            if (io.app)
                io.app[k] = io.sys[k] + io.apri[k] + io.ext[k];
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
    if (d_code.rsc.states() != S)
        throw std::invalid_argument("turbo: the decoder takes 8-state constituent codes");
    d_has_crc = !d_opts.crc.empty();
    if (d_has_crc) {
        d_crc = crc_spec::named(d_opts.crc);
        if (d_code.K <= d_crc.width)
            throw std::invalid_argument("crc: K=" + std::to_string(d_code.K) + " leaves no room for " +
                                        d_opts.crc);
    }
    const size_t K = size_t(d_code.K);
    for (auto* v : { &d_sys, &d_sys2, &d_par1, &d_par2, &d_ext1, &d_ext2, &d_apri, &d_apri2, &d_app })
        v->resize(K);
    d_tail1.resize(6);
    d_tail2.resize(6);
    const int W = d_opts.window > 0 ? std::min(d_opts.window, d_code.K) : d_code.K;
    const size_t windows = size_t((d_code.K + W - 1) / W);
    for (auto* v : { &d_bound_a1, &d_bound_b1, &d_bound_a2, &d_bound_b2 })
        v->resize(windows * S);
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
    for (size_t k = 0; k < Ks; ++k) {
        d_sys[k] = llr[c.pos(0, k)];
        d_par1[k] = llr[c.pos(1, k)];
        d_par2[k] = llr[c.pos(2, k)];
    }
    for (size_t k = 0; k < Ks; ++k)
        d_sys2[k] = d_sys[c.pi[k]];
    // tails (36.212 5.1.3.2.2), as x, z pairs per stage
    auto at = [&](int d, int i) { return llr[c.pos(d, Ks + size_t(i))]; };
    const float t1[6] = { at(0, 0), at(1, 0), at(2, 0), at(0, 1), at(1, 1), at(2, 1) };
    const float t2[6] = { at(0, 2), at(1, 2), at(2, 2), at(0, 3), at(1, 3), at(2, 3) };
    std::copy(t1, t1 + 6, d_tail1.begin());
    std::copy(t2, t2 + 6, d_tail2.begin());

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
