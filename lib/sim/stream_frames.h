/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The endless stream of a streaming convolutional-code simulation, made by one rule on the CPU
 * and a GPU (the stream counterpart of span_frames.h; docs/ber.md, "How frames are made").
 *
 * Point p of a run with seed s has one stream, starting in state 0 at stage 0:
 * - stage t's information bit is bit t mod 128 of Philox4x32-10 under the key of (s, p) at
 *   counter (t / 128 as two words, 0, 4): any stretch of the stream is drawn where it is needed;
 * - value v of the transmitted (punctured) stream is its stage's output through the code's
 *   polynomials, from the K information bits it depends on;
 * - value v's noise: BPSK over AWGN quantised to int8, drawn exactly from the uniform of
 *   Philox at counter (v / 2 as two words, 0, 5) (span_frames.h's awgn_levels).
 * So a block's values and bits do not depend on which stretch was made with it. */
#ifndef INCLUDED_GPUFEC_SIM_STREAM_FRAMES_H
#define INCLUDED_GPUFEC_SIM_STREAM_FRAMES_H

#include "span_frames.h"
#include <gnuradio/gpufec/core/codes/conv_code.h>

namespace gpufec {
namespace sim {

//! a convolutional code as the makers read it
struct stream_code {
    static constexpr int max_kept = 64; //!< kept values of a puncturing period
    uint32_t k = 0, n = 0, period = 1, kept = 0;
    uint32_t mag[4] = {};  //!< polynomials without their signs (bit 0: the current input)
    uint32_t rmag[4] = {}; //!< the same reversed over k bits (bit k - 1: the current input)
    uint32_t invert = 0;   //!< bit r: output r inverted
    uint8_t stage_of[max_kept] = {}, output_of[max_kept] = {}; //!< the kept values of a period, in order
};
//! throws std::invalid_argument for a puncturing period keeping more than max_kept values
stream_code make_stream_code(const conv_code& c);

//! stage t's information bit (0 before the stream's start)
GPUFEC_HD philox4x32 stream_info_block(span_key key, uint64_t block)
{
    return philox4x32_10({ { uint32_t(block), uint32_t(block >> 32), 0u, 4u } }, key.k0, key.k1);
}

//! the information bits of stages [t0, t0 + 256) at most (t0 may be negative: zeros there)
struct stream_window {
    int64_t base = 0; //!< stage of bit 0 of w (a multiple of 128)
    uint32_t w[8] = {};
    GPUFEC_HD uint32_t bit(int64_t t) const
    {
        if (t < 0)
            return 0;
        const int64_t i = t - base;
        return w[i >> 5] >> (i & 31) & 1u;
    }
};
//! the window holding stages [from, to] (to - from < 128); stages before 0 read as zeros
GPUFEC_HD stream_window stream_bits(span_key key, int64_t from, int64_t to)
{
    stream_window s;
    const int64_t first = from < 0 ? 0 : from;
    s.base = (first / 128) * 128;
    if (to < 0)
        return s;
    const philox4x32 a = stream_info_block(key, uint64_t(s.base / 128));
    for (int i = 0; i < 4; ++i)
        s.w[i] = a.v[i];
    if (to >= s.base + 128) {
        const philox4x32 b = stream_info_block(key, uint64_t(s.base / 128 + 1));
        for (int i = 0; i < 4; ++i)
            s.w[4 + i] = b.v[i];
    }
    return s;
}

//! the stage of value v
GPUFEC_HD int64_t stream_stage_of(const stream_code& c, uint64_t v)
{
    return int64_t(v / c.kept) * c.period + c.stage_of[v % c.kept];
}

GPUFEC_HD uint32_t parity32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return uint32_t(__popc(x)) & 1u;
#else // (folds: without -mpopcnt a popcount is a library call)
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    return (0x6996u >> (x & 0xfu)) & 1u;
#endif
}

//! the stream's draw for its values 2 p and 2 p + 1
GPUFEC_HD philox4x32 stream_pair_draw(span_key key, uint64_t p)
{
    return philox4x32_10({ { uint32_t(p), uint32_t(p >> 32), 0u, 5u } }, key.k0, key.k1);
}

/*! Values [v, v + 32) below v_end: put(value index, int8 value); level(u): awgn_level's value of
 *  uniform u; draw(p): stream_pair_draw of pair p (values 2 p and 2 p + 1 share it, whichever
 *  group they fall in), computed there or read where the CPU made it ahead. */
template <class Put, class Level, class Draw>
GPUFEC_HD void stream_group_values(const stream_code& c, Level&& level, Draw&& draw, span_key key, uint64_t v,
                                   uint64_t v_end, Put&& put)
{
    const uint64_t last = (v + 32 < v_end ? v + 32 : v_end) - 1;
    uint64_t period = v / c.kept; // value y: stage period * c.period + c.stage_of[r]
    uint32_t r = uint32_t(v - period * c.kept);
    const int64_t t_a = int64_t(period) * c.period + c.stage_of[r], t_b = stream_stage_of(c, last);
    const int64_t from = t_a - int64_t(c.k) + 1;
    const stream_window win = stream_bits(key, from, t_b);
    // the group's information bits as one word: bit i = stage from + i (zeros before stage 0)
    uint64_t bits = 0;
    const bool one_word = t_b - from < 64;
    if (one_word) {
        const uint64_t lo = win.w[0] | uint64_t(win.w[1]) << 32, mid = win.w[2] | uint64_t(win.w[3]) << 32,
                       hi = win.w[4] | uint64_t(win.w[5]) << 32;
        if (from < 0) {
            bits = lo << (-from);
        } else {
            const int64_t o = from - win.base; // in [0, 128)
            const uint64_t a = o < 64 ? lo : mid, b = o < 64 ? mid : hi;
            const int sh = int(o & 63);
            bits = sh ? a >> sh | b << (64 - sh) : a;
        }
    }
    philox4x32 rnd{};
    for (uint64_t y = v; y <= last; ++y) {
        if (y == v || !(y & 1))
            rnd = draw(y >> 1);
        const int64_t stage = int64_t(period) * c.period + c.stage_of[r];
        const uint32_t out = c.output_of[r];
        uint32_t bit;
        if (one_word) { // stages stage - k + 1 .. stage are bits stage - t_a .. stage - t_a + k - 1
            bit = parity32(uint32_t(bits >> (stage - t_a)) & c.rmag[out]);
        } else { // (puncturing keeping few values a period)
            uint32_t reg = 0; // bit j: the input j stages back
            for (uint32_t j = 0; j < c.k; ++j)
                reg |= win.bit(stage - int64_t(j)) << j;
            bit = parity32(reg & c.mag[out]);
        }
        bit ^= c.invert >> out & 1u;
        const int q = level(pair_uniform(rnd, int(y & 1)));
        put(y, bit ? q : -q);
        if (++r == c.kept) {
            r = 0;
            ++period;
        }
    }
}

//! the information bits of stages [s, s + 32) below s_end, packed most significant bit first
GPUFEC_HD uint32_t stream_info_word(span_key key, int64_t s, int64_t s_end)
{
    const int64_t last = (s + 32 < s_end ? s + 32 : s_end) - 1;
    const stream_window win = stream_bits(key, s, last);
    uint8_t bytes[4] = {};
    for (int64_t x = s; x <= last; ++x)
        bytes[(x - s) >> 3] |= uint8_t(win.bit(x) << (7 - ((x - s) & 7)));
    return uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
}

/*! What a stretch is: values [v0, v1) of the stream (int8 into soft8 or packed 4-bit into
 *  soft4, value v at v - v0), and the information bits of stages [s0, s1) packed into info
 *  ((s1 - s0 + 7) / 8 bytes, rounded up to whole words). */
struct stream_stretch {
    uint64_t v0 = 0, v1 = 0;
    int64_t s0 = 0, s1 = 0;
    size_t info_bytes() const { return size_t((s1 - s0 + 31) / 32) * 4; }
};

void make_stream_cpu(const stream_code& c, const awgn_levels& lv, span_key key, const stream_stretch& st,
                     const span_output& out);

//! the stream's stretches made on a GPU: two slots, as span_maker_gpu
class stream_maker_gpu
{
public:
    virtual ~stream_maker_gpu() = default;
    virtual void start(int slot, const awgn_levels& lv, span_key key, const stream_stretch& st) = 0;
    virtual span_output wait(int slot) = 0;
    virtual std::string device() const = 0;
};
std::unique_ptr<stream_maker_gpu> make_stream_maker_gpu(int device, const stream_code& c, int soft_bits);

} // namespace sim
} // namespace gpufec

#endif
