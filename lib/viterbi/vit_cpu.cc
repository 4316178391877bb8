/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU Viterbi engine: the reference arithmetic (vit_common.h) with 16-bit metrics,
 * vectorised across jobs: a group of 16 or 32 jobs (one per SIMD lane, vit_cpu_lanes.h) runs
 * through one trellis at once, and groups are spread over threads. The instruction set is
 * chosen once at run time: AVX-512BW (32 lanes), AVX2 (16 lanes) or the compiler's baseline
 * (8 lanes: SSE2, or NEON on ARM); all give the same output. */
#include "vit_cpu_lanes.h"
#include "vit_engine.h"
#include <gnuradio/gpufec/core/codes/trellis.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include "../runtime/simd_isa.h"
#include "../runtime/cpu_pool.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <cstring>
#include <thread>
#include <vector>

namespace gpufec {

namespace {

constexpr int max_lanes = 32;

//! lanes = one register of int16: wider vectors are split by the compiler, and for SSE2 it
//! splits them badly (element by element)
int isa_lanes(simd_isa isa) { return isa == simd_isa::avx512 ? 32 : isa == simd_isa::avx2 ? 16 : 8; }

// One entry point per instruction set; each inlines the same body (vit_cpu_lanes.h), compiled
// for K = 7 (the CCSDS, NASA, 802.11 and LTE codes: its loops unrolled), with symmetric
// butterflies (all of those) or not, and for any K.
#define GPUFEC_VIT_LANES_BODY(LANES)                                                                \
    if (p.K == 7 && symmetric)                                                                      \
        decode_lanes_body<LANES, 7, true>(p, soft, jobs, used, bm_index, out, scratch);             \
    else if (p.K == 7)                                                                              \
        decode_lanes_body<LANES, 7>(p, soft, jobs, used, bm_index, out, scratch);                   \
    else                                                                                            \
        decode_lanes_body<LANES>(p, soft, jobs, used, bm_index, out, scratch);

void lanes_baseline(const vit_params& p, const int8_t* soft, const vit_job* jobs, int used,
                    const uint32_t* bm_index, bool symmetric, uint8_t* out, void* scratch)
{
    GPUFEC_VIT_LANES_BODY(8)
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) void lanes_avx2(const vit_params& p, const int8_t* soft, const vit_job* jobs,
                                                int used, const uint32_t* bm_index, bool symmetric, uint8_t* out,
                                                void* scratch)
{
    GPUFEC_VIT_LANES_BODY(16)
}

__attribute__((target("avx512f,avx512bw"))) void lanes_avx512(const vit_params& p, const int8_t* soft,
                                                              const vit_job* jobs, int used,
                                                              const uint32_t* bm_index, bool symmetric,
                                                              uint8_t* out, void* scratch)
{
    GPUFEC_VIT_LANES_BODY(32)
}
#endif
#undef GPUFEC_VIT_LANES_BODY

void run_lanes(simd_isa isa, const vit_params& p, const int8_t* soft, const vit_job* jobs,
               int used, const uint32_t* bm_index, bool symmetric, uint8_t* out, void* scratch)
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return lanes_avx512(p, soft, jobs, used, bm_index, symmetric, out, scratch);
    if (isa == simd_isa::avx2)
        return lanes_avx2(p, soft, jobs, used, bm_index, symmetric, out, scratch);
#endif
    lanes_baseline(p, soft, jobs, used, bm_index, symmetric, out, scratch);
}

struct group_scratch {
    std::vector<uint8_t> raw; // lane vectors, 64-byte aligned inside
};

class cpu_engine : public vit_engine
{
public:
    cpu_engine(const conv_code& code, int threads)
        : d_ref(make_viterbi_reference(code)),
          d_pool(get_cpu_pool(threads)),
          d_threads(d_pool->size()),
          d_scratch(size_t(d_threads))
    {
        // branches from the codes layer's trellis (shift-register states: bit 0 = newest input)
        const trellis tr = trellis::feed_forward(code);
        const uint32_t states = code.states();
        d_out.resize(2 * states);
        for (uint32_t s = 0; s < states; ++s)
            for (uint32_t x = 0; x < 2; ++x)
                d_out[2 * s + x] = tr.output(s, x);
        // symmetric butterflies (vit_cpu_lanes.h): j -> 2j and j + N/2 -> 2j + 1 share a
        // pattern, the other two branches carry its complement
        const uint32_t half = states / 2, all = (1u << code.n()) - 1u;
        d_symmetric = true;
        for (uint32_t j = 0; j < half; ++j)
            d_symmetric = d_symmetric && d_out[2 * (j + half) + 1] == d_out[2 * j] &&
                          d_out[2 * j + 1] == (d_out[2 * j] ^ all) && d_out[2 * (j + half)] == (d_out[2 * j] ^ all);
        d_isa = detect_simd_isa();
        d_lanes = isa_lanes(d_isa);
    }

    std::string name() const override
    {
        return "cpu (" + std::to_string(d_threads) + " threads " + d_pool->kind() + ", " + std::to_string(d_lanes) +
               " lanes " + simd_isa_name(d_isa) + ")";
    }

    void run(const vit_params& p,
             const int8_t* soft,
             size_t soft_len,
             int64_t njobs,
             uint8_t* out,
             size_t out_len) override
    {
        if (p.soft_bits == 4) {
            // packed 4-bit input: the lanes read int8, so it is unpacked first (in parallel,
            // chunks of an even number of values)
            constexpr int64_t chunk = int64_t(1) << 16;
            d_unpacked.resize(soft_len);
            const auto* packed = reinterpret_cast<const uint8_t*>(soft);
            d_pool->parallel_for((int64_t(soft_len) + chunk - 1) / chunk, [&](int64_t c, int) {
                const int64_t a = c * chunk, n = std::min<int64_t>(chunk, int64_t(soft_len) - a);
                unpack_soft4(packed + a / 2, d_unpacked.data() + a, size_t(n));
            });
            vit_params p8 = p;
            p8.soft_bits = 8;
            run(p8, d_unpacked.data(), soft_len, njobs, out, out_len);
            return;
        }
        const int64_t lanes = d_lanes;
        const int64_t groups = (njobs + lanes - 1) / lanes;
        d_pool->parallel_for(groups, [&](int64_t g, int worker) {
            decode_group(p, soft, soft_len, g * lanes, std::min<int64_t>(njobs, (g + 1) * lanes),
                         out, out_len, d_scratch[size_t(worker)]);
        });
    }

private:
    static bool same_shape(const vit_job& a, const vit_job& b)
    {
        return a.length == b.length && a.out_start == b.out_start && a.out_len == b.out_len &&
               a.known_start == b.known_start && a.tb_best == b.tb_best;
    }

    void decode_group(const vit_params& p,
                      const int8_t* soft,
                      size_t soft_len,
                      int64_t j0,
                      int64_t j1,
                      uint8_t* out,
                      size_t out_len,
                      group_scratch& sc)
    {
        vit_job jobs[max_lanes];
        const int used = static_cast<int>(j1 - j0);
        for (int l = 0; l < d_lanes; ++l)
            jobs[l] = make_job(p, j0 + std::min(l, used - 1));
        // jobs of another shape than the group's last (rare: the first block of a stream is
        // shorter) go one by one through the reference engine, whose output is identical by
        // construction; the rest stay in lanes (they need not be adjacent). (The whole group
        // through the reference had cost a stream decoded on one thread 15 %.)
        vit_job same[max_lanes];
        int kept = 0;
        for (int l = 0; l < used; ++l) {
            if (same_shape(jobs[l], jobs[used - 1]))
                same[kept++] = jobs[l];
            else
                decode_one_via_reference(p, j0 + l, soft, soft_len, out, out_len);
        }
        for (int l = kept; l < d_lanes; ++l)
            same[l] = same[kept - 1];
        decode_lanes(p, soft, same, kept, out, sc);
    }

    void decode_one_via_reference(const vit_params& p,
                                  int64_t j,
                                  const int8_t* soft,
                                  size_t soft_len,
                                  uint8_t* out,
                                  size_t out_len)
    {
        // address job j as job 0 of a shifted batch
        vit_params one = p;
        uint8_t* o = out;
        if (p.kind == vit_stream) {
            one.first_pb = p.first_pb + j;
            o = out + j * (p.D / 8);
        } else {
            soft += j * p.in_per_frame;
            soft_len -= j * p.in_per_frame;
            o = out + j * p.out_bytes_per_frame;
        }
        d_ref->run(one, soft, soft_len, 1, o, out_len);
    }

    void decode_lanes(const vit_params& p,
                      const int8_t* soft,
                      const vit_job* jobs,
                      int used,
                      uint8_t* out,
                      group_scratch& sc)
    {
        const size_t vectors = lanes_scratch_vectors<max_lanes>(p, jobs[0].length);
        const size_t bytes = vectors * size_t(d_lanes) * sizeof(int16_t) + 64;
        if (sc.raw.size() < bytes)
            sc.raw.resize(bytes);
        void* aligned = sc.raw.data() + (64 - reinterpret_cast<uintptr_t>(sc.raw.data()) % 64);
        run_lanes(d_isa, p, soft, jobs, used, d_out.data(), d_symmetric, out, aligned);
    }

    std::unique_ptr<vit_engine> d_ref;
    std::shared_ptr<cpu_pool> d_pool;
    int d_threads;
    std::vector<group_scratch> d_scratch; // one per worker
    std::vector<int8_t> d_unpacked;       // packed 4-bit input as int8 (run)
    std::vector<uint32_t> d_out; // output pattern of the branch (state, input): 2 * state + input
    bool d_symmetric = false; // the code's butterflies are symmetric (vit_cpu_lanes.h)
    simd_isa d_isa;
    int d_lanes;
};

} // namespace

std::unique_ptr<vit_engine> make_viterbi_cpu(const conv_code& code, int threads)
{
    return std::make_unique<cpu_engine>(code, threads);
}

} // namespace gpufec
