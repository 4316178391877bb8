/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "rs_reference.h"

#include "codes/gf2m_field.h"
#include <algorithm>
#include <array>

namespace gpufec {

rs_reference_decoder::rs_reference_decoder(const rs_code& code) : d_code(code)
{
    d_code.check();
    const gf2m_field gf(8, uint32_t(code.gfpoly));
    d_exp.resize(510);
    d_log.resize(256);
    for (int i = 0; i < 510; ++i)
        d_exp[size_t(i)] = uint8_t(gf.exp[size_t(i)]);
    for (int i = 0; i < 256; ++i)
        d_log[size_t(i)] = uint8_t(gf.log[size_t(i)]);
    d_cw.resize(size_t(code.n()));
}

/* Notation: the full codeword has 255 symbols r_0 .. r_254, the first V (virtual fill) zero;
 * symbol i is the coefficient of x^(254 - i). With b = a^prim the generator's roots are
 * b^(fcr + j), j < R = 2E; an error at symbol i has the locator X = b^(254 - i). */
int rs_reference_decoder::decode_codeword(uint8_t* cw, const int* eras, int n_eras)
{
    const int R = d_code.nroots, V = d_code.virtual_fill, n = d_code.n();
    const int prim = d_code.prim, fcr = d_code.fcr;
    const bool dual = d_code.dual_basis;
    if (n_eras < 0 || n_eras > R)
        return -1;
    std::array<uint8_t, 255> r{};
    for (int p = 0; p < n; ++p)
        r[size_t(V + p)] = dual ? rs_ccsds_from_dual(cw[p]) : cw[p];

    // syndromes S_j = r(b^(fcr + j))
    std::array<uint8_t, 128> S{};
    bool clean = true;
    for (int j = 0; j < R; ++j) {
        const uint8_t x = pow_a(prim * (fcr + j));
        uint8_t s = 0;
        for (int i = V; i < 255; ++i)
            s = uint8_t(mul(s, x) ^ r[size_t(i)]);
        S[size_t(j)] = s;
        clean = clean && s == 0;
    }
    if (clean)
        return 0;

    // the erasure locator, then Berlekamp-Massey from it
    std::array<uint8_t, 129> lambda{}, B{}, T{};
    lambda[0] = 1;
    for (int e = 0; e < n_eras; ++e) {
        if (eras[e] < 0 || eras[e] >= n)
            return -1;
        const uint8_t X = pow_a(prim * (254 - (V + eras[e])));
        for (int i = e + 1; i > 0; --i) // lambda *= (1 + X x)
            lambda[size_t(i)] ^= mul(X, lambda[size_t(i - 1)]);
    }
    B = lambda;
    int L = n_eras;
    for (int step = n_eras + 1; step <= R; ++step) {
        uint8_t d = 0;
        for (int i = 0; i < step; ++i)
            d ^= mul(lambda[size_t(i)], S[size_t(step - 1 - i)]);
        // B <- x B below in both branches; T = lambda + d x B
        if (d == 0) {
            std::copy_backward(B.begin(), B.end() - 1, B.end());
            B[0] = 0;
            continue;
        }
        T = lambda;
        for (int i = 1; i <= R; ++i)
            T[size_t(i)] ^= mul(d, B[size_t(i - 1)]);
        if (2 * L <= step + n_eras - 1) {
            L = step + n_eras - L;
            const uint8_t dinv = inv(d);
            for (int i = 0; i <= R; ++i)
                B[size_t(i)] = mul(lambda[size_t(i)], dinv);
        } else {
            std::copy_backward(B.begin(), B.end() - 1, B.end());
            B[0] = 0;
        }
        lambda = T;
    }
    int deg = 0;
    for (int i = 0; i <= R; ++i)
        if (lambda[size_t(i)])
            deg = i;

    // Chien search over every position, the virtual fill included (an error there: failure)
    std::array<int, 128> loc{};
    int count = 0;
    for (int i = 0; i < 255 && count <= deg; ++i) {
        const uint8_t xinv = pow_a(-prim * (254 - i));
        uint8_t v = 0, p = 1;
        for (int t = 0; t <= deg; ++t) {
            v ^= mul(lambda[size_t(t)], p);
            p = mul(p, xinv);
        }
        if (v == 0) {
            if (count == deg)
                return -1; // (more roots than the degree: not a locator)
            loc[size_t(count++)] = i;
        }
    }
    if (count != deg || deg == 0)
        return -1;
    for (int c = 0; c < count; ++c)
        if (loc[size_t(c)] < V)
            return -1;

    // Forney: e = X^(1 - fcr) omega(X^-1) / lambda'(X^-1), omega = S lambda mod x^R
    std::array<uint8_t, 128> omega{};
    for (int i = 0; i < R; ++i) {
        uint8_t o = 0;
        for (int t = 0; t <= std::min(i, deg); ++t)
            o ^= mul(lambda[size_t(t)], S[size_t(i - t)]);
        omega[size_t(i)] = o;
    }
    std::array<uint8_t, 128> value{};
    for (int c = 0; c < count; ++c) {
        const int i = loc[size_t(c)];
        const int xe = prim * (254 - i); // X = a^xe
        const uint8_t xinv = pow_a(-xe);
        uint8_t num = 0, p = 1;
        for (int t = 0; t < R; ++t) {
            num ^= mul(omega[size_t(t)], p);
            p = mul(p, xinv);
        }
        uint8_t den = 0;
        p = 1; // xinv^(t - 1) for odd t
        const uint8_t xinv2 = mul(xinv, xinv);
        for (int t = 1; t <= deg; t += 2) {
            den ^= mul(lambda[size_t(t)], p);
            p = mul(p, xinv2);
        }
        if (den == 0)
            return -1;
        value[size_t(c)] = mul(mul(num, pow_a(xe * (1 - fcr))), inv(den));
    }
    int changed = 0;
    for (int c = 0; c < count; ++c) {
        if (value[size_t(c)] == 0)
            continue; // (an erasure whose value was right)
        const int p = loc[size_t(c)] - V;
        const uint8_t fixed = uint8_t(r[size_t(loc[size_t(c)])] ^ value[size_t(c)]);
        cw[p] = dual ? rs_ccsds_to_dual(fixed) : fixed;
        ++changed;
    }
    return changed;
}

void rs_reference_decoder::decode_block(const uint8_t* block, uint8_t* info, int* result)
{
    const int I = d_code.interleave, n = d_code.n(), k = d_code.k();
    for (int j = 0; j < I; ++j) {
        for (int s = 0; s < n; ++s)
            d_cw[size_t(s)] = block[size_t(s) * I + j];
        result[j] = decode_codeword(d_cw.data());
        for (int s = 0; s < k; ++s)
            info[size_t(s) * I + j] = d_cw[size_t(s)];
    }
}

} // namespace gpufec
