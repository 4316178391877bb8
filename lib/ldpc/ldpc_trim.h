/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The part of a QC code's graph that a transmission lets the decoder use. A block column whose
 * bits are all punctured and which only one block row touches (5G NR's extension parity at
 * high rates: rate matching sends a prefix of the circular buffer) is an erasure in every row of
 * that block row, every time: the row's |rho| minimum is 0, so every message it sends to its
 * other bits is 0 (ldpc_common.h) and it changes nothing they decide. Dropping such block rows
 * with their columns leaves the other bits' decisions as they were, iteration for iteration,
 * with the work of the rows that carry information only (5G NR BG1 at rate 8/9: 5 of 46 block
 * rows). The syndrome then checks the rows kept, so early termination no longer waits for
 * checks on bits that were never sent. */
#ifndef INCLUDED_GPUFEC_LDPC_TRIM_H
#define INCLUDED_GPUFEC_LDPC_TRIM_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include <optional>
#include <vector>

namespace gpufec {

struct ldpc_trimmed_graph {
    ldpc_code code;          //!< the graph decoded: the rows and columns kept, in their order
    std::vector<int> column; //!< a column of the full code -> its column in `code`, or -1 (dropped)
    int rows_dropped = 0;    //!< block rows
};

/*! The graph without the block rows that only unsent degree-1 block columns tie to (repeated
 *  while any remain), for `punctured` columns of `code` (ascending); nothing where no row can be
 *  dropped, where the code has no base matrix of single circulants, a send order, or where
 *  the graph kept would lose a column's every check or move an information column. */
std::optional<ldpc_trimmed_graph> ldpc_trim_unsent(const ldpc_code& code, const std::vector<int>& punctured);

} // namespace gpufec

#endif
