/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LTE code block segmentation (36.212 5.1.2) and turbo rate matching (5.1.4.1). */
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/codes/interleaver.h>
#include <gnuradio/gpufec/core/turbo/lte_coding.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpufec {

namespace {

constexpr int Z = 6144; // the largest code block

// the column permutation of the sub-block interleaver (table 5.1.4-1)
constexpr int P[32] = { 0, 16, 8,  24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30,
                        1, 17, 9,  25, 5, 21, 13, 29, 3, 19, 11, 27, 7, 23, 15, 31 };

} // namespace

lte_segmentation lte_segmentation::compute(int B)
{
    if (B < 1 || B > 391656) // larger than any transport block of 36.213
        throw std::invalid_argument("B: " + std::to_string(B) + " bits cannot be segmented (1..391656)");
    lte_segmentation s;
    s.B = B;
    int Bp;
    if (B <= Z) {
        s.L = 0;
        s.C = 1;
        Bp = B;
    } else {
        s.L = 24;
        s.C = (B + (Z - s.L) - 1) / (Z - s.L);
        Bp = B + s.C * s.L;
    }
    const auto sizes = interleaver::lte_sizes();
    const auto plus = std::find_if(sizes.begin(), sizes.end(), [&](int k) { return s.C * k >= Bp; });
    s.K_plus = *plus;
    if (s.C == 1) {
        s.C_plus = 1;
        s.K_minus = 0;
        s.C_minus = 0;
    } else {
        s.K_minus = *(plus - 1);
        const int dK = s.K_plus - s.K_minus;
        s.C_minus = (s.C * s.K_plus - Bp) / dK;
        s.C_plus = s.C - s.C_minus;
    }
    s.F = s.C_plus * s.K_plus + s.C_minus * s.K_minus - Bp;
    return s;
}

std::vector<std::vector<uint8_t>> lte_segment(const lte_segmentation& seg, const uint8_t* bits,
                                              std::vector<uint8_t>* filler_of_first)
{
    const crc_spec crc24b = crc_spec::named("lte-24b");
    std::vector<std::vector<uint8_t>> blocks;
    size_t s = 0;
    for (int r = 0; r < seg.C; ++r) {
        const int Kr = seg.K(r);
        std::vector<uint8_t> c(size_t(Kr - seg.L), 0); // filler bits are 0 in the CRC and the encoder
        const int k0 = r == 0 ? seg.F : 0;
        for (int k = k0; k < Kr - seg.L; ++k)
            c[size_t(k)] = bits[s++] & 1u;
        if (seg.L)
            crc_append(crc24b, c);
        blocks.push_back(std::move(c));
    }
    if (filler_of_first) {
        filler_of_first->assign(size_t(seg.K(0)), 0);
        std::fill(filler_of_first->begin(), filler_of_first->begin() + seg.F, uint8_t(1));
    }
    return blocks;
}

lte_rate_matcher::lte_rate_matcher(int K, int F, int Ncb) : d_K(K), d_F(F)
{
    interleaver::lte_qpp(K); // checks K
    if (F < 0 || F >= K)
        throw std::invalid_argument("F: " + std::to_string(F) + " filler bits do not fit K=" + std::to_string(K));
    d_D = K + 4;
    d_R = (d_D + 31) / 32;
    d_Kpi = d_R * 32;
    const int Kw = 3 * d_Kpi;
    if (Ncb < 0 || Ncb > Kw)
        throw std::invalid_argument("Ncb: " + std::to_string(Ncb) + " is not in 0..Kw=" + std::to_string(Kw));
    d_Ncb = Ncb ? Ncb : Kw;
    const int ND = d_Kpi - d_D;
    // y index (0..Kpi-1) of stream i -> code-bit index in the streams layout, or -1 (<NULL>)
    auto code_index = [&](int i, int y) -> int32_t {
        if (y < ND)
            return -1;
        const int k = y - ND;
        if (i < 2 && k < d_F)
            return -1; // filler bits: <NULL> in d0 and d1
        return int32_t(i * d_D + k);
    };
    d_w.resize(size_t(Kw));
    for (int k = 0; k < d_Kpi; ++k) {
        const int col = P[k / d_R], row = k % d_R;
        d_w[size_t(k)] = code_index(0, col + 32 * row);
        d_w[size_t(d_Kpi + 2 * k)] = code_index(1, col + 32 * row);
        d_w[size_t(d_Kpi + 2 * k + 1)] = code_index(2, (col + 32 * row + 1) % d_Kpi);
    }
    // match() and accumulate() walk the buffer from k0 modulo Ncb until they have E code bits:
    // every version must start inside the buffer, and the buffer must hold code bits (not only
    // <NULL> places), or the walk never ends
    if (d_Ncb < min_Ncb(K))
        throw std::invalid_argument("Ncb: " + std::to_string(Ncb) + " is too small for K=" + std::to_string(K) +
                                    " (k0 of rv 3 would lie outside the buffer); allowed: 0 or " +
                                    std::to_string(min_Ncb(K)) + "..Kw=" + std::to_string(Kw));
    if (std::none_of(d_w.begin(), d_w.begin() + d_Ncb, [](int32_t i) { return i >= 0; }))
        throw std::invalid_argument("Ncb: " + std::to_string(Ncb) + " holds no code bit of K=" + std::to_string(K));
}

int lte_rate_matcher::min_Ncb(int K)
{
    // k0(3) = R (6 ceil(Ncb / 8R) + 2) jumps at multiples of 8R, so small buffers alternate
    // between fitting and not; the answer is one above the largest buffer that does not fit
    const int R = (K + 4 + 31) / 32, Kw = 96 * R;
    for (int n = Kw; n >= 1; --n) {
        const int per = (n + 8 * R - 1) / (8 * R);
        if (R * (6 * per + 2) >= n)
            return n + 1;
    }
    return 1;
}

int lte_rate_matcher::k0(int rv) const
{
    if (rv < 0 || rv > 3)
        throw std::invalid_argument("rv: " + std::to_string(rv) + " is not a redundancy version (0..3)");
    const int per = (d_Ncb + 8 * d_R - 1) / (8 * d_R);
    return d_R * (2 * per * rv + 2);
}

std::vector<uint8_t> lte_rate_matcher::match(const uint8_t* coded, int E, int rv) const
{
    if (E < 1)
        throw std::invalid_argument("E: must be at least 1");
    std::vector<uint8_t> e(static_cast<size_t>(E));
    int j = k0(rv);
    for (int k = 0; k < E; j = (j + 1) % d_Ncb) {
        const int32_t idx = d_w[size_t(j)];
        if (idx >= 0)
            e[size_t(k++)] = coded[idx];
    }
    return e;
}

void lte_rate_matcher::accumulate(const float* soft, int E, int rv, float* acc, float filler_llr) const
{
    if (E < 1)
        throw std::invalid_argument("E: must be at least 1");
    int j = k0(rv);
    for (int k = 0; k < E; j = (j + 1) % d_Ncb) {
        const int32_t idx = d_w[size_t(j)];
        if (idx >= 0)
            acc[idx] += soft[k++];
    }
    for (int k = 0; k < d_F; ++k) { // known zeros
        acc[k] = filler_llr;
        acc[d_D + k] = filler_llr;
    }
}

int lte_rate_matcher::block_E(int G, int C, int r, int Qm, int Nl)
{
    if (C < 1 || r < 0 || r >= C || Qm < 1 || Nl < 1 || G < 0 || G % (Nl * Qm))
        throw std::invalid_argument("block_E: needs C >= 1, 0 <= r < C, and G a multiple of Nl * Qm");
    const int Gp = G / (Nl * Qm), gamma = Gp % C;
    return r <= C - gamma - 1 ? Nl * Qm * (Gp / C) : Nl * Qm * ((Gp + C - 1) / C);
}

} // namespace gpufec
