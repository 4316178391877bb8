/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The GPU FPTD's exchange plan (fptd_exchange.h): every extrinsic value reaches the stage that
 * reads it, no two share a slot or a position, and consecutive slots of a block that go to one
 * block land at consecutive positions there (what makes the remote stores coalesce). */
#include <gnuradio/gpufec/core/codes/interleaver.h>

#include "fptd_exchange.h"
#include <gtest/gtest.h>
#include <algorithm>

namespace gpufec {
namespace {

void check_plan(const interleaver& il, int C, int L)
{
    const std::vector<uint32_t>& pi = il.permutation();
    const std::vector<uint32_t>& inv = il.inverse();
    const fptd_exchange_plan p = make_fptd_exchange_plan(pi, inv, C, L);
    const size_t K = pi.size();
    ASSERT_EQ(p.packed().size(), 4 * K + 2 * size_t(C) * size_t(L));
    const auto stages_in = [&](size_t b) { return std::min(size_t(L), K - b * size_t(L)); };
    for (int P = 0; P < 2; ++P) {
        std::vector<int> slot_used(size_t(C) * size_t(L), 0), pos_used(size_t(C) * size_t(L), 0);
        for (size_t i = 0; i < K; ++i) {
            const size_t b = i / size_t(L), j = (i + size_t(P)) % 2 == 0 ? inv[i] : pi[i], tb = j / size_t(L);
            const uint32_t slot = p.send_slot[size_t(P) * K + i];
            ASSERT_LT(slot, stages_in(b)) << "K " << K << " P " << P << " i " << i;
            ASSERT_EQ(slot_used[b * size_t(L) + slot]++, 0) << "two stages in one slot, K " << K << " i " << i;
            const uint32_t to = p.send_to[(size_t(P) * size_t(C) + b) * size_t(L) + slot];
            ASSERT_EQ(to >> 16, tb) << "K " << K << " i " << i;
            const uint32_t pos = to & 0xFFFFu;
            ASSERT_LT(pos, stages_in(tb));
            ASSERT_EQ(pos_used[tb * size_t(L) + pos]++, 0) << "two values at one position, K " << K << " j " << j;
            // stage j reads it in the next half, of the other parity
            ASSERT_EQ(p.read_at[size_t(1 - P) * K + j], pos) << "K " << K << " j " << j;
        }
        // a block's slots to one block are a run whose positions are a run too
        for (size_t b = 0; b < size_t(C); ++b)
            for (size_t q = 1; q < stages_in(b); ++q) {
                const uint32_t a = p.send_to[(size_t(P) * size_t(C) + b) * size_t(L) + q - 1];
                const uint32_t c = p.send_to[(size_t(P) * size_t(C) + b) * size_t(L) + q];
                if (a >> 16 == c >> 16)
                    ASSERT_EQ((c & 0xFFFFu), (a & 0xFFFFu) + 1) << "K " << K << " block " << b << " slot " << q;
                else
                    ASSERT_GT(c >> 16, a >> 16) << "destinations out of order, K " << K;
            }
    }
}

TEST(fptd_exchange, every_value_reaches_its_reader_for_all_lte_sizes)
{
    for (int K : interleaver::lte_sizes()) {
        const interleaver il = interleaver::lte_qpp(K);
        // as the GPU engine chooses first (blocks of about 128 stages or more, up to 16), and
        // fewer blocks, as it falls back to on a GPU that runs no cluster of that size
        const int first = std::min(16, (K + 127) / 128);
        for (int C : { first, first / 2, 2 }) {
            if (C < 2)
                continue;
            const int L = 8 * ((K + 8 * C - 1) / (8 * C));
            if ((C - 1) * L >= K)
                continue; // a block would have no stage (the engine tries the next size)
            check_plan(il, C, L);
            if (HasFatalFailure())
                return;
        }
    }
}

TEST(fptd_exchange, refuses_what_the_fptd_cannot_run)
{
    const interleaver il = interleaver::lte_qpp(1024);
    EXPECT_THROW(make_fptd_exchange_plan(il.permutation(), il.inverse(), 4, 128), std::invalid_argument); // 512 < K
    EXPECT_THROW(make_fptd_exchange_plan(il.permutation(), il.inverse(), 8, 256), std::invalid_argument); // empty blocks
    EXPECT_THROW(make_fptd_exchange_plan(il.permutation(), il.inverse(), 8, 127), std::invalid_argument); // odd L
    // a permutation that does not keep the parity of its stages (a shift by one)
    std::vector<uint32_t> pi(16), inv(16);
    for (uint32_t i = 0; i < 16; ++i)
        pi[i] = (i + 1) % 16, inv[(i + 1) % 16] = i;
    EXPECT_THROW(make_fptd_exchange_plan(pi, inv, 2, 8), std::invalid_argument);
    for (uint32_t i = 0; i < 16; ++i) // a shift by two keeps it
        pi[i] = (i + 2) % 16, inv[(i + 2) % 16] = i;
    EXPECT_NO_THROW(make_fptd_exchange_plan(pi, inv, 2, 8));
}

} // namespace
} // namespace gpufec
