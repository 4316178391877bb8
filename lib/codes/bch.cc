/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/bch.h>

#include <gnuradio/gpufec/core/runtime/bits.h>

#include "bch_gpu.h"
#include "gf2m_field.h"
#include <algorithm>
#include <string>
#include <vector>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr int words = 4; // the remainder register: 256 bits, the highest degree at the top

void shift_left(uint64_t* s, int by) // 1 <= by < 64
{
    for (int w = 0; w < words - 1; ++w)
        s[w] = (s[w] << by) | (s[w + 1] >> (64 - by));
    s[words - 1] <<= by;
}

} // namespace

bch_code::bch_code(int m, uint32_t primitive, int t, int n) : d_m(m), d_t(t), d_n(n), d_r(0), d_primitive(primitive)
{
    if (m < 3 || m > 16)
        throw std::invalid_argument("BCH: m = " + std::to_string(m) + " is not in 3..16");
    if (primitive >> m != 1)
        throw std::invalid_argument("BCH: the primitive polynomial must have degree m = " + std::to_string(m));
    if (t < 1 || n < 2 || n > (1 << m) - 1)
        throw std::invalid_argument("BCH: t = " + std::to_string(t) + ", n = " + std::to_string(n) +
                                    " is not valid (t >= 1, n <= 2^m - 1)");
    d_gf = std::make_shared<const gf2m_field>(m, primitive);
    const gf2m_field& gf = *d_gf;
    // g = the product of the distinct minimal polynomials of alpha^1 .. alpha^2t (each a
    // cyclotomic coset's product of (x + alpha^j), whose coefficients are 0 or 1)
    std::vector<uint8_t> g{ 1 };
    std::vector<char> covered(size_t(gf.size), 0);
    for (int i = 1; i <= 2 * t; ++i) {
        const long long first = i % gf.size; // (alpha^(2^m - 1) = alpha^0)
        if (covered[size_t(first)])
            continue;
        // (the coset's members are alpha^first times powers of two)
        const uint32_t mp = gf.minimal_polynomial(first);
        for (long long j = first;;) {
            covered[size_t(j)] = 1;
            j = (j * 2) % gf.size;
            if (j == first)
                break;
        }
        const int degree = gf2_degree(mp);
        std::vector<uint8_t> prod(g.size() + size_t(degree), 0);
        for (size_t a = 0; a < g.size(); ++a)
            for (int b = 0; b <= degree && g[a]; ++b)
                prod[a + size_t(b)] ^= uint8_t((mp >> b) & 1u);
        g.swap(prod);
    }
    d_gen = g;
    d_r = int(g.size()) - 1;
    if (d_r > 64 * words)
        throw std::invalid_argument("BCH: " + std::to_string(d_r) + " parity bits; at most 256 are supported");
    if (d_r < 8 || d_r >= n)
        throw std::invalid_argument("BCH: n = " + std::to_string(n) + " leaves no message bits beside " +
                                    std::to_string(d_r) + " parity bits (or fewer than 8)");
    // the byte-at-a-time register: d_table[v] = the register after bits of v from zero
    d_gl.assign(words, 0); // g without x^r, left-aligned: g_(r-1) at bit 255
    for (int i = 0; i < d_r; ++i)
        if (g[size_t(i)]) {
            const int bit = 256 - d_r + i; // from the bottom of the 256
            d_gl[size_t(words - 1 - bit / 64)] |= uint64_t(1) << (bit % 64);
        }
    d_table.assign(size_t(256) * words, 0);
    for (int v = 0; v < 256; ++v) {
        uint64_t s[words] = {};
        for (int b = 7; b >= 0; --b) {
            const bool top = ((s[0] >> 63) & 1) ^ ((v >> b) & 1);
            shift_left(s, 1);
            if (top)
                for (int w = 0; w < words; ++w)
                    s[w] ^= d_gl[size_t(w)];
        }
        std::copy(s, s + words, d_table.begin() + size_t(v) * words);
    }
    // four bytes a step (remainder): table k takes the byte k places above a word's last, the
    // byte table's entry run on through k bytes of zeros
    d_table.resize(size_t(4 * 256) * words);
    for (int k = 1; k < 4; ++k)
        for (int v = 0; v < 256; ++v) {
            uint64_t s[words];
            std::copy_n(d_table.begin() + (size_t((k - 1) * 256 + v)) * words, words, s);
            const unsigned top = unsigned(s[0] >> 56);
            shift_left(s, 8);
            for (int w = 0; w < words; ++w)
                s[w] ^= d_table[size_t(top) * words + size_t(w)];
            std::copy(s, s + words, d_table.begin() + (size_t(k * 256 + v)) * words);
        }
}

std::string bch_code::describe() const
{
    return "BCH(" + std::to_string(d_n) + ", " + std::to_string(k()) + ", t=" + std::to_string(d_t) + ") over GF(2^" +
           std::to_string(d_m) + ")";
}

//! the register after nbits bits (packed, MSB first): (the bits' polynomial) x^r mod g
void bch_code::remainder(const uint8_t* packed, size_t nbits, uint64_t* s) const
{
    std::fill(s, s + words, uint64_t(0));
    const size_t whole = nbits / 8;
    size_t i = 0;
    // four bytes a step: the register's top 32 bits and the bytes together index four tables
    // whose reads do not wait on each other (a byte a step waited on each read: a frame of DVB-S2
    // 64800 1/2 took about 10 us)
    for (; i + 4 <= whole; i += 4) {
        const uint32_t x = uint32_t(s[0] >> 32) ^ (uint32_t(packed[i]) << 24 | uint32_t(packed[i + 1]) << 16 |
                                                   uint32_t(packed[i + 2]) << 8 | uint32_t(packed[i + 3]));
        shift_left(s, 32);
        const uint64_t* t3 = d_table.data() + (size_t(3 * 256) + (x >> 24)) * words;
        const uint64_t* t2 = d_table.data() + (size_t(2 * 256) + ((x >> 16) & 255u)) * words;
        const uint64_t* t1 = d_table.data() + (size_t(256) + ((x >> 8) & 255u)) * words;
        const uint64_t* t0 = d_table.data() + size_t(x & 255u) * words;
        for (int w = 0; w < words; ++w)
            s[w] ^= t3[w] ^ t2[w] ^ t1[w] ^ t0[w];
    }
    for (; i < whole; ++i) {
        const unsigned top = unsigned(s[0] >> 56) ^ packed[i];
        shift_left(s, 8);
        const uint64_t* t = d_table.data() + size_t(top) * words;
        for (int w = 0; w < words; ++w)
            s[w] ^= t[w];
    }
    for (size_t i = whole * 8; i < nbits; ++i) { // the last bits one at a time
        const unsigned top = unsigned(s[0] >> 63) ^ packed_bit(packed, i);
        shift_left(s, 1);
        if (top)
            for (int w = 0; w < words; ++w)
                s[w] ^= d_gl[size_t(w)];
    }
}

void bch_code::encode_packed(const uint8_t* message, uint8_t* codeword) const
{
    const size_t kb = size_t(k());
    uint64_t s[words];
    remainder(message, kb, s);
    if (codeword != message)
        for (size_t i = 0; i < (kb + 7) / 8; ++i)
            codeword[i] = message[i];
    for (int i = 0; i < d_r; ++i) { // parity: the register from its top (x^(r-1)) down
        const int bit = 255 - i;
        const size_t at = kb + size_t(i);
        const uint8_t mask = uint8_t(0x80u >> (at % 8));
        if ((s[words - 1 - bit / 64] >> (bit % 64)) & 1)
            codeword[at / 8] |= mask;
        else
            codeword[at / 8] &= uint8_t(~mask);
    }
}

void bch_code::encode(const uint8_t* message, uint8_t* codeword) const
{
    std::vector<uint8_t> in((size_t(k()) + 7) / 8), out((size_t(d_n) + 7) / 8);
    pack_bits(message, size_t(k()), in.data());
    encode_packed(in.data(), out.data());
    unpack_bits(out.data(), size_t(d_n), codeword);
}

int bch_code::decode_packed(uint8_t* cw) const
{
    uint64_t s[words];
    remainder(cw, size_t(d_n), s);
    bool zero = true;
    for (int w = 0; w < words; ++w)
        zero &= s[w] == 0;
    if (zero)
        return 0;
    const gf2m_field& gf = *d_gf;
    // syndromes S_j = c(alpha^j) = rem(alpha^j) alpha^(-j r), rem(x) = c(x) x^r mod g: the odd
    // ones term by term, the exponent j (r-1-i) stepped down by j (no product or modulo a term;
    // frames the LDPC decoder leaves wrong all come here), the even ones S_2i = S_i^2
    std::vector<uint16_t> S(size_t(2 * d_t + 1), 0);
    for (int j = 1; j <= 2 * d_t; j += 2) {
        int e = int((long long)j * (d_r - 1) % gf.size); // j (r-1-i) mod size, i = 0 first
        uint16_t v = 0;
        for (int i = 0; i < d_r; ++i) {
            const int bit = 255 - i; // coefficient of x^(r-1-i)
            if ((s[words - 1 - bit / 64] >> (bit % 64)) & 1)
                v ^= gf.exp[size_t(e)];
            e -= j;
            if (e < 0)
                e += gf.size;
        }
        S[size_t(j)] = gf.mul(v, gf.pow_alpha(-(long long)j * d_r));
    }
    for (int j = 2; j <= 2 * d_t; j += 2)
        S[size_t(j)] = gf.mul(S[size_t(j / 2)], S[size_t(j / 2)]);
    // Berlekamp-Massey: the error locator C(x) = prod (1 + X_l x)
    std::vector<uint16_t> C(size_t(2 * d_t + 2), 0), B(C.size(), 0), T;
    C[0] = B[0] = 1;
    int L = 0, shift = 1;
    uint16_t b = 1;
    for (int r = 0; r < 2 * d_t; ++r) {
        uint16_t d = S[size_t(r + 1)];
        for (int i = 1; i <= L; ++i)
            d ^= gf.mul(C[size_t(i)], S[size_t(r + 1 - i)]);
        if (d == 0) {
            ++shift;
            continue;
        }
        const uint16_t coef = gf.div(d, b);
        T = C;
        for (size_t i = 0; i + size_t(shift) < C.size(); ++i)
            C[i + size_t(shift)] ^= gf.mul(coef, B[i]);
        if (2 * L <= r) {
            L = r + 1 - L;
            B = T;
            b = d;
            shift = 1;
        } else {
            ++shift;
        }
    }
    int degree = 0;
    for (int i = 0; i < int(C.size()); ++i)
        if (C[size_t(i)])
            degree = i;
    if (L > d_t || degree != L)
        return -1;
    // a locator without L distinct roots in the field has fewer than L among the n positions:
    // the frame fails without the search (the same decision; a frame beyond t errors, where the
    // search over the n positions had cost as much as its LDPC decoding on the CPU)
    if (!gf.splits_distinct(C.data(), L))
        return -1;
    // Chien search over the n positions: bit p (degree n-1-p) is wrong when C(alpha^-(n-1-p)) = 0.
    // The locator has L distinct roots in the field (above), so the search ends at the L-th, and
    // each root found is divided out (C / (x + alpha^-e): the positions after it step one term
    // fewer); fewer roots among the n positions fail. Only nonzero terms are stepped, branch-free.
    if (L == 1) { // C_0 + C_1 x: its one root alpha^-e, e = log C_1 - log C_0, without the search
        const int e = (int(gf.log[C[1]]) - int(gf.log[C[0]]) + gf.size) % gf.size;
        if (e >= d_n)
            return -1;
        const int p = d_n - 1 - e;
        cw[p / 8] ^= uint8_t(0x80u >> (p % 8));
        return 1;
    }
    std::vector<uint16_t> q(C.begin(), C.begin() + L + 1); // what is left of C
    std::vector<int> lt, step, positions(size_t(L) + 1);   // log of q_i alpha^(-i e), e the degree tried; i
    const auto terms_at = [&](int e) {
        lt.clear();
        step.clear();
        for (int i = 0; i < int(q.size()); ++i)
            if (q[size_t(i)]) {
                lt.push_back(int(((long long)gf.log[q[size_t(i)]] - (long long)i * e % gf.size + gf.size) % gf.size));
                step.push_back(i);
            }
    };
    terms_at(0);
    int found = 0;
    for (int e = 0; e < d_n && found < L; ++e) {
        uint16_t sum = 0;
        for (size_t j = 0; j < lt.size(); ++j) {
            sum ^= gf.exp[size_t(lt[j])];
            const int next = lt[j] - step[j];
            lt[j] = next + (next < 0 ? gf.size : 0);
        }
        if (sum == 0) {
            positions[size_t(found++)] = d_n - 1 - e;
            // q / (x + r), r = alpha^-e, in place: q'_(k-1) = q_k + r q'_k from the top down, held
            // in q[k]; q[0] is then the remainder (zero) and goes
            const uint16_t r = gf.pow_alpha(-(long long)e);
            uint16_t carry = 0;
            for (size_t k = q.size() - 1; k >= 1; --k)
                q[k] = carry = uint16_t(q[k] ^ gf.mul(r, carry));
            q.erase(q.begin());
            terms_at(e + 1);
        }
    }
    if (found != L)
        return -1; // roots outside the shortened code: more errors than t
    for (int q = 0; q < found; ++q)
        cw[positions[size_t(q)] / 8] ^= uint8_t(0x80u >> (positions[size_t(q)] % 8));
    return L;
}

int bch_code::decode(uint8_t* bits) const
{
    std::vector<uint8_t> p((size_t(d_n) + 7) / 8);
    pack_bits(bits, size_t(d_n), p.data());
    const int r = decode_packed(p.data());
    if (r > 0)
        unpack_bits(p.data(), size_t(d_n), bits);
    return r;
}

bch_code bch_code::dvbs2(int ldpc_n, const std::string& rate)
{
    // EN 302 307-1 Table 5a (normal FECFRAME: K_bch, N_bch, t) and 5b (short: t = 12)
    struct row {
        const char* rate;
        int kbch, nbch, t;
    };
    static const row normal[] = { { "1/4", 16008, 16200, 12 }, { "1/3", 21408, 21600, 12 },
                                  { "2/5", 25728, 25920, 12 }, { "1/2", 32208, 32400, 12 },
                                  { "3/5", 38688, 38880, 12 }, { "2/3", 43040, 43200, 10 },
                                  { "3/4", 48408, 48600, 12 }, { "4/5", 51648, 51840, 12 },
                                  { "5/6", 53840, 54000, 10 }, { "8/9", 57472, 57600, 8 },
                                  { "9/10", 58192, 58320, 8 } };
    static const row short_frames[] = { { "1/4", 3072, 3240, 12 },   { "1/3", 5232, 5400, 12 },
                                        { "2/5", 6312, 6480, 12 },   { "1/2", 7032, 7200, 12 },
                                        { "3/5", 9552, 9720, 12 },   { "2/3", 10632, 10800, 12 },
                                        { "3/4", 11712, 11880, 12 }, { "4/5", 12432, 12600, 12 },
                                        { "5/6", 13152, 13320, 12 }, { "8/9", 14232, 14400, 12 } };
    // EN 302 307-2 Tables 17a, 17b: every DVB-S2X rate takes t = 12 and N_bch = the LDPC's k
    static const std::vector<std::string> s2x_normal = { "13/45",   "9/20",    "11/20",   "26/45",   "28/45",
                                                         "23/36",   "25/36",   "13/18",   "7/9",     "90/180",
                                                         "96/180",  "100/180", "104/180", "116/180", "124/180",
                                                         "128/180", "132/180", "135/180", "140/180", "154/180",
                                                         "18/30",   "20/30",   "22/30" };
    static const std::vector<std::string> s2x_short = { "11/45", "4/15", "14/45", "7/15", "8/15", "26/45", "32/45" };
    // EN 302 307-2's VL-SNR codes (t = 12; the medium frames' over GF(2^15) from x^15 + x^5 +
    // x^3 + x^2 + 1), K_bch and N_bch as gr-dtv's dvb_bch_bb has them (qa_dvbs2.py compares every
    // codeword): N_bch is the LDPC's information bits less the shortened ones
    struct vl_row {
        int n;
        const char* rate;
        int kbch, nbch;
    };
    static const vl_row vlsnr[] = { { 64800, "2/9", 14208, 14400 },          { 32400, "1/5", 5660, 5840 },
                                    { 32400, "11/45", 7740, 7920 },          { 32400, "1/3", 10620, 10800 },
                                    { 16200, "1/5-vlsnr", 3072, 3240 },      { 16200, "1/5-vlsnr-sf2", 2512, 2680 },
                                    { 16200, "11/45-vlsnr-sf2", 3792, 3960 }, { 16200, "4/15-vlsnr", 4152, 4320 },
                                    { 16200, "1/3-vlsnr", 5232, 5400 } };
    // the field of each frame size: normal x^16 + x^5 + x^3 + x^2 + 1, medium x^15 + x^5 + x^3 +
    // x^2 + 1, short x^14 + x^5 + x^3 + x + 1
    // (kbch: the standard's K_bch, which the generator's degree must give; 0 where it is not
    // tabulated here)
    auto code = [ldpc_n, &rate](int t, int nbch, int kbch) {
        bch_code c = ldpc_n == 64800   ? bch_code(16, 0x1002d, t, nbch)
                     : ldpc_n == 32400 ? bch_code(15, 0x802d, t, nbch)
                                       : bch_code(14, 0x402b, t, nbch);
        if (kbch && c.k() != kbch)
            throw std::logic_error("BCH: DVB-S2 " + rate + " gives k = " + std::to_string(c.k()) + ", the standard " +
                                   std::to_string(kbch));
        return c;
    };
    for (const vl_row& v : vlsnr)
        if (v.n == ldpc_n && rate == v.rate)
            return code(12, v.nbch, v.kbch);
    const bool normal_frame = ldpc_n == 64800;
    const auto& s2x = normal_frame ? s2x_normal : s2x_short;
    if ((ldpc_n == 64800 || ldpc_n == 16200) && std::find(s2x.begin(), s2x.end(), rate) != s2x.end()) {
        const auto slash = rate.find('/');
        const int nbch = ldpc_n / std::stoi(rate.substr(slash + 1)) * std::stoi(rate.substr(0, slash));
        return code(12, nbch, 0);
    }
    if (ldpc_n == 64800 || ldpc_n == 16200) {
        const row* begin = normal_frame ? normal : short_frames;
        const row* end = normal_frame ? normal + 11 : short_frames + 10;
        for (const row* r = begin; r != end; ++r)
            if (rate == r->rate)
                return code(r->t, r->nbch, r->kbch);
    }
    throw std::invalid_argument("BCH: DVB-S2 has no outer code for n = " + std::to_string(ldpc_n) + " rate " + rate +
                                " (n = 64800: 1/4 .. 9/10 and DVB-S2X's 13/45 .. 154/180 and 2/9; 16200: 1/4 .. 8/9, "
                                "DVB-S2X's 11/45 .. 32/45 and the VL-SNR codes; 32400: 1/5, 11/45, 1/3)");
}

#ifndef GPUFEC_HAVE_CUDA
std::unique_ptr<bch_gpu> make_bch_gpu(const bch_code&, int)
{
    throw std::runtime_error("the GPU BCH decoder needs a build with CUDA");
}
#endif

} // namespace gpufec
