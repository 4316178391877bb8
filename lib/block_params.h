/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The parameters the blocks share: checks, the code a Viterbi block's parameters describe, and
 * the CPU decoder a block falls back to. */
#ifndef INCLUDED_GPUFEC_BLOCK_PARAMS_H
#define INCLUDED_GPUFEC_BLOCK_PARAMS_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include "block_logging.h"
#include <gnuradio/block.h>
#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

/*! Whether a block's input stream has ended where this call stands: the upstream is done and
 *  nothing came after the scheduler counted `counted` items for the call. The scheduler counts
 *  before the call, and the upstream may write its last items and finish in between; a block
 *  that finished on done() alone would drop them. Takes the input buffer's lock. */
bool input_stream_ended(gr::block& b, size_t counted, int port = 0);

/*! The code a block's parameters describe: a preset name, or "custom" with k/polys/puncture;
 *  the same road as the viterbi family's options (conv_code_from_options), so both take and
 *  refuse the same codes. */
::gpufec::conv_code block_code(const std::string& code, int k, const std::vector<int>& polys,
                               const std::vector<int>& puncture);

/*! Checks the parameters every decoder block shares, naming them in the error: max_batch
 *  (0..2^20), scale (positive, up to 1e6) and, when given, input_type (float, int8). */
void check_decoder_params(int max_batch, float scale, const std::string* input_type = nullptr);

//! With device "auto", the same decoder made on the CPU, for when a GPU fails mid-stream (else
//! an empty function: an explicit device's failure is reported, not hidden).
template <class Make>
auto cpu_fallback(const ::gpufec::device_spec& spec, Make make) -> std::function<decltype(make(spec))()>
{
    if (spec.type != ::gpufec::device_spec::kind::automatic)
        return {};
    return [make] { return make(::gpufec::device_spec::parse("cpu")); };
}

} // namespace gpufec
} // namespace gr

#endif
