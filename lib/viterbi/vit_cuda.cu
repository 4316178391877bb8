/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* CUDA Viterbi engine: the parallel block-based Viterbi decoder (PBVD) of Peng et al., with the
 * arithmetic of vit_common.h so that its output equals the CPU engines' bit for bit.
 *
 * Two kernels with different parallelism, as in the paper:
 *  K1 vit_forward: one thread owns one job (a parallel block of the stream, or a frame) and runs
 *     its add-compare-select over all stages. Its N = 2^(K-1) path metrics live in registers as
 *     N/2 words of two signed 16-bit lanes (states 2i and 2i+1). Branch metrics are computed per
 *     stage once per output pattern (2^n of them: the paper's group-based metrics, since all
 *     butterflies of a group share them), stored as int8 bytes in two or four registers, and
 *     each butterfly picks its pair with one byte-permute (PRMT) whose selector is a per-code
 *     constant passed in the kernel's parameter space. The ACS itself is 16x2-bit SIMD: two
 *     adds, one min (Hopper's DPX-class s16x2 instructions), and the decision bits are the sign
 *     bits of b - a, gathered by byte permutes.
 *  K2 vit_traceback: one thread per job walks its survivors backwards and writes packed bits.
 * Codes of up to three outputs run K1 in its paired form (vit_cuda_paired.cuh: one SIMD
 * add-compare-select for two butterflies, no metric copies); the classic K1 below runs codes of
 * four outputs, or every code with GPUFEC_VITERBI_KERNEL=classic.
 *
 * Survivor memory layout: sp[(stage * W + word) * njobs + job], W = 32-state words per stage.
 * Consecutive threads own consecutive jobs, so every K1 store and every K2 load of a warp is
 * one coalesced 128-byte transaction (the paper's SP[stage][group][block] layout). Within a
 * word, state 4k+m (m < 4) of the word is bit k + 8m (the order the byte permutes produce).
 */
#include "vit_engine.h"
#include "vit_cuda_paired.cuh"
#include "vit_cuda_simd.cuh"

#include "runtime/batch_pipeline.h"
#include <gnuradio/gpufec/core/codes/trellis.h>
#include "runtime/cuda_resources.h"
#include "runtime/tuning.h"
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

namespace {

constexpr int max_butterflies = 128; // K = 9
constexpr int threads_per_block = 128;

//! Per-code byte-permute selectors (see the file comment), passed by value to K1.
struct gpu_trellis {
    uint32_t sel_a[max_butterflies]; // old state j        -> new states 2j, 2j+1
    uint32_t sel_b[max_butterflies]; // old state j + N/2  -> new states 2j, 2j+1
    uint32_t sel_a2[max_butterflies]; // n = 4: second-level lane choice
    uint32_t sel_b2[max_butterflies];
};

using namespace vit_simd;

template <int K, bool N4>
__global__ void __launch_bounds__(threads_per_block)
    vit_forward(const vit_params p,
                const gpu_trellis tr,
                const int8_t* __restrict__ soft,
                uint32_t* __restrict__ sp,
                int32_t* __restrict__ start_state,
                int64_t njobs)
{
    constexpr int N = 1 << (K - 1);
    constexpr int HALF = N / 2;
    constexpr int NP = N / 2;               // packed metric words
    constexpr int W = (N + 31) / 32;        // decision words per stage
    const int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= njobs)
        return;
    const vit_job job = make_job(p, j);

    uint32_t P[NP];
#pragma unroll
    for (int i = 0; i < NP; ++i)
        P[i] = 0;
    if (job.known_start) {
#pragma unroll
        for (int i = 0; i < NP; ++i)
            P[i] = (uint32_t(vit_init_big) << 16) | uint32_t(vit_init_big);
        P[0] = uint32_t(vit_init_big) << 16;
    }

    stage_cursor cur;
    cur.init(p, job);
    for (int t = 0; t < job.length; ++t, cur.next()) {
        int s[4];
        load_stage(p, cur, soft, s);
        // branch metric of every output pattern, as int8 bytes
        uint32_t T[N4 ? 4 : 2];
#pragma unroll
        for (int w = 0; w < (N4 ? 4 : 2); ++w) {
            int b[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int c = 4 * w + i;
                b[i] = ((c & 1) ? -s[0] : s[0]) + ((c & 2) ? -s[1] : s[1]) +
                       ((c & 4) ? -s[2] : s[2]) + ((c & 8) ? -s[3] : s[3]);
            }
            T[w] = pack_bytes(b[0], b[1], b[2], b[3]);
        }

        uint32_t Q[NP];
        uint32_t dec[W];
#pragma unroll
        for (int w = 0; w < W; ++w)
            dec[w] = 0;
        uint32_t prev_diff = 0;
#pragma unroll
        for (int jj = 0; jj < HALF; ++jj) {
            const uint32_t lane_sel = (jj & 1) ? 0x3232u : 0x1010u;
            const uint32_t pa = prmt(P[jj >> 1], 0, lane_sel);
            const uint32_t pb = prmt(P[(jj + HALF) >> 1], 0, lane_sel);
            uint32_t ba, bb;
            if (N4) {
                ba = prmt(prmt(T[0], T[1], tr.sel_a[jj]), prmt(T[2], T[3], tr.sel_a[jj]),
                          tr.sel_a2[jj]);
                bb = prmt(prmt(T[0], T[1], tr.sel_b[jj]), prmt(T[2], T[3], tr.sel_b[jj]),
                          tr.sel_b2[jj]);
            } else {
                ba = prmt(T[0], T[1], tr.sel_a[jj]);
                bb = prmt(T[0], T[1], tr.sel_b[jj]);
            }
            const uint32_t ta = add2(pa, ba);
            const uint32_t tb = add2(pb, bb);
            Q[jj] = min2(ta, tb);
            const uint32_t diff = sub2(tb, ta); // sign bit set where b wins
            if (jj & 1) {
                const int k = (jj >> 1) & 7;  // pair within the 32-state word
                const uint32_t signs = prmt(prev_diff, diff, 0x7531);
                dec[jj >> 4] |= (signs >> (7 - k)) & (0x01010101u << k);
            }
            prev_diff = diff;
        }
#pragma unroll
        for (int w = 0; w < W; ++w)
            sp[(int64_t(t) * W + w) * njobs + j] = dec[w];
        if ((t + 1) % vit_renorm_interval == 0) {
            const uint32_t ref = prmt(Q[0], 0, 0x1010);
#pragma unroll
            for (int i = 0; i < NP; ++i)
                Q[i] = sub2(Q[i], ref);
        }
#pragma unroll
        for (int i = 0; i < NP; ++i)
            P[i] = Q[i];
    }

    int best = 0;
    if (job.tb_best) {
        int bm = 1 << 30;
#pragma unroll
        for (int i = 0; i < NP; ++i) {
            const int lo = int(int16_t(P[i] & 0xffff));
            const int hi = int(int16_t(P[i] >> 16));
            if (lo < bm) {
                bm = lo;
                best = 2 * i;
            }
            if (hi < bm) {
                bm = hi;
                best = 2 * i + 1;
            }
        }
    }
    start_state[j] = best;
}

//! K2 of either forward kernel: PAIRED reads the paired kernel's decision layout.
template <bool PAIRED>
__global__ void __launch_bounds__(threads_per_block)
    vit_traceback(const vit_params p,
                  const uint32_t* __restrict__ sp,
                  const int32_t* __restrict__ start_state,
                  uint8_t* __restrict__ out,
                  int64_t njobs)
{
    const int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= njobs)
        return;
    const vit_job job = make_job(p, j);
    const int N = 1 << (p.K - 1);
    const int W = (N + 31) / 32;
    // whole 32-bit words when the job's output is word aligned, else bytes
    const bool words = (job.out_len % 32 == 0) && (job.out_byte % 4 == 0);
    int state = start_state[j];
    uint32_t acc = 0;
    const int PH = p.K - 2;
    int phase = job.length > 0 ? (job.length - 1) % PH : 0; // of stage t (paired layout)
    for (int t = job.length - 1; t >= 0; --t) {
        const int o = t - job.out_start;
        if (o >= 0 && o < job.out_len) {
            const uint32_t bit = state & 1;
            if (words) {
                acc |= bit << (8 * ((o >> 3) & 3) + 7 - (o & 7));
                if ((o & 31) == 0) {
                    reinterpret_cast<uint32_t*>(out + job.out_byte)[o >> 5] = acc;
                    acc = 0;
                }
            } else {
                acc |= bit << (7 - (o & 7));
                if ((o & 7) == 0) {
                    out[job.out_byte + (o >> 3)] = uint8_t(acc);
                    acc = 0;
                }
            }
        }
        int word, bit;
        if (PAIRED) {
            vit_paired_decision_bit(state, phase, &word, &bit);
            phase = phase == 0 ? PH - 1 : phase - 1;
        } else {
            const int sl = state & 31;
            word = state >> 5;
            bit = (sl >> 2) + 8 * (sl & 3);
        }
        const uint32_t w = sp[(int64_t(t) * W + word) * njobs + j];
        const int b = (w >> bit) & 1;
        state = (state >> 1) | (b << (p.K - 2));
    }
}

using forward_fn = void (*)(const vit_params, const gpu_trellis, const int8_t*, uint32_t*, int32_t*,
                            int64_t);

template <bool N4>
forward_fn pick_forward(int K)
{
    switch (K) {
    case 3:
        return vit_forward<3, N4>;
    case 4:
        return vit_forward<4, N4>;
    case 5:
        return vit_forward<5, N4>;
    case 6:
        return vit_forward<6, N4>;
    case 7:
        return vit_forward<7, N4>;
    case 8:
        return vit_forward<8, N4>;
    default:
        return vit_forward<9, N4>;
    }
}

using paired_fn = void (*)(const vit_params, const vit_paired_trellis, const int8_t*, uint32_t*, int32_t*,
                           int64_t);

template <bool COMP, bool LIN2>
paired_fn pick_paired(int K)
{
    switch (K) {
    case 3:
        return vit_forward_paired<3, COMP, LIN2>;
    case 4:
        return vit_forward_paired<4, COMP, LIN2>;
    case 5:
        return vit_forward_paired<5, COMP, LIN2>;
    case 6:
        return vit_forward_paired<6, COMP, LIN2>;
    case 7:
        return vit_forward_paired<7, COMP, LIN2>;
    case 8:
        return vit_forward_paired<8, COMP, LIN2>;
    default:
        // K = 9's 128 metric words leave no registers for the LIN2 form's pointer
        return vit_forward_paired<9, COMP, false>;
    }
}

paired_fn pick_paired(int K, bool comp, bool lin2)
{
    if (comp)
        return lin2 ? pick_paired<true, true>(K) : pick_paired<true, false>(K);
    return lin2 ? pick_paired<false, true>(K) : pick_paired<false, false>(K);
}

/*! Which forward kernel runs (docs/viterbi.md): the paired one for codes of up to three
 *  outputs unless GPUFEC_VITERBI_KERNEL=classic. */
bool paired_kernel_wanted(int n)
{
    return n <= 3 && tuning_choice("GPUFEC_VITERBI_KERNEL", { "auto", "classic", "paired" }, "auto") != "classic";
}

uint32_t lane_selector(uint32_t lo_byte, uint32_t hi_byte)
{
    // two sign-extended 16-bit lanes from bytes lo_byte and hi_byte of the 8-byte pool
    return lo_byte | ((lo_byte | 8) << 4) | (hi_byte << 8) | ((hi_byte | 8) << 12);
}

uint32_t pool_selector(uint32_t lo_pattern, uint32_t hi_pattern)
{
    // n = 4: take each 16-bit lane from the low pool (patterns 0..7) or the high one (8..15)
    const uint32_t lo = lo_pattern & 8 ? 0x54 : 0x10;
    const uint32_t hi = hi_pattern & 8 ? 0x76 : 0x32;
    return lo | (hi << 8);
}

class cuda_engine : public vit_engine
{
public:
    cuda_engine(const conv_code& code, int device, int max_jobs)
        : d_code(code), d_device(device), d_max_jobs(max_jobs)
    {
        device_guard guard(d_device);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = "cuda:" + std::to_string(device) + " (" + prop.name + ")";
        d_sms = prop.multiProcessorCount;
        const int N = code.states();
        const trellis tr = trellis::feed_forward(code); // branch outputs from the codes layer
        for (int j = 0; j < N / 2; ++j) {
            const uint32_t a0 = tr.output(j, 0), a1 = tr.output(j, 1);
            const uint32_t b0 = tr.output(j + N / 2, 0), b1 = tr.output(j + N / 2, 1);
            d_tr.sel_a[j] = lane_selector(a0 & 7, a1 & 7);
            d_tr.sel_b[j] = lane_selector(b0 & 7, b1 & 7);
            d_tr.sel_a2[j] = pool_selector(a0, a1);
            d_tr.sel_b2[j] = pool_selector(b0, b1);
        }
        d_paired = paired_kernel_wanted(code.n());
        if (d_paired) {
            // complementary butterflies: a1, b0 the complements of a0, b1 = a0 (vit_cuda_paired.cuh)
            const uint32_t all = (1u << code.n()) - 1;
            d_comp = true;
            for (int j = 0; j < N / 2; ++j)
                d_comp = d_comp && tr.output(j, 1) == (tr.output(j, 0) ^ all) &&
                         tr.output(j + N / 2, 0) == (tr.output(j, 0) ^ all) &&
                         tr.output(j + N / 2, 1) == tr.output(j, 0);
            const int K = code.k;
            for (int b = 0; b < K - 2; ++b)
                for (int q = 0; q < N / 4; ++q) {
                    const int j0 = vit_insert_bit(q, b, 0), j1 = j0 | (1 << b);
                    uint32_t* sel = d_ptr.sel[b][q];
                    sel[0] = lane_selector(tr.output(j0, 0), tr.output(j1, 0));
                    sel[1] = lane_selector(tr.output(j0 + N / 2, 0), tr.output(j1 + N / 2, 0));
                    sel[2] = lane_selector(tr.output(j0, 1), tr.output(j1, 1));
                    sel[3] = lane_selector(tr.output(j0 + N / 2, 1), tr.output(j1 + N / 2, 1));
                }
        }
    }

    void reserve(const vit_params& p, int64_t max_jobs) override
    {
        device_guard guard(d_device);
        ensure_layout(p, max_jobs);
    }

    std::string name() const override { return d_name; }
    bool on_gpu() const override { return true; }

    void run(const vit_params& p,
             const int8_t* soft,
             size_t,
             int64_t njobs,
             uint8_t* out,
             size_t) override
    {
        if (njobs <= 0)
            return;
        device_guard guard(d_device);
        const int64_t per_chunk = jobs_per_chunk(p);
        const int64_t nchunks = (njobs + per_chunk - 1) / per_chunk;
        std::vector<vit_chunk>& chunks = d_chunks; // (kept: no allocation per batch)
        chunks.resize(size_t(nchunks));

        ensure_layout(p, njobs);
        d_pipe->run(
            nchunks,
            [&](int64_t c) {
                const int64_t a = c * per_chunk, b = std::min(njobs, a + per_chunk);
                chunks[c] = make_chunk(d_code, p, a, b);
                chunk_io io;
                const int64_t lo = chunks[c].soft_lo, hi = chunks[c].soft_hi;
                if (p.soft_bits == 4) {
                    // two values a byte: chunks start on whole bytes (the decoders accept
                    // 4-bit input only where every period and frame holds an even count)
                    if (lo % 2)
                        throw std::invalid_argument("viterbi: 4-bit input chunk starts inside a byte");
                    io.in[0] = soft + lo / 2;
                    io.in_bytes[0] = size_t((hi + 1) / 2 - lo / 2);
                } else {
                    io.in[0] = soft + lo;
                    io.in_bytes[0] = size_t(hi - lo);
                }
                io.out[0] = out + chunks[c].out_lo;
                io.out_bytes[0] = size_t(chunks[c].out_hi - chunks[c].out_lo);
                return io;
            },
            // ports: in 0 soft values, out 0 packed bits, scratch 0 survivors, scratch 1 the
            // traceback start state of every job
            [&](int64_t c, const slot_view& v) {
                const int64_t jobs = std::min(njobs, (c + 1) * per_chunk) - c * per_chunk;
                uint32_t* sp = v.scratch_as<uint32_t>(0);
                int32_t* start = v.scratch_as<int32_t>(1);
                launch(chunks[c].params, v.input<const int8_t>(0), sp, start, v.output<uint8_t>(0), jobs,
                       v.stream);
            });
    }

    double time_kernels(const vit_params& p,
                        const int8_t* soft,
                        size_t soft_len,
                        int64_t njobs,
                        int reps) override
    {
        device_guard guard(d_device);
        const int W = ((1 << (p.K - 1)) + 31) / 32;
        const size_t soft_bytes = p.soft_bits == 4 ? (soft_len + 1) / 2 : soft_len;
        device_buffer<int8_t> d_soft(soft_bytes);
        device_buffer<uint32_t> sp(size_t(max_job_length(p)) * W * njobs);
        device_buffer<int32_t> start{ size_t(njobs) };
        device_buffer<uint8_t> out(size_t(njobs) * (p.kind == vit_stream ? p.D / 8 : p.out_bytes_per_frame));
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_soft.get(), soft, soft_bytes, cudaMemcpyHostToDevice, st.get()));
        return time_on_stream(st.get(), reps, [&] {
            launch(p, d_soft.get(), sp.get(), start.get(), out.get(), njobs, st.get());
        });
    }

private:
    //! K1 and K2 of one chunk of jobs on a stream
    void launch(const vit_params& p,
                const int8_t* soft,
                uint32_t* sp,
                int32_t* start,
                uint8_t* out,
                int64_t jobs,
                cudaStream_t st) const
    {
        const unsigned grid = unsigned((jobs + threads_per_block - 1) / threads_per_block);
        if (d_paired) {
            const paired_fn fwd = pick_paired(p.K, d_comp, vit_paired_linear2(p));
            fwd<<<grid, threads_per_block, 0, st>>>(p, d_ptr, soft, sp, start, jobs);
            GPUFEC_CUDA_CHECK_LAUNCH("vit_forward_paired");
            vit_traceback<true><<<grid, threads_per_block, 0, st>>>(p, sp, start, out, jobs);
        } else {
            const forward_fn fwd = p.n == 4 ? pick_forward<true>(p.K) : pick_forward<false>(p.K);
            fwd<<<grid, threads_per_block, 0, st>>>(p, d_tr, soft, sp, start, jobs);
            GPUFEC_CUDA_CHECK_LAUNCH("vit_forward");
            vit_traceback<false><<<grid, threads_per_block, 0, st>>>(p, sp, start, out, jobs);
        }
        GPUFEC_CUDA_CHECK_LAUNCH("vit_traceback");
    }

    static int32_t max_job_length(const vit_params& p)
    {
        if (p.kind == vit_stream)
            return p.D + 2 * p.L;
        if (p.kind == vit_tailbiting)
            return p.frame_bits + 2 * p.L;
        return p.frame_stages;
    }

    int64_t jobs_per_chunk(const vit_params& p) const
    {
        if (d_max_jobs > 0)
            return d_max_jobs;
        /* 384 jobs (12 warps) an SM a chunk, with at most 512 MiB of survivors per slot: the
         * three slots in flight then hold about one wave of the paired kernel (6 blocks of 128
         * an SM), and a 2^26-bit batch is 3 chunks, so copies overlap kernels from the start.
         * Measured on an H200 (CCSDS stream, docs/data/viterbi-gpu/chunk-sweep-h200-d4c2b50.txt):
         * 384 against 512 an SM, 2^26 bits 21.7 / 34.7 against 20.3 / 31.7 Gb/s (int8 / 4-bit),
         * 2^28 bits 25.5 / 46.8 against 25.0 / 45.8; 256 an SM: 21.7 / 34.7 and 25.4 / 43.0. */
        const int N = 1 << (p.K - 1);
        const int64_t bytes_per_job = int64_t(max_job_length(p)) * ((N + 31) / 32) * 4;
        const int64_t by_memory = std::max<int64_t>(32, (int64_t(512) << 20) / bytes_per_job);
        return std::min<int64_t>(int64_t(d_sms) * 384, by_memory);
    }

    /* The pipeline is sized for the largest chunk of these params: decoders call reserve()
     * at construction with the params they will run, so no batch allocates. Params with larger
     * chunks (a benchmark trying several shapes) grow it. */
    void ensure_layout(const vit_params& p, int64_t max_jobs)
    {
        const int64_t jobs = max_jobs > 0 ? std::min(max_jobs, jobs_per_chunk(p)) : jobs_per_chunk(p);
        const int W = ((1 << (p.K - 1)) + 31) / 32;
        pipeline_layout l;
        if (p.kind == vit_stream) {
            l.in = { size_t(d_code.kept_for_stages(jobs * p.D + 2 * p.L + 2 * p.period)) };
            l.out = { size_t(jobs) * size_t(p.D / 8) };
        } else {
            l.in = { size_t(jobs) * size_t(p.in_per_frame) };
            l.out = { size_t(jobs) * size_t(p.out_bytes_per_frame) };
        }
        l.scratch = { size_t(max_job_length(p)) * size_t(W) * size_t(jobs) * 4, size_t(jobs) * 4 };
        if (d_pipe)
            d_pipe->grow(l); // (allocates only where a port is too small)
        else
            d_pipe = std::make_unique<batch_pipeline>(3, l);
    }

    conv_code d_code;
    int d_device;
    int d_max_jobs;
    int d_sms = 1;
    std::string d_name;
    gpu_trellis d_tr{};
    bool d_paired = false; // the paired forward kernel (vit_cuda_paired.cuh)
    bool d_comp = false;   // ... in its complementary-butterfly form
    vit_paired_trellis d_ptr{};
    std::unique_ptr<batch_pipeline> d_pipe;
    std::vector<vit_chunk> d_chunks; // per chunk of the batch being run
};

} // namespace

std::unique_ptr<vit_engine> make_viterbi_cuda(const conv_code& code, int device, int max_jobs)
{
    return std::make_unique<cuda_engine>(code, device, max_jobs);
}

} // namespace gpufec
