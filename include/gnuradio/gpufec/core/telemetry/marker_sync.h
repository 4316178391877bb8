/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Frame synchronisation on soft symbols by a known marker at the start of every frame, over a
 * set of hypotheses for what the channel did to the symbols (a 180-degree phase ambiguity, an
 * output of the convolutional code sent inverted or not): each hypothesis is the marker's
 * expected signs and the correction that makes the frame's symbols what the decoder after the
 * sync expects. The pairing of a rate-1/n code's symbols needs no hypothesis of its own: every
 * symbol offset is searched, and a frame starts at its marker. */
#ifndef INCLUDED_GPUFEC_CORE_TELEMETRY_MARKER_SYNC_H
#define INCLUDED_GPUFEC_CORE_TELEMETRY_MARKER_SYNC_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

/*! One way the marker may look on the channel. pattern: the marker's symbols as expected signs
 *  (+1: a positive soft value, bit 1 in the project's convention; -1; 0: not known, e.g. a
 *  coded marker's first symbols, which depend on the bits before it). fix: the frame's symbol i
 *  (from the marker's first, i = 0) leaves the sync multiplied by fix[i mod fix.size()]. */
struct marker_hypothesis {
    std::string name;
    std::vector<int8_t> pattern;
    std::vector<int8_t> fix;
};

/*! Searching, every offset of a frame's length and every hypothesis is scored by the normalised
 *  correlation of its marker with the symbols there (sum of pattern x value over the sum of the
 *  values' magnitudes at the known places: 1 for a perfect marker, about 0 on data) plus that of
 *  the next frame's marker; the best score locks where both markers reach track_threshold and
 *  it stands acquire_sigmas standard deviations above the mean of all scores (data and noise
 *  give about one false lock in 10^8 searches at 6). Locked, each next marker is looked for in
 *  the locked hypothesis within slip_range symbols of where it is due: found there (at least
 *  track_threshold), the frame is given; found elsewhere in the range, it is a slip (the lock
 *  follows it); not found, a miss, and the frame is still given at the due place (flywheel);
 *  max_misses misses in a row lose the lock and the search starts again. */
class soft_marker_sync
{
public:
    struct settings {
        int max_misses = 3;
        double acquire_sigmas = 6.0;
        double track_threshold = 0.5;
        int slip_range = 2; //!< symbols either side of the due place (0: no slips)
    };
    enum class event { none, acquired, slipped, flywheel, lost };
    struct counters {
        uint64_t frames = 0;          //!< frames given
        uint64_t acquisitions = 0;    //!< locks from searching
        uint64_t losses = 0;          //!< locks lost
        uint64_t slips = 0;           //!< markers found off their due place while locked
        uint64_t flywheel = 0;        //!< frames given with their marker missed
        uint64_t skipped_symbols = 0; //!< symbols in no given frame
    };
    struct step_result {
        size_t consumed = 0; //!< symbols used up from the front
        bool frame = false;  //!< whether out holds a frame (frame_symbols() values)
        event what = event::none;
        long shift = 0; //!< a slip's symbols (positive: the marker came late)
    };

    /*! frame_symbols: from one marker's first symbol to the next one's; the hypotheses' patterns
     *  all of one length, shorter than a frame, with at least 8 known symbols each.
     *  std::invalid_argument otherwise, or for settings out of range. */
    soft_marker_sync(std::vector<marker_hypothesis> hypotheses, size_t frame_symbols, const settings& s);
    soft_marker_sync(std::vector<marker_hypothesis> hypotheses, size_t frame_symbols);

    //! symbols the next step needs (two frames and a marker searching; a frame and the slip
    //! range either side locked)
    size_t window() const;
    //! one step on in[0, n): with n < window() it consumes nothing and gives nothing; a frame
    //! is written to out (frame_symbols() values, corrected by the hypothesis' fix)
    step_result step(const float* in, size_t n, float* out);
    /*! The end of the stream: in[0, n) is all that is left (fewer than window()). Locked, with
     *  the next frame's symbols all there (n >= slip range + frame), the frame is given as
     *  step() would, the symbols a later slip would need taken as 0 (no evidence); else
     *  nothing. A stream that ends right after a frame so keeps its last frame. */
    step_result finish(const float* in, size_t n, float* out);

    bool locked() const { return d_locked; }
    //! the hypothesis of the lock (or of the last one), -1 before any
    int hypothesis() const { return d_hyp; }
    const std::vector<marker_hypothesis>& hypotheses() const { return d_hyps; }
    size_t frame_symbols() const { return d_frame; }
    size_t marker_symbols() const { return d_len; }
    //! the normalised correlation of the last marker looked for while locked
    double last_correlation() const { return d_last_corr; }
    const counters& stats() const { return d_stats; }
    void reset();

    //! the normalised correlation of hypothesis h's marker with in[0, marker_symbols())
    double correlation(const float* in, int h) const;

private:
    void give(const float* in, float* out);

    std::vector<marker_hypothesis> d_hyps;
    size_t d_frame, d_len;
    settings d_set;
    std::vector<std::vector<std::pair<uint32_t, float>>> d_known; // per hypothesis: (place, sign)
    std::vector<std::vector<float>> d_sign; // per hypothesis: its fix over a frame (made when first used)
    bool d_locked = false;
    int d_hyp = -1, d_misses = 0;
    double d_last_corr = 0;
    counters d_stats;
};

std::string to_string(soft_marker_sync::event e);

} // namespace gpufec

#endif
