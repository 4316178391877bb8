/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* How a GPU kernel that gives block column b's bit u to thread u reads a frame whose values
 * arrive in another order (the gather table: bit v is sent value from[v], or a fill where
 * from[v] < 0). Read one value at a time through the table, a warp's 32 reads of DVB-S2's
 * parity bits land 90 bytes apart (the standard sends parity bit u q + c of column c's row u),
 * 32 sectors a read, and every block of the GPU loads its frame at about the same moment. The
 * plan says which reads need no table and which can be taken eight bytes at a time:
 *  - a straight column: bit u is sent value base + u for every u (an information column), so
 *    the warp reads consecutive bytes and no table entry;
 *  - a run across columns: within one group of eight columns (8g .. 8g + 7), columns lo ..
 *    lo + count - 1 have bit u at from[lo's bit u] + (column - lo) for every u (DVB-S2's
 *    parity), so thread u reads its count values as one 8-byte piece (two aligned loads).
 * Built once per code on the host (take_input_order), read by the chain kernel. */
#ifndef INCLUDED_GPUFEC_LDPC_LOAD_PLAN_H
#define INCLUDED_GPUFEC_LDPC_LOAD_PLAN_H

#include "runtime/host_device.h"

#include <cstdint>
#include <vector>

namespace gpufec {

/*! For a gather table `from` of nb * z entries (bit v = b z + u) over frames of `frame_values`
 *  int8 values: nb column words (>= 0: a straight column's base; -1: read through the table),
 *  then ceil(nb / 8) group words (lo | count << 4: the group's run across columns, count 0 where
 *  it has none of two or more). A run is planned only where each thread's 8-byte piece, read
 *  from the 8-byte boundary at or below its first value (and the next boundary where that is
 *  not one), lies within the frame, and only where frames start on 8-byte boundaries
 *  (frame_values a multiple of 8 in a buffer so aligned). */
std::vector<int32_t> ldpc_load_plan(const std::vector<int32_t>& from, int z, int nb, int frame_values);

//! a group word: its run's first column in the group (0-7) and its columns (0-8)
GPUFEC_HD int32_t load_plan_group(int lo, int count) { return lo | count << 4; }
GPUFEC_HD int load_plan_lo(int32_t group) { return group & 7; }
GPUFEC_HD int load_plan_count(int32_t group) { return (group >> 4) & 15; }

} // namespace gpufec

#endif
