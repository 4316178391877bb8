/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Frames for error-rate simulation made by one rule on the CPU and on a GPU, so a sweep is paced
 * by the decoder rather than by making its input, and the counts do not depend on where frames
 * were made (docs/ber.md, "How frames are made").
 *
 * Frame f of point p of a run with seed s:
 * - its information bits are the XOR of the rows of a basis chosen by a 64-bit mask, drawn
 *   from Philox4x32-10 under the key of (s, p) at counter (0, f, 1). The basis is 64 random
 *   information words (drawn from the seed alone), each encoded once by the family's encoder;
 *   the code bits are then encode(0) XOR the chosen rows' encode(u) XOR encode(0), which is
 *   encode(information bits) for every affine encoder (make_span_basis checks it).
 * - each code bit goes through BPSK over AWGN and quantize_soft's int8 rule, drawn exactly:
 *   value j takes a 64-bit uniform from Philox at counter (j / 2, f, 0) and looks it up in the
 *   cumulative probabilities of the 255 int8 levels (64-bit thresholds computed once a point in
 *   double), so no floating point runs per value and the CPU and GPU give the same bytes.
 *   Packed 4-bit input takes pack_soft4's nibble of that int8 value.
 *
 * Rows are bytes packed most significant bit first (as decoders' packed output), zero padded to
 * whole 32-bit words, read as little-endian words. */
#ifndef INCLUDED_GPUFEC_SIM_SPAN_FRAMES_H
#define INCLUDED_GPUFEC_SIM_SPAN_FRAMES_H

#include "philox.h"
#include "runtime/host_device.h"
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpufec {
namespace sim {

constexpr int span_rows = 64; //!< basis rows: one bit of a frame's mask each

struct span_basis {
    size_t k = 0, n = 0;                   //!< information and code bits of a frame
    size_t info_words = 0, code_words = 0; //!< 32-bit words of a row
    std::vector<uint32_t> info;            //!< span_rows rows of information bits
    std::vector<uint32_t> code;            //!< span_rows rows encode(u) ^ encode(0), then encode(0)
    size_t info_bytes() const { return info_words * 4; } //!< a frame's information bytes as made
};

//! an encoder of one frame: k information bits in, n code bits out, one bit a byte
using span_encode_fn = std::function<void(const uint8_t* info, uint8_t* code)>;

/*! The basis of `seed` for a code of k information and n code bits; nullopt when `encode` is
 *  not affine (it then gave a frame other than the XOR of the rows predicts). */
std::optional<span_basis> make_span_basis(size_t k, size_t n, const span_encode_fn& encode, uint64_t seed);

struct span_key {
    uint32_t k0 = 0, k1 = 0;
};
//! the Philox key of point `point` of a run seeded with `seed`
span_key make_span_key(uint64_t seed, uint64_t point);

/*! BPSK over AWGN quantised to int8: t[j] = 2^64 P(q <= j - 127 | bit 1) for j < 254 (the last
 *  two: 2^64 - 1). Bit 0 gives -q (the rule and the noise are symmetric). */
struct awgn_levels {
    uint64_t t[256];
};
//! the levels of noise deviation sigma (symbols +-1) and int8 scale `scale` (quantize_soft's)
awgn_levels make_awgn_levels(double sigma, double scale);

//! the int8 value of a bit 1 for uniform u (binary search in the thresholds)
GPUFEC_HD int awgn_level(const uint64_t* t, uint64_t u)
{
    int below = 0; // thresholds <= u (a select, not a branch: u is random)
    for (int step = 128; step > 0; step >>= 1)
        below += t[below + step - 1] <= u ? step : 0;
    return (below > 254 ? 254 : below) - 127;
}

/*! The CPU's way into the levels: where the count of thresholds <= u starts for each of 4096
 *  ranges of u (u >> 52); a few steps from there give awgn_level's count (the thresholds are
 *  254 among 4096 ranges: most hold none). The GPU keeps the binary search (the index would not
 *  fit a kernel's parameters). */
struct awgn_index {
    uint8_t start[4096];
};
awgn_index make_awgn_index(const awgn_levels& lv);

//! awgn_level's value through the index
inline int awgn_level_indexed(const uint64_t* t, const awgn_index& ix, uint64_t u)
{
    int c = ix.start[u >> 52];
    while (c < 254 && t[c] <= u)
        ++c;
    return c - 127;
}

//! pack_soft4's nibble of an int8 value (q = sign(v) min(7, (|v| + 8) >> 4), two's complement)
GPUFEC_HD uint32_t soft4_nibble(int v)
{
    const int a = v < 0 ? -v : v, q = (a + 8) >> 4 > 7 ? 7 : (a + 8) >> 4;
    return uint32_t(v < 0 ? -q : q) & 0xfu;
}

/*! value i of a batch's output: the int8 value into soft8, or its nibble into soft4 (the low
 *  one of a byte first: the makers write a byte's two values in order, from one thread) */
GPUFEC_HD void put_soft_value(int8_t* soft8, uint8_t* soft4, uint64_t i, int v)
{
    if (soft4) {
        const uint32_t nib = soft4_nibble(v);
        soft4[i / 2] = uint8_t(i & 1 ? (soft4[i / 2] & 0x0fu) | nib << 4 : nib);
    } else {
        soft8[i] = int8_t(v);
    }
}

//! frame f's mask of basis rows
GPUFEC_HD uint64_t span_mask(span_key key, uint64_t frame)
{
    const philox4x32 r = philox4x32_10({ { 0u, uint32_t(frame), uint32_t(frame >> 32), 1u } }, key.k0, key.k1);
    return r.v[0] | uint64_t(r.v[1]) << 32;
}

//! word w of the XOR of the rows (each `words` long) that `mask` chooses
GPUFEC_HD uint32_t span_row_word(const uint32_t* rows, size_t words, uint64_t mask, size_t w)
{
    uint32_t x = 0;
    for (int b = 0; b < span_rows; ++b)
        x ^= (mask >> b & 1) ? rows[size_t(b) * words + w] : 0u;
    return x;
}

//! the code bits of word w of a frame of mask `mask`
GPUFEC_HD uint32_t span_code_word(const uint32_t* code_rows, size_t code_words, uint64_t mask, size_t w)
{
    return span_row_word(code_rows, code_words, mask, w) ^ code_rows[size_t(span_rows) * code_words + w];
}

//! frame f's draw for its values 2 p and 2 p + 1 (the first takes words 0, 1; the second 2, 3)
GPUFEC_HD philox4x32 span_pair_draw(span_key key, uint64_t frame, uint64_t p)
{
    return philox4x32_10({ { uint32_t(p), uint32_t(frame), uint32_t(frame >> 32), 0u } }, key.k0, key.k1);
}

//! the uniform of the first (h = 0) or second (h = 1) value of a pair's draw
GPUFEC_HD uint64_t pair_uniform(const philox4x32& r, int h)
{
    return h ? r.v[2] | uint64_t(r.v[3]) << 32 : r.v[0] | uint64_t(r.v[1]) << 32;
}

/*! The values of code word w (values 32 w .. 32 w + 31, those below n) of a frame:
 *  put(j, int8 value) for each; level(u): awgn_level's value of uniform u; draw(p): the frame's
 *  draw of pair p (span_pair_draw, computed there or read where the CPU made it ahead). */
template <class Put, class Level, class Draw>
GPUFEC_HD void span_word_values(Level&& level, Draw&& draw, uint32_t bits, size_t w, size_t n, Put&& put)
{
    for (int i = 0; i < 32; i += 2) {
        const size_t j = 32 * w + size_t(i);
        if (j >= n)
            return;
        const philox4x32 r = draw(j >> 1);
        const int q0 = level(pair_uniform(r, 0));
        const int q1 = level(pair_uniform(r, 1));
        // bit i of the word: byte i / 8, most significant bit first
        const bool b0 = bits >> (8 * (i >> 3) + 7 - (i & 7)) & 1u, b1 = bits >> (8 * (i >> 3) + 6 - (i & 7)) & 1u;
        put(j, b0 ? q0 : -q0);
        if (j + 1 < n)
            put(j + 1, b1 ? q1 : -q1);
    }
}

//! where a batch goes: int8 values (soft8) or packed 4-bit ones (soft4), and the information bytes
struct span_output {
    int8_t* soft8 = nullptr;
    uint8_t* soft4 = nullptr; //!< frames of an even number of values only
    uint8_t* info = nullptr;  //!< info_bytes() a frame
};

//! frames [first, first + count) on the CPU (the process's shared pool)
void make_span_frames_cpu(const span_basis& b, const awgn_levels& lv, span_key key, uint64_t first,
                          uint64_t count, const span_output& out);

/*! The same frames made on a GPU, into page-locked host memory, on a stream of its own: two
 *  slots, so a batch is made while the decoder decodes the one before. */
class span_maker_gpu
{
public:
    virtual ~span_maker_gpu() = default;
    //! starts making frames [first, first + count) into `slot` (0 or 1); returns at once
    virtual void start(int slot, const awgn_levels& lv, span_key key, uint64_t first, uint64_t count) = 0;
    //! waits for the slot's frames; then its host memory holds them
    virtual span_output wait(int slot) = 0;
    virtual std::string device() const = 0; //!< "cuda:0"
};
/*! A maker on GPU `device` for frames of `soft_bits` (8 or 4) input; throws std::runtime_error
 *  where the library has no CUDA or the GPU cannot be used. */
std::unique_ptr<span_maker_gpu> make_span_maker_gpu(int device, const span_basis& b, int soft_bits);

} // namespace sim
} // namespace gpufec

#endif
