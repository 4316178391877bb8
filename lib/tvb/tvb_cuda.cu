/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The TVB MAP decoder on the GPU, the global-storage variant of Briffa's decoder: the receiver
 * metrics (gamma) of a chunk of frames are computed once into device memory, then alpha and
 * beta run concurrently (one thread block each per frame), then the APPs. The chunk is sized
 * from the memory gamma needs. Compiled without fused multiply-add (-fmad=false) and summing in
 * the CPU reference's order, it gives the CPU's numbers (tvb_map_cpu.cc).
 *
 * Parallel mapping and layout:
 *   gamma: a thread per (frame, symbol i, start drift a, symbol value D) runs the corridor lattice
 *     of C_i(D) against the received bits from n i + a and writes its Mn metrics:
 *     gamma[frame][i][a][D][c] (float; c the drift change, 0 where the end leaves the range);
 *   alpha / beta: a block per (frame, direction), a thread per drift state, over the symbols in
 *     turn; the state vector in shared memory (double), normalised each step;
 *   app: a warp per (frame, symbol i), lanes over the symbol values: the q sums, added in the
 *     CPU's order by lane 0, normalised; the most probable symbol. */
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "tvb_engine.h"
#include <algorithm>
#include <vector>

namespace gpufec {

namespace {

constexpr int MAX_MN = 64; // the widest corridor (a lattice row in registers; checked at construction)

struct tvb_args {
    const int8_t* soft;      // frames back to back
    const uint32_t* offset;  // frame f: soft[offset[f] .. offset[f + 1])
    const uint32_t* books;   // nbooks x q codewords
    float* gamma;            // [f][i][a][D][c]
    double* alpha;           // [f][i][a], N + 1 rows
    double* beta;
    uint16_t* symbols;       // [f][i]
    float* app;              // [f][i][D] or null
    uint8_t* erased;
    int frames, N, n, q, nbooks, Mt, mt_lo, Mn, mn_lo;
    float ins, del, same, diff, prior;
};

__device__ int end_drift(const tvb_args& a, int f) { return int(a.offset[f + 1] - a.offset[f]) - a.N * a.n; }

/*! CAP >= Mn: the lattice row lives in registers (the loops over it are unrolled); the row is
 *  updated in place, left to right: F[c] needs the old F[c] and F[c + 1] and the new F[c - 1]. */
template <int CAP>
__global__ void gamma_kernel(tvb_args a)
{
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t per_frame = size_t(a.N) * a.Mt * a.q;
    if (t >= per_frame * a.frames)
        return;
    const int f = int(t / per_frame);
    size_t r = t % per_frame;
    const int i = int(r / (size_t(a.Mt) * a.q));
    r %= size_t(a.Mt) * a.q;
    const int st = int(r / a.q), D = int(r % a.q);
    float* g = a.gamma + t * a.Mn;
    const long len = long(a.offset[f + 1] - a.offset[f]);
    const long s = long(i) * a.n + a.mt_lo + st;
    if (s < 0 || s > len) {
        for (int c = 0; c < a.Mn; ++c)
            g[c] = 0.f;
        return;
    }
    const int8_t* y = a.soft + a.offset[f] + s;
    const long avail = len - s;
    const uint32_t x = a.books[size_t(i % a.nbooks) * a.q + D];
    // the lattice in the corridor j - row = mn_lo + c (as tvb_map_decoder computes it)
    float F[CAP];
#pragma unroll
    for (int c = 0; c < CAP; ++c) {
        const long j = a.mn_lo + c;
        float v = 0.f;
        if (c < a.Mn && j >= 0 && j <= avail) {
            v = 1.f;
            for (long k = 0; k < j; ++k)
                v = v * a.ins;
        }
        F[c] = v;
    }
    for (int row = 1; row <= a.n; ++row) {
        const int xi = int((x >> (a.n - row)) & 1);
        float left = 0.f; // the new F[c - 1]
#pragma unroll
        for (int c = 0; c < CAP; ++c) {
            const long j = long(row) + a.mn_lo + c;
            float v = 0.f;
            if (c < a.Mn && j >= 0 && j <= avail) {
                if (c + 1 < a.Mn)
                    v = v + a.del * F[c + 1 < CAP ? c + 1 : c];
                if (j >= 1)
                    v = v + (int(y[j - 1] > 0) == xi ? a.same : a.diff) * F[c];
                if (row < a.n && c >= 1)
                    v = v + a.ins * left;
            }
            F[c] = v;
            left = v;
        }
    }
#pragma unroll
    for (int c = 0; c < CAP; ++c) {
        const int b = st + a.mn_lo + c;
        if (c < a.Mn)
            g[c] = (b >= 0 && b < a.Mt) ? F[c] * a.prior : 0.f;
    }
}

__device__ const float* gam(const tvb_args& a, int f, int i, int st, int D)
{
    return a.gamma + (((size_t(f) * a.N + i) * a.Mt + st) * a.q + D) * a.Mn;
}

//! blockIdx.x: frame; blockIdx.y: 0 alpha, 1 beta. Shared: two state vectors (double).
__global__ void alpha_beta_kernel(tvb_args a)
{
    extern __shared__ double sv[];
    const int f = blockIdx.x, Mt = a.Mt;
    double* cur = sv;
    double* nxt = sv + Mt;
    const int e = end_drift(a, f);
    if (e < a.mt_lo || e > a.mt_lo + Mt - 1) { // erased: nothing to compute
        if (blockIdx.y == 0 && threadIdx.x == 0)
            a.erased[f] = 1;
        return;
    }
    if (blockIdx.y == 0 && threadIdx.x == 0)
        a.erased[f] = 0;
    const bool fwd = blockIdx.y == 0;
    double* out = (fwd ? a.alpha : a.beta) + size_t(f) * (a.N + 1) * Mt;
    for (int s = threadIdx.x; s < Mt; s += blockDim.x) {
        cur[s] = fwd ? (s == -a.mt_lo ? 1.0 : 0.0) : (s == e - a.mt_lo ? 1.0 : 0.0);
        out[size_t(fwd ? 0 : a.N) * Mt + s] = cur[s];
    }
    __syncthreads();
    for (int step = 0; step < a.N; ++step) {
        const int i = fwd ? step : a.N - 1 - step;
        for (int s = threadIdx.x; s < Mt; s += blockDim.x) {
            double v = 0;
            if (fwd) { // alpha[i+1][s]: over start states a ascending, then D (the CPU's order)
                for (int c = a.Mn - 1; c >= 0; --c) {
                    const int st = s - a.mn_lo - c;
                    if (st < 0 || st >= Mt || cur[st] == 0)
                        continue;
                    for (int D = 0; D < a.q; ++D)
                        v = __dadd_rn(v, __dmul_rn(cur[st], double(gam(a, f, i, st, D)[c])));
                }
            } else { // beta[i][s]: over D, then the end states
                for (int D = 0; D < a.q; ++D) {
                    const float* g = gam(a, f, i, s, D);
                    for (int c = 0; c < a.Mn; ++c) {
                        const int b = s + a.mn_lo + c;
                        if (b >= 0 && b < Mt)
                            v = __dadd_rn(v, __dmul_rn(double(g[c]), cur[b]));
                    }
                }
            }
            nxt[s] = v;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            double sum = 0;
            for (int s = 0; s < Mt; ++s)
                sum = __dadd_rn(sum, nxt[s]);
            sv[2 * Mt] = sum;
        }
        __syncthreads();
        const double sum = sv[2 * Mt];
        const size_t row = size_t(fwd ? i + 1 : i) * Mt;
        for (int s = threadIdx.x; s < Mt; s += blockDim.x) {
            const double x = sum > 0 ? __ddiv_rn(nxt[s], sum) : nxt[s];
            cur[s] = x;
            out[row + s] = x;
        }
        __syncthreads();
    }
}

//! sum over the start and end drifts of alpha gamma beta for symbol value D (the CPU's order)
__device__ double symbol_value(const tvb_args& a, int f, int i, int D, const double* al, const double* bn)
{
    double v = 0;
    for (int st = 0; st < a.Mt; ++st) {
        if (al[st] == 0)
            continue;
        const float* g = gam(a, f, i, st, D);
        double w = 0;
        for (int c = 0; c < a.Mn; ++c) {
            const int b = st + a.mn_lo + c;
            if (b >= 0 && b < a.Mt)
                w = __dadd_rn(w, __dmul_rn(double(g[c]), bn[b]));
        }
        v = __dadd_rn(v, __dmul_rn(al[st], w));
    }
    return v;
}

//! a warp per (frame, symbol): lane l computes the values of D = l, l + 32, ...; lane 0 adds
//! them in D order (the CPU's), and picks the most probable symbol; then the APPs
__global__ void app_kernel(tvb_args a)
{
    const size_t w = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x & 31;
    if (w >= size_t(a.frames) * a.N)
        return; // whole warps leave together (blockDim is a multiple of 32)
    const int f = int(w / a.N), i = int(w % a.N);
    uint16_t* sym = a.symbols + w;
    float* app = a.app ? a.app + w * a.q : nullptr;
    if (a.erased[f]) {
        if (lane == 0)
            *sym = 0;
        if (app)
            for (int D = lane; D < a.q; D += 32)
                app[D] = float(1.0 / a.q);
        return;
    }
    const double* al = a.alpha + (size_t(f) * (a.N + 1) + i) * a.Mt;
    const double* bn = a.beta + (size_t(f) * (a.N + 1) + i + 1) * a.Mt;
    double sum = 0, best_v = -1, v = 0;
    int best = 0;
    for (int D0 = 0; D0 < a.q; D0 += 32) {
        v = D0 + lane < a.q ? symbol_value(a, f, i, D0 + lane, al, bn) : 0.0;
        for (int l = 0; l < 32 && D0 + l < a.q; ++l) {
            const double x = __shfl_sync(0xffffffffu, v, l);
            if (lane == 0) {
                sum = __dadd_rn(sum, x);
                if (x > best_v) {
                    best_v = x;
                    best = D0 + l;
                }
            }
        }
    }
    if (lane == 0)
        *sym = uint16_t(best);
    if (!app)
        return;
    sum = __shfl_sync(0xffffffffu, sum, 0);
    for (int D = lane; D < a.q; D += 32) {
        const double x = a.q <= 32 ? v : symbol_value(a, f, i, D, al, bn); // q <= 32: still held
        app[D] = float(sum > 0 ? __ddiv_rn(x, sum) : 1.0 / a.q);
    }
}

class tvb_cuda : public tvb_engine
{
public:
    tvb_cuda(const tvb_setup& s, int device, size_t max_batch) : d_s(s), d_dev(device)
    {
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        const tvb_code& c = s.code;
        d_a.N = int(s.N);
        d_a.n = c.n;
        d_a.q = c.q;
        d_a.nbooks = int(c.books.size());
        d_a.Mt = s.frame.size();
        d_a.mt_lo = s.frame.lo;
        d_a.Mn = s.codeword.size();
        d_a.mn_lo = s.codeword.lo;
        if (d_a.Mn > MAX_MN)
            throw std::invalid_argument("tvb GPU decoder: a codeword's drift range of " + std::to_string(d_a.Mn) +
                                        " is wider than " + std::to_string(MAX_MN) +
                                        " (a larger exclusion probability narrows it; the CPU has no limit)");
        const auto& ch = s.channel;
        d_a.ins = float(ch.Pi / 2);
        d_a.del = float(ch.Pd);
        d_a.same = float(ch.Pt() * (1 - ch.Ps));
        d_a.diff = float(ch.Pt() * ch.Ps);
        d_a.prior = float(1.0 / c.q);
        if (size_t(2 * d_a.Mt + 1) * sizeof(double) > size_t(prop.sharedMemPerBlock))
            throw std::invalid_argument("tvb GPU decoder: " + std::to_string(d_a.Mt) + " drift states do not fit "
                                        "a block's shared memory");
        std::vector<uint32_t> books;
        for (const auto& b : c.books)
            books.insert(books.end(), b.begin(), b.end());
        d_books.resize(books.size());
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_books.get(), books.data(), books.size() * 4, cudaMemcpyHostToDevice));
        // the chunk: gamma of a chunk within a quarter of the free memory (global storage)
        size_t free_b = 0, total_b = 0;
        GPUFEC_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const size_t per_frame = gamma_floats() * sizeof(float) + 2 * (s.N + 1) * size_t(d_a.Mt) * sizeof(double);
        const size_t fit = std::max<size_t>(1, free_b / 4 / per_frame);
        d_chunk = std::min(fit, max_batch ? max_batch : size_t(1024));
        d_max_len = s.N * size_t(c.n) + size_t(s.frame.hi);
        pipeline_layout l;
        l.in = { d_chunk * d_max_len, (d_chunk + 1) * sizeof(uint32_t) };
        l.out = { d_chunk * s.N * sizeof(uint16_t), d_chunk, 0 };
        l.scratch = { d_chunk * gamma_floats() * sizeof(float), d_chunk * (s.N + 1) * size_t(d_a.Mt) * sizeof(double),
                      d_chunk * (s.N + 1) * size_t(d_a.Mt) * sizeof(double) };
        d_pipe = std::make_unique<batch_pipeline>(2, l);
    }

    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") MAP over the drift, gamma in global memory, " +
               std::to_string(d_chunk) + " frames a chunk";
    }

    void decode(const int8_t* soft, const size_t* lengths, size_t frames, uint16_t* symbols, float* app,
                uint8_t* erased) override
    {
        if (frames == 0)
            return;
        device_guard g(d_dev);
        const size_t N = d_s.N, q = size_t(d_a.q);
        if (app && d_pipe->layout().out.size() > 2 && d_pipe->layout().out[2] < d_chunk * N * q * sizeof(float)) {
            pipeline_layout l;
            l.out = { 0, 0, d_chunk * N * q * sizeof(float) };
            d_pipe->grow(l);
        }
        // each chunk's offsets, relative to its first frame
        d_start.resize(frames + 1);
        d_start[0] = 0;
        for (size_t f = 0; f < frames; ++f)
            d_start[f + 1] = d_start[f] + lengths[f];
        const int64_t chunks = int64_t((frames + d_chunk - 1) / d_chunk);
        d_off.resize(size_t(chunks) * (d_chunk + 1));
        for (int64_t c = 0; c < chunks; ++c) {
            const size_t a0 = size_t(c) * d_chunk, m = std::min(d_chunk, frames - a0);
            for (size_t k = 0; k <= m; ++k)
                d_off[size_t(c) * (d_chunk + 1) + k] = uint32_t(d_start[a0 + k] - d_start[a0]);
        }
        d_pipe->run(
            chunks,
            [&](int64_t c) {
                const size_t a0 = size_t(c) * d_chunk, m = std::min(d_chunk, frames - a0);
                chunk_io io;
                io.in[0] = soft + d_start[a0];
                io.in_bytes[0] = d_start[a0 + m] - d_start[a0];
                io.in[1] = d_off.data() + size_t(c) * (d_chunk + 1);
                io.in_bytes[1] = (m + 1) * sizeof(uint32_t);
                io.out[0] = symbols + a0 * N;
                io.out_bytes[0] = m * N * sizeof(uint16_t);
                io.out[1] = erased + a0;
                io.out_bytes[1] = m;
                if (app) {
                    io.out[2] = app + a0 * N * q;
                    io.out_bytes[2] = m * N * q * sizeof(float);
                }
                return io;
            },
            [&](int64_t c, const slot_view& v) {
                const size_t m = std::min(d_chunk, frames - size_t(c) * d_chunk);
                tvb_args a = d_a;
                a.soft = v.input<const int8_t>(0);
                a.offset = v.input<const uint32_t>(1);
                a.books = d_books.get();
                a.gamma = v.scratch_as<float>(0);
                a.alpha = v.scratch_as<double>(1);
                a.beta = v.scratch_as<double>(2);
                a.symbols = v.output<uint16_t>(0);
                a.erased = v.output<uint8_t>(1);
                a.app = app ? v.output<float>(2) : nullptr;
                a.frames = int(m);
                const size_t threads = m * N * size_t(a.Mt) * q;
                const unsigned blocks = unsigned((threads + 127) / 128);
                if (a.Mn <= 8)
                    gamma_kernel<8><<<blocks, 128, 0, v.stream>>>(a);
                else if (a.Mn <= 16)
                    gamma_kernel<16><<<blocks, 128, 0, v.stream>>>(a);
                else if (a.Mn <= 32)
                    gamma_kernel<32><<<blocks, 128, 0, v.stream>>>(a);
                else
                    gamma_kernel<MAX_MN><<<blocks, 128, 0, v.stream>>>(a);
                GPUFEC_CUDA_CHECK_LAUNCH("tvb gamma_kernel");
                alpha_beta_kernel<<<dim3(unsigned(m), 2), 64, (2 * size_t(a.Mt) + 1) * sizeof(double), v.stream>>>(a);
                GPUFEC_CUDA_CHECK_LAUNCH("tvb alpha_beta_kernel");
                app_kernel<<<unsigned((m * N * 32 + 127) / 128), 128, 0, v.stream>>>(a);
                GPUFEC_CUDA_CHECK_LAUNCH("tvb app_kernel");
            });
    }

private:
    size_t gamma_floats() const { return d_s.N * size_t(d_a.Mt) * size_t(d_a.q) * size_t(d_a.Mn); }

    tvb_setup d_s;
    int d_dev;
    std::string d_gpu;
    tvb_args d_a{};
    device_buffer<uint32_t> d_books;
    size_t d_chunk = 0, d_max_len = 0;
    std::vector<size_t> d_start;
    std::vector<uint32_t> d_off;
    std::unique_ptr<batch_pipeline> d_pipe;
};

} // namespace

std::unique_ptr<tvb_engine> make_tvb_cuda(const tvb_setup& s, int device, size_t max_batch)
{
    return std::make_unique<tvb_cuda>(s, device, max_batch);
}

} // namespace gpufec
