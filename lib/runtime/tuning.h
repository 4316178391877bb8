/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Tuning aids from the environment (GPUFEC_LDPC_*, GPUFEC_VITERBI_KERNEL,
 * GPUFEC_CPU_DECODE_THREAD; docs name each): read where an engine is made, a bad value refused
 * with std::invalid_argument naming the variable and what it takes. */
#ifndef INCLUDED_GPUFEC_RUNTIME_TUNING_H
#define INCLUDED_GPUFEC_RUNTIME_TUNING_H

#include <initializer_list>
#include <string>

namespace gpufec {

//! `name`'s value where set, which must be one of `allowed`, else `fallback`
std::string tuning_choice(const char* name, std::initializer_list<const char*> allowed, const char* fallback);

//! the same for a whole number in lo .. hi
int tuning_int(const char* name, int lo, int hi, int fallback);

} // namespace gpufec

#endif
