/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* TVB codes over the BSID channel: the channel's statistics against its parameters and the drift
 * distribution against Monte Carlo, the MAP decoder's probabilities against brute-force
 * enumeration of every channel event sequence, noiseless and noisy decoding, bad input. */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/tvb/bsid.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/tvb/tvb.h>

#include "testing/test_util.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <functional>
#include <map>
#include <random>

namespace gpufec {
namespace {

//! `frames` random frames of the encoder's code through the BSID channel: their information
//! bits, the received values (+-amplitude, positive = 1) back to back, and their lengths;
//! noise_frame (if any) is replaced by ones of the length the channel gave it
struct bsid_frames {
    std::vector<uint8_t> info;
    std::vector<int8_t> soft;
    std::vector<size_t> lengths;
    bsid_frames(frame_encoder& enc, size_t frames, uint32_t info_seed, const bsid_params& ch, uint64_t channel_seed,
                int8_t amplitude, size_t noise_frame = size_t(-1))
    {
        const size_t nb = enc.coded_bits();
        info = test::random_bits(frames * enc.info_bits(), info_seed);
        std::vector<uint8_t> coded(frames * nb), y;
        enc.encode(info.data(), frames, coded.data());
        std::mt19937_64 rng(channel_seed);
        for (size_t f = 0; f < frames; ++f) {
            bsid_transmit(coded.data() + f * nb, nb, ch, rng, y);
            if (f == noise_frame)
                std::fill(y.begin(), y.end(), 1);
            for (uint8_t b : y)
                soft.push_back(b ? amplitude : int8_t(-amplitude));
            lengths.push_back(y.size());
        }
    }
    //! frames [a, a + n) through d: unpacked or packed bits, APPs (soft_out) or none, statuses
    void decode(batch_decoder& d, size_t a, size_t n, bool packed, std::vector<uint8_t>& bits, std::vector<float>* app,
                std::vector<frame_status>& st) const
    {
        size_t at = 0;
        for (size_t f = 0; f < a; ++f)
            at += lengths[f];
        bits.assign(n * d.output_bytes(packed), 0);
        if (app)
            app->assign(n * d.soft_output_per_frame(), -1.f);
        st.assign(n, frame_status());
        frame_batch b;
        b.frames = n;
        b.soft = soft.data() + at;
        b.input_lengths = lengths.data() + a;
        b.bits = bits.data();
        b.packed = packed;
        b.soft_out = app ? app->data() : nullptr;
        b.status = st.data();
        d.decode(b);
    }
};

TEST(bsid_channel, statistics_match_the_parameters)
{
    std::mt19937_64 rng(1);
    const size_t n = 400000;
    const auto bits = test::random_bits(n, 3);
    std::vector<uint8_t> out;
    // substitutions only: the flip rate
    bsid_params s;
    s.Ps = 0.03;
    bsid_transmit(bits.data(), n, s, rng, out);
    ASSERT_EQ(out.size(), n);
    size_t flips = 0;
    for (size_t i = 0; i < n; ++i)
        flips += out[i] != bits[i];
    EXPECT_NEAR(double(flips) / n, 0.03, 4 * std::sqrt(0.03 / n));
    // deletions only: the length
    bsid_params d;
    d.Pd = 0.05;
    bsid_transmit(bits.data(), n, d, rng, out);
    EXPECT_NEAR(double(out.size()) / n, 0.95, 4 * std::sqrt(0.05 * 0.95 / n));
    // insertions only, at most 2 a bit: E[insertions] = Pi + Pi^2
    bsid_params in;
    in.Pi = 0.1;
    bsid_transmit(bits.data(), n, in, rng, out);
    EXPECT_NEAR(double(out.size()) / n - 1, 0.1 + 0.01, 0.003);
    // all at once: the length distribution of 64-bit frames against the exact drift distribution
    bsid_params p;
    p.Pi = 0.04;
    p.Pd = 0.06;
    p.Ps = 0.01;
    const size_t t = 64, frames = 40000;
    const drift_distribution dd = bsid_drift_distribution(p, t);
    double total = 0, mean = 0;
    for (size_t k = 0; k < dd.p.size(); ++k) {
        total += dd.p[k];
        mean += dd.p[k] * (dd.lo + int(k));
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
    // per bit: E[change] = sum_k Pi^k (k Pt + (k - 1) Pd), capped at 2 insertions
    const double Pt = p.Pt(), pr = Pt + p.Pd;
    const double per_bit = (0 * Pt - 1 * p.Pd) + p.Pi * (1 * Pt + 0 * p.Pd) + p.Pi * p.Pi * (2 * Pt + 1 * p.Pd) / pr;
    EXPECT_NEAR(mean, per_bit * t, 1e-9);
    std::map<int, size_t> seen;
    for (size_t f = 0; f < frames; ++f) {
        bsid_transmit(bits.data() + f, t, p, rng, out);
        ++seen[int(out.size()) - int(t)];
    }
    for (const auto& [drift, count] : seen) {
        const double want = drift >= dd.lo && drift <= dd.hi() ? dd.p[size_t(drift - dd.lo)] * frames : 0;
        EXPECT_NEAR(double(count), want, 5 * std::sqrt(want) + 3) << "drift " << drift;
    }
    // the limits hold the mass they promise
    const drift_limits l = bsid_drift_limits(p, t, 1e-6);
    double inside = 0;
    for (int m = l.lo; m <= l.hi; ++m)
        inside += m >= dd.lo && m <= dd.hi() ? dd.p[size_t(m - dd.lo)] : 0;
    EXPECT_GE(inside, 1 - 1e-6);
    EXPECT_LT(l.lo, 0);
    EXPECT_GT(l.hi, 0);
    bsid_params bad;
    bad.Pi = 0.7;
    bad.Pd = 0.4;
    EXPECT_THROW(bad.check(), std::invalid_argument);
}

//! every way the channel can turn x into some output (at most K insertions a bit, uncapped
//! probabilities): P(y | x) by enumeration
void enumerate(const std::vector<uint8_t>& x, size_t i, std::vector<uint8_t>& y, double p, const bsid_params& ch, int K,
               std::map<std::vector<uint8_t>, double>& out)
{
    if (i == x.size()) {
        out[y] += p;
        return;
    }
    // k insertions of random bits, then the bit deleted or transmitted
    std::function<void(int, double)> rec = [&](int k, double pk) {
        enumerate(x, i + 1, y, pk * ch.Pd, ch, K, out);
        for (int v : { 0, 1 }) {
            y.push_back(uint8_t(v));
            enumerate(x, i + 1, y, pk * ch.Pt() * (v == x[i] ? 1 - ch.Ps : ch.Ps), ch, K, out);
            y.pop_back();
        }
        if (k < K)
            for (int v : { 0, 1 }) {
                y.push_back(uint8_t(v));
                rec(k + 1, pk * ch.Pi / 2);
                y.pop_back();
            }
    };
    rec(0, p);
}

// the decoder's a-posteriori probabilities against P(y | x) summed over every message by brute
// force: a frame of 2 symbols of 2 bits (all four words), every received sequence of 1 .. 5 bits
// (the enumeration stops at 2 insertions a bit: the terms it misses there are below 1e-5)
TEST(tvb_decoder, app_equals_brute_force)
{
    bsid_params ch;
    ch.Pi = 0.02;
    ch.Pd = 0.03;
    ch.Ps = 0.05;
    tvb_code c;
    c.q = 4;
    c.n = 2;
    c.books = { { 0, 1, 2, 3 }, { 2, 0, 3, 1 } };
    const size_t N = 2;
    tvb_map_decoder dec(c, N, ch, 1e-12);
    // P(y | message) for all 16 messages
    std::map<std::vector<uint8_t>, std::vector<double>> like; // y -> 16 likelihoods
    for (int m = 0; m < 16; ++m) {
        const uint16_t sym[2] = { uint16_t(m >> 2), uint16_t(m & 3) };
        std::vector<uint8_t> x(4);
        tvb_encode(c, sym, N, x.data());
        std::map<std::vector<uint8_t>, double> out;
        std::vector<uint8_t> y;
        enumerate(x, 0, y, 1.0, ch, 2, out);
        for (const auto& [yy, p] : out) {
            auto& v = like[yy];
            v.resize(16, 0.0);
            v[size_t(m)] = p;
        }
    }
    size_t checked = 0;
    for (const auto& [y, l] : like) {
        if (y.empty() || y.size() > 5)
            continue;
        std::vector<double> app(N * 4);
        const tvb_result r = dec.decode(y.data(), y.size(), nullptr, app.data(), nullptr);
        ASSERT_FALSE(r.erased) << y.size();
        double total = 0;
        for (double v : l)
            total += v;
        for (size_t i = 0; i < N; ++i)
            for (int D = 0; D < 4; ++D) {
                double v = 0;
                for (int m = 0; m < 16; ++m)
                    if ((i == 0 ? m >> 2 : m & 3) == D)
                        v += l[size_t(m)];
                EXPECT_NEAR(app[i * 4 + size_t(D)], v / total, 2e-5) << "length " << y.size() << " i " << i;
            }
        ++checked;
    }
    EXPECT_EQ(checked, 62u); // every binary sequence of 1 .. 5 bits
}

std::vector<uint16_t> random_symbols(size_t N, int q, uint32_t seed)
{
    std::mt19937 g(seed);
    std::vector<uint16_t> s(N);
    for (auto& x : s)
        x = uint16_t(g() % uint32_t(q));
    return s;
}

TEST(tvb_decoder, noiseless_and_noisy_frames)
{
    const tvb_code c = tvb_code::davey_mackay(16, 7, 50, 11);
    bsid_params ch;
    ch.Pi = ch.Pd = 0.01;
    const size_t N = 50;
    tvb_map_decoder dec(c, N, ch);
    std::vector<uint8_t> x(N * 7), y;
    std::vector<uint16_t> got(N);
    // noiseless: exactly the symbols
    const auto s = random_symbols(N, 16, 1);
    tvb_encode(c, s.data(), N, x.data());
    EXPECT_FALSE(dec.decode(x.data(), x.size(), nullptr, nullptr, got.data()).erased);
    EXPECT_EQ(got, s);
    // through the channel: the errors are as many as the probabilities say (the mean of
    // 1 - the largest APP), whatever the drift
    std::mt19937_64 rng(5);
    size_t wrong = 0, total = 0, drifted = 0;
    double expected = 0;
    std::vector<double> pr(N * 16);
    for (uint32_t f = 0; f < 40; ++f) {
        const auto sf = random_symbols(N, 16, 100 + f);
        tvb_encode(c, sf.data(), N, x.data());
        bsid_transmit(x.data(), x.size(), ch, rng, y);
        const tvb_result r = dec.decode(y.data(), y.size(), nullptr, pr.data(), got.data());
        ASSERT_FALSE(r.erased);
        drifted += r.end_drift != 0;
        for (size_t i = 0; i < N; ++i) {
            wrong += got[i] != sf[i];
            expected += 1 - pr[i * 16 + got[i]];
        }
        total += N;
    }
    EXPECT_GT(drifted, 10u);
    EXPECT_LT(double(wrong) / double(total), 0.1);
    EXPECT_NEAR(double(wrong), expected, 4 * std::sqrt(expected) + 3);
    // a received length the drift range excludes: erased, uniform probabilities
    std::vector<double> app(N * 16);
    const tvb_result r = dec.decode(x.data(), dec.max_received() + 1 <= x.size() ? x.size() : 10, nullptr, app.data(),
                                    got.data());
    EXPECT_TRUE(r.erased);
    EXPECT_DOUBLE_EQ(app[0], 1.0 / 16);
}

// single precision for alpha, beta and the APP sums against double: the APPs within the
// stated error (docs/tvb.md), the same decisions except where double's two best are as close
TEST(tvb_decoder, single_precision_error)
{
    const size_t N = 50;
    const tvb_code c = tvb_code::davey_mackay(16, 8, int(N), 3);
    bsid_params ch;
    ch.Pi = ch.Pd = 0.02;
    tvb_map_decoder d64(c, N, ch), d32(c, N, ch, 1e-10, tvb_precision::float32);
    EXPECT_EQ(d32.precision(), tvb_precision::float32);
    std::mt19937_64 rng(9);
    std::vector<uint8_t> x(N * 8), y;
    std::vector<double> a64(N * 16), a32(N * 16);
    std::vector<uint16_t> s64(N), s32(N);
    double worst = 0;
    size_t differ = 0, decisions = 0;
    for (uint32_t f = 0; f < 100; ++f) {
        const auto sf = random_symbols(N, 16, 300 + f);
        tvb_encode(c, sf.data(), N, x.data());
        bsid_transmit(x.data(), x.size(), ch, rng, y);
        d64.decode(y.data(), y.size(), nullptr, a64.data(), s64.data());
        d32.decode(y.data(), y.size(), nullptr, a32.data(), s32.data());
        for (size_t k = 0; k < a64.size(); ++k)
            worst = std::max(worst, std::fabs(a64[k] - a32[k]));
        for (size_t i = 0; i < N; ++i, ++decisions)
            if (s64[i] != s32[i]) {
                ++differ;
                // a near tie in double
                EXPECT_NEAR(a64[i * 16 + s64[i]], a64[i * 16 + s32[i]], 1e-5) << f << " " << i;
            }
    }
    std::printf("single precision: APPs within %.2e of double; %zu of %zu decisions differ\n", worst, differ,
                decisions);
    EXPECT_LT(worst, 1e-5);
    EXPECT_LE(differ, 2u);
    EXPECT_THROW(parse_tvb_precision("half"), std::invalid_argument);
    EXPECT_EQ(to_string(parse_tvb_precision("single")), "single");
}

TEST(tvb_code, constructions_and_checks)
{
    const tvb_code dm = tvb_code::davey_mackay(16, 7, 3, 2);
    EXPECT_EQ(dm.books.size(), 3u);
    // sparse words of weight 0, 1 (7 of them) and 2 (8 of the 21) under a watermark
    const uint32_t w = dm.books[0][0];
    std::vector<int> weights;
    for (uint32_t cw : dm.books[0])
        weights.push_back(__builtin_popcount(cw ^ w));
    EXPECT_EQ(std::count(weights.begin(), weights.end(), 0), 1);
    EXPECT_EQ(std::count(weights.begin(), weights.end(), 1), 7);
    EXPECT_EQ(std::count(weights.begin(), weights.end(), 2), 8);
    const tvb_code mk = tvb_code::marker(3, "01");
    EXPECT_EQ(mk.q, 8);
    EXPECT_EQ(mk.n, 5);
    EXPECT_EQ(mk.codeword(0, 5), 0b10101u);
    EXPECT_THROW(tvb_code::davey_mackay(200, 7, 1, 1), std::invalid_argument);
    EXPECT_THROW(tvb_code::marker(3, "0x"), std::invalid_argument);
    tvb_code bad = mk;
    bad.books[0][1] = bad.books[0][0];
    EXPECT_THROW(bad.check(), std::invalid_argument);
}

// the family on the platform: frames of different received lengths in one batch (input_lengths),
// the same symbols and APPs as the decoder itself, whatever the batching; packed output; the
// encoder; lengths outside the drift range refused by name
TEST(tvb_family, variable_frames_through_the_platform)
{
    const frame_options o = { { "q", "16" }, { "n", "7" }, { "N", "20" }, { "pi", "0.02" }, { "pd", "0.02" },
                              { "cpu_threads", "2" } };
    auto dec = make_frame_decoder("tvb", o, device_spec::parse("cpu"));
    auto enc = make_frame_encoder("tvb", o);
    EXPECT_TRUE(dec->variable_input());
    EXPECT_EQ(enc->info_bits(), 80u);
    EXPECT_EQ(enc->coded_bits(), 140u);
    EXPECT_EQ(dec->output_bits(), 80u);
    EXPECT_EQ(dec->soft_output_per_frame(), 320u);
    const size_t frames = 9;
    bsid_params ch;
    ch.Pi = ch.Pd = 0.02;
    const bsid_frames fx(*enc, frames, 4, ch, 8, 5);
    const auto& info = fx.info;
    const auto& soft = fx.soft;
    const auto& lengths = fx.lengths;
    EXPECT_NE(*std::min_element(lengths.begin(), lengths.end()), *std::max_element(lengths.begin(), lengths.end()));
    auto run = [&](size_t a, size_t n, bool packed, std::vector<uint8_t>& bits, std::vector<float>& app) {
        std::vector<frame_status> st;
        fx.decode(*dec, a, n, packed, bits, &app, st);
        for (const auto& s : st)
            EXPECT_EQ(s.erased, 0);
    };
    std::vector<uint8_t> whole, part;
    std::vector<float> app_whole, app_part;
    run(0, frames, false, whole, app_whole);
    size_t wrong = 0;
    for (size_t i = 0; i < whole.size(); ++i)
        wrong += whole[i] != info[i];
    EXPECT_LT(wrong, whole.size() / 10);
    std::vector<uint8_t> cat;
    std::vector<float> app_cat;
    for (size_t a = 0; a < frames; a += 4) {
        run(a, std::min<size_t>(4, frames - a), false, part, app_part);
        cat.insert(cat.end(), part.begin(), part.end());
        app_cat.insert(app_cat.end(), app_part.begin(), app_part.end());
    }
    EXPECT_EQ(cat, whole);
    EXPECT_EQ(app_cat, app_whole);
    // the decoder itself on frame 0: the same APPs
    const tvb_code c = tvb_code::davey_mackay(16, 7, 20, 1);
    tvb_map_decoder ref(c, 20, ch);
    std::vector<uint8_t> rx(lengths[0]);
    for (size_t i = 0; i < rx.size(); ++i)
        rx[i] = soft[i] > 0;
    std::vector<double> app(320);
    ref.decode(rx.data(), rx.size(), nullptr, app.data(), nullptr);
    for (size_t i = 0; i < 320; ++i)
        ASSERT_FLOAT_EQ(app_whole[i], float(app[i])) << i;
    run(0, frames, true, part, app_part);
    std::vector<uint8_t> unpacked(frames * 80);
    for (size_t f = 0; f < frames; ++f)
        unpack_bits(part.data() + f * 10, 80, unpacked.data() + f * 80);
    EXPECT_EQ(unpacked, whole);
    // a frame far too short is refused, naming the lengths accepted
    std::vector<size_t> bad = { 30 };
    std::vector<uint8_t> out(80);
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.input_lengths = bad.data();
    b.bits = out.data();
    EXPECT_THROW(dec->decode(b), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("tvb", { { "code", "ldpc" } }, device_spec::parse("cpu")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("tvb", { { "pi", "0.6" }, { "pd", "0.6" } }, device_spec::parse("cpu")),
                 std::invalid_argument);
}

// SimCommSys system files: the qids, tvb and uncoded objects read as SimCommSys reads them (a
// user codebook xor markers in sequence, the cap, the block length, the exclusion probability),
// in tvb versions 7 and 10; unsupported parts and bad values named with the file and the line
TEST(tvb_code, simcommsys_system_file)
{
    const std::string channel = "commsys<bool,vector>\n# Version\n1\n1\n## Channel\nqids<bool,float>\n3\n0\n1\n1\n"
                                "# Cap on I (0=uncapped)\n3\n0\n0\n0\n2\n## Modem\ntvb<bool,double,float>\n";
    const std::string v7 = channel + "# Version\n7\n0\n0\n1\n1\n0\n0\n1\n0\n# n\n3\n# q\n4\n# type\n2\n#: name\nmine\n"
                                     "#: count\n1\n0 0 0\n0 1 1\n1 0 1\n1 1 0\n# marker type\n2\n#: vectors\n2\n0 0 0\n1 1 1\n"
                                     "## Codec\nuncoded<double>\n# Version\n1\n4\n# Block length\n12\n";
    // version 10: no normalisation, batch or priors flags; the exclusion probability
    const std::string v10 = channel + "# Version\n10\n0\n0\n# Pr\n1e-6\n1\n1\n0\n# n\n3\n# q\n4\n2\nmine\n1\n"
                                      "0 0 0\n0 1 1\n1 0 1\n1 1 0\n2\n2\n0 0 0\n1 1 1\nuncoded<double>\n1\n4\n12\n";
    for (const auto* text : { &v7, &v10 }) {
        const tvb_system s = tvb_from_simcommsys(*text);
        EXPECT_EQ(s.code.q, 4);
        EXPECT_EQ(s.code.n, 3);
        EXPECT_EQ(s.N, 12u);
        EXPECT_EQ(s.insertion_cap, 3);
        EXPECT_EQ(s.receiver_mode, 2);
        EXPECT_EQ(s.exclusion, text == &v10 ? 1e-6 : 1e-10);
        ASSERT_EQ(s.code.books.size(), 2u);
        EXPECT_EQ(s.code.books[0], (std::vector<uint32_t>{ 0, 3, 5, 6 }));
        EXPECT_EQ(s.code.books[1], (std::vector<uint32_t>{ 7, 4, 2, 1 }));
    }
    auto fails_at = [](std::string text, const std::string& from, const std::string& to, const std::string& needle) {
        text.replace(text.find(from), from.size(), to);
        try {
            tvb_from_simcommsys(text, "sys.txt");
            ADD_FAILURE() << "accepted: " << needle;
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find(needle), std::string::npos) << m;
            EXPECT_NE(m.find("'sys.txt'"), std::string::npos) << m;
        }
    };
    fails_at(v7, "# marker type\n2", "# marker type\n1", "marker type 1");
    fails_at(v7, "0 1 1\n", "0 1\n", "codebook 0 entry 3"); // a short row: the rows after it shift
    fails_at(v7, "# Block length\n12", "# Block length\n-1", "block length: -1 is outside");
    fails_at(v7, "# Block length\n12", "# Block length\n2000000", "block length: 2000000 is outside");
    fails_at(v7, "# Version\n7", "# Version\n13", "version 13 is not supported");
    fails_at(v7, "# q\n4", "# q\n\xff", "'\\xff' is not an integer");
    fails_at(v10, "# Pr\n1e-6", "# Pr\nnan", "is not a number");
    fails_at(v7, "# Block length\n12", "# Block length\n", "ends before the block length");
    try { // the line of the bad value
        std::string t = v7;
        t.replace(t.find("# Block length\n12"), 17, "# Block length\nx");
        tvb_from_simcommsys(t, "sys.txt");
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("line 55"), std::string::npos) << e.what();
    }
    EXPECT_THROW(tvb_from_simcommsys("nothing here"), std::invalid_argument);
    // files: not a regular file, or too large, refused by name
    for (const char* bad : { "/dev/zero", "/no/such/file", "/" })
        try {
            tvb_load_simcommsys(bad);
            ADD_FAILURE() << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    // the example file: q=16, n=8, 6 markers, N=50, uncapped
    const std::string path = std::string(GPUFEC_EXAMPLES_DIR) + "/tvb/tvb_q16_n8_modvec6.txt";
    auto dec = make_frame_decoder("tvb", { { "code", "file" }, { "file", path }, { "cpu_threads", "1" } },
                                  device_spec::parse("cpu"));
    auto enc = make_frame_encoder("tvb", { { "code", "file" }, { "file", path } });
    EXPECT_EQ(enc->info_bits(), 200u);
    EXPECT_EQ(enc->coded_bits(), 400u);
    const auto info = test::random_bits(200, 9);
    std::vector<uint8_t> coded(400), out(200);
    enc->encode(info.data(), 1, coded.data());
    std::vector<int8_t> soft(400);
    for (size_t i = 0; i < 400; ++i)
        soft[i] = coded[i] ? 3 : -3;
    const size_t len = 400;
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.input_lengths = &len;
    b.bits = out.data();
    dec->decode(b);
    EXPECT_EQ(out, info);
    EXPECT_THROW(make_frame_decoder("tvb", { { "code", "file" }, { "file", "/no/such/file" } }, device_spec::parse("cpu")),
                 std::invalid_argument);
    // SimCommSys's own file (tvb version 10, trellis receiver) and the hand-converted example
    // (version 7, corridor receiver) are one code: the same symbols from the same noisy frames
    const std::string original = std::string(GPUFEC_EXAMPLES_DIR) + "/tvb/qids-bool-tvb_modvec6_4_8_ld3-uncoded-gf16-50.txt";
    const tvb_system a = tvb_load_simcommsys(original), e = tvb_load_simcommsys(path);
    EXPECT_EQ(a.version, 10);
    EXPECT_EQ(a.code.books, e.code.books);
    EXPECT_EQ(a.N, 50u);
    EXPECT_EQ(a.exclusion, 1e-10);
    EXPECT_EQ(a.insertion_cap, 0);
    bsid_params ch;
    ch.Pi = ch.Pd = 0.02;
    ch.max_insertions = bsid_params::max_insertion_cap;
    std::mt19937_64 rng(5);
    for (int f = 0; f < 4; ++f) {
        const auto bits = test::random_bits(200, 20 + f);
        enc->encode(bits.data(), 1, coded.data());
        std::vector<uint8_t> rx;
        bsid_transmit(coded.data(), coded.size(), ch, rng, rx);
        std::vector<uint16_t> sa(50), se(50);
        tvb_map_decoder da(a.code, a.N, ch, a.exclusion), de(e.code, e.N, ch, e.exclusion);
        const auto ra = da.decode(rx.data(), rx.size(), nullptr, nullptr, sa.data());
        const auto re = de.decode(rx.data(), rx.size(), nullptr, nullptr, se.data());
        EXPECT_EQ(ra.erased, re.erased);
        EXPECT_EQ(sa, se) << f;
    }
}

// An independent reference: SimCommSys (commit 2cc02b5, one core) simulated the code of its own
// system file (q=16, n=8, 6 marker vectors, N=50) over the BSID channel at Pi = Pd = 0.01,
// Ps = 0, uncapped insertions of uniformly random bits, and reports SER 5.73e-3, FER 0.235. The
// decoder, made from that very file, must agree within statistical error: its own (symbol errors
// come in bursts, so the SER's spread is taken from the frames' counts) and a few percent for
// SimCommSys' figure.
TEST(tvb_reference, simcommsys_error_rates)
{
    const std::string file = std::string(GPUFEC_EXAMPLES_DIR) + "/tvb/qids-bool-tvb_modvec6_4_8_ld3-uncoded-gf16-50.txt";
    const frame_options o = { { "code", "file" }, { "file", file }, { "pi", "0.01" }, { "pd", "0.01" }, { "ps", "0" } };
    auto dec = make_frame_decoder("tvb", o, device_spec::parse("cpu"));
    auto enc = make_frame_encoder("tvb", o);
    bsid_params ch;
    ch.Pi = ch.Pd = 0.01;
    ch.max_insertions = bsid_params::max_insertion_cap; // uncapped
    const size_t frames = 1000, batch = 100, k = enc->info_bits(), N = 50;
    ASSERT_EQ(k, 4 * N);
    std::mt19937_64 rng(2026);
    std::vector<double> errors_per_frame;
    size_t frame_errors = 0;
    for (size_t b0 = 0; b0 < frames; b0 += batch) {
        std::vector<uint8_t> info(batch * k), coded(enc->coded_bits()), out(batch * k);
        std::vector<int8_t> soft(batch * dec->input_per_frame());
        std::vector<size_t> lengths(batch);
        for (size_t f = 0; f < batch; ++f) {
            for (size_t i = 0; i < k; ++i)
                info[f * k + i] = uint8_t(rng() & 1);
            enc->encode(info.data() + f * k, 1, coded.data());
            std::vector<uint8_t> rx;
            bsid_transmit(coded.data(), coded.size(), ch, rng, rx);
            // (a frame beyond the drift range is rarer than 1e-10: none in 1000)
            ASSERT_TRUE(dec->accepts_length(rx.size()));
            lengths[f] = rx.size();
            for (size_t i = 0; i < rx.size(); ++i)
                soft[f * dec->input_per_frame() + i] = rx[i] ? 1 : -1;
        }
        // frames back to back, each its length
        std::vector<int8_t> packed;
        for (size_t f = 0; f < batch; ++f)
            packed.insert(packed.end(), soft.begin() + long(f * dec->input_per_frame()),
                          soft.begin() + long(f * dec->input_per_frame() + lengths[f]));
        frame_batch fb;
        fb.frames = batch;
        fb.soft = packed.data();
        fb.input_lengths = lengths.data();
        fb.bits = out.data();
        dec->decode(fb);
        for (size_t f = 0; f < batch; ++f) {
            size_t e = 0;
            for (size_t i = 0; i < N; ++i)
                e += !std::equal(out.begin() + long(f * k + 4 * i), out.begin() + long(f * k + 4 * i + 4),
                                 info.begin() + long(f * k + 4 * i));
            errors_per_frame.push_back(double(e));
            frame_errors += e > 0;
        }
    }
    const double F = double(frames), fer = double(frame_errors) / F;
    double sum = 0, sum2 = 0;
    for (double e : errors_per_frame) {
        sum += e;
        sum2 += e * e;
    }
    const double ser = sum / (F * double(N));
    const double sd_frame = std::sqrt(std::max(0.0, sum2 / F - (sum / F) * (sum / F)));
    const double ser_sigma = std::hypot(sd_frame / std::sqrt(F) / double(N), 0.03 * 5.73e-3);
    const double fer_sigma = std::hypot(std::sqrt(0.235 * 0.765 / F), 0.03 * 0.235);
    std::printf("SimCommSys reference: SER %.3e (SimCommSys 5.73e-3, sigma %.2e), FER %.3f (0.235, sigma %.3f)\n",
                ser, ser_sigma, fer, fer_sigma);
    EXPECT_NEAR(ser, 5.73e-3, 3 * ser_sigma);
    EXPECT_NEAR(fer, 0.235, 3 * fer_sigma);
}

// the GPU engine against the CPU reference: the same symbols and the same APPs (the lattice in
// float without fused multiply-adds, the sums in the same order), in both storage variants and
// both precisions, frames of every length the channel gives, a frame of noise among them, in
// chunks smaller than the batch; the third code's gamma row is too large for shared memory, so
// the local variant keeps it in device memory
TEST(tvb_family, gpu_equals_cpu)
{
    GPUFEC_REQUIRE_GPU();
    for (const char* code : { "q=16, n=7, N=40, pi=0.03, pd=0.02, ps=0.01", "q=32, n=10, N=30, pi=0.01, pd=0.01",
                              "q=64, n=12, N=20, pi=0.02, pd=0.02" }) {
        const frame_options o = parse_frame_options(code);
        auto enc = make_frame_encoder("tvb", o);
        const size_t frames = 23, k = enc->info_bits();
        bsid_params ch;
        ch.Pi = std::stod(o.at("pi"));
        ch.Pd = std::stod(o.at("pd"));
        ch.Ps = o.count("ps") ? std::stod(o.at("ps")) : 0.0;
        // frame 5: an end drift the range allows, but content that is noise
        const bsid_frames fx(*enc, frames, 6, ch, 2, 4, 5);
        auto run = [&](batch_decoder& d, std::vector<uint8_t>& bits, std::vector<float>& app,
                       std::vector<frame_status>& st) { fx.decode(d, 0, frames, false, bits, &app, st); };
        for (const char* precision : { "double", "single" }) {
            frame_options oc = o;
            oc["precision"] = precision;
            auto cpu = make_frame_decoder("tvb", oc, device_spec::parse("cpu"));
            std::vector<uint8_t> bc;
            std::vector<float> ac;
            std::vector<frame_status> sc;
            run(*cpu, bc, ac, sc);
            for (const char* storage : { "global", "local" }) {
                frame_options og = oc;
                og["max_batch"] = "7"; // several chunks
                og["storage"] = storage;
                auto gpu = make_frame_decoder("tvb", og, device_spec::parse("cuda"));
                const std::string what = std::string(code) + ", " + gpu->backend();
                std::vector<uint8_t> bg;
                std::vector<float> ag;
                std::vector<frame_status> sg;
                run(*gpu, bg, ag, sg);
                EXPECT_EQ(bg, bc) << what;
                size_t differ = 0;
                float worst = 0;
                for (size_t i = 0; i < ac.size(); ++i) {
                    differ += ag[i] != ac[i];
                    worst = std::max(worst, std::fabs(ag[i] - ac[i]));
                }
                EXPECT_EQ(differ, 0u) << what << ": " << differ << " APPs differ, by " << worst << " at most";
                for (size_t f = 0; f < frames; ++f)
                    EXPECT_EQ(sg[f].erased, sc[f].erased) << what << ", frame " << f;
                // hard output without soft output: the same symbols
                std::vector<uint8_t> bits;
                fx.decode(*gpu, 0, frames, true, bits, nullptr, sg);
                std::vector<uint8_t> un(frames * k);
                for (size_t f = 0; f < frames; ++f)
                    unpack_bits(bits.data() + f * gpu->output_bytes(true), k, un.data() + f * k);
                EXPECT_EQ(un, bc) << what;
            }
        }
    }
    // a channel so poor that a codeword's drift range is wider than the GPU's lattice row: a
    // clear error naming the CPU, which takes it
    const frame_options poor = { { "q", "4" }, { "n", "24" }, { "N", "2" }, { "pi", "0.45" }, { "pd", "0.45" },
                                 { "max_insertions", "32" }, { "exclusion", "1e-200" } };
    EXPECT_NO_THROW(make_frame_decoder("tvb", poor, device_spec::parse("cpu")));
    try {
        make_frame_decoder("tvb", poor, device_spec::parse("cuda"));
        ADD_FAILURE() << "the GPU took a corridor wider than its lattice row";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("CPU"), std::string::npos) << e.what();
    }
}

// a long frame (q=32, n=10, N=840 at p = 0.01: 239 MB of gamma a frame): automatic storage
// takes the local variant, which gives the CPU's symbols and APPs
TEST(tvb_family, long_frames_take_local_storage)
{
    GPUFEC_REQUIRE_GPU();
    const frame_options o = parse_frame_options("q=32, n=10, N=840, pi=0.01, pd=0.01");
    auto gpu = make_frame_decoder("tvb", o, device_spec::parse("cuda"));
    EXPECT_NE(gpu->backend().find("local storage"), std::string::npos) << gpu->backend();
    auto cpu = make_frame_decoder("tvb", o, device_spec::parse("cpu"));
    auto enc = make_frame_encoder("tvb", o);
    bsid_params ch;
    ch.Pi = ch.Pd = 0.01;
    const bsid_frames fx(*enc, 2, 8, ch, 3, 4);
    std::vector<uint8_t> bc, bg;
    std::vector<float> ac, ag;
    std::vector<frame_status> st;
    fx.decode(*cpu, 0, 2, false, bc, &ac, st);
    fx.decode(*gpu, 0, 2, false, bg, &ag, st);
    EXPECT_EQ(bg, bc);
    EXPECT_EQ(ag, ac);
}

} // namespace
} // namespace gpufec
