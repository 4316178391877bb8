/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Command-line pieces gpufec_ber and gpufec_bench share (CLI11). */
#ifndef INCLUDED_GPUFEC_APPS_CLI_OPTIONS_H
#define INCLUDED_GPUFEC_APPS_CLI_OPTIONS_H

#include <gnuradio/gpufec/core/frame_registry.h>
#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace gpufec {
namespace app {

//! -f/--family (listing the registered families) and -o/--options
inline void add_code_options(CLI::App& cli, std::string& family, std::string& options, const std::string& what)
{
    std::string names;
    for (const auto& f : frame_families())
        names += (names.empty() ? "" : ", ") + f;
    cli.add_option("-f,--family", family, "decoder family: " + names)->capture_default_str();
    cli.add_option("-o,--options", options,
                   "the family's options, key=value separated by commas (gpufec_ber --list-options "
                   "FAMILY); " + what)
        ->capture_default_str();
}

//! a count option that also takes 1e8 (CLI11 wants an integer literal)
inline std::string count_value(std::string v)
{
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
