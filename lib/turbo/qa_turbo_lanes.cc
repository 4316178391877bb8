/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The SIMD CPU engine (a group of frames per vector) against the scalar engine, for every
 * instruction set the machine has: the same decisions, iterations and CRC results, frame by
 * frame, on noisy, failing, clean and full-scale input, partial groups included. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_engine.h"
#include "turbo_test_util.h"
#include <gtest/gtest.h>
#include <cstdlib>

namespace gpufec {
namespace {

struct engine_case {
    int K;
    size_t frames;
    double ebn0;
    int window, training, iterations;
    const char* crc;
    bool early;
};

void expect_same(const engine_case& c, const std::vector<int8_t>& in, const char* isa)
{
    const turbo_code code = turbo_code::named("lte:" + std::to_string(c.K));
    turbo_options o;
    o.max_iterations = c.iterations;
    o.training = c.training;
    o.window = c.window;
    o.crc = c.crc;
    o.early_termination = c.early;
    auto scalar = make_turbo_fixed_scalar(code, o, c.window);
    auto lanes = make_turbo_fixed_cpu(code, o, c.window);
    const size_t bytes = size_t(c.K) / 8;
    std::vector<uint8_t> a(c.frames * bytes), b(c.frames * bytes);
    std::vector<frame_status> ra(c.frames), rb(c.frames);
    run_engine(*scalar, in.data(), c.frames, a.data(), ra.data());
    run_engine(*lanes, in.data(), c.frames, b.data(), rb.data());
    const std::string what = std::string(isa) + " K=" + std::to_string(c.K) + " W=" + std::to_string(c.window) +
                             " T=" + std::to_string(c.training) + " crc=" + c.crc;
    int failed = 0, early = 0;
    for (size_t f = 0; f < c.frames; ++f) {
        EXPECT_TRUE(std::equal(a.begin() + long(f * bytes), a.begin() + long((f + 1) * bytes), b.begin() + long(f * bytes)))
            << what << " frame " << f;
        EXPECT_EQ(ra[f].iterations, rb[f].iterations) << what << " frame " << f;
        EXPECT_EQ(ra[f].check, rb[f].check) << what << " frame " << f;
        failed += ra[f].check == 0;
        early += ra[f].iterations < c.iterations;
    }
    if (*c.crc && c.early) // the case means something only if frames stop at different iterations
        EXPECT_GT(early, 0) << what;
    (void)failed;
}

TEST(turbo_lanes, simd_engine_gives_the_scalar_engines_bits)
{
    const engine_case cases[] = {
        { 40, 37, 0.5, 16, 32, 6, "", false },            // a partial last group
        { 1024, 21, 0.6, 16, 32, 6, "", false },
        { 1056, 40, 0.8, 16, 16, 8, "lte-24b", true },     // frames stop at different iterations
        { 6144, 9, 0.6, 16, 32, 6, "lte-24a", false },
        { 512, 19, 0.7, 64, 24, 5, "lte-24a", true },      // longer windows
        { 2048, 5, 5.0, 16, 32, 3, "lte-16", true },       // clean: every frame stops at once
    };
    const char* isas[] = { "baseline", "avx2", "avx512" };
    for (const char* isa : isas) {
        ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
        for (const auto& c : cases) {
            const std::string crc = *c.crc ? std::string(", crc=") + c.crc : std::string();
            turbo_test::noisy_frames t("code=lte:" + std::to_string(c.K) + crc, c.ebn0, c.frames, uint32_t(c.K + c.frames));
            expect_same(c, t.soft, isa);
        }
        // full-scale values, -128 included: the metrics reach their bounds
        const engine_case x = { 256, 11, 0, 16, 32, 4, "", false };
        std::vector<int8_t> extreme(x.frames * size_t(3 * x.K + 12));
        uint32_t r = 12345;
        for (auto& v : extreme) {
            r = r * 1103515245u + 12345u;
            v = (r >> 16) & 1 ? int8_t(127) : int8_t(-128);
        }
        expect_same(x, extreme, isa);
    }
    unsetenv("GPUFEC_SIMD");
}

// The int8 engine (precision=int8, the CPU only) has no scalar twin: its bits are those of its
// own rules (saturating sums, the largest metric as reference), which every instruction set
// computes alike: the same decisions, iterations and CRC results with AVX-512 (64 frames a vector),
// AVX2 (32) and without (16), partial groups, the interleaved layout (values lane by lane) and
// full-scale input included.
TEST(turbo_lanes, int8_engine_gives_the_same_bits_on_every_instruction_set)
{
    struct int8_case {
        std::string code;
        size_t frames;
        double ebn0;
        int iterations;
        const char* crc;
        const char* more;
    };
    const int8_case cases[] = {
        { "lte:40", 37, 0.5, 6, "", "" },
        { "lte:1056", 70, 0.8, 8, "lte-24b", "" }, // frames stop at different iterations
        { "lte:6144", 9, 0.6, 6, "lte-24a", "" },
        { "lte:512", 19, 0.7, 5, "", ", scaling=0.7" }, // the extrinsic's other two ways
        { "lte:512", 19, 0.7, 5, "", ", scaling=0.5" },
        { "lte:1056", 21, 0.8, 6, "", ", window=16" }, // the GPU's window (default: 128)
    };
    for (const auto& c : cases) {
        for (const bool interleaved : { false, true }) {
            const std::string crc = *c.crc ? std::string(", crc=") + c.crc : std::string();
            const std::string layout = interleaved ? ", layout=interleaved" : "";
            turbo_test::noisy_frames t("code=" + c.code + crc + layout, c.ebn0, c.frames, uint32_t(c.frames * 7));
            std::vector<int8_t> extreme(t.soft.size());
            uint32_t r = 99;
            for (auto& v : extreme) {
                r = r * 1103515245u + 12345u;
                v = (r >> 16) & 1 ? int8_t(127) : int8_t(-128);
            }
            for (const auto* in : { &t.soft, &extreme }) {
                std::vector<std::vector<uint8_t>> bits;
                std::vector<std::vector<frame_status>> status;
                for (const char* isa : { "baseline", "avx2", "avx512" }) {
                    ASSERT_EQ(setenv("GPUFEC_SIMD", isa, 1), 0);
                    auto dec = make_frame_decoder("turbo",
                                                  parse_frame_options("code=" + c.code + crc + layout + c.more +
                                                                      ", precision=int8, max_iterations=" +
                                                                      std::to_string(c.iterations)),
                                                  device_spec::parse("cpu"));
                    bits.emplace_back(c.frames * dec->output_bytes(true));
                    status.emplace_back(c.frames);
                    frame_batch b;
                    b.frames = c.frames;
                    b.soft = in->data();
                    b.bits = bits.back().data();
                    b.packed = true;
                    b.status = status.back().data();
                    dec->decode(b);
                }
                unsetenv("GPUFEC_SIMD");
                const std::string what = c.code + crc + layout + c.more + (in == &extreme ? ", full scale" : "");
                for (size_t i = 1; i < bits.size(); ++i) {
                    EXPECT_EQ(bits[i], bits[0]) << what << ", instruction set " << i;
                    for (size_t f = 0; f < c.frames; ++f) {
                        EXPECT_EQ(status[i][f].iterations, status[0][f].iterations) << what << " frame " << f;
                        EXPECT_EQ(status[i][f].check, status[0][f].check) << what << " frame " << f;
                    }
                }
            }
        }
    }
}

} // namespace
} // namespace gpufec
