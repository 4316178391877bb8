/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Codewords as they are sent (ldpc_transmission): 5G NR's punctured first 2Z bits, shortened
 * (known zero) information bits, through the family's encoder and decoder as a user reaches
 * them (the registry), and the options refused with the reason. */
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gtest/gtest.h>

#include "ldpc_trim.h"
#include "testing/test_util.h"

using namespace gpufec;

namespace {

const device_spec cpu = device_spec::parse("cpu");

std::unique_ptr<batch_decoder> decoder(const std::string& options)
{
    return make_frame_decoder("ldpc", parse_frame_options(options), cpu);
}

std::unique_ptr<frame_encoder> encoder(const std::string& options)
{
    return make_frame_encoder("ldpc", parse_frame_options(options));
}

struct round_trip {
    size_t frames = 0, bit_errors = 0, frame_errors = 0;
};

//! frames encoded by the family's encoder, sent over BPSK/AWGN, decoded by its decoder
round_trip run(const std::string& options, size_t frames, double ebn0, uint32_t seed, bool noise = true)
{
    auto enc = encoder(options);
    auto dec = decoder(options);
    EXPECT_EQ(dec->input_per_frame(), enc->coded_bits()) << options;
    EXPECT_EQ(dec->output_bits(), enc->info_bits()) << options;
    const size_t k = enc->info_bits(), n = enc->coded_bits();
    const auto info = test::random_bits(frames * k, seed);
    std::vector<uint8_t> coded(frames * n), out(frames * k);
    enc->encode(info.data(), frames, coded.data());
    const auto soft = test::channel(coded, double(k) / double(n), ebn0, seed + 1, noise);
    frame_batch b;
    b.frames = frames;
    b.soft = soft.data();
    b.bits = out.data();
    dec->decode(b);
    round_trip r;
    r.frames = frames;
    for (size_t f = 0; f < frames; ++f) {
        const size_t e = test::count_errors(out.data() + f * k, info.data() + f * k, k);
        r.bit_errors += e;
        r.frame_errors += e > 0;
    }
    return r;
}

} // namespace

TEST(ldpc_transmission, nr_codes_send_all_but_the_first_2z_bits)
{
    for (const char* code : { "nr:bg1:16", "nr:bg2:52", "nr:bg1:384" }) {
        const ldpc_code c = ldpc_code::standard(code);
        auto dec = decoder(std::string("code=") + code);
        EXPECT_EQ(dec->input_per_frame(), size_t(c.n() - 2 * c.z())) << code;
        EXPECT_EQ(dec->output_bits(), size_t(c.k())) << code;
        const round_trip clean = run(std::string("code=") + code, 2, 0, 3, false);
        EXPECT_EQ(clean.bit_errors, 0u) << code;
    }
    // noisy, 1 dB above where rate 1/3 (BG1) and 1/5 (BG2) mother codes decode: every frame back;
    // the punctured bits must be in the right place for that (sent as received, they are not)
    EXPECT_EQ(run("code=nr:bg1:16, max_iterations=20", 40, 2.0, 11).frame_errors, 0u);
    EXPECT_EQ(run("code=nr:bg2:16, max_iterations=20", 40, 2.0, 12).frame_errors, 0u);
}

TEST(ldpc_transmission, nr_punctures_the_first_two_information_blocks)
{
    // 38.212 5.3.2: d_(k - 2Z) = c_k for k >= 2Z; the first 2Z bits of the codeword are never sent
    const ldpc_code c = ldpc_code::standard("nr:bg1:64");
    const ldpc_transmission t = ldpc_transmission::parse(c, "", "");
    ASSERT_EQ(t.punctured.size(), 128u);
    for (int i = 0; i < 128; ++i)
        EXPECT_EQ(t.punctured[size_t(i)], i);
    EXPECT_TRUE(t.shortened.empty());
    EXPECT_EQ(t.sent(c).front(), 128);
    EXPECT_TRUE(ldpc_transmission::parse(ldpc_code::standard("802.11n:648:1/2"), "", "").empty());
}

TEST(ldpc_transmission, puncturing_nothing_sends_the_whole_mother_code)
{
    auto dec = decoder("code=nr:bg2:8, puncture=none");
    EXPECT_EQ(dec->input_per_frame(), 52u * 8u);
    EXPECT_EQ(run("code=nr:bg2:8, puncture=none", 2, 0, 5, false).bit_errors, 0u);
}

TEST(ldpc_transmission, rows_tied_only_to_unsent_bits_are_not_decoded)
{
    // 5G NR BG1 Z = 64 at rate 8/9 (E = 1584 of the circular buffer from k0 = 0): bits 2Z ..
    // 2Z + E sent, so block column 26 partly and 27 .. 67 not at all; each of those is the
    // degree-1 parity of one extension row, which the decoder leaves out: 5 of 46 block rows
    const ldpc_code c = ldpc_code::standard("nr:bg1:64");
    const std::string tail = "code=nr:bg1:64, puncture=0:128 1712:4352";
    const auto t = ldpc_trim_unsent(c, ldpc_transmission::parse(c, "0:128 1712:4352", "").punctured);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->rows_dropped, 41);
    EXPECT_EQ(t->code.mb(), 5);
    EXPECT_EQ(t->code.nb(), 27);
    EXPECT_EQ(t->code.k(), c.k());
    for (int v = 0; v < c.n(); ++v)
        ASSERT_EQ(t->column[size_t(v)], v < 27 * 64 ? v : -1) << v;
    EXPECT_NE(decoder(tail)->describe().find("5 of its 46 block rows"), std::string::npos)
        << decoder(tail)->describe();
    // nothing to leave out: the mother code as sent (only the first 2Z, which are not parity),
    // the IEEE codes' last columns (tied to two rows), a code sent whole
    EXPECT_FALSE(ldpc_trim_unsent(c, ldpc_transmission::parse(c, "", "").punctured).has_value());
    const ldpc_code w = ldpc_code::standard("802.11n:648:1/2");
    EXPECT_FALSE(ldpc_trim_unsent(w, ldpc_transmission::parse(w, "567:648", "").punctured).has_value());
    EXPECT_FALSE(ldpc_trim_unsent(c, {}).has_value());

    // the same decisions as the whole graph (output=codeword decodes it whole), frame for frame,
    // at 5 fixed iterations at 4.5 dB, where some frames fail; with early stop, never more
    // iterations
    const size_t frames = 48;
    auto enc = encoder(tail);
    const size_t k = enc->info_bits(), n = enc->coded_bits();
    ASSERT_EQ(n, 1584u);
    const auto info = test::random_bits(frames * k, 41);
    std::vector<uint8_t> coded(frames * n);
    enc->encode(info.data(), frames, coded.data());
    const auto soft = test::channel(coded, double(k) / double(n), 4.5, 42);
    for (bool et : { false, true }) {
        const std::string o = tail + ", max_iterations=5, precision=int8, early_termination=" + (et ? "true" : "false");
        auto trimmed_dec = decoder(o), whole_dec = decoder(o + ", output=codeword");
        ASSERT_EQ(trimmed_dec->output_bits(), k);
        ASSERT_EQ(whole_dec->output_bits(), size_t(c.n()));
        const auto trimmed = test::decode_frames(*trimmed_dec, soft.data(), frames);
        const auto whole = test::decode_frames(*whole_dec, soft.data(), frames);
        size_t failed = 0;
        for (size_t f = 0; f < frames; ++f) {
            const auto t = trimmed.bits.begin() + long(f * k), w = whole.bits.begin() + long(f * size_t(c.n()));
            failed += test::count_errors(&*t, info.data() + f * k, k) > 0;
            if (!et)
                EXPECT_EQ(std::vector<uint8_t>(t, t + long(k)), std::vector<uint8_t>(w, w + long(k))) << "frame " << f;
            else
                EXPECT_LE(trimmed.status[f].iterations, whole.status[f].iterations) << "frame " << f;
        }
        if (!et) {
            EXPECT_GT(failed, 0u);
            EXPECT_LT(failed, frames);
        }
    }
}

TEST(ldpc_transmission, shortened_bits_are_neither_sent_nor_output)
{
    // 802.16e (576, 288): 88 information bits known zero at the end (a prefix output) or in the
    // middle (the output skips them)
    for (const char* shorten : { "200:288", "10:40 100 150:200" }) {
        const std::string o = std::string("code=802.16e:576:1/2, shorten=") + shorten;
        auto enc = encoder(o);
        const size_t known = std::string(shorten) == "200:288" ? 88 : 30 + 1 + 50;
        EXPECT_EQ(enc->info_bits(), 288 - known) << shorten;
        EXPECT_EQ(enc->coded_bits(), 576 - known) << shorten;
        EXPECT_EQ(run(o, 2, 0, 7, false).bit_errors, 0u) << shorten;
        EXPECT_EQ(run(o + ", max_iterations=20", 40, 3.5, 8).frame_errors, 0u) << shorten; // (FER ~1e-4 there)
    }
    // the decoded codeword has the known zeros where they belong and satisfies every check
    const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
    auto enc = encoder("code=802.16e:576:1/2, shorten=100:150");
    auto dec = decoder("code=802.16e:576:1/2, shorten=100:150, output=codeword");
    ASSERT_EQ(dec->output_bits(), 576u);
    const auto info = test::random_bits(enc->info_bits(), 9);
    std::vector<uint8_t> coded(enc->coded_bits()), cw(576);
    enc->encode(info.data(), 1, coded.data());
    const auto soft = test::channel(coded, 0.5, 0, 1, false);
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.bits = cw.data();
    dec->decode(b);
    EXPECT_TRUE(c.satisfied(cw.data()));
    for (int i = 100; i < 150; ++i)
        EXPECT_EQ(cw[size_t(i)], 0) << i;
    EXPECT_TRUE(std::equal(info.begin(), info.begin() + 100, cw.begin()));
    EXPECT_TRUE(std::equal(info.begin() + 100, info.end(), cw.begin() + 150));
}

TEST(ldpc_transmission, ccsds_c2_corrects_noise)
{
    // the basic (8176, 7156) code at rate 0.875, Eb/N0 4.5 dB (its FER is far below 1e-3 there)
    const round_trip r = run("code=ccsds:8176:7156, max_iterations=20", 8, 4.5, 31);
    EXPECT_EQ(r.frame_errors, 0u);
}

TEST(ldpc_transmission, ccsds_c2_as_sent_is_8160_bits_with_its_shortening_and_fill)
{
    // 131.0-B 7.3.6: 7136 information bits; the 18 leading zeros of the (8176, 7154) code are
    // not sent, two zeros are appended: 8160 bits
    auto enc = encoder("code=ccsds:8160:7136");
    ASSERT_EQ(enc->info_bits(), 7136u);
    ASSERT_EQ(enc->coded_bits(), 8160u);
    const auto info = test::random_bits(7136, 5);
    std::vector<uint8_t> frame(8160);
    enc->encode(info.data(), 1, frame.data());
    EXPECT_TRUE(std::equal(info.begin(), info.end(), frame.begin())); // systematic
    EXPECT_EQ(frame[8158], 0);
    EXPECT_EQ(frame[8159], 0);
    std::vector<uint8_t> cw(18, 0); // the codeword of H: the 18 zeros, then the bits sent
    cw.insert(cw.end(), frame.begin(), frame.begin() + 8158);
    EXPECT_TRUE(ldpc_code::standard("ccsds:8160:7136").satisfied(cw.data()));
    EXPECT_EQ(decoder("code=ccsds:8160:7136")->input_per_frame(), 8160u);
    EXPECT_EQ(run("code=ccsds:8160:7136, max_iterations=20", 8, 4.5, 33).frame_errors, 0u);
    // the appended zeros are not read: garbage there changes nothing
    auto dec = decoder("code=ccsds:8160:7136");
    auto soft = test::channel(frame, 7136.0 / 8160, 0, 1, false);
    std::vector<uint8_t> out(7136);
    soft[8158] = soft[8159] = int8_t(-100);
    frame_batch b;
    b.frames = 1;
    b.soft = soft.data();
    b.bits = out.data();
    dec->decode(b);
    EXPECT_EQ(out, info);
}

TEST(ldpc_transmission, ccsds_telecommand_codes_correct_noise)
{
    // rate 1/2, short: (128, 64) at Eb/N0 6 dB and (512, 256) at 4.5 dB, 50 iterations (both
    // well below FER 1e-2 there for a min-sum decoder; 231.0-B's green book, 230.2-G, shows
    // FER 1e-4 near 5.6 dB and 4.2 dB for belief propagation)
    EXPECT_LE(run("code=ccsds:128:64, max_iterations=50", 64, 6.0, 41).frame_errors, 1u);
    EXPECT_LE(run("code=ccsds:512:256, max_iterations=50", 32, 4.5, 43).frame_errors, 1u);
}

TEST(ldpc_transmission, dvbs2_bit_interleaver_reads_rows_of_the_column_array)
{
    // 5.3.3: symbol j takes row j of the columns (n / c rows each); the twisted orders of 3/5
    struct one {
        int n;
        const char* rate;
        const char* mod;
        std::vector<int> columns;
    };
    for (const one& x : { one{ 64800, "2/3", "8psk", { 0, 1, 2 } }, one{ 64800, "3/5", "8psk", { 2, 1, 0 } },
                          one{ 16200, "3/5", "16apsk", { 3, 2, 0, 1 } }, one{ 64800, "3/5", "16apsk", { 3, 2, 1, 0 } },
                          one{ 16200, "8/9", "32apsk", { 0, 1, 2, 3, 4 } } }) {
        const auto p = dvbs2_bit_interleaver(x.n, x.rate, x.mod);
        const int c = int(x.columns.size()), rows = x.n / c;
        ASSERT_EQ(p.size(), size_t(x.n));
        std::vector<int> sorted(p);
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < x.n; ++i)
            ASSERT_EQ(sorted[size_t(i)], i) << x.mod;
        for (int j : { 0, 1, rows - 1 })
            for (int b = 0; b < c; ++b)
                EXPECT_EQ(p[size_t(j * c + b)], x.columns[size_t(b)] * rows + j) << x.mod << " " << x.rate;
    }
    EXPECT_TRUE(dvbs2_bit_interleaver(64800, "1/4", "qpsk").empty());
    EXPECT_THROW(dvbs2_bit_interleaver(64800, "1/2", "8psk"), std::invalid_argument);
    EXPECT_THROW(dvbs2_bit_interleaver(16200, "9/10", "32apsk"), std::invalid_argument);
    EXPECT_THROW(dvbs2_bit_interleaver(64800, "3/4", "64apsk"), std::invalid_argument);
    // the family's frames: the interleaved encoder output is the plain one permuted
    auto plain = encoder("code=dvbs2:16200:2/3");
    auto mixed = encoder("code=dvbs2:16200:2/3, interleaver=16apsk");
    const auto info = test::random_bits(plain->info_bits(), 5);
    std::vector<uint8_t> a(16200), b(16200);
    plain->encode(info.data(), 1, a.data());
    mixed->encode(info.data(), 1, b.data());
    const auto p = dvbs2_bit_interleaver(16200, "2/3", "16apsk");
    for (size_t i = 0; i < 16200; ++i)
        ASSERT_EQ(b[i], a[size_t(p[i])]) << i;
    EXPECT_EQ(run("code=dvbs2:16200:2/3, interleaver=16apsk, max_iterations=30", 3, 3.5, 51).frame_errors, 0u);
}

TEST(ldpc_transmission, bad_ranges_are_refused_with_the_reason)
{
    auto fails = [](const std::string& options, const std::string& words) {
        try {
            decoder(options);
            ADD_FAILURE() << options << ": accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    fails("code=802.16e:576:1/2, shorten=300:310", "parity");
    fails("code=802.16e:576:1/2, shorten=10:20, puncture=15", "punctured too");
    fails("code=802.16e:576:1/2, puncture=570:580", "0..576");
    fails("code=802.16e:576:1/2, puncture=5:5", "range");
    fails("code=802.16e:576:1/2, puncture=a:b", "'a:b'");
    fails("code=802.16e:576:1/2, shorten=0:288", "every information bit");
    fails("code=802.16e:576:1/2, puncture=0:576", "no codeword bit");
    fails("code=802.16e:576:1/2, puncture=300:400:0", "first:end:step");
    fails("code=802.16e:576:1/2, puncture=300:400:x", "'300:400:x'");
}

TEST(ldpc_transmission, strided_ranges_take_every_step_th_position)
{
    const ldpc_code c = ldpc_code::standard("802.16e:576:1/2");
    EXPECT_EQ(ldpc_transmission::parse(c, "300:310:3 400", "0:2").punctured, (std::vector<int>{ 300, 303, 306, 309, 400 }));
    // DVB-S2X VL-SNR 2/9: 3240 of its parity bits punctured, every 15th from p_0 (as sent)
    const ldpc_code v = ldpc_code::standard("dvbs2:64800:2/9");
    EXPECT_EQ(v.default_puncture(), "14400:62986:15");
    EXPECT_EQ(ldpc_transmission::parse(v, "", "").sent(v).size(), size_t(64800 - 3240));
}
