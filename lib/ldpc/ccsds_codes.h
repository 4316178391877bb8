/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS LDPC codes the library builds from the standard's tables (ldpc_code::standard). */
#ifndef INCLUDED_GPUFEC_LDPC_CCSDS_CODES_H
#define INCLUDED_GPUFEC_LDPC_CCSDS_CODES_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <string>

namespace gpufec {

//! C2 (131.0-B 7.3), the basic (8176, 7156) code: H of rank 1020 (two dependent rows)
ldpc_code ccsds_c2_code(const std::string& id);

} // namespace gpufec

#endif
