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
 * input (15120 / m symbols of M slots). The channel interleaver is a convolutional interleaver of
 * PPM symbols (conv_symbol_interleaver); the randomizer is not here. */
#ifndef INCLUDED_GPUFEC_CORE_SCPPM_FRAMING_H
#define INCLUDED_GPUFEC_CORE_SCPPM_FRAMING_H

#include <gnuradio/gpufec/core/scppm.h>
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

/*! A convolutional (Forney) interleaver of symbols of `width` values, N rows: symbol k goes to
 *  row k mod N, which delays it by row x B symbols (the interleaver) or by (N - 1 - row) x B
 *  (the deinterleaver, deinterleave = true); a symbol leaves the pair N (N - 1) B symbols after
 *  it entered. The rows start full of zero symbols. Streaming: push() any number of whole
 *  symbols; the state carries over. CCSDS 142's channel interleaver is of this kind, with B N a
 *  multiple of the codeword's symbols (single-source parameters: docs/scppm.md). */
template <typename T>
class conv_symbol_interleaver
{
public:
    conv_symbol_interleaver(int rows, int B, size_t width, bool deinterleave);
    //! in and out: `symbols` x width values (out may not alias in)
    void push(const T* in, size_t symbols, T* out);
    //! symbols from one side to the other through an interleaver and its deinterleaver
    size_t end_to_end_delay() const { return size_t(d_rows) * size_t(d_rows - 1) * size_t(d_B); }
    void reset();

private:
    int d_rows, d_B;
    size_t d_width;
    bool d_de;
    std::vector<std::vector<T>> d_fifo; // per row: its delay x width values, a ring
    std::vector<size_t> d_head;
    size_t d_next_row = 0;
};

} // namespace gpufec

#endif
