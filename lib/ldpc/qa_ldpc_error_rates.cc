/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Frame error rates against published ones: AFF3CT's reference curves (the
 * aff3ct/error_rate_references repository, commit 021a9e0), simulated there with the same
 * decoder family (horizontal layered normalised min-sum, float), code, iterations, BPSK and AWGN.
 * Our float decoder (CPU) must agree within statistical error at points in the waterfall
 * (a two-proportion test, |z| < 4.5: a 0.1 dB shift there moves the FER by far more). The
 * int16 and int8 paths (the GPU's arithmetic) are printed beside them and must stay within
 * 0.1 dB's worth: not above the reference of the next point down. DVB-S2 codes here, through the
 * family's encoder and decoder (their send order); the IEEE codes' points are in qa_ldpc_decoder
 * (error_rates_agree_with_published_references). */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gtest/gtest.h>

#include "testing/test_util.h"
#include <cmath>
#include <cstdio>
#include <random>

using namespace gpufec;

namespace {

struct reference_point {
    double ebn0;
    int frames, errors; // AFF3CT's counts
};

struct reference_curve {
    const char* source; // the reference file
    const char* options; // ours, the same decoder
    std::vector<reference_point> points;
};

//! frame errors of `frames` random frames through BPSK / AWGN at Eb/N0 (bit 1 -> +1)
size_t frame_errors(const std::string& options, size_t frames, double ebn0, uint32_t seed)
{
    const device_spec cpu = device_spec::parse("cpu");
    auto enc = make_frame_encoder("ldpc", parse_frame_options(options));
    auto dec = make_frame_decoder("ldpc", parse_frame_options(options), cpu);
    const size_t k = enc->info_bits(), n = enc->coded_bits();
    const double sigma = std::sqrt(1.0 / (2.0 * double(k) / double(n) * std::pow(10.0, ebn0 / 10.0)));
    const auto info = test::random_bits(frames * k, seed);
    std::vector<uint8_t> coded(frames * n), out(frames * k);
    enc->encode(info.data(), frames, coded.data());
    std::mt19937 rng(seed + 1);
    std::normal_distribution<float> gauss(0.f, 1.f);
    std::vector<float> f(coded.size());
    for (size_t i = 0; i < coded.size(); ++i)
        f[i] = (coded[i] ? 1.f : -1.f) + float(sigma) * gauss(rng);
    std::vector<int8_t> q(f.size());
    quantize_soft(f.data(), q.data(), f.size());
    frame_batch b;
    b.frames = frames;
    if (dec->wants_float_input())
        b.soft_f = f.data();
    else
        b.soft = q.data();
    b.bits = out.data();
    dec->decode(b);
    size_t errors = 0;
    for (size_t i = 0; i < frames; ++i)
        errors += test::count_errors(out.data() + i * k, info.data() + i * k, k) > 0;
    return errors;
}

double z_score(double e1, double n1, double e2, double n2)
{
    const double p = (e1 + e2) / (n1 + n2);
    const double se = std::sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
    return se > 0 ? (e1 / n1 - e2 / n2) / se : 0.0;
}

void check(const reference_curve& c, size_t frames)
{
    for (size_t i = 0; i < c.points.size(); ++i) {
        const auto& p = c.points[i];
        const double ref = double(p.errors) / p.frames;
        const size_t ef = frame_errors(std::string(c.options) + ", precision=float", frames, p.ebn0, 100 + uint32_t(i));
        const double z = z_score(double(ef), double(frames), double(p.errors), double(p.frames));
        std::printf("%s at Eb/N0 %.2f dB: AFF3CT FER %.3g (%d/%d), ours float %.3g (%zu/%zu, z %.2f)", c.source,
                    p.ebn0, ref, p.errors, p.frames, double(ef) / frames, ef, frames, z);
        EXPECT_LT(std::fabs(z), 4.5) << c.source << " at " << p.ebn0 << " dB";
        // the fixed-point paths: within 0.1 dB, i.e. no worse than the reference 0.1 dB lower
        for (const char* prec : { "int16", "int8" }) {
            const size_t e = frame_errors(std::string(c.options) + ", precision=" + prec, frames, p.ebn0, 100 + uint32_t(i));
            std::printf(", %s %.3g", prec, double(e) / frames);
            if (i > 0) {
                const auto& lower = c.points[i - 1];
                EXPECT_LT(z_score(double(e), double(frames), double(lower.errors), double(lower.frames)), 4.5)
                    << c.source << " " << prec << " at " << p.ebn0 << " dB";
            }
        }
        std::printf("\n");
    }
}

} // namespace

TEST(ldpc_error_rates, dvbs2_short_8_9_matches_aff3ct)
{
    // LDPC_N16200_K14400_hlayered_NMS_i10_DVB-S2.txt: NMS 0.75, 10 iterations, syndrome stop
    check({ "AFF3CT DVB-S2 (16200, 14400) NMS 10 it",
            "code=dvbs2:16200:8/9, normalization=0.75, max_iterations=10",
            { { 3.6, 528, 351 }, { 3.7, 768, 212 }, { 3.8, 1784, 128 } } },
          800);
}

TEST(ldpc_error_rates, dvbs2_short_3_4_matches_aff3ct)
{
    // LDPC_N16200_K11880_hlayered_NMS_i10_DVB-S2.txt
    check({ "AFF3CT DVB-S2 (16200, 11880) NMS 10 it",
            "code=dvbs2:16200:3/4, normalization=0.75, max_iterations=10",
            { { 2.5, 215, 128 }, { 2.6, 511, 112 }, { 2.7, 1904, 102 } } },
          800);
}
