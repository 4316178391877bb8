/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_CONV_CODE_H
#define INCLUDED_GPUFEC_CORE_CONV_CODE_H

#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

/*! How frames of a convolutional code begin and end.
 *  streaming   one endless stream, decoded in overlapping blocks (PBVD).
 *  terminated  each frame starts in state 0 and ends with K-1 zero tail bits.
 *  tailbiting  each frame starts and ends in the state given by its last K-1 bits.
 *  truncated   each frame starts in state 0 and simply stops (no tail). */
enum class conv_mode { streaming, terminated, tailbiting, truncated };

conv_mode parse_conv_mode(const std::string& name);
std::string to_string(conv_mode mode);

/*! A binary rate-1/n convolutional code in GNU Radio gr-fec's convention.
 *
 * Polynomials: bit 0 is the current input bit, bit K-1 the oldest; a negative polynomial
 * means that output is inverted (CCSDS = {79, -109}). Outputs are sent in the order of the
 * polynomials.
 *
 * Puncturing: a 0/1 pattern over whole stages, stage-major: entries [t*n .. t*n+n-1] say which
 * of the n outputs of stage t (mod period) are sent. An empty pattern means no puncturing. */
struct conv_code {
    int k = 7;
    std::vector<int> polys{ 79, -109 };
    std::vector<uint8_t> puncture;

    int n() const { return static_cast<int>(polys.size()); }
    int states() const { return 1 << (k - 1); }
    //! stages per puncturing period (1 when not punctured)
    int period() const;
    //! soft values sent per period
    int kept_per_period() const;
    //! soft values sent for `stages` trellis stages starting at a period boundary
    int64_t kept_for_stages(int64_t stages) const;

    //! throws std::invalid_argument naming the parameter when the code is impossible
    void validate() const;
    //! "K=7 polys=[79,-109] rate 1/2" and the like
    std::string describe() const;

    //! Output bits (bit r = output r, inversions applied) for previous state `state`
    //! (bit 0 = newest past input) and input bit `x`.
    uint32_t output(uint32_t state, uint32_t x) const;

    //! Named presets: "ccsds", "nasa-dsn", "ccsds-uninverted", "nasa-dsn-uninverted",
    //! "voyager" (alias of nasa-dsn-uninverted), "80211", "80211-2/3", "80211-3/4",
    //! "80211-5/6", "dvbs-7/8", "lte".
    static conv_code preset(const std::string& name);
    static std::vector<std::string> preset_names();
};

//! Parses "133,171" style octal lists (textbook convention, MSB = current input) into
//! gr-fec polynomials for constraint length k. Provided for users who have octal tables.
std::vector<int> polys_from_octal(const std::vector<int>& octal, int k);

} // namespace gpufec

#endif
