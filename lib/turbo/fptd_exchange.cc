/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fptd_exchange.h"

#include <stdexcept>
#include <string>

namespace gpufec {

std::vector<uint32_t> fptd_exchange_plan::packed() const
{
    std::vector<uint32_t> all(send_slot);
    all.insert(all.end(), send_to.begin(), send_to.end());
    all.insert(all.end(), read_at.begin(), read_at.end());
    return all;
}

fptd_exchange_plan make_fptd_exchange_plan(const std::vector<uint32_t>& pi, const std::vector<uint32_t>& inv,
                                           int C, int L)
{
    const size_t K = pi.size();
    if (inv.size() != K || K == 0 || C < 1 || L < 2 || L % 2 || L >= 65536 || C >= 65536 ||
        size_t(C) * size_t(L) < K || size_t(C - 1) * size_t(L) >= K)
        throw std::invalid_argument("fptd exchange: " + std::to_string(C) + " blocks of " + std::to_string(L) +
                                    " stages do not hold K = " + std::to_string(K));
    fptd_exchange_plan p;
    p.K = int(K), p.C = C, p.L = L;
    p.send_slot.assign(2 * K, 0);
    p.send_to.assign(2 * size_t(C) * size_t(L), 0);
    p.read_at.assign(2 * K, 0);
    const size_t CC = size_t(C) * size_t(C);
    for (int P = 0; P < 2; ++P) {
        // stage i runs the upper code when i + P is even: its value goes to inv[i], else to pi[i]
        const auto dest = [&](size_t i) { return size_t((i + size_t(P)) % 2 == 0 ? inv[i] : pi[i]); };
        std::vector<uint32_t> count(CC, 0), seen(K, 0); // count[b C + tb]: values from block b to tb
        for (size_t i = 0; i < K; ++i) {
            const size_t j = dest(i);
            if (j >= K || (j ^ i) & 1 || seen[j]++)
                throw std::invalid_argument("fptd exchange: the interleaver does not keep the parity of "
                                            "its stages (the FPTD's odd-even halves need it)");
            ++count[i / size_t(L) * size_t(C) + j / size_t(L)];
        }
        // block b's send buffer: its values grouped by destination block, in stage order; block
        // tb's receive row: the values grouped by sending block, in the same order
        std::vector<uint32_t> send_off(CC), recv_off(CC), fill(CC, 0);
        for (size_t b = 0; b < size_t(C); ++b)
            for (size_t tb = 0, acc = 0; tb < size_t(C); acc += count[b * C + tb], ++tb)
                send_off[b * C + tb] = uint32_t(acc);
        for (size_t tb = 0; tb < size_t(C); ++tb)
            for (size_t b = 0, acc = 0; b < size_t(C); acc += count[b * C + tb], ++b)
                recv_off[tb * C + b] = uint32_t(acc);
        for (size_t i = 0; i < K; ++i) {
            const size_t b = i / size_t(L), j = dest(i), tb = j / size_t(L);
            const uint32_t k = fill[b * C + tb]++;
            const uint32_t slot = send_off[b * C + tb] + k, pos = recv_off[tb * C + b] + k;
            p.send_slot[size_t(P) * K + i] = slot;
            p.send_to[(size_t(P) * size_t(C) + b) * size_t(L) + slot] = uint32_t(tb) << 16 | pos;
            p.read_at[size_t(1 - P) * K + j] = pos; // sent in parity P, read in the half after
        }
    }
    return p;
}

} // namespace gpufec
