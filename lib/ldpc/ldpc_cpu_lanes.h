/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU LDPC engine's inner loop: layered min-sum over one group of codewords at once,
 * one codeword per SIMD lane (GCC/Clang vector extensions), with the shared fixed-point
 * arithmetic of ldpc_common.h. int16 lanes for int8 messages (posteriors stay below 32767),
 * int32 lanes for int16 messages.
 *
 * Layout: gamma[bit][lane]; one message per edge, lambda[edge][lane], in lanes of VM: V
 * itself, or half its width (int8 for int8 messages, int16 for int16 ones, which they never
 * exceed) widened as they are read, where the messages, most of the memory a group touches,
 * overflow the caches (DVB-S2 64800: 227 thousand edges; ldpc_cpu.cc chooses). A lane whose
 * codeword has stopped (early termination) keeps its values: every update is masked by the
 * lane's activity.
 *
 * Min-sum without the position of the minimum: the first edge at min1 gets min2, and any other
 * edge at min1 means min2 == min1, so "|rho_j| == min1 ? min2 : min1" is the same rule. */
#ifndef INCLUDED_GPUFEC_LDPC_CPU_LANES_H
#define INCLUDED_GPUFEC_LDPC_CPU_LANES_H

#include <gnuradio/gpufec/core/ldpc/ldpc.h>

#include "ldpc_common.h"
#include "../runtime/simd_transpose.h"
#include "../runtime/simd_vectors.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// every vector function here is inlined into its caller, so the ABI of vector arguments
// between instruction sets never applies
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

struct ldpc_group_io {
    const int8_t* soft;   //!< frames x n, positive = bit 1
    int used;             //!< lanes holding a codeword (the others copy the last)
    uint8_t* packed;      //!< frames x ceil(out_bits/8): the first out_bits hard bits
    int out_bits;
    frame_status* res;     //!< frames
    float* post;          //!< frames x n, or null
};

//! rows of this many entries are held in registers (ldpc_row_fixed); others run as loops
constexpr int ldpc_lanes_min_fixed_row = 2, ldpc_lanes_max_fixed_row = 24;

struct ldpc_group_code {
    int n, m;
    const int* row_start;
    const int* row_cols;
    int max_iter;
    bool early_termination;
    ldpc_fixed fx;
    bool loop_rows; //!< a row outside the fixed rows' sizes (its old messages are read zero)
};

//! whether a code has rows that run as loops rather than held in registers
inline bool ldpc_lanes_have_loop_rows(const int* row_start, int m)
{
    for (int r = 0; r < m; ++r) {
        const int d = row_start[r + 1] - row_start[r];
        if (d < ldpc_lanes_min_fixed_row || d > ldpc_lanes_max_fixed_row)
            return true;
    }
    return false;
}

//! the constants of a row update, splatted once a group; short: int8 messages without offset
//! (ldpc_row_norm's short form)
template <class V>
struct ldpc_row_consts {
    V zero, mmax, off, norm, fifteen, big, cap;
    bool short_norm;
};

//! |x| as the larger of x and -x: a subtraction and a maximum, where the select form compiles to
//! a compare, a masked subtraction and a move (GCC, AVX-512); |x| < 32767 here
template <class V>
__attribute__((always_inline)) inline V ldpc_abs(const V& x)
{
    const V minus = -x;
    return x > minus ? x : minus;
}

/*! normalise a row's minimum without overflowing the lane: (m * k) >> 4 = (m >> 4) * k + ((m & 15)
 *  * k >> 4). Short form, where the messages are int8 (mmax 127) and the offset 0: m is held to
 *  cap = 2047 / k first (ldpc_decode_lanes), the largest m whose (m * k) >> 4 is at most 127,
 *  and that one gives 127 itself (k <= 16: cap * k >= 2048 - k >= 2032), so no limit is needed
 *  after the product, which fits the lane (2047 < 32768): three operations instead of nine. */
template <class V>
__attribute__((always_inline)) inline V ldpc_row_norm(const V& m, const ldpc_row_consts<V>& k)
{
    if (k.short_norm)
        return ((m < k.cap ? m : k.cap) * k.norm) >> 4;
    V x = (m >> 4) * k.norm + (((m & k.fifteen) * k.norm) >> 4) - k.off;
    return x < k.zero ? k.zero : (x > k.mmax ? k.mmax : x);
}

/*! One check row of D entries (D known at compile time): rho stays in registers between the two
 *  passes instead of being worked out again from the posteriors (a row of D entries holds D
 *  vectors: up to 24 of AVX-512's 32 registers; its magnitudes are taken again, its old
 *  messages read again from L1). The same arithmetic as the loop in ldpc_decode_lanes (a
 *  row's columns are distinct, so reading them all before writing any changes nothing); a lane
 *  whose codeword is done writes back rho + its old message, its value before. ALL: every lane
 *  is decoding (no early termination, or none has stopped yet), so no lane keeps its values.
 *  The row's sign goes into the two magnitudes once, so that each entry's message takes only
 *  its own rho's sign: -(-m) where both are negative, the same values as (row ^ rho) < 0.
 *  FIRST (with ALL): the first iteration, whose old messages are all zero: none is read (nor
 *  set beforehand: ldpc_decode_lanes). */
template <int D, bool ALL, class V, class VM, bool FIRST = false>
__attribute__((always_inline)) inline void ldpc_row_fixed(V* gamma, VM* lam, const int* cols, const V& active,
                                                          const ldpc_row_consts<V>& k)
{
    // rows of up to 12 entries keep their magnitudes too (2 D of the 32 registers); longer ones
    // take them again in pass 2
    constexpr bool keep_mag = D <= 12;
    V rho[D], mag[keep_mag ? D : 1];
    V min1 = k.big, min2 = k.big, parity = k.zero;
    for (int j = 0; j < D; ++j) {
        if constexpr (FIRST)
            rho[j] = gamma[cols[j]];
        else
            rho[j] = gamma[cols[j]] - __builtin_convertvector(lam[j], V);
        const V a = ldpc_abs(rho[j]);
        if constexpr (keep_mag)
            mag[j] = a;
        parity ^= rho[j]; // (the sign bit is the parity of the negative ones)
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
        if constexpr (ALL) {
            gamma[cols[j]] = rho[j] + msg;
            lam[j] = __builtin_convertvector(msg, VM); // (|msg| <= mmax)
        } else {
            const V keep = active ? msg : __builtin_convertvector(lam[j], V);
            gamma[cols[j]] = rho[j] + keep;
            lam[j] = __builtin_convertvector(keep, VM);
        }
    }
}

/*! gamma = -soft of the group's codewords: 64 bits of every lane at a time where the lanes are
 *  the AVX-512 engine's 32 int16 (simd_transpose_64x32_i16: the eight-byte form below took a
 *  quarter to a third of that engine's time at 10 iterations on a Xeon core), else eight
 *  (simd_transpose_bytes: the byte-by-byte fill had been a fifth of the engine's time), the bits
 *  past the last multiple of 8 one by one */
template <class V, int LANES, class S>
__attribute__((always_inline)) inline void ldpc_load_lanes(const ldpc_group_code& c, const ldpc_group_io& io, V* gamma)
{
    const int n = c.n, whole = n / 8 * 8;
    const int8_t* lane[LANES];
    for (int l = 0; l < LANES; ++l)
        lane[l] = io.soft + size_t(l < io.used ? l : io.used - 1) * n;
    int v = 0;
#if defined(__x86_64__)
    // (i16x32 lanes are the AVX-512 engine's alone: ldpc_cpu.cc runs them where the CPU has it)
    if constexpr (std::is_same<S, int16_t>::value && LANES == 32) // (V is i16x32)
        for (; v + 64 <= n; v += 64)
            simd_transpose_64x32_i16(lane, size_t(v), gamma + v, true);
#endif
    for (; v < whole; v += 8) {
        simd_transpose_bytes<V, LANES>(lane, size_t(v), gamma + v);
        for (int k = 0; k < 8; ++k)
            gamma[v + k] = -gamma[v + k];
    }
    for (int b = whole; b < n; ++b)
        for (int l = 0; l < LANES; ++l)
            gamma[b][l] = S(-int(lane[l][b]));
}

/*! The leading out_bits hard decisions of each used lane, packed MSB first: a byte of every lane
 *  from eight compares of whole vectors, then one store a lane */
template <class V, int LANES, class S>
__attribute__((always_inline)) inline void ldpc_store_lanes(const ldpc_group_io& io, const V* gamma)
{
    const size_t nbytes = size_t(io.out_bits + 7) / 8;
    const V zero{};
    for (size_t b = 0; b < nbytes; ++b) {
        V byte{};
        for (int i = 0; i < 8; ++i) {
            const int v = int(b) * 8 + i;
            // (a named mask: GCC's shift sanitizer turns an inline cast of a shift back into
            // int, which a vector operand refuses)
            const S bit = S(0x80 >> i);
            if (v < io.out_bits)
                byte |= (gamma[v] < zero) & (zero + bit);
        }
        for (int l = 0; l < io.used; ++l)
            io.packed[size_t(l) * nbytes + b] = uint8_t(byte[l]);
    }
}

template <class V, int LANES, class S, class VM>
__attribute__((always_inline)) inline void
ldpc_decode_lanes(const ldpc_group_code& c, const ldpc_group_io& io, V* gamma, VM* lambda)
{
    const int n = c.n;
    ldpc_load_lanes<V, LANES, S>(c, io, gamma);
    // the first iteration's fixed rows read no old message (FIRST); loop rows read them zero
    // (memset: 467 KB a group of 32 codewords of 802.16e 2304, about 4 % of its time)
    const bool loop_rows = c.loop_rows;
    if (loop_rows)
        for (int e = 0; e < c.row_start[c.m]; ++e)
            lambda[e] = VM{};
    const V zero{}, ones = zero == zero;
    const V mmax = simd_splat<V, LANES, S>(S(c.fx.mmax)), off = simd_splat<V, LANES, S>(S(c.fx.offset)),
            norm = simd_splat<V, LANES, S>(S(c.fx.norm16)), fifteen = simd_splat<V, LANES, S>(S(15));
    const V big = simd_splat<V, LANES, S>(S(sizeof(S) == 2 ? 0x7fff : 0x7fffffff));
    const V cap = simd_splat<V, LANES, S>(S(2047 / std::max(c.fx.norm16, 1))); // (ldpc_row_norm)
    const ldpc_row_consts<V> k{ zero, mmax, off, norm, fifteen, big, cap, c.fx.mmax == 127 && c.fx.offset == 0 };
    V active = ones; // -1 while the lane's codeword is decoding
    V iters = zero, ok = zero;
    for (int it = 1; it <= c.max_iter; ++it) {
        bool all = true; // every lane decoding: the rows skip the lanes' masks
        for (int l = 0; l < LANES; ++l)
            all &= active[l] != 0;
        const bool first = it == 1 && !loop_rows; // (every lane decodes)
        for (int r = 0; r < c.m; ++r) {
            const int e0 = c.row_start[r], d = c.row_start[r + 1] - e0;
            const int* cols = c.row_cols + e0;
            // rows of up to 24 entries (ldpc_lanes_max_fixed_row: every standard code but DVB-S2's
            // highest rates) held in registers; longer rows as the loop below
            switch (d) {
#define GPUFEC_LDPC_ROW(D)                                                                          \
    case D:                                                                                         \
        if (first)                                                                                  \
            ldpc_row_fixed<D, true, V, VM, true>(gamma, lambda + e0, cols, active, k);              \
        else if (all)                                                                               \
            ldpc_row_fixed<D, true, V, VM>(gamma, lambda + e0, cols, active, k);                    \
        else                                                                                        \
            ldpc_row_fixed<D, false, V, VM>(gamma, lambda + e0, cols, active, k);                   \
        continue;
                GPUFEC_LDPC_ROW(2) GPUFEC_LDPC_ROW(3) GPUFEC_LDPC_ROW(4) GPUFEC_LDPC_ROW(5) GPUFEC_LDPC_ROW(6)
                GPUFEC_LDPC_ROW(7) GPUFEC_LDPC_ROW(8) GPUFEC_LDPC_ROW(9) GPUFEC_LDPC_ROW(10) GPUFEC_LDPC_ROW(11)
                GPUFEC_LDPC_ROW(12) GPUFEC_LDPC_ROW(13) GPUFEC_LDPC_ROW(14) GPUFEC_LDPC_ROW(15)
                GPUFEC_LDPC_ROW(16) GPUFEC_LDPC_ROW(17) GPUFEC_LDPC_ROW(18) GPUFEC_LDPC_ROW(19)
                GPUFEC_LDPC_ROW(20) GPUFEC_LDPC_ROW(21) GPUFEC_LDPC_ROW(22) GPUFEC_LDPC_ROW(23)
                GPUFEC_LDPC_ROW(24)
#undef GPUFEC_LDPC_ROW
            default:
                break;
            }
            V min1 = big, min2 = big, parity = zero;
            for (int j = 0; j < d; ++j) {
                const V rho = gamma[cols[j]] - __builtin_convertvector(lambda[e0 + j], V);
                const V neg = rho < zero;
                const V mag = ldpc_abs(rho);
                parity ^= neg;
                const V hi = mag > min1 ? mag : min1;
                min2 = hi < min2 ? hi : min2;
                min1 = mag < min1 ? mag : min1;
            }
            const V n1 = ldpc_row_norm(min1, k), n2 = ldpc_row_norm(min2, k);
            for (int j = 0; j < d; ++j) {
                V& g = gamma[cols[j]];
                const V lam = __builtin_convertvector(lambda[e0 + j], V);
                const V rho = g - lam;
                const V neg = rho < zero;
                const V mag = ldpc_abs(rho);
                const V m = mag == min1 ? n2 : n1;
                const V msg = (parity ^ neg) ? -m : m;
                g = active ? rho + msg : g;
                lambda[e0 + j] = __builtin_convertvector(active ? msg : lam, VM); // (|msg| <= mmax)
            }
        }
        if (c.early_termination || it == c.max_iter) {
            // a row fails where an odd number of its bits decide 1: the sign bit of the XOR of
            // their posteriors (one operation a bit, no compare)
            V bad = zero;
            for (int r = 0; r < c.m; ++r) {
                V x = zero;
                for (int e = c.row_start[r]; e < c.row_start[r + 1]; ++e)
                    x ^= gamma[c.row_cols[e]];
                bad |= x;
            }
            bad = bad < zero;
            iters = active ? simd_splat<V, LANES, S>(S(it)) : iters;
            ok = active ? ~bad : ok;
            if (c.early_termination)
                active &= bad;
        } else {
            iters = active ? simd_splat<V, LANES, S>(S(it)) : iters;
        }
        bool any = false;
        for (int l = 0; l < io.used; ++l)
            any |= active[l] != 0;
        if (!any)
            break;
    }
    ldpc_store_lanes<V, LANES, S>(io, gamma);
    for (int l = 0; l < io.used; ++l) {
        io.res[l] = frame_status{ int32_t(iters[l]), int8_t(ok[l] != 0), 0 };
        if (io.post)
            for (int v = 0; v < n; ++v)
                io.post[size_t(l) * n + v] = -float(gamma[v][l]);
    }
}

} // namespace gpufec

#pragma GCC diagnostic pop

#endif
