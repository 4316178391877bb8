/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* gpufec_rs_anchor: the Reed-Solomon CPU decoder beside Debian's libfec (decode_rs_ccsds, what
 * gr-satellites uses) on the same codeblocks, one thread, in one run (docs/performance.md).
 *   gpufec_rs_anchor [errors a codeword (8)] [interleaving depth (5)] [codeblocks (4000)]
 * Figures: decoded information bits per second, deinterleaving and the dual basis included on
 * both sides; CCSDS (255, 223) E = 16 in the dual basis, errors at random positions. */
#include <gnuradio/gpufec/core/codes/reed_solomon.h>

#include "rs_cpu.h"
#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

extern "C" {
#include <fec.h>
}

using namespace gpufec;

namespace {

double seconds_of(const std::function<void()>& f, int reps)
{
    f(); // (warm-up)
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
        f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
}

} // namespace

int main(int argc, char** argv)
{
    const int errors = argc > 1 ? std::atoi(argv[1]) : 8;
    const int depth = argc > 2 ? std::atoi(argv[2]) : 5;
    const size_t blocks = argc > 3 ? size_t(std::atol(argv[3])) : 4000;
    rs_code c = rs_code::named("ccsds:255:223");
    c.interleave = depth;
    if (errors < 0 || errors > 255 || blocks < 1) {
        std::fprintf(stderr, "gpufec_rs_anchor: errors 0..255, codeblocks >= 1\n");
        return 2;
    }
    c.check();
    rs_encoder enc(c);
    std::mt19937 rng(1);
    std::vector<uint8_t> in(blocks * c.block_bytes()), info(c.info_bytes());
    for (size_t b = 0; b < blocks; ++b) {
        for (auto& x : info)
            x = uint8_t(rng());
        uint8_t* block = in.data() + b * c.block_bytes();
        enc.encode(info.data(), block);
        for (int j = 0; j < depth; ++j) {
            std::vector<int> pos(255);
            for (int i = 0; i < 255; ++i)
                pos[size_t(i)] = i;
            std::shuffle(pos.begin(), pos.end(), rng);
            for (int e = 0; e < errors; ++e)
                block[size_t(pos[size_t(e)]) * size_t(depth) + size_t(j)] ^= uint8_t(1 + rng() % 255);
        }
    }
    const double bits = double(blocks * c.info_bytes() * 8);
    std::vector<uint8_t> ours(blocks * c.info_bytes()), theirs(ours.size());
    std::vector<int> result(blocks * size_t(depth));
    rs_cpu_decoder dec(c);
    const double t_ours = seconds_of([&] { dec.decode_blocks(in.data(), blocks, ours.data(), result.data()); }, 3);
    std::vector<uint8_t> cw(255);
    int failures = 0;
    const double t_libfec = seconds_of(
        [&] {
            failures = 0;
            for (size_t b = 0; b < blocks; ++b)
                for (int j = 0; j < depth; ++j) {
                    const uint8_t* block = in.data() + b * c.block_bytes();
                    for (int s = 0; s < 255; ++s)
                        cw[size_t(s)] = block[size_t(s) * size_t(depth) + size_t(j)];
                    failures += decode_rs_ccsds(cw.data(), nullptr, 0, 0) < 0;
                    for (int s = 0; s < 223; ++s)
                        theirs[b * c.info_bytes() + size_t(s) * size_t(depth) + size_t(j)] = cw[size_t(s)];
                }
        },
        3);
    const bool same = ours == theirs;
    std::printf("%s, %d errors a codeword, %zu codeblocks, one thread\n", c.describe().c_str(), errors, blocks);
    std::printf("gr-gpufec %-28s %9.1f Mb/s\n", dec.name().c_str(), bits / t_ours / 1e6);
    std::printf("libfec decode_rs_ccsds             %9.1f Mb/s  (%d failures)\n", bits / t_libfec / 1e6, failures);
    std::printf("ratio %.2f, the same information bytes: %s\n", t_libfec / t_ours, same ? "yes" : "NO");
    return same ? 0 : 1;
}
