/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS turbo codes (16 states, up to three parities a stage) on the GPU: the fixed-point
 * max-log half-iteration of the CPU SIMD engine for these codes (turbo_cpu_lanes.h in int32
 * lanes) with a GPU thread where the CPU has a lane, so it gives that engine's bits exactly.
 *
 * Parallel mapping. A thread owns one window of one frame (windows of a half-iteration depend
 * only on the previous iteration's stored boundaries, so they run at once); the threads of a
 * warp hold the same window of consecutive frames. Its 16 state metrics are registers; of the
 * window's alphas only every 4th stage's is kept (a local array, W / 4 x 16), and the backward
 * pass recomputes each 4-stage segment's alphas from it into registers: W x 16 alphas per thread
 * in local memory went to DRAM (2 KB a thread, 1% L1 hits, DRAM 80% busy). One launch is one
 * half-iteration of every frame of the chunk.
 *
 * Memory (device, per chunk of F frames). Every per-stage quantity is [stage][frame], so that a
 * warp's loads are coalesced: the systematic values, decoder 2's (gathered through the
 * interleaver), the parities of each encoder, the a-priori values of each decoder (int16: inputs
 * are int8, extrinsics within +-EXT_MAX), the tails, the decisions (uint8); the window
 * boundaries [window][state][frame] (int32), two buffers per decoder that swap roles every
 * iteration.
 *
 * Early stop (a CRC set, as the LTE engine): after every iteration the decisions of the frames
 * still running are packed and a warp per frame checks the CRC (turbo_crc_cuda.cuh); a frame
 * that passes keeps its decisions and its threads return at once in later launches. */
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "turbo_chunks.h"
#include "turbo_crc_cuda.cuh"
#include "turbo_engine.h"
#include "turbo_fixed.h"
#include "turbo_rsc.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpufec {

namespace {

using namespace turbo_fx;
using C = ccsds_rsc;
constexpr int S = C::S, NP = C::NP, TV = C::TAIL * (1 + C::NP);
constexpr int MAX_W = 32; // the longest window (its alpha checkpoints in local memory)
constexpr int SEG = 4;    // stages between alpha checkpoints: their alphas are recomputed in registers

//! one half-iteration of one decoder, for frames [0, F)
struct ccsds_half {
    int K, W, T, nwin, F, scale16, first;
    const int16_t* sys;            // [k][f]
    const int16_t* par[NP];        // [k][f]
    const int16_t* tail;           // [TV][f]
    const int16_t* apri;           // [k][f]
    int16_t* dst;                  // [dst_index[k]][f]
    const uint32_t* dst_index;
    const int32_t* a_in;           // [window][state][f]
    const int32_t* b_in;
    int32_t* a_out;
    int32_t* b_out;
    uint8_t* decide;               // [bit_index[k]][f] or null
    const uint32_t* bit_index;
    const frame_status* report;    // iterations != 0: the frame has stopped (null: none stop)
};

__device__ __forceinline__ int pgamma(const int (&P)[NP], int s, int x)
{
    int g = 0;
#pragma unroll
    for (int j = 0; j < NP; ++j)
        if (C::par(j, s, x))
            g += P[j];
    return g;
}
__device__ __forceinline__ int gamma(int sa, const int (&P)[NP], int s, int x)
{
    return x ? sa + pgamma(P, s, x) : pgamma(P, s, x);
}

//! sys + a-priori of stage k, its parities into P
__device__ __forceinline__ int load(const ccsds_half& h, int k, int f, int (&P)[NP])
{
    const size_t at = size_t(k) * h.F + f;
#pragma unroll
    for (int j = 0; j < NP; ++j)
        P[j] = h.par[j][at];
    return int(h.sys[at]) + int(h.apri[at]);
}

__device__ __forceinline__ void forward(const ccsds_half& h, int k, int f, int (&am)[S])
{
    int P[NP], an[S];
    const int sa = load(h, k, f, P);
#pragma unroll
    for (int n = 0; n < S; ++n) {
        const int s0 = C::prev(n, 0), s1 = C::prev(n, 1);
        an[n] = max(am[s0] + gamma(sa, P, s0, C::prev_x(n, 0)), am[s1] + gamma(sa, P, s1, C::prev_x(n, 1)));
    }
#pragma unroll
    for (int s = 0; s < S; ++s)
        am[s] = an[s] - an[0];
}

__device__ __forceinline__ void backward(int sa, const int (&P)[NP], int (&b)[S])
{
    int bn[S];
#pragma unroll
    for (int s = 0; s < S; ++s)
        bn[s] = max(b[C::next(s, 0)] + gamma(sa, P, s, 0), b[C::next(s, 1)] + gamma(sa, P, s, 1));
#pragma unroll
    for (int s = 0; s < S; ++s)
        b[s] = bn[s] - bn[0];
}

//! a thread per (window, frame): turbo_cpu_lanes.h's lanes_half for one window of one lane
__global__ void ccsds_half_kernel(ccsds_half h)
{
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= size_t(h.nwin) * h.F)
        return;
    const int w = int(t / h.F), f = int(t % h.F);
    if (h.report && h.report[f].iterations != 0)
        return; // stopped early: its decisions stay
    const int K = h.K, W = h.W, T = h.T;
    auto bound = [&](int win, int s) { return (size_t(win) * S + s) * h.F + f; };
    int am[S], b[S];
    int cp[MAX_W / SEG][S]; // the alphas of every SEG-th stage of the window (local memory)
    const int k0 = w * W, k1 = min(K, k0 + W), len = k1 - k0, fs = k0 - T;
#pragma unroll
    for (int s = 0; s < S; ++s)
        am[s] = fs <= 0 ? (s == 0 ? 0 : -UNKNOWN) : h.first ? 0 : h.a_in[bound(w, s)];
    for (int k = max(fs, 0); k < k0; ++k)
        forward(h, k, f, am);
    for (int i = 0; i < len; ++i) {
        const int p = k0 + i;
        if (p > 0 && (p + T) % W == 0 && (p + T) / W < h.nwin)
#pragma unroll
            for (int s = 0; s < S; ++s)
                h.a_out[bound((p + T) / W, s)] = am[s];
        if (i % SEG == 0)
#pragma unroll
            for (int s = 0; s < S; ++s)
                cp[i / SEG][s] = am[s];
        forward(h, p, f, am);
    }
    const int be = k1 + T;
    if (be >= K) {
#pragma unroll
        for (int s = 0; s < S; ++s)
            b[s] = s == 0 ? 0 : -UNKNOWN;
        for (int j = C::TAIL - 1; j >= 0; --j) { // the tail: input = feedback, not normalised
            int tv[1 + NP];
#pragma unroll
            for (int r = 0; r <= NP; ++r)
                tv[r] = h.tail[size_t(j * (1 + NP) + r) * h.F + f];
            const int P[NP] = { tv[1], tv[2], tv[3] };
            int bn[S];
#pragma unroll
            for (int s = 0; s < S; ++s) {
                const int x = C::fb(s);
                bn[s] = b[C::next(s, x)] + pgamma(P, s, x) + (x ? tv[0] : 0);
            }
#pragma unroll
            for (int s = 0; s < S; ++s)
                b[s] = bn[s];
        }
    } else {
#pragma unroll
        for (int s = 0; s < S; ++s)
            b[s] = h.first ? 0 : h.b_in[bound(w, s)];
    }
    for (int k = min(be, K) - 1; k >= k1; --k) {
        int P[NP];
        const int sa = load(h, k, f, P);
        backward(sa, P, b);
    }
    // the window backwards, a segment of SEG stages at a time: its alphas again from the
    // segment's checkpoint (the same forward steps, so the same values) into registers
    for (int seg = (len - 1) / SEG; seg >= 0; --seg) {
        int al[SEG][S];
#pragma unroll
        for (int s = 0; s < S; ++s)
            al[0][s] = cp[seg][s];
#pragma unroll
        for (int j = 1; j < SEG; ++j) {
#pragma unroll
            for (int s = 0; s < S; ++s)
                al[j][s] = al[j - 1][s];
            if (seg * SEG + j < len)
                forward(h, k0 + seg * SEG + j - 1, f, al[j]);
        }
#pragma unroll
        for (int j = SEG - 1; j >= 0; --j) {
            const int i = seg * SEG + j;
            if (i >= len)
                continue;
            const int k = k0 + i;
            int P[NP];
            const int sa = load(h, k, f, P);
            // without the x (sys + apri) term of x = 1, as the CPU engines: it is added below
            int m0 = al[j][0] + pgamma(P, 0, 0) + b[C::next(0, 0)];
            int m1 = al[j][0] + pgamma(P, 0, 1) + b[C::next(0, 1)];
#pragma unroll
            for (int s = 1; s < S; ++s) {
                m0 = max(m0, al[j][s] + pgamma(P, s, 0) + b[C::next(s, 0)]);
                m1 = max(m1, al[j][s] + pgamma(P, s, 1) + b[C::next(s, 1)]);
            }
            const int ext = m1 - m0;
            h.dst[size_t(h.dst_index[k]) * h.F + f] = scale_ext(ext, h.scale16);
            if (h.decide)
                h.decide[size_t(h.bit_index[k]) * h.F + f] = uint8_t(sa + ext > 0);
            backward(sa, P, b);
            if (k - T >= W && (k - T) % W == 0)
#pragma unroll
                for (int s = 0; s < S; ++s)
                    h.b_out[bound((k - T) / W - 1, s)] = b[s];
        }
    }
}

struct gather_args {
    const int8_t* in; // frames x n
    size_t n;
    int K, F;
    const int32_t* at_sys;  // K
    const int32_t* at_par;  // 2 NP K
    const int32_t* at_tail; // 2 TV
    const uint32_t* pi;
    int16_t* sys;  // [k][f]
    int16_t* sys2; // [k][f]
    int16_t* par;  // [e][j][k][f]
    int16_t* tail; // [e][TV][f]
};

//! a thread per frame: its values into the [stage][frame] arrays (-128 as -127, not sent as 0)
__global__ void ccsds_gather_kernel(gather_args a)
{
    const int f = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (f >= a.F)
        return;
    const int8_t* in = a.in + size_t(f) * a.n;
    auto value = [&](int32_t at) { return int16_t(at < 0 ? 0 : soft_in(in[at])); };
    for (int k = 0; k < a.K; ++k)
        a.sys[size_t(k) * a.F + f] = value(a.at_sys[k]);
    for (size_t i = 0; i < size_t(2 * NP) * a.K; ++i)
        a.par[i * a.F + f] = value(a.at_par[i]);
    for (int i = 0; i < 2 * TV; ++i)
        a.tail[size_t(i) * a.F + f] = value(a.at_tail[i]);
    for (int k = 0; k < a.K; ++k)
        a.sys2[size_t(k) * a.F + f] = a.sys[size_t(a.pi[k]) * a.F + f];
}

//! a thread per frame still running: its decisions packed, MSB first
__global__ void ccsds_pack_kernel(const uint8_t* decide, int K, int F, const frame_status* report, uint8_t* bits)
{
    const int f = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (f >= F || report[f].iterations != 0)
        return;
    for (int i = 0; i < K / 8; ++i) {
        unsigned byte = 0;
        for (int k = 8 * i; k < 8 * i + 8; ++k)
            byte = byte << 1 | unsigned(decide[size_t(k) * F + f] != 0);
        bits[size_t(f) * (K / 8) + i] = uint8_t(byte);
    }
}

class ccsds_cuda : public turbo_engine
{
public:
    ccsds_cuda(const turbo_code& code, const turbo_options& o, int window, int device, size_t max_batch)
        : d_code(code), d_opts(o), d_dev(device)
    {
        check_fixed_window(code, window, o.training, o.crc);
        if (code.standard != turbo_standard::ccsds || !rsc_matches<ccsds_rsc>(code.rsc))
            throw std::invalid_argument("turbo: this GPU engine runs the CCSDS codes");
        if (window > MAX_W)
            throw std::invalid_argument("window: the GPU runs the CCSDS codes with windows of at most " +
                                        std::to_string(MAX_W) + " stages (device=cpu takes up to " +
                                        std::to_string(MAX_WINDOW) + ")");
        d_crc = make_crc_gpu(o, code.K);
        d_skip = d_crc.width > 0 && o.early_termination;
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        d_W = window;
        d_nwin = (code.K + window - 1) / window;
        d_scale16 = int(std::lround(o.scaling * 16));
        const turbo_value_map m = make_turbo_value_map(code);
        const size_t K = size_t(code.K);
        std::vector<int32_t> at = m.at_sys;
        at.insert(at.end(), m.at_par.begin(), m.at_par.end());
        at.insert(at.end(), m.at_tail.begin(), m.at_tail.end());
        d_at.assign(at);
        upload_permutations(d_perm, code);
        // the chunk: a quarter of the free memory at most
        size_t free_b = 0, total_b = 0;
        GPUFEC_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const size_t per_frame = values_per_frame() * 2 + K + bound_words() * 8 * 4 + code.coded_bits();
        d_chunk = std::min(max_batch ? max_batch : size_t(4096), std::max<size_t>(1, free_b / 4 / per_frame));
        pipeline_layout l;
        l.in = { d_chunk * code.coded_bits() };
        l.out = { d_chunk * (K / 8), d_chunk * sizeof(frame_status) };
        l.scratch = { d_chunk * values_per_frame() * sizeof(int16_t), d_chunk * K,
                      d_chunk * bound_words() * 8 * sizeof(int32_t) };
        d_pipe = std::make_unique<batch_pipeline>(2, l);
    }
    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") fixed-point max-log (int32, the CPU engine's), window " +
               std::to_string(d_W) + ", training " + std::to_string(d_opts.training) + ", a thread per window";
    }
    bool on_gpu() const override { return true; }

    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        // ports: in 0 soft values; out 0 packed decisions, 1 the reports
        const turbo_chunks ch{ in, bits, report, frames, d_chunk, d_code.coded_bits(), size_t(d_code.K / 8) };
        ch.run(d_dev, *d_pipe, [&](const slot_view& v, size_t m) {
            enqueue(v.stream, v.input<const int8_t>(0), m, v, v.output<uint8_t>(0), v.output<frame_status>(1));
        });
    }

private:
    //! int16 values of a frame: sys, sys2, 2 NP parities, 2 a-priori arrays (K each), the tails
    size_t values_per_frame() const { return (4 + 2 * NP) * size_t(d_code.K) + 2 * TV; }
    //! int32 words of one boundary array of a frame (windows x states; a frame has 8: 2 decoders x
    //! 2 buffers x alpha and beta)
    size_t bound_words() const { return size_t(d_nwin) * S; }

    void enqueue(cudaStream_t st, const int8_t* in, size_t m, const slot_view& v, uint8_t* bits,
                 frame_status* report)
    {
        const int K = d_code.K, F = int(m);
        const size_t kf = size_t(K) * m;
        int16_t* sys = v.scratch_as<int16_t>(0);
        int16_t* sys2 = sys + kf;
        int16_t* par = sys2 + kf;              // [e][j] x kf
        int16_t* apri1 = par + 2 * NP * kf;
        int16_t* apri2 = apri1 + kf;
        int16_t* tail = apri2 + kf;            // [e][TV] x F
        uint8_t* decide = v.scratch_as<uint8_t>(1);
        int32_t* bounds = v.scratch_as<int32_t>(2); // [decoder][buffer][a | b] x bound_words() x F
        const size_t nb = bound_words() * m;
        const uint32_t* pi = d_perm.get();
        const uint32_t* inv = pi + K;
        gather_args ga{ in, d_code.coded_bits(), K, F, d_at.get(), d_at.get() + K, d_at.get() + K + 2 * NP * K, pi,
                        sys, sys2, par, tail };
        const unsigned fb = unsigned((m + 127) / 128);
        ccsds_gather_kernel<<<fb, 128, 0, st>>>(ga);
        GPUFEC_CUDA_CHECK_LAUNCH("ccsds_gather_kernel");
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(apri1, 0, kf * sizeof(int16_t), st));
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(report, 0, m * sizeof(frame_status), st)); // every frame running
        ccsds_half h[2];
        for (int d = 0; d < 2; ++d) {
            ccsds_half& x = h[d];
            x.K = K;
            x.W = d_W;
            x.T = d_opts.training;
            x.nwin = d_nwin;
            x.F = F;
            x.scale16 = d_scale16;
            x.sys = d ? sys2 : sys;
            for (int j = 0; j < NP; ++j)
                x.par[j] = par + size_t(d * NP + j) * kf;
            x.tail = tail + size_t(d) * TV * m;
            x.apri = d ? apri2 : apri1;
            x.dst = d ? apri1 : apri2;
            x.dst_index = d ? pi : inv;
            x.decide = nullptr;
            x.bit_index = pi;
            x.report = d_skip ? report : nullptr;
        }
        const unsigned blocks = unsigned((size_t(d_nwin) * m + 127) / 128);
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            for (int d = 0; d < 2; ++d) {
                ccsds_half& x = h[d];
                // the boundaries: the previous iteration's in, this one's out (two buffers a decoder)
                int32_t* rd = bounds + (size_t(d) * 2 + size_t(it % 2)) * 2 * nb;
                int32_t* wr = bounds + (size_t(d) * 2 + size_t(1 - it % 2)) * 2 * nb;
                x.a_in = rd;
                x.b_in = rd + nb;
                x.a_out = wr;
                x.b_out = wr + nb;
                x.first = it == 1;
                x.decide = d == 1 && decide_now(it) ? decide : nullptr;
                ccsds_half_kernel<<<blocks, 128, 0, st>>>(x);
                GPUFEC_CUDA_CHECK_LAUNCH("ccsds_half_kernel");
            }
            if (decide_now(it)) { // the CRC after every iteration, or once
                ccsds_pack_kernel<<<fb, 128, 0, st>>>(decide, K, F, report, bits);
                GPUFEC_CUDA_CHECK_LAUNCH("ccsds_pack_kernel");
                turbo_crc_kernel<<<unsigned((m * 32 + 255) / 256), 256, 0, st>>>(bits, F, it, d_crc, report);
                GPUFEC_CUDA_CHECK_LAUNCH("turbo_crc_kernel");
            }
        }
    }
    bool decide_now(int it) const { return d_skip || it == d_opts.max_iterations; }

    turbo_code d_code;
    turbo_options d_opts;
    int d_dev, d_W = 16, d_nwin = 0, d_scale16 = 12;
    size_t d_chunk = 0;
    std::string d_gpu;
    crc_gpu d_crc{};
    bool d_skip = false; // CRC early stop
    device_buffer<int32_t> d_at;   // at_sys | at_par | at_tail
    device_buffer<uint32_t> d_perm; // pi | its inverse
    std::unique_ptr<batch_pipeline> d_pipe;
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_ccsds_cuda(const turbo_code& code, const turbo_options& o, int window,
                                                    int device, size_t max_batch)
{
    return std::make_unique<ccsds_cuda>(code, o, window, device, max_batch);
}

} // namespace gpufec
