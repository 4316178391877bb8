/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The progress line of a simulation point: frames, errors, rate and an estimate of the time
 * left; refreshed in place on a terminal, plain lines (every few seconds) when piped. */
#ifndef INCLUDED_GPUFEC_APPS_PROGRESS_H
#define INCLUDED_GPUFEC_APPS_PROGRESS_H

#include "error_stats.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace gpufec {
namespace app {

//! "12.3 k", "4.56 M": three digits and an SI prefix
inline std::string si(double v)
{
    static const char* prefix[] = { "", "k", "M", "G", "T", "P" };
    int p = 0;
    while (std::fabs(v) >= 999.5 && p < 5) {
        v /= 1000;
        ++p;
    }
    char s[32];
    std::snprintf(s, sizeof s, "%.3g %s", v, prefix[p]);
    return s;
}

//! "42 s", "3 min 5 s", "2 h 10 min"
inline std::string duration(double s)
{
    char b[48];
    if (!std::isfinite(s))
        return "?";
    if (s < 60)
        std::snprintf(b, sizeof b, "%.0f s", s);
    else if (s < 3600)
        std::snprintf(b, sizeof b, "%d min %d s", int(s / 60), int(std::fmod(s, 60)));
    else
        std::snprintf(b, sizeof b, "%d h %d min", int(s / 3600), int(std::fmod(s, 3600) / 60));
    return b;
}

/*! The share of a point done: it ends when its error counts are met (both where both are
 *  asked) or at a limit, whichever comes first */
inline double point_done_fraction(const error_counts& c, const stop_rule& r)
{
    double errors = -1; // the error condition: the smaller of its two parts
    if (r.min_frame_errors || r.min_bit_errors) {
        errors = 1;
        if (r.min_frame_errors)
            errors = std::min(errors, double(c.frame_errors) / double(r.min_frame_errors));
        if (r.min_bit_errors)
            errors = std::min(errors, double(c.bit_errors) / double(r.min_bit_errors));
    }
    double f = std::max(errors, 0.0);
    if (r.max_frames)
        f = std::max(f, double(c.frames) / double(r.max_frames));
    if (r.max_bits)
        f = std::max(f, double(c.bits) / double(r.max_bits));
    return std::min(f, 1.0);
}

class progress_line
{
public:
    using clock = std::chrono::steady_clock;
    explicit progress_line(bool quiet) : d_quiet(quiet), d_tty(isatty(STDERR_FILENO) == 1) {}

    void start(const std::string& point) // a new point
    {
        d_point = point;
        d_t0 = clock::now();
        d_last = d_t0 - std::chrono::hours(1);
        d_shown = false;
    }

    void update(const error_counts& c, const stop_rule& rule, double max_seconds)
    {
        if (d_quiet)
            return;
        const auto now = clock::now();
        if (now - d_last < (d_tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000)))
            return;
        d_last = now;
        const double t = std::chrono::duration<double>(now - d_t0).count();
        double f = point_done_fraction(c, rule);
        if (max_seconds > 0)
            f = std::max(f, std::min(1.0, t / max_seconds));
        const double left = f > 0 ? t * (1 - f) / f : NAN;
        std::fprintf(stderr, "%s  %s: %llu frames, %llu frame errors, %llu bit errors, %sframes/s, %sb/s, %s left%s",
                     d_tty ? "\r\033[K" : "", d_point.c_str(), (unsigned long long)c.frames,
                     (unsigned long long)c.frame_errors, (unsigned long long)c.bit_errors,
                     si(t > 0 ? double(c.frames) / t : 0).c_str(), si(t > 0 ? double(c.bits) / t : 0).c_str(),
                     duration(left).c_str(), d_tty ? "" : "\n");
        std::fflush(stderr);
        d_shown = true;
    }

    void finish() // before the point's result line
    {
        if (!d_quiet && d_tty && d_shown)
            std::fprintf(stderr, "\r\033[K");
    }

private:
    bool d_quiet, d_tty;
    std::string d_point;
    clock::time_point d_t0, d_last;
    bool d_shown = false;
};

} // namespace app
} // namespace gpufec

#endif
