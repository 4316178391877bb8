/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The GPU BCH decoder against the CPU one (bch_code::decode_packed), codeword by
 * codeword: the same words out and the same verdicts, from no error to t + 3 errors at
 * random places, for the DVB-S2 codes (GF(2^16), GF(2^14); t = 12, 10, 8) and small codes
 * whose length is no whole number of bytes. Skipped without a GPU. */
#include "codes/bch_gpu.h"
#include "testing/test_util.h"

#include <gtest/gtest.h>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace gpufec;

TEST(bch_gpu, corrects_and_fails_as_the_cpu_decoder)
{
    GPUFEC_REQUIRE_GPU();
    const bch_code codes[] = {
        bch_code::dvbs2(64800, "1/2"),  bch_code::dvbs2(64800, "2/3"),
        bch_code::dvbs2(64800, "9/10"), bch_code::dvbs2(16200, "3/5"),
        bch_code(8, 0x11d, 5, 203),     bch_code(10, 0x409, 3, 1000)
    };
    std::mt19937 rng(11);
    for (const bch_code& c : codes) {
        const size_t nbytes = (size_t(c.n()) + 7) / 8;
        // codewords one after the other at a stride that is no multiple of 4 (read a byte
        // at a time) and at one that is (whole words)
        for (const size_t stride :
             { nbytes % 4 == 1 ? nbytes + 2 : nbytes + 3, (nbytes + 7) / 4 * 4 }) {
            const int frames = 4 * (c.t() + 4) + 5;
            const size_t nf = size_t(frames);
            std::vector<uint8_t> sent(nf * stride, 0), got;
            for (int f = 0; f < frames; ++f) {
                uint8_t* w = sent.data() + size_t(f) * stride;
                const auto info = test::random_bits(size_t(c.k()), uint32_t(f + 1));
                std::vector<uint8_t> cw(size_t(c.n()));
                c.encode(info.data(), cw.data());
                for (int i = 0; i < c.n(); ++i)
                    w[i / 8] |= uint8_t(cw[size_t(i)] << (7 - i % 8));
            }
            got = sent;
            std::vector<int> errors(nf);
            for (int f = 0; f < frames; ++f) { // 0 .. t + 3 errors at distinct places
                errors[size_t(f)] = f % (c.t() + 4);
                std::set<int> at;
                while (int(at.size()) < errors[size_t(f)])
                    at.insert(int(rng() % unsigned(c.n())));
                for (int p : at)
                    got[size_t(f) * stride + size_t(p) / 8] ^= uint8_t(0x80u >> (p % 8));
            }
            std::vector<uint8_t> cpu = got, gpu = got;
            std::vector<int> cpu_result(nf), gpu_result(nf);
            for (int f = 0; f < frames; ++f)
                cpu_result[size_t(f)] = c.decode_packed(cpu.data() + size_t(f) * stride);
            make_bch_gpu(c, 0)->decode_host(gpu.data(), stride, nf, gpu_result.data());
            for (int f = 0; f < frames; ++f) {
                const std::string what = c.describe() + " stride " +
                                         std::to_string(stride) + " frame " +
                                         std::to_string(f) + ", " +
                                         std::to_string(errors[size_t(f)]) + " errors";
                EXPECT_EQ(gpu_result[size_t(f)], cpu_result[size_t(f)]) << what;
                const size_t at = size_t(f) * stride;
                EXPECT_TRUE(std::equal(gpu.begin() + long(at),
                                       gpu.begin() + long(at + stride),
                                       cpu.begin() + long(at)))
                    << what;
                if (errors[size_t(f)] <=
                    c.t()) { // within the code's power: the word sent, the errors counted
                    EXPECT_EQ(gpu_result[size_t(f)], errors[size_t(f)]) << what;
                    EXPECT_TRUE(std::equal(gpu.begin() + long(at),
                                           gpu.begin() + long(at + stride),
                                           sent.begin() + long(at)))
                        << what;
                }
            }
        }
    }
}

TEST(bch_gpu, codes_beyond_sixteen_errors_are_refused)
{
    GPUFEC_REQUIRE_GPU();
    EXPECT_THROW(make_bch_gpu(bch_code(10, 0x409, 17, 1000), 0), std::invalid_argument);
}
