/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The turbo tests' simulation helpers: frames through the family's encoder, an AWGN channel and
 * its decoder, counted. */
#ifndef INCLUDED_GPUFEC_TURBO_TEST_UTIL_H
#define INCLUDED_GPUFEC_TURBO_TEST_UTIL_H

#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include "testing/test_util.h"
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {
namespace turbo_test {

inline std::vector<float> to_llr(const std::vector<uint8_t>& coded, float mag)
{
    std::vector<float> v(coded.size());
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = coded[i] ? mag : -mag;
    return v;
}

struct fer_point {
    uint64_t frames = 0, frame_errors = 0, bit_errors = 0;
    double mean_iterations = 0;
    double fer() const { return double(frame_errors) / double(frames); }
};

//! random frames encoded and sent through BPSK/AWGN (int8, 32 per unit amplitude)
struct noisy_frames {
    std::unique_ptr<batch_decoder> dec;
    size_t k = 0, n = 0;
    std::vector<uint8_t> info, out;
    std::vector<int8_t> soft;
    double rate = 0;

    noisy_frames(const std::string& options, double ebn0, size_t frames, uint32_t seed)
    {
        const auto opts = parse_frame_options(options);
        dec = make_frame_decoder("turbo", opts, device_spec::parse("cpu"));
        auto enc = make_frame_encoder("turbo", opts);
        k = enc->info_bits();
        n = enc->coded_bits();
        info = test::random_bits(frames * k, seed);
        std::vector<uint8_t> coded(frames * n);
        out.resize(frames * k);
        enc->encode(info.data(), frames, coded.data());
        // Eb/N0 per information bit of the whole codeword (tail included), as AFF3CT counts it
        rate = double(k) / double(n);
        soft = test::channel(coded, rate, ebn0, seed + 1);
    }
    size_t errors(size_t f) const { return test::count_errors(out.data() + f * k, info.data() + f * k, k); }
};

inline fer_point simulate(const std::string& options, double ebn0, size_t frames, uint32_t seed)
{
    noisy_frames t(options, ebn0, frames, seed);
    std::vector<frame_status> st(frames);
    frame_batch b;
    b.frames = frames;
    b.soft = t.soft.data();
    b.bits = t.out.data();
    b.status = st.data();
    t.dec->decode(b);
    fer_point p;
    p.frames = frames;
    for (size_t f = 0; f < frames; ++f) {
        const size_t e = t.errors(f);
        p.bit_errors += e;
        p.frame_errors += e > 0;
        p.mean_iterations += st[f].iterations;
    }
    p.mean_iterations /= double(frames);
    return p;
}

//! frames through a decoder that takes float LLRs (log-map, fptd); returns frame errors
inline uint64_t frame_errors_llr(const std::string& options, double ebn0, size_t frames, uint32_t seed)
{
    noisy_frames t(options, ebn0, frames, seed);
    const double sigma2 = 1.0 / (2.0 * t.rate * std::pow(10.0, ebn0 / 10));
    std::vector<float> llr(t.soft.size());
    for (size_t i = 0; i < llr.size(); ++i)
        llr[i] = float(t.soft[i] / 32.0 * 2.0 / sigma2);
    frame_batch b;
    b.frames = frames;
    b.bits = t.out.data();
    t.dec->decode_float(llr.data(), b);
    uint64_t fe = 0;
    for (size_t f = 0; f < frames; ++f)
        fe += t.errors(f) > 0;
    return fe;
}

} // namespace turbo_test
} // namespace gpufec

#endif
