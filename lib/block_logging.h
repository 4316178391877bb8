/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The blocks' logging: the library's log lines into GNU Radio's logger, and profile reports. */
#ifndef INCLUDED_GPUFEC_BLOCK_LOGGING_H
#define INCLUDED_GPUFEC_BLOCK_LOGGING_H

#include <gnuradio/logger.h>
#include <string>

namespace gr {
namespace gpufec {

//! Routes the library's log lines to GNU Radio's logger (once per process).
void install_gr_log_handler();

/*! A block's GPUFEC_PROFILE report: on its logger and on stderr (the profile was asked for,
 *  wherever GNU Radio's log goes). */
void report_profile(gr::logger& logger, const std::string& alias, const std::string& msg);

} // namespace gpufec
} // namespace gr

#endif
