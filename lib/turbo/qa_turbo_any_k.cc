/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* code=lte:any: frames of different K in one batch, K read from each frame's length. Each frame
 * must come out as the decoder made for its K alone decodes it (bits, iterations, CRC). */
#include <gnuradio/gpufec/core/frame/async_decoder.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/codes/interleaver.h>
#include <gnuradio/gpufec/core/runtime/device.h>

#include "frame/multi_length_decoder.h"
#include "testing/test_util.h"
#include "turbo_test_util.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <map>

namespace gpufec {
namespace {

struct mixed_batch {
    std::vector<int> ks;           // K of each frame, in batch order
    std::vector<size_t> lengths;   // 3K + 12
    std::vector<int8_t> soft;      // back to back
    std::map<int, std::vector<int8_t>> by_k; // each K's frames, in order
};

// frames of the given K (in this order) at an Eb/N0 where some fail, so iterations vary
mixed_batch make_mixed(const std::vector<int>& ks, const std::string& extra, double ebn0, uint32_t seed)
{
    mixed_batch m;
    m.ks = ks;
    std::map<int, size_t> count;
    for (int K : ks)
        count[K]++;
    std::map<int, turbo_test::noisy_frames*> src;
    std::vector<std::unique_ptr<turbo_test::noisy_frames>> keep;
    for (const auto& [K, n] : count) {
        keep.push_back(std::make_unique<turbo_test::noisy_frames>("code=lte:" + std::to_string(K) + extra, ebn0, n,
                                                                  seed + uint32_t(K)));
        src[K] = keep.back().get();
        m.by_k[K] = keep.back()->soft;
    }
    std::map<int, size_t> next;
    for (int K : ks) {
        const size_t n = size_t(3 * K + 12), f = next[K]++;
        const int8_t* p = src[K]->soft.data() + f * n;
        m.soft.insert(m.soft.end(), p, p + n);
        m.lengths.push_back(n);
    }
    return m;
}

//! two sizes of one transport block, a few others, out of order; more than the decoders kept
std::vector<int> some_sizes()
{
    std::vector<int> ks;
    for (int r = 0; r < 3; ++r)
        for (int K : { 6144, 6080, 40, 1024, 6144, 512, 6080, 72, 2048, 104, 3072, 40, 4096, 152, 768 })
            ks.push_back(K);
    return ks;
}

void expect_like_one_k_decoders(const std::string& extra, bool packed, const std::vector<int>& ks = some_sizes())
{
    const mixed_batch m = make_mixed(ks, extra, 0.6, 7);
    auto any = make_frame_decoder("turbo", parse_frame_options("code=lte:any" + extra));
    ASSERT_TRUE(any->variable_input());
    const size_t stride = any->output_bytes(packed);
    std::vector<uint8_t> bits(ks.size() * stride, 0xEE);
    std::vector<frame_status> st(ks.size());
    frame_batch b;
    b.frames = ks.size();
    b.soft = m.soft.data();
    b.input_lengths = m.lengths.data();
    b.bits = bits.data();
    b.packed = packed;
    b.status = st.data();
    any->decode(b);

    std::map<int, size_t> next;
    std::map<int, std::pair<std::vector<uint8_t>, std::vector<frame_status>>> ref;
    for (const auto& [K, soft] : m.by_k) {
        auto one = make_frame_decoder("turbo", parse_frame_options("code=lte:" + std::to_string(K) + extra));
        const size_t frames = soft.size() / one->input_per_frame();
        auto& [rb, rs] = ref[K];
        rb.resize(frames * one->output_bytes(packed));
        rs.resize(frames);
        frame_batch rbatch;
        rbatch.frames = frames;
        rbatch.soft = soft.data();
        rbatch.bits = rb.data();
        rbatch.packed = packed;
        rbatch.status = rs.data();
        one->decode(rbatch);
        EXPECT_EQ(any->output_bits_for(size_t(3 * K + 12)), one->output_bits()) << "K=" << K;
    }
    int failed = 0;
    for (size_t f = 0; f < ks.size(); ++f) {
        const int K = ks[f];
        const size_t i = next[K]++;
        const auto& [rb, rs] = ref[K];
        const size_t ob = packed ? (any->output_bits_for(m.lengths[f]) + 7) / 8 : any->output_bits_for(m.lengths[f]);
        EXPECT_TRUE(std::equal(rb.begin() + long(i * ob), rb.begin() + long((i + 1) * ob), bits.begin() + long(f * stride)))
            << "frame " << f << " K=" << K;
        EXPECT_EQ(st[f].iterations, rs[i].iterations) << "frame " << f << " K=" << K;
        EXPECT_EQ(st[f].check, rs[i].check) << "frame " << f << " K=" << K;
        failed += st[f].check == 0;
    }
    if (extra.find("crc") != std::string::npos) // the test means something only if some frames fail
        EXPECT_GT(failed, 0);
}

//! a multi-length decoder of LTE K up to 2048 with a 24-bit CRC, each K's decoder on the CPU
multi_length_spec cpu_spec_up_to_2048(const std::string& opts)
{
    multi_length_spec s;
    s.describe = "LTE turbo, some K";
    s.lengths_text = "3K + 12";
    s.min_input = 3 * 40 + 12;
    s.max_input = 3 * 2048 + 12;
    s.accepts = [](size_t n) { return (n - 12) % 3 == 0; };
    s.output_bits_for = [](size_t n) { return (n - 12) / 3 - 24; };
    s.make = [opts](size_t n) {
        return make_frame_decoder("turbo",
                                  parse_frame_options("code=lte:" + std::to_string((n - 12) / 3) + ", " + opts),
                                  device_spec::parse("cpu"));
    };
    return s;
}

TEST(turbo_any_k, mixed_sizes_decode_as_their_own_decoders)
{
    expect_like_one_k_decoders("", false);
}

TEST(turbo_any_k, pieces_gathered_ahead_give_what_whole_groups_give)
{
    // the multi-length decoder cutting groups into pieces of a few frames (a helper thread
    // gathers the next while one is decoded) against the same batch in whole groups; the
    // K = 2048 frames lie back to back at the end (a group decoded in place, between pieces)
    std::vector<int> ks;
    for (int r = 0; r < 5; ++r)
        for (int K : { 1024, 512, 40, 1024, 72, 512 })
            ks.push_back(K);
    for (int r = 0; r < 3; ++r)
        ks.push_back(2048);
    const mixed_batch m = make_mixed(ks, ", crc=lte-24b, max_iterations=6", 0.6, 9);
    auto make = [](size_t piece_bytes) {
        multi_length_spec s = cpu_spec_up_to_2048("crc=lte-24b, max_iterations=6");
        s.piece_bytes = piece_bytes;
        return make_multi_length_decoder(std::move(s));
    };
    std::vector<std::vector<uint8_t>> bits;
    std::vector<std::vector<frame_status>> status;
    for (size_t piece_bytes : { size_t(0), size_t(7000), size_t(1) }) { // whole groups; 1-2 frames; 1 frame
        auto dec = make(piece_bytes);
        bits.emplace_back(ks.size() * dec->output_bytes(true), 0xEE);
        status.emplace_back(ks.size());
        frame_batch b;
        b.frames = ks.size();
        b.soft = m.soft.data();
        b.input_lengths = m.lengths.data();
        b.bits = bits.back().data();
        b.packed = true;
        b.status = status.back().data();
        dec->decode(b);
    }
    int failed = 0;
    for (size_t v = 1; v < bits.size(); ++v) {
        EXPECT_EQ(bits[v], bits[0]) << "pieces " << v;
        for (size_t f = 0; f < ks.size(); ++f) {
            EXPECT_EQ(status[v][f].iterations, status[0][f].iterations) << "frame " << f;
            EXPECT_EQ(status[v][f].check, status[0][f].check) << "frame " << f;
        }
    }
    for (const auto& st : status[0])
        failed += st.check == 0;
    EXPECT_GT(failed, 0); // some frames fail, so iterations and checks differ between frames
}

TEST(turbo_any_k, whole_batch_decoder_gives_what_the_groups_give)
{
    // spec.make_mixed (on a GPU: the engine that decodes every K where it lies) stood in for by a
    // second wrapper of groups, a decoder of whole mixed batches: the wrapper's own results must
    // be those of the groups, packed and not, and past a frame's own bits its stride left alone
    std::vector<int> ks;
    for (int r = 0; r < 4; ++r)
        for (int K : { 1024, 40, 512, 1024, 72, 2048, 512 })
            ks.push_back(K);
    const std::string opts = "crc=lte-24b, max_iterations=6";
    const mixed_batch m = make_mixed(ks, ", " + opts, 0.6, 13);
    multi_length_spec with = cpu_spec_up_to_2048(opts);
    int made = 0;
    with.make_mixed = [&]() -> std::unique_ptr<batch_decoder> {
        ++made;
        return make_multi_length_decoder(cpu_spec_up_to_2048(opts));
    };
    auto whole = make_multi_length_decoder(std::move(with));
    auto groups = make_multi_length_decoder(cpu_spec_up_to_2048(opts));
    EXPECT_EQ(made, 1);
    for (bool packed : { true, false }) {
        std::vector<uint8_t> bits[2];
        std::vector<frame_status> st[2];
        int v = 0;
        for (batch_decoder* dec : { whole.get(), groups.get() }) {
            bits[v].assign(ks.size() * dec->output_bytes(packed), 0xEE);
            st[v].resize(ks.size());
            frame_batch b;
            b.frames = ks.size();
            b.soft = m.soft.data();
            b.input_lengths = m.lengths.data();
            b.bits = bits[v].data();
            b.packed = packed;
            b.status = st[v].data();
            dec->decode(b);
            ++v;
        }
        EXPECT_EQ(bits[0], bits[1]) << "packed " << packed;
        int failed = 0;
        for (size_t f = 0; f < ks.size(); ++f) {
            EXPECT_EQ(st[0][f].iterations, st[1][f].iterations) << "frame " << f;
            EXPECT_EQ(st[0][f].check, st[1][f].check) << "frame " << f;
            failed += st[0][f].check == 0;
        }
        EXPECT_GT(failed, 0); // some frames fail, so iterations and checks differ between frames
        const size_t stride = whole->output_bytes(packed), own = packed ? (40 - 24) / 8 : 40 - 24;
        EXPECT_EQ(bits[0][1 * stride + own], 0xEE); // frame 1 (K = 40): the rest of its stride untouched
    }
}

TEST(turbo_any_k, mixed_sizes_with_crc_early_stop_packed)
{
    expect_like_one_k_decoders(", crc=lte-24b, max_iterations=8", true);
}

TEST(turbo_any_k, gpu_decodes_every_k_in_one_batch_chunk_by_chunk)
{
    // on a GPU, code=lte:any runs the engine of every K (frames where they lie); chunks of 6
    // frames (max_batch) hold one to six K each, odd counts of a K among them
    if (cuda_devices().empty())
        GTEST_SKIP() << "no usable CUDA device";
    auto any = make_frame_decoder("turbo", parse_frame_options("code=lte:any, crc=lte-24b"));
    EXPECT_NE(any->backend().find("any K in one batch"), std::string::npos) << any->backend();
    expect_like_one_k_decoders(", crc=lte-24b, max_iterations=8, max_batch=5", true);
    expect_like_one_k_decoders(", max_iterations=4, max_batch=5", false);
    // every one of the 188 K in one chunk (188 runs of one frame each, in descending order), and
    // three of the largest
    std::vector<int> every = interleaver::lte_sizes();
    std::reverse(every.begin(), every.end());
    every.insert(every.end(), { 6144, 6144, 6144 });
    expect_like_one_k_decoders(", crc=lte-24a, max_iterations=5", true, every);
}

TEST(turbo_any_k, packed_4bit_input_gives_the_bits_of_its_unpacked_values)
{
    // read packed by the GPU engine (where there is one), unpacked for the groups on the CPU
    auto any = make_frame_decoder("turbo", parse_frame_options("code=lte:any, crc=lte-24b"));
    EXPECT_EQ(any->takes_soft4(), any->on_gpu()) << any->backend();
    const mixed_batch m = make_mixed(some_sizes(), ", crc=lte-24b", 0.6, 5);
    std::vector<uint8_t> four((m.soft.size() + 1) / 2);
    pack_soft4(m.soft.data(), four.data(), m.soft.size());
    std::vector<int8_t> unpacked(m.soft.size());
    unpack_soft4(four.data(), unpacked.data(), unpacked.size());
    const size_t frames = m.lengths.size(), stride = any->output_bytes(true);
    std::vector<uint8_t> a(frames * stride, 0xEE), b(frames * stride, 0xEE);
    std::vector<frame_status> sa(frames), sb(frames);
    frame_batch ba, bb;
    ba.frames = bb.frames = frames;
    ba.input_lengths = bb.input_lengths = m.lengths.data();
    ba.packed = bb.packed = true;
    ba.soft = unpacked.data();
    bb.soft4 = four.data();
    ba.bits = a.data();
    bb.bits = b.data();
    ba.status = sa.data();
    bb.status = sb.data();
    any->decode(ba);
    any->decode(bb);
    EXPECT_EQ(a, b);
    int failed = 0;
    for (size_t f = 0; f < frames; ++f) {
        EXPECT_EQ(sa[f].iterations, sb[f].iterations) << "frame " << f;
        EXPECT_EQ(sa[f].check, sb[f].check) << "frame " << f;
        failed += sa[f].check == 0;
    }
    EXPECT_GT(failed, 0);
}

TEST(turbo_any_k, reference_engine_and_soft_output)
{
    const std::vector<int> ks = { 40, 48, 40 };
    const mixed_batch m = make_mixed(ks, ", engine=reference", 1.0, 3);
    auto any = make_frame_decoder("turbo", parse_frame_options("code=lte:any, engine=reference"));
    ASSERT_EQ(any->soft_output_per_frame(), 6144u);
    std::vector<uint8_t> bits(ks.size() * any->output_bits());
    std::vector<float> soft(ks.size() * any->soft_output_per_frame(), -99.f);
    frame_batch b;
    b.frames = ks.size();
    b.soft = m.soft.data();
    b.input_lengths = m.lengths.data();
    b.bits = bits.data();
    b.soft_out = soft.data();
    any->decode(b);
    auto one = make_frame_decoder("turbo", parse_frame_options("code=lte:40, engine=reference"));
    std::vector<uint8_t> rb(2 * 40);
    std::vector<float> rs(2 * 40);
    frame_batch r;
    r.frames = 2;
    r.soft = m.by_k.at(40).data();
    r.bits = rb.data();
    r.soft_out = rs.data();
    one->decode(r);
    for (size_t k = 0; k < 40; ++k) { // frames 0 and 2 are K = 40's frames 0 and 1
        EXPECT_EQ(soft[k], rs[k]);
        EXPECT_EQ(soft[2 * 6144 + k], rs[40 + k]);
    }
    EXPECT_EQ(soft[40], -99.f); // past a frame's K the stride is left alone
    EXPECT_EQ(soft[6144 + 48], -99.f);
}

TEST(turbo_any_k, async_slots_of_variable_frames)
{
    // frames appended one at a time; a slot that is full says so and the next one takes the frame
    const std::vector<int> ks = { 6144, 40, 2048, 40, 6144, 512, 104 };
    const mixed_batch m = make_mixed(ks, "", 0.7, 11);
    const auto opts = parse_frame_options("code=lte:any, max_batch=3");
    auto sync = make_frame_decoder("turbo", opts);
    std::vector<uint8_t> want(ks.size() * sync->output_bits());
    std::vector<frame_status> want_st(ks.size());
    frame_batch b;
    b.frames = ks.size();
    b.soft = m.soft.data();
    b.input_lengths = m.lengths.data();
    b.bits = want.data();
    b.packed = true;
    b.status = want_st.data();
    sync->decode(b);

    async_decoder::options ao;
    ao.packed = true;
    ao.variable_lengths = true;
    async_decoder ad(make_frame_decoder("turbo", opts), ao);
    ASSERT_EQ(ad.batch_frames(), 3u);
    std::vector<int8_t> fixed(10, 1);
    EXPECT_THROW(ad.append(fixed.data(), 1), std::logic_error); // variable slots take append_frame
    size_t at = 0, f = 0, out = 0;
    const size_t stride = sync->output_bytes(true);
    auto read_all = [&] {
        while (auto* s = ad.front(true)) {
            for (size_t i = 0; i < s->frames; ++i, ++out) {
                EXPECT_EQ(s->lengths[i], m.lengths[out]);
                const size_t bytes = (sync->output_bits_for(m.lengths[out]) + 7) / 8; // (the rest of the stride is not written)
                EXPECT_TRUE(std::equal(s->bits + i * stride, s->bits + i * stride + bytes, want.begin() + long(out * stride)))
                    << "frame " << out;
                EXPECT_EQ(s->status[i].iterations, want_st[out].iterations);
            }
            ad.release_front();
            if (ad.unreleased() == 0)
                break;
        }
    };
    while (f < ks.size()) {
        ASSERT_NE(ad.filling(), nullptr);
        if (ad.append_frame(m.soft.data() + at, m.lengths[f])) {
            at += m.lengths[f++];
            continue;
        }
        ad.submit();
        read_all();
    }
    ad.submit();
    read_all();
    EXPECT_EQ(out, ks.size());
}

TEST(turbo_any_k, lengths_that_are_no_lte_size_are_refused)
{
    auto any = make_frame_decoder("turbo", parse_frame_options("code=lte:any"));
    EXPECT_TRUE(any->accepts_length(3 * 40 + 12));
    EXPECT_TRUE(any->accepts_length(3 * 6144 + 12));
    EXPECT_FALSE(any->accepts_length(3 * 41 + 12)); // not one of the 188 K
    EXPECT_FALSE(any->accepts_length(3 * 512 + 13));
    EXPECT_FALSE(any->accepts_length(3 * 6152 + 12));
    EXPECT_FALSE(any->accepts_length(0));
    std::vector<int8_t> soft(3 * 6144 + 12, 5);
    const size_t lens[2] = { 3 * 40 + 12, 3 * 41 + 12 };
    std::vector<uint8_t> bits(2 * any->output_bits());
    frame_batch b;
    b.frames = 2;
    b.soft = soft.data();
    b.input_lengths = lens;
    b.bits = bits.data();
    try {
        any->decode(b);
        FAIL() << "a frame of 135 values was decoded";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("frame 1 has 135"), std::string::npos) << e.what();
    }
    EXPECT_THROW(make_frame_encoder("turbo", parse_frame_options("code=lte:any")), std::invalid_argument);
    EXPECT_THROW(make_frame_decoder("turbo", parse_frame_options("code=ccsds:any")), std::invalid_argument);
}

} // namespace
} // namespace gpufec
