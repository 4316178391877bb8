/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CODES_CONV_FRAME_CHECKS_H
#define INCLUDED_GPUFEC_CODES_CONV_FRAME_CHECKS_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <stdexcept>
#include <string>

namespace gpufec {

//! Frame-length rules shared by the encoder and the decoders.
inline void check_frame_bits(const conv_code& code, conv_mode mode, int frame_bits)
{
    if (mode == conv_mode::streaming)
        return;
    if (frame_bits < code.k - 1 || frame_bits > (1 << 24))
        throw std::invalid_argument("frame_bits: " + std::to_string(frame_bits) +
                                    " is out of range for frame mode " + to_string(mode) +
                                    " (allowed: " + std::to_string(code.k - 1) + ".." +
                                    std::to_string(1 << 24) + ")");
    if (frame_bits % code.period() != 0)
        throw std::invalid_argument("frame_bits: " + std::to_string(frame_bits) +
                                    " is not a multiple of the puncturing period of " +
                                    std::to_string(code.period()) + " stages");
}

} // namespace gpufec

#endif
