/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* How the GPU FPTD's blocks exchange extrinsic values, worked out once on the host.
 *
 * A frame is C blocks of L trellis stages (the last may have fewer). In a half-iteration of
 * parity P, stage i runs the upper code if i + P is even and sends its extrinsic value to the
 * lower code's stage inv[i], else the lower code, to the upper code's stage pi[i]. Sent one by
 * one, a warp's 32 values go to 32 scattered places in up to C blocks, and such scattered
 * remote stores clog a multiprocessor's memory pipeline (an H100: a K = 6144 frame took 52 us
 * where the same number of stores to consecutive addresses took 42; through this plan, 47).
 * So a block first puts its
 * values into a send buffer in its own shared memory, grouped by the block they go to; then
 * consecutive threads send consecutive slots, which land at consecutive positions of the
 * destination's receive row (grouped by sending block), and each stage reads its value from
 * where it landed. This plan says where. (Blocks of fewer than 192 stages send one by one: for
 * them the extra barrier and shared load a half cost more than the stores' order saves.) */
#ifndef INCLUDED_GPUFEC_TURBO_FPTD_EXCHANGE_H
#define INCLUDED_GPUFEC_TURBO_FPTD_EXCHANGE_H

#include <cstdint>
#include <vector>

namespace gpufec {

struct fptd_exchange_plan {
    int K = 0, C = 0, L = 0;
    //! [P][i]: the slot of stage i's block's send buffer that holds its value in halves of parity P
    std::vector<uint32_t> send_slot;
    //! [P][b L + q]: where slot q of block b's send buffer goes in halves of parity P: the
    //! destination block in the high 16 bits, the position in its receive row in the low 16
    std::vector<uint32_t> send_to;
    //! [P][j]: the position in stage j's block's receive row of the value that j reads in a half
    //! of parity P (sent in the half before)
    std::vector<uint32_t> read_at;

    //! the three tables one after the other (send_slot, send_to, read_at), as the kernel takes them
    std::vector<uint32_t> packed() const;
};

//! the plan for permutation `pi` (its inverse `inv`) over blocks of L stages (C blocks)
fptd_exchange_plan make_fptd_exchange_plan(const std::vector<uint32_t>& pi, const std::vector<uint32_t>& inv,
                                           int C, int L);

} // namespace gpufec

#endif
