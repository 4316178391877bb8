/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The kits and the simulation driver: a frame's result does not depend on the call that made
 * it, so counts do not depend on decoders or batch; the stop rule is exact; the channel's
 * Eb/N0 scaling against theory; --devices parsing; the CSV writer. */
#include "devices.h"
#include "frames_ahead.h"
#include "kits.h"
#include "report.h"
#include "sim_driver.h"
#include "team.h"

#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <fstream>

using namespace gpufec;
using namespace gpufec::app;

namespace {

device_spec cpu() { return device_spec::parse("cpu"); }

//! the CPU, and GPU 0 where there is one
std::vector<device_spec> every_backend()
{
    std::vector<device_spec> v{ cpu() };
    if (!cuda_devices().empty())
        v.push_back(device_spec::parse("cuda:0"));
    return v;
}

std::vector<frame_result> simulate(code_kit& k, const channel_kit& ch, uint64_t first, uint64_t n)
{
    std::vector<frame_result> r(n);
    k.simulate({ 7, 3 }, first, n, ch, r.data());
    return r;
}

void expect_same(const std::vector<frame_result>& a, const std::vector<frame_result>& b, size_t at = 0)
{
    for (size_t i = 0; i < b.size(); ++i) {
        EXPECT_EQ(a[at + i].bit_errors, b[i].bit_errors) << "frame " << at + i;
        EXPECT_EQ(a[at + i].iterations, b[i].iterations) << "frame " << at + i;
    }
}

uint64_t errors(const std::vector<frame_result>& r)
{
    uint64_t e = 0;
    for (const auto& x : r)
        e += x.bit_errors;
    return e;
}

} // namespace

TEST(app_kits, frame_results_do_not_depend_on_the_call)
{
    auto ch = make_bpsk_awgn();
    for (const auto& dev : every_backend())
    for (const char* fam : { "repetition", "ldpc" }) {
        if (dev.type != device_spec::kind::cpu && fam == std::string("repetition"))
            continue;
        auto k = make_code_kit(fam, fam == std::string("ldpc") ? "code=802.11n:648:1/2" : "frame_bits=64, repeat=3", dev);
        ch->set_point(fam == std::string("ldpc") ? 1.0 : -1.0, k->rate());
        const auto all = simulate(*k, *ch, 0, 60);
        EXPECT_GT(errors(all), 0u) << fam;
        expect_same(all, simulate(*k, *ch, 0, 25));
        expect_same(all, simulate(*k, *ch, 25, 35), 25);
        expect_same(all, simulate(*k, *ch, 41, 1), 41);
    }
}

TEST(app_kits, stream_blocks_do_not_depend_on_the_call)
{
    auto ch = make_bpsk_awgn();
    // a punctured code too (period 3: blocks of 64 bits start mid-period, the kit aligns them)
    for (const auto& dev : every_backend())
    for (const char* opts : { "code=ccsds, mode=streaming, block_len=64",
                              "code=80211-3/4, mode=streaming, block_len=64" }) {
        auto k = make_code_kit("viterbi", opts, dev);
        ch->set_point(2.0, k->rate());
        const auto all = simulate(*k, *ch, 0, 80);
        EXPECT_GT(errors(all), 0u) << opts;
        expect_same(all, simulate(*k, *ch, 0, 30));
        expect_same(all, simulate(*k, *ch, 30, 50), 30);
        expect_same(all, simulate(*k, *ch, 57, 3), 57);
        // clean channel: a correct stream
        ch->set_point(12.0, k->rate());
        EXPECT_EQ(errors(simulate(*k, *ch, 0, 40)), 0u) << opts;
        EXPECT_EQ(errors(simulate(*k, *ch, 13, 9)), 0u) << opts;
    }
}

TEST(app_kits, awgn_scaling_matches_theory)
{
    // a rate-1/3 repetition code with soft combining is uncoded BPSK at the same Eb/N0:
    // BER = Q(sqrt(2 Eb/N0)), so the channel's rate scaling and the int8 quantisation show here
    auto ch = make_bpsk_awgn();
    auto k = make_code_kit("repetition", "frame_bits=1000, repeat=3", cpu());
    for (double ebn0 : { 0.0, 3.0 }) {
        ch->set_point(ebn0, k->rate());
        const auto r = simulate(*k, *ch, 0, 400);
        const double ber = double(errors(r)) / 4e5, want = uncoded_bpsk_ber(ebn0);
        EXPECT_NEAR(ber, want, 0.06 * want) << "Eb/N0 " << ebn0;
    }
}

// the insertion/deletion channel: its point is a probability, frames change length, the decoder
// is told the channel; the tvb kit through it: the same counts from the same seed, and frames of
// the clean channel all decode
TEST(app_kits, bsid_channel)
{
    auto ch = make_channel("bsid:ps=0.001");
    EXPECT_EQ(ch->measure(), "p");
    EXPECT_EQ(ch->measure_unit(), "");
    EXPECT_TRUE(ch->changes_length());
    EXPECT_THROW(make_channel("bsid:pi=0.1"), std::invalid_argument);
    ch->set_point(0.05, 0.5);
    EXPECT_NE(ch->decoder_options().find("pi=0.05"), std::string::npos);
    std::vector<uint8_t> bits(20000, 1);
    std::vector<float> y;
    unit_rng rng(1, 2, 3);
    ch->transmit_variable(bits.data(), bits.size(), y, rng);
    EXPECT_NE(y.size(), bits.size());
    EXPECT_NEAR(double(y.size()) / bits.size(), 1.0, 0.02); // Pi = Pd: about as long
    EXPECT_THROW(ch->set_point(0.6, 0.5), std::invalid_argument);
    auto kit = make_code_kit("tvb", "q=16, n=7, N=20", device_spec::parse("cpu"));
    std::vector<frame_result> r1(8), r2(8);
    ch->set_point(0.0, kit->rate());
    kit->simulate({ 5, 0 }, 0, 8, *ch, r1.data());
    for (const auto& r : r1)
        EXPECT_EQ(r.bit_errors, 0u);
    ch->set_point(0.02, kit->rate());
    kit->simulate({ 5, 1 }, 0, 8, *ch, r1.data());
    kit->simulate({ 5, 1 }, 0, 8, *ch, r2.data());
    for (size_t f = 0; f < 8; ++f)
        EXPECT_EQ(r1[f].bit_errors, r2[f].bit_errors);
}

// the photon-counting channel: its names, its statistics, and the SCPPM kit through it (codewords
// decode well above the capacity threshold, none below it)
TEST(app_kits, poisson_ppm_channel)
{
    EXPECT_EQ(make_channel("poisson")->measure(), "ks_db");
    EXPECT_NE(make_channel("poisson-ppm:kb=0.5")->name().find("0.5"), std::string::npos);
    EXPECT_THROW(make_channel("poisson-ppm:kb=x"), std::invalid_argument);
    EXPECT_THROW(make_channel("poisson-ppm:kb=0"), std::invalid_argument);
    auto ch = make_channel("poisson-ppm:kb=0.2");
    EXPECT_EQ(ch->int8_scale(), 1.f); // counts go to int8 decoders as they are
    ch->set_point(3.0, 0.5);
    std::vector<uint8_t> pulses(40000);
    for (size_t i = 0; i < pulses.size(); ++i)
        pulses[i] = i % 4 == 0;
    std::vector<float> y(pulses.size());
    unit_rng rng(1, 2, 3);
    ch->transmit(pulses.data(), pulses.size(), y.data(), rng);
    double on = 0, off = 0;
    for (size_t i = 0; i < y.size(); ++i) {
        EXPECT_EQ(y[i], std::floor(y[i]));
        (pulses[i] ? on : off) += y[i];
    }
    EXPECT_NEAR(on / 10000, std::pow(10, 0.3) + 0.2, 0.06);
    EXPECT_NEAR(off / 30000, 0.2, 0.01);
    auto k = make_code_kit("scppm", "M=4, rate=1/3", cpu());
    ch->set_point(2.5, k->rate()); // capacity threshold of this code near 0 dB at Kb 0.2
    EXPECT_EQ(errors(simulate(*k, *ch, 0, 6)), 0u);
    ch->set_point(-3.0, k->rate());
    const auto bad = simulate(*k, *ch, 0, 4);
    for (const auto& f : bad)
        EXPECT_GT(f.bit_errors, 0u);
}

TEST(app_kits, counts_do_not_depend_on_decoders_or_batch)
{
    auto ch = make_bpsk_awgn();
    std::vector<std::unique_ptr<code_kit>> kits;
    for (int i = 0; i < 3; ++i)
        kits.push_back(make_code_kit("repetition", "frame_bits=50, repeat=3", cpu()));
    ch->set_point(0.5, kits[0]->rate());
    team one;
    stop_rule rule;
    rule.min_frame_errors = 37;
    rule.max_bits = 0;
    error_counts ref;
    bool first = true;
    for (auto [decoders, batch] : { std::pair<size_t, uint64_t>{ 1, 1000 }, { 1, 3 }, { 3, 17 }, { 2, 1 } }) {
        std::vector<code_kit*> use;
        for (size_t i = 0; i < decoders; ++i)
            use.push_back(kits[i].get());
        sim_driver d(use, one, batch);
        const error_counts c = d.run_point({ 11, 0 }, *ch, rule);
        EXPECT_EQ(c.frame_errors, 37u); // met exactly: frames count one by one
        if (first) {
            ref = c;
            first = false;
        }
        EXPECT_EQ(c.frames, ref.frames) << decoders << " decoders, batch " << batch;
        EXPECT_EQ(c.bit_errors, ref.bit_errors) << decoders << " decoders, batch " << batch;
        EXPECT_EQ(c.bits, c.frames * 50);
    }
    // maxima exact whatever the batch
    stop_rule cap;
    cap.min_frame_errors = 0;
    cap.max_bits = 12345;
    std::vector<code_kit*> two{ kits[0].get(), kits[1].get() };
    sim_driver d(two, one, 100);
    EXPECT_EQ(d.run_point({ 11, 1 }, *ch, cap).bits, 12300u);
}

TEST(app_kits, a_failing_decoder_fails_the_point)
{
    // a kit whose simulate throws: the driver rethrows on the calling thread, never hangs
    struct broken : code_kit {
        std::string describe() const override { return "broken"; }
        std::string backend() const override { return "none"; }
        double rate() const override { return 0.5; }
        uint64_t info_bits_per_frame() const override { return 8; }
        uint64_t preferred_frames() const override { return 4; }
        void simulate(const sim_key&, uint64_t, uint64_t, const channel_kit&, frame_result*) override
        {
            throw std::runtime_error("decoder lost");
        }
        void bench_prepare(const sim_key&, uint64_t, const channel_kit&) override {}
        uint64_t bench_input_bytes() const override { return 0; }
        void bench_decode() override {}
        error_counts bench_errors() const override { return {}; }
    } b1, b2;
    auto ch = make_bpsk_awgn();
    team one;
    sim_driver d({ &b1, &b2 }, one, 0);
    EXPECT_THROW(d.run_point({ 1, 0 }, *ch, stop_rule{}), std::runtime_error);
}

TEST(app_devices, parse)
{
    EXPECT_EQ(parse_devices("cpu").size(), 1u);
    EXPECT_EQ(parse_devices("cpu, cpu").size(), 2u);
    EXPECT_EQ(parse_devices("auto")[0].type, device_spec::kind::automatic);
    EXPECT_THROW(parse_devices("banana"), std::invalid_argument);
    EXPECT_THROW(parse_devices("cpu,,cpu"), std::invalid_argument);
    EXPECT_THROW(parse_devices(""), std::invalid_argument);
    if (cuda_devices().empty())
        EXPECT_THROW(parse_devices("all"), std::invalid_argument);
    const auto list = parse_devices("cpu,cuda:1");
    EXPECT_EQ(devices_for_process(list, 0, 1).size(), 2u); // one process: all of them
    EXPECT_EQ(devices_for_process(list, 3, 4)[0].type, device_spec::kind::cuda); // rank 3 of 4: the 2nd
    EXPECT_EQ(devices_for_process(list, 3, 4)[0].index, 1);
    EXPECT_EQ(devices_for_process(list, 2, 4)[0].type, device_spec::kind::cpu);
}

TEST(app_report, csv_quotes_text_and_appends)
{
    csv_table t({ "name", "n", "x" });
    t.add({ std::string("a, \"b\""), uint64_t(3), 0.25 });
    t.add({ std::string("c"), uint64_t(0), std::nan("") });
    EXPECT_EQ(t.text(), "name,n,x\n\"a, \"\"b\"\"\",3,0.25\n\"c\",0,\n");
    EXPECT_THROW(t.add({ std::string("short") }), std::logic_error);
    const std::string path = ::testing::TempDir() + "gpufec_report_test.csv";
    std::remove(path.c_str());
    t.append(path);
    t.append(path);
    std::ifstream f(path);
    std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all, "name,n,x\n\"a, \"\"b\"\"\",3,0.25\n\"c\",0,\n\"a, \"\"b\"\"\",3,0.25\n\"c\",0,\n");
    csv_table other({ "name", "m" });
    other.add({ std::string("z"), uint64_t(1) });
    EXPECT_THROW(other.append(path), std::runtime_error);
    std::remove(path.c_str());
}

// a mix of encoders (gpufec_bench --mix): frames of LTE K = 40 and 1024 in turn through one
// code=lte:any decoder; each frame is counted with its own K, a frame's result does not depend
// on the call, and a decoder of one length refuses a mix
TEST(app_kits, mixed_lengths_through_one_decoder)
{
    auto ch = make_bpsk_awgn();
    for (const auto& dev : every_backend()) {
        auto kit = make_code_kit("turbo", "code=lte:any, max_iterations=6", dev, { "code=lte:40", "code=lte:1024" });
        EXPECT_NEAR(kit->rate(), (40.0 + 1024.0) / (132.0 + 3084.0), 1e-12);
        EXPECT_EQ(kit->info_bits_per_frame(), 532u);
        ch->set_point(4.0, kit->rate());
        kit->bench_prepare({ 3, 0 }, 7, *ch);
        EXPECT_EQ(kit->bench_input_bytes(), 4 * 132u + 3 * 3084u);
        kit->bench_decode();
        const error_counts c = kit->bench_errors();
        EXPECT_EQ(c.frames, 7u);
        EXPECT_EQ(c.bits, 4 * 40u + 3 * 1024u);
        EXPECT_EQ(c.bit_errors, 0u) << kit->backend();
        ch->set_point(0.0, kit->rate());
        const auto all = simulate(*kit, *ch, 0, 8);
        expect_same(all, simulate(*kit, *ch, 3, 5), 3);
        EXPECT_GT(errors(all), 0u); // 0 dB: the short frames fail
    }
    EXPECT_THROW(make_code_kit("turbo", "code=lte:6144", cpu(), { "code=lte:40" }), std::invalid_argument);
    EXPECT_THROW(make_code_kit("turbo", "code=lte:any", cpu(), { "code=ccsds:1784" }), std::invalid_argument);
    EXPECT_THROW(make_code_kit("viterbi", "code=ccsds, mode=streaming", cpu(), { "code=ccsds" }),
                 std::invalid_argument);
}

// Span frames (choose_frame_maker): the counts do not depend on the decoder's device, the
// maker's place (CPU, or the GPU with its guessed batches), the decoders or the batch; and they
// agree in distribution with frames made through the encoder.
TEST(app_kits, span_frames_counts_do_not_depend_on_where_they_are_made)
{
    auto ch = make_bpsk_awgn();
    const std::string code = "code=802.11n:648:1/2";
    team one;
    stop_rule rule;
    rule.min_frame_errors = 40;
    rule.max_bits = 0;
    struct setup {
        device_spec dev;
        std::string maker;
        size_t decoders;
        uint64_t batch;
    };
    std::vector<setup> setups{ { cpu(), "cpu", 1, 500 }, { cpu(), "auto", 2, 37 } };
    if (!cuda_devices().empty()) {
        const auto gpu = device_spec::parse("cuda:0");
        setups.push_back({ gpu, "gpu", 1, 500 });
        setups.push_back({ gpu, "gpu", 2, 113 });
        setups.push_back({ gpu, "cpu", 1, 64 });
    }
    error_counts ref;
    for (size_t s = 0; s < setups.size(); ++s) {
        std::vector<std::unique_ptr<code_kit>> kits;
        std::vector<code_kit*> use;
        for (size_t i = 0; i < setups[s].decoders; ++i) {
            kits.push_back(make_code_kit("ldpc", code, setups[s].dev));
            const std::string how = kits.back()->choose_frame_maker(setups[s].maker, *ch, 9);
            EXPECT_NE(how.find("span frames"), std::string::npos) << how;
            use.push_back(kits.back().get());
        }
        ch->set_point(1.5, kits[0]->rate());
        sim_driver d(use, one, setups[s].batch);
        error_counts c = d.run_point({ 9, 0 }, *ch, rule);
        c = d.run_point({ 9, 0 }, *ch, rule); // again: batches made ahead by the GPU maker are right or remade
        EXPECT_EQ(c.frame_errors, 40u);
        if (s == 0)
            ref = c;
        EXPECT_EQ(c.frames, ref.frames) << setups[s].dev.str() << " " << setups[s].maker;
        EXPECT_EQ(c.bit_errors, ref.bit_errors) << setups[s].dev.str() << " " << setups[s].maker;
        EXPECT_EQ(c.iterations, ref.iterations) << setups[s].dev.str() << " " << setups[s].maker;
    }
}

TEST(app_kits, span_frames_error_rates_match_encoded_frames)
{
    auto ch = make_bpsk_awgn();
    team one;
    stop_rule rule;
    rule.min_frame_errors = 0;
    rule.max_frames = 6000;
    uint64_t fe[2];
    for (int span = 0; span < 2; ++span) {
        auto k = make_code_kit("ldpc", "code=802.11n:648:1/2", cpu());
        k->choose_frame_maker(span ? "cpu" : "encoder", *ch, 3);
        ch->set_point(1.75, k->rate());
        sim_driver d({ k.get() }, one, 1000);
        fe[span] = d.run_point({ 3, 0 }, *ch, rule).frame_errors;
    }
    // two binomial counts of 6000 frames at FER about 5 %: a difference within 5 standard deviations
    const double p = double(fe[0] + fe[1]) / 12000, sd = std::sqrt(2 * 6000 * p * (1 - p));
    EXPECT_GT(fe[0], 60u);
    EXPECT_LT(std::abs(double(fe[0]) - double(fe[1])), 5 * sd) << fe[0] << " against " << fe[1];
}

TEST(app_kits, frame_maker_choices_and_refusals)
{
    auto awgn = make_bpsk_awgn();
    auto ppm = make_channel("poisson-ppm");
    auto k = make_code_kit("ldpc", "code=802.11n:648:1/2", cpu());
    EXPECT_NE(k->choose_frame_maker("encoder", *awgn, 1).find("encoder"), std::string::npos);
    EXPECT_THROW(k->choose_frame_maker("gpu", *awgn, 1), std::invalid_argument); // it decodes on the CPU
    EXPECT_THROW(k->choose_frame_maker("fast", *awgn, 1), std::invalid_argument);
    auto s = make_code_kit("scppm", "", cpu());
    EXPECT_NE(s->choose_frame_maker("auto", *ppm, 1).find("encoder"), std::string::npos); // not AWGN
    EXPECT_THROW(s->choose_frame_maker("cpu", *ppm, 1), std::invalid_argument);
    auto v = make_code_kit("viterbi", "code=ccsds, mode=streaming", cpu());
    EXPECT_THROW(v->choose_frame_maker("gpu", *awgn, 1), std::invalid_argument); // it decodes on the CPU
    EXPECT_NE(v->choose_frame_maker("cpu", *awgn, 1).find("Philox"), std::string::npos);
}

// The drawn stream of the streaming Viterbi kit: counts independent of device, maker and batch;
// its error rate consistent with the stream made through the encoder.
TEST(app_kits, drawn_stream_counts_do_not_depend_on_where_it_is_made)
{
    auto ch = make_bpsk_awgn();
    team one;
    stop_rule rule;
    rule.min_frame_errors = 30;
    rule.max_bits = 0;
    struct setup {
        device_spec dev;
        std::string maker, options;
        uint64_t batch;
    };
    const std::string punct = "code=80211-2/3, mode=streaming, block_len=64";
    std::vector<setup> setups{ { cpu(), "cpu", punct, 200 }, { cpu(), "auto", punct, 33 } };
    if (!cuda_devices().empty()) {
        const auto gpu = device_spec::parse("cuda:0");
        setups.push_back({ gpu, "gpu", punct, 200 });
        setups.push_back({ gpu, "gpu", "code=ccsds, mode=streaming, block_len=64, soft_bits=4", 77 }); // only run, not compared
        setups.push_back({ gpu, "cpu", punct, 1000 });
    }
    error_counts ref;
    for (size_t s = 0; s < setups.size(); ++s) {
        auto k = make_code_kit("viterbi", setups[s].options, setups[s].dev);
        const std::string how = k->choose_frame_maker(setups[s].maker, *ch, 5);
        EXPECT_NE(how.find("Philox"), std::string::npos) << how;
        ch->set_point(3.0, k->rate());
        sim_driver d({ k.get() }, one, setups[s].batch);
        error_counts c = d.run_point({ 5, 0 }, *ch, rule);
        c = d.run_point({ 5, 0 }, *ch, rule);
        EXPECT_EQ(c.frame_errors, 30u);
        if (s == 0)
            ref = c;
        if (setups[s].options != punct)
            continue;
        EXPECT_EQ(c.frames, ref.frames) << setups[s].dev.str() << " " << setups[s].maker;
        EXPECT_EQ(c.bit_errors, ref.bit_errors) << setups[s].dev.str() << " " << setups[s].maker;
    }
    // against the stream made through the encoder: frame error counts of 3000 blocks
    stop_rule fixed;
    fixed.min_frame_errors = 0;
    fixed.max_frames = 3000;
    fixed.max_bits = 0;
    uint64_t fe[2];
    for (int drawn = 0; drawn < 2; ++drawn) {
        auto k = make_code_kit("viterbi", "code=ccsds, mode=streaming, block_len=64", cpu());
        k->choose_frame_maker(drawn ? "cpu" : "encoder", *ch, 5);
        ch->set_point(2.5, k->rate());
        sim_driver d({ k.get() }, one, 500);
        fe[drawn] = d.run_point({ 5, 1 }, *ch, fixed).frame_errors;
    }
    const double p = double(fe[0] + fe[1]) / 6000, sd = std::sqrt(2 * 3000 * p * (1 - p));
    EXPECT_GT(fe[0], 30u);
    EXPECT_LT(std::abs(double(fe[0]) - double(fe[1])), 5 * sd) << fe[0] << " against " << fe[1];
}

// The GPU makers' slots from the kits' side: a batch made ahead is used when the next call asks
// for it, made again when the guess was wrong; the guess follows the calls' stride.
TEST(app_kits, frames_made_ahead_follow_the_calls)
{
    frames_ahead ahead;
    std::vector<std::pair<int, uint64_t>> started; // (slot, first)
    auto call = [&](uint64_t first, uint64_t count, uint64_t point = 0) {
        return ahead.made(
            { 1, point, first, count, 0.5 },
            [&](int slot, const frames_ahead::batch& b) { started.emplace_back(slot, b.first); },
            [&](int slot) { return slot; });
    };
    EXPECT_EQ(call(0, 100), 0); // nothing ahead: made now in slot 0, then 100.. ahead in slot 1
    EXPECT_EQ(started, (std::vector<std::pair<int, uint64_t>>{ { 0, 0 }, { 1, 100 } }));
    started.clear();
    EXPECT_EQ(call(300, 100), 1); // the guess was wrong: made now where the guess was, next 600 ahead
    EXPECT_EQ(started, (std::vector<std::pair<int, uint64_t>>{ { 1, 300 }, { 0, 600 } }));
    started.clear();
    EXPECT_EQ(call(600, 100), 0); // right: read at once, 900 ahead
    EXPECT_EQ(started, (std::vector<std::pair<int, uint64_t>>{ { 1, 900 } }));
    started.clear();
    EXPECT_EQ(call(900, 100, 1), 1); // another point: made now, its first stride is the count
    EXPECT_EQ(started, (std::vector<std::pair<int, uint64_t>>{ { 1, 900 }, { 0, 1000 } }));
}
