/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one decoder over engines and the pooled adapter (frame/frame_engine.h), each of what a
 * frame_shape can ask for, with a toy engine whose answer is known: a frame's decisions are the
 * signs of its values (positive = 1). Every expectation is computed here from the input, not by
 * the code under test. */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "frame/frame_engine.h"
#include <gtest/gtest.h>
#include <atomic>
#include <random>

namespace gpufec {
namespace {

//! decisions = signs; soft output = the values; what it was given, remembered
class sign_engine : public frame_engine
{
public:
    explicit sign_engine(size_t n) : d_n(n) {}
    std::string name() const override { return "cpu (sign test engine)"; }
    void run(const engine_batch& in, const engine_output& out) override
    {
        saw_lengths = in.lengths != nullptr;
        const size_t bytes = (d_n + 7) / 8;
        size_t at = 0;
        for (size_t f = 0; f < in.frames; ++f) {
            const size_t len = in.lengths ? in.lengths[f] : d_n;
            uint8_t* p = out.packed + f * bytes;
            std::fill(p, p + bytes, uint8_t(0));
            for (size_t i = 0; i < std::min(len, d_n); ++i) {
                const float v = in.soft_f ? in.soft_f[at + i] : float(in.soft[at + i]);
                set_packed_bit(p, i, v > 0);
                if (out.soft_out)
                    out.soft_out[f * d_n + i] = v;
            }
            out.status[f] = frame_status{ int32_t(len), -1, 0 };
            at += len;
        }
    }
    bool saw_lengths = false;

private:
    size_t d_n;
};

frame_shape sign_shape(size_t n)
{
    frame_shape s;
    s.family = "test";
    s.description = "signs";
    s.input_per_frame = n;
    s.output_bits = n;
    return s;
}

std::vector<int8_t> random_soft(size_t count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<int8_t> v(count);
    for (auto& x : v)
        x = int8_t(int(rng() % 255) - 127);
    return v;
}

//! the soft output of a batch (n values a frame)
std::vector<float> soft_output(batch_decoder& dec, const std::vector<int8_t>& soft, size_t frames, size_t n)
{
    std::vector<float> so(frames * n);
    std::vector<uint8_t> bits(frames * dec.output_bits());
    frame_batch b;
    b.frames = frames;
    b.soft = soft.data();
    b.bits = bits.data();
    b.soft_out = so.data();
    dec.decode(b);
    return so;
}

//! decodes to unpacked and to packed bits and checks both against `want` (frames x k bits)
void expect_bits(batch_decoder& dec, const std::vector<int8_t>& soft, size_t frames,
                 const std::vector<uint8_t>& want, const size_t* lengths = nullptr)
{
    const size_t k = dec.output_bits(), bytes = (k + 7) / 8;
    for (bool packed : { false, true }) {
        std::vector<uint8_t> out(frames * (packed ? bytes : k), 0xAA);
        frame_batch b;
        b.frames = frames;
        b.soft = soft.data();
        b.input_lengths = lengths;
        b.bits = out.data();
        b.packed = packed;
        dec.decode(b);
        for (size_t f = 0; f < frames; ++f)
            for (size_t i = 0; i < k; ++i) {
                const uint8_t got = packed ? packed_bit(out.data() + f * bytes, i) : out[f * k + i];
                ASSERT_EQ(got, want[f * k + i]) << (packed ? "packed" : "unpacked") << " frame " << f << " bit " << i;
            }
        if (packed && k % 8) // the last byte's unused bits are cleared
            for (size_t f = 0; f < frames; ++f)
                EXPECT_EQ(out[f * bytes + bytes - 1] & uint8_t(0xFF >> (k % 8)), 0) << "frame " << f;
    }
}

TEST(engine_decoder, input_order_feeds_the_engine_its_layout)
{
    const size_t n = 21, frames = 5;
    frame_shape s = sign_shape(n);
    for (size_t i = 0; i < n; ++i)
        s.input_order.push_back(int32_t(n - 1 - i)); // the engine reads the frame backwards
    auto dec = make_engine_decoder(s, std::make_unique<sign_engine>(n), 0);
    const auto soft = random_soft(frames * n, 1);
    std::vector<uint8_t> want(frames * n);
    for (size_t f = 0; f < frames; ++f)
        for (size_t i = 0; i < n; ++i)
            want[f * n + i] = soft[f * n + n - 1 - i] > 0;
    expect_bits(*dec, soft, frames, want);
    EXPECT_LT(dec->time_kernels(soft.data(), frames, 1), 0); // (not the engine's own layout: not timed)
}

TEST(engine_decoder, input_order_fills_erasures_and_known_bits_around_the_frame)
{
    // frames of 6 sent values; the engine reads 10: two erased, a known 0, a known 1 between them
    const size_t sent = 6, n = 10, frames = 300;
    frame_shape s = sign_shape(n);
    s.input_per_frame = sent;
    s.soft_output = n;
    s.input_order = { input_erased, input_erased, 0, 1, 2, input_known_zero, 3, 4, input_known_one, 5 };
    auto dec = make_engine_decoder(s, std::make_unique<sign_engine>(n), 0);
    EXPECT_EQ(dec->input_per_frame(), sent);
    const auto soft = random_soft(frames * sent, 5);
    const std::vector<float> so = soft_output(*dec, soft, frames, n);
    for (size_t f = 0; f < frames; ++f) {
        const float* v = so.data() + f * n;
        const int8_t* x = soft.data() + f * sent;
        const float want[] = { 0, 0, float(x[0]), float(x[1]), float(x[2]), -127, float(x[3]), float(x[4]), 127, float(x[5]) };
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(v[i], want[i]) << "frame " << f << " value " << i;
    }
    // float input: a known bit is the largest value the float path takes
    std::vector<float> fsoft(sent, 0.5f), fso(n);
    std::vector<uint8_t> fbits(n);
    frame_batch fb;
    fb.frames = 1;
    fb.soft_f = fsoft.data();
    fb.bits = fbits.data();
    fb.soft_out = fso.data();
    frame_shape fs = s;
    fs.wants_float = true;
    auto fdec = make_engine_decoder(fs, std::make_unique<sign_engine>(n), 0);
    fdec->decode(fb);
    EXPECT_EQ(fso[5], -1e30f);
    EXPECT_EQ(fso[8], 1e30f);
    EXPECT_EQ(fso[0], 0.f);
    EXPECT_EQ(fso[2], 0.5f);
}

TEST(engine_decoder, output_order_selects_bits_and_engine_bits_may_exceed_the_output)
{
    const size_t n = 30, frames = 4;
    const std::vector<int32_t> pick = { 29, 0, 7, 8, 15, 3, 22, 11, 1, 5, 2 };
    frame_shape s = sign_shape(n);
    s.output_bits = pick.size();
    s.packed_bits = n;
    s.output_order = pick;
    auto dec = make_engine_decoder(s, std::make_unique<sign_engine>(n), 0);
    const auto soft = random_soft(frames * n, 2);
    std::vector<uint8_t> want;
    for (size_t f = 0; f < frames; ++f)
        for (int32_t j : pick)
            want.push_back(soft[f * n + size_t(j)] > 0);
    expect_bits(*dec, soft, frames, want);

    // the leading bits only (turbo: the code block without its CRC)
    frame_shape lead = sign_shape(n);
    lead.output_bits = n - 11;
    lead.packed_bits = n;
    auto dec2 = make_engine_decoder(lead, std::make_unique<sign_engine>(n), 0);
    want.clear();
    for (size_t f = 0; f < frames; ++f)
        for (size_t i = 0; i < n - 11; ++i)
            want.push_back(soft[f * n + i] > 0);
    expect_bits(*dec2, soft, frames, want);
}

TEST(engine_decoder, post_frame_runs_on_every_frame_and_its_soft_output)
{
    const size_t n = 16, frames = 300; // (frames split over the CPU pool)
    frame_shape s = sign_shape(n);
    s.soft_output = n;
    std::atomic<int> calls{ 0 };
    s.post_frame = [&calls](uint8_t* packed, float* soft, frame_status& st) {
        packed[0] ^= 0xFF; // the first 8 decisions inverted
        st.inner = st.check; // a step may rewrite the status (an outer code's verdict)
        st.check = 1;
        if (soft)
            soft[0] = -soft[0];
        ++calls;
    };
    auto dec = make_engine_decoder(s, std::make_unique<sign_engine>(n), 0);
    const auto soft = random_soft(frames * n, 3);
    std::vector<uint8_t> want(frames * n);
    for (size_t f = 0; f < frames; ++f)
        for (size_t i = 0; i < n; ++i)
            want[f * n + i] = uint8_t((soft[f * n + i] > 0) ^ (i < 8));
    expect_bits(*dec, soft, frames, want);
    EXPECT_EQ(calls.load(), int(2 * frames));
    calls = 0;
    // the step's status reaches the caller: the engine's check (-1) moved to inner, check 1
    std::vector<frame_status> st(frames);
    std::vector<uint8_t> bits(frames * n);
    frame_batch b;
    b.frames = frames;
    b.soft = soft.data();
    b.bits = bits.data();
    b.status = st.data();
    dec->decode(b);
    for (size_t f = 0; f < frames; ++f) {
        EXPECT_EQ(int(st[f].inner), -1) << f;
        EXPECT_EQ(int(st[f].check), 1) << f;
    }
    const std::vector<float> so = soft_output(*dec, soft, frames, n);
    for (size_t f = 0; f < frames; ++f) {
        EXPECT_EQ(so[f * n], -float(soft[f * n]));
        EXPECT_EQ(so[f * n + 1], float(soft[f * n + 1]));
    }
}

TEST(engine_decoder, variable_frames_reach_the_engine_with_lengths)
{
    const size_t n = 12;
    frame_shape s = sign_shape(n);
    s.variable = true;
    s.min_input = 4;
    s.lengths_text = "4..12 values";
    auto eng = std::make_unique<sign_engine>(n);
    sign_engine* e = eng.get();
    auto dec = make_engine_decoder(s, std::move(eng), 0);
    EXPECT_TRUE(dec->variable_input());
    EXPECT_EQ(dec->min_input_per_frame(), 4u);
    EXPECT_EQ(dec->accepted_lengths(), "4..12 values");
    EXPECT_FALSE(dec->accepts_length(3));
    EXPECT_TRUE(dec->accepts_length(12));
    // no lengths given: every frame the longest, and the engine still gets lengths
    const auto soft = random_soft(3 * n, 4);
    std::vector<uint8_t> want(3 * n);
    for (size_t i = 0; i < want.size(); ++i)
        want[i] = soft[i] > 0;
    expect_bits(*dec, soft, 3, want);
    EXPECT_TRUE(e->saw_lengths);
    // lengths given: frames back to back, results at the longest frame's stride
    const std::vector<size_t> lengths = { 5, 12, 4 };
    std::vector<uint8_t> out(3 * n, 7);
    std::vector<frame_status> st(3);
    frame_batch b;
    b.frames = 3;
    b.soft = soft.data();
    b.input_lengths = lengths.data();
    b.bits = out.data();
    b.status = st.data();
    dec->decode(b);
    size_t at = 0;
    for (size_t f = 0; f < 3; ++f) {
        EXPECT_EQ(st[f].iterations, int32_t(lengths[f]));
        for (size_t i = 0; i < lengths[f]; ++i)
            EXPECT_EQ(out[f * n + i], uint8_t(soft[at + i] > 0)) << "frame " << f << " bit " << i;
        at += lengths[f];
    }
}

TEST(engine_decoder, shapes_that_cannot_work_are_refused)
{
    frame_shape s = sign_shape(8);
    s.output_order = { 0, 9 }; // names a bit the engine does not write
    s.output_bits = 2;
    EXPECT_THROW(make_engine_decoder(s, std::make_unique<sign_engine>(8), 0), std::logic_error);
    frame_shape t = sign_shape(8);
    t.input_order = { 0, 8 }; // a value the frame does not have
    EXPECT_THROW(make_engine_decoder(t, std::make_unique<sign_engine>(2), 0), std::logic_error);
    t.input_order = { 0, -9 }; // not a value nor a fill
    EXPECT_THROW(make_engine_decoder(t, std::make_unique<sign_engine>(2), 0), std::logic_error);
    EXPECT_THROW(make_engine_decoder(sign_shape(8), nullptr, 0), std::logic_error);
}

//! a per-frame worker: decisions = signs of the frame's values, read through engine_frame::value
class sign_worker : public frame_worker
{
public:
    explicit sign_worker(std::atomic<int>& made) { ++made; }
    void decode(const engine_frame& f) override
    {
        for (size_t i = 0; i < f.length; ++i) {
            set_packed_bit(f.packed, i, f.value(i) > 0);
            if (f.soft_out)
                f.soft_out[i] = f.value(i);
        }
        *f.status = frame_status{ int32_t(f.length), 1, 0 };
    }
};

TEST(pooled_engine, a_worker_per_thread_and_each_frame_where_it_lies)
{
    std::atomic<int> made{ 0 };
    pooled_engine_spec p;
    p.name = "cpu test reference";
    p.cpu_threads = 2;
    p.input_per_frame = 10;
    p.packed_bytes = 2;
    p.soft_output = 10;
    p.make_worker = [&made] { return std::make_unique<sign_worker>(made); };
    auto eng = make_pooled_engine(p);
    EXPECT_EQ(made.load(), 2);
    EXPECT_NE(eng->name().find("cpu test reference (2 threads"), std::string::npos) << eng->name();
    // variable frames, int8 with -128 read as -127, and float
    const std::vector<size_t> lengths = { 10, 3, 7, 1 };
    std::vector<int8_t> soft = { -128, 5, -3, 0, 9, 1, -1, 2, -2, 127, 4, -4, 6, 8, 8, -8, 1, 1, -1, 3, -5 };
    std::vector<uint8_t> packed(4 * 2, 0);
    std::vector<frame_status> st(4);
    std::vector<float> so(4 * 10, 99.f);
    engine_batch in;
    in.soft = soft.data();
    in.lengths = lengths.data();
    in.frames = 4;
    engine_output out;
    out.packed = packed.data();
    out.status = st.data();
    out.soft_out = so.data();
    eng->run(in, out);
    size_t at = 0;
    for (size_t f = 0; f < 4; ++f) {
        EXPECT_EQ(st[f].iterations, int32_t(lengths[f]));
        for (size_t i = 0; i < lengths[f]; ++i) {
            EXPECT_EQ(packed_bit(packed.data() + f * 2, i), soft[at + i] > 0) << f << " " << i;
            EXPECT_EQ(so[f * 10 + i], float(std::max<int8_t>(soft[at + i], -127)));
        }
        if (lengths[f] < 10) // nothing written past the frame
            EXPECT_EQ(so[f * 10 + lengths[f]], 99.f);
        at += lengths[f];
    }
    std::vector<float> fl = { 0.5f, -0.25f, 3.f };
    engine_batch fin;
    fin.soft_f = fl.data();
    fin.frames = 1;
    std::vector<size_t> three = { 3 };
    fin.lengths = three.data();
    std::vector<uint8_t> one(2, 0);
    engine_output fout;
    fout.packed = one.data();
    fout.status = st.data();
    eng->run(fin, fout);
    EXPECT_EQ(one[0], 0xA0); // 1 0 1
}

} // namespace
} // namespace gpufec
