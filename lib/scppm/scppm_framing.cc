/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Guard slots and the codeword sync marker around an SCPPM codeword, their removal and the
 * codeword synchronisation of a stream; the channel interleaver (the pseudo-randomizer: codes/ccsds_randomizer.cc). */
#include <gnuradio/gpufec/core/scppm/scppm_framing.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

const std::vector<uint16_t>& scppm_sync_marker(int M)
{
    static const std::vector<uint16_t> m4 = { 0, 3, 1, 2, 1, 3, 2, 0, 0, 3, 2, 1, 0, 2, 1, 3, 1, 0, 3, 2, 3, 2, 1, 0 };
    static const std::vector<uint16_t> m8 = { 0, 3, 1, 2, 5, 4, 7, 6, 6, 7, 4, 5, 2, 1, 3, 0 };
    static const std::vector<uint16_t> m16 = { 0, 2, 7, 14, 1, 2, 15, 5, 8, 4, 10, 2, 14, 3, 14, 11 };
    if (M == 4)
        return m4;
    if (M == 8)
        return m8;
    if (M >= 16 && M <= 256 && (M & (M - 1)) == 0)
        return m16;
    throw std::invalid_argument("M: " + std::to_string(M) + " has no SCPPM sync marker (4, 8, ..., 256)");
}

size_t scppm_frame_slots(const scppm_code& code)
{
    return (scppm_sync_marker(code.M).size() + size_t(code.symbols())) * scppm_symbol_slots(code.M);
}

void scppm_frame(const scppm_code& code, const uint16_t* symbols, uint8_t* out)
{
    const size_t per = scppm_symbol_slots(code.M);
    const auto& csm = scppm_sync_marker(code.M);
    std::fill(out, out + scppm_frame_slots(code), uint8_t(0));
    for (size_t s = 0; s < csm.size(); ++s)
        out[s * per + csm[s]] = 1;
    uint8_t* body = out + csm.size() * per;
    for (size_t s = 0; s < size_t(code.symbols()); ++s) {
        if (symbols[s] >= code.M)
            throw std::invalid_argument("scppm_frame: symbol " + std::to_string(symbols[s]) + " is not below M");
        body[s * per + symbols[s]] = 1;
    }
}

size_t scppm_find_marker(const scppm_code& code, const float* counts, size_t search, double* score)
{
    const size_t per = scppm_symbol_slots(code.M);
    const auto& csm = scppm_sync_marker(code.M);
    size_t best = 0;
    double top = -1;
    for (size_t off = 0; off < search; ++off) {
        double x = 0;
        for (size_t s = 0; s < csm.size(); ++s)
            x += double(counts[off + s * per + csm[s]]);
        if (x > top) {
            top = x;
            best = off;
        }
    }
    if (score)
        *score = top;
    return best;
}

void scppm_deframe(const scppm_code& code, const float* counts, float* out)
{
    const size_t per = scppm_symbol_slots(code.M), M = size_t(code.M);
    const float* body = counts + scppm_sync_marker(code.M).size() * per;
    for (size_t s = 0; s < size_t(code.symbols()); ++s)
        std::copy(body + s * per, body + s * per + M, out + s * M);
}

scppm_frame_sync::scppm_frame_sync(const scppm_code& code, int max_misses, double acquire_sigmas, double miss_ratio)
    : d_code(code),
      d_max_misses(max_misses),
      d_acquire_sigmas(acquire_sigmas),
      d_miss_ratio(miss_ratio),
      d_frame(scppm_frame_slots(code)),
      d_per(scppm_symbol_slots(code.M))
{
    if (max_misses < 1)
        throw std::invalid_argument("scppm_frame_sync: max_misses must be at least 1");
    if (!(acquire_sigmas >= 0) || !(miss_ratio > 0 && miss_ratio < 1))
        throw std::invalid_argument("scppm_frame_sync: acquire_sigmas >= 0 and 0 < miss_ratio < 1");
}

void scppm_frame_sync::reset()
{
    d_locked = false;
    d_misses = 0;
    d_mean_marker = 0;
    d_stats = counters();
}

size_t scppm_frame_sync::window() const
{
    return d_locked ? d_frame + 2 * d_per : 2 * d_frame + scppm_sync_marker(d_code.M).size() * d_per;
}

double scppm_frame_sync::marker_photons(const float* counts) const
{
    const auto& csm = scppm_sync_marker(d_code.M);
    // a count that is NaN, infinite or negative is no evidence of photons: it counts as none
    // (a NaN would make the search's mean and deviation NaN, and every offset would lock)
    double x = 0;
    for (size_t s = 0; s < csm.size(); ++s) {
        const float c = counts[s * d_per + csm[s]];
        if (std::isfinite(c) && c > 0)
            x += double(c);
    }
    return x;
}

scppm_frame_sync::step_result scppm_frame_sync::step(const float* counts, size_t n, float* out)
{
    step_result r;
    if (n < window())
        return r;
    if (!d_locked) {
        // every offset of a frame's length, scored by its marker and the next frame's: the best
        // offset where both markers hold photons locks if it stands out from all offsets' scores
        double sum = 0, sum2 = 0, best_score = -1;
        size_t best = 0;
        for (size_t o = 0; o < d_frame; ++o) {
            const double a = marker_photons(counts + o), b = marker_photons(counts + o + d_frame), x = a + b;
            sum += x;
            sum2 += x * x;
            if (x > best_score && std::min(a, b) >= x / 4) {
                best_score = x;
                best = o;
            }
        }
        const double mean = sum / double(d_frame);
        const double sd = std::sqrt(std::max(0.0, sum2 / double(d_frame) - mean * mean));
        if (!(best_score > 0) || !std::isfinite(sd) || best_score < mean + d_acquire_sigmas * sd) {
            r.consumed = d_frame;
            d_stats.skipped_slots += d_frame;
            return r;
        }
        d_locked = true;
        d_misses = 0;
        d_mean_marker = best_score / 2;
        ++d_stats.acquisitions;
        scppm_deframe(d_code, counts + best, out);
        ++d_stats.frames;
        d_stats.skipped_slots += best;
        r.frame = true;
        r.what = event::acquired;
        r.consumed = best + d_frame - d_per; // the next marker is due at d_per
        return r;
    }
    // locked: the marker is due at d_per; look d_per either side, the due place first on ties
    size_t best = d_per;
    double best_score = marker_photons(counts + d_per);
    for (size_t o = 0; o <= 2 * d_per; ++o) {
        const double x = marker_photons(counts + o);
        if (x > best_score) {
            best_score = x;
            best = o;
        }
    }
    if (best_score >= d_miss_ratio * d_mean_marker && best_score > 0) {
        d_misses = 0;
        d_mean_marker += (best_score - d_mean_marker) / 8;
        if (best != d_per) {
            ++d_stats.slips;
            r.what = event::slipped;
            r.shift = long(best) - long(d_per);
        }
        if (best > d_per)
            d_stats.skipped_slots += best - d_per;
        scppm_deframe(d_code, counts + best, out);
        ++d_stats.frames;
        r.frame = true;
        r.consumed = best + d_frame - d_per;
        return r;
    }
    if (++d_misses >= d_max_misses) { // lost: search again from the due marker on
        d_locked = false;
        ++d_stats.losses;
        r.what = event::lost;
        r.consumed = d_per; // the slots before it were in the last frame given
        return r;
    }
    ++d_stats.flywheel;
    scppm_deframe(d_code, counts + d_per, out);
    ++d_stats.frames;
    r.frame = true;
    r.what = event::flywheel;
    r.consumed = d_frame;
    return r;
}

template <typename T>
conv_symbol_interleaver<T>::conv_symbol_interleaver(int rows, int B, size_t width, bool deinterleave, std::vector<T> fill)
    : d_rows(rows), d_B(B), d_width(width), d_de(deinterleave), d_fill(std::move(fill))
{
    if (rows < 1 || B < 0 || width < 1)
        throw std::invalid_argument("conv_symbol_interleaver: rows >= 1, B >= 0 and width >= 1");
    // its memory: rows (rows - 1) / 2 x B symbols of `width` values; refuse what cannot be held
    // (CCSDS 142 uses N up to 64 and B of some thousands: megabytes)
    const double values = double(rows) * double(rows - 1) / 2 * double(B) * double(width) + double(rows);
    const double bytes = values * sizeof(T);
    if (bytes > double(max_interleaver_bytes))
        throw std::invalid_argument("conv_symbol_interleaver: N=" + std::to_string(rows) + " rows with B=" +
                                    std::to_string(B) + " symbols of " + std::to_string(width) + " values hold " +
                                    std::to_string(long(bytes / (1 << 20))) + " MiB, more than the " +
                                    std::to_string(max_interleaver_bytes >> 20) + " MiB allowed");
    if (d_fill.empty())
        d_fill.assign(width, T(0));
    if (d_fill.size() != width)
        throw std::invalid_argument("conv_symbol_interleaver: the fill symbol must have `width` values");
    reset();
}

template <typename T>
void conv_symbol_interleaver<T>::reset()
{
    d_fifo.assign(size_t(d_rows), {});
    for (int r = 0; r < d_rows; ++r) {
        const size_t delay = size_t(d_de ? d_rows - 1 - r : r) * size_t(d_B);
        auto& f = d_fifo[size_t(r)];
        f.clear();
        for (size_t k = 0; k < delay; ++k)
            f.insert(f.end(), d_fill.begin(), d_fill.end());
    }
    d_head.assign(size_t(d_rows), 0);
    d_next_row = 0;
}

template <typename T>
void conv_symbol_interleaver<T>::push(const T* in, size_t symbols, T* out)
{
    for (size_t k = 0; k < symbols; ++k) {
        const T* x = in + k * d_width;
        T* y = out + k * d_width;
        std::vector<T>& f = d_fifo[d_next_row];
        if (f.empty()) {
            std::copy(x, x + d_width, y);
        } else { // the oldest symbol of the row leaves, this one takes its place
            size_t& h = d_head[d_next_row];
            std::copy(f.begin() + long(h), f.begin() + long(h + d_width), y);
            std::copy(x, x + d_width, f.begin() + long(h));
            h = (h + d_width) % f.size();
        }
        d_next_row = (d_next_row + 1) % size_t(d_rows);
    }
}

template class conv_symbol_interleaver<float>;
template class conv_symbol_interleaver<uint8_t>;

} // namespace gpufec
