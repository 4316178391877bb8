/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/reed_solomon.h>

#include "gf2m_field.h"
#include <array>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr int ccsds_poly = 0x187; // x^8 + x^7 + x^2 + x + 1

/* The dual basis (l0 .. l7) of (1, beta, .., beta^7), beta = a^117, is defined by
 * Tr(l_i beta^j) = [i == j] (CCSDS 131.0-B 4.4.2), so the dual coordinates of an element x are
 * z_j = Tr(x beta^j): computed here from that definition, not copied from a table. */
struct dual_tables {
    std::array<uint8_t, 256> to{}, from{};
    dual_tables()
    {
        const gf2m_field gf(8, ccsds_poly);
        auto trace = [&](uint16_t y) {
            uint16_t t = 0, p = y;
            for (int k = 0; k < 8; ++k) {
                t ^= p;
                p = gf.mul(p, p);
            }
            return t; // 0 or 1
        };
        for (int x = 0; x < 256; ++x) {
            uint8_t z = 0;
            for (int j = 0; j < 8; ++j)
                if (trace(gf.mul(uint16_t(x), gf.pow_alpha(117LL * j))))
                    z |= uint8_t(0x80 >> j); // z0 is the byte's first (most significant) bit
            to[size_t(x)] = z;
            from[z] = uint8_t(x);
        }
    }
};

const dual_tables& duals()
{
    static const dual_tables t;
    return t;
}

} // namespace

uint8_t rs_ccsds_to_dual(uint8_t conventional) { return duals().to[conventional]; }
uint8_t rs_ccsds_from_dual(uint8_t dual) { return duals().from[dual]; }

rs_code rs_code::named(const std::string& name)
{
    rs_code c;
    if (name == "ccsds:255:223")
        return c;
    if (name == "ccsds:255:239") {
        c.nroots = 16;
        c.fcr = 120; // roots a^(11 j), j = 120 .. 135 (131.0-B 4.3.4)
        return c;
    }
    if (name == "dvb:204:188") {
        c.nroots = 16;
        c.gfpoly = 0x11d;
        c.fcr = 0;
        c.prim = 1;
        c.dual_basis = false;
        c.virtual_fill = 51;
        return c;
    }
    std::string all;
    for (const auto& n : names())
        all += (all.empty() ? "" : ", ") + n;
    throw std::invalid_argument("Reed-Solomon: unknown code '" + name + "' (known: " + all + ")");
}

rs_code rs_code::configured(const std::string& name, const std::string& basis, int interleave, int virtual_fill)
{
    rs_code c = named(name);
    if (basis != "default") {
        if (basis != "dual" && basis != "conventional")
            throw std::invalid_argument("basis: '" + basis + "' is not valid (allowed: default, dual, conventional)");
        c.dual_basis = basis == "dual";
    }
    c.interleave = interleave;
    if (virtual_fill >= 0)
        c.virtual_fill = virtual_fill;
    c.check();
    return c;
}

std::vector<std::string> rs_code::names() { return { "ccsds:255:223", "ccsds:255:239", "dvb:204:188" }; }

void rs_code::check() const
{
    if (nroots < 2 || nroots > 128 || nroots % 2)
        throw std::invalid_argument("Reed-Solomon: nroots = " + std::to_string(nroots) + " is not an even number in 2..128");
    if (gfpoly < 0x100 || gfpoly > 0x1ff)
        throw std::invalid_argument("Reed-Solomon: gfpoly = " + std::to_string(gfpoly) + " is not a polynomial of degree 8");
    const gf2m_field gf(8, uint32_t(gfpoly)); // (throws where it is not primitive)
    if (prim < 1 || prim > 254 || [&] {
            int a = prim, b = 255; // gcd(prim, 255) must be 1 for a^prim to be primitive
            while (b) {
                const int t = a % b;
                a = b;
                b = t;
            }
            return a != 1;
        }())
        throw std::invalid_argument("Reed-Solomon: prim = " + std::to_string(prim) + " does not give a primitive element (1..254, coprime to 255)");
    if (fcr < 0 || fcr > 254)
        throw std::invalid_argument("Reed-Solomon: fcr = " + std::to_string(fcr) + " is not in 0..254");
    if (dual_basis && gfpoly != ccsds_poly)
        throw std::invalid_argument("Reed-Solomon: the dual basis is CCSDS's, of the field 0x187");
    if (interleave < 1 || interleave > 255)
        throw std::invalid_argument("Reed-Solomon: interleave = " + std::to_string(interleave) + " is not in 1..255");
    if (virtual_fill < 0 || k() < 1)
        throw std::invalid_argument("Reed-Solomon: virtual_fill = " + std::to_string(virtual_fill) + " leaves no information symbol");
}

std::string rs_code::describe() const
{
    std::string s = "RS(" + std::to_string(n()) + ", " + std::to_string(k()) + ") E=" + std::to_string(correctable());
    if (interleave > 1)
        s += " I=" + std::to_string(interleave);
    s += dual_basis ? ", dual basis" : ", conventional";
    return s;
}

rs_encoder::rs_encoder(const rs_code& code) : d_code(code)
{
    d_code.check();
    const gf2m_field gf(8, uint32_t(code.gfpoly));
    // g(x) = prod (x - a^(prim (fcr + i))), coefficients g_0 .. g_nroots (g_nroots = 1)
    std::vector<uint16_t> g(size_t(code.nroots) + 1, 0);
    g[0] = 1;
    for (int i = 0; i < code.nroots; ++i) {
        const uint16_t root = gf.pow_alpha(int64_t(code.prim) * (code.fcr + i));
        // g(x) *= (x + root)
        for (int j = i + 1; j > 0; --j)
            g[size_t(j)] = uint16_t(g[size_t(j - 1)] ^ gf.mul(g[size_t(j)], root));
        g[0] = gf.mul(g[0], root);
    }
    // the remainder's update for each feedback symbol fb, a row of R bytes: fb g_(R-1-r) at r
    const int R = code.nroots;
    d_rows.assign(size_t(256) * size_t(R), 0);
    for (int fb = 1; fb < 256; ++fb)
        for (int r = 0; r < R; ++r)
            d_rows[size_t(fb) * size_t(R) + size_t(r)] = uint8_t(gf.mul(uint16_t(fb), g[size_t(R - 1 - r)]));
}

void rs_encoder::encode(const uint8_t* info, uint8_t* block) const
{
    const int I = d_code.interleave, k = d_code.k(), R = d_code.nroots;
    const bool dual = d_code.dual_basis;
    // (one byte past the remainder stays 0: the shift below reads it)
    std::vector<uint8_t> rem(static_cast<size_t>(R) + 1, 0);
    for (int j = 0; j < I; ++j) {
        // the remainder of d(x) x^R by g(x), highest degree first; the virtual fill's leading
        // zeros leave it 0, so the sent symbols are all it sees
        std::fill(rem.begin(), rem.end(), 0);
        for (int s = 0; s < k; ++s) {
            const uint8_t d = info[size_t(s) * I + j];
            const uint8_t fb = uint8_t((dual ? rs_ccsds_from_dual(d) : d) ^ rem[0]);
            // rem = rem x + fb g(x) without its top term: a shift and one table row (the
            // loop vectorises: it reads each byte before the step that writes it)
            const uint8_t* row = d_rows.data() + size_t(fb) * size_t(R);
            for (int r = 0; r < R; ++r)
                rem[size_t(r)] = uint8_t(rem[size_t(r + 1)] ^ row[r]);
        }
        for (int r = 0; r < R; ++r)
            block[size_t(k + r) * I + j] = dual ? rs_ccsds_to_dual(rem[size_t(r)]) : rem[size_t(r)];
    }
    std::copy(info, info + d_code.info_bytes(), block);
}

void rs_encoder::encode_frames(const uint8_t* info, size_t frames, uint8_t* blocks) const
{
    for (size_t f = 0; f < frames; ++f)
        encode(info + f * d_code.info_bytes(), blocks + f * d_code.block_bytes());
}

} // namespace gpufec
