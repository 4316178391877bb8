/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gtest/gtest.h>
#include "ldpc_load_plan.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

using namespace gpufec;

namespace {

//! bit v of the codeword is sent value from[v]: DVB-S2's columns in the order sent
std::vector<int32_t> sent_positions(const ldpc_code& c)
{
    std::vector<int32_t> from(size_t(c.n()));
    for (size_t i = 0; i < c.send_order().size(); ++i)
        from[size_t(c.send_order()[i])] = int32_t(i);
    return from;
}

/* The chain kernel's load by the plan, on the host: each bit's sent value as the kernel finds
 * it (a run's 8-byte piece read from the boundary below its first value, the next 8 bytes too
 * where that is not on a boundary), and whether every piece lay within the frame. */
struct emulated {
    std::vector<int32_t> read;
    bool pieces_inside = true;
    int run_columns = 0, straight_columns = 0;
};

emulated emulate(const std::vector<int32_t>& from, const std::vector<int32_t>& plan, int z, int nb, int frame)
{
    emulated e;
    e.read.assign(from.size(), -1000);
    for (int b0 = 0; b0 < nb; b0 += 8) {
        const int32_t group = plan[size_t(nb + b0 / 8)];
        const int lo = load_plan_lo(group), count = load_plan_count(group);
        for (int i = 0; i < 8 && b0 + i < nb; ++i) {
            const int b = b0 + i;
            const bool in_run = i >= lo && i < lo + count;
            e.run_columns += in_run;
            e.straight_columns += !in_run && plan[size_t(b)] >= 0;
            for (int u = 0; u < z; ++u) {
                const size_t v = size_t(b) * size_t(z) + size_t(u);
                if (in_run) {
                    const int f = from[size_t(b0 + lo) * size_t(z) + size_t(u)];
                    const int start = f & ~7, end = start + (f % 8 ? 16 : 8);
                    e.pieces_inside &= f >= 0 && end <= frame && f + count <= end;
                    e.read[v] = f + (i - lo);
                } else {
                    e.read[v] = plan[size_t(b)] >= 0 ? plan[size_t(b)] + u : from[v];
                }
            }
        }
    }
    return e;
}

} // namespace

TEST(ldpc_load_plan, dvbs2_parity_read_as_runs_and_every_bit_where_the_table_says)
{
    // DVB-S2's information columns are straight (bit u of column b sent at b Z + u) and its
    // parity columns runs (bit u of parity column c sent at K + u q + c): the plan reads each
    // bit from the value the table names, and all but a group's leftover parity columns in runs
    struct one {
        const char* id;
        int min_run_columns;
    };
    for (const one& x : { one{ "dvbs2:64800:1/2", 80 }, one{ "dvbs2:64800:2/3", 50 }, one{ "dvbs2:16200:1/2", 20 },
                          one{ "dvbs2:64800:9/10", 5 } }) {
        const ldpc_code c = ldpc_code::standard(x.id);
        const int z = c.z(), nb = c.n() / z, kb = c.k() / z;
        const auto from = sent_positions(c);
        const auto plan = ldpc_load_plan(from, z, nb, c.n());
        ASSERT_EQ(plan.size(), size_t(nb + (nb + 7) / 8)) << x.id;
        for (int b = 0; b < kb; ++b)
            EXPECT_EQ(plan[size_t(b)], b * z) << x.id << " column " << b;
        const auto e = emulate(from, plan, z, nb, c.n());
        EXPECT_EQ(e.read, from) << x.id;
        EXPECT_TRUE(e.pieces_inside) << x.id;
        EXPECT_EQ(e.straight_columns, kb) << x.id;
        EXPECT_GE(e.run_columns, x.min_run_columns) << x.id;
        EXPECT_LE(e.run_columns, nb - kb) << x.id;
    }
}

TEST(ldpc_load_plan, other_orders_are_read_through_the_table)
{
    const int z = 16, nb = 12, n = z * nb;
    // a shuffled order: no column straight, no run
    std::vector<int32_t> from(static_cast<size_t>(n));
    std::iota(from.begin(), from.end(), 0);
    std::shuffle(from.begin(), from.end(), std::mt19937(7));
    auto plan = ldpc_load_plan(from, z, nb, n);
    auto e = emulate(from, plan, z, nb, n);
    EXPECT_EQ(e.read, from);
    EXPECT_EQ(e.run_columns + e.straight_columns, 0);

    // runs across columns, but frames that do not start on 8-byte boundaries: no run
    std::vector<int32_t> across(static_cast<size_t>(n));
    for (int b = 0; b < nb; ++b)
        for (int u = 0; u < z; ++u)
            across[size_t(b * z + u)] = u * nb + b;
    plan = ldpc_load_plan(across, z, nb, n + 4);
    e = emulate(across, plan, z, nb, n + 4);
    EXPECT_EQ(e.read, across);
    EXPECT_EQ(e.run_columns, 0);
    // the same on boundaries: runs, and the last group's pieces stay in the frame
    plan = ldpc_load_plan(across, z, nb, n);
    e = emulate(across, plan, z, nb, n);
    EXPECT_EQ(e.read, across);
    EXPECT_TRUE(e.pieces_inside);
    EXPECT_GE(e.run_columns, 8);

    // fills (erased, known) and a column of them between runs: read through the table
    for (int u = 0; u < z; ++u)
        across[size_t(3 * z + u)] = -1 - (u % 2);
    plan = ldpc_load_plan(across, z, nb, n);
    e = emulate(across, plan, z, nb, n);
    EXPECT_EQ(e.read, across);
    EXPECT_TRUE(e.pieces_inside);

    EXPECT_THROW(ldpc_load_plan(from, z, nb + 1, n), std::invalid_argument);
    EXPECT_THROW(ldpc_load_plan(from, 0, nb, n), std::invalid_argument);
}
