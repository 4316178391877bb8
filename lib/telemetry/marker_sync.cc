/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/telemetry/marker_sync.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

std::string to_string(soft_marker_sync::event e)
{
    switch (e) {
    case soft_marker_sync::event::acquired:
        return "acquired";
    case soft_marker_sync::event::slipped:
        return "slipped";
    case soft_marker_sync::event::flywheel:
        return "flywheel";
    case soft_marker_sync::event::lost:
        return "lost";
    default:
        return "";
    }
}

soft_marker_sync::soft_marker_sync(std::vector<marker_hypothesis> hypotheses, size_t frame_symbols)
    : soft_marker_sync(std::move(hypotheses), frame_symbols, settings())
{
}

soft_marker_sync::soft_marker_sync(std::vector<marker_hypothesis> hypotheses, size_t frame_symbols,
                                   const settings& s)
    : d_hyps(std::move(hypotheses)), d_frame(frame_symbols), d_len(0), d_set(s)
{
    if (d_hyps.empty())
        throw std::invalid_argument("marker sync: no hypotheses given");
    d_len = d_hyps[0].pattern.size();
    for (const auto& h : d_hyps) {
        if (h.pattern.size() != d_len)
            throw std::invalid_argument("marker sync: the hypotheses' markers differ in length");
        if (h.fix.empty())
            throw std::invalid_argument("marker sync: hypothesis '" + h.name + "' has no fix");
        std::vector<std::pair<uint32_t, float>> known;
        for (size_t i = 0; i < h.pattern.size(); ++i) {
            const int p = h.pattern[i];
            if (p < -1 || p > 1)
                throw std::invalid_argument("marker sync: a pattern holds -1, 0 or +1");
            if (p)
                known.emplace_back(uint32_t(i), float(p));
        }
        for (int f : h.fix)
            if (f != 1 && f != -1)
                throw std::invalid_argument("marker sync: a fix holds -1 or +1");
        if (known.size() < 8)
            throw std::invalid_argument("marker sync: hypothesis '" + h.name +
                                        "' knows fewer than 8 of its marker's symbols");
        d_known.push_back(std::move(known));
    }
    d_sign.resize(d_hyps.size());
    if (d_frame <= d_len + 2 * size_t(std::max(0, s.slip_range)))
        throw std::invalid_argument("marker sync: a frame of " + std::to_string(d_frame) +
                                    " symbols cannot hold its marker of " + std::to_string(d_len));
    if (s.max_misses < 1)
        throw std::invalid_argument("marker sync: max_misses must be at least 1");
    if (!(s.acquire_sigmas >= 0) || !(s.track_threshold > 0 && s.track_threshold < 1))
        throw std::invalid_argument("marker sync: acquire_sigmas >= 0 and 0 < track_threshold < 1");
    if (s.slip_range < 0 || size_t(s.slip_range) * 4 > d_frame)
        throw std::invalid_argument("marker sync: slip_range must be in [0, a quarter frame]");
}

void soft_marker_sync::reset()
{
    d_locked = false;
    d_hyp = -1;
    d_misses = 0;
    d_last_corr = 0;
    d_stats = counters();
}

size_t soft_marker_sync::window() const
{
    // locked: the frame may start anywhere in [0, 2 range] (its marker inside the frame)
    return d_locked ? d_frame + 2 * size_t(d_set.slip_range) : 2 * d_frame + d_len;
}

double soft_marker_sync::correlation(const float* in, int h) const
{
    // a value that is NaN or infinite is no evidence either way: it counts as 0 (a NaN would
    // make every score NaN, and an infinity one place's score meaningless)
    double c = 0, m = 0;
    for (const auto& [at, sign] : d_known[size_t(h)]) {
        const float v = std::isfinite(in[at]) ? in[at] : 0.f;
        c += double(sign * v);
        m += double(std::fabs(v));
    }
    return m > 0 ? c / m : 0.0;
}

void soft_marker_sync::give(const float* in, float* out)
{
    // the fix over a whole frame, made once a hypothesis: a product the compiler vectorises
    auto& sign = d_sign[size_t(d_hyp)];
    if (sign.empty()) {
        const auto& fix = d_hyps[size_t(d_hyp)].fix;
        sign.resize(d_frame);
        for (size_t i = 0; i < d_frame; ++i)
            sign[i] = float(fix[i % fix.size()]);
    }
    const float* __restrict m = sign.data();
    const float* __restrict x = in;
    float* __restrict y = out;
    const size_t n = d_frame;
    for (size_t i = 0; i < n; ++i)
        y[i] = x[i] * m[i];
}

soft_marker_sync::step_result soft_marker_sync::finish(const float* in, size_t n, float* out)
{
    const size_t range = size_t(d_set.slip_range);
    if (!d_locked || n >= window() || n < range + d_frame)
        return {};
    std::vector<float> padded(window(), 0.f);
    std::copy(in, in + n, padded.begin());
    step_result r = step(padded.data(), padded.size(), out);
    r.consumed = std::min(r.consumed, n); // (a loss consumes `range`; a frame at most n)
    return r;
}

soft_marker_sync::step_result soft_marker_sync::step(const float* in, size_t n, float* out)
{
    step_result r;
    if (n < window())
        return r;
    const size_t range = size_t(d_set.slip_range);
    if (!d_locked) {
        // every offset and hypothesis, scored by its marker and the next frame's
        double sum = 0, sum2 = 0, best_score = -3;
        size_t best = 0, count = 0;
        int best_h = -1;
        for (size_t o = 0; o < d_frame; ++o)
            for (int h = 0; h < int(d_hyps.size()); ++h) {
                const double a = correlation(in + o, h), b = correlation(in + o + d_frame, h), x = a + b;
                sum += x;
                sum2 += x * x;
                ++count;
                if (x > best_score && std::min(a, b) >= d_set.track_threshold) {
                    best_score = x;
                    best = o;
                    best_h = h;
                }
            }
        const double mean = sum / double(count);
        const double sd = std::sqrt(std::max(0.0, sum2 / double(count) - mean * mean));
        if (best_h < 0 || !(sd > 0) || best_score < mean + d_set.acquire_sigmas * sd) {
            r.consumed = d_frame;
            d_stats.skipped_symbols += d_frame;
            return r;
        }
        d_locked = true;
        d_hyp = best_h;
        d_misses = 0;
        d_last_corr = correlation(in + best, best_h);
        ++d_stats.acquisitions;
        give(in + best, out);
        ++d_stats.frames;
        d_stats.skipped_symbols += best;
        r.frame = true;
        r.what = event::acquired;
        // the next marker is due `range` symbols into what is left
        r.consumed = best + d_frame - range;
        return r;
    }
    // locked: the marker is due at `range`; the due place wins ties and any place that passes
    // the threshold there
    const double due = correlation(in + range, d_hyp);
    size_t best = range;
    double best_corr = due;
    if (due < d_set.track_threshold)
        for (size_t o = 0; o <= 2 * range; ++o) {
            const double x = correlation(in + o, d_hyp);
            if (x > best_corr) {
                best_corr = x;
                best = o;
            }
        }
    d_last_corr = best_corr;
    if (best_corr >= d_set.track_threshold) {
        d_misses = 0;
        if (best != range) {
            ++d_stats.slips;
            r.what = event::slipped;
            r.shift = long(best) - long(range);
        }
        if (best > range)
            d_stats.skipped_symbols += best - range;
        give(in + best, out);
        ++d_stats.frames;
        r.frame = true;
        r.consumed = best + d_frame - range;
        return r;
    }
    if (++d_misses >= d_set.max_misses) {
        d_locked = false;
        ++d_stats.losses;
        d_stats.skipped_symbols += range;
        r.what = event::lost;
        r.consumed = range; // the search starts at the due marker
        return r;
    }
    ++d_stats.flywheel;
    give(in + range, out);
    ++d_stats.frames;
    r.frame = true;
    r.what = event::flywheel;
    r.consumed = d_frame;
    return r;
}

} // namespace gpufec
