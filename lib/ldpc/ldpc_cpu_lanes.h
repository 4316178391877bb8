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
#include "../runtime/simd_vectors.h"
#include <cstddef>
#include <cstdint>

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

struct ldpc_group_code {
    int n, m;
    const int* row_start;
    const int* row_cols;
    int max_iter;
    bool early_termination;
    ldpc_fixed fx;
};

template <class V, int LANES, class S, class VM>
__attribute__((always_inline)) inline void
ldpc_decode_lanes(const ldpc_group_code& c, const ldpc_group_io& io, V* gamma, VM* lambda)
{
    const int n = c.n;
    for (int v = 0; v < n; ++v)
        for (int l = 0; l < LANES; ++l)
            gamma[v][l] = S(-int(io.soft[size_t(l < io.used ? l : io.used - 1) * n + v]));
    const int edges = c.row_start[c.m];
    for (int e = 0; e < edges; ++e)
        lambda[e] = VM{};
    const V zero{}, ones = zero == zero;
    const V mmax = simd_splat<V, LANES, S>(S(c.fx.mmax)), off = simd_splat<V, LANES, S>(S(c.fx.offset)),
            norm = simd_splat<V, LANES, S>(S(c.fx.norm16)), fifteen = simd_splat<V, LANES, S>(S(15));
    const V big = simd_splat<V, LANES, S>(S(sizeof(S) == 2 ? 0x7fff : 0x7fffffff));
    V active = ones; // -1 while the lane's codeword is decoding
    V iters = zero, ok = zero;
    for (int it = 1; it <= c.max_iter; ++it) {
        for (int r = 0; r < c.m; ++r) {
            const int e0 = c.row_start[r], d = c.row_start[r + 1] - e0;
            const int* cols = c.row_cols + e0;
            V min1 = big, min2 = big, parity = zero;
            for (int j = 0; j < d; ++j) {
                const V rho = gamma[cols[j]] - __builtin_convertvector(lambda[e0 + j], V);
                const V neg = rho < zero;
                const V mag = neg ? -rho : rho;
                parity ^= neg;
                const V hi = mag > min1 ? mag : min1;
                min2 = hi < min2 ? hi : min2;
                min1 = mag < min1 ? mag : min1;
            }
            // normalise without overflowing the lane: (m * k) >> 4 = (m >> 4) * k + ((m & 15) * k >> 4)
            V n1 = (min1 >> 4) * norm + (((min1 & fifteen) * norm) >> 4) - off;
            V n2 = (min2 >> 4) * norm + (((min2 & fifteen) * norm) >> 4) - off;
            n1 = n1 < zero ? zero : (n1 > mmax ? mmax : n1);
            n2 = n2 < zero ? zero : (n2 > mmax ? mmax : n2);
            for (int j = 0; j < d; ++j) {
                V& g = gamma[cols[j]];
                const V lam = __builtin_convertvector(lambda[e0 + j], V);
                const V rho = g - lam;
                const V neg = rho < zero;
                const V mag = neg ? -rho : rho;
                const V m = mag == min1 ? n2 : n1;
                const V msg = (parity ^ neg) ? -m : m;
                g = active ? rho + msg : g;
                lambda[e0 + j] = __builtin_convertvector(active ? msg : lam, VM); // (|msg| <= mmax)
            }
        }
        if (c.early_termination || it == c.max_iter) {
            V bad = zero;
            for (int r = 0; r < c.m; ++r) {
                V x = zero;
                for (int e = c.row_start[r]; e < c.row_start[r + 1]; ++e)
                    x ^= gamma[c.row_cols[e]] < zero;
                bad |= x;
            }
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
    const size_t nbytes = size_t(io.out_bits + 7) / 8;
    for (int l = 0; l < io.used; ++l) {
        uint8_t* o = io.packed + size_t(l) * nbytes;
        for (size_t b = 0; b < nbytes; ++b)
            o[b] = 0;
        for (int v = 0; v < io.out_bits; ++v)
            if (gamma[v][l] < 0)
                o[v / 8] |= uint8_t(0x80u >> (v % 8));
        io.res[l] = frame_status{ int32_t(iters[l]), int8_t(ok[l] != 0), 0 };
        if (io.post)
            for (int v = 0; v < n; ++v)
                io.post[size_t(l) * n + v] = -float(gamma[v][l]);
    }
}

} // namespace gpufec

#pragma GCC diagnostic pop

#endif
