/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* 5G NR transport blocks for LDPC (core/ldpc/nr_coding.h): TS 38.212 6.2.2 / 7.2.2 (base
 * graph), 5.2.2 (segmentation) and 5.4.2 (rate matching). */
#include <gnuradio/gpufec/core/ldpc/nr_coding.h>

#include <gnuradio/gpufec/core/codes/crc.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpufec {

int nr_lifting_set(int Z)
{
    static const int a_of_set[8] = { 2, 3, 5, 7, 9, 11, 13, 15 };
    for (int i = 0; i < 8; ++i)
        for (int v = a_of_set[i]; v <= 384; v *= 2)
            if (v == Z)
                return i;
    return -1;
}

int nr_base_graph(int A, double R)
{
    if (A < 1 || !(R > 0 && R <= 1))
        throw std::invalid_argument("A, R: a transport block of " + std::to_string(A) + " bits at rate " +
                                    std::to_string(R) + " is not valid (A >= 1, 0 < R <= 1)");
    return A <= 292 || (A <= 3824 && R <= 0.67) || R <= 0.25 ? 2 : 1;
}

int nr_tb_crc_bits(int A) { return A > 3824 ? 24 : 16; }

nr_segmentation nr_segmentation::compute(int B, int bg)
{
    if (bg != 1 && bg != 2)
        throw std::invalid_argument("bg: " + std::to_string(bg) + " is not a base graph (1 or 2)");
    if (B < 1 || B > (1 << 22))
        throw std::invalid_argument("B: " + std::to_string(B) + " bits is not a transport block size (1 .. 2^22)");
    nr_segmentation s;
    s.B = B;
    s.bg = bg;
    const int Kcb = bg == 1 ? 8448 : 3840;
    if (B <= Kcb) {
        s.L = 0;
        s.C = 1;
    } else {
        s.L = 24;
        s.C = (B + Kcb - s.L - 1) / (Kcb - s.L);
    }
    const int Bp = B + s.C * s.L;
    s.K_prime = (Bp + s.C - 1) / s.C; // (B' is a multiple of C where the TBS tables are used)
    const int Kb = bg == 1 ? 22 : B > 640 ? 10 : B > 560 ? 9 : B > 192 ? 8 : 6;
    s.Z = 0; // the smallest lifting size with Kb Z >= K'
    for (int z = 2; z <= 384 && s.Z == 0; ++z)
        if (nr_lifting_set(z) >= 0 && Kb * z >= s.K_prime)
            s.Z = z;
    s.K = (bg == 1 ? 22 : 10) * s.Z;
    s.F = s.K - s.K_prime;
    return s;
}

std::string nr_segmentation::ldpc_options() const
{
    return "code=nr:bg" + std::to_string(bg) + ":" + std::to_string(Z) +
           (F ? ", shorten=" + std::to_string(K_prime) + ":" + std::to_string(K) : std::string());
}

std::vector<std::vector<uint8_t>> nr_segment(const nr_segmentation& seg, const uint8_t* bits)
{
    const crc_spec crc24b = crc_spec::named("lte-24b"); // gCRC24B of 38.212 5.1 (the LTE one)
    std::vector<std::vector<uint8_t>> blocks;
    size_t s = 0;
    for (int r = 0; r < seg.C; ++r) {
        std::vector<uint8_t> c;
        c.reserve(size_t(seg.K_prime));
        for (int k = 0; k < seg.K_prime - seg.L; ++k) // (a last block short of bits: 0s)
            c.push_back(s < size_t(seg.B) ? bits[s++] & 1u : 0);
        if (seg.L)
            crc_append(crc24b, c);
        blocks.push_back(std::move(c));
    }
    return blocks;
}

bool nr_desegment(const nr_segmentation& seg, const uint8_t* blocks, uint8_t* bits, std::vector<uint8_t>* block_ok)
{
    const crc_spec crc24b = crc_spec::named("lte-24b");
    if (block_ok)
        block_ok->assign(size_t(seg.C), 1);
    bool all = true;
    size_t s = 0;
    for (int r = 0; r < seg.C; ++r) {
        const uint8_t* c = blocks + size_t(r) * size_t(seg.K_prime);
        if (seg.L && !crc_check(crc24b, c, size_t(seg.K_prime))) {
            all = false;
            if (block_ok)
                (*block_ok)[size_t(r)] = 0;
        }
        for (int k = 0; k < seg.K_prime - seg.L && s < size_t(seg.B); ++k)
            bits[s++] = c[k] & 1u;
    }
    return all;
}

nr_rate_matcher::nr_rate_matcher(int bg, int Z, int K_prime, int Ncb) : d_bg(bg), d_Z(Z)
{
    if (bg != 1 && bg != 2)
        throw std::invalid_argument("bg: " + std::to_string(bg) + " is not a base graph (1 or 2)");
    if (nr_lifting_set(Z) < 0)
        throw std::invalid_argument("Z: " + std::to_string(Z) + " is not a lifting size of TS 38.212 Table 5.3.2-1");
    const int K = (bg == 1 ? 22 : 10) * Z;
    if (K_prime < 1 || K_prime > K)
        throw std::invalid_argument("K_prime: " + std::to_string(K_prime) + " is not in 1.." + std::to_string(K));
    d_N = (bg == 1 ? 66 : 50) * Z;
    d_F = K - K_prime;
    d_filler_at = K_prime - 2 * Z; // d_k = c_(k + 2Z): codeword bits K' .. K-1 sit here
    if (d_filler_at < 0 && d_F > 0)
        throw std::invalid_argument("K_prime: filler bits would reach the punctured first 2Z bits");
    d_Ncb = Ncb == 0 ? d_N : Ncb;
    if (d_Ncb < 2 * Z || d_Ncb > d_N)
        throw std::invalid_argument("Ncb: " + std::to_string(Ncb) + " is not in " + std::to_string(2 * Z) + ".." +
                                    std::to_string(d_N));
}

int nr_rate_matcher::k0(int rv) const
{
    // Table 5.4.2.1-2: floor(a Ncb / (66 Z)) Z (BG1) or floor(a Ncb / (50 Z)) Z (BG2)
    static const int a1[4] = { 0, 17, 33, 56 }, a2[4] = { 0, 13, 25, 43 };
    if (rv < 0 || rv > 3)
        throw std::invalid_argument("rv: " + std::to_string(rv) + " is not a redundancy version (0..3)");
    const long long a = d_bg == 1 ? a1[rv] : a2[rv], d = (d_bg == 1 ? 66LL : 50LL) * d_Z;
    return int(a * d_Ncb / d * d_Z);
}

int nr_rate_matcher::frame_index(int j) const
{
    if (j < d_filler_at)
        return j;
    if (j < d_filler_at + d_F)
        return -1;
    return j - d_F;
}

void nr_rate_matcher::check(int E, int rv, int Qm) const
{
    if (Qm != 1 && Qm != 2 && Qm != 4 && Qm != 6 && Qm != 8)
        throw std::invalid_argument("Qm: " + std::to_string(Qm) + " is not a modulation order (1, 2, 4, 6, 8)");
    if (E < 1 || E % Qm != 0)
        throw std::invalid_argument("E: " + std::to_string(E) + " is not a positive multiple of Qm = " +
                                    std::to_string(Qm));
    const int fill_end = std::min(d_Ncb, d_filler_at + d_F), fill_start = std::min(d_Ncb, std::max(0, d_filler_at));
    if (d_Ncb - (fill_end - fill_start) < 1) // (else bit selection would never end)
        throw std::invalid_argument("Ncb: the circular buffer holds no sent bit");
    (void)k0(rv);
}

template <class F>
void nr_rate_matcher::select(int E, int rv, F&& f) const
{
    // 5.4.2.1 bit selection: e_k is buffer bit k0 + j for the k-th j that is not <NULL> (filler)
    const int start = k0(rv);
    for (int k = 0, j = 0; k < E; ++j) {
        const int i = frame_index((start + j) % d_Ncb);
        if (i >= 0)
            f(k++, i);
    }
}

std::vector<uint8_t> nr_rate_matcher::match(const uint8_t* frame, int E, int rv, int Qm) const
{
    check(E, rv, Qm);
    std::vector<uint8_t> e(static_cast<size_t>(E), 0);
    select(E, rv, [&](int k, int i) { e[size_t(k)] = frame[i] & 1; });
    // 5.4.2.2 bit interleaving: f_(i + j Qm) = e_(i E / Qm + j)
    std::vector<uint8_t> f(static_cast<size_t>(E));
    const int rows = E / Qm;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < Qm; ++i)
            f[size_t(i + j * Qm)] = e[size_t(i * rows + j)];
    return f;
}

void nr_rate_matcher::accumulate(const float* soft, int E, int rv, int Qm, float* acc) const
{
    check(E, rv, Qm);
    const int rows = E / Qm;
    select(E, rv, [&](int k, int i) { acc[i] += soft[k / rows + (k % rows) * Qm]; }); // e_k = f_(q + r Qm)
}

void nr_rate_matcher::mark_received(int E, int rv, int Qm, uint8_t* received) const
{
    check(E, rv, Qm);
    select(E, rv, [&](int, int i) { received[i] = 1; });
}

std::string nr_rate_matcher::ldpc_erased(const uint8_t* received) const
{
    // whole Z-bit block columns only: the decoder leaves out rows by block column, and naming
    // every unreceived bit would make a decoder for each E (the options are a decoder's key)
    std::string out;
    int run_start = -1, run_end = -1; // the block columns named, as one range while they touch
    auto flush = [&] {
        if (run_start >= 0)
            out += (out.empty() ? "" : " ") + std::to_string(run_start * d_Z) + ":" + std::to_string(run_end * d_Z);
        run_start = -1;
    };
    const int blocks = (d_N + 2 * d_Z) / d_Z;
    for (int b = 2; b < blocks; ++b) { // (the first 2Z bits are never sent)
        bool none = true;
        for (int c = b * d_Z; c < (b + 1) * d_Z && none; ++c) {
            const int j = c - 2 * d_Z; // circular-buffer bit
            if (j >= d_filler_at && j < d_filler_at + d_F) {
                none = false; // (a block with filler bits holds information: never left out)
                break;
            }
            const int i = j < d_filler_at ? j : j - d_F; // its frame value
            none = !received[i];
        }
        if (!none) {
            flush();
            continue;
        }
        if (run_start < 0)
            run_start = b;
        run_end = b + 1;
    }
    flush();
    return out;
}

} // namespace gpufec
