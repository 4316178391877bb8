/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Reed-Solomon codes and the reference decoder: round trips, erasures, failures beyond E and
 * their miscorrection rate, and, where Debian's libfec is installed (libfec-dev; CI installs
 * it), agreement with libfec's encoders, decoders and dual-basis tables codeword by codeword. */
#include <gnuradio/gpufec/core/codes/reed_solomon.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gtest/gtest.h>

#include "codes/gf2m_field.h"
#include "rs_cpu.h"
#include "rs_solver.h"
#include "rs_reference.h"
#include "testing/test_util.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#ifdef GPUFEC_HAVE_LIBFEC
extern "C" {
#include <fec.h>
}
#endif

using namespace gpufec;

namespace {

std::vector<uint8_t> random_bytes(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng());
    return v;
}

//! `count` distinct positions in 0 .. n - 1
std::vector<int> positions(int n, int count, std::mt19937& rng)
{
    std::vector<int> all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(size_t(count));
    return all;
}

std::vector<rs_code> test_codes()
{
    std::vector<rs_code> codes;
    for (const auto& name : rs_code::names())
        for (bool dual : { true, false }) {
            rs_code c = rs_code::named(name);
            if (dual && c.gfpoly != 0x187)
                continue;
            c.dual_basis = dual;
            codes.push_back(c);
        }
    rs_code shortened = rs_code::named("ccsds:255:223");
    shortened.virtual_fill = 100; // (255 - 100, 223 - 100)
    codes.push_back(shortened);
    return codes;
}

//! a frame decoder's bits (one a byte) and status for `frames` frames of int8 soft values
void decode_frames(batch_decoder& dec, const std::vector<int8_t>& soft, size_t frames, std::vector<uint8_t>& bits,
                   std::vector<frame_status>& status)
{
    bits.assign(frames * dec.output_bits(), 0);
    status.assign(frames, frame_status{});
    frame_batch b;
    b.frames = frames;
    b.soft = soft.data();
    b.bits = bits.data();
    b.status = status.data();
    dec.decode(b);
}

} // namespace

TEST(rs_code, named_codes_and_bad_parameters)
{
    const rs_code c = rs_code::named("ccsds:255:223");
    EXPECT_EQ(c.n(), 255);
    EXPECT_EQ(c.k(), 223);
    EXPECT_EQ(c.correctable(), 16);
    EXPECT_EQ(rs_code::named("ccsds:255:239").k(), 239);
    const rs_code d = rs_code::named("dvb:204:188");
    EXPECT_EQ(d.n(), 204);
    EXPECT_EQ(d.k(), 188);
    EXPECT_THROW(rs_code::named("ccsds:255:200"), std::invalid_argument);
    auto bad = [](auto change) {
        rs_code x = rs_code::named("ccsds:255:223");
        change(x);
        return x;
    };
    EXPECT_THROW(bad([](rs_code& x) { x.nroots = 7; }).check(), std::invalid_argument);
    EXPECT_THROW(bad([](rs_code& x) { x.prim = 15; }).check(), std::invalid_argument); // gcd(15, 255) = 15
    EXPECT_THROW(bad([](rs_code& x) { x.gfpoly = 0x11b; }).check(), std::invalid_argument); // not primitive
    EXPECT_THROW(bad([](rs_code& x) { x.virtual_fill = 223; }).check(), std::invalid_argument);
    EXPECT_THROW(bad([](rs_code& x) { x.interleave = 0; }).check(), std::invalid_argument);
    EXPECT_THROW(bad([](rs_code& x) { x.gfpoly = 0x11d; }).check(), std::invalid_argument); // dual basis: CCSDS field only
}

TEST(rs_code, dual_basis_is_a_bijection_with_the_defining_property)
{
    std::set<int> seen;
    for (int x = 0; x < 256; ++x) {
        EXPECT_EQ(rs_ccsds_from_dual(rs_ccsds_to_dual(uint8_t(x))), x);
        seen.insert(rs_ccsds_to_dual(uint8_t(x)));
    }
    EXPECT_EQ(seen.size(), 256u);
    EXPECT_EQ(rs_ccsds_to_dual(0), 0);
    // linear over GF(2): the representation of a sum is the sum of the representations
    for (int a = 0; a < 256; a += 7)
        for (int b = 0; b < 256; b += 11)
            EXPECT_EQ(rs_ccsds_to_dual(uint8_t(a ^ b)), rs_ccsds_to_dual(uint8_t(a)) ^ rs_ccsds_to_dual(uint8_t(b)));
}

TEST(rs_reference, corrects_up_to_e_errors_at_every_depth_and_basis)
{
    std::mt19937 rng(1);
    for (rs_code c : test_codes())
        for (int I : { 1, 2, 3, 5, 8 }) {
            c.interleave = I;
            rs_encoder enc(c);
            rs_reference_decoder dec(c);
            for (int trial = 0; trial < 6; ++trial) {
                const auto info = random_bytes(c.info_bytes(), rng);
                std::vector<uint8_t> block(c.block_bytes());
                enc.encode(info.data(), block.data());
                ASSERT_TRUE(std::equal(info.begin(), info.end(), block.begin())) << "systematic";
                std::vector<int> errors(static_cast<size_t>(I));
                for (int j = 0; j < I; ++j) {
                    errors[size_t(j)] = int(rng() % unsigned(c.correctable() + 1));
                    if (trial == 0)
                        errors[size_t(j)] = c.correctable(); // the full E at least once
                    for (int p : positions(c.n(), errors[size_t(j)], rng))
                        block[size_t(p) * I + j] ^= uint8_t(1 + rng() % 255);
                }
                std::vector<uint8_t> out(c.info_bytes());
                std::vector<int> result(static_cast<size_t>(I));
                dec.decode_block(block.data(), out.data(), result.data());
                ASSERT_EQ(out, info) << c.describe() << " I=" << I << " trial " << trial;
                EXPECT_EQ(result, errors) << c.describe();
            }
        }
}

TEST(rs_reference, errors_and_erasures_within_the_distance)
{
    std::mt19937 rng(2);
    for (const rs_code& c : test_codes()) {
        rs_encoder enc(c);
        rs_reference_decoder dec(c);
        const int R = c.nroots;
        for (int trial = 0; trial < 40; ++trial) {
            const int f = int(rng() % unsigned(R + 1));       // erasures
            const int e = int(rng() % unsigned((R - f) / 2 + 1)); // errors: 2e + f <= 2E
            const auto info = random_bytes(c.info_bytes(), rng);
            std::vector<uint8_t> cw(c.block_bytes());
            enc.encode(info.data(), cw.data());
            const auto sent = cw;
            const auto pos = positions(c.n(), e + f, rng);
            std::vector<int> eras(pos.begin() + e, pos.end());
            for (int i = 0; i < e; ++i)
                cw[size_t(pos[size_t(i)])] ^= uint8_t(1 + rng() % 255);
            for (int p : eras)
                cw[size_t(p)] = uint8_t(rng()); // (may be right by chance)
            const int got = dec.decode_codeword(cw.data(), eras.data(), int(eras.size()));
            ASSERT_EQ(cw, sent) << c.describe() << " e=" << e << " f=" << f;
            EXPECT_GE(got, e) << c.describe();
            EXPECT_LE(got, e + f) << c.describe();
        }
    }
}

/* The CUDA kernel runs the solver's phases across a warp: the locator, the Chien search at
 * each position on its own (rs_chien_at, not the incremental search), omega and an error value
 * a lane. The same phases composed here on the CPU give rs_solve's results, word for word, on
 * words within and beyond the distance, with and without erasures. */
namespace {
int solve_by_phases(const rs_code& c, const uint8_t* exp, const uint8_t* log, uint8_t* r, const uint8_t* S,
                    const int* eras, int n_eras)
{
    const rs_solver_code p{ c.nroots, c.fcr, c.prim, c.virtual_fill };
    const rs_field_ops f{ exp, log };
    uint8_t lambda[129];
    int deg = 0;
    const int st = rs_locator(p, f, S, eras, n_eras, lambda, &deg);
    if (st <= 0)
        return st;
    std::vector<int> loc;
    for (int i = 0; i < 255; ++i)
        if (rs_chien_at(p, f, lambda, deg, i) == 0)
            loc.push_back(i);
    if (int(loc.size()) != deg || deg == 0)
        return -1;
    for (int i : loc)
        if (i < c.virtual_fill)
            return -1;
    uint8_t omega[128] = {};
    int deg_omega = 0;
    for (int i = 0; i < c.nroots; ++i) {
        omega[i] = rs_omega_at(f, S, lambda, deg, i);
        deg_omega = omega[i] ? i : deg_omega;
    }
    std::vector<uint8_t> value(loc.size());
    for (size_t k = 0; k < loc.size(); ++k)
        if (!rs_error_value(p, f, lambda, deg, omega, deg_omega, loc[k], &value[k]))
            return -1;
    int changed = 0;
    for (size_t k = 0; k < loc.size(); ++k) {
        r[loc[k]] ^= value[k];
        changed += value[k] != 0;
    }
    return changed;
}
} // namespace

TEST(rs_solver, phases_as_the_gpu_runs_them_give_the_solvers_results)
{
    std::mt19937 rng(31);
    for (const rs_code& c : test_codes()) {
        gf2m_field gf(8, uint32_t(c.gfpoly));
        std::vector<uint8_t> exp(510), log(256);
        gf.tables8(exp.data(), log.data());
        rs_reference_decoder ref(c);
        rs_encoder enc(rs_code{ c.nroots, c.gfpoly, c.fcr, c.prim, false, 1, c.virtual_fill });
        const int R = c.nroots, V = c.virtual_fill;
        int failures = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const auto info = random_bytes(size_t(c.k()), rng);
            std::vector<uint8_t> sent(size_t(c.n()));
            enc.encode(info.data(), sent.data());
            const int f = trial % 3 == 0 ? int(rng() % unsigned(R + 1)) : 0;
            const int e = int(rng() % unsigned(R + 4)); // within and beyond the distance
            const auto pos = positions(c.n(), std::min(c.n(), e + f), rng);
            std::vector<int> eras(pos.begin() + std::min<size_t>(pos.size(), size_t(e)), pos.end());
            std::vector<uint8_t> r(255, 0);
            std::copy(sent.begin(), sent.end(), r.begin() + V);
            for (size_t i = 0; i < pos.size(); ++i)
                r[size_t(V + pos[i])] ^= uint8_t(1 + rng() % 255);
            uint8_t S[128];
            for (int j = 0; j < R; ++j) {
                uint8_t x = 0;
                const uint8_t root = ref.root(j);
                for (int i = 0; i < 255; ++i)
                    x = uint8_t((x ? gf.mul(x, root) : 0) ^ r[size_t(i)]);
                S[j] = x;
            }
            auto a = r, b = r;
            const int ra = rs_solve(rs_solver_code{ R, c.fcr, c.prim, V }, exp.data(), log.data(), a.data(), S,
                                    eras.data(), int(eras.size()));
            const int rb = solve_by_phases(c, exp.data(), log.data(), b.data(), S, eras.data(), int(eras.size()));
            ASSERT_EQ(ra, rb) << c.describe() << " trial " << trial << " e=" << e << " f=" << f;
            ASSERT_EQ(a, b) << c.describe() << " trial " << trial;
            failures += ra < 0;
        }
        EXPECT_GT(failures, 10) << c.describe(); // (the beyond-distance words were there)
    }
}

/* Beyond E errors a bounded-distance decoder either reports failure or lands on another
 * codeword within E of the word (a miscorrection). For a random word the chance of the latter
 * is about sum_{i <= E} C(n, i) (q - 1)^i / q^(2E) (McEliece & Swanson): 1.3e-5 for
 * (255, 239), 3e-14 for (255, 223). Every outcome is checked: a failure leaves the word as it
 * came, a success is a codeword within E of what came. */
TEST(rs_reference, beyond_e_failure_is_reported_and_miscorrections_are_rare)
{
    std::mt19937 rng(3);
    for (const char* name : { "ccsds:255:239", "ccsds:255:223" }) {
        const rs_code c = rs_code::named(name);
        rs_encoder enc(c);
        rs_reference_decoder dec(c);
        const int E = c.correctable(), trials = 4000;
        double bound = 0; // the probability above, in logs
        for (int i = 0; i <= E; ++i)
            bound += std::exp(std::lgamma(256.0) - std::lgamma(i + 1.0) - std::lgamma(256.0 - i) + i * std::log(255.0) -
                              2 * E * std::log(256.0));
        int failures = 0, miscorrections = 0;
        for (int t = 0; t < trials; ++t) {
            const auto info = random_bytes(c.info_bytes(), rng);
            std::vector<uint8_t> cw(c.block_bytes());
            enc.encode(info.data(), cw.data());
            const int errors = E + 1 + int(rng() % 24);
            for (int p : positions(c.n(), errors, rng))
                cw[size_t(p)] ^= uint8_t(1 + rng() % 255);
            const auto received = cw;
            const int got = dec.decode_codeword(cw.data());
            if (got < 0) {
                ++failures;
                ASSERT_EQ(cw, received) << "a failure leaves the word as it came";
                continue;
            }
            ++miscorrections;
            int moved = 0;
            for (size_t i = 0; i < cw.size(); ++i)
                moved += cw[i] != received[i];
            EXPECT_EQ(moved, got);
            EXPECT_LE(got, E);
            std::vector<uint8_t> check = cw;
            EXPECT_EQ(dec.decode_codeword(check.data()), 0) << "a success is a codeword";
        }
        EXPECT_EQ(failures + miscorrections, trials);
        // Poisson: at most the expected count plus a wide margin
        EXPECT_LE(miscorrections, int(bound * trials + 5 * std::sqrt(bound * trials) + 3))
            << name << ": " << miscorrections << " of " << trials << " (expected " << bound * trials << ")";
    }
}

TEST(rs_reference, bad_erasure_lists_are_failures_not_crashes)
{
    const rs_code c = rs_code::named("ccsds:255:223");
    rs_reference_decoder dec(c);
    std::vector<uint8_t> cw(255, 0);
    cw[3] = 1;
    const int outside[] = { 300 };
    EXPECT_EQ(dec.decode_codeword(cw.data(), outside, 1), -1);
    std::vector<int> too_many(40);
    std::iota(too_many.begin(), too_many.end(), 0);
    EXPECT_EQ(dec.decode_codeword(cw.data(), too_many.data(), 40), -1);
}

/* The SIMD CPU decoder against the reference, codeword by codeword, at every instruction set:
 * clean codewords, up to E errors, beyond E, every depth, both bases, shortened codes, and
 * batches that leave spare lanes. */
TEST(rs_cpu, gives_the_reference_results_at_every_simd_width)
{
    std::mt19937 rng(6);
    for (const char* isa : { "avx512", "avx2", "baseline" }) {
        test::scoped_env env("GPUFEC_SIMD", isa);
        for (rs_code c : test_codes())
            for (int I : { 1, 5, 8 }) {
                c.interleave = I;
                rs_encoder enc(c);
                rs_reference_decoder ref(c);
                rs_cpu_decoder fast(c);
                const size_t blocks = 1 + rng() % 23;
                std::vector<uint8_t> in(blocks * c.block_bytes());
                for (size_t b = 0; b < blocks; ++b) {
                    const auto info = random_bytes(c.info_bytes(), rng);
                    uint8_t* block = in.data() + b * c.block_bytes();
                    enc.encode(info.data(), block);
                    for (int j = 0; j < I; ++j) {
                        const int errors = int(rng() % unsigned(c.correctable() + 6)); // (some beyond E)
                        for (int p : positions(c.n(), errors, rng))
                            block[size_t(p) * I + j] ^= uint8_t(1 + rng() % 255);
                    }
                }
                std::vector<uint8_t> a(blocks * c.info_bytes()), b(a.size());
                std::vector<int> ra(blocks * size_t(I)), rb(ra.size());
                fast.decode_blocks(in.data(), blocks, a.data(), ra.data());
                for (size_t k = 0; k < blocks; ++k)
                    ref.decode_block(in.data() + k * c.block_bytes(), b.data() + k * c.info_bytes(), rb.data() + k * I);
                ASSERT_EQ(ra, rb) << isa << " " << c.describe() << " I=" << I << " " << fast.name();
                ASSERT_EQ(a, b) << isa << " " << c.describe() << " I=" << I;
            }
    }
}

/* The frame family on a binary symmetric channel against the bounded-distance decoder's exact
 * codeword failure rate, sum_{i > E} C(255, i) ps^i (1 - ps)^(255 - i) with the symbol error
 * rate ps = 1 - (1 - pb)^8 (independent bit errors; miscorrections, below 1e-13 for E = 16,
 * count as failures either way). pb = 0.0064 (BPSK at Eb/N0 5.5 dB, hard decisions): 13.8 %. */
TEST(rs_family, failure_rate_on_a_binary_symmetric_channel_is_the_bounded_distance_one)
{
    const rs_code c = rs_code::named("ccsds:255:223");
    auto dec = make_frame_decoder("rs", parse_frame_options("code=ccsds:255:223"), device_spec::parse("cpu"));
    auto enc = make_frame_encoder("rs", parse_frame_options("code=ccsds:255:223"));
    const size_t frames = 3000, in = dec->input_per_frame(), out = dec->output_bits();
    ASSERT_EQ(in, 255u * 8);
    ASSERT_EQ(out, 223u * 8);
    const double pb = 0.0064;
    std::mt19937 rng(8);
    std::bernoulli_distribution flip(pb);
    const auto bits = test::random_bits(frames * out, 9);
    std::vector<uint8_t> coded(frames * in);
    enc->encode(bits.data(), frames, coded.data());
    std::vector<int8_t> soft(coded.size());
    for (size_t i = 0; i < coded.size(); ++i)
        soft[i] = int8_t(((coded[i] != 0) != flip(rng)) ? 100 : -100);
    std::vector<uint8_t> got;
    std::vector<frame_status> st;
    decode_frames(*dec, soft, frames, got, st);
    int failed = 0;
    for (size_t f = 0; f < frames; ++f) {
        const bool right = std::equal(got.begin() + long(f * out), got.begin() + long((f + 1) * out), bits.begin() + long(f * out));
        EXPECT_EQ(st[f].check == 1, right) << "the check says what happened, frame " << f;
        failed += !right;
    }
    const double ps = 1 - std::pow(1 - pb, 8);
    double p = 0;
    for (int i = c.correctable() + 1; i <= 255; ++i)
        p += std::exp(std::lgamma(256.0) - std::lgamma(i + 1.0) - std::lgamma(256.0 - i) + i * std::log(ps) +
                      (255 - i) * std::log1p(-ps));
    const double mean = p * frames, sd = std::sqrt(frames * p * (1 - p));
    EXPECT_NEAR(failed, mean, 4 * sd) << "expected " << mean << " of " << frames;
}

/* The frame face's reading of soft values, against its definition done by hand: a bit is 1
 * where its value is positive, a symbol with a 0 among its 8 values is an erasure; the
 * codewords then through the reference decoder with those erasures (at most 2E; more: failed,
 * the bytes as they came). Values of every kind: 0, +-1, -128, 127, random. */
TEST(rs_family, soft_values_become_symbols_and_erasures_as_documented)
{
    std::mt19937 rng(12);
    for (const char* opts : { "code=ccsds:255:239, interleave=3", "code=dvb:204:188" }) {
        const frame_options o = parse_frame_options(opts);
        auto dec = make_frame_decoder("rs", o, device_spec::parse("cpu"));
        auto enc = make_frame_encoder("rs", o);
        rs_code c = rs_code::named(o.at("code"));
        c.interleave = o.count("interleave") ? std::stoi(o.at("interleave")) : 1;
        rs_reference_decoder ref(c);
        const size_t frames = 300, in = dec->input_per_frame(), out = dec->output_bits();
        const auto bits = test::random_bits(frames * out, 13);
        std::vector<uint8_t> coded(frames * in);
        enc->encode(bits.data(), frames, coded.data());
        const int8_t kinds[] = { 0, 1, -1, 127, -128, 50, -50 };
        std::vector<int8_t> soft(coded.size());
        for (size_t i = 0; i < coded.size(); ++i) {
            const int8_t m = int8_t(1 + rng() % 100);
            soft[i] = coded[i] ? m : int8_t(-m);
            if (rng() % 200 < size_t(1 + (i / in) % 5)) // a few values a frame of another kind
                soft[i] = kinds[rng() % 7];
        }
        std::vector<uint8_t> got;
        std::vector<frame_status> st;
        decode_frames(*dec, soft, frames, got, st);
        const size_t bb = c.block_bytes();
        for (size_t f = 0; f < frames; ++f) {
            std::vector<uint8_t> block(bb);
            std::vector<bool> erased(bb);
            for (size_t s = 0; s < bb; ++s) {
                uint8_t v = 0;
                bool zero = false;
                for (int t = 0; t < 8; ++t) {
                    const int8_t q = soft[f * in + s * 8 + size_t(t)];
                    v = uint8_t((v << 1) | (q > 0));
                    zero = zero || q == 0;
                }
                block[s] = v;
                erased[s] = zero;
            }
            std::vector<uint8_t> info(c.info_bytes());
            bool ok = true;
            int corrected = 0;
            for (int j = 0; j < c.interleave; ++j) {
                std::vector<uint8_t> cw(size_t(c.n()));
                std::vector<int> eras;
                for (int s = 0; s < c.n(); ++s) {
                    cw[size_t(s)] = block[size_t(s) * size_t(c.interleave) + size_t(j)];
                    if (erased[size_t(s) * size_t(c.interleave) + size_t(j)])
                        eras.push_back(s);
                }
                const int r = int(eras.size()) > c.nroots ? -1 : ref.decode_codeword(cw.data(), eras.data(), int(eras.size()));
                ok = ok && r >= 0;
                corrected += r >= 0 ? r : 0;
                for (int s = 0; s < c.k(); ++s)
                    info[size_t(s) * size_t(c.interleave) + size_t(j)] = cw[size_t(s)];
            }
            std::vector<uint8_t> expect(out);
            unpack_bits(info.data(), out, expect.data());
            ASSERT_TRUE(std::equal(expect.begin(), expect.end(), got.begin() + long(f * out))) << opts << " frame " << f;
            ASSERT_EQ(st[f].check, ok ? 1 : 0) << opts << " frame " << f;
            // the frame's corrections: its codewords' changed symbols, summed; -1 for a failure
            ASSERT_EQ(st[f].corrected, ok ? corrected : -1) << opts << " frame " << f;
        }
    }
}

/* The CUDA engine against the CPU engine, frame by frame and bit by bit: codeblocks with 0 to
 * E + 6 errors a codeword, some with erased symbols (a soft value of 0), a few with more
 * erasures than check symbols, every option set of the conformance suite and more depths. */
TEST(rs_family, cuda_gives_the_cpu_bits_and_status)
{
    GPUFEC_REQUIRE_GPU();
    std::mt19937 rng(10);
    for (const char* opts : { "code=ccsds:255:223", "code=ccsds:255:239, interleave=5",
                              "code=ccsds:255:223, basis=conventional, interleave=2, virtual_fill=100",
                              "code=dvb:204:188", "code=ccsds:255:223, interleave=8" }) {
        const frame_options o = parse_frame_options(opts);
        auto cpu = make_frame_decoder("rs", o, device_spec::parse("cpu"));
        auto gpu = make_frame_decoder("rs", o, device_spec::parse("cuda"));
        auto enc = make_frame_encoder("rs", o);
        const rs_code c = [&] {
            rs_code x = rs_code::named(o.at("code"));
            return x;
        }();
        const size_t frames = 1500, in = cpu->input_per_frame(), out = cpu->output_bits();
        const size_t symbols = in / 8;
        const auto bits = test::random_bits(frames * out, 11);
        std::vector<uint8_t> coded(frames * in);
        enc->encode(bits.data(), frames, coded.data());
        std::vector<int8_t> soft(coded.size());
        for (size_t i = 0; i < coded.size(); ++i)
            soft[i] = int8_t(coded[i] ? 90 : -90);
        for (size_t f = 0; f < frames; ++f) {
            const int errors = int(rng() % unsigned(c.correctable() * 8 / 4 + 24)); // symbols hit, spread over the block
            for (int e = 0; e < errors; ++e) {
                const size_t sym = rng() % symbols;
                soft[(f * symbols + sym) * 8 + rng() % 8] *= -1;
            }
            const int zeros = f % 7 == 0 ? int(rng() % 40) : f % 31 == 0 ? 300 : 0; // erasures
            for (int z = 0; z < zeros; ++z)
                soft[f * in + rng() % in] = 0;
        }
        std::vector<uint8_t> a, b;
        std::vector<frame_status> sa, sb;
        decode_frames(*cpu, soft, frames, a, sa);
        decode_frames(*gpu, soft, frames, b, sb);
        ASSERT_EQ(a, b) << opts;
        int failed = 0;
        for (size_t f = 0; f < frames; ++f) {
            ASSERT_EQ(sa[f].check, sb[f].check) << opts << " frame " << f;
            ASSERT_EQ(sa[f].corrected, sb[f].corrected) << opts << " frame " << f;
            failed += sa[f].check == 0;
        }
        EXPECT_GT(failed, 0) << opts << ": (some frames beyond the distance)";
        EXPECT_LT(failed, int(frames)) << opts;
        EXPECT_NE(gpu->backend().find("cuda"), std::string::npos);
    }
}

#ifdef GPUFEC_HAVE_LIBFEC

TEST(rs_libfec, dual_basis_tables_equal_libfec)
{
    for (int x = 0; x < 256; ++x) {
        EXPECT_EQ(rs_ccsds_to_dual(uint8_t(x)), Taltab[x]) << x;
        EXPECT_EQ(rs_ccsds_from_dual(uint8_t(x)), Tal1tab[x]) << x;
    }
}

namespace {

//! libfec's codec of a code (init_rs_char), freed at the end
struct libfec_codec {
    void* rs;
    explicit libfec_codec(const rs_code& c)
        : rs(init_rs_char(8, c.gfpoly, c.fcr, c.prim, c.nroots, c.virtual_fill))
    {
    }
    ~libfec_codec() { free_rs_char(rs); }
};

//! libfec's decoder for one codeword of `c` in place (the CCSDS entry points where they apply)
int libfec_decode(const rs_code& c, libfec_codec& codec, uint8_t* cw, int* eras, int n_eras)
{
    if (c.nroots == 32 && c.gfpoly == 0x187 && c.fcr == 112 && c.prim == 11)
        return c.dual_basis ? decode_rs_ccsds(cw, eras, n_eras, c.virtual_fill)
                            : decode_rs_8(cw, eras, n_eras, c.virtual_fill);
    if (!c.dual_basis)
        return decode_rs_char(codec.rs, cw, eras, n_eras);
    // (255, 239) dual: libfec's general codec in the conventional basis, converted around it
    for (int i = 0; i < c.n(); ++i)
        cw[i] = Tal1tab[cw[i]];
    const int r = decode_rs_char(codec.rs, cw, eras, n_eras);
    for (int i = 0; i < c.n(); ++i)
        cw[i] = Taltab[cw[i]];
    return r;
}

} // namespace

TEST(rs_libfec, encoders_agree)
{
    std::mt19937 rng(4);
    for (const rs_code& c : test_codes()) {
        rs_encoder enc(c);
        libfec_codec codec(c);
        for (int t = 0; t < 20; ++t) {
            auto info = random_bytes(c.info_bytes(), rng);
            std::vector<uint8_t> ours(c.block_bytes()), parity(size_t(c.nroots));
            enc.encode(info.data(), ours.data());
            if (c.nroots == 32 && c.fcr == 112)
                (c.dual_basis ? encode_rs_ccsds : encode_rs_8)(info.data(), parity.data(), c.virtual_fill);
            else if (!c.dual_basis)
                encode_rs_char(codec.rs, info.data(), parity.data());
            else {
                for (auto& b : info)
                    b = Tal1tab[b];
                encode_rs_char(codec.rs, info.data(), parity.data());
                for (auto& b : parity)
                    b = Taltab[b];
            }
            ASSERT_TRUE(std::equal(parity.begin(), parity.end(), ours.begin() + c.k())) << c.describe();
        }
    }
}

/* Random words, codewords with 0 .. 2E + 8 errors, and errors with erasures: the same return
 * value and the same symbols as libfec, codeword by codeword. Shortened codes only within the
 * distance: beyond it libfec can "correct" a symbol of the virtual fill (and skip it), where
 * this decoder reports a failure. */
TEST(rs_libfec, decoders_agree_codeword_by_codeword)
{
    std::mt19937 rng(5);
    int compared = 0, libfec_failures = 0;
    for (const rs_code& c : test_codes()) {
        rs_encoder enc(c);
        rs_reference_decoder dec(c);
        libfec_codec codec(c);
        const int E = c.correctable(), R = c.nroots;
        for (int t = 0; t < 600; ++t) {
            std::vector<uint8_t> cw(c.block_bytes());
            std::vector<int> eras;
            const int kind = t % 3;
            if (kind == 0 && c.virtual_fill == 0) {
                cw = random_bytes(cw.size(), rng);
            } else {
                const auto info = random_bytes(c.info_bytes(), rng);
                enc.encode(info.data(), cw.data());
                const int limit = c.virtual_fill ? E : 2 * E + 8;
                int errors = int(rng() % unsigned(limit + 1));
                if (kind == 2) { // erasures too
                    const int f = int(rng() % unsigned(R / 2 + 1));
                    errors = std::min(errors, c.virtual_fill ? (R - f) / 2 : errors);
                    const auto pos = positions(c.n(), errors + f, rng);
                    eras.assign(pos.begin() + errors, pos.end());
                    for (int i = 0; i < errors; ++i)
                        cw[size_t(pos[size_t(i)])] ^= uint8_t(1 + rng() % 255);
                    for (int p : eras)
                        cw[size_t(p)] = uint8_t(rng());
                } else {
                    for (int p : positions(c.n(), errors, rng))
                        cw[size_t(p)] ^= uint8_t(1 + rng() % 255);
                }
            }
            auto theirs = cw;
            // (libfec writes the positions it corrected back into the list: room for 2E)
            std::vector<int> their_eras(static_cast<size_t>(R) + 1, 0);
            std::copy(eras.begin(), eras.end(), their_eras.begin());
            const int a = dec.decode_codeword(cw.data(), eras.data(), int(eras.size()));
            const int b = libfec_decode(c, codec, theirs.data(), their_eras.data(), int(eras.size()));
            // (libfec's failures are negative, -1 or -3)
            ASSERT_EQ(a, b < 0 ? -1 : b) << c.describe() << " trial " << t << " (libfec " << b << ")";
            if (a >= 0)
                ASSERT_EQ(cw, theirs) << c.describe() << " trial " << t;
            ++compared;
            libfec_failures += b < 0;
        }
    }
    EXPECT_GT(libfec_failures, compared / 10); // (the inputs reach beyond the distance)
}

#endif
