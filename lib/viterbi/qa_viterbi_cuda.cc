/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CUDA engine against the CPU reference: bit-exact on the same quantised input. These
 * tests skip where there is no usable GPU. */
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include <gtest/gtest.h>

#include "testing/test_util.h"
#include <thread>

using namespace gpufec;

namespace {

conv_code make_code(int k, std::vector<int> polys, std::vector<uint8_t> punct = {})
{
    conv_code c;
    c.k = k;
    c.polys = std::move(polys);
    c.puncture = std::move(punct);
    return c;
}

std::vector<conv_code> gpu_codes()
{
    return { make_code(3, { 7, 5 }),       conv_code{ 5, polys_from_octal({ 23, 35 }, 5), {} },
             make_code(6, { 53, 47, 61 }), conv_code::preset("ccsds"),
             conv_code::preset("80211-3/4"), conv_code::preset("dvbs-7/8"),
             conv_code::preset("lte"),      make_code(7, { 91, 101, 117, 79 }),
             make_code(8, { 229, 159 }),    make_code(9, { 501, 283 }),
             make_code(9, { 501, 283, 367, 431 }) };
}

//! soft values of a random stream of nbits through the code and the channel at ebn0
std::vector<int8_t> stream_soft(const conv_code& c, size_t nbits, double ebn0, uint32_t seed)
{
    conv_encoder enc(c, conv_mode::streaming);
    const auto bits = test::random_bits(nbits, seed);
    std::vector<uint8_t> coded(nbits * c.n());
    coded.resize(enc.encode(bits.data(), nbits, coded.data()));
    return test::channel(coded, test::code_rate(c), ebn0, seed + 1);
}

} // namespace

TEST(viterbi_cuda, frames_bit_exact_against_cpu_reference)
{
    GPUFEC_REQUIRE_GPU();
    for (const auto& c : gpu_codes())
        for (auto mode : { conv_mode::terminated, conv_mode::tailbiting, conv_mode::truncated })
            for (int batch : { 1, 33, 1000 }) {
                const int fb = 8 * c.period() * 9;
                conv_encoder enc(c, mode, fb);
                const auto bits = test::random_bits(size_t(fb) * batch, batch);
                std::vector<uint8_t> coded(enc.output_per_frame() * batch);
                enc.encode_frames(bits.data(), batch, coded.data());
                const auto soft = test::channel(coded, test::code_rate(c), 1.5, 3);
                viterbi_options o;
                o.mode = mode;
                o.frame_bits = fb;
                o.max_batch = 97; // several chunks over the pipeline's streams
                viterbi_frame_decoder gpu(c, o, device_spec::parse("cuda"));
                o.cpu_reference = true;
                viterbi_frame_decoder ref(c, o, device_spec::parse("cpu"));
                std::vector<uint8_t> a(bits.size(), 9), b(bits.size(), 7);
                gpu.decode(soft.data(), batch, a.data());
                ref.decode(soft.data(), batch, b.data());
                ASSERT_EQ(a, b) << c.describe() << " " << to_string(mode) << " batch " << batch;
            }
}

TEST(viterbi_cuda, stream_bit_exact_against_cpu_reference)
{
    GPUFEC_REQUIRE_GPU();
    for (const auto& c : gpu_codes())
        for (int D : { 64, 512 }) {
            const auto soft = stream_soft(c, 7 * 5 * 3 * 2000, 2.0, 77);
            viterbi_options o;
            o.block_len = D;
            o.max_batch = 37;
            viterbi_stream_decoder gpu(c, o, device_spec::parse("cuda"));
            o.cpu_reference = true;
            viterbi_stream_decoder ref(c, o, device_spec::parse("cpu"));
            // odd push sizes through the GPU, one push through the reference
            std::vector<uint8_t> a, b(ref.available());
            const size_t m = gpu.input_multiple();
            for (size_t pos = 0, step = 1; pos < soft.size(); step = step * 7 % 1031 + 1) {
                const size_t len = std::min(step * m, soft.size() - pos);
                gpu.push(soft.data() + pos, len);
                pos += len;
                std::vector<uint8_t> buf(gpu.available());
                gpu.read(buf.data(), buf.size());
                a.insert(a.end(), buf.begin(), buf.end());
            }
            ref.push(soft.data(), soft.size());
            b.resize(ref.available());
            ref.read(b.data(), b.size());
            ASSERT_EQ(a.size(), b.size());
            ASSERT_EQ(a, b) << c.describe() << " D=" << D;
        }
}

TEST(viterbi_cuda, two_instances_run_concurrently)
{
    GPUFEC_REQUIRE_GPU();
    auto work = [](const char* name, uint32_t seed, bool* ok) {
        const conv_code c = conv_code::preset(name);
        const int fb = 960, batch = 3000;
        conv_encoder enc(c, conv_mode::terminated, fb);
        const auto bits = test::random_bits(size_t(fb) * batch, seed);
        std::vector<uint8_t> coded(enc.output_per_frame() * batch);
        enc.encode_frames(bits.data(), batch, coded.data());
        const auto soft = test::channel(coded, test::code_rate(c), 0, seed, false);
        viterbi_options o;
        o.mode = conv_mode::terminated;
        o.frame_bits = fb;
        viterbi_frame_decoder dec(c, o, device_spec::parse("cuda"));
        std::vector<uint8_t> out(bits.size());
        bool good = true;
        for (int rep = 0; rep < 5; ++rep) {
            dec.decode(soft.data(), batch, out.data());
            good &= out == bits;
        }
        *ok = good;
    };
    bool ok1 = false, ok2 = false;
    std::thread t1(work, "ccsds", 1, &ok1), t2(work, "lte", 2, &ok2);
    t1.join();
    t2.join();
    EXPECT_TRUE(ok1);
    EXPECT_TRUE(ok2);
}

// Both forward kernels (vit_cuda_paired.cuh and the classic one) against the CPU reference;
// the tests above run the paired kernel wherever a code has up to three outputs.
TEST(viterbi_cuda, classic_and_paired_kernels_give_the_reference_bits)
{
    GPUFEC_REQUIRE_GPU();
    for (const char* kernel : { "classic", "paired" }) {
        test::scoped_env env("GPUFEC_VITERBI_KERNEL", kernel);
        for (const auto& c : gpu_codes()) {
            const auto soft = stream_soft(c, 7 * 5 * 3 * 700, 1.0, 5);
            viterbi_options o;
            o.block_len = 128;
            viterbi_stream_decoder gpu(c, o, device_spec::parse("cuda"));
            o.cpu_reference = true;
            viterbi_stream_decoder ref(c, o, device_spec::parse("cpu"));
            gpu.push(soft.data(), soft.size());
            ref.push(soft.data(), soft.size());
            std::vector<uint8_t> a(gpu.available()), b(ref.available());
            gpu.read(a.data(), a.size());
            ref.read(b.data(), b.size());
            ASSERT_EQ(a, b) << kernel << " " << c.describe();
        }
    }
    test::scoped_env bad("GPUFEC_VITERBI_KERNEL", "fastest");
    EXPECT_THROW(viterbi_stream_decoder(conv_code::preset("ccsds"), viterbi_options{}, device_spec::parse("cuda")),
                 std::invalid_argument);
}

// Packed 4-bit input read in place by either forward kernel gives the CPU's bits on the
// unpacked values (the stream decoder; codes keeping an even number of values a period).
TEST(viterbi_cuda, packed_4bit_input_gives_the_cpu_bits)
{
    GPUFEC_REQUIRE_GPU();
    for (const char* kernel : { "classic", "paired" }) {
        test::scoped_env env("GPUFEC_VITERBI_KERNEL", kernel);
        for (const auto& c : gpu_codes()) {
            if (c.kept_per_period() % 2)
                continue;
            const size_t nbits = 7 * 5 * 3 * 700;
            const auto soft = stream_soft(c, nbits, 2.0, 8);
            std::vector<uint8_t> packed((soft.size() + 1) / 2);
            pack_soft4(soft.data(), packed.data(), soft.size());
            std::vector<int8_t> values(soft.size());
            unpack_soft4(packed.data(), values.data(), values.size());
            viterbi_options o;
            o.block_len = 256;
            o.max_batch = 29; // several chunks
            viterbi_stream_decoder gpu(c, o, device_spec::parse("cuda"));
            o.cpu_reference = true;
            viterbi_stream_decoder ref(c, o, device_spec::parse("cpu"));
            const int64_t blocks = int64_t(nbits - size_t(gpu.traceback())) / 256;
            std::vector<uint8_t> a(size_t(blocks) * 32, 1), b(size_t(blocks) * 32, 2);
            gpu.decode_blocks_soft4(packed.data(), soft.size(), 0, 0, blocks, a.data());
            ref.decode_blocks(values.data(), values.size(), 0, 0, blocks, b.data());
            ASSERT_EQ(a, b) << kernel << " " << c.describe();
        }
    }
}
