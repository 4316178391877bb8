/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The decoder arithmetic that every Viterbi engine (reference, fast CPU, CUDA) shares, so that
 * all of them give bit-identical output on the same int8 input:
 *
 *  - soft value v (int8, positive = bit 1) is clamped to [-127, 127] and reduced toward zero
 *    to 7 bits (n = 2) or 6 bits (n = 3, 4): s = sign(v) * (|v| >> shift). Punctured = 0.
 *  - branch metric of output pattern c: bm(c) = sum_r (c_r ? -s_r : +s_r); smaller is better.
 *    |bm| <= 126 for every n, so a stage's 2^n metrics fit in int8 (the CUDA kernel packs them).
 *  - state = the K-1 previous inputs, bit 0 newest. Old states j and j + N/2 feed new states
 *    2j and 2j+1 (input bit = new state & 1). ACS: a = pm[j] + bm, b = pm[j + N/2] + bm';
 *    the survivor is b only when b < a (ties keep a); the decision bit is 1 when b won.
 *  - start: all metrics 0 (unknown state), or 0 for state 0 and init_big for the others.
 *  - traceback starts from the state of smallest metric (lowest index on ties), or from state 0
 *    where the encoder is known to end there (terminated frames).
 * Decisions depend only on metric differences, so engines may renormalise (subtract a common
 * value) or use 16-bit metrics without changing any output.
 *
 * A batch is a set of jobs. A job is one trellis segment: a parallel block of the stream
 * (PBVD: D output stages with up to L stages before and exactly L after), or one frame.
 */
#ifndef INCLUDED_GPUFEC_VITERBI_VIT_COMMON_H
#define INCLUDED_GPUFEC_VITERBI_VIT_COMMON_H

#include <cstdint>

#include "runtime/host_device.h"
#include "runtime/soft4.h"

namespace gpufec {

constexpr int vit_max_period = 32;
constexpr int vit_init_big = 4096;
constexpr int vit_renorm_interval = 32; // stages between renormalisations of 16-bit metrics

enum vit_job_kind : int32_t { vit_stream = 0, vit_terminated = 1, vit_truncated = 2, vit_tailbiting = 3 };

//! Everything that describes a batch of jobs; small and trivially copyable (a kernel argument).
struct vit_params {
    int32_t K, n, shift;
    int32_t period, kept;                   // puncturing: stages per period, soft values per period
    int8_t pos[vit_max_period * 4];         // soft offset within the period of (phase, r); -1 = punctured
    int32_t kind;
    int32_t D, L;                           // streaming: block length, overlap
    int64_t stage0;                         // streaming: absolute stage of soft[0] (period aligned)
    int64_t first_pb;                       // streaming: absolute index of job 0's parallel block
    int32_t frame_bits, frame_stages;       // frames
    int64_t in_per_frame;                   // frames: soft values per frame
    int32_t out_bytes_per_frame;            // frames: packed output bytes per frame
    int32_t soft_bits;                      // 4: soft values packed two a byte (runtime/soft4.h); else int8
};

struct vit_job {
    int64_t soft_base;  // soft offset of the job's region (period aligned)
    int64_t start;      // first stage, relative to the region; may be < 0 when wrapping
    int64_t wrap;       // region length in stages for circular (tail-biting) jobs, else 0
    int32_t length;     // stages processed
    int32_t out_start;  // first output stage, relative to the job
    int32_t out_len;    // output stages
    int32_t known_start;
    int32_t tb_best;
    int64_t out_byte;   // packed output position (MSB first)
};

GPUFEC_HD vit_job make_job(const vit_params& p, int64_t j)
{
    vit_job job{};
    if (p.kind == vit_stream) {
        const int64_t pb = p.first_pb + j;
        const int64_t begin = pb * p.D - p.L < 0 ? 0 : pb * p.D - p.L;
        job.soft_base = 0;
        job.start = begin - p.stage0;
        job.wrap = 0;
        job.length = static_cast<int32_t>(pb * p.D + p.D + p.L - begin);
        job.out_start = static_cast<int32_t>(pb * p.D - begin);
        job.out_len = p.D;
        job.known_start = 0;
        job.tb_best = 1;
        job.out_byte = j * (p.D / 8);
        return job;
    }
    job.soft_base = j * p.in_per_frame;
    job.out_byte = j * p.out_bytes_per_frame;
    job.out_len = p.frame_bits;
    if (p.kind == vit_tailbiting) {
        job.start = -p.L;
        job.wrap = p.frame_stages;
        job.length = p.frame_bits + 2 * p.L;
        job.out_start = p.L;
        job.known_start = 0;
        job.tb_best = 1;
    } else {
        job.start = 0;
        job.wrap = 0;
        job.length = p.frame_stages;
        job.out_start = 0;
        job.known_start = 1;
        job.tb_best = p.kind == vit_truncated ? 1 : 0;
    }
    return job;
}

//! Walks the stages of a job, giving the soft offset of each stage's outputs.
struct stage_cursor {
    int64_t s, wrap, q, base;
    int32_t ph, period, kept;

    GPUFEC_HD void init(const vit_params& p, const vit_job& job)
    {
        wrap = job.wrap;
        int64_t st = job.start;
        if (wrap) {
            st %= wrap;
            if (st < 0)
                st += wrap;
        }
        s = st;
        period = p.period;
        kept = p.kept;
        q = st / period;
        ph = static_cast<int32_t>(st % period);
        base = job.soft_base;
    }
    GPUFEC_HD void next()
    {
        ++s;
        if (++ph == period) {
            ph = 0;
            ++q;
        }
        if (wrap && s == wrap) {
            s = 0;
            q = 0;
            ph = 0;
        }
    }
    //! soft offset of output r of this stage, or -1 when punctured
    GPUFEC_HD int64_t offset(const vit_params& p, int r) const
    {
        const int e = p.pos[ph * p.n + r];
        return e < 0 ? -1 : base + q * kept + e;
    }
};

GPUFEC_HD int reduce_soft(int v, int shift)
{
    int a = v < 0 ? -v : v;
    a = a > 127 ? 127 : a;
    a >>= shift;
    return v < 0 ? -a : a;
}

//! The reduced soft values of one stage (0 where punctured).
GPUFEC_HD void load_stage(const vit_params& p, const stage_cursor& c, const int8_t* soft, int* s)
{
    for (int r = 0; r < 4; ++r) {
        s[r] = 0;
        if (r < p.n) {
            const int64_t off = c.offset(p, r);
            if (off >= 0)
                s[r] = reduce_soft(p.soft_bits == 4 ? soft4_value(reinterpret_cast<const uint8_t*>(soft), off)
                                                    : int(soft[off]),
                                   p.shift);
        }
    }
}

GPUFEC_HD int branch_metric(uint32_t pattern, const int* s, int n)
{
    int m = 0;
    for (int r = 0; r < n; ++r)
        m += ((pattern >> r) & 1) ? -s[r] : s[r];
    return m;
}

} // namespace gpufec

#endif
