/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon solver, shared by the CPU decoders and the CUDA kernel so that they agree
 * codeword by codeword: from a word and its syndromes, Berlekamp-Massey with erasures, the Chien
 * search and Forney's formula, in the conventional basis, with the field's log and antilog
 * tables (exp doubled: exp[a + b] needs no reduction for a, b < 255). */
#ifndef INCLUDED_GPUFEC_RS_RS_SOLVER_H
#define INCLUDED_GPUFEC_RS_RS_SOLVER_H

#include "runtime/host_device.h"
#include <algorithm>
#include <cstdint>

namespace gpufec {

//! what the solver needs of an rs_code
struct rs_solver_code {
    int nroots, fcr, prim, virtual_fill;
};

/* Notation: the full codeword has 255 symbols r_0 .. r_254, the first V (virtual fill) zero;
 * symbol i is the coefficient of x^(254 - i). With b = a^prim the generator's roots are
 * b^(fcr + j), j < R = 2E; an error at symbol i has the locator X = b^(254 - i).
 * The solver's phases (rs_solve runs them in turn on one thread; the CUDA kernel runs the
 * locator on one lane and the others across a warp, with the same arithmetic): */

//! GF(2^8) arithmetic from the log and antilog tables (exp doubled)
struct rs_field_ops {
    const uint8_t *exp, *log;
    GPUFEC_HD uint8_t mul(uint8_t x, uint8_t y) const { return x && y ? exp[int(log[x]) + log[y]] : 0; }
    GPUFEC_HD uint8_t inv(uint8_t x) const { return exp[255 - log[x]]; }
    GPUFEC_HD uint8_t pow_a(int e) const { return exp[((e % 255) + 255) % 255]; }
};

/*! 1. The error-and-erasure locator lambda (129 coefficients) and its degree, by
 *  Berlekamp-Massey from the erasure locator. Returns 0 where the syndromes are all zero (the
 *  word is a codeword), -1 where it cannot be decoded (more erasures than check symbols, an
 *  erasure out of place), 1 where lambda is to be solved. */
GPUFEC_HD int rs_locator(const rs_solver_code& p, const rs_field_ops& f, const uint8_t* S, const int* eras,
                         int n_eras, uint8_t* lambda, int* degree)
{
    const int R = p.nroots, V = p.virtual_fill, n = 255 - p.virtual_fill, prim = p.prim;
    if (n_eras < 0 || n_eras > R)
        return -1;
    bool clean = true;
    for (int j = 0; j < R; ++j)
        clean = clean && S[j] == 0;
    if (clean)
        return 0;
    uint8_t B[129] = {}, T[129] = {};
    for (int i = 0; i <= 128; ++i)
        lambda[i] = 0;
    lambda[0] = 1;
    for (int e = 0; e < n_eras; ++e) {
        if (eras[e] < 0 || eras[e] >= n)
            return -1;
        const uint8_t X = f.pow_a(prim * (254 - (V + eras[e])));
        for (int i = e + 1; i > 0; --i) // lambda *= (1 + X x)
            lambda[(i)] ^= f.mul(X, lambda[(i - 1)]);
    }
    // (the loops run to the polynomials' degrees: dl of lambda, db of B)
    for (int i = 0; i <= R; ++i)
        B[i] = lambda[i];
    int L = n_eras, dl = n_eras, db = n_eras;
    for (int step = n_eras + 1; step <= R; ++step) {
        uint8_t d = 0;
        for (int i = 0; i <= std::min(step - 1, dl); ++i)
            d ^= f.mul(lambda[(i)], S[step - 1 - i]);
        // B <- x B below in both branches; T = lambda + d x B
        if (d == 0) {
            for (int i = db + 1; i > 0; --i)
                B[i] = B[i - 1];
            B[0] = 0;
            ++db;
            continue;
        }
        for (int i = 0; i <= R; ++i)
            T[i] = lambda[i];
        for (int i = 1; i <= db + 1; ++i)
            T[(i)] ^= f.mul(d, B[(i - 1)]);
        const int dt = std::max(dl, db + 1);
        if (2 * L <= step + n_eras - 1) {
            L = step + n_eras - L;
            const uint8_t dinv = f.inv(d);
            for (int i = 0; i <= dl; ++i)
                B[(i)] = f.mul(lambda[(i)], dinv);
            if (db > dl) // (the old B's terms above lambda's degree)
                for (int i = dl + 1; i <= db; ++i)
                    B[i] = 0;
            db = dl;
        } else {
            for (int i = db + 1; i > 0; --i)
                B[i] = B[i - 1];
            B[0] = 0;
            ++db;
        }
        for (int i = 0; i <= dt; ++i)
            lambda[i] = T[i];
        dl = dt;
    }
    int deg = 0;
    for (int i = 0; i <= std::min(dl, R); ++i)
        if (lambda[(i)])
            deg = i;
    *degree = deg;
    return 1;
}

/*! 2. The Chien search at position i: lambda(X^-1) for X = b^(254 - i), zero where symbol i is
 *  in error. Every position is searched, the virtual fill's too (an error there: failure). */
GPUFEC_HD uint8_t rs_chien_at(const rs_solver_code& p, const rs_field_ops& f, const uint8_t* lambda, int deg, int i)
{
    uint8_t v = 1;
    for (int t = 1; t <= deg; ++t)
        if (lambda[t])
            v ^= f.pow_a(int(f.log[lambda[t]]) - ((t * p.prim) % 255) * (254 - i));
    return v;
}

//! 3a. omega = S lambda mod x^R, coefficient i
GPUFEC_HD uint8_t rs_omega_at(const rs_field_ops& f, const uint8_t* S, const uint8_t* lambda, int deg, int i)
{
    uint8_t o = 0;
    for (int t = 0; t <= std::min(i, deg); ++t)
        o ^= f.mul(lambda[(t)], S[i - t]);
    return o;
}

/*! 3b. Forney: the error value at position i, X^(1 - fcr) omega(X^-1) / lambda'(X^-1); false
 *  where lambda' is zero there (not decodable) */
GPUFEC_HD bool rs_error_value(const rs_solver_code& p, const rs_field_ops& f, const uint8_t* lambda, int deg,
                              const uint8_t* omega, int deg_omega, int i, uint8_t* value)
{
    const int xe = p.prim * (254 - i); // X = a^xe
    const uint8_t xinv = f.pow_a(-xe);
    uint8_t num = 0, q = 1;
    for (int t = 0; t <= deg_omega; ++t) {
        num ^= f.mul(omega[(t)], q);
        q = f.mul(q, xinv);
    }
    uint8_t den = 0;
    q = 1; // xinv^(t - 1) for odd t
    const uint8_t xinv2 = f.mul(xinv, xinv);
    for (int t = 1; t <= deg; t += 2) {
        den ^= f.mul(lambda[(t)], q);
        q = f.mul(q, xinv2);
    }
    if (den == 0)
        return false;
    *value = f.mul(f.mul(num, f.pow_a(xe * (1 - p.fcr))), f.inv(den));
    return true;
}

/* The whole solver on one thread. r: the 255 symbols, S: the R syndromes r(b^(fcr + j));
 * erasures at positions 0 .. n - 1 of the sent symbols. Corrects r in place and returns the
 * symbols it changed, or -1 (then r is as it came): rs_reference_decoder::decode_codeword says
 * when. */
GPUFEC_HD int rs_solve(const rs_solver_code& p, const uint8_t* exp, const uint8_t* log, uint8_t* r, const uint8_t* S,
                       const int* eras, int n_eras)
{
    const rs_field_ops f{ exp, log };
    const int R = p.nroots, V = p.virtual_fill, prim = p.prim;
    uint8_t lambda[129];
    int deg = 0;
    const int st = rs_locator(p, f, S, eras, n_eras, lambda, &deg);
    if (st <= 0)
        return st;

    /* the Chien search, incrementally: lambda at X^-1 = a^(-prim (254 - i)), term t kept as a
     * power of a that grows by t prim a position (lambda_0 = 1); the same values as
     * rs_chien_at. A polynomial of degree deg has at most deg roots. */
    int reg[129] = {}, stride[129] = {};
    for (int t = 1; t <= deg; ++t) {
        reg[(t)] = lambda[(t)] ? ((int(log[lambda[t]]) - t * prim * 254) % 255 + 255) % 255 : -1;
        stride[(t)] = (t * prim) % 255;
    }
    int loc[128] = {};
    int count = 0;
    for (int i = 0; i < 255 && count < deg; ++i) {
        uint8_t v = 1;
        for (int t = 1; t <= deg; ++t) {
            int& g = reg[(t)];
            if (g < 0)
                continue;
            v ^= exp[g];
            g += stride[(t)];
            g -= g >= 255 ? 255 : 0;
        }
        if (v == 0)
            loc[(count++)] = i;
    }
    if (count != deg || deg == 0)
        return -1;
    for (int c = 0; c < count; ++c)
        if (loc[(c)] < V)
            return -1;

    uint8_t omega[128] = {};
    int deg_omega = 0;
    for (int i = 0; i < R; ++i) {
        omega[(i)] = rs_omega_at(f, S, lambda, deg, i);
        deg_omega = omega[i] ? i : deg_omega;
    }
    uint8_t value[128] = {};
    for (int c = 0; c < count; ++c)
        if (!rs_error_value(p, f, lambda, deg, omega, deg_omega, loc[(c)], &value[(c)]))
            return -1;
    int changed = 0;
    for (int c = 0; c < count; ++c) {
        r[loc[(c)]] ^= value[(c)];
        changed += value[(c)] != 0; // (an erasure whose value was right is not counted)
    }
    return changed;
}

} // namespace gpufec

#endif
