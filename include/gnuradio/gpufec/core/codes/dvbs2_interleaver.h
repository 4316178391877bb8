/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* DVB-S2's bit interleaver (EN 302 307-1 5.3.3): for 8PSK, 16APSK and 32APSK the FECFRAME is
 * written column by column into an array of c = 3, 4, 5 columns (n / c rows) and read row by
 * row, one row per symbol, its first bit the symbol's most significant; 8PSK at rate 3/5 reads
 * the columns in the order 2 1 0 (and 16APSK at 3/5, a DVB-S2X combination of an S2 code,
 * 3 2 1 0 in normal frames, 3 2 0 1 in short ones, as EN 302 307-2 and gr-dtv do). QPSK and
 * BPSK frames are not interleaved. */
#ifndef INCLUDED_GPUFEC_CORE_DVBS2_INTERLEAVER_H
#define INCLUDED_GPUFEC_CORE_DVBS2_INTERLEAVER_H

#include <string>
#include <vector>

namespace gpufec {

/*! The interleaver of a FECFRAME of n bits (64800 or 16200) at the nominal `rate` ("3/5", ..)
 *  for `modulation` ("qpsk", "8psk", "16apsk", "32apsk"; "none" and "bpsk" too): position p of
 *  the interleaved frame carries bit perm[p] of the frame as the LDPC encoder sends it; empty
 *  where nothing is interleaved. std::invalid_argument for another modulation, or a rate the
 *  standards do not combine with it (8PSK: 3/5 .. 9/10; 16APSK: 3/5 and 2/3 .. 9/10; 32APSK:
 *  3/4 .. 9/10), naming the allowed ones. */
std::vector<int> dvbs2_bit_interleaver(int n, const std::string& rate, const std::string& modulation);

//! the modulations dvbs2_bit_interleaver knows, "none" first
std::vector<std::string> dvbs2_modulations();

} // namespace gpufec

#endif
