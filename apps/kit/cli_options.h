/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Command-line pieces gpufec_ber and gpufec_bench share (CLI11). */
#ifndef INCLUDED_GPUFEC_APPS_CLI_OPTIONS_H
#define INCLUDED_GPUFEC_APPS_CLI_OPTIONS_H

#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace gpufec {
namespace app {

//! -f/--family (listing the registered families) and -o/--options (returned: whether it was given)
inline CLI::Option* add_code_options(CLI::App& cli, std::string& family, std::string& options, const std::string& what)
{
    std::string names;
    for (const auto& f : frame_families())
        names += (names.empty() ? "" : ", ") + f;
    cli.add_option("-f,--family", family, "decoder family: " + names)->capture_default_str();
    return cli.add_option("-o,--options", options,
                          "the family's options, key=value separated by commas (gpufec_ber --list-options "
                          "FAMILY; default: the family's own, for viterbi code=ccsds, mode=streaming); " +
                              what);
}

//! a count option that also takes 1e8 (CLI11 wants an integer literal); a negative count is
//! refused (CLI11 would wrap -1 to 2^64 - 1)
inline std::string count_value(std::string v)
{
    if (v.find('-') != std::string::npos)
        throw CLI::ValidationError("'" + v + "' is negative (a count or a seed: 0 or more)");
    try {
        size_t used = 0;
        const double d = std::stod(v, &used);
        if (used == v.size() && d >= 0 && d < 1.8e19 && d == std::floor(d))
            return std::to_string((unsigned long long)d);
    } catch (const std::exception&) {
    }
    return v;
}

} // namespace app
} // namespace gpufec

#endif
