/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* SCPPM: the code's pieces against independent computations (polynomial division for the CRC,
 * the standard's inverse permutation, gr-fec's conventions for the outer code through the codes
 * layer's trellis), noiseless round trips for every M and rate, error rates against the Poisson
 * PPM channel's capacity, log-map against max-log, and bad input. */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/scppm/scppm.h>
#include <gnuradio/gpufec/core/scppm/scppm_framing.h>
#include <gnuradio/gpufec/core/codes/trellis.h>

#include "scppm/scppm_codeword.h"
#include "testing/test_util.h"
#include <gtest/gtest.h>
#include <cmath>
#include <random>
#include <set>
#include <string>

namespace gpufec {
namespace {

//! CRC-32 of CCSDS 142 by long division: the register's all-ones start is the first 32
//! message bits inverted; the remainder of (message * x^32) by g(x)
uint32_t crc32_by_division(std::vector<uint8_t> msg)
{
    const std::vector<int> g = { 32, 29, 18, 14, 3, 0 };
    for (size_t i = 0; i < 32 && i < msg.size(); ++i)
        msg[i] ^= 1;
    msg.resize(msg.size() + 32, 0);
    for (size_t i = 0; i + 32 < msg.size(); ++i)
        if (msg[i])
            for (int d : g)
                msg[i + 32 - size_t(d)] ^= 1;
    uint32_t r = 0;
    for (size_t i = msg.size() - 32; i < msg.size(); ++i)
        r = (r << 1) | msg[i];
    return r;
}

TEST(scppm_code, crc32_matches_polynomial_division)
{
    const crc_spec c = crc_spec::named("ccsds-32");
    EXPECT_EQ(c.poly, 0x20044009u); // x^29 + x^18 + x^14 + x^3 + 1
    for (size_t n : { 32, 33, 100, 5006, 7526, 10046 }) {
        const auto bits = test::random_bits(n, uint32_t(n));
        EXPECT_EQ(crc_bits(c, bits.data(), n), crc32_by_division(bits)) << n;
    }
    // and a block with its CRC appended checks
    auto bits = test::random_bits(5006, 7);
    crc_append(c, bits);
    EXPECT_TRUE(crc_check(c, bits.data(), bits.size()));
    bits[100] ^= 1;
    EXPECT_FALSE(crc_check(c, bits.data(), bits.size()));
}

// the GPU's CRC check (a sum of per-bit responses) against the shift register
TEST(scppm_code, crc_as_a_sum_of_responses)
{
    const scppm_code c = scppm_code::make(16, "1/2");
    const auto w = scppm::crc_responses(c);
    const uint32_t zero = scppm::crc_zero(c);
    for (uint32_t seed = 1; seed < 6; ++seed) {
        auto bits = test::random_bits(size_t(c.info_bits()), seed);
        crc_append(crc_spec::named("ccsds-32"), bits);
        if (seed == 5)
            bits[seed * 7] ^= 1; // one error
        uint32_t x = 0;
        for (size_t k = 0; k < bits.size(); ++k)
            if (bits[k])
                x ^= w[k];
        EXPECT_EQ(x == zero, seed != 5);
        EXPECT_EQ(crc_check(crc_spec::named("ccsds-32"), bits.data(), bits.size()), seed != 5);
    }
}

TEST(scppm_code, interleaver_is_the_standards_permutation)
{
    const auto& pi = scppm_interleaver();
    const auto& inv = scppm_deinterleaver();
    ASSERT_EQ(pi.size(), 15120u);
    std::vector<int> seen(15120, 0);
    for (size_t j = 0; j < pi.size(); ++j) {
        ++seen[pi[j]];
        // the inverse the standard gives: (14891 j + 210 j^2) mod 15120
        EXPECT_EQ(inv[j], uint32_t((14891ull * j + 210ull * j * j) % 15120)) << j;
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 15120);
    EXPECT_EQ(pi[0], 0u);
    EXPECT_EQ(pi[1], 221u);
    EXPECT_EQ(pi[2], (22u + 840u) % 15120u);
}

TEST(scppm_code, parameters_and_puncturing)
{
    const struct {
        const char* rate;
        int K, info;
        const char* pattern;
    } rows[] = { { "1/3", 5040, 5006, "111111" }, { "1/2", 7560, 7526, "110110" }, { "2/3", 10080, 10046, "110010" } };
    for (const auto& r : rows) {
        const scppm_code c = scppm_code::make(16, r.rate);
        EXPECT_EQ(c.outer_input_bits(), r.K);
        EXPECT_EQ(c.info_bits(), r.info);
        EXPECT_STREQ(c.puncture_pattern(), r.pattern);
        size_t kept = 0;
        for (size_t i = 0; i < 3 * size_t(r.K); ++i)
            kept += c.kept(i);
        EXPECT_EQ(kept, 15120u) << r.rate;
    }
    for (int M : { 4, 8, 16, 32, 64, 128, 256 }) {
        const scppm_code c = scppm_code::make(M, "1/2");
        EXPECT_EQ(size_t(c.symbols()) * size_t(c.m), 15120u);
    }
    EXPECT_THROW(scppm_code::make(2, "1/2"), std::invalid_argument);
    EXPECT_THROW(scppm_code::make(12, "1/2"), std::invalid_argument);
    EXPECT_THROW(scppm_code::make(512, "1/2"), std::invalid_argument);
    EXPECT_THROW(scppm_code::make(16, "3/4"), std::invalid_argument);
}

// Each stage of the encoder against an independent computation of it
TEST(scppm_code, encoder_stages)
{
    for (const char* rate : { "1/3", "1/2", "2/3" })
        for (int M : { 4, 16, 256 }) {
            const scppm_code c = scppm_code::make(M, rate);
            const auto info = test::random_bits(size_t(c.info_bits()), uint32_t(M));
            std::vector<uint16_t> sym(size_t(c.symbols()));
            scppm_encoder enc(c);
            enc.encode(info.data(), sym.data());
            const std::vector<uint8_t>&u = enc.u(), &v = enc.outer(), &w = enc.interleaved();
            // u: info, CRC-32, 0, 0
            ASSERT_EQ(u.size(), size_t(c.outer_input_bits()));
            EXPECT_TRUE(std::equal(info.begin(), info.end(), u.begin()));
            EXPECT_TRUE(crc_check(crc_spec::named("ccsds-32"), u.data(), u.size() - 2));
            EXPECT_EQ(u[u.size() - 1] | u[u.size() - 2], 0);
            // outer code: (5,7,7) through the codes layer's feed-forward trellis, then the table's puncturing
            conv_code cc;
            cc.k = 3;
            cc.polys = { 5, 7, 7 };
            const auto full = trellis::feed_forward(cc).encode(u, false);
            ASSERT_EQ(full.size(), 3 * u.size());
            std::vector<uint8_t> kept;
            for (size_t i = 0; i < full.size(); ++i)
                if (c.puncture_pattern()[i % 6] == '1')
                    kept.push_back(full[i]);
            EXPECT_EQ(kept, v) << rate;
            // interleaver, accumulator, MSB-first symbols
            for (size_t j = 0; j < w.size(); ++j)
                ASSERT_EQ(w[j], v[(11 * j + 210 * j * j) % 15120]);
            uint8_t prev = 0;
            for (size_t j = 0; j < w.size(); ++j) {
                const size_t s = j / size_t(c.m), t = j % size_t(c.m);
                const uint8_t a = (sym[s] >> (c.m - 1 - int(t))) & 1;
                ASSERT_EQ(a ^ prev, w[j]) << "bit " << j;
                prev = a;
            }
        }
}

std::vector<int8_t> clean_counts(const scppm_code& c, const std::vector<uint8_t>& info, size_t frames, int photons)
{
    auto enc = make_frame_encoder("scppm", { { "M", std::to_string(c.M) }, { "rate", c.rate_name() } });
    std::vector<uint8_t> slots(frames * c.slots());
    enc->encode(info.data(), frames, slots.data());
    std::vector<int8_t> in(slots.size());
    for (size_t i = 0; i < slots.size(); ++i)
        in[i] = int8_t(slots[i] * photons);
    return in;
}

TEST(scppm_decoder, noiseless_round_trip_every_m_and_rate)
{
    for (const char* rate : { "1/3", "1/2", "2/3" })
        for (int M : { 4, 8, 16, 32, 64, 128, 256 }) {
            const scppm_code c = scppm_code::make(M, rate);
            const size_t frames = 2;
            const auto info = test::random_bits(frames * size_t(c.info_bits()), uint32_t(M * 7));
            const auto in = clean_counts(c, info, frames, 1);
            auto dec = make_frame_decoder("scppm", { { "M", std::to_string(M) }, { "rate", rate }, { "cpu_threads", "2" } },
                                          device_spec::parse("cpu"));
            std::vector<uint8_t> out(frames * dec->output_bits());
            std::vector<frame_status> st(frames);
            frame_batch b;
            b.frames = frames;
            b.soft = in.data();
            b.bits = out.data();
            b.status = st.data();
            dec->decode(b);
            EXPECT_EQ(out, info) << "M " << M << " rate " << rate;
            for (const auto& s : st) {
                EXPECT_EQ(s.check, 1);
                EXPECT_EQ(s.iterations, 1);
            }
        }
}

//! counts of `frames` random codewords through the Poisson channel
struct poisson_frames {
    std::vector<uint8_t> info;
    std::vector<int8_t> counts;
    std::vector<float> llr;
};
poisson_frames poisson(const scppm_code& c, size_t frames, double ks, double kb, uint64_t seed)
{
    poisson_frames p;
    p.info = test::random_bits(frames * size_t(c.info_bits()), uint32_t(seed));
    auto enc = make_frame_encoder("scppm", { { "M", std::to_string(c.M) }, { "rate", c.rate_name() } });
    std::vector<uint8_t> slots(frames * c.slots());
    enc->encode(p.info.data(), frames, slots.data());
    std::vector<float> y(slots.size());
    std::mt19937_64 rng(seed);
    poisson_channel(slots.data(), slots.size(), ks, kb, rng, y.data());
    p.counts.resize(y.size());
    p.llr.resize(y.size());
    const float w = float(slot_llr_weight(ks, kb));
    for (size_t i = 0; i < y.size(); ++i) {
        p.counts[i] = int8_t(std::min(y[i], 127.f));
        p.llr[i] = y[i] * w;
    }
    return p;
}

struct run_result {
    size_t frame_errors = 0;
    double mean_iterations = 0;
    std::vector<uint8_t> bits;
    std::vector<frame_status> status;
};
run_result run(batch_decoder& d, const poisson_frames& p, size_t frames)
{
    run_result r;
    r.bits.resize(frames * d.output_bits());
    r.status.resize(frames);
    frame_batch b;
    b.frames = frames;
    if (d.wants_float_input())
        b.soft_f = p.llr.data();
    else
        b.soft = p.counts.data();
    b.bits = r.bits.data();
    b.status = r.status.data();
    d.decode(b);
    const size_t k = d.output_bits();
    for (size_t f = 0; f < frames; ++f) {
        r.frame_errors += !std::equal(r.bits.begin() + long(f * k), r.bits.begin() + long((f + 1) * k),
                                      p.info.begin() + long(f * k));
        r.mean_iterations += r.status[f].iterations;
        // a codeword whose CRC passed is right (a CRC-32 miss is ~2^-32)
        if (r.status[f].check == 1)
            EXPECT_TRUE(std::equal(r.bits.begin() + long(f * k), r.bits.begin() + long((f + 1) * k),
                                   p.info.begin() + long(f * k)));
    }
    r.mean_iterations /= double(frames);
    return r;
}

//! the Ks (photons per pulse) where the Poisson PPM capacity equals the code's rate, by bisection in dB
double capacity_ks_db(int M, double rate_bits_per_symbol, double kb)
{
    double lo = -10, hi = 10;
    for (int i = 0; i < 30; ++i) {
        const double mid = 0.5 * (lo + hi);
        (poisson_ppm_capacity(M, std::pow(10, mid / 10), kb, 200000, 5) > rate_bits_per_symbol ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
}

/* Error rates against the channel's capacity: Moision and Hamkins (IPN PR 42-161) report SCPPM
 * within about 1 dB of capacity. M = 16 at rate 2/3 and M = 4 at rate 1/2, Kb = 0.2 photons per
 * slot: 1.0 dB above the capacity threshold most codewords decode (max-log with its default
 * scaling 0.75, 32 iterations; measured thresholds in docs/scppm.md); 0.5 dB below it, where no
 * code can work, none does. */
TEST(scppm_decoder, error_rate_near_capacity)
{
    const double kb = 0.2;
    const struct {
        int M;
        const char* rate;
    } cases[] = { { 16, "2/3" }, { 4, "1/2" } };
    for (const auto& cs : cases) {
        const scppm_code c = scppm_code::make(cs.M, cs.rate);
        const double cap_db = capacity_ks_db(cs.M, c.rate() * c.m, kb);
        auto dec = make_frame_decoder("scppm", { { "M", std::to_string(cs.M) }, { "rate", cs.rate } },
                                      device_spec::parse("cpu"));
        const size_t frames = 24;
        const auto good = poisson(c, frames, std::pow(10, (cap_db + 1.0) / 10), kb, 11);
        const auto rg = run(*dec, good, frames);
        EXPECT_LE(rg.frame_errors, 2u) << "M " << cs.M << " capacity at " << cap_db << " dB";
        const auto bad = poisson(c, 8, std::pow(10, (cap_db - 0.5) / 10), kb, 12);
        const auto rb = run(*dec, bad, 8);
        EXPECT_EQ(rb.frame_errors, 8u) << "M " << cs.M;
    }
}

// log-map (float, exact max*) decodes at least as well as max-log on the same noisy frames
TEST(scppm_decoder, log_map_and_max_log)
{
    const scppm_code c = scppm_code::make(16, "2/3");
    const double kb = 0.2, cap_db = capacity_ks_db(16, c.rate() * c.m, kb);
    const size_t frames = 16;
    const auto p = poisson(c, frames, std::pow(10, (cap_db + 0.6) / 10), kb, 21);
    auto ml = make_frame_decoder("scppm", {}, device_spec::parse("cpu"));
    auto lm = make_frame_decoder("scppm", { { "algorithm", "log-map" }, { "input", "symbol_llr" } },
                                 device_spec::parse("cpu"));
    const auto a = run(*ml, p, frames), b = run(*lm, p, frames);
    EXPECT_LE(b.frame_errors, a.frame_errors + 1);
    EXPECT_LE(b.mean_iterations, a.mean_iterations + 1.0);
    // the same frames as counts with Ks and Kb given: the same decisions as the LLRs
    auto lmc = make_frame_decoder("scppm", { { "algorithm", "log-map" }, { "ks", std::to_string(std::pow(10, (cap_db + 0.6) / 10)) },
                                             { "kb", "0.2" } },
                                  device_spec::parse("cpu"));
    std::vector<float> counts_f(p.counts.begin(), p.counts.end());
    poisson_frames pc = p;
    pc.llr = counts_f;
    const auto d = run(*lmc, pc, frames);
    EXPECT_EQ(d.frame_errors, b.frame_errors);
}

/* The CPU engine decodes a codeword a SIMD lane (16, 8 or 4 to a vector by instruction set);
 * the scalar decoder, a codeword at a time (GPUFEC_SCPPM_CPU=scalar), is the arithmetic the GPU
 * matches. Both give the same bits, iterations and CRC results on noisy frames where codewords
 * stop at different iterations or never, in batches that leave a group part full, from counts
 * (one frame with a negative count) and from slot LLRs down to -128, at two scalings. */
TEST(scppm_decoder, cpu_lanes_match_the_scalar_decoder)
{
    const double kb = 0.2;
    const struct {
        int M;
        const char* rate;
        double ks_db;
        const char* input;
        const char* scaling;
        const char* max_iterations;
    } cases[] = { { 16, "2/3", 4.2, "counts", "0.75", "12" }, { 4, "1/2", 2.8, "counts", "1.0", "10" },
                  { 64, "1/3", 2.7, "symbol_llr", "0.75", "6" }, { 256, "2/3", 5.6, "counts", "0.5", "8" },
                  { 8, "1/2", 5.8, "counts", "0.75", "1" } };
    bool failed_somewhere = false;
    for (const auto& cs : cases) {
        const scppm_code c = scppm_code::make(cs.M, cs.rate);
        const size_t frames = cs.M == 256 ? 7 : 21;
        auto p = poisson(c, frames, std::pow(10, cs.ks_db / 10), kb, uint64_t(cs.M) + 5);
        std::vector<int8_t> in = p.counts;
        if (std::string(cs.input) == "symbol_llr") {
            for (size_t i = 0; i < in.size(); ++i) // about four units an LLR nat, some at the int8 floor
                in[i] = int8_t(std::max(-128.f, std::min(127.f, std::round(4.f * p.llr[i]))));
            in[17] = -128;
        } else {
            in[c.slots() * 2 + 40] = -1; // frame 2: erased
        }
        const frame_options o = { { "M", std::to_string(cs.M) }, { "rate", cs.rate }, { "input", cs.input },
                                  { "scaling", cs.scaling }, { "max_iterations", cs.max_iterations },
                                  { "cpu_threads", "2" } };
        auto decode = [&](batch_decoder& d) {
            run_result r;
            r.bits.resize(frames * d.output_bits());
            r.status.resize(frames);
            frame_batch b;
            b.frames = frames;
            b.soft = in.data();
            b.bits = r.bits.data();
            b.status = r.status.data();
            d.decode(b);
            return r;
        };
        run_result want;
        {
            test::scoped_env env("GPUFEC_SCPPM_CPU", "scalar");
            auto d = make_frame_decoder("scppm", o, device_spec::parse("cpu"));
            EXPECT_NE(d->backend().find("a codeword per thread"), std::string::npos) << d->backend();
            want = decode(*d);
        }
        std::set<int> iterations;
        size_t passed = 0, failed = 0; // (erased frames neither)
        for (const auto& st : want.status) {
            iterations.insert(st.iterations);
            passed += st.check == 1;
            failed += st.check == 0 && !st.erased;
        }
        // the frames are a test of stopping: some pass early, some late or never (at one
        // iteration at most: some pass, some do not)
        std::string seen;
        for (const auto& st : want.status)
            seen += " " + std::to_string(st.iterations) + (st.check == 1 ? "+" : "-");
        if (std::string(cs.max_iterations) != "1")
            EXPECT_GE(iterations.size(), 3u) << "M " << cs.M << ": iterations" << seen;
        EXPECT_GT(passed, 0u) << "M " << cs.M << ": iterations" << seen;
        failed_somewhere |= failed > 0;
        for (const char* isa : { "avx512", "avx2", "baseline" }) {
            test::scoped_env env("GPUFEC_SIMD", isa);
            auto d = make_frame_decoder("scppm", o, device_spec::parse("cpu"));
            EXPECT_NE(d->backend().find("codewords per vector"), std::string::npos) << d->backend();
            const run_result got = decode(*d);
            EXPECT_EQ(got.bits, want.bits) << "M " << cs.M << " " << isa;
            for (size_t f = 0; f < frames; ++f) {
                EXPECT_EQ(got.status[f].iterations, want.status[f].iterations) << "M " << cs.M << " " << isa << " frame " << f;
                EXPECT_EQ(got.status[f].check, want.status[f].check) << "M " << cs.M << " " << isa << " frame " << f;
                EXPECT_EQ(got.status[f].erased, want.status[f].erased) << "M " << cs.M << " " << isa << " frame " << f;
            }
        }
        if (std::string(cs.input) == "counts")
            EXPECT_EQ(want.status[2].erased, 1);
    }
    EXPECT_TRUE(failed_somewhere);
}

TEST(scppm_decoder, bad_input)
{
    const scppm_code c = scppm_code::make(16, "2/3");
    auto dec = make_frame_decoder("scppm", {}, device_spec::parse("cpu"));
    const auto info = test::random_bits(2 * size_t(c.info_bits()), 3);
    auto in = clean_counts(c, info, 2, 2);
    in[500] = -3; // frame 0: a negative count is not a count
    std::vector<uint8_t> out(2 * dec->output_bits());
    std::vector<frame_status> st(2);
    frame_batch b;
    b.frames = 2;
    b.soft = in.data();
    b.bits = out.data();
    b.status = st.data();
    dec->decode(b);
    EXPECT_EQ(st[0].erased, 1);
    EXPECT_EQ(st[0].check, 0);
    EXPECT_EQ(st[1].erased, 0);
    EXPECT_EQ(st[1].check, 1);
    // options
    EXPECT_THROW(make_frame_decoder("scppm", { { "M", "12" } }), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("scppm", { { "rate", "3/4" } }), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("scppm", { { "input", "volts" } }), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("scppm", { { "algorithm", "log-map" } }), std::invalid_argument); // counts need ks, kb
    EXPECT_THROW(make_frame_decoder("scppm", { { "algorithm", "log-map" }, { "input", "symbol_llr" } }, device_spec::parse("cuda")),
                 std::exception);
    EXPECT_THROW(slot_llr_weight(1.0, 0.0), std::invalid_argument);
    // NaN slot LLRs are erasures (the platform's rule), and an all-NaN codeword is reported erased
    auto lm = make_frame_decoder("scppm", { { "algorithm", "log-map" }, { "input", "symbol_llr" } }, device_spec::parse("cpu"));
    std::vector<float> nan(c.slots(), std::nanf(""));
    std::vector<uint8_t> o1(lm->output_bits());
    frame_status s1;
    frame_batch b1;
    b1.frames = 1;
    b1.bits = o1.data();
    b1.status = &s1;
    EXPECT_EQ(lm->decode_float(nan.data(), b1), c.slots());
    EXPECT_EQ(s1.erased, 1);
    EXPECT_EQ(s1.check, 0);
}

TEST(scppm_channel, poisson_statistics_and_capacity)
{
    std::vector<uint8_t> pulses(200000);
    for (size_t i = 0; i < pulses.size(); ++i)
        pulses[i] = i % 4 == 0;
    std::vector<float> y(pulses.size());
    std::mt19937_64 rng(1);
    poisson_channel(pulses.data(), pulses.size(), 2.0, 0.5, rng, y.data());
    double on = 0, off = 0;
    for (size_t i = 0; i < y.size(); ++i)
        (pulses[i] ? on : off) += y[i];
    EXPECT_NEAR(on / 50000, 2.5, 0.03);
    EXPECT_NEAR(off / 150000, 0.5, 0.01);
    // capacity: log2 M with a strong signal and no background to speak of, small for a weak one
    EXPECT_NEAR(poisson_ppm_capacity(16, 50, 1e-3, 20000, 1), 4.0, 0.01);
    EXPECT_LT(poisson_ppm_capacity(16, 0.05, 1.0, 20000, 1), 0.01);
    const double c1 = poisson_ppm_capacity(16, 1.0, 0.2, 100000, 1), c2 = poisson_ppm_capacity(16, 2.0, 0.2, 100000, 1);
    EXPECT_LT(c1, c2);
}

// guard slots and the sync marker: framed, sent through the channel at an arbitrary slot offset
// behind noise, found again at every offset within a symbol and at scattered others, deframed,
// decoded
TEST(scppm_framing, marker_found_at_every_offset_and_decoded)
{
    for (int M : { 4, 8, 16, 64 }) {
        const scppm_code c = scppm_code::make(M, "1/2");
        EXPECT_EQ(scppm_sync_marker(M).size(), M == 4 ? 24u : 16u);
        const size_t per = scppm_symbol_slots(M), frame = scppm_frame_slots(c);
        EXPECT_EQ(frame, (scppm_sync_marker(M).size() + size_t(c.symbols())) * (size_t(M) + size_t(M) / 4));
        const auto info = test::random_bits(size_t(c.info_bits()), uint32_t(M));
        std::vector<uint16_t> sym(size_t(c.symbols()));
        scppm_encoder(c).encode(info.data(), sym.data());
        std::vector<uint8_t> slots(frame);
        scppm_frame(c, sym.data(), slots.data());
        // one pulse a symbol, never in a guard slot
        size_t pulses = 0;
        for (size_t i = 0; i < frame; ++i) {
            pulses += slots[i];
            if (i % per >= size_t(M))
                EXPECT_EQ(slots[i], 0) << i;
        }
        EXPECT_EQ(pulses, scppm_sync_marker(M).size() + size_t(c.symbols()));
        std::vector<size_t> offsets;
        for (size_t k = 0; k < per; ++k)
            offsets.push_back(k);
        std::mt19937 pick{ uint32_t(M) };
        for (int r = 0; r < 6; ++r)
            offsets.push_back(pick() % frame);
        const double ks = M == 4 ? 4.0 : 6.0, kb = 0.2;
        for (size_t k : offsets) {
            // noise slots, then the frame, then the start of a next frame's marker
            std::vector<uint8_t> stream(k, 0);
            stream.insert(stream.end(), slots.begin(), slots.end());
            stream.resize(stream.size() + frame, 0);
            std::vector<float> y(stream.size());
            std::mt19937_64 rng(k + 1);
            poisson_channel(stream.data(), stream.size(), ks, kb, rng, y.data());
            const size_t at = scppm_find_marker(c, y.data(), frame);
            ASSERT_EQ(at, k) << "M " << M;
            if (k < 2 || k == offsets.back()) { // decode a few
                std::vector<float> in(c.slots());
                scppm_deframe(c, y.data() + at, in.data());
                std::vector<int8_t> q(in.size());
                for (size_t i = 0; i < in.size(); ++i)
                    q[i] = int8_t(std::min(in[i], 127.f));
                auto dec = make_frame_decoder("scppm", { { "M", std::to_string(M) }, { "rate", "1/2" } },
                                              device_spec::parse("cpu"));
                std::vector<uint8_t> out(dec->output_bits());
                frame_status st;
                frame_batch b;
                b.frames = 1;
                b.soft = q.data();
                b.bits = out.data();
                b.status = &st;
                dec->decode(b);
                EXPECT_EQ(out, info) << "M " << M << " offset " << k;
                EXPECT_EQ(st.check, 1);
            }
        }
    }
    EXPECT_THROW(scppm_sync_marker(2), std::invalid_argument);
}

// the channel interleaver: symbols spread as the rows say, and its deinterleaver gives the input
// back after N (N - 1) B symbols, whatever the pieces it is pushed in
TEST(scppm_framing, convolutional_interleaver)
{
    const int N = 5, B = 3;
    const size_t W = 4, n = 400;
    std::vector<float> in(n * W);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = float(i + 1);
    conv_symbol_interleaver<float> il(N, B, W, false), de(N, B, W, true);
    std::vector<float> mid(in.size()), back(in.size());
    il.push(in.data(), 7, mid.data()); // pieces of any size
    il.push(in.data() + 7 * W, n - 7, mid.data() + 7 * W);
    // symbol k left at k + (k mod N) N B (row k mod N, delay (k mod N) B of its row's turns)
    for (size_t k = 0; k + size_t(N * N * B) < n; ++k) {
        const size_t out_at = k + (k % size_t(N)) * size_t(N) * size_t(B);
        EXPECT_EQ(mid[out_at * W], in[k * W]) << k;
    }
    for (size_t k = 0; k < n; k += 13)
        de.push(mid.data() + k * W, std::min<size_t>(13, n - k), back.data() + k * W);
    const size_t d = il.end_to_end_delay();
    EXPECT_EQ(d, size_t(N * (N - 1) * B));
    for (size_t k = d; k < n; ++k)
        for (size_t w = 0; w < W; ++w)
            ASSERT_EQ(back[k * W + w], in[(k - d) * W + w]) << k;
    for (size_t k = 0; k < d; ++k)
        EXPECT_EQ(back[k * W], 0.f); // the rows started empty
    EXPECT_THROW(conv_symbol_interleaver<float>(0, 1, 1, false), std::invalid_argument);
    // sizes far beyond a machine are refused before anything is allocated
    EXPECT_THROW(conv_symbol_interleaver<float>(100000, 1890, 16, false), std::invalid_argument);
    EXPECT_THROW(conv_symbol_interleaver<uint8_t>(1 << 30, 1 << 30, 256, true), std::invalid_argument);
    // a fill symbol (PPM symbol 0 of the transmitter): what the delayed rows give first
    conv_symbol_interleaver<uint8_t> tx(2, 1, 2, false, { 1, 0 });
    const uint8_t sym[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
    uint8_t o[8];
    tx.push(sym, 4, o);
    const uint8_t want[8] = { 0, 1, 1, 0, 0, 1, 0, 1 }; // row 1's first turn gives the fill
    EXPECT_TRUE(std::equal(o, o + 8, want));
    EXPECT_THROW(conv_symbol_interleaver<uint8_t>(2, 1, 2, false, { 1 }), std::invalid_argument);
}

// the pseudo-randomizer's sequence against the bytes the standard lists, its period, and the
// three ways of adding it (bits, packed bits, soft values) against each other
TEST(scppm_randomizer, sequence_and_forms)
{
    const auto& p = ccsds_pn_sequence();
    ASSERT_EQ(p.size(), 255u);
    const uint8_t first[] = { 0xFF, 0x48, 0x0E, 0xC0, 0x9A, 0x0D, 0x70, 0xBC };
    for (size_t b = 0; b < 8; ++b) {
        uint8_t x = 0;
        for (size_t i = 0; i < 8; ++i)
            x = uint8_t((x << 1) | p[b * 8 + i]);
        EXPECT_EQ(x, first[b]) << b;
    }
    // the register after 255 steps is all ones again (the recurrence continued gives p again),
    // and not before: the period is 255
    std::vector<uint8_t> q(p.begin(), p.end());
    for (size_t i = 255; i < 255 + 16; ++i)
        q.push_back(q[i - 1] ^ q[i - 3] ^ q[i - 5] ^ q[i - 8]);
    for (size_t i = 0; i < 16; ++i)
        EXPECT_EQ(q[255 + i], p[i]);
    for (size_t s = 1; s < 255; ++s) {
        size_t same = 0;
        for (size_t i = 0; i < 8; ++i)
            same += p[(s + i) % 255] == 1;
        EXPECT_LT(same, 8u) << "all-ones state again at " << s;
    }
    const size_t n = 1000;
    auto bits = test::random_bits(n, 5);
    auto r = bits;
    ccsds_randomize(r.data(), n);
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(r[i], bits[i] ^ p[i % 255]) << i;
    std::vector<uint8_t> packed((n + 7) / 8);
    pack_bits(bits.data(), n, packed.data());
    ccsds_randomize_packed(packed.data(), n);
    std::vector<uint8_t> unpacked(n);
    unpack_bits(packed.data(), n, unpacked.data());
    EXPECT_EQ(unpacked, r);
    std::vector<float> soft(n);
    for (size_t i = 0; i < n; ++i)
        soft[i] = bits[i] ? 1.5f : -1.5f;
    ccsds_randomize_soft(soft.data(), n);
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(soft[i] > 0, r[i] == 1) << i;
    ccsds_randomize(r.data(), n);
    EXPECT_EQ(r, bits); // its own inverse
}

// randomizer=1 on both sides: the encoder codes the randomized block (the CRC covers it), the
// decoder gives the user's bits back; a decoder without it gives the randomized block
TEST(scppm_randomizer, encoder_and_decoder_option)
{
    const frame_options o = { { "M", "8" }, { "rate", "1/2" } };
    frame_options r = o;
    r["randomizer"] = "1";
    auto enc_r = make_frame_encoder("scppm", r), enc = make_frame_encoder("scppm", o);
    const size_t k = enc->info_bits(), n = enc->coded_bits();
    const auto info = test::random_bits(2 * k, 17);
    auto randomized = info;
    ccsds_randomize(randomized.data(), k);
    ccsds_randomize(randomized.data() + k, k);
    std::vector<uint8_t> a(2 * n), b(2 * n);
    enc_r->encode(info.data(), 2, a.data());
    enc->encode(randomized.data(), 2, b.data());
    EXPECT_EQ(a, b);
    std::vector<int8_t> q(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        q[i] = int8_t(a[i] ? 6 : 0);
    for (const char* dev : { "cpu", "auto" }) {
        for (bool packed : { false, true }) {
            for (bool with : { true, false }) {
                auto dec = make_frame_decoder("scppm", with ? r : o, device_spec::parse(dev));
                const size_t bytes = packed ? (k + 7) / 8 : k;
                std::vector<uint8_t> out(2 * bytes);
                frame_status st[2];
                frame_batch fb;
                fb.frames = 2;
                fb.soft = q.data();
                fb.bits = out.data();
                fb.packed = packed;
                fb.status = st;
                dec->decode(fb);
                std::vector<uint8_t> got(2 * k);
                if (packed) {
                    unpack_bits(out.data(), k, got.data());
                    unpack_bits(out.data() + bytes, k, got.data() + k);
                } else {
                    got = out;
                }
                EXPECT_EQ(got, with ? info : randomized) << dev << " packed " << packed;
                EXPECT_EQ(st[0].check, 1);
                EXPECT_EQ(st[1].check, 1);
            }
        }
    }
    // log-map (float, soft output): the soft values de-randomized with the bits
    frame_options lm = r;
    lm["algorithm"] = "log-map";
    lm["input"] = "symbol_llr";
    auto dec = make_frame_decoder("scppm", lm, device_spec::parse("cpu"));
    std::vector<float> llr(n);
    for (size_t i = 0; i < n; ++i)
        llr[i] = a[i] ? 3.f : 0.f;
    std::vector<uint8_t> out(k);
    std::vector<float> soft(k);
    frame_status st;
    frame_batch fb;
    fb.frames = 1;
    fb.soft_f = llr.data();
    fb.bits = out.data();
    fb.soft_out = soft.data();
    fb.status = &st;
    dec->decode(fb);
    EXPECT_EQ(out, std::vector<uint8_t>(info.begin(), info.begin() + long(k)));
    for (size_t i = 0; i < k; ++i)
        ASSERT_EQ(soft[i] > 0, out[i] == 1) << i;
}

//! a stream of framed codewords (random information), and each codeword's decoder input
struct framed_stream {
    std::vector<uint8_t> slots;
    std::vector<std::vector<float>> expected; //!< each frame's codeword slots (0/1)
};
framed_stream make_framed_stream(const scppm_code& c, size_t frames, uint32_t seed)
{
    framed_stream s;
    scppm_encoder enc(c);
    std::vector<uint16_t> sym(size_t(c.symbols()));
    std::vector<uint8_t> frame(scppm_frame_slots(c)), cw(c.slots());
    for (size_t f = 0; f < frames; ++f) {
        const auto info = test::random_bits(size_t(c.info_bits()), seed + uint32_t(f));
        enc.encode(info.data(), sym.data());
        scppm_frame(c, sym.data(), frame.data());
        s.slots.insert(s.slots.end(), frame.begin(), frame.end());
        ppm_slots(sym.data(), sym.size(), c.M, cw.data());
        s.expected.emplace_back(cw.begin(), cw.end());
    }
    return s;
}

//! runs the synchroniser over `y` in pieces of `piece` counts, as a streaming block would
struct sync_run {
    std::vector<std::vector<float>> frames;
    std::vector<scppm_frame_sync::event> events;
};
sync_run run_sync(scppm_frame_sync& sync, const std::vector<float>& y, size_t piece)
{
    sync_run r;
    std::vector<float> buf, out(sync.code().slots());
    size_t fed = 0;
    while (true) {
        const size_t more = std::min(piece, y.size() - fed);
        buf.insert(buf.end(), y.begin() + long(fed), y.begin() + long(fed + more));
        fed += more;
        size_t used = 0;
        while (true) {
            const auto s = sync.step(buf.data() + used, buf.size() - used, out.data());
            if (s.what != scppm_frame_sync::event::none)
                r.events.push_back(s.what);
            if (s.frame)
                r.frames.push_back(out);
            if (s.consumed == 0 && !s.frame && s.what == scppm_frame_sync::event::none)
                break;
            used += s.consumed;
        }
        buf.erase(buf.begin(), buf.begin() + long(used));
        if (fed == y.size())
            break;
    }
    return r;
}

//! whether a frame's counts are the expected codeword's: its pulses hold most photons
bool same_codeword(const std::vector<float>& got, const std::vector<float>& want, int M)
{
    size_t right = 0, symbols = want.size() / size_t(M);
    for (size_t s = 0; s < symbols; ++s) {
        const auto* g = got.data() + s * size_t(M);
        const auto* w = want.data() + s * size_t(M);
        right += std::max_element(w, w + M) - w == std::max_element(g, g + M) - g;
    }
    return right > symbols * 3 / 4;
}

// codeword synchronisation on a stream: noise before the first marker, a slot lost and two
// slots added (slips), a faded frame (flywheel), a long outage (lost, then found again); every
// frame given is the codeword sent there, and the counters say what happened
TEST(scppm_framing, frame_sync_keeps_and_regains_lock)
{
    const scppm_code c = scppm_code::make(16, "2/3");
    const size_t fs = scppm_frame_slots(c);
    const framed_stream tx = make_framed_stream(c, 16, 100);
    std::vector<uint8_t> pulses(777, 0); // noise first
    std::vector<size_t> sent;            // which frame each piece of the stream carries
    auto add = [&](size_t f) { pulses.insert(pulses.end(), tx.slots.begin() + long(f * fs), tx.slots.begin() + long((f + 1) * fs)); };
    for (size_t f = 0; f < 3; ++f)
        add(f);
    pulses.pop_back(); // frame 2 one slot short: frame 3's marker comes a slot early
    add(3);
    pulses.insert(pulses.end(), 2, 0); // two extra slots: frame 4 comes 2 late
    for (size_t f = 4; f < 16; ++f)
        add(f);
    std::vector<float> y(pulses.size());
    std::mt19937_64 rng(3);
    poisson_channel(pulses.data(), pulses.size(), 6.0, 0.2, rng, y.data());
    // frame 6 fades out (its marker too): flywheel; frames 9, 10, 11 are lost in an outage
    const size_t start6 = 777 + 6 * fs + 1, start9 = 777 + 9 * fs + 1;
    std::fill(y.begin() + long(start6), y.begin() + long(start6 + fs), 0.f);
    std::fill(y.begin() + long(start9), y.begin() + long(start9 + 3 * fs), 0.f);

    for (size_t piece : { size_t(1000), size_t(3 * fs) }) {
        scppm_frame_sync sync(c);
        const sync_run r = run_sync(sync, y, piece);
        using ev = scppm_frame_sync::event;
        const std::vector<ev> want = { ev::acquired, ev::slipped, ev::slipped, ev::flywheel,
                                       ev::flywheel, ev::flywheel, ev::lost, ev::acquired };
        EXPECT_EQ(r.events, want) << "piece " << piece;
        // given: frames 0 .. 8 (6 faded: given by the flywheel), 9 and 10 (flywheel in the
        // outage), then after the loss the search skips faded frame 11 and locks on 12 (with
        // 13's marker); 13 and 14 follow, and the last, 15, waits for the slots after it
        const auto& st = sync.stats();
        EXPECT_EQ(st.acquisitions, 2u);
        EXPECT_EQ(st.losses, 1u);
        EXPECT_EQ(st.slips, 2u);
        EXPECT_EQ(st.flywheel, 3u);
        ASSERT_EQ(r.frames.size(), 14u);
        EXPECT_EQ(st.frames, r.frames.size());
        for (size_t f = 0; f < 9; ++f)
            if (f != 6)
                EXPECT_TRUE(same_codeword(r.frames[f], tx.expected[f], c.M)) << "frame " << f;
        for (size_t f = 12; f < 15; ++f)
            EXPECT_TRUE(same_codeword(r.frames[f - 1], tx.expected[f], c.M)) << "frame " << f;
        EXPECT_FALSE(same_codeword(r.frames[0], tx.expected[1], c.M)); // the check can fail
        // skipped: the noise before frame 0, the slip's two slots, faded frame 11's search
        EXPECT_EQ(st.skipped_slots, 777u + 2u + fs);
    }
    // nothing but noise: no lock, every slot counted as skipped
    std::vector<float> noise(5 * fs);
    std::vector<uint8_t> none(noise.size(), 0);
    std::mt19937_64 rng2(4);
    poisson_channel(none.data(), none.size(), 6.0, 0.2, rng2, noise.data());
    scppm_frame_sync quiet(c);
    const sync_run q = run_sync(quiet, noise, 4096);
    EXPECT_TRUE(q.frames.empty());
    EXPECT_EQ(quiet.stats().acquisitions, 0u);
    EXPECT_GE(quiet.stats().skipped_slots, 3 * fs);
    // ... even with a NaN, an infinite or a negative count in it (a NaN once made the mean and
    // the deviation NaN, and the search locked onto noise)
    for (float bad : { std::nanf(""), -INFINITY, INFINITY, -5.f }) {
        std::vector<float> spoilt = noise;
        spoilt[fs / 3] = bad;
        spoilt[fs + 17] = bad;
        scppm_frame_sync s(c);
        const sync_run sr = run_sync(s, spoilt, 4096);
        EXPECT_TRUE(sr.frames.empty()) << bad;
        EXPECT_EQ(s.stats().acquisitions, 0u) << bad;
    }
    EXPECT_THROW(scppm_frame_sync(c, 0), std::invalid_argument);
    // the weakest signal the code decodes (M = 4, rate 1/2, Ks 1.5 = 1.8 dB: CWER about 1e-2)
    // still locks at the first search, on every frame
    const scppm_code c4 = scppm_code::make(4, "1/2");
    const framed_stream weak = make_framed_stream(c4, 5, 7);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        std::vector<uint8_t> p4(1234, 0);
        p4.insert(p4.end(), weak.slots.begin(), weak.slots.end());
        std::vector<float> y4(p4.size());
        std::mt19937_64 r4(seed);
        poisson_channel(p4.data(), p4.size(), 1.5, 0.2, r4, y4.data());
        scppm_frame_sync s4(c4);
        const sync_run w = run_sync(s4, y4, 100000);
        EXPECT_EQ(s4.stats().skipped_slots, 1234u);
        ASSERT_EQ(w.frames.size(), 4u);
        std::vector<float> at(c4.slots());
        for (size_t f = 0; f < 4; ++f) { // exactly the counts where the frame was sent
            scppm_deframe(c4, y4.data() + 1234 + f * scppm_frame_slots(c4), at.data());
            EXPECT_EQ(w.frames[f], at) << "frame " << f;
        }
    }
}

} // namespace
} // namespace gpufec
