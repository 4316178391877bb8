/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU Viterbi engine: the reference arithmetic (vit_common.h) with 16-bit metrics,
 * vectorised across 16 jobs at once. Data layout: every per-state quantity is an array of 16
 * lanes (pm[state][lane], decisions[stage][word][lane]), so each ACS step is one short loop over
 * contiguous lanes that the compiler turns into SIMD instructions (AVX2 chosen at run time where
 * the processor has it). Groups of 16 jobs are spread over threads. */
#include "vit_engine.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace gpufec {

namespace {

constexpr int lanes = 16;
//! 16 lanes of int16 (GCC/Clang vector extension: SSE2 pairs, or one AVX2 register); 16-byte
//! alignment so that no access needs more than what allocators and thread stacks give
typedef int16_t v16 __attribute__((vector_size(32), aligned(16)));

struct group_scratch {
    std::vector<v16> pm, next, bm, dec; // per state, per pattern, per (stage, word)
};

class cpu_engine : public vit_engine
{
public:
    cpu_engine(const conv_code& code, int threads) : d_ref(make_reference_engine(code))
    {
        const uint32_t states = code.states();
        d_out.resize(2 * states);
        for (uint32_t s = 0; s < states; ++s)
            for (uint32_t x = 0; x < 2; ++x)
                d_out[2 * s + x] = code.output(s, x);
        d_threads = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    }

    std::string name() const override
    {
        return "cpu (" + std::to_string(d_threads) + " threads, " + std::to_string(lanes) +
               " lanes)";
    }

    void run(const vit_params& p,
             const int8_t* soft,
             size_t soft_len,
             int64_t njobs,
             uint8_t* out,
             size_t out_len) override
    {
        const int64_t groups = (njobs + lanes - 1) / lanes;
        const int64_t nthreads = std::min<int64_t>(d_threads, groups);
        auto worker = [&](int64_t g0, int64_t g1) {
            group_scratch scratch;
            for (int64_t g = g0; g < g1; ++g)
                decode_group(p, soft, soft_len, g * lanes, std::min<int64_t>(njobs, (g + 1) * lanes),
                             out, out_len, scratch);
        };
        if (nthreads <= 1) {
            worker(0, groups);
            return;
        }
        std::vector<std::thread> pool;
        for (int64_t t = 0; t < nthreads; ++t)
            pool.emplace_back(worker, groups * t / nthreads, groups * (t + 1) / nthreads);
        for (auto& th : pool)
            th.join();
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
        vit_job jobs[lanes];
        const int used = static_cast<int>(j1 - j0);
        for (int l = 0; l < lanes; ++l)
            jobs[l] = make_job(p, j0 + std::min(l, used - 1));
        bool uniform = true;
        for (int l = 1; l < used; ++l)
            uniform &= same_shape(jobs[0], jobs[l]);
        if (!uniform) {
            // rare (the first block of a stream is shorter): run these jobs one by one through
            // the reference engine, whose output is identical by construction
            for (int64_t j = j0; j < j1; ++j) {
                decode_one_via_reference(p, j, soft, soft_len, out, out_len);
            }
            return;
        }
        decode_lanes(p, soft, jobs, used, out, sc);
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

    __attribute__((target_clones("avx2", "default"))) void
    decode_lanes(const vit_params& p,
                 const int8_t* soft,
                 const vit_job* jobs,
                 int used,
                 uint8_t* out,
                 group_scratch& sc)
    {
        const int N = 1 << (p.K - 1);
        const int half = N / 2;
        const int words = (N + 15) / 16;
        const int npat = 1 << p.n;
        const int length = jobs[0].length;
        sc.pm.assign(size_t(N), v16{});
        sc.next.assign(size_t(N), v16{});
        sc.bm.assign(size_t(npat), v16{});
        sc.dec.assign(size_t(length) * words, v16{});
        v16* pm = sc.pm.data();
        v16* next = sc.next.data();
        v16* bm = sc.bm.data();
        if (jobs[0].known_start)
            for (int s = 1; s < N; ++s)
                pm[s] = v16{} + int16_t(vit_init_big);

        stage_cursor cur[lanes];
        for (int l = 0; l < lanes; ++l)
            cur[l].init(p, jobs[l]);

        // linear, unpunctured jobs (the common case) read their soft values straight from
        // memory and reduce them in SIMD; others walk the general stage cursor
        bool linear = p.period == 1;
        for (int l = 0; l < lanes; ++l)
            linear &= jobs[l].wrap == 0;
        const int8_t* lane_ptr[lanes];
        for (int l = 0; l < lanes; ++l)
            lane_ptr[l] = soft + jobs[l].soft_base + (linear ? jobs[l].start * p.n : 0);

        for (int t = 0; t < length; ++t) {
            v16 sv[4] = {};
            if (linear) {
                for (int r = 0; r < p.n; ++r) {
                    v16 raw;
                    for (int l = 0; l < lanes; ++l)
                        raw[l] = lane_ptr[l][size_t(t) * p.n + r];
                    const v16 neg = raw < 0;
                    v16 mag = (-raw & neg) | (raw & ~neg);
                    mag = ((mag > 127) & int16_t(127)) | (mag & ~(mag > 127));
                    mag >>= p.shift;
                    sv[r] = (-mag & neg) | (mag & ~neg);
                }
            } else {
                for (int l = 0; l < lanes; ++l) {
                    int s[4];
                    load_stage(p, cur[l], soft, s);
                    for (int r = 0; r < 4; ++r)
                        sv[r][l] = static_cast<int16_t>(s[r]);
                    cur[l].next();
                }
            }
            for (int c = 0; c < npat; ++c) {
                v16 m{};
                for (int r = 0; r < p.n; ++r)
                    m += ((c >> r) & 1) ? -sv[r] : sv[r];
                bm[c] = m;
            }
            v16* dec = sc.dec.data() + size_t(t) * words;
            for (int ns = 0; ns < N; ++ns) {
                const int x = ns & 1, j = ns >> 1;
                const v16 a = pm[j] + bm[d_out[2 * j + x]];
                const v16 b = pm[j + half] + bm[d_out[2 * (j + half) + x]];
                const v16 take_b = b < a; // -1 where b wins
                next[ns] = (b & take_b) | (a & ~take_b);
                dec[ns / 16] |= take_b & int16_t(1 << (ns % 16));
            }
            std::swap(pm, next);
            if ((t + 1) % vit_renorm_interval == 0) {
                const v16 ref = pm[0];
                for (int s = 0; s < N; ++s)
                    pm[s] -= ref;
            }
        }

        for (int l = 0; l < used; ++l) {
            const vit_job& job = jobs[l];
            int state = 0;
            if (job.tb_best)
                for (int s = 1; s < N; ++s)
                    if (pm[s][l] < pm[state][l])
                        state = s;
            for (int t = length - 1; t >= 0; --t) {
                const int o = t - job.out_start;
                if (o >= 0 && o < job.out_len) {
                    uint8_t& byte = out[job.out_byte + o / 8];
                    const uint8_t mask = static_cast<uint8_t>(0x80 >> (o % 8));
                    byte = (state & 1) ? (byte | mask) : (byte & ~mask);
                }
                const uint16_t w = uint16_t(sc.dec[size_t(t) * words + state / 16][l]);
                const int b = (w >> (state % 16)) & 1;
                state = (state >> 1) | (b << (p.K - 2));
            }
        }
    }

    std::unique_ptr<vit_engine> d_ref;
    std::vector<uint32_t> d_out;
    int d_threads;
};

} // namespace

std::unique_ptr<vit_engine> make_cpu_engine(const conv_code& code, int threads)
{
    return std::make_unique<cpu_engine>(code, threads);
}

} // namespace gpufec
