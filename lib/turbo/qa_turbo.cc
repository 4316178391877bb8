/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The turbo family: the LTE encoder for all 188 K (termination and the tail layout of 36.212
 * 5.1.3.2.2 checked against the trellis), noiseless round trips, error rates of max-log
 * against AFF3CT's published K=6144 curve, log-map and windows, the CRC stop, bad options. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "turbo_reference.h"

#include "testing/test_util.h"
#include "turbo_test_util.h"
#include <gtest/gtest.h>
#include <chrono>
#include <cmath>
#include <thread>

using namespace gpufec;

using namespace gpufec::turbo_test;

namespace {

//! the CPU and the GPU decoder that `opts` describe, and `frames` random frames encoded
struct cpu_gpu_case {
    std::unique_ptr<batch_decoder> cpu, gpu;
    std::vector<uint8_t> coded;
    size_t k = 0, n = 0;
};

cpu_gpu_case make_cpu_gpu_case(const char* opts, size_t frames, uint32_t seed)
{
    cpu_gpu_case c;
    const auto o = parse_frame_options(opts);
    c.cpu = make_frame_decoder("turbo", o, device_spec::parse("cpu"));
    c.gpu = make_frame_decoder("turbo", o, device_spec::parse("cuda"));
    auto enc = make_frame_encoder("turbo", o);
    c.k = enc->info_bits();
    c.n = enc->coded_bits();
    const auto info = test::random_bits(frames * c.k, seed);
    c.coded.resize(frames * c.n);
    enc->encode(info.data(), frames, c.coded.data());
    return c;
}

} // namespace

TEST(turbo_code, tail_terminates_both_encoders_in_the_standard_layout)
{
    // read the 12 tail bits back from d0..d2 at K..K+3 by the equations of 5.1.3.2.2 and run
    // them through each constituent code from where its K bits left it: state 0 at the end,
    // the parities where the standard puts them
    for (int K : interleaver::lte_sizes()) {
        const turbo_code c = turbo_code::lte(K);
        const auto bits = test::random_bits(size_t(K), uint32_t(K));
        std::vector<uint8_t> cw(c.coded_bits());
        turbo_encode(c, bits.data(), cw.data());
        auto d = [&](int s, int i) { return cw[c.pos(s, size_t(K + i))]; };
        const uint8_t x[2][3] = { { d(0, 0), d(2, 0), d(1, 1) }, { d(0, 2), d(2, 2), d(1, 3) } };
        const uint8_t z[2][3] = { { d(1, 0), d(0, 1), d(2, 1) }, { d(1, 2), d(0, 3), d(2, 3) } };
        for (int e = 0; e < 2; ++e) {
            uint32_t s = 0;
            for (int k = 0; k < K; ++k) {
                const uint32_t in = e == 0 ? bits[size_t(k)] : bits[c.pi[size_t(k)]];
                ASSERT_EQ(cw[c.pos(0, size_t(k))], bits[size_t(k)]);
                ASSERT_EQ(cw[c.pos(e + 1, size_t(k))], (c.rsc.output(s, in) >> 1) & 1u) << "K " << K;
                s = c.rsc.next_state(s, in);
            }
            for (int i = 0; i < 3; ++i) {
                ASSERT_EQ(z[e][i], (c.rsc.output(s, x[e][i]) >> 1) & 1u) << "K " << K << " enc " << e;
                s = c.rsc.next_state(s, x[e][i]);
            }
            ASSERT_EQ(s, 0u) << "K " << K << " encoder " << e + 1 << " not terminated";
        }
    }
}

TEST(turbo_code, noiseless_round_trip_for_every_size)
{
    turbo_options o;
    o.max_iterations = 1;
    for (int K : interleaver::lte_sizes()) {
        for (auto layout : { turbo_layout::streams, turbo_layout::interleaved }) {
            if (layout == turbo_layout::interleaved && K % 8)
                continue; // a sample of the sizes is enough for the second layout
            const turbo_code c = turbo_code::lte(K, layout);
            const auto bits = test::random_bits(size_t(K), uint32_t(K) + 7);
            std::vector<uint8_t> cw(c.coded_bits()), out(static_cast<size_t>(K));
            turbo_encode(c, bits.data(), cw.data());
            turbo_reference_decoder dec(c, o);
            const auto llr = to_llr(cw, 4.f);
            dec.decode(llr.data(), out.data());
            ASSERT_EQ(out, bits) << "K " << K;
        }
    }
}

TEST(turbo_code, names_and_bad_options)
{
    EXPECT_EQ(turbo_code::named("lte:6144").K, 6144);
    EXPECT_THROW(turbo_code::named("lte:41"), std::invalid_argument);
    EXPECT_THROW(turbo_code::named("lte:"), std::invalid_argument);
    EXPECT_THROW(turbo_code::named("dvb:1784"), std::invalid_argument);
    EXPECT_THROW(turbo_code::named("lte:40:1/2"), std::invalid_argument); // rate matching's job
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("crc=crc-7")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("algorithm=map")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("window=1")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=lte:40, engine=reference"),
                                    device_spec::parse("cuda")),
                 std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("algorithm=log-map, engine=fixed")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("window=512")), std::invalid_argument); // fixed: <= 256
    // int8: the LTE max-log engine on the CPU only
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("precision=int4")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("precision=int8, engine=reference")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("precision=int8, code=ccsds:1784:1/2")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("precision=int8, algorithm=fptd-max-log")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("precision=int8"), device_spec::parse("cuda")),
                 std::invalid_argument);
    EXPECT_NE(make_frame_decoder("turbo", parse_frame_options("precision=int8"), device_spec::parse("cpu"))->backend().find("int8"),
              std::string::npos);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("window=12")), std::invalid_argument); // multiples of 8
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("training=12")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("training=72")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("window=0")), std::invalid_argument); // reference only
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("engine=fast")), std::invalid_argument);
    if (cuda_devices().empty())
        EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=lte:40"), device_spec::parse("cuda")),
                     std::invalid_argument);
    auto dec = make_frame_decoder("turbo", parse_frame_options("code=lte:40"));
    std::vector<int8_t> soft(dec->input_per_frame() - 1);
    std::vector<uint8_t> out(40);
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.bits = out.data();
    const size_t lens[1] = { soft.size() };
    b.input_lengths = lens;
    EXPECT_THROW(dec->decode(b), std::invalid_argument); // a frame one value short
}

TEST(turbo_decoder, max_log_matches_the_published_lte_6144_curve)
{
    // AFF3CT error_rate_references, TURBO/AWGN/BPSK/RSC_RSC/BCJR/LTE/
    // Turbo_N18432_K6144_BCJR_i6_p32_LTE (max-log, 6 iterations, float): FER 5.61e-1 at
    // 0.4 dB, 2.21e-1 at 0.5 dB (their extrinsic scaling is AFF3CT's LTE vector, ours 0.75).
    // Here int8 input, 160 frames a point, the float reference (whole block) and the fixed-point
    // engine (windows of 16, what the GPU runs): the bounds are the published FER +- 4
    // binomial standard errors of 160 frames.
    const struct {
        double ebn0, fer;
    } pts[] = { { 0.4, 0.561 }, { 0.5, 0.221 } };
    // (and the CPU's int8 engine: the same bound)
    for (const char* engine : { "reference", "fixed", "fixed, precision=int8" })
        for (const auto& p : pts) {
            const fer_point r = simulate(std::string("code=lte:6144, max_iterations=6, early_termination=false, engine=") +
                                             engine,
                                         p.ebn0, 160, 11);
            const double se = std::sqrt(p.fer * (1 - p.fer) / 160.0);
            EXPECT_NEAR(r.fer(), p.fer, 4 * se) << engine << " Eb/N0 " << p.ebn0 << ": " << r.frame_errors << " of 160";
            EXPECT_DOUBLE_EQ(r.mean_iterations, 6.0);
        }
}

TEST(turbo_decoder, log_map_and_windows)
{
    // log-map (float LLRs through decode_float) is not worse than max-log. Windows start from
    // the previous iteration's boundary metrics (uniform in the first): half-block windows
    // match the whole-block BCJR; short windows cost (K=1024, 0.7 dB, 1000 frames: FER 0.075
    // whole, 0.077 at W=512, 0.096 at 128, 0.149 at 64, 0.275 at 32), but still decode.
    const fer_point full = simulate("code=lte:1024, max_iterations=6, early_termination=false, engine=reference", 0.7, 200, 21);
    const fer_point half = simulate("code=lte:1024, max_iterations=6, early_termination=false, engine=reference, window=512", 0.7, 200, 21);
    const fer_point w32 = simulate("code=lte:1024, max_iterations=6, early_termination=false, engine=reference, window=32", 0.7, 200, 21);
    EXPECT_GT(full.frame_errors, 5u);
    EXPECT_LE(half.frame_errors, full.frame_errors + 6);
    EXPECT_GE(half.frame_errors + 6, full.frame_errors);
    EXPECT_GT(w32.frame_errors, full.frame_errors);
    EXPECT_LT(w32.fer(), 0.5);

    const std::string logmap = "code=lte:1024, algorithm=log-map, max_iterations=6, early_termination=false";
    ASSERT_TRUE(make_frame_decoder("turbo", parse_frame_options(logmap), device_spec::parse("cpu"))->wants_float_input());
    const uint64_t fe = frame_errors_llr(logmap, 0.7, 200, 21); // the frames and noise of `full`
    EXPECT_LE(fe, full.frame_errors);
}

TEST(turbo_decoder, crc_stops_early_and_reports)
{
    const fer_point clean = simulate("code=lte:2048, crc=lte-24a, max_iterations=8, engine=reference", 3.0, 20, 31);
    EXPECT_EQ(clean.frame_errors, 0u);
    EXPECT_LE(clean.mean_iterations, 2.0);
    for (const char* engine : { "reference", "fixed" }) {
    auto dec = make_frame_decoder("turbo", parse_frame_options(std::string("code=lte:2048, crc=lte-24b, engine=") + engine),
                                  device_spec::parse("cpu"));
    EXPECT_TRUE(dec->has_check());
    EXPECT_EQ(dec->output_bits(), 2048u - 24u);
    std::vector<int8_t> soft(dec->input_per_frame(), 0);
    for (size_t i = 0; i < soft.size(); ++i)
        soft[i] = int8_t((i * 37) % 50) - 25; // not a codeword
    std::vector<uint8_t> out(dec->output_bits());
    frame_status st;
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.bits = out.data();
    b.status = &st;
    dec->decode(b);
    EXPECT_EQ(st.check, 0);
    EXPECT_EQ(st.iterations, 6);
    EXPECT_FALSE(st.ok());
    }
    // the fixed engine checks the CRC after every iteration and stops there too
    const fer_point fx = simulate("code=lte:2048, crc=lte-24a, engine=fixed", 3.0, 20, 32);
    EXPECT_EQ(fx.frame_errors, 0u);
    EXPECT_LE(fx.mean_iterations, 2.0);
    const fer_point all = simulate("code=lte:2048, crc=lte-24a, engine=fixed, early_termination=false", 3.0, 20, 32);
    EXPECT_EQ(all.frame_errors, 0u);
    EXPECT_DOUBLE_EQ(all.mean_iterations, 6.0);
    // at 0.8 dB the frames need different numbers of iterations; the stop costs no frame
    const fer_point mid = simulate("code=lte:2048, crc=lte-24a, engine=fixed, max_iterations=8", 0.8, 60, 33);
    const fer_point mid_all =
        simulate("code=lte:2048, crc=lte-24a, engine=fixed, max_iterations=8, early_termination=false", 0.8, 60, 33);
    EXPECT_GT(mid.mean_iterations, 1.5);
    EXPECT_LT(mid.mean_iterations, 7.0);
    EXPECT_LE(mid.frame_errors, mid_all.frame_errors + 1);
}

TEST(turbo_decoder, fixed_point_gpu_gives_the_cpu_bits)
{
    if (cuda_devices().empty())
        GTEST_SKIP() << "no usable CUDA device";
    // odd frame counts (the GPU pairs frames), several chunks (max_batch), every K class; the
    // CPU computes in int, the GPU in int16 halves: equal bits check the int16 bound too
    for (const char* opts : { "code=lte:6144", "code=lte:1024, max_iterations=4", "code=lte:40",
                              "code=lte:6144, max_iterations=8", "code=lte:2048, scaling=0.5",
                              "code=lte:256, layout=interleaved", "code=lte:512, max_batch=64",
                              "code=lte:4032, crc=lte-24b, max_iterations=3", "code=lte:6144, training=16",
                              "code=lte:2048, training=24", "code=lte:96, training=24",
                              // the CRC and early stop: frames stop at different iterations
                              "code=lte:6144, crc=lte-24a, max_iterations=8", "code=lte:40, crc=lte-24a",
                              "code=lte:1024, crc=lte-24b, early_termination=false", "code=lte:512, crc=lte-8",
                              "code=lte:2048, crc=lte-16, max_batch=64",
                              // the FPTD with max-log (float, a cluster of blocks per frame)
                              "code=lte:2048, algorithm=fptd-max-log, max_iterations=24",
                              "code=lte:6144, algorithm=fptd-max-log, max_iterations=6",
                              "code=lte:40, algorithm=fptd-max-log, crc=lte-8, max_iterations=10",
                              "code=lte:1024, algorithm=fptd-max-log, layout=interleaved, max_iterations=16, max_batch=5",
                              // the FPTD in int16 (engine=fixed): against its CPU twin
                              "code=lte:2048, algorithm=fptd-max-log, engine=fixed, max_iterations=24",
                              "code=lte:6144, algorithm=fptd-max-log, engine=fixed, max_iterations=36",
                              "code=lte:40, algorithm=fptd-max-log, engine=fixed, crc=lte-8, max_iterations=10",
                              "code=lte:1024, algorithm=fptd-max-log, engine=fixed, scaling=0.5, max_iterations=16, max_batch=5" }) {
        const size_t frames = 301;
        const auto c = make_cpu_gpu_case(opts, frames, 41);
        const auto &cpu = c.cpu, &gpu = c.gpu;
        const auto& coded = c.coded;
        const size_t k = c.k, n = c.n;
        ASSERT_TRUE(gpu->on_gpu()) << gpu->backend();
        std::vector<std::vector<int8_t>> inputs;
        for (double ebn0 : { 0.2, 0.6, 3.0 }) // failing, mixed and clean frames
            inputs.push_back(test::channel(coded, double(k) / double(n), ebn0, 42));
        std::vector<int8_t> extreme(frames * n); // full-scale values, -128 included
        for (size_t i = 0; i < extreme.size(); ++i)
            extreme[i] = (i * 2654435761u >> 7) % 3 == 0 ? int8_t(-128) : coded[i] ? int8_t(127) : int8_t(-127);
        inputs.push_back(extreme);
        for (size_t t = 0; t < inputs.size(); ++t)
            for (bool packed : { false, true }) {
                const size_t per = packed ? (k + 7) / 8 : k;
                std::vector<uint8_t> a(frames * per), b(frames * per);
                std::vector<frame_status> sa(frames), sb(frames);
                frame_batch ba, bb;
                ba.frames = bb.frames = frames;
                ba.soft = bb.soft = inputs[t].data();
                ba.bits = a.data();
                bb.bits = b.data();
                ba.packed = bb.packed = packed;
                ba.status = sa.data();
                bb.status = sb.data();
                cpu->decode(ba);
                gpu->decode(bb);
                ASSERT_EQ(a, b) << opts << ", input " << t << (packed ? ", packed" : "");
                for (size_t f = 0; f < frames; ++f) {
                    ASSERT_EQ(sa[f].check, sb[f].check) << opts << " frame " << f;
                    ASSERT_EQ(sa[f].iterations, sb[f].iterations) << opts << " frame " << f;
                }
                if (!packed)
                    continue;
                // packed 4-bit input (the one-K engine reads it itself) against the CPU given
                // its unpacked values
                std::vector<uint8_t> four((inputs[t].size() + 1) / 2);
                pack_soft4(inputs[t].data(), four.data(), inputs[t].size());
                std::vector<int8_t> unpacked(inputs[t].size());
                unpack_soft4(four.data(), unpacked.data(), unpacked.size());
                ba.soft = unpacked.data();
                bb.soft = nullptr;
                bb.soft4 = four.data();
                cpu->decode(ba);
                gpu->decode(bb);
                ASSERT_EQ(a, b) << opts << ", input " << t << ", 4-bit";
                for (size_t f = 0; f < frames; ++f) {
                    ASSERT_EQ(sa[f].check, sb[f].check) << opts << " frame " << f << ", 4-bit";
                    ASSERT_EQ(sa[f].iterations, sb[f].iterations) << opts << " frame " << f << ", 4-bit";
                }
            }
    }
    // other windows run on the CPU twin with device=auto, and are refused by name on the GPU
    EXPECT_FALSE(make_frame_decoder("turbo", parse_frame_options("code=lte:40, window=32"))->on_gpu());
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=lte:40, window=32"), device_spec::parse("cuda")),
                 std::invalid_argument);
    EXPECT_FALSE(make_frame_decoder("turbo", parse_frame_options("code=lte:40, training=40"))->on_gpu());
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=lte:40, training=40"), device_spec::parse("cuda")),
                 std::invalid_argument);
}

TEST(turbo_decoder, gpu_fptd_latency_path_gives_the_cpu_bits)
{
    if (cuda_devices().empty())
        GTEST_SKIP() << "no usable CUDA device";
    // batches of one frame and a few take the GPU FPTD's latency path (the kernel reads and
    // writes mapped host memory); K = 6144 and 1024 run a cluster of 16 and 8 blocks per frame,
    // 6080, 3008, 1056 and 136 clusters whose last block has fewer stages (16 x 384 with 320 in
    // the last, 16 x 192 with 128, 9 x 120 with 96, 2 x 72 with 64), K = 40 one block; 6144,
    // 6080 and 3008 stage their extrinsic values through a send buffer (fptd_exchange.h)
    for (const char* opts : { "code=lte:6144, algorithm=fptd-max-log, max_iterations=36",
                              "code=lte:6080, algorithm=fptd-max-log, max_iterations=10",
                              "code=lte:3008, algorithm=fptd-max-log, max_iterations=9",
                              "code=lte:3008, algorithm=fptd-max-log, engine=fixed, max_iterations=9",
                              "code=lte:1024, algorithm=fptd-max-log, max_iterations=12",
                              "code=lte:1056, algorithm=fptd-max-log, max_iterations=9",
                              "code=lte:136, algorithm=fptd-max-log, max_iterations=8",
                              "code=lte:40, algorithm=fptd-max-log, max_iterations=8",
                              "code=lte:6144, algorithm=fptd-max-log, engine=fixed, max_iterations=36",
                              "code=lte:1056, algorithm=fptd-max-log, engine=fixed, max_iterations=9",
                              "code=lte:136, algorithm=fptd-max-log, engine=fixed, max_iterations=8",
                              "code=lte:40, algorithm=fptd-max-log, engine=fixed, max_iterations=8" }) {
        const size_t frames = 7;
        const auto c = make_cpu_gpu_case(opts, frames, 43);
        const auto &cpu = c.cpu, &gpu = c.gpu;
        const size_t k = c.k, n = c.n;
        ASSERT_TRUE(gpu->on_gpu()) << gpu->backend();
        for (double ebn0 : { 0.4, 1.0 }) {
            const auto soft = test::channel(c.coded, double(k) / double(n), ebn0, 44);
            std::vector<uint8_t> a(frames * k), b(frames * k);
            frame_batch ba;
            ba.frames = frames;
            ba.soft = soft.data();
            ba.bits = a.data();
            cpu->decode(ba);
            for (size_t f = 0; f < frames;) { // batches of 1, 2 and 4 frames
                const size_t m = std::min(frames - f, f == 0 ? size_t(1) : f == 1 ? size_t(2) : size_t(4));
                frame_batch bb;
                bb.frames = m;
                bb.soft = soft.data() + f * n;
                bb.bits = b.data() + f * k;
                gpu->decode(bb);
                f += m;
            }
            ASSERT_EQ(a, b) << opts << " at " << ebn0 << " dB";
        }
    }
}

TEST(turbo_decoder, gpu_fptd_prelaunched_kernels_give_the_cpu_bits)
{
    // prelaunch=true: single frames find their kernel waiting on the GPU; one that comes after
    // the 2 ms window, and a batch of three in between, take the direct path; the decoder is
    // destroyed with a kernel still waiting (which must end, not hang)
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=lte:40, prelaunch=true")), std::invalid_argument);
    if (cuda_devices().empty())
        GTEST_SKIP() << "no usable CUDA device";
    for (const char* opts : { "code=lte:6144, algorithm=fptd-max-log, max_iterations=36, prelaunch=true",
                              "code=lte:1056, algorithm=fptd-max-log, max_iterations=9, prelaunch=true",
                              "code=lte:40, algorithm=fptd-max-log, max_iterations=8, prelaunch=true",
                              "code=lte:6144, algorithm=fptd-max-log, engine=fixed, max_iterations=36, prelaunch=true",
                              "code=lte:40, algorithm=fptd-max-log, engine=fixed, max_iterations=8, prelaunch=true" }) {
        const size_t frames = 12;
        const auto c = make_cpu_gpu_case(opts, frames, 47);
        ASSERT_TRUE(c.gpu->on_gpu()) << c.gpu->backend();
        const auto soft = test::channel(c.coded, double(c.k) / double(c.n), 0.6, 48);
        std::vector<uint8_t> a(frames * c.k), b(frames * c.k, 2);
        frame_batch ba;
        ba.frames = frames;
        ba.soft = soft.data();
        ba.bits = a.data();
        c.cpu->decode(ba);
        for (size_t f = 0; f < frames;) {
            const size_t m = f == 6 ? 3 : 1;
            if (f == 4)
                std::this_thread::sleep_for(std::chrono::milliseconds(6)); // the waiting kernel gives up
            frame_batch bb;
            bb.frames = m;
            bb.soft = soft.data() + f * c.n;
            bb.bits = b.data() + f * c.k;
            c.gpu->decode(bb);
            f += m;
        }
        EXPECT_EQ(a, b) << opts;
    }
}

TEST(turbo_decoder, fixed_point_fptd_decodes_as_the_float_one)
{
    // the FPTD in int16 arithmetic (engine=fixed, turbo_fptd_fixed_cpu.cc) against the float
    // FPTD (turbo_fptd.cc, an independent implementation) on the same int8 values: the same
    // frame error rate where about one frame in ten fails, the same bit error rate where most
    // frames fail (36 and 12 iterations), and every size decoded without noise
    const std::string fl = "code=lte:512, algorithm=fptd-max-log, ";
    const std::string fx = fl + "engine=fixed, ";
    const fer_point f36 = simulate(fl + "max_iterations=36", 0.8, 120, 5);
    const fer_point x36 = simulate(fx + "max_iterations=36", 0.8, 120, 5);
    EXPECT_GT(f36.frame_errors, 2u);
    EXPECT_LE(x36.frame_errors, f36.frame_errors + f36.frame_errors / 2 + 4) << "float " << f36.frame_errors;
    EXPECT_GE(x36.frame_errors + x36.frame_errors / 2 + 4, f36.frame_errors) << "float " << f36.frame_errors;
    const fer_point f12 = simulate(fl + "max_iterations=12", 0.4, 60, 6);
    const fer_point x12 = simulate(fx + "max_iterations=12", 0.4, 60, 6);
    EXPECT_GT(f12.bit_errors, 500u);
    EXPECT_NEAR(double(x12.bit_errors), double(f12.bit_errors), 0.1 * double(f12.bit_errors));
    EXPECT_DOUBLE_EQ(x36.mean_iterations, 36.0); // every iteration (no CRC)
    for (const char* code : { "code=lte:40", "code=lte:1056", "code=lte:6144" }) {
        const fer_point clean = simulate(std::string(code) + ", algorithm=fptd-max-log, engine=fixed, max_iterations=30", 6.0, 4, 7);
        EXPECT_EQ(clean.frame_errors, 0u) << code;
    }
    // a CRC stops a frame once it passes, with early_termination (CPU)
    const fer_point crc = simulate("code=lte:1024, crc=lte-24a, algorithm=fptd-max-log, engine=fixed, "
                                   "early_termination=true, max_iterations=30", 3.0, 8, 8);
    EXPECT_EQ(crc.frame_errors, 0u);
    EXPECT_LT(crc.mean_iterations, 20.0);
    EXPECT_NE(make_frame_decoder("turbo", parse_frame_options(fx))->backend().find("int16"), std::string::npos);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("algorithm=fptd, engine=fixed")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=ccsds:1784, algorithm=fptd-max-log, engine=fixed")),
                 std::invalid_argument);
}

TEST(turbo_decoder, fptd_needs_about_36_iterations_to_match_windowed_bcjr)
{
    // the FPTD paper (Fig. 8): the fully parallel decoder needs about 36 iterations to match a
    // windowed Log-BCJR decoder (W = 32, previous-iteration boundaries) with 7. K = 512 at
    // 0.8 dB, the same 120 frames: both near FER 0.07 here; 12 FPTD iterations are far from it.
    const std::string base = "code=lte:512, early_termination=false, ";
    const uint64_t bcjr = frame_errors_llr(base + "algorithm=log-map, engine=reference, window=32, max_iterations=7", 0.8, 120, 5);
    const uint64_t fptd36 = frame_errors_llr(base + "algorithm=fptd, max_iterations=36", 0.8, 120, 5);
    const uint64_t fptd12 = frame_errors_llr(base + "algorithm=fptd, max_iterations=12", 0.8, 120, 5);
    EXPECT_GT(bcjr, 2u);
    EXPECT_LE(fptd36, bcjr * 2 + 5) << "bcjr " << bcjr;
    EXPECT_GE(fptd36 * 2 + 5, bcjr) << "bcjr " << bcjr;
    EXPECT_GT(fptd12, 60u) << "12 FPTD iterations should not decode at 0.8 dB";
    // with max-log (the GPU's FPTD): every iteration by default, near the exact one
    const uint64_t fptd_ml = frame_errors_llr(base + "algorithm=fptd-max-log, max_iterations=36", 0.8, 120, 5);
    EXPECT_LE(fptd_ml, fptd36 * 2 + 8) << "exact " << fptd36;
    EXPECT_FALSE(make_frame_decoder("turbo", parse_frame_options("algorithm=fptd-max-log"))->wants_float_input());
    // noiseless: the FPTD decodes every size it is given
    for (int K : { 40, 1024 }) {
        const turbo_code c = turbo_code::lte(K);
        const auto bits = test::random_bits(size_t(K), 9);
        std::vector<uint8_t> cw(c.coded_bits()), out(static_cast<size_t>(K));
        turbo_encode(c, bits.data(), cw.data());
        turbo_options o;
        o.max_iterations = 30;
        turbo_fptd_decoder dec(c, o);
        const auto llr = to_llr(cw, 4.f);
        dec.decode(llr.data(), out.data());
        EXPECT_EQ(out, bits) << "K " << K;
    }
}
