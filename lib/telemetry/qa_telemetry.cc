/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The telemetry chain's pieces: the randomizer, the marker hypotheses, the stream encoder
 * (Reed-Solomon and LDPC), marker synchronisation on soft symbols (every offset and ambiguity,
 * noise alone, flywheel, loss, slips), the correction counts and the FECF. */
#include <gnuradio/gpufec/core/codes/ccsds_randomizer.h>
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>
#include <gtest/gtest.h>

#include "rs/rs_reference.h"
#include <algorithm>
#include <cmath>
#include <random>

using namespace gpufec;

namespace {

ccsds_tm_layout small_layout(const std::string& conv = "ccsds")
{
    ccsds_tm_layout l;
    l.rs.interleave = 1; // a CADU of 2072 bits: quick searches
    l.conv = conv;
    return l;
}

std::vector<uint8_t> random_bytes(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> b(n);
    for (auto& x : b)
        x = uint8_t(rng());
    return b;
}

//! bits to soft values (1 -> +1, 0 -> -1) with Gaussian noise of deviation sigma
std::vector<float> to_soft(const std::vector<uint8_t>& bits, double sigma, std::mt19937& rng)
{
    std::normal_distribution<float> g(0.f, float(sigma));
    std::vector<float> s(bits.size());
    for (size_t i = 0; i < bits.size(); ++i)
        s[i] = (bits[i] ? 1.f : -1.f) + (sigma > 0 ? g(rng) : 0.f);
    return s;
}

//! runs a sync over a whole stream; returns the frames given, back to back
struct sync_run {
    std::vector<float> frames;
    std::vector<soft_marker_sync::event> events;
    std::vector<long> shifts;
};
sync_run run_sync(soft_marker_sync& s, const std::vector<float>& in)
{
    sync_run r;
    std::vector<float> out(s.frame_symbols());
    size_t at = 0;
    for (;;) {
        const auto st = s.step(in.data() + at, in.size() - at, out.data());
        if (st.consumed == 0 && !st.frame && st.what == soft_marker_sync::event::none)
            break;
        at += st.consumed;
        if (st.what != soft_marker_sync::event::none) {
            r.events.push_back(st.what);
            r.shifts.push_back(st.shift);
        }
        if (st.frame)
            r.frames.insert(r.frames.end(), out.begin(), out.end());
    }
    return r;
}

//! a CADU's bits after its marker (checked), de-randomized
std::vector<uint8_t> cadu_body(const uint8_t* cadu, const ccsds_tm_layout& l)
{
    EXPECT_TRUE(std::equal(l.marker.begin(), l.marker.end(), cadu));
    std::vector<uint8_t> body(cadu + l.marker.size(), cadu + l.cadu_bits());
    ccsds_randomize(body.data(), body.size());
    return body;
}

//! n random transfer frames and the encoder's CADUs of them
struct encoded_stream {
    std::vector<uint8_t> frames, bits;
};
encoded_stream encode_random(const ccsds_tm_layout& l, size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    encoded_stream e;
    e.frames = random_bytes(n * l.frame_bytes(), rng);
    ccsds_tm_encoder enc(l);
    e.bits = enc.encode(e.frames.data(), n);
    EXPECT_EQ(e.bits.size(), n * l.cadu_bits());
    return e;
}

//! a marker's bits as hex digits
std::string marker_hex(const std::vector<uint8_t>& m)
{
    std::string hex;
    for (size_t i = 0; i + 3 < m.size(); i += 4)
        hex += "0123456789ABCDEF"[m[i] << 3 | m[i + 1] << 2 | m[i + 2] << 1 | m[i + 3]];
    return hex;
}

int sign_errors(const float* a, const uint8_t* bits, size_t n)
{
    int e = 0;
    for (size_t i = 0; i < n; ++i)
        e += (a[i] > 0) != (bits[i] != 0);
    return e;
}

} // namespace

TEST(ccsds_randomizer, packed_and_soft_forms_add_the_same_sequence)
{
    const auto& p = ccsds_pn_sequence();
    const uint8_t first[] = { 0xFF, 0x48, 0x0E, 0xC0, 0x9A, 0x0D, 0x70, 0xBC };
    for (size_t b = 0; b < 8; ++b) {
        uint8_t byte = 0;
        for (size_t i = 0; i < 8; ++i)
            byte = uint8_t(byte << 1 | p[b * 8 + i]);
        EXPECT_EQ(byte, first[b]) << b;
    }
    std::mt19937 rng(5);
    for (size_t n : { size_t(1), size_t(7), size_t(255), size_t(256), size_t(2040), size_t(4093), size_t(10200) }) {
        std::vector<uint8_t> bits(n);
        for (auto& x : bits)
            x = uint8_t(rng() & 1u);
        std::vector<uint8_t> packed((n + 7) / 8, 0);
        for (size_t i = 0; i < n; ++i)
            packed[i / 8] |= uint8_t(bits[i] << (7 - i % 8));
        std::vector<int8_t> soft(n);
        for (size_t i = 0; i < n; ++i)
            soft[i] = int8_t(bits[i] ? 100 : -100);
        ccsds_randomize(bits.data(), n);
        ccsds_randomize_packed(packed.data(), n);
        ccsds_randomize_soft(soft.data(), n);
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ((packed[i / 8] >> (7 - i % 8)) & 1, bits[i]) << n << " " << i;
            ASSERT_EQ(soft[i] > 0, bits[i] != 0) << n << " " << i;
        }
    }
}

TEST(ccsds_tm, hypotheses_know_the_marker_symbols_free_of_the_bits_before)
{
    const auto coded = ccsds_tm_hypotheses(small_layout());
    ASSERT_EQ(coded.size(), 4u);
    for (const auto& h : coded) {
        EXPECT_EQ(h.pattern.size(), 64u);
        EXPECT_EQ(std::count(h.pattern.begin(), h.pattern.end(), 0), 12) << h.name; // the first 6 bits' symbols
        EXPECT_EQ(h.fix.size(), 2u);
    }
    EXPECT_EQ(coded[0].name, "upright");
    EXPECT_EQ(coded[3].name, "inverted, other convention");
    // the other convention differs from CCSDS's in the second output: a fix of (1, -1)
    EXPECT_EQ(coded[2].fix, (std::vector<int8_t>{ 1, -1 }));
    EXPECT_EQ(coded[3].fix, (std::vector<int8_t>{ -1, 1 }));
    const auto plain = ccsds_tm_hypotheses(small_layout("none"));
    ASSERT_EQ(plain.size(), 2u);
    EXPECT_EQ(std::count(plain[0].pattern.begin(), plain[0].pattern.end(), 0), 0);
    // 1ACFFC1D: 0001 1010 ...
    EXPECT_EQ(plain[0].pattern[3], 1);
    EXPECT_EQ(plain[0].pattern[2], -1);
    EXPECT_EQ(plain[1].pattern[3], -1);
    EXPECT_EQ(ccsds_tm_hypotheses(small_layout(), false).size(), 2u);
    EXPECT_THROW(ccsds_tm_hypotheses(small_layout("80211-3/4")), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_hypotheses(small_layout("no-such-code")), std::invalid_argument);
}

TEST(ccsds_tm, encoder_sends_marker_randomized_codeblock_and_convolutional_code)
{
    std::mt19937 rng(7);
    auto l = small_layout("none");
    l.rs.interleave = 2;
    const auto frames = random_bytes(3 * l.frame_bytes(), rng);
    ccsds_tm_encoder plain(l);
    const auto bits = plain.encode(frames.data(), 3);
    ASSERT_EQ(bits.size(), 3 * l.cadu_bits());
    rs_encoder rs(l.rs);
    std::vector<uint8_t> block(l.codeblock_bits() / 8);
    for (size_t f = 0; f < 3; ++f) {
        const auto body = cadu_body(bits.data() + f * l.cadu_bits(), l);
        rs.encode(frames.data() + f * l.frame_bytes(), block.data());
        for (size_t i = 0; i < body.size(); ++i)
            ASSERT_EQ(body[i], (block[i / 8] >> (7 - i % 8)) & 1) << f << " " << i;
    }
    // coded: the CADU bits through the streaming convolutional encoder, state carried over
    auto lc = l;
    lc.conv = "ccsds";
    ccsds_tm_encoder coded(lc);
    auto a = coded.encode(frames.data(), 2);
    const auto b = coded.encode(frames.data() + 2 * l.frame_bytes(), 1);
    a.insert(a.end(), b.begin(), b.end());
    conv_encoder ref(conv_code::preset("ccsds"), conv_mode::streaming);
    std::vector<uint8_t> want(bits.size() * 2);
    ref.encode(bits.data(), bits.size(), want.data());
    EXPECT_EQ(a, want);
}

TEST(ccsds_tm, layout_takes_the_telemetry_ldpc_codes)
{
    const auto c2 = ccsds_tm_layout::make("ccsds:8160:7136", 1, -1, "default", "default");
    EXPECT_FALSE(c2.is_rs());
    EXPECT_EQ(c2.family, "ldpc");
    EXPECT_EQ(c2.conv, "none"); // (LDPC codewords go without the inner code)
    EXPECT_EQ(c2.frame_bytes(), 892u);
    EXPECT_EQ(c2.codeblock_bits(), 8160u);
    EXPECT_EQ(c2.cadu_bits(), 8192u);
    const auto a = ccsds_tm_layout::make("ccsds:32768:16384", 1, -1, "default", "none");
    EXPECT_EQ(a.frame_bytes(), 2048u);
    EXPECT_EQ(a.codeblock_bits(), 32768u); // (the last M = 8192 bits never sent)
    const auto rs = ccsds_tm_layout::make("ccsds:255:223", 5, -1, "default", "default");
    EXPECT_TRUE(rs.is_rs());
    EXPECT_EQ(rs.conv, "ccsds");
    EXPECT_EQ(rs.family_options(), "code=ccsds:255:223, interleave=5, basis=dual, virtual_fill=0");
    const auto ids = ccsds_tm_ldpc_codes();
    EXPECT_EQ(ids.size(), 10u); // C2 and the nine AR4JA codes
    for (const auto& id : ids)
        EXPECT_NO_THROW(ccsds_tm_layout::make(id, 1, -1, "default", "default")) << id;
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:8160:7136", 4, -1, "default", "none"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:8160:7136", 1, 10, "default", "none"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:8160:7136", 1, -1, "dual", "none"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:8160:7136", 1, -1, "default", "ccsds"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:128:64", 1, -1, "default", "none"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:255:223", 9, -1, "default", "none"), std::invalid_argument);
}

// the turbo codes: (K + 4) / r bits after a marker of the rate's length (131.0-B 9.3)
TEST(ccsds_tm, layout_takes_the_telemetry_turbo_codes_with_their_markers)
{
    const auto ids = ccsds_tm_turbo_codes();
    EXPECT_EQ(ids.size(), 16u);
    const struct {
        const char* code;
        size_t frame_bytes, codeblock_bits;
        const char* marker_hex;
    } cases[] = {
        { "ccsds:1784:1/2", 223, 3576, "034776C7272895B0" },
        { "ccsds:8920:1/3", 1115, 26772, "25D5C0CE8990F6C9461BF79C" },
        { "ccsds:3568:1/4", 446, 14288, "034776C7272895B0FCB88938D8D76A4F" },
        { "ccsds:7136:1/6", 892, 42840, "25D5C0CE8990F6C9461BF79CDA2A3F31766F0936B9E40863" },
    };
    for (const auto& c : cases) {
        const auto l = ccsds_tm_layout::make(c.code, 1, -1, "default", "default");
        EXPECT_EQ(l.family, "turbo") << c.code;
        EXPECT_EQ(l.conv, "none") << c.code;
        EXPECT_EQ(l.frame_bytes(), c.frame_bytes) << c.code;
        EXPECT_EQ(l.codeblock_bits(), c.codeblock_bits) << c.code;
        EXPECT_EQ(marker_hex(l.marker), c.marker_hex) << c.code;
        EXPECT_EQ(l.cadu_bits(), l.marker.size() + c.codeblock_bits);
    }
    // every other code: 1ACFFC1D
    EXPECT_EQ(marker_hex(ccsds_tm_layout::make("ccsds:8160:7136", 1, -1, "default", "none").marker), "1ACFFC1D");
    EXPECT_EQ(marker_hex(ccsds_tm_layout::make("ccsds:255:223", 5, -1, "default", "ccsds").marker), "1ACFFC1D");
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:1784:1/3", 2, -1, "default", "none"), std::invalid_argument);
    EXPECT_THROW(ccsds_tm_layout::make("ccsds:1784:1/3", 1, -1, "default", "ccsds"), std::invalid_argument);
}

// C2: each CADU the marker, then the randomized codeword as sent; de-randomized, the 18
// shortened zeros put back in front, it satisfies every check of the standard's H (cross-checked
// in the ldpc family's QA), with the frame as its first 7136 bits and two zeros after it
TEST(ccsds_tm, ldpc_encoder_sends_marker_and_randomized_codeword)
{
    const auto l = ccsds_tm_layout::make("ccsds:8160:7136", 1, -1, "default", "default");
    const auto [frames, bits] = encode_random(l, 3, 11);
    const ldpc_code code = ldpc_code::standard("ccsds:8176:7156");
    for (size_t f = 0; f < 3; ++f) {
        const auto body = cadu_body(bits.data() + f * l.cadu_bits(), l);
        for (size_t i = 0; i < 7136; ++i)
            ASSERT_EQ(body[i], (frames[f * l.frame_bytes() + i / 8] >> (7 - i % 8)) & 1) << f << " " << i;
        EXPECT_EQ(body[8158], 0);
        EXPECT_EQ(body[8159], 0);
        std::vector<uint8_t> cw(18, 0);
        cw.insert(cw.end(), body.begin(), body.begin() + 8158);
        ASSERT_EQ(cw.size(), size_t(code.n()));
        EXPECT_TRUE(code.satisfied(cw.data())) << f;
        cw[100] ^= 1;
        EXPECT_FALSE(code.satisfied(cw.data()));
    }
}

// turbo: the marker, then the turbo family's codeword (not whole bytes at rate 1/3) randomized
// bit by bit from its first bit
TEST(ccsds_tm, turbo_encoder_sends_its_marker_and_the_randomized_codeword)
{
    const auto l = ccsds_tm_layout::make("ccsds:1784:1/3", 1, -1, "default", "default");
    const auto [frames, bits] = encode_random(l, 2, 13);
    auto turbo = make_frame_encoder("turbo", { { "code", "ccsds:1784:1/3" } });
    for (size_t f = 0; f < 2; ++f) {
        const auto body = cadu_body(bits.data() + f * l.cadu_bits(), l);
        std::vector<uint8_t> info(1784), want(l.codeblock_bits());
        unpack_bits(frames.data() + f * l.frame_bytes(), info.size(), info.data());
        turbo->encode(info.data(), 1, want.data());
        EXPECT_EQ(body, want) << f;
    }
}

TEST(ccsds_tm, ldpc_information_corrections_count_changed_bits)
{
    std::mt19937 rng(12);
    const auto l = ccsds_tm_layout::make("ccsds:2048:1024", 1, -1, "default", "default");
    const size_t cw = l.codeblock_bits();
    const auto decoded = random_bytes(2 * l.frame_bytes(), rng);
    std::vector<uint8_t> received(2 * cw);
    for (size_t f = 0; f < 2; ++f)
        for (size_t i = 0; i < cw; ++i)
            received[f * cw + i] = i < 1024 ? (decoded[f * 128 + i / 8] >> (7 - i % 8)) & 1 : uint8_t(rng() & 1);
    received[5] ^= 1;          // frame 0: two information bits
    received[1023] ^= 1;
    received[cw + 1500] ^= 1;  // frame 1: a parity bit only (not counted)
    int counts[2] = { -5, -5 };
    ldpc_information_corrections(l, received.data(), decoded.data(), 2, counts);
    EXPECT_EQ(counts[0], 2);
    EXPECT_EQ(counts[1], 0);
}

// every hypothesis at a spread of offsets (the first frame, odd and even symbols, the last)
TEST(ccsds_tm_sync, finds_the_marker_at_every_offset_and_ambiguity)
{
    for (const std::string conv : { "ccsds", "none" }) {
        const auto l = small_layout(conv);
        const auto hyps = ccsds_tm_hypotheses(l);
        const size_t F = l.cadu_symbols();
        std::mt19937 rng(11);
        ccsds_tm_encoder enc(l);
        const auto frames = random_bytes(6 * l.frame_bytes(), rng);
        const auto sent = enc.encode(frames.data(), 6); // upright, in the decoder's convention
        for (size_t h = 0; h < hyps.size(); ++h)
            for (size_t offset : { size_t(0), size_t(1), size_t(2), size_t(3), size_t(101), F / 2 + 1, F - 2, F - 1 }) {
                // the channel: `offset` random symbols, then the stream as hypothesis h sends it
                // (its fix undone), at Es/N0 of about 3 dB
                std::vector<uint8_t> head(offset);
                for (auto& x : head)
                    x = uint8_t(rng() & 1u);
                auto soft = to_soft(head, 0.5, rng);
                auto body = to_soft(sent, 0.5, rng);
                const auto& fix = hyps[h].fix;
                for (size_t i = 0; i < body.size(); ++i)
                    body[i] *= fix[i % fix.size()];
                soft.insert(soft.end(), body.begin(), body.end());
                soft_marker_sync s(hyps, F);
                const auto r = run_sync(s, soft);
                ASSERT_FALSE(r.events.empty()) << conv << " " << hyps[h].name << " offset " << offset;
                EXPECT_EQ(r.events[0], soft_marker_sync::event::acquired);
                EXPECT_EQ(s.hypothesis(), int(h)) << conv << " offset " << offset;
                EXPECT_EQ(s.stats().acquisitions, 1u);
                EXPECT_EQ(s.stats().skipped_symbols, offset);
                // the frames given are the sent ones, upright (few sign errors at this SNR),
                // all but the last (its next marker is not there to confirm the window)
                ASSERT_GE(r.frames.size(), 5 * F) << conv << " " << hyps[h].name << " offset " << offset;
                EXPECT_LT(sign_errors(r.frames.data(), sent.data(), 5 * F), int(5 * F * 35 / 1000)); // Q(2) = 2.3 %
            }
    }
}

TEST(ccsds_tm_sync, noise_and_data_alone_do_not_lock)
{
    const auto l = small_layout();
    const size_t F = l.cadu_symbols();
    std::mt19937 rng(13);
    soft_marker_sync s(ccsds_tm_hypotheses(l), F);
    // Gaussian noise, 60 frames' worth
    std::vector<float> noise(60 * F);
    std::normal_distribution<float> g(0.f, 1.f);
    for (auto& x : noise)
        x = g(rng);
    auto r = run_sync(s, noise);
    EXPECT_EQ(s.stats().acquisitions, 0u);
    EXPECT_TRUE(r.frames.empty());
    EXPECT_GE(s.stats().skipped_symbols, 58 * F);
    // coded random data without markers, clean: the code's structure must not pass for a marker
    std::vector<uint8_t> bits(30 * l.cadu_bits());
    for (auto& x : bits)
        x = uint8_t(rng() & 1u);
    conv_encoder enc(conv_code::preset("ccsds"), conv_mode::streaming);
    std::vector<uint8_t> sym(bits.size() * 2);
    enc.encode(bits.data(), bits.size(), sym.data());
    s.reset();
    r = run_sync(s, to_soft(sym, 0.0, rng));
    EXPECT_EQ(s.stats().acquisitions, 0u);
    // NaN and infinite values: no lock, no crash
    std::vector<float> bad(5 * F, std::nanf(""));
    for (size_t i = 0; i < bad.size(); i += 3)
        bad[i] = INFINITY;
    s.reset();
    r = run_sync(s, bad);
    EXPECT_EQ(s.stats().acquisitions, 0u);
}

TEST(ccsds_tm_sync, flywheel_over_missed_markers_then_loses_and_finds_it_again)
{
    const auto l = small_layout();
    const size_t F = l.cadu_symbols();
    std::mt19937 rng(17);
    ccsds_tm_encoder enc(l);
    const auto frames = random_bytes(14 * l.frame_bytes(), rng);
    const auto sent = enc.encode(frames.data(), 14);
    auto soft = to_soft(sent, 0.4, rng);
    auto wipe = [&](size_t frame) { // the marker's symbols replaced by noise
        std::normal_distribution<float> g(0.f, 1.f);
        for (size_t i = 0; i < 64; ++i)
            soft[frame * F + i] = g(rng);
    };
    wipe(3);               // one miss: flywheel
    wipe(6), wipe(7), wipe(8); // three in a row: lost
    soft_marker_sync s(ccsds_tm_hypotheses(l), F);
    const auto r = run_sync(s, soft);
    const std::vector<soft_marker_sync::event> want = {
        soft_marker_sync::event::acquired, soft_marker_sync::event::flywheel, soft_marker_sync::event::flywheel,
        soft_marker_sync::event::flywheel, soft_marker_sync::event::lost, soft_marker_sync::event::acquired
    };
    EXPECT_EQ(r.events, want);
    EXPECT_EQ(s.stats().flywheel, 3u);
    EXPECT_EQ(s.stats().losses, 1u);
    EXPECT_EQ(s.stats().acquisitions, 2u);
    // frames 0-7 given (3 and 6, 7 by flywheel), then from 9 on after the new search
    const size_t before_loss = 8;
    ASSERT_GE(r.frames.size(), (before_loss + 3) * F);
    EXPECT_LT(sign_errors(r.frames.data() + 3 * F + 64, sent.data() + 3 * F + 64, F - 64), int(F / 50));
    EXPECT_LT(sign_errors(r.frames.data() + before_loss * F, sent.data() + 9 * F, F), int(F / 50));
}

// a stream that ends right after its last frame: step() waits for the slip range after it,
// finish() gives it from what came; with the frame's symbols not all there, or unlocked, nothing
TEST(ccsds_tm_sync, finish_gives_the_last_frame_of_a_stream_that_ends_with_it)
{
    const auto l = small_layout("none");
    const size_t F = l.cadu_symbols();
    std::mt19937 rng(19);
    ccsds_tm_encoder enc(l);
    const auto frames = random_bytes(4 * l.frame_bytes(), rng);
    const auto sent = enc.encode(frames.data(), 4);
    const auto soft = to_soft(sent, 0.3, rng);
    for (size_t cut : { size_t(0), size_t(1) }) { // the whole stream; its last symbol missing
        soft_marker_sync s(ccsds_tm_hypotheses(l), F);
        std::vector<float> in(soft.begin(), soft.end() - long(cut));
        auto r = run_sync(s, in);
        EXPECT_EQ(r.frames.size(), 3 * F); // (step() alone: the last one waits)
        const size_t left = in.size() - 3 * F + 2; // (locked, the window starts 2 before the marker)
        std::vector<float> out(F);
        const auto fin = s.finish(in.data() + in.size() - left, left, out.data());
        if (cut == 0) {
            ASSERT_TRUE(fin.frame);
            EXPECT_EQ(fin.consumed, F);
            EXPECT_EQ(sign_errors(out.data(), sent.data() + 3 * F, F), sign_errors(soft.data() + 3 * F, sent.data() + 3 * F, F));
        } else {
            EXPECT_FALSE(fin.frame);
            EXPECT_EQ(fin.consumed, 0u);
        }
    }
    soft_marker_sync idle(ccsds_tm_hypotheses(l), F); // never locked
    std::vector<float> out(F);
    EXPECT_FALSE(idle.finish(soft.data(), F + 10, out.data()).frame);
}

TEST(ccsds_tm_sync, follows_a_symbol_slip)
{
    const auto l = small_layout();
    const size_t F = l.cadu_symbols();
    std::mt19937 rng(19);
    ccsds_tm_encoder enc(l);
    const auto frames = random_bytes(8 * l.frame_bytes(), rng);
    const auto sent = enc.encode(frames.data(), 8);
    auto soft = to_soft(sent, 0.4, rng);
    // one symbol gained in frame 3 (the pairing changes: only following it keeps the code)
    soft.insert(soft.begin() + long(3 * F + 500), 0.3f);
    // one symbol lost in frame 5
    soft.erase(soft.begin() + long(5 * F + 900));
    soft_marker_sync s(ccsds_tm_hypotheses(l), F);
    const auto r = run_sync(s, soft);
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_EQ(r.events[1], soft_marker_sync::event::slipped);
    EXPECT_EQ(r.shifts[1], 1);
    EXPECT_EQ(r.events[2], soft_marker_sync::event::slipped);
    EXPECT_EQ(r.shifts[2], -1);
    EXPECT_EQ(s.stats().slips, 2u);
    EXPECT_EQ(s.stats().losses, 0u);
    // the frames after each slip start at their marker again
    EXPECT_LT(sign_errors(r.frames.data() + 4 * F, sent.data() + 4 * F, F), int(F / 50));
    EXPECT_LT(sign_errors(r.frames.data() + 6 * F, sent.data() + 6 * F, F), int(F / 50));
}

TEST(ccsds_tm_sync, refuses_bad_settings)
{
    const auto hyps = ccsds_tm_hypotheses(small_layout());
    soft_marker_sync::settings s;
    EXPECT_THROW(soft_marker_sync(hyps, 60), std::invalid_argument); // no room for the marker
    EXPECT_THROW(soft_marker_sync({}, 5000), std::invalid_argument);
    s.max_misses = 0;
    EXPECT_THROW(soft_marker_sync(hyps, 5000, s), std::invalid_argument);
    s = {};
    s.track_threshold = 1.5;
    EXPECT_THROW(soft_marker_sync(hyps, 5000, s), std::invalid_argument);
    s = {};
    s.slip_range = -1;
    EXPECT_THROW(soft_marker_sync(hyps, 5000, s), std::invalid_argument);
    auto bad = hyps;
    bad[1].pattern.pop_back();
    EXPECT_THROW(soft_marker_sync(bad, 5000), std::invalid_argument);
    bad = hyps;
    bad[0].fix = { 2 };
    EXPECT_THROW(soft_marker_sync(bad, 5000), std::invalid_argument);
}

TEST(ccsds_tm, corrections_count_each_codewords_changed_symbols)
{
    rs_code c = rs_code::named("ccsds:255:223");
    c.interleave = 4;
    std::mt19937 rng(23);
    const size_t frames = 3;
    const auto info = random_bytes(frames * c.info_bytes(), rng);
    std::vector<uint8_t> blocks(frames * c.block_bytes());
    rs_encoder(c).encode_frames(info.data(), frames, blocks.data());
    auto received = blocks;
    // frame f, codeword j: (f + 1) * j errors (up to 9), codeword 3 of frame 2 twenty
    for (size_t f = 0; f < frames; ++f)
        for (int j = 0; j < c.interleave; ++j) {
            const int e = f == 2 && j == 3 ? 20 : int(f + 1) * j;
            std::vector<int> at(255);
            for (int s = 0; s < 255; ++s)
                at[size_t(s)] = s;
            std::shuffle(at.begin(), at.end(), rng);
            for (int i = 0; i < e; ++i)
                received[f * c.block_bytes() + size_t(at[size_t(i)]) * size_t(c.interleave) + size_t(j)] ^=
                    uint8_t(1 + rng() % 255);
        }
    // decoded by the reference decoder, codeword by codeword
    rs_reference_decoder dec(c);
    std::vector<uint8_t> decoded(frames * c.info_bytes());
    for (size_t f = 0; f < frames; ++f) {
        std::vector<int> result(size_t(c.interleave));
        dec.decode_block(received.data() + f * c.block_bytes(), decoded.data() + f * c.info_bytes(), result.data());
    }
    std::vector<int> counts(frames * size_t(c.interleave));
    const size_t ok = rs_codeword_corrections(c, received.data(), decoded.data(), frames, counts.data());
    EXPECT_EQ(ok, frames * size_t(c.interleave) - 1);
    for (size_t f = 0; f < frames; ++f)
        for (int j = 0; j < c.interleave; ++j) {
            const int want = f == 2 && j == 3 ? -1 : int(f + 1) * j;
            EXPECT_EQ(counts[f * size_t(c.interleave) + size_t(j)], want) << f << " " << j;
        }
}

TEST(ccsds_tm, fecf_is_the_ccsds_crc16)
{
    // CRC-16/CCITT-FALSE's check value: "123456789" -> 29B1
    std::vector<uint8_t> f = { '1', '2', '3', '4', '5', '6', '7', '8', '9', 0, 0 };
    ccsds_fecf_set(f.data(), f.size());
    EXPECT_EQ(f[9], 0x29);
    EXPECT_EQ(f[10], 0xB1);
    EXPECT_TRUE(ccsds_fecf_ok(f.data(), f.size()));
    f[4] ^= 0x10;
    EXPECT_FALSE(ccsds_fecf_ok(f.data(), f.size()));
    EXPECT_FALSE(ccsds_fecf_ok(f.data(), 2));
}
