/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The SCPPM stages around the codeword (CCSDS 142.0-B-1; these parameters come from one public
 * source only, see docs/scppm.md): each PPM symbol is sent as M slots followed by M/4 empty guard
 * slots, and each codeword is preceded by the codeword sync marker (CSM), a fixed sequence of PPM
 * symbols sent the same way. On the receiving side the marker is found by correlating the slot
 * counts with its pulse positions, and the guard slots are dropped, which gives the decoder's
 * input (15120 / m symbols of M slots); scppm_frame_sync does this on a stream and keeps the
 * lock. The channel interleaver is a convolutional interleaver of PPM symbols
 * (conv_symbol_interleaver), applied before the marker is inserted. The randomizer is the CCSDS
 * pseudo-random sequence added to each information block before its CRC. */
#ifndef INCLUDED_GPUFEC_CORE_SCPPM_FRAMING_H
#define INCLUDED_GPUFEC_CORE_SCPPM_FRAMING_H

#include <gnuradio/gpufec/core/codes/ccsds_randomizer.h> // (SCPPM randomizes its information blocks)
#include <gnuradio/gpufec/core/scppm/scppm.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

//! the codeword sync marker of PPM order M: 24 symbols for M = 4, 16 for M >= 8
const std::vector<uint16_t>& scppm_sync_marker(int M);
//! slots a symbol takes on the channel: M + M / 4 (the guard)
inline size_t scppm_symbol_slots(int M) { return size_t(M) + size_t(M) / 4; }
//! slots of a whole frame on the channel: (marker + codeword symbols) x (M + M / 4)
size_t scppm_frame_slots(const scppm_code& code);

/*! A codeword's symbols (15120 / m) to the channel's slots: the marker's symbols then the
 *  codeword's, each as M slots (1 in the pulsed one) and M / 4 guard slots (0).
 *  out: scppm_frame_slots(code) bytes. */
void scppm_frame(const scppm_code& code, const uint16_t* symbols, uint8_t* out);

/*! The slot in [0, search) at which a marker starts, in `counts` (at least search +
 *  scppm_frame_slots(code) values): the offset whose marker pulse positions hold the most
 *  photons. Returns the offset, and the photons there in `score` if given. */
size_t scppm_find_marker(const scppm_code& code, const float* counts, size_t search, double* score = nullptr);

/*! The decoder's input of the frame that starts at counts[0] (the marker's first slot): the
 *  codeword's symbols without the marker and the guard slots. out: code.slots() values. */
void scppm_deframe(const scppm_code& code, const float* counts, float* out);

/*! Codeword synchronisation on a stream of slot counts. Searching, it scores each offset of a
 *  frame's length by the photons at its marker's pulse positions and the next frame's, and
 *  locks on the best offset where both markers hold at least a quarter of the two's photons,
 *  if its score is `acquire_sigmas` standard deviations above the mean of all offsets' (7: about
 *  one false lock in 10^4 searches of pure background). Locked, it looks for each next marker within
 *  a symbol's slots (M + M / 4) either side of where it is due: a marker found elsewhere in that
 *  range is a slip (the lock follows it); a marker with fewer than `miss_ratio` times the
 *  running mean of its locked markers' photons is a miss, and the frame is still given at the
 *  due place (flywheel); `max_misses` misses in a row lose the lock and searching starts again.
 *  Every slot not given in a frame (before a lock, after a loss) is counted. */
class scppm_frame_sync
{
public:
    enum class event { none, acquired, slipped, flywheel, lost };
    struct counters {
        uint64_t frames = 0;        //!< codewords given
        uint64_t acquisitions = 0;  //!< locks from searching
        uint64_t losses = 0;        //!< locks lost
        uint64_t slips = 0;         //!< markers found off their due slot while locked
        uint64_t flywheel = 0;      //!< frames given at the due slot with their marker missed
        uint64_t skipped_slots = 0; //!< slots in no given frame (searching, markers' leftovers)
    };
    struct step_result {
        size_t consumed = 0; //!< counts used up from the front
        bool frame = false;  //!< whether out holds a codeword's decoder input (code.slots())
        event what = event::none;
        long shift = 0; //!< a slip's slots (positive: the marker came late)
    };

    explicit scppm_frame_sync(const scppm_code& code, int max_misses = 3, double acquire_sigmas = 7.0,
                              double miss_ratio = 0.5);
    //! counts the next step needs (two frames and a marker searching; a frame and two symbols locked)
    size_t window() const;
    //! one step on counts[0, n): with n < window() it consumes nothing and gives nothing
    step_result step(const float* counts, size_t n, float* out);
    bool locked() const { return d_locked; }
    const counters& stats() const { return d_stats; }
    void reset();
    const scppm_code& code() const { return d_code; }

private:
    double marker_photons(const float* counts) const;

    scppm_code d_code;
    int d_max_misses;
    double d_acquire_sigmas, d_miss_ratio;
    size_t d_frame, d_per; //!< slots of a frame, of a symbol
    bool d_locked = false;
    int d_misses = 0;
    double d_mean_marker = 0; //!< running mean of the locked markers' photons
    counters d_stats;
};

//! the most memory a convolutional interleaver may hold (1 GiB; CCSDS's need megabytes)
constexpr size_t max_interleaver_bytes = size_t(1) << 30;

/*! A convolutional (Forney) interleaver of symbols of `width` values, N rows: symbol k goes to
 *  row k mod N, which delays it by row x B symbols (the interleaver) or by (N - 1 - row) x B
 *  (the deinterleaver, deinterleave = true); a symbol leaves the pair N (N - 1) B symbols after
 *  it entered. The rows start full of `fill` symbols (width values; empty: zeros). Streaming: push() any number of whole
 *  symbols; the state carries over. CCSDS 142's channel interleaver is of this kind, with B N a
 *  multiple of the codeword's symbols (single-source parameters: docs/scppm.md). Sizes whose
 *  delay lines would hold more than max_interleaver_bytes are refused. */
template <typename T>
class conv_symbol_interleaver
{
public:
    conv_symbol_interleaver(int rows, int B, size_t width, bool deinterleave, std::vector<T> fill = {});
    //! in and out: `symbols` x width values (out may not alias in)
    void push(const T* in, size_t symbols, T* out);
    //! symbols from one side to the other through an interleaver and its deinterleaver
    size_t end_to_end_delay() const { return size_t(d_rows) * size_t(d_rows - 1) * size_t(d_B); }
    void reset();

private:
    int d_rows, d_B;
    size_t d_width;
    bool d_de;
    std::vector<T> d_fill; //!< one symbol
    std::vector<std::vector<T>> d_fifo; // per row: its delay x width values, a ring
    std::vector<size_t> d_head;
    size_t d_next_row = 0;
};

} // namespace gpufec

#endif
