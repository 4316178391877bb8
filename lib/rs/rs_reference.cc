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
uint8_t rs_reference_decoder::root(int j) const { return pow_a(d_code.prim * (d_code.fcr + j)); }

int rs_reference_decoder::decode_codeword(uint8_t* cw, const int* eras, int n_eras)
{
    const int R = d_code.nroots, V = d_code.virtual_fill, n = d_code.n();
    const bool dual = d_code.dual_basis;
    std::array<uint8_t, 255> r{};
    for (int p = 0; p < n; ++p)
        r[size_t(V + p)] = dual ? rs_ccsds_from_dual(cw[p]) : cw[p];
    // syndromes S_j = r(b^(fcr + j)), by Horner
    std::array<uint8_t, 128> S{};
    for (int j = 0; j < R; ++j) {
        const uint8_t x = root(j);
        uint8_t s = 0;
        for (int i = V; i < 255; ++i)
            s = uint8_t(mul(s, x) ^ r[size_t(i)]);
        S[size_t(j)] = s;
    }
    const int got = decode_from_syndromes(r.data(), S.data(), eras, n_eras);
    if (got > 0)
        for (int p = 0; p < n; ++p)
            cw[p] = dual ? rs_ccsds_to_dual(r[size_t(V + p)]) : r[size_t(V + p)];
    return got;
}

int rs_reference_decoder::decode_from_syndromes(uint8_t* r, const uint8_t* S, const int* eras, int n_eras)
{
    const int R = d_code.nroots, V = d_code.virtual_fill, n = d_code.n();
    const int prim = d_code.prim, fcr = d_code.fcr;
    if (n_eras < 0 || n_eras > R)
        return -1;
    bool clean = true;
    for (int j = 0; j < R; ++j)
        clean = clean && S[j] == 0;
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
    // (the loops run to the polynomials' degrees: dl of lambda, db of B)
    B = lambda;
    int L = n_eras, dl = n_eras, db = n_eras;
    for (int step = n_eras + 1; step <= R; ++step) {
        uint8_t d = 0;
        for (int i = 0; i <= std::min(step - 1, dl); ++i)
            d ^= mul(lambda[size_t(i)], S[step - 1 - i]);
        // B <- x B below in both branches; T = lambda + d x B
        if (d == 0) {
            std::copy_backward(B.begin(), B.begin() + db + 1, B.begin() + db + 2);
            B[0] = 0;
            ++db;
            continue;
        }
        T = lambda;
        for (int i = 1; i <= db + 1; ++i)
            T[size_t(i)] ^= mul(d, B[size_t(i - 1)]);
        const int dt = std::max(dl, db + 1);
        if (2 * L <= step + n_eras - 1) {
            L = step + n_eras - L;
            const uint8_t dinv = inv(d);
            for (int i = 0; i <= dl; ++i)
                B[size_t(i)] = mul(lambda[size_t(i)], dinv);
            if (db > dl) // (the old B's terms above lambda's degree)
                std::fill(B.begin() + dl + 1, B.begin() + db + 1, 0);
            db = dl;
        } else {
            std::copy_backward(B.begin(), B.begin() + db + 1, B.begin() + db + 2);
            B[0] = 0;
            ++db;
        }
        lambda = T;
        dl = dt;
    }
    int deg = 0;
    for (int i = 0; i <= std::min(dl, R); ++i)
        if (lambda[size_t(i)])
            deg = i;

    /* Chien search over every position, the virtual fill included (an error there: failure):
     * lambda at X^-1 = a^(-prim (254 - i)), term t kept as a power of a that grows by t prim a
     * position (lambda_0 = 1). A polynomial of degree deg has at most deg roots. */
    std::array<int, 129> reg{}, stride{};
    for (int t = 1; t <= deg; ++t) {
        reg[size_t(t)] = lambda[size_t(t)] ? ((int(d_log[lambda[size_t(t)]]) - t * prim * 254) % 255 + 255) % 255 : -1;
        stride[size_t(t)] = (t * prim) % 255;
    }
    std::array<int, 128> loc{};
    int count = 0;
    for (int i = 0; i < 255 && count < deg; ++i) {
        uint8_t v = 1;
        for (int t = 1; t <= deg; ++t) {
            int& g = reg[size_t(t)];
            if (g < 0)
                continue;
            v ^= d_exp[size_t(g)];
            g += stride[size_t(t)];
            g -= g >= 255 ? 255 : 0;
        }
        if (v == 0)
            loc[size_t(count++)] = i;
    }
    if (count != deg || deg == 0)
        return -1;
    for (int c = 0; c < count; ++c)
        if (loc[size_t(c)] < V)
            return -1;

    // Forney: e = X^(1 - fcr) omega(X^-1) / lambda'(X^-1), omega = S lambda mod x^R
    std::array<uint8_t, 128> omega{};
    int deg_omega = 0;
    for (int i = 0; i < R; ++i) {
        uint8_t o = 0;
        for (int t = 0; t <= std::min(i, deg); ++t)
            o ^= mul(lambda[size_t(t)], S[i - t]);
        omega[size_t(i)] = o;
        deg_omega = o ? i : deg_omega;
    }
    std::array<uint8_t, 128> value{};
    for (int c = 0; c < count; ++c) {
        const int i = loc[size_t(c)];
        const int xe = prim * (254 - i); // X = a^xe
        const uint8_t xinv = pow_a(-xe);
        uint8_t num = 0, p = 1;
        for (int t = 0; t <= deg_omega; ++t) {
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
        r[loc[size_t(c)]] ^= value[size_t(c)];
        changed += value[size_t(c)] != 0; // (an erasure whose value was right is not counted)
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
