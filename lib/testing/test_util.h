/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_TESTING_TEST_UTIL_H
#define INCLUDED_GPUFEC_TESTING_TEST_UTIL_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <random>
#include <vector>

//! GPU tests skip themselves where no CUDA device can be used (the CI machine)
#define GPUFEC_REQUIRE_GPU()                                                                        \
    do {                                                                                            \
        if (::gpufec::cuda_devices().empty())                                                       \
            GTEST_SKIP() << "no usable CUDA device";                                                \
    } while (0)

namespace gpufec::test {

inline std::vector<uint8_t> random_bits(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> b(n);
    for (auto& x : b)
        x = rng() & 1;
    return b;
}

//! BPSK (bit 1 -> +1, gr-fec's convention) over AWGN at `ebn0_db` for code rate `rate`,
//! quantised with the library's float -> int8 rule. noise = false gives clean +-32 values.
inline std::vector<int8_t>
channel(const std::vector<uint8_t>& coded, double rate, double ebn0_db, uint32_t seed, bool noise = true)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> gauss(0.f, 1.f);
    const double sigma = std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0)));
    std::vector<float> f(coded.size());
    for (size_t i = 0; i < coded.size(); ++i)
        f[i] = (coded[i] ? 1.f : -1.f) + (noise ? float(sigma) * gauss(rng) : 0.f);
    std::vector<int8_t> q(f.size());
    quantize_soft(f.data(), q.data(), f.size());
    return q;
}

inline size_t count_errors(const uint8_t* a, const uint8_t* b, size_t n)
{
    size_t e = 0;
    for (size_t i = 0; i < n; ++i)
        e += (a[i] & 1) != (b[i] & 1);
    return e;
}

//! a batch's decisions (output_bits() a frame, a bit a byte) and statuses
struct decoded_frames {
    std::vector<uint8_t> bits;
    std::vector<frame_status> status;
};

//! `frames` frames through a decoder, whole: set_input(batch) points the batch at its input
template <class SetInput>
decoded_frames decode_frames_from(batch_decoder& dec, size_t frames, SetInput&& set_input)
{
    decoded_frames d;
    d.bits.assign(frames * dec.output_bits(), 0);
    d.status.assign(frames, frame_status{});
    frame_batch b;
    b.frames = frames;
    set_input(b);
    b.bits = d.bits.data();
    b.status = d.status.data();
    dec.decode(b);
    return d;
}

//! `frames` frames of int8 soft values through a decoder, whole
inline decoded_frames decode_frames(batch_decoder& dec, const int8_t* soft, size_t frames)
{
    return decode_frames_from(dec, frames, [&](frame_batch& b) { b.soft = soft; });
}

//! the same from packed 4-bit values (frame_batch::soft4)
inline decoded_frames decode_frames_soft4(batch_decoder& dec, const uint8_t* soft4, size_t frames)
{
    return decode_frames_from(dec, frames, [&](frame_batch& b) { b.soft4 = soft4; });
}

inline double code_rate(const conv_code& c)
{
    return double(c.period()) / c.kept_per_period();
}

//! Sets an environment variable for a scope and restores what it was (tuning choices that
//! engines read at construction).
class scoped_env
{
public:
    scoped_env(const char* name, const char* value) : d_name(name)
    {
        if (const char* old = std::getenv(name))
            d_old = old;
        setenv(name, value, 1);
    }
    ~scoped_env()
    {
        if (d_old)
            setenv(d_name.c_str(), d_old->c_str(), 1);
        else
            unsetenv(d_name.c_str());
    }
    scoped_env(const scoped_env&) = delete;
    scoped_env& operator=(const scoped_env&) = delete;

private:
    std::string d_name;
    std::optional<std::string> d_old;
};

} // namespace gpufec::test

#endif
