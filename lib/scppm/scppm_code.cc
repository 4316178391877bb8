/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The SCPPM code: parameters, the interleaver, the encoder, the Poisson channel. */
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/scppm/scppm.h>

#include "scppm_codeword.h"

#include <cmath>
#include <stdexcept>

namespace gpufec {

scppm_code scppm_code::make(int M, const std::string& rate)
{
    scppm_code c;
    int m = 0;
    while (m < 9 && (1 << m) != M)
        ++m;
    if (m < 2 || m > 8)
        throw std::invalid_argument("M: " + std::to_string(M) +
                                    " is not a PPM order of CCSDS 142 (allowed: 4, 8, 16, 32, 64, 128, 256)");
    c.M = M;
    c.m = m;
    if (rate == "1/3")
        c.rate_num = 1, c.rate_den = 3;
    else if (rate == "1/2")
        c.rate_num = 1, c.rate_den = 2;
    else if (rate == "2/3")
        c.rate_num = 2, c.rate_den = 3;
    else
        throw std::invalid_argument("rate: '" + rate + "' is not an SCPPM code rate (allowed: 1/3, 1/2, 2/3)");
    return c;
}

std::string scppm_code::rate_name() const
{
    return std::to_string(rate_num) + "/" + std::to_string(rate_den);
}

std::string scppm_code::describe() const
{
    return "SCPPM M=" + std::to_string(M) + " rate " + rate_name();
}

const char* scppm_code::puncture_pattern() const
{
    if (rate_den == 3 && rate_num == 1)
        return "111111";
    if (rate_den == 2)
        return "110110";
    return "110010";
}

uint32_t scppm_interleave_index(uint32_t j)
{
    if (j >= uint32_t(scppm_code::code_bits))
        throw std::invalid_argument("scppm_interleave_index: j must be below 15120");
    return uint32_t(scppm::interleave_index(int(j)));
}

namespace {
struct permutations {
    std::vector<uint32_t> pi, inv;
    permutations() : pi(scppm_code::code_bits), inv(scppm_code::code_bits)
    {
        for (uint32_t j = 0; j < uint32_t(scppm_code::code_bits); ++j) {
            pi[j] = scppm_interleave_index(j);
            inv[pi[j]] = j;
        }
    }
};
const permutations& perms()
{
    static const permutations p;
    return p;
}
} // namespace

const std::vector<uint32_t>& scppm_interleaver() { return perms().pi; }
const std::vector<uint32_t>& scppm_deinterleaver() { return perms().inv; }

scppm_encoder::scppm_encoder(const scppm_code& code) : d_code(code), d_crc(crc_spec::named("ccsds-32"))
{
    d_u.reserve(size_t(code.outer_input_bits()));
    d_v.reserve(scppm_code::code_bits);
    d_w.resize(scppm_code::code_bits);
}

void scppm_encoder::encode(const uint8_t* info, uint16_t* symbols)
{
    const scppm_code& code = d_code;
    // u: information, its CRC-32 (register initialised to ones), two zeros to end in state 0
    d_u.assign(info, info + code.info_bits());
    for (auto& b : d_u)
        b &= 1;
    crc_append(d_crc, d_u);
    d_u.push_back(0);
    d_u.push_back(0);

    // outer (5,7,7) code: c0 = u + u_-2, c1 = c2 = u + u_-1 + u_-2; punctured on the fly
    d_v.clear();
    uint8_t d1 = 0, d2 = 0;
    size_t i = 0;
    for (uint8_t b : d_u) {
        const uint8_t c[3] = { uint8_t(b ^ d2), uint8_t(b ^ d1 ^ d2), uint8_t(b ^ d1 ^ d2) };
        for (int r = 0; r < 3; ++r, ++i)
            if (code.kept(i))
                d_v.push_back(c[r]);
        d2 = d1;
        d1 = b;
    }
    if (d_v.size() != size_t(scppm_code::code_bits))
        throw std::logic_error("scppm_encoder: puncturing gave " + std::to_string(d_v.size()) + " bits");

    const auto& pi = scppm_interleaver();
    for (size_t j = 0; j < d_w.size(); ++j)
        d_w[j] = d_v[pi[j]];

    // accumulator a_j = a_{j-1} + w_j from state 0, m bits per symbol, the first one its MSB
    uint8_t a = 0;
    for (int s = 0; s < code.symbols(); ++s) {
        unsigned sym = 0;
        for (int t = 0; t < code.m; ++t) {
            a ^= d_w[size_t(s) * size_t(code.m) + size_t(t)];
            sym = (sym << 1) | a;
        }
        symbols[s] = uint16_t(sym);
    }
}

void ppm_slots(const uint16_t* symbols, size_t n, int M, uint8_t* slots)
{
    for (size_t s = 0; s < n; ++s)
        for (int j = 0; j < M; ++j)
            slots[s * size_t(M) + size_t(j)] = uint8_t(symbols[s] == j);
}

double slot_llr_weight(double Ks, double Kb)
{
    if (!(Kb > 0) || !(Ks >= 0) || !std::isfinite(Ks) || !std::isfinite(Kb))
        throw std::invalid_argument("Kb must be positive and Ks not negative (Ks = " + std::to_string(Ks) +
                                    ", Kb = " + std::to_string(Kb) + ")");
    return std::log1p(Ks / Kb);
}

double poisson_ppm_capacity(int M, double Ks, double Kb, size_t trials, uint64_t seed)
{
    // C = log2 M - E[log2 sum_j exp(L_j - L_0)], the pulse in slot 0, L_j = y_j ln(1 + Ks/Kb)
    const double w = slot_llr_weight(Ks, Kb);
    std::mt19937_64 rng(seed);
    std::poisson_distribution<int> off(Kb), on(Ks + Kb);
    double acc = 0;
    for (size_t t = 0; t < trials; ++t) {
        const int y0 = on(rng);
        double s = 1;
        for (int j = 1; j < M; ++j)
            s += std::exp(w * double(off(rng) - y0));
        acc += std::log2(s);
    }
    return std::log2(double(M)) - acc / double(trials);
}

std::vector<uint32_t> scppm::inner_to_outer_map(const scppm_code& code)
{
    std::vector<uint32_t> kept; // outer index of each punctured-stream position
    kept.reserve(scppm_code::code_bits);
    for (uint32_t i = 0; i < 3 * uint32_t(code.outer_input_bits()); ++i)
        if (code.kept(i))
            kept.push_back(i);
    const auto& pi = scppm_interleaver();
    std::vector<uint32_t> map(pi.size());
    for (size_t j = 0; j < pi.size(); ++j)
        map[j] = kept[pi[j]];
    return map;
}

std::vector<uint32_t> scppm::crc_responses(const scppm_code& code)
{
    // a 1 at information bit i leaves the register at the generator, then n - 1 - i steps of
    // shifting with zero input follow; the CRC bits are compared with the register bit by bit
    const int n = code.info_bits();
    const uint32_t poly = crc_spec::named("ccsds-32").poly;
    std::vector<uint32_t> w(size_t(n) + 32);
    uint32_t r = poly;
    for (int i = n - 1; i >= 0; --i) {
        w[size_t(i)] = r;
        r = (r << 1) ^ ((r >> 31) ? poly : 0u);
    }
    for (int j = 0; j < 32; ++j)
        w[size_t(n + j)] = 1u << (31 - j);
    return w;
}

uint32_t scppm::crc_zero(const scppm_code& code)
{
    const std::vector<uint8_t> zeros(size_t(code.info_bits()), 0);
    return crc_bits(crc_spec::named("ccsds-32"), zeros.data(), zeros.size());
}

} // namespace gpufec
