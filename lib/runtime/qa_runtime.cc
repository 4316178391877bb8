/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gtest/gtest.h>

#include "cpu_pool.h"
#include "soft4.h"

#include <random>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace gpufec;

TEST(runtime, device_spec_parses_and_rejects)
{
    EXPECT_EQ(device_spec::parse("auto").type, device_spec::kind::automatic);
    EXPECT_EQ(device_spec::parse("cpu").type, device_spec::kind::cpu);
    EXPECT_EQ(device_spec::parse("cuda").index, 0);
    EXPECT_EQ(device_spec::parse("cuda:3").index, 3);
    EXPECT_EQ(device_spec::parse("cuda:3").str(), "cuda:3");
    for (const char* bad : { "cuda:", "cuda:-1", "cuda:1x", "tpu", "CPU", "", "gpu" })
        EXPECT_THROW(device_spec::parse(bad), std::invalid_argument) << bad;
}

TEST(runtime, backend_resolution)
{
    EXPECT_FALSE(resolve_backend(device_spec::parse("cpu")).cuda);
    const auto gpus = cuda_devices();
    const backend_choice a = resolve_backend(device_spec::parse("auto"));
    EXPECT_EQ(a.cuda, !gpus.empty());
    // a GPU that is not there is an error, not a silent fallback
    // (a parameter error: ValueError in Python, as the docs say)
    EXPECT_THROW(resolve_backend(device_spec::parse("cuda:" + std::to_string(gpus.size() + 5))),
                 std::invalid_argument);
    if (gpus.empty())
        EXPECT_THROW(resolve_backend(device_spec::parse("cuda")), std::invalid_argument);
}

TEST(runtime, pack_and_unpack_are_inverse_msb_first)
{
    const uint8_t bits[12] = { 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1 };
    uint8_t bytes[2];
    pack_bits(bits, 12, bytes);
    EXPECT_EQ(bytes[0], 0x81);
    EXPECT_EQ(bytes[1], 0xD0);
    uint8_t back[12];
    unpack_bits(bytes, 12, back);
    EXPECT_TRUE(std::equal(back, back + 12, bits));
}

TEST(runtime, soft_quantisation_rule)
{
    const float in[] = { 0.f, 1.f, -1.f, 0.49f / 32, 10.f, -10.f, NAN, INFINITY, -INFINITY };
    int8_t out[9];
    EXPECT_EQ(quantize_soft(in, out, 9), 1u);
    const int8_t expect[] = { 0, 32, -32, 0, 127, -127, 0, 127, -127 };
    for (int i = 0; i < 9; ++i)
        EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(runtime, packed_4bit_soft_values_follow_the_documented_rule)
{
    // v / 16 rounded half away from zero, clipped to [-7, 7], low nibble first; read as 16 q
    const int8_t in[] = { 0, 7, 8, 23, 24, -8, -9, 119, 120, 127, -127, -128, 56, -57, 40 };
    const int8_t expect[] = { 0, 0, 16, 16, 32, -16, -16, 112, 112, 112, -112, -112, 64, -64, 48 };
    constexpr size_t n = sizeof(in);
    uint8_t packed[(n + 1) / 2];
    pack_soft4(in, packed, n);
    EXPECT_EQ(packed[0], 0x00);     // 0, 0
    EXPECT_EQ(packed[1], 0x11);     // 1, 1
    EXPECT_EQ(packed[2], 0xf2);     // 2, -1
    EXPECT_EQ(packed[7], 0x03);     // odd count: the last high nibble is 0
    int8_t back[n];
    unpack_soft4(packed, back, n);
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(back[i], expect[i]) << i;
    // the nibble -8, which pack_soft4 never writes, reads as -7
    const uint8_t eight = 0x88;
    int8_t two[2];
    unpack_soft4(&eight, two, 2);
    EXPECT_EQ(two[0], -112);
    EXPECT_EQ(two[1], -112);
    // float input: quantize_soft's scale and NaN rule, then the same packing (and every length
    // across the chunks it works in)
    std::vector<float> f(9001);
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.f, 2.f);
    for (auto& x : f)
        x = g(rng);
    f[17] = NAN;
    std::vector<int8_t> q(f.size());
    EXPECT_EQ(quantize_soft(f.data(), q.data(), f.size(), 20.f), 1u);
    std::vector<uint8_t> via_int8((f.size() + 1) / 2), direct((f.size() + 1) / 2);
    pack_soft4(q.data(), via_int8.data(), q.size());
    EXPECT_EQ(pack_soft4(f.data(), direct.data(), f.size(), 20.f), 1u);
    EXPECT_EQ(direct, via_int8);
}

// the CPU batch rule: the few-core batch up to four cores, per_core a core beyond, none without
TEST(runtime, cpu_batches_grow_a_core_at_a_time_beyond_four_cores)
{
    EXPECT_EQ(cpu_batch_units(128, 256, 1), 128u);
    EXPECT_EQ(cpu_batch_units(128, 256, 2), 128u);
    EXPECT_EQ(cpu_batch_units(256, 256, 4), 256u);
    EXPECT_EQ(cpu_batch_units(512, 256, 16), 4096u);
    EXPECT_EQ(cpu_batch_units(512, 256, 5), 1280u);
    EXPECT_EQ(cpu_batch_units(3640, 0, 16), 3640u);
}

// soft4_word4 (the kernels' four values a load) gives what soft4_value gives, for every two bytes
TEST(runtime, four_packed_4bit_values_a_word_read_as_one_at_a_time)
{
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        const uint8_t bytes[2] = { uint8_t(h), uint8_t(h >> 8) };
        const uint32_t w = soft4_word4(h);
        for (int i = 0; i < 4; ++i)
            ASSERT_EQ(int(int8_t(uint8_t(w >> (8 * i)))), soft4_value(bytes, i)) << "bytes " << h << ", value " << i;
    }
}

TEST(runtime, soft_quantisation_bulk_matches_rule_at_every_length_and_offset)
{
    // exact multiples of 1/64 (so x * 32 lands on halves and integers), out-of-range values,
    // infinities and NaNs, at lengths and alignments that exercise the vector body and tail
    std::vector<float> in(5003);
    size_t expected_nans = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const int r = static_cast<int>((i * 2654435761u) % 1201) - 600;
        in[i] = i % 97 == 5   ? NAN
                : i % 89 == 7 ? (i % 2 ? INFINITY : -INFINITY)
                : i % 83 == 1 ? -0.f
                              : r / 64.f;
    }
    for (size_t off : { 0, 1, 3 })
        for (size_t n : { 0, 1, 7, 8, 9, 31, 1000, 5000 }) {
            std::vector<int8_t> out(n, 99);
            size_t nans = 0;
            for (size_t i = off; i < off + n; ++i)
                nans += std::isnan(in[i]);
            EXPECT_EQ(quantize_soft(in.data() + off, out.data(), n), nans) << n;
            for (size_t i = 0; i < n; ++i) {
                const float x = in[off + i];
                const int expect = std::isnan(x) ? 0
                                                 : static_cast<int>(std::round(
                                                       std::max(-127.f, std::min(127.f, 32.f * x))));
                ASSERT_EQ(out[i], expect) << "n=" << n << " off=" << off << " i=" << i;
            }
            expected_nans += nans;
        }
    EXPECT_GT(expected_nans, 0u);
}

TEST(runtime, unpack_matches_the_bit_definition_at_every_length)
{
    std::vector<uint8_t> bytes(40);
    for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = uint8_t(i * 37 + 11);
    for (size_t nbits = 0; nbits <= 8 * bytes.size(); ++nbits) {
        std::vector<uint8_t> bits(nbits + 1, 0xEE);
        unpack_bits(bytes.data(), nbits, bits.data());
        for (size_t i = 0; i < nbits; ++i)
            ASSERT_EQ(bits[i], (bytes[i / 8] >> (7 - i % 8)) & 1) << nbits << " " << i;
        ASSERT_EQ(bits[nbits], 0xEE) << "wrote past the end at " << nbits;
    }
}

TEST(runtime, packed_bit_copy_matches_the_bit_definition_at_every_offset)
{
    // every source and destination offset in a byte, lengths across the 56-bit steps; the
    // buffers are exactly the bytes that hold the ranges (a read or write past them shows
    // under ASan), and the destination's other bits must stay as they were
    std::mt19937 rng(7);
    for (size_t nbits : { size_t(0), size_t(1), size_t(7), size_t(55), size_t(71), size_t(72), size_t(127),
                          size_t(128), size_t(500), size_t(7155) })
        for (size_t s = 0; s < 8; ++s)
            for (size_t d = 0; d < 8; ++d) {
                std::vector<uint8_t> src((s + nbits + 7) / 8), dst((d + nbits + 7) / 8);
                for (auto& b : src)
                    b = uint8_t(rng());
                for (size_t i = 0; i < 8 * dst.size(); ++i) // (the range clear, the rest random)
                    if (rng() & 1 && (i < d || i >= d + nbits))
                        set_packed_bit(dst.data(), i, 1);
                std::vector<uint8_t> want = dst;
                for (size_t i = 0; i < nbits; ++i)
                    set_packed_bit(want.data(), d + i, packed_bit(src.data(), s + i));
                copy_packed_bits(src.data(), s, dst.data(), d, nbits);
                ASSERT_EQ(dst, want) << nbits << " bits from " << s << " to " << d;
            }
}

#include "partial_batch.h"

TEST(runtime, partial_batches_wait_for_size_or_a_stall)
{
    using namespace std::chrono;
    partial_batch_policy p(100, milliseconds(1));
    const auto t0 = partial_batch_policy::clock::now();
    // input flowing: a small batch waits, an efficient one goes on an idle decoder only
    EXPECT_FALSE(p.update(true, true, t0));
    EXPECT_FALSE(p.send(true, 99));
    EXPECT_TRUE(p.send(true, 100));
    EXPECT_FALSE(p.send(false, 1000));
    // no input: not stalled until the stall time has passed with the decoder idle
    EXPECT_FALSE(p.update(false, true, t0 + microseconds(10)));
    EXPECT_FALSE(p.update(false, true, t0 + microseconds(900)));
    EXPECT_FALSE(p.send(true, 5));
    EXPECT_TRUE(p.update(false, true, t0 + microseconds(1010)));
    EXPECT_TRUE(p.send(true, 5));
    EXPECT_FALSE(p.send(true, 0));
    // a busy decoder or new input restarts the clock
    EXPECT_FALSE(p.update(false, false, t0 + microseconds(1100)));
    EXPECT_FALSE(p.update(false, true, t0 + microseconds(1200)));
    EXPECT_TRUE(p.update(false, true, t0 + microseconds(2300)));
    EXPECT_FALSE(p.update(true, true, t0 + microseconds(2400)));
}

#include "cpu_pool.h"
#include <atomic>
#include <thread>

TEST(runtime, parallel_ranges_cover_every_item_once)
{
    auto pool = get_cpu_pool(3);
    for (size_t n : { size_t(0), size_t(1), size_t(255), size_t(256), size_t(257), size_t(1000) })
        for (size_t item_bytes : { size_t(0), size_t(1), size_t(1024), size_t(1) << 20 }) {
            std::vector<std::atomic<int>> seen(n);
            std::atomic<size_t> longest{ 0 };
            std::atomic<bool> off_caller{ false };
            const auto caller = std::this_thread::get_id();
            parallel_ranges(
                *pool, n, item_bytes,
                [&](size_t a, size_t b) {
                    ASSERT_LT(a, b);
                    ASSERT_LE(b, n);
                    for (size_t i = a; i < b; ++i)
                        ++seen[i];
                    if (std::this_thread::get_id() != caller)
                        off_caller = true;
                    size_t l = longest.load();
                    while (b - a > l && !longest.compare_exchange_weak(l, b - a)) {
                    }
                },
                256 * 1024);
            for (size_t i = 0; i < n; ++i)
                ASSERT_EQ(seen[i].load(), 1) << "item " << i << " of " << n << ", " << item_bytes << " bytes";
            // a range holds about 256 KB of items (at least one item)
            const size_t grain = item_bytes >= 256 * 1024 ? 1 : 256 * 1024 / std::max<size_t>(1, item_bytes);
            if (n > 0)
                EXPECT_EQ(longest.load(), std::min(n, grain)) << n << " items of " << item_bytes << " bytes";
            if (n <= grain) // one range: on the calling thread
                EXPECT_FALSE(off_caller.load()) << n << " items of " << item_bytes << " bytes";
        }
}

#include "simd_isa.h"
#include "simd_transpose.h"

#if defined(__x86_64__)
TEST(runtime, transpose_of_64_bytes_of_32_streams_matches_the_definition)
{
    // out[k][l] = from[l][at + k], and its negation, for streams at any offset (unaligned loads)
    // and bytes -128 .. 127 (-(-128) = 128 fits the int16 lanes)
    if (detect_simd_isa() != simd_isa::avx512)
        GTEST_SKIP() << "no AVX-512 here (or GPUFEC_SIMD caps it)";
    std::mt19937 rng(7);
    std::vector<int8_t> data(40 * 200);
    for (auto& x : data)
        x = int8_t(rng());
    data[5] = -128;
    const int8_t* from[32];
    for (int l = 0; l < 32; ++l)
        from[l] = data.data() + size_t(l) * 211 % 7000 + size_t(l % 3); // (streams overlap: no matter)
    alignas(64) i16x32 out[64];
    for (size_t at : { size_t(0), size_t(1), size_t(37) }) {
        simd_transpose_64x32_i16(from, at, out, false);
        for (int k = 0; k < 64; ++k)
            for (int l = 0; l < 32; ++l)
                ASSERT_EQ(out[k][l], from[l][at + size_t(k)]) << "at " << at << " byte " << k << " lane " << l;
        simd_transpose_64x32_i16(from, at, out, true);
        for (int k = 0; k < 64; ++k)
            for (int l = 0; l < 32; ++l)
                ASSERT_EQ(out[k][l], -int(from[l][at + size_t(k)])) << "negated, at " << at << " byte " << k;
    }
}
#endif
