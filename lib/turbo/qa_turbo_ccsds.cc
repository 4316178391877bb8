/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS turbo code (131.0-B section 6): the permutation, the encoder against a shift-register
 * encoder written from the standard's figure 6-2 (not from the trellis class), noiseless round
 * trips for every size and rate, the error rate against AFF3CT's published K=1784 curve, the
 * frame-error-control CRC, and what the CCSDS codes refuse. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"

#include "testing/test_util.h"
#include "turbo_test_util.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <tuple>

using namespace gpufec;
using namespace gpufec::turbo_test;

namespace {

/* One component encoder of figure 6-2: registers D1..D4 (D1 the newest); the register input is
 * a = u + D3 + D4 (G0 = 10011); the outputs are G1 = 11011: a + D1 + D3 + D4, G2 = 10101:
 * a + D2 + D4, G3 = 11111: a + D1 + D2 + D3 + D4. In the 4 termination bit times the input is
 * the feedback D3 + D4, so a = 0. Writes, per bit time, {u, G1, G2, G3}. */
std::vector<std::array<uint8_t, 4>> figure_6_2_encoder(const std::vector<uint8_t>& u)
{
    uint8_t d[5] = {}; // d[1..4]
    std::vector<std::array<uint8_t, 4>> out;
    for (size_t t = 0; t < u.size() + 4; ++t) {
        const uint8_t fb = d[3] ^ d[4];
        const uint8_t in = t < u.size() ? u[t] : fb;
        const uint8_t a = in ^ fb;
        out.push_back({ in, uint8_t(a ^ d[1] ^ d[3] ^ d[4]), uint8_t(a ^ d[2] ^ d[4]),
                        uint8_t(a ^ d[1] ^ d[2] ^ d[3] ^ d[4]) });
        d[4] = d[3];
        d[3] = d[2];
        d[2] = d[1];
        d[1] = a;
    }
    EXPECT_EQ(d[1] | d[2] | d[3] | d[4], 0) << "not terminated";
    return out;
}

const int rates[] = { 2, 3, 4, 6 };

} // namespace

TEST(turbo_ccsds, permutation)
{
    for (int K : interleaver::ccsds_sizes()) {
        const interleaver pi = interleaver::ccsds_turbo(K); // from_permutation checks it is one
        ASSERT_EQ(pi.size(), size_t(K));
    }
    // the first values for K = 1784 (k2 = 223), worked by hand from the standard's equations
    // (1-based there): s = 1: t = 1, q = 2, c = 0, pi = 2 (1 + 0 + 1) - 0 = 4; s = 2: m = 1,
    // c = 21, pi = 2 (1 + 84 + 1) - 1 = 171; s = 3: j = 1, c = 37, pi = 2 (1 + 148 + 1) = 300;
    // s = 447: i = 1, j = 0, t = 20 mod 4 = 0, q = 1, c = 0, pi = 2 (0 + 0 + 1) = 2
    const interleaver pi = interleaver::ccsds_turbo(1784);
    EXPECT_EQ(pi[0], 3u);
    EXPECT_EQ(pi[1], 170u);
    EXPECT_EQ(pi[2], 299u);
    EXPECT_EQ(pi[446], 1u);
    EXPECT_THROW(interleaver::ccsds_turbo(1785), std::invalid_argument);
    EXPECT_THROW(interleaver::ccsds_turbo(6144), std::invalid_argument);
}

TEST(turbo_ccsds, encoder_follows_figure_6_2_at_every_rate)
{
    for (int K : interleaver::ccsds_sizes())
        for (int r : rates) {
            const turbo_code c = turbo_code::ccsds(K, r);
            ASSERT_EQ(c.coded_bits(), size_t(r) * size_t(K + 4));
            const auto bits = test::random_bits(size_t(K), uint32_t(K + r));
            std::vector<uint8_t> ub(static_cast<size_t>(K));
            for (int k = 0; k < K; ++k)
                ub[size_t(k)] = bits[c.pi[size_t(k)]];
            const auto a = figure_6_2_encoder(bits), b = figure_6_2_encoder(ub);
            std::vector<uint8_t> cw(c.coded_bits());
            turbo_encode(c, bits.data(), cw.data());
            // the note under figure 6-2: the symbols of each bit time, top to bottom
            for (size_t t = 0; t < size_t(K + 4); ++t) {
                std::vector<uint8_t> want;
                switch (r) {
                case 2:
                    want = { a[t][0], t % 2 ? b[t][1] : a[t][1] };
                    break;
                case 3:
                    want = { a[t][0], a[t][1], b[t][1] };
                    break;
                case 4:
                    want = { a[t][0], a[t][2], a[t][3], b[t][1] };
                    break;
                default:
                    want = { a[t][0], a[t][1], a[t][2], a[t][3], b[t][1], b[t][3] };
                }
                for (size_t i = 0; i < want.size(); ++i)
                    ASSERT_EQ(cw[t * size_t(r) + i], want[i]) << "K " << K << " rate 1/" << r << " t " << t << " i " << i;
            }
        }
}

TEST(turbo_ccsds, noiseless_round_trip_every_size_and_rate)
{
    turbo_options o;
    o.max_iterations = 2;
    for (int K : interleaver::ccsds_sizes())
        for (int r : rates) {
            const turbo_code c = turbo_code::ccsds(K, r);
            const auto bits = test::random_bits(size_t(K), uint32_t(3 * K + r));
            std::vector<uint8_t> cw(c.coded_bits()), out(static_cast<size_t>(K));
            turbo_encode(c, bits.data(), cw.data());
            turbo_reference_decoder dec(c, o);
            const auto llr = to_llr(cw, 2.f);
            dec.decode(llr.data(), out.data());
            ASSERT_EQ(out, bits) << "K " << K << " rate 1/" << r;
        }
}

TEST(turbo_ccsds, log_map_matches_the_published_1784_curve)
{
    // AFF3CT error_rate_references TURBO/AWGN/BPSK/RSC_RSC/BCJR/CCSDS/
    // Turbo_N5352_K1784_BCJR_i10_CCSDS (exact max*, 10 iterations, rate 1/3): FER 1.21e-1 at
    // 0.3 dB and 5.57e-2 at 0.4 dB (about 100 frame errors each, so +-10 % of their own). Their
    // codeword also sends encoder b's 4 tail systematic bits (5368 bits, ours 5364: 0.003 dB).
    // Here 400 frames a point, stopping when the decisions stop changing; bound: the published
    // FER +- 4 standard errors of both counts.
    const struct {
        double ebn0, fer;
    } pts[] = { { 0.3, 0.121 }, { 0.4, 0.0557 } };
    for (const auto& p : pts) {
        const size_t frames = 400;
        const uint64_t fe = frame_errors_llr("code=ccsds:1784:1/3, algorithm=log-map, max_iterations=10", p.ebn0,
                                             frames, 17);
        const double se = std::sqrt(p.fer * (1 - p.fer) / double(frames) + p.fer * p.fer / 100.0);
        EXPECT_NEAR(double(fe) / double(frames), p.fer, 4 * se) << "Eb/N0 " << p.ebn0 << ": " << fe << " of " << frames;
    }
    // rate 1/6 decodes far below where rate 1/2 can, max-log (int8) as well
    const fer_point r6 = simulate("code=ccsds:1784:1/6, max_iterations=10", 0.4, 60, 19);
    const fer_point r2 = simulate("code=ccsds:1784:1/2, max_iterations=10", 0.4, 60, 19);
    EXPECT_LT(r6.fer(), 0.1);
    EXPECT_GT(r2.fer(), 0.9);
}

TEST(turbo_ccsds, frame_crc_and_what_ccsds_refuses)
{
    // the CCSDS frame error control (CRC-16) as the code block's CRC: clean frames pass, stop early
    const fer_point clean = simulate("code=ccsds:1784:1/2, crc=ccsds-16, max_iterations=10", 3.0, 8, 23);
    EXPECT_EQ(clean.frame_errors, 0u);
    EXPECT_LE(clean.mean_iterations, 3.0);
    auto dec = make_frame_decoder("turbo", parse_frame_options("code=ccsds:8920:1/6, crc=ccsds-16"),
                                  device_spec::parse("cpu"));
    EXPECT_EQ(dec->input_per_frame(), 6u * 8924u);
    EXPECT_EQ(dec->output_bits(), 8920u - 16u);
    EXPECT_TRUE(dec->has_check());

    EXPECT_EQ(turbo_code::named("ccsds:1784").rate_inv, 3);
    EXPECT_EQ(turbo_code::named("ccsds:3568:1/4").coded_bits(), 4u * 3572u);
    EXPECT_EQ(turbo_code::named("ccsds:7136:1/2").id(), "ccsds:7136:1/2");
    for (const char* bad : { "ccsds:1785", "ccsds:1784:1/5", "ccsds:1784:2/3", "ccsds:1784:1/", "ccsds:", "ccsds" })
        EXPECT_THROW(turbo_code::named(bad), std::invalid_argument) << bad;
    EXPECT_THROW(turbo_code::named("ccsds:1784", turbo_layout::interleaved), std::invalid_argument);
    for (const char* bad : { "code=ccsds:1784, algorithm=fptd", "code=ccsds:1784, engine=fixed, window=12" })
        EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options(bad)), std::invalid_argument) << bad;
    // the GPU engine runs windows up to 32 (on a machine without a GPU, device=cuda is refused anyway)
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=ccsds:1784, window=64"), device_spec::parse("cuda")),
                 std::invalid_argument);
}

// the GPU engine for the CCSDS codes against the CPU SIMD engine (the same int32 arithmetic):
// the same bits, iterations and CRC results, frame for frame, on the waterfall, for rates 1/2,
// 1/3 and 1/6, windows of 16 and 32, training 16 and 32, the CRC with and without early stop, in
// chunks smaller than the batch
TEST(turbo_ccsds, gpu_gives_the_cpu_engines_bits)
{
    GPUFEC_REQUIRE_GPU();
    struct c {
        const char* options;
        double ebn0;
    };
    for (const c& x : { c{ "code=ccsds:1784, max_iterations=10", 0.2 },
                        c{ "code=ccsds:3568:1/6, max_iterations=8, window=32, training=16", -0.3 },
                        c{ "code=ccsds:8920:1/2, crc=ccsds-16, early_termination=false, max_iterations=6", 1.0 },
                        c{ "code=ccsds:1784:1/2, crc=ccsds-16, max_iterations=10", 1.0 } }) {
        const size_t frames = 37;
        noisy_frames t(x.options, x.ebn0, frames, 31);
        frame_options og = parse_frame_options(x.options);
        og["max_batch"] = "16";
        auto gpu = make_frame_decoder("turbo", og, device_spec::parse("cuda"));
        EXPECT_TRUE(gpu->on_gpu()) << gpu->backend();
        std::vector<uint8_t> out(frames * gpu->output_bits());
        std::vector<frame_status> sc(frames), sg(frames);
        for (auto [d, bits, st] : { std::make_tuple(t.dec.get(), &t.out, &sc), std::make_tuple(gpu.get(), &out, &sg) }) {
            frame_batch b;
            b.frames = frames;
            b.soft = t.soft.data();
            b.bits = bits->data();
            b.status = st->data();
            d->decode(b);
        }
        EXPECT_EQ(out, t.out) << x.options;
        size_t failed = 0;
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(sg[f].iterations, sc[f].iterations) << x.options << " frame " << f;
            EXPECT_EQ(sg[f].check, sc[f].check) << x.options << " frame " << f;
            failed += t.errors(f) > 0;
        }
        EXPECT_GT(failed, 0u) << x.options << ": no frame failed, the comparison is too easy";
        EXPECT_LT(failed, frames) << x.options;
    }
}

TEST(turbo_ccsds, fixed_point_simd_engine_against_the_float_reference)
{
    // max-log both ways, 10 iterations, the same noisy frames: the int32 lanes (windows of 16,
    // training 32) must decode what the float whole-block BCJR decodes, but for a few frames
    const size_t frames = 400;
    for (const char* code : { "code=ccsds:1784", "code=ccsds:1784:1/2", "code=ccsds:3568:1/6" }) {
        const std::string c = code;
        const double ebn0 = c.find("1/6") != std::string::npos ? -0.2 : c.find("1/2") != std::string::npos ? 1.0 : 0.5;
        const std::string o = c + ", max_iterations=10";
        noisy_frames fx(o, ebn0, frames, 21);
        noisy_frames ref(o + ", engine=reference", ebn0, frames, 21);
        ASSERT_EQ(fx.soft, ref.soft);
        for (auto* t : { &fx, &ref }) {
            frame_batch b;
            b.frames = frames;
            b.soft = t->soft.data();
            b.bits = t->out.data();
            t->dec->decode(b);
        }
        EXPECT_NE(fx.dec->backend().find("fixed-point"), std::string::npos) << fx.dec->backend();
        size_t e_fx = 0, e_ref = 0, differ = 0;
        for (size_t f = 0; f < frames; ++f) {
            e_fx += fx.errors(f) > 0;
            e_ref += ref.errors(f) > 0;
            differ += (fx.errors(f) > 0) != (ref.errors(f) > 0);
        }
        // a point on the waterfall (errors on both sides): the same frame error rate within its
        // statistics, and the same frames but for those near the decision threshold (the windows
        // and the fixed point move a few either way)
        EXPECT_GT(e_ref, 10u) << code;
        EXPECT_LT(e_ref, frames / 2) << code;
        EXPECT_LE(double(differ), 0.1 * frames) << code << ": fixed " << e_fx << ", float " << e_ref;
        EXPECT_LE(double(e_fx), 1.25 * double(e_ref) + 5) << code << ": fixed " << e_fx << ", float " << e_ref;
        EXPECT_GE(double(e_fx), 0.75 * double(e_ref) - 5) << code << ": fixed " << e_fx << ", float " << e_ref;
    }
}

TEST(turbo_ccsds, fixed_point_engine_is_the_same_for_every_instruction_set)
{
    const size_t frames = 21; // partial groups for every lane count
    noisy_frames t("code=ccsds:1784:1/4, crc=ccsds-16", 0.2, frames, 5);
    std::vector<std::vector<uint8_t>> outs;
    std::vector<std::vector<frame_status>> sts;
    for (const char* isa : { "baseline", "avx2", "avx512" }) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        auto dec = make_frame_decoder("turbo", parse_frame_options("code=ccsds:1784:1/4, crc=ccsds-16"),
                                      device_spec::parse("cpu"));
        std::vector<uint8_t> out(frames * dec->output_bits());
        std::vector<frame_status> st(frames);
        frame_batch b;
        b.frames = frames;
        b.soft = t.soft.data();
        b.bits = out.data();
        b.status = st.data();
        dec->decode(b);
        outs.push_back(out);
        sts.push_back(st);
    }
    unsetenv("GPUFEC_SIMD");
    for (size_t i = 1; i < outs.size(); ++i) {
        EXPECT_EQ(outs[i], outs[0]) << "instruction set " << i;
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(sts[i][f].iterations, sts[0][f].iterations) << f;
            EXPECT_EQ(sts[i][f].check, sts[0][f].check) << f;
        }
    }
    int early = 0;
    for (size_t f = 0; f < frames; ++f)
        early += sts[0][f].iterations < 6;
    EXPECT_GT(early, 0); // frames stopped at different iterations
}
