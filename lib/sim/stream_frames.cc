/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The host side of the simulated stream (stream_frames.h): the code table and the CPU maker. */
#include "stream_frames.h"
#include "philox_lanes.h"
#include "runtime/cpu_pool.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpufec {
namespace sim {

stream_code make_stream_code(const conv_code& c)
{
    c.validate();
    stream_code s;
    s.k = uint32_t(c.k);
    s.n = uint32_t(c.n());
    s.period = uint32_t(c.period());
    s.kept = uint32_t(c.kept_per_period());
    if (s.kept > uint32_t(stream_code::max_kept))
        throw std::invalid_argument("simulated stream: a puncturing period keeping " + std::to_string(s.kept) +
                                    " values (at most " + std::to_string(stream_code::max_kept) + ")");
    for (uint32_t r = 0; r < s.n; ++r) {
        const int p = c.polys[r];
        s.mag[r] = uint32_t(p < 0 ? -p : p);
        for (uint32_t j = 0; j < s.k; ++j)
            s.rmag[r] |= (s.mag[r] >> j & 1u) << (s.k - 1 - j);
        s.invert |= uint32_t(p < 0) << r;
    }
    uint32_t at = 0;
    for (uint32_t stage = 0; stage < s.period; ++stage)
        for (uint32_t r = 0; r < s.n; ++r)
            if (c.puncture.empty() || c.puncture[stage * s.n + r]) {
                s.stage_of[at] = uint8_t(stage);
                s.output_of[at] = uint8_t(r);
                ++at;
            }
    return s;
}

void make_stream_cpu(const stream_code& c, const awgn_levels& lv, span_key key, const stream_stretch& st,
                     const span_output& out)
{
    const uint64_t groups = (st.v1 - st.v0 + 31) / 32, info_groups = uint64_t(st.s1 - st.s0 + 31) / 32;
    const awgn_index ix = make_awgn_index(lv);
    auto level = [&](uint64_t u) { return awgn_level_indexed(lv.t, ix, u); };
    const philox_many_fn draws = pick_philox_many();
    auto pool = get_cpu_pool(0);
    // a task: 64 groups of values (their draws made ahead in SIMD lanes, 8 groups at a time), or
    // of information bits
    constexpr uint64_t per_task = 64, per_chunk = 8;
    static_assert(per_chunk * 16 + 1 <= philox_lanes_max, "a chunk's draws");
    const uint64_t tasks = (groups + per_task - 1) / per_task, info_tasks = (info_groups + per_task - 1) / per_task;
    pool->parallel_for(int64_t(tasks + info_tasks), [&](int64_t task, int) {
        if (uint64_t(task) >= tasks) {
            const uint64_t g0 = (uint64_t(task) - tasks) * per_task;
            for (uint64_t g = g0; g < std::min(info_groups, g0 + per_task); ++g) {
                const uint32_t w = stream_info_word(key, st.s0 + int64_t(32 * g), st.s1);
                std::memcpy(out.info + 4 * g, &w, 4);
            }
            return;
        }
        uint32_t pairs[4][philox_lanes_max];
        const uint64_t g_end = std::min(groups, uint64_t(task + 1) * per_task);
        for (uint64_t g0 = uint64_t(task) * per_task; g0 < g_end; g0 += per_chunk) {
            const uint64_t g1 = std::min(g_end, g0 + per_chunk);
            const uint64_t p0 = (st.v0 + 32 * g0) >> 1, p1 = (std::min(st.v1, st.v0 + 32 * g1) - 1) >> 1;
            // the pairs' counters are 64-bit: a chunk crossing 2^32 is drawn in two runs
            const uint64_t np = p1 - p0 + 1, first_run = std::min<uint64_t>(np, (uint64_t(1) << 32) - uint32_t(p0));
            draws(key, uint32_t(p0), uint32_t(p0 >> 32), 0u, 5u, size_t(first_run), pairs);
            if (first_run < np) {
                uint32_t rest[4][philox_lanes_max];
                const uint64_t q = p0 + first_run;
                draws(key, uint32_t(q), uint32_t(q >> 32), 0u, 5u, size_t(np - first_run), rest);
                for (int w = 0; w < 4; ++w)
                    std::copy(rest[w], rest[w] + (np - first_run), pairs[w] + first_run);
            }
            auto draw = [&](uint64_t p) {
                const size_t i = size_t(p - p0);
                return philox4x32{ { pairs[0][i], pairs[1][i], pairs[2][i], pairs[3][i] } };
            };
            for (uint64_t g = g0; g < g1; ++g) {
                const uint64_t v = st.v0 + 32 * g;
                stream_group_values(c, level, draw, key, v, st.v1,
                                    [&](uint64_t y, int q) { put_soft_value(out.soft8, out.soft4, y - st.v0, q); });
            }
        }
    });
}

#if !defined(GPUFEC_HAVE_CUDA)
std::unique_ptr<stream_maker_gpu> make_stream_maker_gpu(int, const stream_code&, int)
{
    throw std::runtime_error("a simulated stream on a GPU: this build of gr-gpufec has no CUDA");
}
#endif

} // namespace sim
} // namespace gpufec
