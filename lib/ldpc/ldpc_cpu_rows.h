/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU LDPC engine's other form, for large quasi-cyclic codes: one codeword at a time,
 * the rows of a layer in the SIMD lanes (L consecutive rows of the z in a block row), with the
 * arithmetic of ldpc_cpu_lanes.h (ldpc_common.h's, bit for bit: a layer's rows touch distinct
 * bits, so the order they are taken in changes nothing).
 *
 * Why: the lanes form keeps a group of L codewords' posteriors and messages, which for 5G NR
 * BG1 at Z = 384 is 9.4 MB (AVX-512), far past a core's L2 cache, so every edge update waits on
 * L3. One codeword here is 57 KB of posteriors and 243 KB of messages.
 *
 * Layout: block column b's z posteriors at g[b * (z + L) ...], followed by a copy of its first L
 * (the tail), so that the L rows r0 .. r0 + L - 1 of a circulant of shift s read and write their
 * bits (r0 + s) mod z .. as one unaligned vector, the one that crosses the column's end through the
 * tail. After a layer, each of its columns takes back what was written through the tail: with t
 * = s mod L, the tail's first t values are the new ones, the head's others; both copies then get
 * the merged vector. Messages: layer l's chunk c of rows, entry j, one vector at lam[(first entry
 * of l) * z / L + c * d + j]. Codes: one circulant a block, none missing, z a multiple of L, rows
 * of 2 .. 24 entries (ldpc_rows_form_applies). */
#ifndef INCLUDED_GPUFEC_LDPC_CPU_ROWS_H
#define INCLUDED_GPUFEC_LDPC_CPU_ROWS_H

#include "ldpc_cpu_lanes.h"

#include <cstring>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

//! a QC code layer by layer as the rows form reads it
struct ldpc_rows_code {
    int n = 0, z = 0, nb = 0, mb = 0;
    std::vector<int> layer_start; //!< layer l: entries layer_start[l] .. [l + 1]
    std::vector<int> col, shift;  //!< entry e: block column, shift mod z
    int max_iter = 0;
    bool early_termination = false;
    ldpc_fixed fx{};
};

//! whether the rows form can decode `code` with `lanes` rows a vector, and its layers if so
inline bool ldpc_rows_form_applies(const ldpc_code& code, int lanes, ldpc_rows_code* out = nullptr)
{
    const int z = code.z();
    if (code.circulants().empty() || z < lanes || z % lanes != 0 || code.n() != code.nb() * z)
        return false;
    ldpc_rows_code c;
    c.n = code.n();
    c.z = z;
    c.nb = code.nb();
    c.mb = code.mb();
    c.layer_start.assign(size_t(c.mb) + 1, 0);
    for (const auto& q : code.circulants()) {
        if (q.missing >= 0 || q.row < 0 || q.row >= c.mb)
            return false;
        ++c.layer_start[size_t(q.row) + 1];
    }
    for (int l = 0; l < c.mb; ++l) {
        if (code.row_stride(l) != 1)
            return false;
        const int d = c.layer_start[size_t(l) + 1];
        if (d < ldpc_lanes_min_fixed_row || d > ldpc_lanes_max_fixed_row)
            return false;
        c.layer_start[size_t(l) + 1] += c.layer_start[size_t(l)];
    }
    // (circulants() is ordered by block row: each layer's entries in turn)
    for (const auto& q : code.circulants()) {
        c.col.push_back(q.col);
        c.shift.push_back(((q.shift % z) + z) % z);
    }
    if (out)
        *out = std::move(c);
    return true;
}

//! scratch bytes for one codeword, L rows a vector of lanes of lane_bytes: the posteriors with
//! their tails, then (from a multiple of 64 bytes) the messages, and 64 bytes to align the start
inline size_t ldpc_rows_scratch_bytes(const ldpc_rows_code& c, int L, size_t lane_bytes)
{
    const size_t post = size_t(c.nb) * size_t(c.z + L) * lane_bytes;
    return (post + 63) / 64 * 64 + size_t(c.layer_start[size_t(c.mb)]) * size_t(c.z) * lane_bytes + 64;
}

template <class V>
__attribute__((always_inline)) inline V ldpc_rows_load(const void* p)
{
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
}
template <class V>
__attribute__((always_inline)) inline void ldpc_rows_store(void* p, const V& v)
{
    std::memcpy(p, &v, sizeof(V));
}

/*! One chunk of L rows of a layer whose rows have D entries: ldpc_row_fixed's update (ALL: one
 *  codeword, every lane decodes), entry j's posteriors at at[j] (unaligned), its messages lam[j].
 *  FIRST: the first iteration, whose old messages are zero and not read. */
template <int D, bool FIRST, class V, class S>
__attribute__((always_inline)) inline void ldpc_rows_chunk(S* const* at, V* lam, const ldpc_row_consts<V>& k)
{
    constexpr bool keep_mag = D <= 12;
    V rho[D], mag[keep_mag ? D : 1];
    V min1 = k.big, min2 = k.big, parity = k.zero;
    for (int j = 0; j < D; ++j) {
        const V g = ldpc_rows_load<V>(at[j]);
        if constexpr (FIRST)
            rho[j] = g;
        else
            rho[j] = g - lam[j];
        const V a = ldpc_abs(rho[j]);
        if constexpr (keep_mag)
            mag[j] = a;
        parity ^= rho[j];
        const V hi = a > min1 ? a : min1;
        min2 = hi < min2 ? hi : min2;
        min1 = a < min1 ? a : min1;
    }
    const V n1 = ldpc_row_norm(min1, k), n2 = ldpc_row_norm(min2, k);
    const V row_negative = parity < k.zero;
    const V s1 = row_negative ? -n1 : n1, s2 = row_negative ? -n2 : n2;
    for (int j = 0; j < D; ++j) {
        const V m = (keep_mag ? mag[keep_mag ? j : 0] : ldpc_abs(rho[j])) == min1 ? s2 : s1;
        const V msg = rho[j] < k.zero ? -m : m;
        ldpc_rows_store<V>(at[j], rho[j] + msg);
        lam[j] = msg;
    }
}

/*! Decode one codeword (soft: its n values, positive = 1) in the rows form: the packed leading
 *  out_bits hard decisions, its status, and (post not null) its n posteriors */
template <class V, int L, class S>
__attribute__((always_inline)) inline void ldpc_decode_rows(const ldpc_rows_code& c, const int8_t* soft,
                                                            uint8_t* packed, int out_bits, frame_status* res,
                                                            float* post, void* scratch)
{
    const int z = c.z, zs = z + L, chunks = z / L;
    S* g = static_cast<S*>(scratch);
    const size_t post_bytes = (size_t(c.nb) * size_t(zs) * sizeof(S) + 63) / 64 * 64;
    V* lam = reinterpret_cast<V*>(static_cast<unsigned char*>(scratch) + post_bytes);
    for (int b = 0; b < c.nb; ++b) {
        S* col = g + size_t(b) * zs;
        const int8_t* in = soft + size_t(b) * z;
        for (int i = 0; i < z; ++i)
            col[i] = S(-int(in[i]));
        for (int i = 0; i < L; ++i)
            col[z + i] = col[i];
    }
    const V zero{};
    const V mmax = simd_splat<V, L, S>(S(c.fx.mmax)), off = simd_splat<V, L, S>(S(c.fx.offset)),
            norm = simd_splat<V, L, S>(S(c.fx.norm16)), fifteen = simd_splat<V, L, S>(S(15));
    const V big = simd_splat<V, L, S>(S(sizeof(S) == 2 ? 0x7fff : 0x7fffffff));
    const V cap = simd_splat<V, L, S>(S(2047 / std::max(c.fx.norm16, 1)));
    const ldpc_row_consts<V> k{ zero, mmax, off, norm, fifteen, big, cap, c.fx.mmax == 127 && c.fx.offset == 0 };
    V iota{};
    for (int i = 0; i < L; ++i)
        iota[i] = S(i);

    int iterations = 0;
    bool ok = false;
    S* at[ldpc_lanes_max_fixed_row];
    for (int it = 1; it <= c.max_iter; ++it) {
        const bool first = it == 1;
        for (int l = 0; l < c.mb; ++l) {
            const int e0 = c.layer_start[size_t(l)], d = c.layer_start[size_t(l) + 1] - e0;
            for (int ch = 0; ch < chunks; ++ch) {
                for (int j = 0; j < d; ++j) {
                    int p = c.shift[size_t(e0 + j)] + ch * L;
                    p = p >= z ? p - z : p;
                    at[j] = g + size_t(c.col[size_t(e0 + j)]) * zs + p;
                }
                V* lm = lam + size_t(e0) * chunks + size_t(ch) * d;
                switch (d) {
#define GPUFEC_LDPC_ROWS(D)                                                                         \
    case D:                                                                                         \
        if (first)                                                                                  \
            ldpc_rows_chunk<D, true, V, S>(at, lm, k);                                              \
        else                                                                                        \
            ldpc_rows_chunk<D, false, V, S>(at, lm, k);                                             \
        break;
                    GPUFEC_LDPC_ROWS(2) GPUFEC_LDPC_ROWS(3) GPUFEC_LDPC_ROWS(4) GPUFEC_LDPC_ROWS(5)
                    GPUFEC_LDPC_ROWS(6) GPUFEC_LDPC_ROWS(7) GPUFEC_LDPC_ROWS(8) GPUFEC_LDPC_ROWS(9)
                    GPUFEC_LDPC_ROWS(10) GPUFEC_LDPC_ROWS(11) GPUFEC_LDPC_ROWS(12) GPUFEC_LDPC_ROWS(13)
                    GPUFEC_LDPC_ROWS(14) GPUFEC_LDPC_ROWS(15) GPUFEC_LDPC_ROWS(16) GPUFEC_LDPC_ROWS(17)
                    GPUFEC_LDPC_ROWS(18) GPUFEC_LDPC_ROWS(19) GPUFEC_LDPC_ROWS(20) GPUFEC_LDPC_ROWS(21)
                    GPUFEC_LDPC_ROWS(22) GPUFEC_LDPC_ROWS(23) GPUFEC_LDPC_ROWS(24)
#undef GPUFEC_LDPC_ROWS
                default:
                    break; // (ldpc_rows_form_applies admits no other degree)
                }
            }
            // each column of the layer: what went through its tail back to its head, and the head's
            // other values to the tail
            for (int j = 0; j < d; ++j) {
                S* head = g + size_t(c.col[size_t(e0 + j)]) * zs;
                const V t = simd_splat<V, L, S>(S(c.shift[size_t(e0 + j)] % L));
                const V merged = iota < t ? ldpc_rows_load<V>(head + z) : ldpc_rows_load<V>(head);
                ldpc_rows_store<V>(head, merged);
                ldpc_rows_store<V>(head + z, merged);
            }
        }
        iterations = it;
        if (c.early_termination || it == c.max_iter) {
            // a row fails where an odd number of its bits decide 1 (the sign of their XOR)
            V bad = zero;
            for (int l = 0; l < c.mb; ++l) {
                const int e0 = c.layer_start[size_t(l)], d = c.layer_start[size_t(l) + 1] - e0;
                for (int ch = 0; ch < chunks; ++ch) {
                    V x = zero;
                    for (int j = 0; j < d; ++j) {
                        int p = c.shift[size_t(e0 + j)] + ch * L;
                        p = p >= z ? p - z : p;
                        x ^= ldpc_rows_load<V>(g + size_t(c.col[size_t(e0 + j)]) * zs + p);
                    }
                    bad |= x;
                }
            }
            bad = bad < zero;
            bool any = false;
            for (int i = 0; i < L; ++i)
                any |= bad[i] != 0;
            ok = !any;
            if (c.early_termination && ok)
                break;
        }
    }
    // the results column by column (a division a bit had taken a third of the decoder's time)
    std::memset(packed, 0, size_t(out_bits + 7) / 8);
    for (int b = 0, v0 = 0; v0 < out_bits; ++b, v0 += z) {
        const S* col = g + size_t(b) * zs;
        const int len = std::min(z, out_bits - v0);
        for (int i = 0; i < len; ++i)
            packed[(v0 + i) >> 3] |= uint8_t((col[i] < 0 ? 0x80u : 0u) >> ((v0 + i) & 7));
    }
    *res = frame_status{ int32_t(iterations), int8_t(ok), 0 };
    if (post)
        for (int b = 0; b < c.nb; ++b)
            for (int i = 0; i < z; ++i)
                post[size_t(b) * z + i] = -float(g[size_t(b) * zs + i]);
}

} // namespace gpufec

#pragma GCC diagnostic pop

#endif
