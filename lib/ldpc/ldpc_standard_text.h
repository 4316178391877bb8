/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The standards' base matrices (lib/ldpc/standards/*.txt), compiled into the library by CMake
 * so that the same parser reads them and users' files. */
#ifndef INCLUDED_GPUFEC_LDPC_STANDARD_TEXT_H
#define INCLUDED_GPUFEC_LDPC_STANDARD_TEXT_H

namespace gpufec {

const char* ieee80211n_base_matrices_text();
const char* ieee80216e_base_matrices_text();
const char* nr_base_graphs_text(); //!< 3GPP TS 38.212 base graphs 1 and 2, the 8 sets of shifts
const char* dvbs2_ldpc_tables_text(); //!< EN 302 307-1 parity-bit address tables

} // namespace gpufec

#endif
