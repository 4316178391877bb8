/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_BLOCK_CODE_H
#define INCLUDED_GPUFEC_BLOCK_CODE_H

#include <gnuradio/gpufec/core/conv_code.h>
#include <gnuradio/gpufec/core/device.h>
#include <gnuradio/logger.h>
#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

//! The code a block's parameters describe: a preset name, or "custom" with k/polys/puncture.
inline ::gpufec::conv_code block_code(const std::string& code,
                                      int k,
                                      const std::vector<int>& polys,
                                      const std::vector<int>& puncture)
{
    if (!code.empty() && code != "custom")
        return ::gpufec::conv_code::preset(code);
    ::gpufec::conv_code c;
    c.k = k;
    c.polys = polys;
    for (int v : puncture)
        c.puncture.push_back(static_cast<uint8_t>(v == 0 ? 0 : (v == 1 ? 1 : 2)));
    c.validate();
    return c;
}

//! Routes the library's log lines to GNU Radio's logger (once per process).
void install_gr_log_handler();

/*! A block's GPUFEC_PROFILE report: on its logger and on stderr (the profile was asked for,
 *  wherever GNU Radio's log goes). */
void report_profile(gr::logger& logger, const std::string& alias, const std::string& msg);

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
