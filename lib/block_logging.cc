/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "block_logging.h"

#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/logger.h>
#include <cstdio>
#include <mutex>
#include <stdexcept>

namespace gr {
namespace gpufec {

void install_gr_log_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        static gr::logger logger("gpufec");
        ::gpufec::set_log_handler([](::gpufec::log_level level, const std::string& msg) {
            switch (level) {
            case ::gpufec::log_level::debug:
                logger.debug("{}", msg);
                break;
            case ::gpufec::log_level::info:
                logger.info("{}", msg);
                break;
            case ::gpufec::log_level::warn:
                logger.warn("{}", msg);
                break;
            case ::gpufec::log_level::error:
                logger.error("{}", msg);
                break;
            }
        });
    });
}

void report_profile(gr::logger& logger, const std::string& alias, const std::string& msg)
{
    logger.info("{}", msg);
    std::fprintf(stderr, "%s: %s\n", alias.c_str(), msg.c_str());
}

} // namespace gpufec
} // namespace gr
