/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "testing/test_util.h"

using namespace gpufec;

namespace {

struct stream_case {
    std::vector<uint8_t> bits;
    std::vector<int8_t> soft;
};

stream_case make_stream(const conv_code& c, size_t nbits, double ebn0, bool noise, uint32_t seed)
{
    stream_case s;
    s.bits = test::random_bits(nbits, seed);
    conv_encoder enc(c, conv_mode::streaming);
    std::vector<uint8_t> coded(nbits * c.n());
    coded.resize(enc.encode(s.bits.data(), nbits, coded.data()));
    s.soft = test::channel(coded, test::code_rate(c), ebn0, seed + 7, noise);
    return s;
}

std::vector<uint8_t> run_stream(viterbi_stream_decoder& dec, const std::vector<int8_t>& soft,
                                uint32_t chunk_seed)
{
    std::mt19937 rng(chunk_seed);
    std::vector<uint8_t> out;
    const size_t m = dec.input_multiple();
    size_t pos = 0;
    while (pos < soft.size()) {
        size_t len = chunk_seed == 0 ? soft.size() : (rng() % 300 + 1) * m;
        len = std::min(len, soft.size() - pos);
        dec.push(soft.data() + pos, len);
        pos += len;
        std::vector<uint8_t> buf(dec.available());
        buf.resize(dec.read(buf.data(), buf.size()));
        out.insert(out.end(), buf.begin(), buf.end());
    }
    return out;
}

} // namespace

TEST(viterbi_stream, noiseless_stream_is_the_input_in_order)
{
    for (const char* name : { "ccsds", "nasa-dsn", "80211-3/4", "80211-5/6", "dvbs-7/8", "lte" }) {
        const conv_code c = conv_code::preset(name);
        viterbi_options o;
        o.block_len = 64;
        o.traceback = 30;
        viterbi_stream_decoder dec(c, o, device_spec::parse("cpu"));
        const size_t nbits = 7 * 5 * 300;
        const auto s = make_stream(c, nbits, 0, false, 5);
        const auto out = run_stream(dec, s.soft, 17);
        // every complete block is out: (stages - L) / D blocks
        EXPECT_EQ(out.size(), (nbits - 30) / 64 * 64) << name;
        EXPECT_TRUE(std::equal(out.begin(), out.end(), s.bits.begin())) << name;
    }
}

TEST(viterbi_stream, chunking_does_not_change_the_output)
{
    const conv_code c = conv_code::preset("80211-2/3");
    const auto s = make_stream(c, 40000, 4.0, true, 8);
    viterbi_options o; // D = 512, L = 12K = 84 (punctured)
    viterbi_stream_decoder a(c, o, device_spec::parse("cpu")), b(c, o, device_spec::parse("cpu"));
    const auto whole = run_stream(a, s.soft, 0);
    const auto pieces = run_stream(b, s.soft, 99);
    EXPECT_EQ(whole, pieces);
    EXPECT_EQ(whole.size(), size_t(40000 - a.traceback()) / 512 * 512);
    // the reference engine gives the same bits
    o.cpu_reference = true;
    viterbi_stream_decoder r(c, o, device_spec::parse("cpu"));
    EXPECT_EQ(run_stream(r, s.soft, 3), whole);
    // and they are a decoding: far fewer errors than the channel made
    EXPECT_LT(test::count_errors(whole.data(), s.bits.data(), whole.size()), whole.size() / 100);
}

TEST(viterbi_stream, truncation_costs_little_against_full_length_decoding)
{
    // D = 512, L = 42 against one full-length terminated decode of the same bits (CCSDS, 3 dB)
    const conv_code c = conv_code::preset("ccsds");
    const size_t nbits = 200000;
    auto bits = test::random_bits(nbits, 12);
    std::vector<uint8_t> framed = bits;
    framed.resize(nbits + 6, 0);
    conv_encoder enc(c, conv_mode::streaming);
    std::vector<uint8_t> coded(2 * framed.size());
    enc.encode(framed.data(), framed.size(), coded.data());
    const auto soft = test::channel(coded, 0.5, 3.0, 13);

    viterbi_stream_decoder sd(c, viterbi_options{}, device_spec::parse("cpu"));
    const auto so = run_stream(sd, soft, 0);
    viterbi_options fo;
    fo.mode = conv_mode::terminated;
    fo.frame_bits = int(nbits);
    viterbi_frame_decoder fd(c, fo, device_spec::parse("cpu"));
    std::vector<uint8_t> fout(nbits);
    fd.decode(soft.data(), 1, fout.data());
    const double e_stream = double(test::count_errors(so.data(), bits.data(), so.size())) / so.size();
    const double e_full = double(test::count_errors(fout.data(), bits.data(), so.size())) / so.size();
    EXPECT_LE(e_stream, e_full * 1.5 + 2e-5) << e_stream << " vs " << e_full;
}

// Packed 4-bit input gives the bits of int8 input that holds the same values (unpack_soft4),
// on both CPU engines, for codes with and without puncturing; codes that keep an odd number
// of values a period are refused.
TEST(viterbi_stream, packed_4bit_input_decodes_as_its_int8_values)
{
    for (const char* name : { "ccsds", "nasa-dsn", "80211-3/4", "80211-5/6" }) {
        const conv_code c = conv_code::preset(name);
        const auto s = make_stream(c, 7 * 5 * 600, 5.0, true, 21);
        std::vector<uint8_t> packed((s.soft.size() + 1) / 2);
        pack_soft4(s.soft.data(), packed.data(), s.soft.size());
        std::vector<int8_t> values(s.soft.size());
        unpack_soft4(packed.data(), values.data(), values.size());
        for (bool reference : { false, true }) {
            viterbi_options o;
            o.block_len = 128;
            o.cpu_reference = reference;
            viterbi_stream_decoder dec(c, o, device_spec::parse("cpu"));
            const int64_t blocks = int64_t(s.bits.size() - size_t(dec.traceback())) / 128;
            std::vector<uint8_t> a(size_t(blocks) * 16, 1), b(size_t(blocks) * 16, 2);
            dec.decode_blocks_soft4(packed.data(), s.soft.size(), 0, 0, blocks, a.data());
            dec.decode_blocks(values.data(), values.size(), 0, 0, blocks, b.data());
            EXPECT_EQ(a, b) << name << (reference ? " reference" : " fast");
            // and it decodes: few errors at 5 dB
            std::vector<uint8_t> bits(size_t(blocks) * 128);
            unpack_bits(a.data(), bits.size(), bits.data());
            EXPECT_LT(test::count_errors(bits.data(), s.bits.data(), bits.size()), bits.size() / 50) << name;
        }
    }
    viterbi_stream_decoder odd(conv_code::preset("80211-2/3"), viterbi_options{}, device_spec::parse("cpu"));
    std::vector<uint8_t> packed(1000), out(64);
    EXPECT_THROW(odd.decode_blocks_soft4(packed.data(), 2000, 0, 0, 1, out.data()), std::invalid_argument);
}

TEST(viterbi_stream, push_rejects_partial_periods)
{
    viterbi_stream_decoder dec(conv_code::preset("80211-3/4"), viterbi_options{},
                               device_spec::parse("cpu"));
    std::vector<int8_t> soft(5, 0);
    EXPECT_THROW(dec.push(soft.data(), 5), std::invalid_argument);
    EXPECT_NO_THROW(dec.push(soft.data(), 4));
}

#include "viterbi/viterbi_async_stream.h"

namespace {

//! pushes in random pieces, reads in random pieces, flushes now and then (as a block does when
//! its input stalls), and drains at the end; returns every bit read
std::vector<uint8_t> run_async(viterbi_async_stream& dec, const std::vector<int8_t>& soft, uint32_t seed,
                               bool packed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> out;
    const size_t m = dec.input_multiple();
    size_t pos = 0;
    auto read_some = [&](size_t max_bits) {
        std::vector<uint8_t> buf(max_bits);
        const size_t got = dec.read(buf.data(), max_bits, packed);
        if (packed) {
            std::vector<uint8_t> bits(got);
            unpack_bits(buf.data(), got, bits.data());
            out.insert(out.end(), bits.begin(), bits.end());
        } else {
            out.insert(out.end(), buf.begin(), buf.begin() + long(got));
        }
        return got;
    };
    while (pos < soft.size()) {
        size_t len = std::min((rng() % 500 + 1) * m, soft.size() - pos);
        const size_t took = dec.push(soft.data() + pos, len);
        pos += took;
        if (rng() % 4 == 0)
            dec.flush();
        const size_t got = read_some((rng() % 3000 + 8) & ~size_t(7));
        if (took == 0 && got == 0) {
            dec.flush();
            dec.wait();
        }
    }
    dec.flush();
    while (dec.holds_output()) {
        dec.flush();
        dec.wait();
        read_some(1 << 16);
    }
    return out;
}

} // namespace

TEST(viterbi_async_stream, same_bits_as_the_synchronous_decoder_however_it_is_driven)
{
    for (const char* name : { "ccsds", "80211-3/4", "dvbs-7/8", "lte" }) {
        const conv_code c = conv_code::preset(name);
        viterbi_options o;
        o.block_len = 64;
        o.traceback = 30;
        const auto s = make_stream(c, 7 * 5 * 900, 2.5, true, 5);
        viterbi_stream_decoder sync(c, o, device_spec::parse("cpu"));
        sync.push(s.soft.data(), s.soft.size());
        std::vector<uint8_t> expect(sync.available());
        expect.resize(sync.read(expect.data(), expect.size()));
        for (int batch : { 1, 3, 40 }) {
            for (int depth : { 2, 3 }) {
                // slots decoded in the caller's thread, and (depth 3) on a thread of their own
                ASSERT_EQ(setenv("GPUFEC_CPU_DECODE_THREAD", depth == 3 ? "on" : "off", 1), 0);
                viterbi_async_stream a(c, o, device_spec::parse("cpu"), batch, depth);
                unsetenv("GPUFEC_CPU_DECODE_THREAD");
                const auto got = run_async(a, s.soft, uint32_t(batch * 10 + depth), depth == 3);
                ASSERT_EQ(got.size(), expect.size()) << name << " batch " << batch << " depth " << depth;
                EXPECT_TRUE(got == expect) << name << " batch " << batch << " depth " << depth;
            }
        }
    }
}

TEST(viterbi_async_stream, gpu_gives_the_cpu_bits)
{
    GPUFEC_REQUIRE_GPU();
    const conv_code c = conv_code::preset("ccsds");
    viterbi_options o;
    const auto s = make_stream(c, 512 * 3000 + 77, 3.0, true, 9);
    viterbi_async_stream cpu(c, o, device_spec::parse("cpu"), 100);
    viterbi_async_stream gpu(c, o, device_spec::parse("cuda"), 700);
    EXPECT_EQ(run_async(gpu, s.soft, 1, false), run_async(cpu, s.soft, 2, true));
}

TEST(viterbi_async_stream, gpu_batches_allocate_nothing)
{
    GPUFEC_REQUIRE_GPU();
    const conv_code c = conv_code::preset("ccsds");
    viterbi_options o;
    const auto s = make_stream(c, 512 * 3000 + 77, 3.0, true, 9);
    viterbi_async_stream gpu(c, o, device_spec::parse("cuda"), 700);
    // every device buffer and slot is made at construction: driving the decoder with batches
    // full and partial (flushes) allocates nothing
    const uint64_t before = gpu_allocations();
    run_async(gpu, s.soft, 3, true);
    EXPECT_EQ(gpu_allocations(), before);
}
