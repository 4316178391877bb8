/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_VITERBI_DECODER_H
#define INCLUDED_GPUFEC_VITERBI_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

/*!
 * \brief Viterbi decoder for binary rate-1/n convolutional codes, on a CUDA GPU or the CPU.
 * \ingroup gpufec
 *
 * \details
 * Input: soft bits, float (gr-fec's convention: positive means bit 1, BPSK symbols of
 * amplitude 1 map to +-1) or int8 (`input_type="int8"`, the same sign, full range +-127).
 * Float values are quantised as q = clamp(round(scale * x), -127, 127); NaN is treated as an
 * erasure (0) and counted in a logged warning.
 * Output: decoded bits, one per byte, or packed 8 per byte MSB first (`packed_output`).
 *
 * `code` names a preset ("ccsds", "nasa-dsn", "ccsds-uninverted", "nasa-dsn-uninverted",
 * "80211", "80211-2/3", "80211-3/4", "80211-5/6", "dvbs-7/8", "lte") or is "custom" to use
 * `k`, `polys` (gr-fec convention: bit 0 = current input, negative = inverted output) and
 * `puncture` (0/1 per output of each stage of the period; empty = none).
 *
 * Modes: "streaming" decodes one endless stream in parallel blocks of `block_len` (D) stages
 * with `traceback` (L, 0 = 6K, 12K when punctured) stages of overlap; output bit i is input bit
 * i, with nothing dropped, repeated or reordered across work() calls, and it leaves the block
 * once D + L later stages have arrived (the last up to D + L bits of a finite stream stay
 * inside). "terminated", "tailbiting" and "truncated" decode frames of `frame_bits` bits; every
 * work() decodes all complete frames available (at most `max_batch`, 0 = no limit) in one batch.
 *
 * `device`: "auto" (a CUDA GPU when one is usable, else the CPU), "cpu", "cuda" or "cuda:N".
 */
class GPUFEC_API viterbi_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<viterbi_decoder> sptr;

    static sptr make(const std::string& code = "ccsds",
                     int k = 7,
                     const std::vector<int>& polys = std::vector<int>{ 79, -109 },
                     const std::vector<int>& puncture = std::vector<int>(),
                     const std::string& mode = "streaming",
                     int frame_bits = 1024,
                     int block_len = 512,
                     int traceback = 0,
                     const std::string& device = "auto",
                     int max_batch = 0,
                     const std::string& input_type = "float",
                     bool packed_output = false,
                     float scale = 32.0f);

    //! "cpu (...)" or "cuda:0 (NVIDIA ...)"
    virtual std::string backend() const = 0;
    //! the code in use, e.g. "K=7 polys=[79,-109] rate 1/2"
    virtual std::string code_description() const = 0;
    //! soft values per frame and decoded bits per frame (frame modes), or per period (streaming)
    virtual int input_per_unit() const = 0;
    virtual int output_per_unit() const = 0;
    //! NaN soft values seen so far
    virtual uint64_t nan_count() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
