/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "rs_reference.h"
#include "rs_solver.h"

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
    gf.tables8(d_exp.data(), d_log.data());
    d_cw.resize(size_t(code.n()));
}

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
    const rs_solver_code p{ d_code.nroots, d_code.fcr, d_code.prim, d_code.virtual_fill };
    return rs_solve(p, d_exp.data(), d_log.data(), r, S, eras, n_eras);
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
