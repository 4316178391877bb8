/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CODES_LTE_QPP_TABLE_H
#define INCLUDED_GPUFEC_CODES_LTE_QPP_TABLE_H

namespace gpufec {
//! lib/codes/standards/lte_qpp_interleaver.csv, compiled in by CMake
const char* lte_qpp_table_text();
} // namespace gpufec

#endif
