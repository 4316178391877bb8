/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CUDA LDPC decoder against the CPU reference: bit-exact hard decisions, iteration counts,
 * syndrome flags and posteriors, for several lifting sizes, both fixed-point widths, early
 * termination on and off, odd batch sizes and batches cut into several chunks. Skipped
 * without a GPU. */
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gtest/gtest.h>

#include "testing/test_util.h"
#include <cstdlib>
#include <set>
#include <thread>

using namespace gpufec;

namespace {

struct run_out {
    std::vector<uint8_t> cw;
    std::vector<ldpc_result> res;
    std::vector<float> post;
};

run_out decode(const ldpc_code& c, const ldpc_options& o, const char* dev, const std::vector<int8_t>& soft,
               int frames)
{
    ldpc_decoder d(c, o, device_spec::parse(dev));
    run_out r;
    r.cw.resize(size_t(c.n()) * frames);
    r.res.resize(size_t(frames));
    r.post.resize(size_t(c.n()) * frames);
    d.decode(soft.data(), size_t(frames), r.cw.data(), ldpc_output::codeword, false, r.res.data(), r.post.data());
    return r;
}

//! random codewords of c through BPSK and noise a little above the code's threshold
std::vector<int8_t> noisy_codewords(const ldpc_code& c, int frames, uint32_t seed)
{
    const auto info = test::random_bits(size_t(c.k()) * frames, seed);
    std::vector<uint8_t> cw(size_t(c.n()) * frames);
    ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
    return test::channel(cw, c.rate(), 1.0 + 2.5 * c.rate(), seed + 1);
}

/*! random codewords of c through BPSK and noise: every third from the second at Eb/N0 `noisy`
 *  dB, the others at `clean` (with early stop, codewords that stop apart) */
std::vector<int8_t> mixed_codewords(const ldpc_code& c, int frames, uint32_t seed, double noisy, double clean)
{
    const auto info = test::random_bits(size_t(c.k()) * frames, seed);
    std::vector<uint8_t> cw(size_t(c.n()) * frames);
    ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
    const auto hard = test::channel(cw, c.rate(), noisy, seed + 1);
    std::vector<int8_t> soft(test::channel(cw, c.rate(), clean, seed + 2));
    for (int f = 1; f < frames; f += 3)
        std::copy(hard.begin() + f * c.n(), hard.begin() + (f + 1) * c.n(), soft.begin() + f * c.n());
    return soft;
}

/*! `frames` random frames (seed `info_seed`) through an encoder (a frame_encoder), BPSK and
 *  noise at Eb/N0 `ebn0` dB (seed `noise_seed`): their soft values */
template <class Encoder>
std::vector<int8_t> noisy_frames(Encoder& enc, size_t frames, double ebn0, uint32_t info_seed, uint32_t noise_seed)
{
    const size_t per = enc.coded_bits();
    const auto info = test::random_bits(enc.info_bits() * frames, info_seed);
    std::vector<uint8_t> coded(per * frames);
    enc.encode(info.data(), frames, coded.data());
    return test::channel(coded, double(enc.info_bits()) / double(per), ebn0, noise_seed);
}

/*! The GPU against the CPU on the same input: bits, posteriors, iterations, syndromes; the
 *  GPU's messages where `messages` says (GPUFEC_LDPC_MESSAGES) and rows over `lanes` lanes
 *  (GPUFEC_LDPC_ROW_THREADS; 0: the engine's choice) */
void expect_gpu_as_cpu(const ldpc_code& c, const ldpc_options& o, const std::vector<int8_t>& soft, int frames,
                       const std::string& what, const char* messages = nullptr, int lanes = 0)
{
    if (messages)
        setenv("GPUFEC_LDPC_MESSAGES", messages, 1);
    if (lanes)
        setenv("GPUFEC_LDPC_ROW_THREADS", std::to_string(lanes).c_str(), 1);
    const auto g = decode(c, o, "cuda", soft, frames);
    unsetenv("GPUFEC_LDPC_ROW_THREADS");
    unsetenv("GPUFEC_LDPC_MESSAGES");
    const auto r = decode(c, o, "cpu", soft, frames);
    EXPECT_EQ(g.cw, r.cw) << what;
    EXPECT_EQ(g.post, r.post) << what;
    for (int f = 0; f < frames; ++f) {
        EXPECT_EQ(g.res[f].iterations, r.res[f].iterations) << what << " frame " << f;
        EXPECT_EQ(g.res[f].syndrome_ok, r.res[f].syndrome_ok) << what << " frame " << f;
    }
}

/*! fn(what) with `o` set for early termination on and off, each with normalised min-sum (offset
 *  0) and with min-sum offset by `offset` (normalisation 1); what names the setting */
template <class Fn>
void for_stop_and_offset(ldpc_options& o, float offset, Fn&& fn)
{
    for (bool et : { true, false })
        for (float off : { 0.f, offset }) {
            o.early_termination = et;
            o.offset = off;
            o.normalization = off > 0.f ? 1.f : 0.f;
            fn(std::string(et ? " ET" : "") + " offset " + std::to_string(int(off)));
        }
}

} // namespace

TEST(ldpc_cuda, bit_exact_against_cpu_reference)
{
    GPUFEC_REQUIRE_GPU();
    const char* codes[] = { "802.11n:648:1/2", "802.11n:1296:3/4", "802.11n:1944:5/6",
                            "802.16e:576:2/3A", "802.16e:2304:1/2", "802.16e:1440:3/4B" };
    for (const char* id : codes) {
        const ldpc_code c = ldpc_code::standard(id);
        for (int frames : { 1, 37 }) {
            const auto info = test::random_bits(size_t(c.k()) * frames, 1);
            std::vector<uint8_t> cw(size_t(c.n()) * frames);
            ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
            // a noise level where frames need a varying number of iterations, some fail
            const auto soft = test::channel(cw, c.rate(), 1.5 + 2.0 * c.rate(), 2);
            for (auto p : { ldpc_precision::int8, ldpc_precision::int16 })
                for (bool et : { true, false }) {
                    ldpc_options o;
                    o.precision = p;
                    o.early_termination = et;
                    o.max_iterations = 8;
                    o.max_batch = 13; // several chunks through the pipeline
                    const auto g = decode(c, o, "cuda", soft, frames);
                    const auto r = decode(c, o, "cpu", soft, frames);
                    const std::string what = std::string(id) + " " + to_string(p) + (et ? " ET" : "") +
                                             " frames=" + std::to_string(frames);
                    EXPECT_EQ(g.cw, r.cw) << what;
                    EXPECT_EQ(g.post, r.post) << what;
                    int it_sum = 0;
                    for (int f = 0; f < frames; ++f) {
                        EXPECT_EQ(g.res[f].iterations, r.res[f].iterations) << what << " frame " << f;
                        EXPECT_EQ(g.res[f].syndrome_ok, r.res[f].syndrome_ok) << what << " frame " << f;
                        it_sum += r.res[f].iterations;
                    }
                    if (et && frames > 1)
                        EXPECT_LT(it_sum, 8 * frames) << what << ": no frame stopped early";
                }
        }
    }
}

TEST(ldpc_cuda, codes_beyond_shared_memory_and_of_several_circulants_a_block_match_the_cpu)
{
    // DVB-S2 (Z = 360, blocks of two circulants decoded in sub-layers, the corner entry missing,
    // messages in global memory), 5G NR's largest lifting (int16 messages only fit global
    // memory), C2 (every block two circulants: sub-layers of 7 rows), AR4JA (punctured bits,
    // Z up to 2048: sub-layers of at most 512 rows); and a small code with its messages forced
    // into global memory, against the same code in shared memory
    struct one {
        const char* id;
        ldpc_precision p;
        int frames;
        const char* messages; // GPUFEC_LDPC_MESSAGES, or null
    };
    const one cases[] = { { "dvbs2:16200:1/2", ldpc_precision::int8, 7, nullptr },
                          { "dvbs2:16200:8/9", ldpc_precision::int16, 3, nullptr },
                          { "dvbs2:64800:3/5", ldpc_precision::int8, 3, nullptr },
                          { "dvbs2:64800:9/10", ldpc_precision::int8, 2, nullptr },
                          { "dvbs2:64800:13/45", ldpc_precision::int8, 2, nullptr }, // DVB-S2X: 128 layers
                          { "dvbs2:16200:7/15", ldpc_precision::int16, 3, nullptr },
                          { "dvbs2:32400:11/45", ldpc_precision::int8, 3, nullptr }, // DVB-S2X medium frame
                          { "dvbs2:64800:2/9", ldpc_precision::int8, 2, nullptr },   // DVB-S2X VL-SNR
                          { "nr:bg1:384", ldpc_precision::int16, 3, nullptr },
                          { "nr:bg1:384", ldpc_precision::int8, 3, "global" },
                          { "ccsds:8176:7156", ldpc_precision::int8, 5, nullptr },
                          { "ccsds:8160:7136", ldpc_precision::int16, 3, nullptr },
                          { "ccsds:128:64", ldpc_precision::int8, 301, nullptr }, // telecommand, Z = 16
                          { "ccsds:512:256", ldpc_precision::int16, 77, nullptr },
                          { "ccsds:2048:1024", ldpc_precision::int8, 9, nullptr },   // AR4JA, Z = 128
                          { "ccsds:1280:1024", ldpc_precision::int16, 5, nullptr },  // Z = 32
                          { "ccsds:32768:16384", ldpc_precision::int8, 2, nullptr }, // Z = 2048: sub-layers
                          { "802.16e:576:1/2", ldpc_precision::int8, 37, "global" } };
    GPUFEC_REQUIRE_GPU();
    for (const auto& k : cases) {
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = noisy_codewords(c, k.frames, 3);
        for (bool et : { true, false }) {
            ldpc_options o;
            o.precision = k.p;
            o.early_termination = et;
            o.max_iterations = 6;
            o.max_batch = 2; // several chunks through the pipeline
            expect_gpu_as_cpu(c, o, soft, k.frames, std::string(k.id) + " " + to_string(k.p) + (et ? " ET" : ""),
                              k.messages);
        }
    }
}

TEST(ldpc_cuda, general_kernel_messages_in_shared_or_global_memory_match_the_cpu)
{
    // the general kernel's messages in shared memory where they fit, and in global memory
    // (GPUFEC_LDPC_GENERAL_MESSAGES): rows unrolled to 8 entries with few registers (the
    // telecommand code) and with all of them (AR4JA k = 16384), to 16 and 32 entries, rows as
    // loops; DVB-S2's missing corner entry; both precisions (16200 2/3 in int16 does not fit)
    struct one {
        const char* id;
        ldpc_precision p;
        int frames;
    };
    const one cases[] = { { "ccsds:128:64", ldpc_precision::int8, 67 },    { "ccsds:32768:16384", ldpc_precision::int8, 2 },
                          { "dvbs2:16200:1/2", ldpc_precision::int16, 3 }, { "dvbs2:16200:3/4", ldpc_precision::int8, 3 },
                          { "dvbs2:16200:8/9", ldpc_precision::int8, 3 },  { "dvbs2:16200:2/3", ldpc_precision::int8, 3 },
                          { "dvbs2:16200:7/15", ldpc_precision::int8, 3 } };
    GPUFEC_REQUIRE_GPU();
    // (the general kernel: neither the chain kernel nor split layers)
    const test::scoped_env general("GPUFEC_LDPC_CHAIN", "off"), whole("GPUFEC_LDPC_SPLIT", "off");
    for (const auto& k : cases) {
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = noisy_codewords(c, k.frames, 7);
        for (const char* where : { "shared", "global" }) {
            setenv("GPUFEC_LDPC_GENERAL_MESSAGES", where, 1);
            setenv("GPUFEC_LDPC_ROW_THREADS", "1", 1); // (the kernels with messages in shared memory)
            ldpc_options o;
            o.precision = k.p;
            o.max_iterations = 6;
            o.max_batch = 2; // several chunks through the pipeline
            const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
            unsetenv("GPUFEC_LDPC_ROW_THREADS");
            EXPECT_EQ(backend.find("messages in shared memory") != std::string::npos, std::string(where) == "shared")
                << k.id << ": " << backend;
            for (bool et : { true, false }) {
                o.early_termination = et;
                expect_gpu_as_cpu(c, o, soft, k.frames,
                                  std::string(k.id) + " " + to_string(k.p) + (et ? " ET" : "") + " messages " + where,
                                  nullptr, 1);
            }
            unsetenv("GPUFEC_LDPC_GENERAL_MESSAGES");
        }
    }
}

TEST(ldpc_cuda, split_layers_match_the_cpu)
{
    // the layered kernel with layers of several sub-layers split (split_layer): the lone
    // entries' passes at once, the shared ones' sub-layer by sub-layer; DVB-S2 16200 at rates
    // with up to 5 sub-layers a layer and the missing corner entry, the telecommand code
    // (several codewords a block); early stop on and off with codewords that stop apart, offset
    // min-sum, odd batches through several chunks; and where the engine takes it by itself
    struct one {
        const char* id;
        int frames;
        bool chosen; // (auto takes it)
    };
    const one cases[] = { { "dvbs2:16200:3/5", 7, true },  { "dvbs2:16200:4/5", 5, true },
                          { "dvbs2:16200:2/3", 5, true },  { "dvbs2:16200:1/2", 5, false },
                          { "dvbs2:16200:1/4", 5, false }, { "ccsds:512:256", 13, false } };
    GPUFEC_REQUIRE_GPU();
    for (const auto& k : cases) {
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = mixed_codewords(c, k.frames, 41, 1.0 + 2.5 * c.rate() - 0.6, 1.0 + 2.5 * c.rate() + 1.5);
        ldpc_options o;
        o.precision = ldpc_precision::int8;
        o.max_iterations = 7;
        o.max_batch = 3;
        {
            const test::scoped_env automatic("GPUFEC_LDPC_SPLIT", "auto");
            const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
            EXPECT_EQ(backend.find("split layers") != std::string::npos, k.chosen) << k.id << ": " << backend;
        }
        const test::scoped_env split("GPUFEC_LDPC_SPLIT", "on"), chain("GPUFEC_LDPC_CHAIN", "off");
        const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
        EXPECT_NE(backend.find("split layers"), std::string::npos) << k.id << ": " << backend;
        for_stop_and_offset(o, 2.f, [&](const std::string& setting) {
            expect_gpu_as_cpu(c, o, soft, k.frames, std::string(k.id) + setting + " split layers");
        });
    }
}

TEST(ldpc_cuda, global_messages_packed_or_one_a_slot_match_the_cpu)
{
    // the general kernel's global messages a row to a packed piece or one to a slot
    // (GPUFEC_LDPC_PACKED): DVB-S2 64800 rows of 5 entries (one a slot unless forced) and of 7
    // (packed unless forced off) on the kernel that comes in both forms, rows of 27 in a 32-byte
    // piece (packed whatever the choice), the missing corner entry, early stop on and off
    struct one {
        const char* id;
        const char* want;
        bool packed;
    };
    const one cases[] = { { "dvbs2:64800:1/3", "auto", false }, { "dvbs2:64800:1/3", "on", true },
                          { "dvbs2:64800:1/2", "auto", true },  { "dvbs2:64800:1/2", "off", false },
                          { "dvbs2:64800:8/9", "off", true } };
    GPUFEC_REQUIRE_GPU();
    const test::scoped_env general("GPUFEC_LDPC_CHAIN", "off"); // (the general kernel, not the chain one)
    for (const auto& k : cases) {
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = noisy_codewords(c, 3, 11);
        const std::string what = std::string(k.id) + " GPUFEC_LDPC_PACKED=" + k.want;
        setenv("GPUFEC_LDPC_PACKED", k.want, 1);
        ldpc_options o;
        o.precision = ldpc_precision::int8;
        o.max_iterations = 6;
        o.max_batch = 2; // several chunks through the pipeline
        const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
        EXPECT_EQ(backend.find("(packed rows)") != std::string::npos, k.packed) << what << ": " << backend;
        for (bool et : { true, false }) {
            o.early_termination = et;
            expect_gpu_as_cpu(c, o, soft, 3, what + (et ? " ET" : ""));
        }
        unsetenv("GPUFEC_LDPC_PACKED");
    }
}

TEST(ldpc_cuda, chain_kernel_matches_the_cpu)
{
    // the chain kernel (GPUFEC_LDPC_CHAIN=on: DVB-S2's accumulator bits in registers and global
    // memory, ldpc_cuda_chain.cuh): rows of up to 8 and of up to 16 message slots (its two
    // forms), int8 and int16, layers of several sub-layers between the chains, the missing corner entry, held to two and three blocks an SM, early stop on and
    // off, normalised and offset min-sum, the whole codeword and its posteriors (the chain bits
    // read back from global memory), several chunks
    struct one {
        const char* id;
        const char* blocks; // GPUFEC_LDPC_CHAIN_BLOCKS
        ldpc_precision p = ldpc_precision::int8;
    };
    const one cases[] = { { "dvbs2:64800:1/2", "3" },
                          { "dvbs2:64800:1/2", "2" },
                          { "dvbs2:64800:1/4", "0" },
                          { "dvbs2:64800:3/5", "0" },
                          { "dvbs2:16200:1/3", "0" },
                          // int16: int32 posteriors, which fit shared memory only without the chain
                          { "dvbs2:64800:1/2", "0", ldpc_precision::int16 },
                          { "dvbs2:64800:3/5", "0", ldpc_precision::int16 } };
    GPUFEC_REQUIRE_GPU();
    const test::scoped_env chain("GPUFEC_LDPC_CHAIN", "on");
    for (const auto& k : cases) {
        const test::scoped_env blocks("GPUFEC_LDPC_CHAIN_BLOCKS", k.blocks);
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = mixed_codewords(c, 4, 13, 0.8, 2.5);
        ldpc_options o;
        o.precision = k.p;
        o.max_iterations = 6;
        o.max_batch = 3; // (two chunks)
        const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
        const std::string what = std::string(k.id) + " " + to_string(k.p) + " blocks " + k.blocks + ": " + backend;
        EXPECT_NE(backend.find("chain kernel"), std::string::npos) << what;
        for_stop_and_offset(o, 2.f, [&](const std::string& how) { expect_gpu_as_cpu(c, o, soft, 4, what + how); });
    }
}

TEST(ldpc_cuda, chain_kernel_keeps_its_faster_form_for_dvbs2_rate_half)
{
    // DVB-S2 64800 1/2 in int8 takes the chain kernel compiled with registers bounded for two
    // blocks an SM: it needs 56, so an SM holds three anyway, and it decoded 2.7 % faster than
    // the form bounded for three (H200, performance-history.md). A change that gives it one more
    // register makes the engine take the slower form without a word; this says so. (Compute
    // capability 9.0: 228 KB of shared memory an SM hold three codewords.)
    GPUFEC_REQUIRE_GPU();
    const auto gpus = cuda_devices();
    if (gpus[0].cc_major != 9 || gpus[0].cc_minor != 0)
        GTEST_SKIP() << "the chain kernel's forms were measured on compute capability 9.0";
    const test::scoped_env chain("GPUFEC_LDPC_CHAIN", "auto"), blocks("GPUFEC_LDPC_CHAIN_BLOCKS", "0");
    const auto dec = make_frame_decoder("ldpc", parse_frame_options("code=dvbs2:64800:1/2, precision=int8"),
                                        device_spec::parse("cuda"));
    const std::string b = dec->backend();
    EXPECT_NE(b.find("chain kernel"), std::string::npos) << b;
    EXPECT_NE(b.find("3 blocks/SM"), std::string::npos) << b;
    EXPECT_NE(b.find("registers bounded for 2 blocks an SM"), std::string::npos) << b;
}

TEST(ldpc_cuda, chain_kernel_frames_as_sent_match_the_cpu)
{
    // the chain kernel loading frames as sent: DVB-S2's parity order through the gather table,
    // in int8 and packed 4-bit values, with the BCH after it; DVB-S2X VL-SNR's punctured and
    // shortened short frame through runs; the bits and statuses of the CPU decoder
    GPUFEC_REQUIRE_GPU();
    const test::scoped_env chain("GPUFEC_LDPC_CHAIN", "on");
    struct one {
        const char* options;
        double ebn0;
        bool soft4;
    };
    for (const one& k : { one{ "code=dvbs2:64800:1/2, outer=bch, precision=int8, max_iterations=12", 1.1, false },
                          one{ "code=dvbs2:64800:1/2, outer=bch, precision=int8, max_iterations=12", 1.1, true },
                          one{ "code=dvbs2:16200:11/45-vlsnr-sf2, outer=bch, precision=int8, max_iterations=8", 1.0,
                               false } }) {
        const auto opts = parse_frame_options(k.options);
        const auto enc = make_frame_encoder("ldpc", opts);
        const size_t frames = 23;
        auto soft = noisy_frames(*enc, frames, k.ebn0, 5, 6);
        std::vector<uint8_t> packed((soft.size() + 1) / 2);
        if (k.soft4) { // (the CPU decodes the values the packed ones stand for)
            pack_soft4(soft.data(), packed.data(), soft.size());
            unpack_soft4(packed.data(), soft.data(), soft.size());
        }
        const auto gdec = make_frame_decoder("ldpc", opts, device_spec::parse("cuda"));
        const auto cdec = make_frame_decoder("ldpc", opts, device_spec::parse("cpu"));
        EXPECT_NE(gdec->backend().find("chain kernel"), std::string::npos) << k.options << ": " << gdec->backend();
        const auto g = k.soft4 ? test::decode_frames_soft4(*gdec, packed.data(), frames)
                               : test::decode_frames(*gdec, soft.data(), frames);
        const auto c = test::decode_frames(*cdec, soft.data(), frames);
        EXPECT_EQ(g.bits, c.bits) << k.options;
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(g.status[f].check, c.status[f].check) << k.options << " frame " << f;
            EXPECT_EQ(g.status[f].inner, c.status[f].inner) << k.options << " frame " << f;
            EXPECT_EQ(g.status[f].iterations, c.status[f].iterations) << k.options << " frame " << f;
        }
    }
}

TEST(ldpc_cuda, chain_kernel_with_the_bch_mending_frames_matches_the_cpu)
{
    // DVB-S2 64800 1/2 with its BCH after the chain kernel: the CPU decoder's bits and statuses
    // on frames clean, mended by the BCH and beyond it (12 iterations at 1.25 dB, every third
    // frame at 2.5 dB: 8, 8 and 8 of 24 on the CPU), in chunks of 5 frames and in one chunk.
    // The BCH kernel stages each codeword in shared memory: its 4050 bytes start at every
    // offset modulo 16 from one frame to the next.
    GPUFEC_REQUIRE_GPU();
    const auto opts = parse_frame_options("code=dvbs2:64800:1/2, outer=bch, precision=int8, max_iterations=12");
    const auto enc = make_frame_encoder("ldpc", opts);
    const size_t frames = 24;
    const auto info = test::random_bits(enc->info_bits() * frames, 7);
    std::vector<uint8_t> coded(enc->coded_bits() * frames);
    enc->encode(info.data(), frames, coded.data());
    const double rate = double(enc->info_bits()) / double(enc->coded_bits());
    auto soft = test::channel(coded, rate, 1.25, 9);
    const auto quiet = test::channel(coded, rate, 2.5, 10);
    const size_t n = enc->coded_bits();
    for (size_t f = 2; f < frames; f += 3)
        std::copy(quiet.begin() + f * n, quiet.begin() + (f + 1) * n, soft.begin() + f * n);
    const auto c = test::decode_frames(*make_frame_decoder("ldpc", opts, device_spec::parse("cpu")), soft.data(), frames);
    int mended = 0, failed = 0;
    for (size_t f = 0; f < frames; ++f) {
        mended += c.status[f].inner == 0 && c.status[f].check == 1;
        failed += c.status[f].check == 0;
    }
    EXPECT_GT(mended, 0);
    EXPECT_GT(failed, 0);
    EXPECT_LT(mended + failed, int(frames)); // (clean frames too)
    for (const char* chunk : { "5", "396" }) {
        const test::scoped_env size("GPUFEC_LDPC_CHUNK", chunk);
        const auto gdec = make_frame_decoder("ldpc", opts, device_spec::parse("cuda"));
        const std::string what = std::string("chunk ") + chunk + ": " + gdec->backend();
        EXPECT_NE(gdec->backend().find("chain kernel"), std::string::npos) << what;
        const auto g = test::decode_frames(*gdec, soft.data(), frames);
        EXPECT_EQ(g.bits, c.bits) << what;
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(g.status[f].check, c.status[f].check) << what << " frame " << f;
            EXPECT_EQ(g.status[f].inner, c.status[f].inner) << what << " frame " << f;
            EXPECT_EQ(g.status[f].iterations, c.status[f].iterations) << what << " frame " << f;
        }
    }
}

TEST(ldpc_cuda, two_codewords_a_thread_match_the_cpu)
{
    // the layered kernel with two codewords a thread (int8; GPUFEC_LDPC_PAIRS=on takes it on GPUs
    // before compute capability 9.0 too, off never), in int16x2 and in half2 arithmetic
    // (GPUFEC_LDPC_PAIR_ARITH; half refuses 5G NR, whose columns are too long for fp16's exact
    // integers), the half2 form's message slots read 1 or 4 an access (GPUFEC_LDPC_MSG_VECTOR;
    // rows of odd degree leave padding slots): rows of 6 to 22 bits (the IEEE codes), 5G NR at
    // small liftings, odd batches (the last pair half empty), partners that stop at different
    // iterations (frames of two noise levels mixed), offset min-sum
    GPUFEC_REQUIRE_GPU();
    const char* codes[] = { "802.16e:2304:1/2", "802.11n:648:1/2",  "802.11n:1944:2/3", "802.16e:1440:3/4B",
                            "802.11n:1296:5/6", "802.16e:576:5/6", "nr:bg1:64",        "nr:bg2:104" };
    for (const char* id : codes) {
        const ldpc_code c = ldpc_code::standard(id);
        const int frames = 37;
        const auto info = test::random_bits(size_t(c.k()) * frames, 11);
        std::vector<uint8_t> cw(size_t(c.n()) * frames);
        ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
        const auto noisy = test::channel(cw, c.rate(), 1.0 + 1.5 * c.rate(), 12);
        const auto clean = test::channel(cw, c.rate(), 5.0, 13);
        std::vector<int8_t> soft(clean);
        for (int f = 1; f < frames; f += 3) // (partners 0/1, 2/3, ... of different noise)
            std::copy(noisy.begin() + f * c.n(), noisy.begin() + (f + 1) * c.n(), soft.begin() + f * c.n());
        const bool nr = std::string(id).rfind("nr:", 0) == 0;
        for (const char* pairs : { "on-int", "on-half", "on-half-v1", "on-half-v4", "off" }) {
            const std::string mode(pairs);
            const bool half = mode.rfind("on-half", 0) == 0;
            const int vector = mode.size() > 9 ? mode.back() - '0' : 0; // (0: the engine's choice)
            setenv("GPUFEC_LDPC_PAIRS", mode == "off" ? "off" : "on", 1);
            setenv("GPUFEC_LDPC_PAIR_ARITH", half ? "half" : "int", 1);
            if (vector)
                setenv("GPUFEC_LDPC_MSG_VECTOR", std::to_string(vector).c_str(), 1);
            else
                unsetenv("GPUFEC_LDPC_MSG_VECTOR");
            ldpc_options o;
            o.precision = ldpc_precision::int8;
            o.max_iterations = 8;
            o.max_batch = 19; // several chunks through the pipeline
            if (half && nr) {
                EXPECT_THROW(ldpc_decoder(c, o, device_spec::parse("cuda")), std::invalid_argument) << id;
                continue;
            }
            const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
            EXPECT_EQ(backend.find("2 codewords a thread") != std::string::npos, mode != "off")
                << id << ": " << backend;
            EXPECT_EQ(backend.find("fp16") != std::string::npos, half) << id << ": " << backend;
            if (vector)
                EXPECT_EQ(backend.find(std::to_string(vector) + " messages a load") != std::string::npos, vector > 1)
                    << id << ": " << backend;
            for_stop_and_offset(o, 3.f, [&](const std::string& setting) {
                const bool et = o.early_termination;
                const std::string what = std::string(id) + setting + " pairs " + pairs;
                expect_gpu_as_cpu(c, o, soft, frames, what);
                { // without posteriors (the half2 form's hard bits then come from its sign bits)
                    ldpc_decoder d(c, o, device_spec::parse("cuda"));
                    std::vector<uint8_t> bits(size_t(c.n()) * frames);
                    std::vector<ldpc_result> res(static_cast<size_t>(frames));
                    d.decode(soft.data(), size_t(frames), bits.data(), ldpc_output::codeword, false, res.data(),
                             nullptr);
                    EXPECT_EQ(bits, decode(c, o, "cpu", soft, frames).cw) << what << " without posteriors";
                }
                if (et) { // (some partners stopped apart: the kernel kept one while the other went on)
                    const auto r = decode(c, o, "cpu", soft, frames);
                    int apart = 0;
                    for (int f = 0; f + 1 < frames; f += 2)
                        apart += r.res[f].iterations != r.res[f + 1].iterations;
                    EXPECT_GT(apart, 0) << what;
                }
            });
        }
        unsetenv("GPUFEC_LDPC_PAIRS");
        unsetenv("GPUFEC_LDPC_PAIR_ARITH");
        unsetenv("GPUFEC_LDPC_MSG_VECTOR");
    }
}

TEST(ldpc_cuda, pair_kernels_compiled_for_a_codes_layers_match_the_cpu)
{
    // the half2 pair kernel with the layers of the rate-1/2 IEEE codes unrolled (layer_profile;
    // GPUFEC_LDPC_LAYER_PROFILE=off takes the layer loop), one and four message slots a load,
    // early stop on and off with partners that stop apart, odd batches, offset min-sum; codes of
    // other shapes (802.11n 1296 1/2, 802.16e 3/4B) take the loop
    GPUFEC_REQUIRE_GPU();
    const bool hopper = cuda_devices().at(0).cc_major >= 9; // (the profiles are compiled from 9.0 on)
    for (const char* id : { "802.11n:1944:1/2", "802.11n:1296:1/2", "802.16e:2304:1/2", "802.16e:576:1/2",
                            "802.16e:1440:3/4B" }) {
        const ldpc_code c = ldpc_code::standard(id);
        const std::string name(id);
        const bool profiled = name.find("1/2") != std::string::npos && name.find("1296") == std::string::npos;
        const int frames = 41;
        const auto soft = mixed_codewords(c, frames, 21, 1.5, 5.0);
        const test::scoped_env pairs("GPUFEC_LDPC_PAIRS", "on"), arith("GPUFEC_LDPC_PAIR_ARITH", "half");
        for (const char* vector : { "1", "4" })
            for (const char* layers : { "auto", "off" }) {
                const test::scoped_env slots("GPUFEC_LDPC_MSG_VECTOR", vector),
                    profile("GPUFEC_LDPC_LAYER_PROFILE", layers);
                ldpc_options o;
                o.precision = ldpc_precision::int8;
                o.max_iterations = 9;
                o.max_batch = 23;
                const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
                EXPECT_EQ(backend.find("layers compiled in") != std::string::npos,
                          hopper && profiled && std::string(layers) == "auto")
                    << id << ": " << backend;
                for_stop_and_offset(o, 2.f, [&](const std::string& setting) {
                    expect_gpu_as_cpu(c, o, soft, frames,
                                      std::string(id) + setting + " slots a load " + vector + " layers " + layers);
                });
            }
    }
}

TEST(ldpc_cuda, one_codeword_kernel_compiled_for_nr_base_graph_1_matches_the_cpu)
{
    // the int8 one-codeword layered kernel with 5G NR base graph 1's 46 layers unrolled
    // (layer_profile; GPUFEC_LDPC_LAYER_PROFILE=off takes the layer loop): Z = 384, where a pair
    // does not fit shared memory, and Z = 256 with pairs off, one block an SM each; early stop
    // on and off with codewords that stop apart, offset min-sum, odd batches. Base graph 2
    // (another shape) takes the loop.
    GPUFEC_REQUIRE_GPU();
    const bool hopper = cuda_devices().at(0).cc_major >= 9; // (the profiles are compiled from 9.0 on)
    const test::scoped_env pairs("GPUFEC_LDPC_PAIRS", "off");
    for (const char* id : { "nr:bg1:384", "nr:bg1:256", "nr:bg2:384" }) {
        const ldpc_code c = ldpc_code::standard(id);
        const bool profiled = std::string(id).find("bg1") != std::string::npos;
        const int frames = 13;
        const auto soft = mixed_codewords(c, frames, 31, 0.8, 3.0);
        for (const char* layers : { "auto", "off" }) {
            const test::scoped_env profile("GPUFEC_LDPC_LAYER_PROFILE", layers);
            ldpc_options o;
            o.precision = ldpc_precision::int8;
            o.max_iterations = 9;
            o.max_batch = 5;
            const std::string backend = ldpc_decoder(c, o, device_spec::parse("cuda")).backend();
            EXPECT_EQ(backend.find("layers compiled in") != std::string::npos,
                      hopper && profiled && std::string(layers) == "auto")
                << id << ": " << backend;
            EXPECT_EQ(backend.find("2 codewords a thread"), std::string::npos) << id << ": " << backend;
            for_stop_and_offset(o, 2.f, [&](const std::string& setting) {
                expect_gpu_as_cpu(c, o, soft, frames, std::string(id) + setting + " layers " + layers);
                if (o.early_termination) { // (codewords stopped apart)
                    const auto r = decode(c, o, "cpu", soft, frames);
                    std::set<int> iterations;
                    for (const auto& x : r.res)
                        iterations.insert(x.iterations);
                    EXPECT_GT(iterations.size(), 1u) << id << setting;
                }
            });
        }
    }
}

TEST(ldpc_cuda, rows_spread_over_several_lanes_match_the_cpu)
{
    // every kernel that spreads a row's entries over 2, 4 or 8 lanes (GPUFEC_LDPC_ROW_THREADS
    // forces what the engine would choose by occupancy): degrees that are no multiple of the
    // lanes (absent entries), shared and global messages, missing entries (DVB-S2's corner),
    // sub-layers of few rows (C2's seven), both precisions
    struct one {
        const char* id;
        ldpc_precision p;
        int frames;
        const char* messages; // GPUFEC_LDPC_MESSAGES, or null
        std::vector<int> lanes;
    };
    const one cases[] = { { "802.16e:576:1/2", ldpc_precision::int16, 37, nullptr, { 2, 4 } },
                          { "802.16e:2304:3/4B", ldpc_precision::int8, 11, nullptr, { 2, 4 } },
                          { "802.11n:1944:5/6", ldpc_precision::int8, 9, "global", { 2, 4, 8 } },
                          { "nr:bg1:384", ldpc_precision::int8, 3, nullptr, { 2 } },
                          { "nr:bg2:384", ldpc_precision::int16, 3, nullptr, { 2 } },
                          { "dvbs2:16200:1/2", ldpc_precision::int8, 5, nullptr, { 2 } },
                          { "dvbs2:64800:9/10", ldpc_precision::int8, 2, nullptr, { 2, 4 } },
                          { "ccsds:8160:7136", ldpc_precision::int16, 3, nullptr, { 4, 8 } },
                          { "ccsds:32768:16384", ldpc_precision::int8, 2, nullptr, { 2 } } };
    GPUFEC_REQUIRE_GPU();
    for (const auto& k : cases) {
        const ldpc_code c = ldpc_code::standard(k.id);
        const auto soft = noisy_codewords(c, k.frames, 5);
        for (bool et : { true, false }) {
            ldpc_options o;
            o.precision = k.p;
            o.early_termination = et;
            o.max_iterations = 6;
            o.max_batch = 2; // several chunks through the pipeline
            for (int lanes : k.lanes)
                expect_gpu_as_cpu(c, o, soft, k.frames,
                                  std::string(k.id) + " " + to_string(k.p) + (et ? " ET" : "") +
                                      " lanes=" + std::to_string(lanes),
                                  k.messages, lanes);
        }
    }
}

TEST(ldpc_cuda, frames_as_sent_dvbs2_with_bch_and_nr_match_the_cpu)
{
    // DVB-S2 frames as sent (the parity bits in the standard's order, and through the 8PSK bit
    // interleaver: both placed by the kernel from a gather table) with the BCH after the LDPC
    // (the GPU engine decodes it after its LDPC kernel): the bits, the BCH verdicts (check) and
    // the LDPC's (inner) equal the CPU decoder's. The first case, 15 iterations at 1.2 dB, leaves
    // the CPU with frames clean, frames the BCH mends and frames it gives up (seeds 7 and 9: 20,
    // 33 and 11 of 64)
    GPUFEC_REQUIRE_GPU();
    struct one {
        const char* options;
        double ebn0;
        bool mixed; // the case above: some frames mended, some failed
        const char* chunk = nullptr; // GPUFEC_LDPC_CHUNK
    };
    for (const one& k : { one{ "code=dvbs2:16200:1/2, outer=bch, max_iterations=15", 1.2, true },
                          // with the BCH the engine keeps eight chunks in flight (four slots
                          // added to its pipeline): chunks of 5 frames make 13, so that every
                          // slot, the added ones too, is used and then reused
                          one{ "code=dvbs2:16200:1/2, outer=bch, max_iterations=15", 1.2, true, "5" },
                          one{ "code=dvbs2:16200:3/5, interleaver=8psk, outer=bch, max_iterations=15", 2.0, false },
                          one{ "code=dvbs2:64800:2/3, interleaver=8psk, precision=int8, max_iterations=8", 2.6, false },
                          // DVB-S2X VL-SNR: the medium frame's BCH over GF(2^15); a short frame
                          // punctured and shortened as the code's own, its BCH after the
                          // leading shortened bits
                          one{ "code=dvbs2:32400:1/3, outer=bch, precision=int8, max_iterations=8", 0.4, false },
                          one{ "code=dvbs2:16200:11/45-vlsnr-sf2, outer=bch, precision=int8, max_iterations=8", 1.0,
                               false },
                          // 5G NR at rate 8/9: the graph without the rows of unsent parity
                          // (5 of 46 block rows, ldpc_trim.h)
                          one{ "code=nr:bg1:384, puncture=0:768 10272:26112, precision=int8, max_iterations=8", 4.0,
                               false },
                          // and at rate 1/3 with filler bits (known zeros) and the first 2Z
                          // bits unsent: the whole graph (the kernel compiled for its layers)
                          one{ "code=nr:bg1:384, puncture=0:768, shorten=8000:8448, precision=int8, max_iterations=8",
                               1.0, false } }) {
        const auto opts = parse_frame_options(k.options);
        const auto enc = make_frame_encoder("ldpc", opts);
        const size_t frames = 64;
        const auto info = test::random_bits(enc->info_bits() * frames, 7);
        std::vector<uint8_t> coded(enc->coded_bits() * frames);
        enc->encode(info.data(), frames, coded.data());
        const auto soft = test::channel(coded, double(enc->info_bits()) / double(enc->coded_bits()), k.ebn0, 9);
        if (k.chunk)
            setenv("GPUFEC_LDPC_CHUNK", k.chunk, 1);
        const auto gdec = make_frame_decoder("ldpc", opts, device_spec::parse("cuda"));
        unsetenv("GPUFEC_LDPC_CHUNK");
        const auto cdec = make_frame_decoder("ldpc", opts, device_spec::parse("cpu"));
        EXPECT_EQ(gdec->backend().rfind("cuda", 0), 0u) << k.options;
        const auto g = test::decode_frames(*gdec, soft.data(), frames);
        const auto c = test::decode_frames(*cdec, soft.data(), frames);
        EXPECT_EQ(g.bits, c.bits) << k.options;
        const auto& gst = g.status;
        const auto& cst = c.status;
        int mended = 0, failed = 0;
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(gst[f].check, cst[f].check) << k.options << " frame " << f;
            EXPECT_EQ(gst[f].inner, cst[f].inner) << k.options << " frame " << f;
            EXPECT_EQ(gst[f].iterations, cst[f].iterations) << k.options << " frame " << f;
            mended += cst[f].inner == 0 && cst[f].check == 1;
            failed += cst[f].check == 0;
        }
        if (k.mixed) {
            EXPECT_GT(mended, 0);
            EXPECT_GT(failed, 0);
        }
    }
    // int16 messages need int32 posteriors: 259 KB a 64800-bit codeword, beyond a block's
    // shared memory, and at rate 3/4 242 KB without the chain bits (the chain kernel takes 1/2,
    // below); device=cuda refuses with the reason, device=auto decodes on the CPU
    const auto int16 = parse_frame_options("code=dvbs2:64800:3/4, precision=int16");
    try {
        make_frame_decoder("ldpc", int16, device_spec::parse("cuda"));
        ADD_FAILURE() << "a 64800-bit codeword in int16 was taken by the GPU";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("too long for the GPU's shared memory"), std::string::npos) << e.what();
    }
    EXPECT_EQ(make_frame_decoder("ldpc", int16, device_spec::parse("auto"))->backend().rfind("cpu", 0), 0u);
}

TEST(ldpc_cuda, batches_in_page_locked_memory_through_many_chunks_match_the_cpu)
{
    // Page-locked memory (as the asynchronous decoder's slots are) is copied from and to
    // directly, without the batch pipeline's staging buffers (runtime/batch_pipeline.h). Chunks
    // of 7 codewords make 30 over the 4 slots, each slot reused seven times: the packed bits
    // straight into the caller's memory, the unpacked bits through the decoder's own buffer,
    // the status in page-locked or in ordinary memory (staged), all equal the CPU's. The status
    // starts as garbage: the GPU engine writes each frame's whole (the decoder does not reset
    // it first), and frame 3, all zeros, is still reported erased.
    GPUFEC_REQUIRE_GPU();
    const auto opts = parse_frame_options("code=802.11n:1944:1/2, precision=int8, max_iterations=8");
    const auto enc = make_frame_encoder("ldpc", opts);
    const size_t frames = 207, n = enc->coded_bits();
    const auto info = test::random_bits(enc->info_bits() * frames, 21);
    std::vector<uint8_t> coded(n * frames);
    enc->encode(info.data(), frames, coded.data());
    auto soft = test::channel(coded, double(enc->info_bits()) / double(n), 1.6, 22);
    std::fill(soft.begin() + 3 * n, soft.begin() + 4 * n, int8_t(0));
    const auto cdec = make_frame_decoder("ldpc", opts, device_spec::parse("cpu"));
    const auto want = test::decode_frames(*cdec, soft.data(), frames);
    std::unique_ptr<batch_decoder> gdec;
    {
        test::scoped_env chunk("GPUFEC_LDPC_CHUNK", "7");
        gdec = make_frame_decoder("ldpc", opts, device_spec::parse("cuda"));
    }
    ASSERT_EQ(gdec->backend().rfind("cuda", 0), 0u);
    host_buffer in(soft.size()), bits(gdec->output_bytes(false) * frames),
        status(frames * sizeof(frame_status));
    ASSERT_TRUE(in.pinned() && bits.pinned() && status.pinned());
    std::copy(soft.begin(), soft.end(), reinterpret_cast<int8_t*>(in.data()));
    auto* st = reinterpret_cast<frame_status*>(status.data());
    ASSERT_EQ(want.status[3].erased, 1);
    for (const bool packed : { true, false, true }) {
        for (const bool locked : { true, false }) {
            std::fill(bits.data(), bits.data() + bits.size(), uint8_t(0x5a));
            std::vector<frame_status> plain(frames);
            std::fill(reinterpret_cast<uint8_t*>(plain.data()), reinterpret_cast<uint8_t*>(plain.data() + frames),
                      uint8_t(0x5a));
            std::fill(status.data(), status.data() + status.size(), uint8_t(0x5a));
            frame_batch b;
            b.frames = frames;
            b.soft = reinterpret_cast<const int8_t*>(in.data());
            b.bits = bits.data();
            b.packed = packed;
            b.status = locked ? st : plain.data();
            gdec->decode(b);
            const std::string what =
                std::string(packed ? "packed" : "unpacked") + (locked ? ", page-locked" : ", status in ordinary memory");
            for (size_t f = 0; f < frames; ++f) {
                const frame_status& g = locked ? st[f] : plain[f];
                EXPECT_EQ(g.iterations, want.status[f].iterations) << what << " frame " << f;
                EXPECT_EQ(g.check, want.status[f].check) << what << " frame " << f;
                EXPECT_EQ(g.erased, want.status[f].erased) << what << " frame " << f;
                EXPECT_EQ(g.inner, want.status[f].inner) << what << " frame " << f;
                EXPECT_EQ(g.corrected, want.status[f].corrected) << what << " frame " << f;
                for (size_t i = 0; i < enc->info_bits(); ++i) {
                    const uint8_t got = packed ? (bits.data()[f * gdec->output_bytes(true) + i / 8] >> (7 - i % 8)) & 1
                                               : bits.data()[f * enc->info_bits() + i];
                    ASSERT_EQ(got, want.bits[f * enc->info_bits() + i]) << what << " frame " << f << " bit " << i;
                }
            }
        }
    }
}

TEST(ldpc_cuda, packed_4bit_input_read_by_the_kernels_matches_the_cpu)
{
    // packed 4-bit frames (frame_batch::soft4) read where each kernel loads a codeword: the pair
    // kernel in fp16 and in int16x2, the one-codeword layered kernel, the general kernel through
    // the gather table (DVB-S2 as sent, its BCH after it) and through runs (5G NR without its
    // unsent bits), batches cut into chunks; the bits and statuses the CPU decoder gives from the
    // unpacked values (unpack_soft4: 16 q), of which full-scale ones (q = -8 reads as -7)
    GPUFEC_REQUIRE_GPU();
    struct one {
        const char* options;
        const char* arith; // GPUFEC_LDPC_PAIR_ARITH
        double ebn0;
    };
    for (const one& k : { one{ "code=802.16e:2304:1/2, precision=int8, max_batch=300", "auto", 1.6 },
                          one{ "code=802.11n:1944:5/6, precision=int8, max_batch=300", "int", 3.5 },
                          one{ "code=802.11n:648:1/2, precision=int8", "auto", 1.8 },
                          one{ "code=802.16e:2304:1/2, precision=int16", "auto", 1.6 },
                          one{ "code=dvbs2:16200:1/2, outer=bch, max_iterations=15", "auto", 1.2 },
                          one{ "code=nr:bg1:384, puncture=0:768 10272:26112, precision=int8, max_iterations=8",
                               "auto", 4.0 } }) {
        test::scoped_env arith("GPUFEC_LDPC_PAIR_ARITH", k.arith);
        const auto opts = parse_frame_options(k.options);
        const auto enc = make_frame_encoder("ldpc", opts);
        const size_t frames = 61, per = enc->coded_bits();
        auto soft = noisy_frames(*enc, frames, k.ebn0, 17, 19);
        for (size_t i = 0; i < soft.size(); i += 7)
            soft[i] = soft[i] < 0 ? int8_t(-128) : int8_t(127);
        std::vector<uint8_t> packed((soft.size() + 1) / 2);
        pack_soft4(soft.data(), packed.data(), soft.size());
        std::vector<int8_t> unpacked(soft.size());
        unpack_soft4(packed.data(), unpacked.data(), soft.size());
        for (size_t i = 0; i < per / 2; ++i) // (frame 0: q = -8 throughout, read as -7)
            packed[i] = 0x88;
        unpack_soft4(packed.data(), unpacked.data(), per);
        const auto gdec = make_frame_decoder("ldpc", opts, device_spec::parse("cuda"));
        const auto cdec = make_frame_decoder("ldpc", opts, device_spec::parse("cpu"));
        EXPECT_TRUE(gdec->takes_soft4()) << k.options;
        const auto g = test::decode_frames_soft4(*gdec, packed.data(), frames);
        const auto c = test::decode_frames(*cdec, unpacked.data(), frames);
        EXPECT_EQ(g.bits, c.bits) << k.options << " " << gdec->backend();
        for (size_t f = 0; f < frames; ++f) {
            EXPECT_EQ(g.status[f].check, c.status[f].check) << k.options << " frame " << f;
            EXPECT_EQ(g.status[f].inner, c.status[f].inner) << k.options << " frame " << f;
            EXPECT_EQ(g.status[f].iterations, c.status[f].iterations) << k.options << " frame " << f;
        }
    }
}

TEST(ldpc_cuda, packed_outputs_written_in_place_match_the_cpu)
{
    GPUFEC_REQUIRE_GPU();
    // information bits (k = 324: not whole bytes) and codewords, packed, several chunks
    for (const char* id : { "802.11n:648:1/2", "802.16e:2304:1/2" }) {
        const ldpc_code c = ldpc_code::standard(id);
        const int frames = 50;
        const auto info = test::random_bits(size_t(c.k()) * frames, 3);
        std::vector<uint8_t> cw(size_t(c.n()) * frames);
        ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
        const auto soft = test::channel(cw, c.rate(), 2.0, 4);
        for (auto what : { ldpc_output::info, ldpc_output::codeword }) {
            const size_t bytes = (size_t(what == ldpc_output::info ? c.k() : c.n()) + 7) / 8 * frames;
            std::vector<uint8_t> out[2];
            std::vector<ldpc_result> res[2];
            int i = 0;
            for (const char* dev : { "cuda", "cpu" }) {
                ldpc_options o;
                o.max_batch = 17;
                ldpc_decoder d(c, o, device_spec::parse(dev));
                out[i].assign(bytes + 1, 0xAB); // one guard byte after the output
                res[i].resize(frames);
                d.decode(soft.data(), size_t(frames), out[i].data(), what, true, res[i].data());
                ++i;
            }
            EXPECT_EQ(out[0], out[1]) << id;
            EXPECT_EQ(out[0].back(), 0xAB) << id << ": wrote past the output";
            for (int f = 0; f < frames; ++f)
                EXPECT_EQ(res[0][f].iterations, res[1][f].iterations) << id << " " << f;
        }
    }
}

TEST(ldpc_cuda, large_batch_and_offset_min_sum)
{
    GPUFEC_REQUIRE_GPU();
    const ldpc_code c = ldpc_code::standard("802.16e:2304:1/2");
    const int frames = 3000;
    const auto info = test::random_bits(size_t(c.k()) * frames, 4);
    std::vector<uint8_t> cw(size_t(c.n()) * frames);
    ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
    const auto soft = test::channel(cw, c.rate(), 1.6, 5);
    ldpc_options o;
    o.normalization = 1.0f;
    o.offset = 4.f;
    const auto g = decode(c, o, "cuda", soft, frames);
    const auto r = decode(c, o, "cpu", soft, frames);
    EXPECT_EQ(g.cw, r.cw);
    for (int f = 0; f < frames; ++f)
        ASSERT_EQ(g.res[f].iterations, r.res[f].iterations) << f;
}

TEST(ldpc_cuda, two_instances_run_concurrently)
{
    GPUFEC_REQUIRE_GPU();
    const ldpc_code a = ldpc_code::standard("802.11n:1944:1/2"), b = ldpc_code::standard("802.16e:576:5/6");
    auto job = [](const ldpc_code& c, bool* ok) {
        const int frames = 500;
        const auto info = test::random_bits(size_t(c.k()) * frames, 8);
        std::vector<uint8_t> cw(size_t(c.n()) * frames);
        ldpc_encoder(c).encode(info.data(), size_t(frames), cw.data());
        const auto soft = test::channel(cw, c.rate(), 0, 9, false);
        ldpc_decoder d(c, ldpc_options{}, device_spec::parse("cuda"));
        std::vector<uint8_t> out(info.size());
        for (int rep = 0; rep < 5; ++rep)
            d.decode(soft.data(), size_t(frames), out.data());
        *ok = out == info;
    };
    bool ok_a = false, ok_b = false;
    std::thread ta(job, std::cref(a), &ok_a), tb(job, std::cref(b), &ok_b);
    ta.join();
    tb.join();
    EXPECT_TRUE(ok_a);
    EXPECT_TRUE(ok_b);
}

TEST(ldpc_cuda, a_decoder_made_later_with_less_shared_memory_leaves_the_first_working)
{
    // the kernel's shared-memory limit is one per process: the second decoder must not lower it
    GPUFEC_REQUIRE_GPU();
    const ldpc_code big = ldpc_code::standard("802.16e:2304:1/2"), small = ldpc_code::standard("802.11n:648:1/2");
    const int frames = 300;
    const auto info = test::random_bits(size_t(big.k()) * frames, 4);
    std::vector<uint8_t> cw(size_t(big.n()) * frames);
    ldpc_encoder(big).encode(info.data(), size_t(frames), cw.data());
    const auto soft = test::channel(cw, big.rate(), 0, 5, false);
    ldpc_decoder first(big, ldpc_options{}, device_spec::parse("cuda"));
    ldpc_decoder second(small, ldpc_options{}, device_spec::parse("cuda"));
    std::vector<uint8_t> out(info.size());
    first.decode(soft.data(), size_t(frames), out.data());
    EXPECT_EQ(out, info);
}

TEST(ldpc_cuda, half2_arithmetic_at_the_edge_of_its_exact_range_matches_the_cpu)
{
    // the pair kernel's fp16 form where its values are largest: every column of degree 15 (the
    // most it takes: posteriors up to 128 + 15 * 127 = 2033), full-scale input (-128 included),
    // so that rows' smallest magnitudes pass 1023 (where the form clamps them before the
    // normalisation) and the posteriors come near 2048; a few bits flipped so that rows fail
    GPUFEC_REQUIRE_GPU();
    const int z = 16, mb = 15, nb = 20;
    std::vector<int> shifts(size_t(mb) * nb);
    for (size_t i = 0; i < shifts.size(); ++i)
        shifts[i] = int((i * 7 + i / nb * 3) % z);
    const ldpc_code c = ldpc_code::from_base_matrix(z, mb, nb, shifts, "dense degree-15 columns");
    const int frames = 23;
    std::vector<int8_t> soft(size_t(c.n()) * frames, int8_t(-127)); // the zero codeword, certain
    for (size_t i = 0; i < soft.size(); ++i) {
        if (i % 3 == 0)
            soft[i] = -128;
        if (i % 97 == 5)
            soft[i] = int8_t(60 + int(i % 50)); // (flipped)
    }
    setenv("GPUFEC_LDPC_PAIRS", "on", 1);
    for (const char* arith : { "half", "half-v4", "int" }) {
        const std::string a(arith);
        setenv("GPUFEC_LDPC_PAIR_ARITH", a.substr(0, a.find('-')).c_str(), 1);
        setenv("GPUFEC_LDPC_MSG_VECTOR", a == "half-v4" ? "4" : "1", 1);
        for (bool et : { true, false }) {
            ldpc_options o;
            o.precision = ldpc_precision::int8;
            o.early_termination = et;
            o.max_iterations = 6;
            EXPECT_EQ(ldpc_decoder(c, o, device_spec::parse("cuda")).backend().find("fp16") != std::string::npos,
                      a != "int");
            expect_gpu_as_cpu(c, o, soft, frames, a + (et ? " ET" : ""));
        }
    }
    unsetenv("GPUFEC_LDPC_MSG_VECTOR");
    unsetenv("GPUFEC_LDPC_PAIR_ARITH");
    unsetenv("GPUFEC_LDPC_PAIRS");
    // one more bit of column degree and fp16 would no longer be exact: refused when forced
    std::vector<int> deeper(size_t(mb + 1) * nb);
    for (size_t i = 0; i < deeper.size(); ++i)
        deeper[i] = int((i * 5) % z);
    const ldpc_code d = ldpc_code::from_base_matrix(z, mb + 1, nb, deeper, "degree-16 columns");
    setenv("GPUFEC_LDPC_PAIRS", "on", 1);
    setenv("GPUFEC_LDPC_PAIR_ARITH", "half", 1);
    ldpc_options o;
    o.precision = ldpc_precision::int8;
    EXPECT_THROW(ldpc_decoder(d, o, device_spec::parse("cuda")), std::invalid_argument);
    unsetenv("GPUFEC_LDPC_PAIR_ARITH");
    EXPECT_EQ(ldpc_decoder(d, o, device_spec::parse("cuda")).backend().find("fp16"), std::string::npos);
    unsetenv("GPUFEC_LDPC_PAIRS");
}

TEST(ldpc_cuda, rows_of_two_bits_and_mixed_degrees_match_the_cpu)
{
    GPUFEC_REQUIRE_GPU();
    // a user's QC code with checks on two bits beside rows of 5 and 6 bits (degrees the
    // standard codes do not have); the all-zero codeword under noise
    const ldpc_code c = ldpc_code::from_base_matrix(16, 3, 8,
                                                    { -1, -1, -1, -1, -1, -1, 12, 3,  //
                                                      0, 5, -1, 2, 9, -1, 1, 0,       //
                                                      4, -1, 7, 11, -1, 0, 0, -1 },
                                                    "degree-two row");
    const int frames = 29;
    const std::vector<uint8_t> zeros(size_t(c.n()) * frames, 0);
    const auto soft = test::channel(zeros, 0.5, 1.0, 5);
    for (auto p : { ldpc_precision::int8, ldpc_precision::int16 })
        for (bool et : { true, false }) {
            ldpc_options o;
            o.precision = p;
            o.early_termination = et;
            o.max_iterations = 6;
            const auto g = decode(c, o, "cuda", soft, frames);
            const auto r = decode(c, o, "cpu", soft, frames);
            const auto ref = [&] {
                ldpc_options oo = o;
                oo.cpu_reference = true;
                return decode(c, oo, "cpu", soft, frames);
            }();
            const std::string what = to_string(p) + (et ? " ET" : "");
            EXPECT_EQ(g.cw, r.cw) << what;
            EXPECT_EQ(g.post, r.post) << what;
            EXPECT_EQ(r.post, ref.post) << what;
            for (int f = 0; f < frames; ++f) {
                EXPECT_EQ(g.res[f].iterations, r.res[f].iterations) << what << " frame " << f;
                EXPECT_EQ(g.res[f].syndrome_ok, r.res[f].syndrome_ok) << what << " frame " << f;
            }
        }
}

TEST(ldpc_cuda, base_matrix_beyond_the_launch_table_is_refused_or_decoded_on_the_cpu)
{
    GPUFEC_REQUIRE_GPU();
    // 70 rows of 32 entries: 2240 non-zero entries, more than the kernel's table holds (2048)
    const int mb = 70, nb = 100;
    std::vector<int> shifts(size_t(mb) * nb, -1);
    for (int r = 0; r < mb; ++r)
        for (int j = 0; j < 32; ++j)
            shifts[size_t(r) * nb + (r + 3 * j) % nb] = (r + j) % 2;
    const ldpc_code c = ldpc_code::from_base_matrix(2, mb, nb, shifts, "dense");
    try {
        ldpc_decoder d(c, ldpc_options(), device_spec::parse("cuda"));
        FAIL() << "device cuda accepted a table of 2240 entries";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("2048"), std::string::npos) << e.what();
    }
    ldpc_decoder d(c, ldpc_options(), device_spec::parse("auto"));
    EXPECT_EQ(d.backend().rfind("cpu", 0), 0u) << d.backend();
}
