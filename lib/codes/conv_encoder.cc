/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/trellis.h>

#include "codes/conv_frame_checks.h"
#include <stdexcept>

namespace gpufec {

conv_encoder::conv_encoder(const conv_code& code, conv_mode mode, int frame_bits)
    : d_code(code), d_mode(mode), d_frame_bits(frame_bits)
{
    d_code.validate();
    check_frame_bits(d_code, mode, frame_bits);
    // branches from the codes layer's trellis (shift-register states: bit 0 = newest input)
    const trellis tr = trellis::feed_forward(d_code);
    const uint32_t states = d_code.states();
    d_out.resize(2 * states);
    for (uint32_t s = 0; s < states; ++s)
        for (uint32_t x = 0; x < 2; ++x)
            d_out[2 * s + x] = tr.output(s, x);
}

int conv_encoder::frame_stages() const
{
    return d_frame_bits + (d_mode == conv_mode::terminated ? d_code.k - 1 : 0);
}

size_t conv_encoder::output_per_frame() const
{
    return static_cast<size_t>(d_code.kept_for_stages(frame_stages()));
}

void conv_encoder::reset()
{
    d_state = 0;
    d_phase = 0;
}

size_t conv_encoder::encode(const uint8_t* bits, size_t nbits, uint8_t* out)
{
    if (d_mode != conv_mode::streaming)
        throw std::logic_error("conv_encoder::encode is for streaming mode; use encode_frames");
    const int n = d_code.n();
    const uint32_t mask = d_code.states() - 1;
    const bool punct = !d_code.puncture.empty();
    const int period = d_code.period();
    size_t o = 0;
    for (size_t i = 0; i < nbits; ++i) {
        const uint32_t x = bits[i] & 1;
        const uint32_t c = d_out[2 * d_state + x];
        for (int r = 0; r < n; ++r)
            if (!punct || d_code.puncture[d_phase * n + r])
                out[o++] = (c >> r) & 1;
        d_state = ((d_state << 1) | x) & mask;
        if (++d_phase == period)
            d_phase = 0;
    }
    return o;
}

void conv_encoder::encode_frames(const uint8_t* bits, size_t frames, uint8_t* out) const
{
    if (d_mode == conv_mode::streaming)
        throw std::logic_error("conv_encoder::encode_frames is for frame modes; use encode");
    const int n = d_code.n();
    const int km1 = d_code.k - 1;
    const uint32_t mask = d_code.states() - 1;
    const bool punct = !d_code.puncture.empty();
    const int period = d_code.period();
    const int stages = frame_stages();
    for (size_t f = 0; f < frames; ++f) {
        const uint8_t* in = bits + f * d_frame_bits;
        uint32_t state = 0;
        if (d_mode == conv_mode::tailbiting) // start in the state the frame ends in
            for (int i = d_frame_bits - km1; i < d_frame_bits; ++i)
                state = ((state << 1) | (in[i] & 1)) & mask;
        int phase = 0;
        for (int t = 0; t < stages; ++t) {
            const uint32_t x = t < d_frame_bits ? (in[t] & 1) : 0;
            const uint32_t c = d_out[2 * state + x];
            for (int r = 0; r < n; ++r)
                if (!punct || d_code.puncture[phase * n + r])
                    *out++ = (c >> r) & 1;
            state = ((state << 1) | x) & mask;
            if (++phase == period)
                phase = 0;
        }
    }
}

} // namespace gpufec
