/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_CONV_ENCODER_H
#define INCLUDED_GPUFEC_CORE_CONV_ENCODER_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

/*! Encoder for every conv_code and mode. Bits are unpacked (one per byte, only bit 0 used).
 *
 * Streaming: encode() continues the register and the puncturing phase across calls, starting
 * from state 0. Frame modes: encode_frames() encodes whole frames of `frame_bits` bits; each
 * frame gives output_per_frame() bits (terminated frames include the K-1 tail stages). */
class conv_encoder
{
public:
    conv_encoder(const conv_code& code, conv_mode mode, int frame_bits = 0);

    const conv_code& code() const { return d_code; }
    conv_mode mode() const { return d_mode; }
    int frame_bits() const { return d_frame_bits; }
    //! trellis stages per frame (frame_bits, plus K-1 when terminated)
    int frame_stages() const;
    size_t output_per_frame() const;

    //! streaming only: returns the number of coded bits written
    size_t encode(const uint8_t* bits, size_t nbits, uint8_t* out);
    //! frame modes only
    void encode_frames(const uint8_t* bits, size_t frames, uint8_t* out) const;
    //! back to state 0 and puncturing phase 0
    void reset();

private:
    conv_code d_code;
    conv_mode d_mode;
    int d_frame_bits;
    uint32_t d_state = 0;
    int d_phase = 0;
    std::vector<uint32_t> d_out; // output pattern per (state, x)
};

} // namespace gpufec

#endif
