/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Which steps of a QC code's layered schedule may follow the one before without waiting for
 * it. A step is one sub-layer (ldpc_code::row_stride): its rows touch distinct bits, so an
 * engine runs them in parallel and waits (a GPU block's barrier) before the next step. Where a
 * step touches none of the bits of the steps since the last wait, the two commute: running
 * them without the wait changes no bit, and the GPU kernels drop the barrier there (5G NR's
 * extension rows, AR4JA's sub-layers, C2's). */
#ifndef INCLUDED_GPUFEC_LDPC_SCHEDULE_H
#define INCLUDED_GPUFEC_LDPC_SCHEDULE_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include <vector>

namespace gpufec {

/*! One flag a step, in the schedule's order (layer by layer, sub-layer by sub-layer): true
 *  where the step touches no bit that the steps since the last false one touch. The first step
 *  is false. Empty for a code that is not quasi-cyclic. */
std::vector<bool> ldpc_steps_free_of_previous(const ldpc_code& code);

/*! The same, not counting the bits of the block columns `apart` marks (where one thread alone
 *  touches each of their bits, in program order: the GPU chain kernel's chain columns). */
std::vector<bool> ldpc_steps_free_of_previous(const ldpc_code& code, const std::vector<bool>& apart);

} // namespace gpufec

#endif
