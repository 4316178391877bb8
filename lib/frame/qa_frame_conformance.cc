/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The conformance suite every frame family runs (through the registry, knowing nothing of the
 * family): clean frames decode to what was encoded, results do not depend on the batch size or
 * on how batches are cut, packed and unpacked outputs agree, erased and NaN frames are reported,
 * the asynchronous path gives what the synchronous one gives, in order, and CPU and CUDA agree.
 * A family's configurations come from its registration (frame_family::conformance). Families whose frames vary in length (tvb) get frames
 * of the encoder's length, with the lengths given. */
#include <gnuradio/gpufec/core/frame/async_decoder.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include "runtime/gpu_engine.h"
#include "testing/test_util.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace gpufec {
namespace {

struct config {
    std::string family;
    std::string options;
};

//! every family's configurations, from its registration (frame_family::conformance)
std::vector<config> all_configs()
{
    std::vector<config> out;
    for (const auto& f : frame_families())
        for (const auto& o : frame_family_info(f).conformance)
            out.push_back({ f, o });
    return out;
}

class conformance : public ::testing::TestWithParam<config>
{
protected:
    void SetUp() override
    {
        opts = parse_frame_options(GetParam().options);
        opts["cpu_threads"] = "2";
        dec = make_frame_decoder(GetParam().family, opts, device_spec::parse("cpu"));
        frame_options enc_opts = opts;
        enc = make_frame_encoder(GetParam().family, enc_opts);
        ASSERT_EQ(enc->info_bits(), dec->output_bits());
        if (dec->variable_input())
            ASSERT_TRUE(dec->accepts_length(enc->coded_bits()));
        else
            ASSERT_EQ(enc->coded_bits(), dec->input_per_frame());
        in = enc->coded_bits();
    }

    //! the batch's input lengths (every frame `in` values) where the family's frames vary, else null
    const size_t* lengths_of(size_t frames)
    {
        if (!dec->variable_input())
            return nullptr;
        lengths.assign(frames, in);
        return lengths.data();
    }
    //! frames of `in` values each into the async decoder's filling slot
    void append(async_decoder& ad, const int8_t* s, size_t frames)
    {
        if (!dec->variable_input()) {
            ad.append(s, frames);
            return;
        }
        for (size_t f = 0; f < frames; ++f)
            ASSERT_TRUE(ad.append_frame(s + f * in, in));
    }

    //! frames of random bits, encoded, over a mild AWGN channel (int8)
    void make_frames(size_t frames, double ebn0, uint32_t seed)
    {
        info = test::random_bits(frames * enc->info_bits(), seed);
        std::vector<uint8_t> coded(frames * enc->coded_bits());
        enc->encode(info.data(), frames, coded.data());
        const double rate = double(enc->info_bits()) / double(enc->coded_bits());
        soft = test::channel(coded, rate, ebn0, seed + 1);
    }


    struct result {
        std::vector<uint8_t> bits;
        std::vector<frame_status> status;
    };
    result run(batch_decoder& d, const int8_t* s, size_t frames, bool packed = false)
    {
        return run_with(d, frames, packed, [&](frame_batch& b) { b.soft = s; });
    }
    //! input(b) sets the batch's soft values
    template <class Input>
    result run_with(batch_decoder& d, size_t frames, bool packed, Input&& input)
    {
        result r;
        r.bits.resize(frames * d.output_bytes(packed));
        r.status.resize(frames);
        frame_batch b;
        b.frames = frames;
        input(b);
        b.input_lengths = lengths_of(frames);
        b.bits = r.bits.data();
        b.packed = packed;
        b.status = r.status.data();
        d.decode(b);
        return r;
    }

    //! the configuration on the GPU, or null (and why) where it runs on the CPU only
    std::unique_ptr<batch_decoder> make_gpu(std::string& why)
    {
        try {
            return make_frame_decoder(GetParam().family, opts, device_spec::parse("cuda"));
        } catch (const std::invalid_argument& e) {
            why = e.what();
            return nullptr;
        }
    }

    frame_options opts;
    size_t in = 0; //!< input values a frame
    std::vector<size_t> lengths;
    std::unique_ptr<batch_decoder> dec;
    std::unique_ptr<frame_encoder> enc;
    std::vector<uint8_t> info;
    std::vector<int8_t> soft;
};

void expect_same_status(const std::vector<frame_status>& a, const std::vector<frame_status>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t f = 0; f < a.size(); ++f) {
        EXPECT_EQ(a[f].iterations, b[f].iterations) << "frame " << f;
        EXPECT_EQ(a[f].check, b[f].check) << "frame " << f;
        EXPECT_EQ(a[f].erased, b[f].erased) << "frame " << f;
        EXPECT_EQ(a[f].corrected, b[f].corrected) << "frame " << f;
    }
}

TEST_P(conformance, clean_frames_decode_to_what_was_sent)
{
    make_frames(24, 10.0, 11);
    const auto r = run(*dec, soft.data(), 24);
    EXPECT_EQ(test::count_errors(r.bits.data(), info.data(), info.size()), 0u);
    for (const auto& s : r.status) {
        EXPECT_TRUE(s.ok());
        EXPECT_EQ(s.erased, 0);
        EXPECT_EQ(s.check, dec->has_check() ? 1 : -1);
        EXPECT_GE(s.iterations, 1);
    }
}

TEST_P(conformance, results_do_not_depend_on_batching)
{
    make_frames(37, 1.5, 21); // noisy: some frames fail, iterations vary
    const auto whole = run(*dec, soft.data(), 37);
    const size_t out = dec->output_bits();
    for (size_t cut : { size_t(1), size_t(5), size_t(16) }) {
        result pieces;
        for (size_t a = 0; a < 37; a += cut) {
            const size_t n = std::min(cut, 37 - a);
            auto r = run(*dec, soft.data() + a * in, n);
            pieces.bits.insert(pieces.bits.end(), r.bits.begin(), r.bits.end());
            pieces.status.insert(pieces.status.end(), r.status.begin(), r.status.end());
        }
        EXPECT_EQ(pieces.bits, whole.bits) << "batches of " << cut;
        expect_same_status(pieces.status, whole.status);
    }
    // packed output is the unpacked output packed per frame
    const auto packed = run(*dec, soft.data(), 37, true);
    const size_t bytes = (out + 7) / 8;
    std::vector<uint8_t> expect(37 * bytes);
    for (size_t f = 0; f < 37; ++f)
        pack_bits(whole.bits.data() + f * out, out, expect.data() + f * bytes);
    EXPECT_EQ(packed.bits, expect);
    expect_same_status(packed.status, whole.status);
}

TEST_P(conformance, zero_frames_and_bad_batches)
{
    frame_batch b; // zero frames: nothing happens, nothing is touched
    dec->decode(b);
    std::vector<int8_t> s(dec->input_per_frame() * 2, 10);
    std::vector<uint8_t> o(dec->output_bits() * 2);
    b.frames = 2;
    b.bits = o.data();
    EXPECT_THROW(dec->decode(b), std::invalid_argument); // no input
    b.soft = s.data();
    b.bits = nullptr;
    EXPECT_THROW(dec->decode(b), std::invalid_argument); // no output
    b.bits = o.data();
    if (!dec->variable_input()) {
        const size_t lens[2] = { dec->input_per_frame(), dec->input_per_frame() - 1 };
        b.input_lengths = lens;
        EXPECT_THROW(dec->decode(b), std::invalid_argument); // a short frame
    }
}

TEST_P(conformance, erased_and_nan_frames_are_reported)
{
    make_frames(3, 10.0, 31);
    std::vector<float> f(3 * in);
    for (size_t i = 0; i < f.size(); ++i)
        f[i] = soft[i] / 32.0f;
    // frame 1: every value NaN; frame 2: denormal values (a dead input; 0 after quantisation)
    for (size_t i = in; i < 2 * in; ++i)
        f[i] = std::numeric_limits<float>::quiet_NaN();
    for (size_t i = 2 * in; i < 3 * in; ++i)
        f[i] = (i % 2 ? 1 : -1) * std::numeric_limits<float>::denorm_min() * 7;
    std::vector<uint8_t> o(3 * dec->output_bits());
    std::vector<frame_status> st(3);
    frame_batch b;
    b.frames = 3;
    b.input_lengths = lengths_of(3);
    b.bits = o.data();
    b.status = st.data();
    const size_t nans = dec->decode_float(f.data(), b);
    EXPECT_EQ(nans, in);
    EXPECT_TRUE(st[0].ok());
    EXPECT_EQ(st[0].erased, 0);
    EXPECT_EQ(test::count_errors(o.data(), info.data(), dec->output_bits()), 0u);
    for (int k : { 1, 2 }) {
        EXPECT_EQ(st[size_t(k)].erased, 1) << "frame " << k;
        EXPECT_FALSE(st[size_t(k)].ok()) << "frame " << k;
        EXPECT_NE(st[size_t(k)].check, 1) << "frame " << k;
    }
}

TEST_P(conformance, erased_frames_of_a_large_batch_are_reported)
{
    // 1100 frames: the erasure scan runs beside the decoder (batch_decoder::decode)
    const size_t frames = 1100;
    make_frames(frames, 10.0, 33);
    for (size_t k : { size_t(0), size_t(517), frames - 1 })
        std::fill(soft.begin() + long(k * in), soft.begin() + long((k + 1) * in), int8_t(0));
    std::vector<uint8_t> o(frames * dec->output_bits());
    std::vector<frame_status> st(frames);
    frame_batch b;
    b.frames = frames;
    b.soft = soft.data();
    b.input_lengths = lengths_of(frames);
    b.bits = o.data();
    b.status = st.data();
    dec->decode(b);
    for (size_t f = 0; f < frames; ++f) {
        const bool want = f == 0 || f == 517 || f == frames - 1;
        ASSERT_EQ(st[f].erased, want ? 1 : 0) << "frame " << f;
        if (want)
            EXPECT_FALSE(st[f].ok()) << "frame " << f;
    }
}

TEST_P(conformance, async_path_gives_the_sync_output_in_order)
{
    make_frames(50, 1.5, 41);
    const auto expect = run(*dec, soft.data(), 50);
    // CPU slots decoded in the caller's thread (small machines) and on a thread of their own
    // (more than 4 cores): GPUFEC_CPU_DECODE_THREAD forces each
    for (const char* thread : { "off", "on" }) {
        ASSERT_EQ(setenv("GPUFEC_CPU_DECODE_THREAD", thread, 1), 0);
        async_decoder::options ao;
        ao.batch_frames = 7;
        ao.depth = 3;
        ao.variable_lengths = dec->variable_input();
        async_decoder ad(make_frame_decoder(GetParam().family, opts, device_spec::parse("cpu")), ao);
        unsetenv("GPUFEC_CPU_DECODE_THREAD");
        const size_t out = dec->output_bits();
        std::vector<uint8_t> bits;
        std::vector<frame_status> status;
        auto read_front = [&](bool wait) {
            auto* s = ad.front(wait);
            if (!s)
                return false;
            bits.insert(bits.end(), s->bits, s->bits + s->frames * out);
            status.insert(status.end(), s->status, s->status + s->frames);
            ad.release_front();
            return true;
        };
        // batches of irregular size (as a block sends them when its input stalls)
        const size_t sizes[] = { 7, 1, 3, 7, 7, 2, 7, 5, 7, 4 };
        size_t next = 0;
        for (size_t n : sizes) {
            async_decoder::slot* s;
            while (!(s = ad.filling()))
                ASSERT_TRUE(read_front(true));
            // slots hold what the decoder takes: int8, or float for float-message decoders
            if (ao.variable_lengths)
                append(ad, soft.data() + next * in, n);
            else if (s->soft_f)
                std::copy(soft.begin() + long(next * in), soft.begin() + long((next + n) * in), s->soft_f);
            else
                std::copy(soft.begin() + long(next * in), soft.begin() + long((next + n) * in), s->soft);
            if (!ao.variable_lengths) {
                s->frames = n;
                s->used = n * in;
            }
            ad.submit();
            next += n;
        }
        ASSERT_EQ(next, 50u);
        while (read_front(true)) {
        }
        EXPECT_EQ(bits, expect.bits) << "decode thread " << thread;
        expect_same_status(status, expect.status);
        EXPECT_EQ(ad.unreleased(), 0u);
    }
}

TEST_P(conformance, cuda_gives_the_cpu_bits_and_status)
{
    GPUFEC_REQUIRE_GPU();
    std::string cpu_only;
    std::unique_ptr<batch_decoder> gpu = make_gpu(cpu_only);
    if (!gpu)
        GTEST_SKIP() << "this configuration runs on the CPU only: " << cpu_only;
    make_frames(300, 1.5, 51);
    const auto c = run(*dec, soft.data(), 300);
    const auto g = run(*gpu, soft.data(), 300);
    EXPECT_EQ(g.bits, c.bits);
    expect_same_status(g.status, c.status);
}

// Packed 4-bit input decodes as its unpack_soft4 values do, on the CPU and (where the configuration
// runs there) on the GPU, whose turbo engine reads the packed values itself; a frame of zero
// bytes is erased; decoders of float input and frames of an odd number of values refuse it
TEST_P(conformance, packed_4bit_input_gives_the_bits_of_its_unpacked_values)
{
    constexpr size_t frames = 37;
    make_frames(frames, 1.5, 61); // noisy: some frames fail, iterations vary
    std::vector<uint8_t> packed4((soft.size() + 1) / 2);
    pack_soft4(soft.data(), packed4.data(), soft.size());
    auto run4 = [&](batch_decoder& d) {
        return run_with(d, frames, true, [&](frame_batch& b) { b.soft4 = packed4.data(); });
    };
    if (dec->wants_float_input() || in % 2) {
        EXPECT_THROW(run4(*dec), std::invalid_argument);
        return;
    }
    std::fill(packed4.begin() + long(in / 2), packed4.begin() + long(in), uint8_t(0)); // frame 1: all zero
    std::vector<int8_t> unpacked(soft.size());
    unpack_soft4(packed4.data(), unpacked.data(), soft.size());
    const auto want = run(*dec, unpacked.data(), frames, true);
    EXPECT_EQ(want.status[1].erased, 1);
    const auto got = run4(*dec);
    EXPECT_EQ(got.bits, want.bits);
    expect_same_status(got.status, want.status);
    frame_batch both;
    both.frames = 1;
    both.soft = unpacked.data();
    both.soft4 = packed4.data();
    std::vector<uint8_t> o(dec->output_bits());
    both.bits = o.data();
    EXPECT_THROW(dec->decode(both), std::invalid_argument); // the input twice
    if (cuda_devices().empty())
        return;
    std::string cpu_only;
    if (std::unique_ptr<batch_decoder> gpu = make_gpu(cpu_only)) {
        const auto g = run4(*gpu);
        EXPECT_EQ(g.bits, want.bits) << gpu->backend();
        expect_same_status(g.status, want.status);
    }
}

//! GPUFEC_FAULT set for the scope of a test (runtime/gpu_engine.h)
struct fault_scope {
    explicit fault_scope(const char* what) { setenv("GPUFEC_FAULT", what, 1); }
    ~fault_scope() { unsetenv("GPUFEC_FAULT"); }
};

//! a message users see: no source file in it
void expect_no_source_path(const std::string& m)
{
    for (const char* ext : { ".h:", ".cc:", ".cu:", ".cuh:" })
        EXPECT_EQ(m.find(ext), std::string::npos) << m;
}

// The one device rule: with device=auto a GPU engine that cannot be made leaves the family on the
// CPU, with the CPU's bits; with device=cuda it is an error that names the family and the device
TEST_P(conformance, a_gpu_engine_that_cannot_be_made_leaves_auto_on_the_cpu)
{
    GPUFEC_REQUIRE_GPU();
    std::string cpu_only;
    if (!make_gpu(cpu_only))
        GTEST_SKIP() << "this configuration runs on the CPU only: " << cpu_only;
    make_frames(40, 1.5, 71);
    const auto c = run(*dec, soft.data(), 40);
    fault_scope fault("engine");
    auto a = make_frame_decoder(GetParam().family, opts, device_spec::parse("auto"));
    EXPECT_FALSE(a->on_gpu()) << a->backend();
    const auto r = run(*a, soft.data(), 40);
    EXPECT_EQ(r.bits, c.bits);
    expect_same_status(r.status, c.status);
    try {
        make_frame_decoder(GetParam().family, opts, device_spec::parse("cuda:0"));
        ADD_FAILURE() << "device=cuda:0 made a decoder although its GPU engine failed";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(GetParam().family), std::string::npos) << m;
        EXPECT_NE(m.find("cuda:0"), std::string::npos) << m;
        expect_no_source_path(m);
    }
}

// a GPU batch that fails mid-stream: decoded again on the CPU (the blocks' fallback), with the
// CPU's bits, and the decoder stays on the CPU; without a fallback the error reaches the caller
TEST_P(conformance, a_gpu_batch_that_fails_is_decoded_again_on_the_cpu)
{
    GPUFEC_REQUIRE_GPU();
    std::string cpu_only;
    auto gpu = make_gpu(cpu_only);
    if (!gpu)
        GTEST_SKIP() << "this configuration runs on the CPU only: " << cpu_only;
    make_frames(40, 1.5, 81);
    const auto c = run(*dec, soft.data(), 40);
    fault_scope fault("batch");
    async_decoder::options ao;
    ao.batch_frames = 40;
    ao.variable_lengths = gpu->variable_input();
    const std::string family = GetParam().family;
    const frame_options o = opts;
    async_decoder ad(std::move(gpu), ao, [family, o] { return make_frame_decoder(family, o, device_spec::parse("cpu")); });
    for (int round = 0; round < 2; ++round) {
        append(ad, soft.data(), 40);
        ad.submit();
        auto* sl = ad.front(true);
        ASSERT_NE(sl, nullptr);
        const std::vector<uint8_t> bits(sl->bits, sl->bits + 40 * ad.decoder().output_bytes(false));
        EXPECT_EQ(bits, c.bits) << "round " << round;
        ad.release_front();
        EXPECT_FALSE(ad.decoder().on_gpu());
    }
    auto bare = make_gpu(cpu_only);
    async_decoder ad2(std::move(bare), ao);
    append(ad2, soft.data(), 40);
    ad2.submit();
    try {
        ad2.front(true);
        ADD_FAILURE() << "a failed batch without a fallback was not reported";
    } catch (const std::exception& e) {
        expect_no_source_path(e.what());
    }
}

// real memory pressure: another allocation holds all but 40 MiB of the GPU; with device=auto
// every family decodes, right (on the CPU where its GPU engine does not fit)
TEST_P(conformance, auto_decodes_when_the_gpu_memory_is_full)
{
    GPUFEC_REQUIRE_GPU();
    make_frames(40, 1.5, 91);
    const auto c = run(*dec, soft.data(), 40);
    gpu_memory_ballast ballast(0, size_t(40) << 20);
    ASSERT_GT(ballast.held(), 0u);
    std::unique_ptr<batch_decoder> a;
    ASSERT_NO_THROW(a = make_frame_decoder(GetParam().family, opts, device_spec::parse("auto")));
    const auto r = run(*a, soft.data(), 40);
    EXPECT_EQ(r.bits, c.bits) << a->backend();
    expect_same_status(r.status, c.status);
}

INSTANTIATE_TEST_SUITE_P(families, conformance, ::testing::ValuesIn(all_configs()),
                         [](const ::testing::TestParamInfo<config>& i) {
                             return i.param.family + "_" + std::to_string(i.index);
                         });

TEST_P(conformance, gpu_batches_allocate_nothing)
{
    GPUFEC_REQUIRE_GPU();
    std::string cpu_only;
    std::unique_ptr<batch_decoder> gpu = make_gpu(cpu_only);
    if (!gpu)
        GTEST_SKIP() << "this configuration runs on the CPU only: " << cpu_only;
    // the block's path: page-locked slots of 64 frames, batches of varying size; only the
    // first batch may allocate (staging for a family's own pageable side arrays)
    make_frames(64, 2.0, 61);
    async_decoder::options ao;
    ao.batch_frames = 64;
    ao.variable_lengths = gpu->variable_input();
    async_decoder ad(std::move(gpu), ao);
    uint64_t after_first = 0;
    const size_t sizes[] = { 64, 64, 3, 64, 17, 64, 1 };
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); ++k) {
        ASSERT_NE(ad.filling(), nullptr);
        append(ad, soft.data(), sizes[k]);
        ad.submit();
        ASSERT_NE(ad.front(true), nullptr);
        ad.release_front();
        if (k == 0)
            after_first = gpu_allocations();
    }
    EXPECT_EQ(gpu_allocations(), after_first) << "a batch allocated device or page-locked memory";
}

TEST(frame_registry, lists_the_families_and_names_bad_options)
{
    const auto fams = frame_families();
    for (const char* f : { "ldpc", "viterbi", "repetition", "turbo" })
        EXPECT_NE(std::find(fams.begin(), fams.end(), f), fams.end()) << f;
    EXPECT_THROW(make_frame_decoder("nope", {}), std::invalid_argument);
    try {
        make_frame_decoder("repetition", parse_frame_options("repeat=3, colour=blue"));
        FAIL() << "an unknown option was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("repeat"), std::string::npos) << e.what();
    }
    try {
        make_frame_decoder("ldpc", parse_frame_options("max_batch=99999999"));
        FAIL() << "a huge max_batch was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("max_batch"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_frame_options("a=1, a=2"), std::invalid_argument);
    EXPECT_THROW(parse_frame_options("justakey"), std::invalid_argument);
    EXPECT_EQ(parse_frame_options(" a = 1 ,b=x y ").at("b"), "x y");
}

//! a decoder that fails (as a GPU that disappears would) after `good` batches
class failing_decoder : public batch_decoder
{
public:
    explicit failing_decoder(int good) : d_good(good) {}
    std::string family() const override { return "test"; }
    std::string describe() const override { return "test"; }
    std::string backend() const override { return "cuda:9 (test)"; }
    size_t input_per_frame() const override { return 4; }
    size_t output_bits() const override { return 4; }
    size_t preferred_batch() const override { return 2; }

protected:
    void decode_checked(const frame_batch& b) override
    {
        if (d_good-- <= 0)
            throw std::runtime_error("device lost");
        for (size_t i = 0; i < b.frames * 4; ++i)
            b.bits[i] = b.soft[i] > 0;
    }

private:
    int d_good;
};

TEST(async_decoder, falls_back_when_the_decoder_fails_and_reports_without_fallback)
{
    async_decoder::options ao;
    auto fill = [](async_decoder& ad, int8_t v) {
        auto* s = ad.filling();
        ASSERT_NE(s, nullptr);
        std::fill(s->soft, s->soft + 8, v);
        s->frames = 2;
        s->used = 8;
        ad.submit();
    };
    {
        async_decoder ad(std::make_unique<failing_decoder>(1), ao,
                         [] { return std::make_unique<failing_decoder>(1000); });
        fill(ad, 5);
        fill(ad, -5); // the first decoder fails here; the fallback decodes it
        auto* s = ad.front(true);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->bits[0], 1);
        ad.release_front();
        s = ad.front(true);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->bits[0], 0);
        ad.release_front();
    }
    {
        async_decoder ad(std::make_unique<failing_decoder>(0), ao);
        fill(ad, 5);
        EXPECT_THROW(ad.front(true), std::runtime_error);
        EXPECT_EQ(ad.unreleased(), 0u); // the failed batch does not block the ring
    }
}

} // namespace
} // namespace gpufec
