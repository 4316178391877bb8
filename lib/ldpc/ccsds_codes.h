/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS LDPC codes the library builds from the standard's tables (ldpc_code::standard). */
#ifndef INCLUDED_GPUFEC_LDPC_CCSDS_CODES_H
#define INCLUDED_GPUFEC_LDPC_CCSDS_CODES_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <string>
#include <vector>

namespace gpufec {

//! C2 (131.0-B 7.3), the basic (8176, 7156) code: H of rank 1020 (two dependent rows)
ldpc_code ccsds_c2_code(const std::string& id);

//! the AR4JA ids "ccsds:<n>:<k>" (n as sent: 2k, 3k/2, 5k/4; k = 1024, 4096, 16384)
std::vector<std::string> ccsds_ar4ja_ids();
/*! AR4JA (131.0-B 7.4): (K + 3) M bits, the last M punctured by default (the code's own
 *  puncture), K M information bits first; std::invalid_argument for other (n, k). */
ldpc_code ccsds_ar4ja_code(int n, int k, const std::string& id);

} // namespace gpufec

#endif
