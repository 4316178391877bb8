/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* DVB-S2's bit interleaver (EN 302 307-1 5.3.3, EN 302 307-2): for modulations of c = 3 .. 8
 * bits a symbol the FECFRAME is written column by column into an array of c columns (n / c
 * rows) and read row by row, one row per symbol, its first bit the symbol's most significant,
 * the columns in the order the rate and frame size give (8PSK 3/5: 2 1 0; DVB-S2X's orders as
 * EN 302 307-2 and gr-dtv have them). QPSK and BPSK frames are not interleaved. */
#ifndef INCLUDED_GPUFEC_CORE_DVBS2_INTERLEAVER_H
#define INCLUDED_GPUFEC_CORE_DVBS2_INTERLEAVER_H

#include <string>
#include <vector>

namespace gpufec {

/*! The interleaver of a FECFRAME of n bits (64800 or 16200) at the nominal `rate` ("3/5", ..)
 *  for `modulation` ("8psk", "16apsk", "32apsk"; DVB-S2X's "8apsk" (8APSK-L), "8+8apsk",
 *  "4+12+16apsk", "4+8+4+16apsk", "64apsk", "8+16+20+20apsk", "4+12+20+28apsk", "256apsk";
 *  "none", "bpsk", "qpsk" too): position p of the interleaved frame carries bit perm[p] of the
 *  frame as the LDPC encoder sends it; empty where nothing is interleaved.
 *  std::invalid_argument for another modulation (128APSK, whose frames carry 6 more bits, is
 *  not built), or a rate and frame size the standards do not send it at (their MODCODs), naming
 *  the allowed ones. */
std::vector<int> dvbs2_bit_interleaver(int n, const std::string& rate, const std::string& modulation);

//! the modulations dvbs2_bit_interleaver knows, "none" first
std::vector<std::string> dvbs2_modulations();

} // namespace gpufec

#endif
