/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The DVB-S2 LDPC codes (ETSI EN 302 307-1 5.3.2), built from the standard's address tables
 * (lib/ldpc/standards/dvbs2_ldpc_tables.txt) for ldpc_code::standard. */
#ifndef INCLUDED_GPUFEC_LDPC_DVBS2_CODES_H
#define INCLUDED_GPUFEC_LDPC_DVBS2_CODES_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <string>
#include <vector>

namespace gpufec {

//! the "dvbs2:<n>:<rate>" ids of every DVB-S2 code, normal frames first
std::vector<std::string> dvbs2_code_ids();

/*! The code of FECFRAME length n (64800, 16200; 32400 for DVB-S2X's VL-SNR medium frames) and
 *  the standard's nominal rate ("1/2", "9/10", ...; the VL-SNR short codes "1/5-vlsnr",
 *  "1/5-vlsnr-sf2", "11/45-vlsnr-sf2", "4/15-vlsnr", "1/3-vlsnr"), in its quasi-cyclic form
 *  (Z = 360: checks and parity bits permuted, see there) with the standard's bit order as its
 *  send order (information bits first, then the accumulator's parity bits p_0 .. p_{n-k-1});
 *  the VL-SNR codes carry their puncturing and shortening as the code's own. std::invalid_argument
 *  (listing the valid rates) for a pair the standard does not define. */
ldpc_code dvbs2_code(int n, const std::string& rate, const std::string& id);

} // namespace gpufec

#endif
