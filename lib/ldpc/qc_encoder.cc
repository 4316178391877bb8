/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc/qc_encoder.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpufec {

namespace {

/* Polynomials over GF(2) as bit vectors, bit i of word i / 64 the coefficient of x^i. A z x z
 * circulant of shift s (row r has its 1 at column (r + s) mod z) acts on a block's bits v(x) =
 * sum v_j x^j as x^(z - s) v(x) mod (x^z - 1): a matrix of circulants is a matrix over that
 * ring, and products of circulants are products of polynomials. */
using bits = std::vector<uint64_t>;

int degree(const bits& a)
{
    for (int w = int(a.size()) - 1; w >= 0; --w)
        if (a[size_t(w)])
            return w * 64 + 63 - __builtin_clzll(a[size_t(w)]);
    return -1;
}

bool bit(const bits& a, int i) { return (a[size_t(i / 64)] >> (i % 64)) & 1; }
void flip(bits& a, int i) { a[size_t(i / 64)] ^= uint64_t(1) << (i % 64); }

//! a ^= b << s (b's words beyond a's size are dropped; a is grown as needed)
void xor_shifted(bits& a, const bits& b, int s)
{
    const int db = degree(b);
    if (db < 0)
        return;
    const size_t need = size_t((db + s) / 64 + 1);
    if (a.size() < need)
        a.resize(need, 0);
    const int ws = s / 64, bs = s % 64;
    for (size_t w = 0; w * 64 <= size_t(db); ++w) {
        const uint64_t v = b[w];
        if (!v)
            continue;
        a[w + size_t(ws)] ^= v << bs;
        if (bs && w + size_t(ws) + 1 < a.size())
            a[w + size_t(ws) + 1] ^= v >> (64 - bs);
    }
}

//! a mod (x^z - 1), to words(z) words: the coefficient of x^(z + i) folds onto x^i
bits fold(const bits& a, int z)
{
    const size_t words = size_t((z + 63) / 64);
    bits out(words, 0);
    for (int i = degree(a); i >= 0; --i)
        if (bit(a, i))
            flip(out, i % z);
    return out;
}

//! a b mod (x^z - 1)
bits ring_mul(const bits& a, const bits& b, int z)
{
    bits wide(size_t((2 * z + 63) / 64), 0);
    for (int i = 0; i <= degree(a); ++i)
        if (bit(a, i))
            xor_shifted(wide, b, i);
    return fold(wide, z);
}

//! quotient and remainder of a by b (b not zero)
void divide(bits a, const bits& b, bits& q, bits& r)
{
    const int db = degree(b);
    q.assign(a.size() + 1, 0);
    for (int da = degree(a); da >= db; da = degree(a)) {
        const int s = da - db;
        flip(q, s);
        xor_shifted(a, b, s);
    }
    r = a;
}

/*! The inverse of a mod (x^z - 1) by the extended Euclidean algorithm; empty when a and
 *  x^z - 1 share a factor (a is not a unit). */
bits ring_inverse(const bits& a, int z)
{
    bits m(size_t(z / 64 + 1), 0);
    flip(m, 0);
    flip(m, z); // x^z - 1 = x^z + 1
    bits r0 = m, r1 = a, s0(1, 0), s1(1, 1), q, r;
    if (degree(r1) < 0)
        return {};
    while (degree(r1) > 0) {
        divide(r0, r1, q, r);
        bits s2 = s0; // s2 = s0 - q s1
        for (int i = 0; i <= degree(q); ++i)
            if (bit(q, i))
                xor_shifted(s2, s1, i);
        r0 = r1;
        r1 = r;
        s0 = s1;
        s1 = s2;
        if (degree(r1) < 0)
            return {}; // gcd of degree > 0
    }
    return fold(s1, z); // r1 = 1 = s1 a mod m
}

bool is_zero(const bits& a) { return degree(a) < 0; }

} // namespace

std::shared_ptr<const qc_encoder> qc_encoder::make(const ldpc_code& code)
{
    if (!code.is_qc() || code.circulants().empty())
        return nullptr;
    const int z = code.z(), mb = code.mb(), nb = code.nb(), kb = nb - mb;
    const size_t words = size_t((z + 63) / 64);
    // H over the ring: entry (i, j) = sum of x^((z - s) mod z) over its circulants
    std::vector<bits> h(size_t(mb) * nb, bits(words, 0));
    for (const auto& c : code.circulants()) {
        if (c.missing >= 0)
            return nullptr; // (not a circulant any more)
        flip(h[size_t(c.row) * nb + c.col], (z - c.shift) % z);
    }
    // [P | Q] -> [I | P^-1 Q] by elimination with unit pivots (P: the last mb block columns)
    auto at = [&](int i, int j) -> bits& { return h[size_t(i) * nb + size_t(j)]; };
    auto pcol = [&](int c) { return kb + c; };
    for (int c = 0; c < mb; ++c) {
        int piv = -1;
        bits inv;
        for (int r = c; r < mb && piv < 0; ++r)
            if (!is_zero(at(r, pcol(c)))) {
                inv = ring_inverse(at(r, pcol(c)), z);
                if (!inv.empty())
                    piv = r;
            }
        if (piv < 0)
            return nullptr;
        if (piv != c)
            for (int j = 0; j < nb; ++j)
                std::swap(at(piv, j), at(c, j));
        for (int j = 0; j < nb; ++j)
            if (!is_zero(at(c, j)))
                at(c, j) = ring_mul(at(c, j), inv, z);
        for (int r = 0; r < mb; ++r) {
            if (r == c || is_zero(at(r, pcol(c))))
                continue;
            const bits f = at(r, pcol(c));
            for (int j = 0; j < nb; ++j)
                if (!is_zero(at(c, j))) {
                    const bits t = ring_mul(f, at(c, j), z);
                    for (size_t w = 0; w < words; ++w)
                        at(r, j)[w] ^= t[w];
                }
        }
    }
    auto e = std::make_shared<qc_encoder>();
    e->d_z = z;
    e->d_mb = mb;
    e->d_kb = kb;
    e->d_words = int(words);
    e->d_w.reserve(size_t(mb) * kb);
    for (int i = 0; i < mb; ++i)
        for (int j = 0; j < kb; ++j)
            e->d_w.push_back(at(i, j));
    return e;
}

std::shared_ptr<const qc_encoder> qc_encoder::from_first_rows(int z, int mb,
                                                              const std::vector<std::vector<uint8_t>>& first_rows)
{
    const size_t words = size_t((z + 63) / 64);
    if (z < 1 || mb < 1 || first_rows.empty())
        throw std::invalid_argument("qc_encoder: a generator needs z, mb and rows");
    auto e = std::make_shared<qc_encoder>();
    e->d_z = z;
    e->d_mb = mb;
    e->d_kb = int(first_rows.size());
    e->d_words = int(words);
    e->d_w.assign(size_t(mb) * first_rows.size(), bits(words, 0));
    // row r of block j is the first row shifted right by r: x^r b(x), so W_ij = b_ij(x)
    for (size_t j = 0; j < first_rows.size(); ++j) {
        if (first_rows[j].size() != size_t(mb) * size_t(z))
            throw std::invalid_argument("qc_encoder: generator row " + std::to_string(j) + " has " +
                                        std::to_string(first_rows[j].size()) + " parity bits, not " +
                                        std::to_string(mb * z));
        for (int i = 0; i < mb; ++i)
            for (int b = 0; b < z; ++b)
                if (first_rows[j][size_t(i) * z + b] & 1)
                    flip(e->d_w[size_t(i) * first_rows.size() + j], b);
    }
    return e;
}

void qc_encoder::encode(const uint8_t* info, uint8_t* cw) const
{
    // P p + Q u = 0 -> p = W u, W = P^-1 Q: parity block i = sum_j W_ij u_j (ring products)
    const int z = d_z;
    const size_t words = size_t(d_words);
    std::vector<bits> u(size_t(d_kb), bits(words, 0));
    for (int j = 0; j < d_kb; ++j)
        for (int b = 0; b < z; ++b) {
            cw[size_t(j) * z + b] = info[size_t(j) * z + b] & 1;
            if (cw[size_t(j) * z + b])
                flip(u[size_t(j)], b);
        }
    for (int i = 0; i < d_mb; ++i) {
        bits acc(words, 0);
        for (int j = 0; j < d_kb; ++j) {
            const bits& w = d_w[size_t(i) * d_kb + j];
            if (is_zero(w) || is_zero(u[size_t(j)]))
                continue;
            const bits t = ring_mul(w, u[size_t(j)], z);
            for (size_t k = 0; k < words; ++k)
                acc[k] ^= t[k];
        }
        uint8_t* p = cw + size_t(d_kb + i) * z;
        for (int b = 0; b < z; ++b)
            p[b] = uint8_t(bit(acc, b));
    }
}

} // namespace gpufec
