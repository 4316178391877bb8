/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the command-line apps share: usage errors, option values, medians, CSV rows. */
#ifndef INCLUDED_GPUFEC_APPS_APP_UTIL_H
#define INCLUDED_GPUFEC_APPS_APP_UTIL_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace gpufec {
namespace app {

[[noreturn]] inline void usage(const char* app, const std::string& msg)
{
    std::fprintf(stderr, "%s: %s\nsee the comment at the top of apps/%s.cc\n", app, msg.c_str(), app);
    std::exit(2);
}

//! the value that follows option argv[i] (i moves past it), or a usage error
inline std::string option_value(int argc, char** argv, int& i, const char* app)
{
    if (i + 1 >= argc)
        usage(app, std::string("missing value for ") + argv[i]);
    return argv[++i];
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

//! appends `row` (one CSV line) to `path`, writing `header` first when the file is new or empty
inline void append_csv(const std::string& path, const std::string& header, const std::string& row)
{
    bool fresh;
    {
        std::ifstream probe(path);
        fresh = !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
    }
    std::ofstream f(path, std::ios::app);
    if (fresh)
        f << header << "\n";
    f << row << "\n";
}

} // namespace app
} // namespace gpufec

#endif
