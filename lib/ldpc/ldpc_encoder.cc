/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>

#include "gf2_systematic.h"
#include "ldpc/qc_encoder.h"
#include <algorithm>
#include <vector>

namespace gpufec {

ldpc_encoder::ldpc_encoder(const ldpc_code& code) : d_code(code) {}

void ldpc_encoder::encode(const uint8_t* info, size_t frames, uint8_t* codeword) const
{
    const auto& order = d_code.send_order();
    if (order.empty()) {
        encode_columns(info, frames, codeword);
        return;
    }
    const size_t k = size_t(d_code.k()), n = size_t(d_code.n());
    std::vector<uint8_t> cw(n);
    for (size_t f = 0; f < frames; ++f) {
        encode_columns(info + f * k, 1, cw.data());
        for (size_t i = 0; i < n; ++i)
            codeword[f * n + i] = cw[size_t(order[i])];
    }
}

void ldpc_encoder::encode_columns(const uint8_t* info, size_t frames, uint8_t* codeword) const
{
    if (const qc_encoder* qc = d_code.qc_form()) {
        const size_t k = size_t(d_code.k()), n = size_t(d_code.n());
        for (size_t f = 0; f < frames; ++f)
            qc->encode(info + f * k, codeword + f * n);
        return;
    }
    const size_t k = size_t(d_code.k()), n = size_t(d_code.n());
    std::vector<uint8_t> lambda, sum; // scratch of the dual-diagonal encoder, reused per frame
    for (size_t f = 0; f < frames; ++f) {
        if (d_code.dual_diagonal())
            encode_dual_diagonal(info + f * k, codeword + f * n, lambda, sum);
        else
            encode_generic(info + f * k, codeword + f * n);
    }
}

/* The core: block row i < c of H reads  lambda_i + H[i][kb] p0 + p_i + p_(i+1) = 0, where
 * lambda_i is the information part and p_j the parity blocks (p_i absent for i = 0, p_(i+1) for
 * the last core row). Summing the core rows cancels the staircase and the two equal shifts a of
 * column kb, leaving P^b p0 = sum_i lambda_i (b = the middle shift); then the rows give p1, p2,
 * ... in turn. Each extension row r >= c (5G NR) then gives its own parity block p_r: the sum of
 * every other block of the row, all known by then. (P^s x)[r] = x[(r + s) mod z]: row r of a
 * block shifted by s checks bit (r + s) mod z. */
void ldpc_encoder::encode_dual_diagonal(const uint8_t* info, uint8_t* cw, std::vector<uint8_t>& lambda,
                                        std::vector<uint8_t>& sum) const
{
    const int z = d_code.z(), nb = d_code.nb(), kb = nb - d_code.mb(), mb = d_code.core_rows();
    const auto& sh = d_code.shifts();
    for (int i = 0; i < kb * z; ++i)
        cw[i] = info[i] & 1;
    lambda.assign(size_t(mb) * z, 0);
    sum.assign(size_t(z), 0);
    for (int i = 0; i < mb; ++i)
        for (int j = 0; j < kb; ++j) {
            const int s = sh[size_t(i) * nb + j];
            if (s < 0)
                continue;
            for (int r = 0; r < z; ++r)
                lambda[size_t(i) * z + r] ^= cw[j * z + (r + s) % z];
        }
    for (int i = 0; i < mb; ++i)
        for (int r = 0; r < z; ++r)
            sum[size_t(r)] ^= lambda[size_t(i) * z + r];
    int b = 0;
    for (int i = 1; i + 1 < mb; ++i)
        if (sh[size_t(i) * nb + kb] >= 0)
            b = sh[size_t(i) * nb + kb];
    uint8_t* p0 = cw + kb * z;
    for (int q = 0; q < z; ++q)
        p0[q] = sum[size_t(((q - b) % z + z) % z)];
    for (int i = 0; i + 1 < mb; ++i) {
        uint8_t* next = cw + (kb + 1 + i) * z;
        const uint8_t* cur = i > 0 ? cw + (kb + i) * z : nullptr;
        const int s = sh[size_t(i) * nb + kb];
        for (int r = 0; r < z; ++r) {
            uint8_t v = lambda[size_t(i) * z + r];
            if (cur)
                v ^= cur[r];
            if (s >= 0)
                v ^= p0[(r + s) % z];
            next[r] = v;
        }
    }
    for (int i = mb; i < d_code.mb(); ++i) { // the extension rows, in order
        uint8_t* p = cw + (kb + i) * z;
        std::fill(p, p + z, uint8_t(0));
        for (int j = 0; j < kb + i; ++j) {
            const int s = sh[size_t(i) * nb + j];
            if (s < 0)
                continue;
            const uint8_t* x = cw + j * z;
            for (int r = 0; r < z; ++r)
                p[r] ^= x[(r + s) % z];
        }
    }
}

void ldpc_encoder::encode_generic(const uint8_t* info, uint8_t* cw) const
{
    const gf2_systematic& f = *d_code.systematic_form();
    for (size_t i = 0; i < f.info_cols.size(); ++i)
        cw[f.info_cols[i]] = info[i] & 1;
    for (size_t r = 0; r < f.parity_cols.size(); ++r) {
        uint8_t v = 0;
        for (int c : f.parity_sums[r])
            v ^= cw[c];
        cw[f.parity_cols[r]] = v;
    }
}

} // namespace gpufec
