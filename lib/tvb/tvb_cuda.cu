/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The TVB MAP decoder on the GPU, Briffa's decoder in its two storage variants:
 *   global: the receiver metrics (gamma) of a chunk of frames are computed once into device
 *     memory, then alpha and beta run concurrently (one thread block each per frame), then the
 *     APPs;
 *   local: one thread block per frame keeps one symbol's gamma at a time (in shared memory when
 *     it fits, else in a per-frame row of device memory) and computes it twice: in the forward
 *     pass for alpha, and in the backward pass for beta and the APPs together. A frame then
 *     needs only its alpha rows, so many more frames run at once.
 * alpha, beta and the APP sums are in R (double or float: the precision option). Compiled
 * without fused multiply-add (-fmad=false) and summing in the CPU reference's order, both
 * variants give the CPU's numbers in either precision (tvb_map_cpu.cc).
 *
 * Parallel mapping and layout:
 *   gamma (global): a thread per (frame, symbol i, start drift a, symbol value D) runs the
 *     corridor lattice of C_i(D) against the received bits from n i + a and writes its Mn
 *     metrics: gamma[frame][i][a][D][c] (float; c the drift change, 0 where the end leaves the
 *     range). In the local variant the block's threads share the (a, D) pairs of one symbol.
 *   alpha / beta: a block per (frame, direction), a thread per drift state (strided), over the
 *     symbols in turn; the state vector in shared memory, normalised each step;
 *   app (global): a warp per (frame, symbol i), lanes over the symbol values: the q sums, added
 *     in the CPU's order by lane 0, normalised; the most probable symbol. In the local variant
 *     the block's threads share the symbol values and thread 0 adds them. */
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "tvb_engine.h"
#include <algorithm>
#include <type_traits>
#include <vector>

namespace gpufec {

namespace {

constexpr int MAX_MN = 64; // the widest corridor (a lattice row in registers; checked at construction)

template <class R>
struct tvb_args {
    const int8_t* soft;      // frames back to back
    const uint32_t* offset;  // frame f: soft[offset[f] .. offset[f + 1])
    const uint32_t* books;   // nbooks x q codewords
    float* gamma;            // global: [f][i][a][D][c]; local: null (shared) or a row per frame
    R* alpha;                // [f][i][a], N + 1 rows
    R* beta;                 // [f][i][a], N + 1 rows (global only)
    uint16_t* symbols;       // [f][i]
    float* app;              // [f][i][D] or null
    uint8_t* erased;
    int frames, N, n, q, nbooks, Mt, mt_lo, Mn, mn_lo;
    float ins, del, same, diff, prior;
};

// the sums in the CPU's rounding, whatever the compiler would fuse
__device__ inline double add_rn(double x, double y) { return __dadd_rn(x, y); }
__device__ inline float add_rn(float x, float y) { return __fadd_rn(x, y); }
__device__ inline double mul_rn(double x, double y) { return __dmul_rn(x, y); }
__device__ inline float mul_rn(float x, float y) { return __fmul_rn(x, y); }
__device__ inline double div_rn(double x, double y) { return __ddiv_rn(x, y); }
__device__ inline float div_rn(float x, float y) { return __fdiv_rn(x, y); }

template <class R>
__device__ int end_drift(const tvb_args<R>& a, int f)
{
    return int(a.offset[f + 1] - a.offset[f]) - a.N * a.n;
}

template <class R>
__device__ bool is_erased(const tvb_args<R>& a, int f)
{
    const int e = end_drift(a, f);
    return e < a.mt_lo || e > a.mt_lo + a.Mt - 1;
}

/*! gamma of frame f, symbol i, start state st, symbol value D: its Mn metrics into g. CAP >= Mn:
 *  the lattice row lives in registers (the loops over it are unrolled); the row is updated in
 *  place, left to right: F[c] needs the old F[c] and F[c + 1] and the new F[c - 1]. */
template <int CAP, class R>
__device__ void gamma_entry(const tvb_args<R>& a, int f, int i, int st, int D, float* g)
{
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

//! global variant: a thread per (frame, symbol, start state, symbol value)
template <int CAP, class R>
__global__ void gamma_kernel(tvb_args<R> a)
{
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t per_frame = size_t(a.N) * a.Mt * a.q;
    if (t >= per_frame * a.frames)
        return;
    const int f = int(t / per_frame);
    size_t r = t % per_frame;
    const int i = int(r / (size_t(a.Mt) * a.q));
    r %= size_t(a.Mt) * a.q;
    gamma_entry<CAP>(a, f, i, int(r / a.q), int(r % a.q), a.gamma + t * a.Mn);
}

// One symbol's gamma row: [st][D][c]. The recursions below read it through this.
template <class R>
__device__ const float* row_entry(const tvb_args<R>& a, const float* row, int st, int D)
{
    return row + (size_t(st) * a.q + D) * a.Mn;
}

//! alpha[i+1][s] before normalisation: over start states ascending, then D (the CPU's order)
template <class R>
__device__ R alpha_value(const tvb_args<R>& a, const float* row, const R* cur, int s)
{
    R v = 0;
    for (int c = a.Mn - 1; c >= 0; --c) {
        const int st = s - a.mn_lo - c;
        if (st < 0 || st >= a.Mt || cur[st] == 0)
            continue;
        for (int D = 0; D < a.q; ++D)
            v = add_rn(v, mul_rn(cur[st], R(row_entry(a, row, st, D)[c])));
    }
    return v;
}

//! beta[i][s] before normalisation: over D, then the end states
template <class R>
__device__ R beta_value(const tvb_args<R>& a, const float* row, const R* nxt, int s)
{
    R v = 0;
    for (int D = 0; D < a.q; ++D) {
        const float* g = row_entry(a, row, s, D);
        for (int c = 0; c < a.Mn; ++c) {
            const int b = s + a.mn_lo + c;
            if (b >= 0 && b < a.Mt)
                v = add_rn(v, mul_rn(R(g[c]), nxt[b]));
        }
    }
    return v;
}

//! the unnormalised APP of symbol value D: over start and end drifts of alpha gamma beta
template <class R>
__device__ R symbol_value(const tvb_args<R>& a, const float* row, int D, const R* al, const R* bn)
{
    R v = 0;
    for (int st = 0; st < a.Mt; ++st) {
        if (al[st] == 0)
            continue;
        const float* g = row_entry(a, row, st, D);
        R w = 0;
        for (int c = 0; c < a.Mn; ++c) {
            const int b = st + a.mn_lo + c;
            if (b >= 0 && b < a.Mt)
                w = add_rn(w, mul_rn(R(g[c]), bn[b]));
        }
        v = add_rn(v, mul_rn(al[st], w));
    }
    return v;
}

/*! The whole block: nxt normalised (summed in state order by thread 0, through *sum) into cur
 *  and into the stored row out (null: not stored). Starts and ends with a barrier. */
template <class R>
__device__ void normalise_into(int Mt, const R* nxt, R* cur, R* out, R* sum_slot)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        R sum = 0;
        for (int s = 0; s < Mt; ++s)
            sum = add_rn(sum, nxt[s]);
        *sum_slot = sum;
    }
    __syncthreads();
    const R sum = *sum_slot;
    for (int s = threadIdx.x; s < Mt; s += blockDim.x) {
        const R x = sum > 0 ? div_rn(nxt[s], sum) : nxt[s];
        cur[s] = x;
        if (out)
            out[s] = x;
    }
    __syncthreads();
}

//! the starting vector: all in state `one`, stored in out
template <class R>
__device__ void start_vector(int Mt, int one, R* cur, R* out)
{
    for (int s = threadIdx.x; s < Mt; s += blockDim.x) {
        cur[s] = s == one ? R(1) : R(0);
        out[s] = cur[s];
    }
    __syncthreads();
}

template <class R>
__device__ const float* global_row(const tvb_args<R>& a, int f, int i)
{
    return a.gamma + (size_t(f) * a.N + i) * size_t(a.Mt) * a.q * a.Mn;
}

//! global variant. blockIdx.x: frame; blockIdx.y: 0 alpha, 1 beta. Shared: two state vectors.
template <class R>
__global__ void alpha_beta_kernel(tvb_args<R> a)
{
    extern __shared__ unsigned char smem[];
    R* cur = reinterpret_cast<R*>(smem);
    R* nxt = cur + a.Mt;
    const int f = blockIdx.x, Mt = a.Mt;
    if (is_erased(a, f)) { // nothing to compute
        if (blockIdx.y == 0 && threadIdx.x == 0)
            a.erased[f] = 1;
        return;
    }
    if (blockIdx.y == 0 && threadIdx.x == 0)
        a.erased[f] = 0;
    const bool fwd = blockIdx.y == 0;
    R* out = (fwd ? a.alpha : a.beta) + size_t(f) * (a.N + 1) * Mt;
    start_vector(Mt, fwd ? -a.mt_lo : end_drift(a, f) - a.mt_lo, cur, out + size_t(fwd ? 0 : a.N) * Mt);
    for (int step = 0; step < a.N; ++step) {
        const int i = fwd ? step : a.N - 1 - step;
        const float* row = global_row(a, f, i);
        for (int s = threadIdx.x; s < Mt; s += blockDim.x)
            nxt[s] = fwd ? alpha_value(a, row, cur, s) : beta_value(a, row, cur, s);
        normalise_into(Mt, nxt, cur, out + size_t(fwd ? i + 1 : i) * Mt, nxt + Mt);
    }
}

//! an erased frame's outputs: symbols 0, uniform APPs (the block's threads share them)
template <class R>
__device__ void erase_outputs(const tvb_args<R>& a, int f)
{
    for (int i = threadIdx.x; i < a.N; i += blockDim.x)
        a.symbols[size_t(f) * a.N + i] = 0;
    if (a.app)
        for (size_t k = threadIdx.x; k < size_t(a.N) * a.q; k += blockDim.x)
            a.app[size_t(f) * a.N * a.q + k] = float(1.0 / a.q);
}

//! global variant: a warp per (frame, symbol): lane l computes the values of D = l, l + 32, ...;
//! lane 0 adds them in D order (the CPU's), and picks the most probable symbol; then the APPs
template <class R>
__global__ void app_kernel(tvb_args<R> a)
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
    const R* al = a.alpha + (size_t(f) * (a.N + 1) + i) * a.Mt;
    const R* bn = a.beta + (size_t(f) * (a.N + 1) + i + 1) * a.Mt;
    const float* row = global_row(a, f, i);
    R sum = 0, best_v = -1, v = 0;
    int best = 0;
    for (int D0 = 0; D0 < a.q; D0 += 32) {
        v = D0 + lane < a.q ? symbol_value(a, row, D0 + lane, al, bn) : R(0);
        for (int l = 0; l < 32 && D0 + l < a.q; ++l) {
            const R x = __shfl_sync(0xffffffffu, v, l);
            if (lane == 0) {
                sum = add_rn(sum, x);
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
        const R x = a.q <= 32 ? v : symbol_value(a, row, D, al, bn); // q <= 32: still held
        app[D] = float(sum > 0 ? div_rn(x, sum) : R(1.0 / a.q));
    }
}

/*! local variant: a block per frame, both passes. Shared: the gamma row (unless a.gamma gives
 *  each frame a row in device memory), two state vectors, the q symbol values and two sums.
 *  Forward: per symbol, the block computes its gamma row, then alpha (stored). Backward: per
 *  symbol, the gamma row again, then beta (kept in shared memory only) and the APPs from the
 *  stored alpha, the row and beta of the next symbol. */
template <int CAP, class R>
__global__ void local_kernel(tvb_args<R> a)
{
    extern __shared__ unsigned char smem[];
    const int f = blockIdx.x, Mt = a.Mt, q = a.q;
    R* cur = reinterpret_cast<R*>(smem);
    R* nxt = cur + Mt;
    R* vals = nxt + Mt;
    R* sums = vals + q; // [0]: the normalisation, [1]: the APP sum
    float* row = a.gamma ? a.gamma + size_t(f) * Mt * q * a.Mn : reinterpret_cast<float*>(sums + 2);
    if (is_erased(a, f)) {
        if (threadIdx.x == 0)
            a.erased[f] = 1;
        erase_outputs(a, f);
        return;
    }
    if (threadIdx.x == 0)
        a.erased[f] = 0;
    R* alpha = a.alpha + size_t(f) * (a.N + 1) * Mt;
    auto fill_row = [&](int i) {
        for (int t = threadIdx.x; t < Mt * q; t += blockDim.x)
            gamma_entry<CAP>(a, f, i, t / q, t % q, row + size_t(t) * a.Mn);
        __syncthreads();
    };
    start_vector(Mt, -a.mt_lo, cur, alpha);
    for (int i = 0; i < a.N; ++i) {
        fill_row(i);
        for (int s = threadIdx.x; s < Mt; s += blockDim.x)
            nxt[s] = alpha_value(a, row, cur, s);
        normalise_into(Mt, nxt, cur, alpha + size_t(i + 1) * Mt, sums);
    }
    // beta of the end: cur (alpha's last row stays stored, the vector is free)
    for (int s = threadIdx.x; s < Mt; s += blockDim.x)
        cur[s] = s == end_drift(a, f) - a.mt_lo ? R(1) : R(0);
    __syncthreads();
    for (int i = a.N - 1; i >= 0; --i) {
        fill_row(i);
        const R* al = alpha + size_t(i) * Mt;
        for (int s = threadIdx.x; s < Mt; s += blockDim.x)
            nxt[s] = beta_value(a, row, cur, s);
        for (int D = threadIdx.x; D < q; D += blockDim.x)
            vals[D] = symbol_value(a, row, D, al, cur); // cur: beta of symbol i + 1
        __syncthreads();
        if (threadIdx.x == 0) { // the APP sum in D order and the most probable symbol
            R sum = 0, best_v = -1;
            int best = 0;
            for (int D = 0; D < q; ++D) {
                sum = add_rn(sum, vals[D]);
                if (vals[D] > best_v) {
                    best_v = vals[D];
                    best = D;
                }
            }
            sums[1] = sum;
            a.symbols[size_t(f) * a.N + i] = uint16_t(best);
        }
        __syncthreads();
        if (a.app) {
            const R sum = sums[1];
            float* app = a.app + (size_t(f) * a.N + i) * q;
            for (int D = threadIdx.x; D < q; D += blockDim.x)
                app[D] = float(sum > 0 ? div_rn(vals[D], sum) : R(1.0 / q));
        }
        normalise_into(Mt, nxt, cur, static_cast<R*>(nullptr), sums); // its barriers also keep vals
    }
}

template <class F>
int max_threads(F* kernel)
{
    cudaFuncAttributes fa;
    GPUFEC_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    return fa.maxThreadsPerBlock; // the device's limit, lowered by the kernel's registers
}

//! the kernel instance whose register row holds Mn
template <class R>
struct kernels {
    void (*gamma)(tvb_args<R>) = nullptr;
    void (*local)(tvb_args<R>) = nullptr;
    explicit kernels(int Mn)
    {
        if (Mn <= 8)
            set<8>();
        else if (Mn <= 16)
            set<16>();
        else if (Mn <= 32)
            set<32>();
        else
            set<MAX_MN>();
    }
    template <int CAP>
    void set()
    {
        gamma = gamma_kernel<CAP, R>;
        local = local_kernel<CAP, R>;
    }
};

template <class R>
class tvb_cuda : public frame_engine
{
public:
    tvb_cuda(const tvb_setup& s, int device, size_t max_batch) : d_s(s), d_dev(device), d_k(s.codeword.size())
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
        std::vector<uint32_t> books;
        for (const auto& b : c.books)
            books.insert(books.end(), b.begin(), b.end());
        d_books.assign(books);
        choose_storage(prop, max_batch);
        d_max_len = s.N * size_t(c.n) + size_t(s.frame.hi);
        pipeline_layout l;
        l.in = { d_chunk * d_max_len, (d_chunk + 1) * sizeof(uint32_t) };
        l.out = { d_chunk * s.N * sizeof(uint16_t), d_chunk, 0 };
        const size_t rows = d_chunk * (s.N + 1) * size_t(d_a.Mt) * sizeof(R);
        if (d_local)
            l.scratch = { d_row_in_shared ? 0 : d_chunk * row_floats() * sizeof(float), rows, 0 };
        else
            l.scratch = { d_chunk * s.N * row_floats() * sizeof(float), rows, rows };
        d_pipe = std::make_unique<batch_pipeline>(2, l);
    }

    std::string name() const override
    {
        std::string where = d_local ? std::string("one symbol's gamma at a time (local storage, in ") +
                                          (d_row_in_shared ? "shared" : "device") + " memory)"
                                    : "gamma in global memory";
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") MAP over the drift in " + to_string(d_s.precision) +
               " precision, " + where + ", " + std::to_string(d_chunk) + " frames a chunk";
    }

    bool on_gpu() const override { return true; }

    void run(const engine_batch& in, const engine_output& out) override
    {
        const size_t N = d_s.N, frames = in.frames;
        d_sym.resize(frames * N);
        d_erased.resize(frames);
        decode(in.soft, in.lengths, frames, d_sym.data(), out.soft_out, d_erased.data()); // (lengths: always given)
        const int sb = tvb_symbol_bits(d_a.q);
        const size_t bytes = (N * size_t(sb) + 7) / 8;
        for (size_t f = 0; f < frames; ++f) {
            pack_tvb_symbols(d_sym.data() + f * N, N, sb, out.packed + f * bytes);
            out.status[f] = frame_status{ 1, -1, int8_t(d_erased[f] != 0) };
        }
    }

private:
    void decode(const int8_t* soft, const size_t* lengths, size_t frames, uint16_t* symbols, float* app,
                uint8_t* erased)
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
                tvb_args<R> a = d_a;
                a.soft = v.input<const int8_t>(0);
                a.offset = v.input<const uint32_t>(1);
                a.books = d_books.get();
                a.gamma = v.scratch_as<float>(0);
                a.alpha = v.scratch_as<R>(1);
                a.beta = v.scratch_as<R>(2);
                a.symbols = v.output<uint16_t>(0);
                a.erased = v.output<uint8_t>(1);
                a.app = app ? v.output<float>(2) : nullptr;
                a.frames = int(std::min(d_chunk, frames - size_t(c) * d_chunk));
                if (d_local)
                    launch_local(a, v.stream);
                else
                    launch_global(a, v.stream);
            });
    }

    size_t row_floats() const { return size_t(d_a.Mt) * size_t(d_a.q) * size_t(d_a.Mn); }
    //! the local kernel's shared memory: state vectors, symbol values, sums (and the row)
    size_t local_shared(bool with_row) const
    {
        return (2 * size_t(d_a.Mt) + size_t(d_a.q) + 2) * sizeof(R) + (with_row ? row_floats() * sizeof(float) : 0);
    }

    /*! global storage when a quarter of the free memory holds gamma for enough frames to fill
     *  the GPU (alpha and beta of those frames then run on every multiprocessor), else local;
     *  then the chunk, and the block sizes from the kernels' register limits */
    void choose_storage(const cudaDeviceProp& prop, size_t max_batch)
    {
        size_t free_b = 0, total_b = 0;
        GPUFEC_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const size_t budget = free_b / 4, want = max_batch ? max_batch : size_t(1024);
        const size_t rows = 2 * (d_s.N + 1) * size_t(d_a.Mt) * sizeof(R);
        const size_t global_frame = d_s.N * row_floats() * sizeof(float) + rows;
        const size_t global_fit = std::max<size_t>(1, budget / global_frame);
        // two blocks (alpha, beta) a frame, four a multiprocessor: on the H100, q = 32 N = 210 at
        // p = 0.01 (340 frames fit) is faster global, N = 840 (43 .. 189 fit) local
        const size_t fill = 2 * size_t(prop.multiProcessorCount);
        d_local = d_s.storage == tvb_storage::local ||
                  (d_s.storage == tvb_storage::automatic && global_fit < std::min(want, fill));
        int optin = 0;
        GPUFEC_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d_dev));
        if (!d_local) {
            if (2 * size_t(d_a.Mt + 1) * sizeof(R) > size_t(optin))
                throw std::invalid_argument("tvb GPU decoder: " + std::to_string(d_a.Mt) +
                                            " drift states do not fit a block's shared memory (the CPU has no limit)");
            d_chunk = std::min(global_fit, want);
            d_gamma_threads = std::min(128, max_threads(d_k.gamma));
            d_ab_threads = std::min(64, max_threads(alpha_beta_kernel<R>));
            allow_dynamic_shared(alpha_beta_kernel<R>, 2 * size_t(d_a.Mt + 1) * sizeof(R), "tvb alpha_beta_kernel");
            return;
        }
        // the row in shared memory when two blocks still fit a multiprocessor
        d_row_in_shared = local_shared(true) <= size_t(optin) / 2;
        if (local_shared(d_row_in_shared) > size_t(optin))
            throw std::invalid_argument("tvb GPU decoder: " + std::to_string(d_a.Mt) + " drift states and q = " +
                                        std::to_string(d_a.q) +
                                        " do not fit a block's shared memory (the CPU has no limit)");
        allow_dynamic_shared(d_k.local, local_shared(d_row_in_shared), "tvb local_kernel");
        const size_t local_frame = rows / 2 + (d_row_in_shared ? 0 : row_floats() * sizeof(float));
        d_chunk = std::min(std::max<size_t>(1, budget / local_frame), want);
        // a thread per (state, symbol value) pair of a row, as far as the registers allow
        const int pairs = (d_a.Mt * d_a.q + 31) / 32 * 32;
        d_local_threads = std::min({ pairs, 256, max_threads(d_k.local) });
    }

    void launch_global(const tvb_args<R>& a, cudaStream_t stream)
    {
        const size_t N = d_s.N, threads = size_t(a.frames) * N * size_t(a.Mt) * size_t(a.q);
        const int gt = d_gamma_threads;
        d_k.gamma<<<unsigned((threads + gt - 1) / gt), gt, 0, stream>>>(a);
        GPUFEC_CUDA_CHECK_LAUNCH("tvb gamma_kernel");
        alpha_beta_kernel<R><<<dim3(unsigned(a.frames), 2), d_ab_threads, 2 * size_t(a.Mt + 1) * sizeof(R), stream>>>(a);
        GPUFEC_CUDA_CHECK_LAUNCH("tvb alpha_beta_kernel");
        app_kernel<R><<<unsigned((size_t(a.frames) * N * 32 + 127) / 128), 128, 0, stream>>>(a);
        GPUFEC_CUDA_CHECK_LAUNCH("tvb app_kernel");
    }

    void launch_local(tvb_args<R> a, cudaStream_t stream)
    {
        if (d_row_in_shared)
            a.gamma = nullptr;
        d_k.local<<<unsigned(a.frames), d_local_threads, local_shared(d_row_in_shared), stream>>>(a);
        GPUFEC_CUDA_CHECK_LAUNCH("tvb local_kernel");
    }

    tvb_setup d_s;
    int d_dev;
    kernels<R> d_k;
    std::string d_gpu;
    tvb_args<R> d_a{};
    device_buffer<uint32_t> d_books;
    bool d_local = false, d_row_in_shared = false;
    int d_gamma_threads = 128, d_ab_threads = 64, d_local_threads = 128;
    size_t d_chunk = 0, d_max_len = 0;
    std::vector<size_t> d_start;
    std::vector<uint32_t> d_off;
    std::vector<uint16_t> d_sym; // a batch's symbols, before they become bits
    std::vector<uint8_t> d_erased;
    std::unique_ptr<batch_pipeline> d_pipe;
};

} // namespace

std::unique_ptr<frame_engine> make_tvb_cuda(const tvb_setup& s, int device, size_t max_batch)
{
    if (s.precision == tvb_precision::float32)
        return std::make_unique<tvb_cuda<float>>(s, device, max_batch);
    return std::make_unique<tvb_cuda<double>>(s, device, max_batch);
}

} // namespace gpufec
