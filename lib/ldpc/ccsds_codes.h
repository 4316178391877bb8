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
/*! C2 as transmitted (131.0-B 7.3.4-7.3.6): "ccsds:8160:7136", the basic H with the
 *  standard's block-circulant generator (the expurgated (8176, 7154) code), its first 18
 *  information bits shortened and two zero bits appended (the code's defaults) */
ldpc_code ccsds_c2_transmitted_code(const std::string& id);
//! the telecommand codes (231.0-B 4.2): (n, k) = (128, 64) or (512, 256)
ldpc_code ccsds_tc_code(int n, int k, const std::string& id);

//! the AR4JA ids "ccsds:<n>:<k>" (n as sent: 2k, 3k/2, 5k/4; k = 1024, 4096, 16384)
std::vector<std::string> ccsds_ar4ja_ids();
/*! AR4JA (131.0-B 7.4): (K + 3) M bits, the last M punctured by default (the code's own
 *  puncture), K M information bits first; std::invalid_argument for other (n, k). */
ldpc_code ccsds_ar4ja_code(int n, int k, const std::string& id);

} // namespace gpufec

#endif
