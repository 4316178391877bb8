/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>
#include <gtest/gtest.h>

#include "ldpc_common.h"
#include "testing/test_util.h"
#include <cmath>
#include <cstdio>
#include <random>
#include <cstdlib>

using namespace gpufec;

namespace {

struct batch {
    std::vector<uint8_t> info, cw;
    std::vector<int8_t> soft;
};

batch make_batch(const ldpc_code& c, int frames, double ebn0, bool noise, uint32_t seed)
{
    batch b;
    b.info = test::random_bits(size_t(c.k()) * frames, seed);
    b.cw.resize(size_t(c.n()) * frames);
    ldpc_encoder(c).encode(b.info.data(), size_t(frames), b.cw.data());
    b.soft = test::channel(b.cw, c.rate(), ebn0, seed + 1, noise);
    return b;
}

ldpc_options opts(ldpc_algorithm a, ldpc_precision p, int iters = 10, bool et = true)
{
    ldpc_options o;
    o.algorithm = a;
    o.precision = p;
    o.max_iterations = iters;
    o.early_termination = et;
    return o;
}

const device_spec cpu = device_spec::parse("cpu");

} // namespace

TEST(ldpc_decoder, noiseless_round_trip_in_one_iteration_for_every_standard_code)
{
    for (const auto& id : ldpc_code::standard_ids()) {
        const ldpc_code c = ldpc_code::standard(id);
        const auto b = make_batch(c, 2, 0, false, 3);
        for (auto p : { ldpc_precision::int8, ldpc_precision::int16 }) {
            ldpc_decoder dec(c, opts(ldpc_algorithm::layered_min_sum, p), cpu);
            std::vector<uint8_t> out(size_t(c.k()) * 2);
            ldpc_result res[2];
            dec.decode(b.soft.data(), 2, out.data(), ldpc_output::info, false, res);
            EXPECT_EQ(out, b.info) << id;
            for (const auto& r : res) {
                EXPECT_EQ(r.iterations, 1) << id;
                EXPECT_TRUE(r.syndrome_ok) << id;
            }
        }
    }
}

TEST(ldpc_decoder, many_iterations_without_early_termination_stay_correct)
{
    // posteriors grow every iteration at high SNR; they must never saturate (ldpc_common.h)
    for (const char* id : { "802.11n:1944:1/2", "802.16e:2304:5/6" }) {
        const ldpc_code c = ldpc_code::standard(id);
        const auto b = make_batch(c, 2, 8.0, true, 6);
        for (auto p : { ldpc_precision::int8, ldpc_precision::int16, ldpc_precision::float32 }) {
            ldpc_decoder dec(c, opts(ldpc_algorithm::layered_min_sum, p, 40, false), cpu);
            std::vector<uint8_t> out(size_t(c.k()) * 2);
            ldpc_result res[2];
            dec.decode(b.soft.data(), 2, out.data(), ldpc_output::info, false, res);
            EXPECT_EQ(out, b.info) << id << " " << to_string(p);
            EXPECT_EQ(res[0].iterations, 40);
            EXPECT_TRUE(res[1].syndrome_ok);
        }
    }
}

TEST(ldpc_decoder, every_algorithm_and_precision_corrects_noise)
{
    const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
    const int frames = 40;
    const auto b = make_batch(c, frames, 3.0, true, 11);
    size_t raw = 0;
    for (size_t i = 0; i < b.cw.size(); ++i)
        raw += (b.soft[i] > 0) != (b.cw[i] == 1);
    ASSERT_GT(raw, b.cw.size() / 50); // the channel makes many errors ...
    struct cfg {
        ldpc_algorithm a;
        ldpc_precision p;
    };
    for (auto k : { cfg{ ldpc_algorithm::layered_min_sum, ldpc_precision::int8 },
                    cfg{ ldpc_algorithm::layered_min_sum, ldpc_precision::int16 },
                    cfg{ ldpc_algorithm::layered_min_sum, ldpc_precision::float32 },
                    cfg{ ldpc_algorithm::flooding_min_sum, ldpc_precision::int16 },
                    cfg{ ldpc_algorithm::flooding_min_sum, ldpc_precision::float32 },
                    cfg{ ldpc_algorithm::sum_product, ldpc_precision::float32 } }) {
        ldpc_decoder dec(c, opts(k.a, k.p, 30), cpu);
        std::vector<uint8_t> out(b.cw.size());
        std::vector<ldpc_result> res(frames);
        if (k.p == ldpc_precision::float32) {
            // float decoders take true LLRs (positive = bit 1): 2 y / sigma^2, y = soft / 32;
            // sum-product needs the right scale, min-sum does not care
            const double sigma2 = 1.0 / (2.0 * c.rate() * std::pow(10.0, 0.3));
            std::vector<float> llr(b.soft.size());
            for (size_t i = 0; i < llr.size(); ++i)
                llr[i] = float(2.0 * (b.soft[i] / 32.0) / sigma2);
            dec.decode(llr.data(), frames, out.data(), ldpc_output::codeword, false, res.data());
        } else {
            dec.decode(b.soft.data(), frames, out.data(), ldpc_output::codeword, false, res.data());
        }
        int bad = 0;
        for (int f = 0; f < frames; ++f)
            bad += !std::equal(out.begin() + f * c.n(), out.begin() + (f + 1) * c.n(), b.cw.begin() + f * c.n());
        // ... and every decoder fixes nearly all frames at 3 dB (FER ~ 1e-3 expected)
        EXPECT_LE(bad, 2) << to_string(k.a) << " " << to_string(k.p);
        for (int f = 0; f < frames; ++f)
            if (std::equal(out.begin() + f * c.n(), out.begin() + (f + 1) * c.n(), b.cw.begin() + f * c.n()))
                EXPECT_TRUE(res[f].syndrome_ok);
    }
}

TEST(ldpc_decoder, layered_converges_in_fewer_iterations_than_flooding)
{
    const ldpc_code c = ldpc_code::standard("802.11n:1944:1/2");
    const int frames = 20;
    const auto b = make_batch(c, frames, 2.0, true, 5);
    double it[2] = { 0, 0 };
    int k = 0;
    for (auto a : { ldpc_algorithm::layered_min_sum, ldpc_algorithm::flooding_min_sum }) {
        ldpc_decoder dec(c, opts(a, ldpc_precision::int16, 50), cpu);
        std::vector<uint8_t> out(size_t(c.k()) * frames);
        std::vector<ldpc_result> res(frames);
        dec.decode(b.soft.data(), frames, out.data(), ldpc_output::info, false, res.data());
        for (const auto& r : res)
            it[k] += r.iterations;
        ++k;
    }
    EXPECT_LT(it[0], 0.75 * it[1]) << it[0] << " vs " << it[1];
}

TEST(ldpc_decoder, early_termination_changes_iterations_not_decisions_of_converged_frames)
{
    const ldpc_code c = ldpc_code::standard("802.16e:2304:2/3A");
    const int frames = 16;
    const auto b = make_batch(c, frames, 3.5, true, 9);
    std::vector<uint8_t> out[2];
    std::vector<ldpc_result> res[2];
    for (int et = 0; et < 2; ++et) {
        ldpc_decoder dec(c, opts(ldpc_algorithm::layered_min_sum, ldpc_precision::int16, 10, et == 1), cpu);
        out[et].resize(size_t(c.k()) * frames);
        res[et].resize(frames);
        dec.decode(b.soft.data(), frames, out[et].data(), ldpc_output::info, false, res[et].data());
    }
    for (int f = 0; f < frames; ++f) {
        EXPECT_EQ(res[0][f].iterations, 10);
        EXPECT_LT(res[1][f].iterations, 10);
        EXPECT_TRUE(res[1][f].syndrome_ok);
    }
    EXPECT_EQ(out[0], b.info);
    EXPECT_EQ(out[1], b.info);
}

TEST(ldpc_decoder, outputs_packed_codeword_and_posteriors_agree)
{
    const ldpc_code c = ldpc_code::standard("802.11n:648:3/4");
    const int frames = 3;
    const auto b = make_batch(c, frames, 4.0, true, 2);
    ldpc_decoder dec(c, ldpc_options{}, cpu);
    std::vector<uint8_t> cw(size_t(c.n()) * frames), info(size_t(c.k()) * frames),
        packed(size_t((c.k() + 7) / 8) * frames);
    std::vector<float> post(cw.size());
    dec.decode(b.soft.data(), frames, cw.data(), ldpc_output::codeword, false, nullptr, post.data());
    dec.decode(b.soft.data(), frames, info.data(), ldpc_output::info, false);
    dec.decode(b.soft.data(), frames, packed.data(), ldpc_output::info, true);
    for (size_t i = 0; i < cw.size(); ++i)
        ASSERT_EQ(cw[i], post[i] > 0 ? 1 : 0) << i; // positive posterior = bit 1
    for (int f = 0; f < frames; ++f) {
        EXPECT_TRUE(std::equal(info.begin() + f * c.k(), info.begin() + (f + 1) * c.k(), cw.begin() + f * c.n()));
        std::vector<uint8_t> unpacked(size_t(c.k()));
        unpack_bits(packed.data() + f * ((c.k() + 7) / 8), size_t(c.k()), unpacked.data());
        EXPECT_TRUE(std::equal(unpacked.begin(), unpacked.end(), info.begin() + f * c.k()));
    }
}

TEST(ldpc_decoder, float_input_nan_and_infinities)
{
    const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
    const auto b = make_batch(c, 1, 0, false, 4);
    std::vector<float> f(b.soft.size());
    for (size_t i = 0; i < f.size(); ++i)
        f[i] = b.cw[i] ? 1.f : -1.f;
    f[3] = NAN;
    f[10] = NAN;
    f[20] = b.cw[20] ? INFINITY : -INFINITY;
    for (auto p : { ldpc_precision::int16, ldpc_precision::float32 }) {
        ldpc_decoder dec(c, opts(ldpc_algorithm::layered_min_sum, p), cpu);
        std::vector<uint8_t> out(size_t(c.k()));
        EXPECT_EQ(dec.decode(f.data(), 1, out.data()), 2u); // two NaN, decoded as erasures
        EXPECT_EQ(out, b.info);
    }
}

TEST(ldpc_decoder, fast_cpu_engine_equals_reference_at_every_simd_width)
{
    // several codes (QC with various Z and row degrees, and a non-QC alist copy), both message
    // widths, early termination on and off, a batch that is not a multiple of the lanes; DVB-S2
    // 16200 1/2 is large enough for the messages stored in half-width lanes (AVX-512, AVX2);
    // rows of 6 to 22 entries (held in registers) and 16200 8/9's of 27 (the loop)
    std::vector<ldpc_code> codes = { ldpc_code::standard("802.11n:648:1/2"), ldpc_code::standard("802.11n:1944:5/6"),
                                     ldpc_code::standard("802.16e:576:2/3A"), ldpc_code::standard("802.16e:1248:3/4B"),
                                     ldpc_code::standard("dvbs2:16200:1/2"), ldpc_code::standard("dvbs2:16200:8/9") };
    codes.push_back(ldpc_code::from_alist(ldpc_code::standard("802.16e:672:1/2").to_alist(), "alist copy"));
    for (const char* isa : { "avx512", "avx2", "baseline" }) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        for (const auto& c : codes) {
            const int frames = 37;
            const auto b = make_batch(c, frames, 1.0 + 2.5 * c.rate(), true, 12);
            for (auto p : { ldpc_precision::int8, ldpc_precision::int16 })
                for (bool et : { true, false }) {
                    auto o = opts(ldpc_algorithm::layered_min_sum, p, 8, et);
                    // (int8 without offset takes the short normalisation, with one the long)
                    o.offset = p == ldpc_precision::int8 && et ? 1.f : 0.f;
                    std::vector<uint8_t> out[2];
                    std::vector<ldpc_result> res[2];
                    std::vector<float> post[2];
                    std::string name;
                    for (int ref = 0; ref < 2; ++ref) {
                        o.cpu_reference = ref == 1;
                        ldpc_decoder dec(c, o, cpu);
                        if (ref == 0)
                            name = dec.backend();
                        out[ref].resize(size_t(c.n()) * frames);
                        res[ref].resize(frames);
                        post[ref].resize(size_t(c.n()) * frames);
                        dec.decode(b.soft.data(), frames, out[ref].data(), ldpc_output::codeword, false,
                                   res[ref].data(), post[ref].data());
                    }
                    const std::string what = name + " " + c.id() + " " + to_string(p) + (et ? " ET" : "");
                    EXPECT_NE(name.find("codewords per vector"), std::string::npos) << what;
                    EXPECT_EQ(out[0], out[1]) << what;
                    EXPECT_EQ(post[0], post[1]) << what;
                    for (int f = 0; f < frames; ++f) {
                        ASSERT_EQ(res[0][f].iterations, res[1][f].iterations) << what << " " << f;
                        ASSERT_EQ(res[0][f].syndrome_ok, res[1][f].syndrome_ok) << what << " " << f;
                    }
                }
        }
    }
    unsetenv("GPUFEC_SIMD");
}

TEST(ldpc_decoder, fast_cpu_engine_equals_reference_at_every_normalisation)
{
    // int8 without offset (the lanes' short normalisation: each row's minima held to 2047 / k
    // before the product) for every factor k / 16, on strong input (minima past the cap) and
    // weak; the widest instruction set here and the baseline
    const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
    const int frames = 37;
    const auto weak = make_batch(c, frames, 1.5, true, 21);
    const auto strong = make_batch(c, frames, 6.0, true, 22);
    for (const char* isa : { "avx512", "baseline" }) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        for (int k = 1; k <= 16; ++k)
            for (const auto* b : { &weak, &strong }) {
                auto o = opts(ldpc_algorithm::layered_min_sum, ldpc_precision::int8, 6, false);
                o.normalization = float(k) / 16.f;
                std::vector<uint8_t> out[2];
                std::vector<float> post[2];
                for (int ref = 0; ref < 2; ++ref) {
                    o.cpu_reference = ref == 1;
                    ldpc_decoder dec(c, o, cpu);
                    out[ref].resize(size_t(c.n()) * frames);
                    post[ref].resize(size_t(c.n()) * frames);
                    std::vector<ldpc_result> res(frames);
                    dec.decode(b->soft.data(), frames, out[ref].data(), ldpc_output::codeword, false, res.data(),
                               post[ref].data());
                }
                const std::string what = std::string(isa) + " k " + std::to_string(k) + (b == &weak ? " weak" : " strong");
                EXPECT_EQ(out[0], out[1]) << what;
                EXPECT_EQ(post[0], post[1]) << what;
            }
    }
    unsetenv("GPUFEC_SIMD");
}

TEST(ldpc_decoder, the_decoder_keeps_its_own_copy_of_the_code)
{
    // built from a temporary code, as the GNU Radio block does
    for (auto p : { ldpc_precision::int8, ldpc_precision::int16, ldpc_precision::float32 }) {
        ldpc_decoder dec(ldpc_code::standard("802.16e:576:1/2"), opts(ldpc_algorithm::layered_min_sum, p), cpu);
        const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
        const auto b = make_batch(c, 3, 0, false, 13);
        std::vector<uint8_t> out(size_t(c.k()) * 3);
        dec.decode(b.soft.data(), 3, out.data());
        EXPECT_EQ(out, b.info) << to_string(p);
    }
}

namespace {

//! frame error count of the float layered min-sum reference on `frames` random codewords
int float_frame_errors(const ldpc_code& c, double ebn0, int frames, float normalization, int iterations,
                       uint32_t seed)
{
    const auto info = test::random_bits(size_t(c.k()) * frames, seed);
    std::vector<uint8_t> cw(size_t(c.n()) * frames);
    ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
    std::mt19937 rng(seed + 1);
    std::normal_distribution<float> g(0.f, float(std::sqrt(1.0 / (2.0 * c.rate() * std::pow(10.0, ebn0 / 10)))));
    std::vector<float> y(cw.size());
    for (size_t i = 0; i < y.size(); ++i)
        y[i] = (cw[i] ? 1.f : -1.f) + g(rng); // min-sum does not depend on the LLR scale
    auto o = opts(ldpc_algorithm::layered_min_sum, ldpc_precision::float32, iterations, true);
    o.normalization = normalization;
    ldpc_decoder dec(c, o, cpu);
    std::vector<uint8_t> out(info.size());
    dec.decode(y.data(), size_t(frames), out.data());
    int bad = 0;
    for (int f = 0; f < frames; ++f)
        bad += !std::equal(out.begin() + size_t(f) * c.k(), out.begin() + size_t(f + 1) * c.k(),
                           info.begin() + size_t(f) * c.k());
    return bad;
}

} // namespace

TEST(ldpc_decoder, error_rates_agree_with_published_references)
{
    // AFF3CT's error_rate_references (github.com/aff3ct/error_rate_references), BPSK over AWGN,
    // float layered (horizontal) normalised min-sum:
    //  - LDPC/AWGN/BPSK/BP_HORIZONTAL_LAYERED/NMS/LDPC_N576_K288_hlayered_NMS_i100_WiMAX.txt:
    //    802.16e (576, 288), normalisation 0.825, 100 iterations: FER 4.74e-2 at 1.75 dB,
    //    1.41e-2 at 2.0 dB (about 100 frame errors each);
    //  - LDPC/AWGN/BPSK/BP_HORIZONTAL_LAYERED/NMS/LDPC_N648_K540_hlayered_NMS_i10_Wi-Fi.txt:
    //    802.11n (648, 540), normalisation 1.0, 10 iterations: FER 3.63e-2 at 4.0 dB,
    //    1.09e-2 at 4.2 dB.
    // Our count must lie within the combined statistical spread of both simulations (4 sigma,
    // plus 15% for the reference's own 100-error uncertainty).
    struct point {
        const char* id;
        float norm;
        int iterations;
        double ebn0, fer;
        int frames;
    };
    const point pts[] = { { "802.16e:576:1/2", 0.825f, 100, 1.75, 4.74e-2, 3000 },
                          { "802.16e:576:1/2", 0.825f, 100, 2.00, 1.41e-2, 6000 },
                          { "802.11n:648:5/6", 1.0f, 10, 4.00, 3.63e-2, 3000 },
                          { "802.11n:648:5/6", 1.0f, 10, 4.20, 1.09e-2, 6000 } };
    for (const auto& p : pts) {
        const ldpc_code c = ldpc_code::standard(p.id);
        const int bad = float_frame_errors(c, p.ebn0, p.frames, p.norm, p.iterations, 100);
        const double expect = p.fer * p.frames;
        EXPECT_NEAR(bad, expect, 4 * std::sqrt(expect) + 0.15 * expect)
            << p.id << " at " << p.ebn0 << " dB: " << bad << " frame errors in " << p.frames
            << ", published FER " << p.fer;
        std::printf("%s %.2f dB: FER %.3e (published %.3e)\n", p.id, p.ebn0, double(bad) / p.frames, p.fer);
    }
}

TEST(ldpc_decoder, bad_options_fail_at_construction)
{
    const ldpc_code c = ldpc_code::standard("802.11n:648:1/2");
    auto o = ldpc_options{};
    o.max_iterations = 0;
    EXPECT_THROW(ldpc_decoder(c, o, cpu), std::invalid_argument);
    o = ldpc_options{};
    o.normalization = 1.5f;
    EXPECT_THROW(ldpc_decoder(c, o, cpu), std::invalid_argument);
    o = ldpc_options{};
    o.algorithm = ldpc_algorithm::sum_product; // needs float
    EXPECT_THROW(ldpc_decoder(c, o, cpu), std::invalid_argument);
    EXPECT_THROW(parse_ldpc_algorithm("bp"), std::invalid_argument);
    // sum-product needs true LLRs: int8 soft values are refused
    o = ldpc_options{};
    o.algorithm = ldpc_algorithm::sum_product;
    o.precision = ldpc_precision::float32;
    ldpc_decoder spa(c, o, cpu);
    std::vector<int8_t> soft(size_t(c.n()), 10);
    std::vector<uint8_t> out(size_t(c.k()));
    EXPECT_THROW(spa.decode(soft.data(), 1, out.data()), std::invalid_argument);
    EXPECT_THROW(parse_ldpc_precision("int4"), std::invalid_argument);
}

TEST(ldpc_decoder, normalisation_in_32_bits_matches_the_wide_definition)
{
    // ldpc_norm clamps magnitudes at 2^22 to stay in 32 bits; every engine shares it, so it must
    // give what the definition (ldpc_common.h) gives in wide arithmetic, up to int32 posteriors
    std::vector<int> mags;
    for (int m = 0; m < 70000; m += 7)
        mags.push_back(m);
    for (int m : { (1 << 22) - 1, 1 << 22, (1 << 22) + 1, 1 << 27, (1 << 30) + 12345, 2147483647 })
        mags.push_back(m);
    for (int mmax : { 127, 32767 })
        for (int norm16 = 1; norm16 <= 16; ++norm16)
            for (int offset : { 0, 1, 5, 127 }) {
                const ldpc_fixed f{ mmax, norm16, offset };
                for (int m : mags) {
                    const long long v = ((static_cast<long long>(m) * norm16) >> 4) - offset;
                    const long long want = v < 0 ? 0 : (v > mmax ? mmax : v);
                    ASSERT_EQ(ldpc_norm(m, f), want) << "mag " << m << " norm16 " << norm16 << " offset "
                                                     << offset << " mmax " << mmax;
                }
            }
}
