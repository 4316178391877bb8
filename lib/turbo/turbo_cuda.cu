/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder on the GPU, bit-exact with turbo_fixed_cpu.cc.
 *
 * Parallel mapping: a thread block per frame, a thread per window, its 8 state metrics in
 * registers; one launch is one half-iteration for every frame of the batch. Memory: the
 * frame's systematic, parity and a-priori values, the interleaver and the extrinsic output in
 * shared memory (8K bytes), everything in natural order, decoder 2 reading and writing through
 * pi there (so neither decoder scatters to global memory and the inverse is not needed); the window's alphas (W + 1 stages x 8 int16, one
 * 16-byte word per stage) in global memory laid out [frame][stage][window]; the window
 * boundaries of the previous iteration (int16) in global memory. */
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "turbo_engine.h"
#include "turbo_fixed.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

namespace gpufec {

namespace {

using namespace turbo_fx;

// The LTE constituent code (feedback 13, feed-forward 15 octal; state bit 0 = the newest
// register value) as compile-time functions, so that state indices below are constants and the
// 8 metrics of a window stay in registers. The engine checks them against the codes layer.
__host__ __device__ constexpr int lte_fb(int s) { return ((s >> 1) ^ (s >> 2)) & 1; }
__host__ __device__ constexpr int lte_next(int s, int x) { return ((s << 1) | (x ^ lte_fb(s))) & 7; }
__host__ __device__ constexpr int lte_par(int s, int x)
{
    return (((s << 1) | (x ^ lte_fb(s))) ^ (s) ^ (s >> 2)) & 1; // a_t + a_t-1 + a_t-3
}
__host__ __device__ constexpr int lte_prev(int n, int h) { return (n >> 1) | (h << 2); }
__host__ __device__ constexpr int lte_prev_x(int n, int h) { return (n & 1) ^ lte_fb(lte_prev(n, h)); }

struct half_args {
    const int8_t* in;          // frames x n: d0 | d1 | d2
    int n;                     // 3K + 12
    int K, W, nwin, frames;
    int decoder;               // 0: natural order, 1: interleaved
    const uint32_t* pi;        // K
    const int16_t* apri;       // frames x K, natural order (decoder 1: its a-priori; 2: decoder 1's extrinsic)
    int16_t* dst;              // frames x K, natural order
    int16_t* bounds;           // frames x 2 decoders x [a_in | b_in | a_out | b_out] x nwin x 8
    int4* alpha;               // frames x (W + 1) x nwin: 8 int16 alphas per window and stage
    int first;
    uint8_t* bits;             // frames x K, or null
    int scale16;
};

__device__ __forceinline__ int4 pack8(const int (&v)[STATES])
{
    int4 r;
    r.x = (v[0] & 0xFFFF) | (v[1] << 16);
    r.y = (v[2] & 0xFFFF) | (v[3] << 16);
    r.z = (v[4] & 0xFFFF) | (v[5] << 16);
    r.w = (v[6] & 0xFFFF) | (v[7] << 16);
    return r;
}
__device__ __forceinline__ void unpack8(int4 r, int (&v)[STATES])
{
    v[0] = int16_t(r.x & 0xFFFF), v[1] = r.x >> 16, v[2] = int16_t(r.y & 0xFFFF), v[3] = r.y >> 16;
    v[4] = int16_t(r.z & 0xFFFF), v[5] = r.z >> 16, v[6] = int16_t(r.w & 0xFFFF), v[7] = r.w >> 16;
}

/* A thread block per frame; a thread per window, its 8 state metrics in registers. The frame's
 * systematic and parity values and its a-priori values are loaded into shared memory with
 * coalesced loads, so the interleaver's gather (decoder 2) and the scatter of the extrinsic
 * into the other decoder's order happen in shared memory; the result goes back to global memory
 * with coalesced stores. The window's alphas go to global memory laid out
 * [frame][stage][window]: a warp's accesses of one stage are contiguous. */
__global__ void __launch_bounds__(256) turbo_half_kernel(half_args a)
{
    extern __shared__ int16_t smem[];
    const int f = blockIdx.x;
    const int K = a.K, W = a.W, D = K + 4;
    // all in natural order: decoder 2 reads and writes through pi here, in shared memory
    int16_t* s_apri = smem;                                      // K a-priori values
    int16_t* s_dst = smem + K;                                   // K extrinsic values out
    uint16_t* s_pi = reinterpret_cast<uint16_t*>(smem + 2 * K);  // K
    int8_t* s_sys = reinterpret_cast<int8_t*>(smem + 3 * K);     // K
    int8_t* s_par = s_sys + K;                                   // K
    const int8_t* in = a.in + size_t(f) * a.n;
    const int8_t* par = in + (a.decoder == 0 ? D : 2 * D);
    const int16_t* apri_g = a.apri + size_t(f) * K;
    for (int k = threadIdx.x; k < K; k += blockDim.x) {
        s_sys[k] = in[k];
        s_par[k] = par[k];
        s_apri[k] = apri_g[k];
        s_pi[k] = uint16_t(a.pi[k]);
    }
    __syncthreads();

    const size_t nb = size_t(a.nwin) * STATES;
    int16_t* bound = a.bounds + size_t(f) * 8 * nb + size_t(a.decoder) * 4 * nb;
    const int16_t* a_in = bound;
    const int16_t* b_in = bound + nb;
    int16_t* a_out = bound + 2 * nb;
    int16_t* b_out = bound + 3 * nb;
    // decoder 1 works in natural order; decoder 2 at stage k on the interleaved position pi(k)
    auto at = [&](int k) { return a.decoder == 0 ? k : int(s_pi[k]); };
    auto sa_at = [&](int k) { const int j = at(k); return soft_in(s_sys[j]) + s_apri[j]; };

    for (int w = threadIdx.x; w < a.nwin; w += blockDim.x) {
        int4* alpha = a.alpha + size_t(f) * (W + 1) * a.nwin + w;
        const int an_stride = a.nwin;
        const int k0 = w * W, k1 = min(K, k0 + W), len = k1 - k0;
        const bool last = w == a.nwin - 1;

        // forward, after ga training stages from the alpha the previous window stored there
        const int guard = min(TRAIN, W);
        const int ga = w == 0 ? 0 : guard;
        const int store_at = len - guard;
        int am[STATES];
#pragma unroll
        for (int s = 0; s < STATES; ++s)
            am[s] = w == 0 ? (s == 0 ? 0 : -UNKNOWN) : a.first ? 0 : a_in[w * STATES + s];
        for (int i = -ga; i < len; ++i) {
            if (i == 0)
                alpha[0] = pack8(am);
            if (!last && i == store_at)
#pragma unroll
                for (int s = 0; s < STATES; ++s)
                    a_out[(w + 1) * STATES + s] = int16_t(am[s]);
            const int k = k0 + i;
            const int sa = sa_at(k), pk = soft_in(s_par[k]);
            int an[STATES];
#pragma unroll
            for (int n = 0; n < STATES; ++n)
                an[n] = max(am[lte_prev(n, 0)] + lte_prev_x(n, 0) * sa + lte_par(lte_prev(n, 0), lte_prev_x(n, 0)) * pk,
                            am[lte_prev(n, 1)] + lte_prev_x(n, 1) * sa + lte_par(lte_prev(n, 1), lte_prev_x(n, 1)) * pk);
#pragma unroll
            for (int n = 0; n < STATES; ++n)
                am[n] = clamp_metric(an[n] - an[0]);
            if (i >= 0)
                alpha[size_t(i + 1) * an_stride] = pack8(am);
        }
        if (!last && store_at == len)
#pragma unroll
            for (int s = 0; s < STATES; ++s)
                a_out[(w + 1) * STATES + s] = int16_t(am[s]);

        // backward: the last window from the known end through the tail; the others after gb
        // training stages from the beta the next window stored there
        int b[STATES];
#pragma unroll
        for (int s = 0; s < STATES; ++s)
            b[s] = last ? (s == 0 ? 0 : -UNKNOWN) : a.first ? 0 : b_in[w * STATES + s];
        if (last) {
            const int8_t* tail = in + K; // the 12 tail values: element e is d_(e % 3)[K + e / 3]
            for (int j = 2; j >= 0; --j) {
                const int xe = 6 * a.decoder + 2 * j, ze = xe + 1;
                const int xv = soft_in(tail[(xe % 3) * D + xe / 3]), zv = soft_in(tail[(ze % 3) * D + ze / 3]);
                int bn[STATES];
#pragma unroll
                for (int s = 0; s < STATES; ++s)
                    bn[s] = b[lte_next(s, lte_fb(s))] + lte_fb(s) * xv + lte_par(s, lte_fb(s)) * zv;
#pragma unroll
                for (int s = 0; s < STATES; ++s)
                    b[s] = bn[s];
            }
        }
        const int len_next = last ? 0 : min(K, k1 + W) - k1;
        const int gb = last ? 0 : min(TRAIN, len_next);
        const int gs = min(TRAIN, len); // this window stores beta at stage k0 + gs
        if (w > 0 && gs == len)
#pragma unroll
            for (int s = 0; s < STATES; ++s)
                b_out[(w - 1) * STATES + s] = int16_t(b[s]);
        for (int i = len - 1 + gb; i >= 0; --i) {
            const int k = k0 + i;
            const int sa = sa_at(k), pk = soft_in(s_par[k]);
            if (i < len) {
                int al[STATES];
                unpack8(alpha[size_t(i) * an_stride], al);
                int m0 = INT_MIN / 2, m1 = INT_MIN / 2;
#pragma unroll
                for (int s = 0; s < STATES; ++s) {
                    m0 = max(m0, al[s] + lte_par(s, 0) * pk + b[lte_next(s, 0)]);
                    m1 = max(m1, al[s] + lte_par(s, 1) * pk + b[lte_next(s, 1)]);
                }
                const int ext = m1 - m0;
                const int j = at(k);
                s_dst[j] = scale_ext(ext, a.scale16);
                if (a.bits)
                    a.bits[size_t(f) * K + j] = uint8_t(sa + ext > 0);
            }
            int bn[STATES];
#pragma unroll
            for (int s = 0; s < STATES; ++s)
                bn[s] = max(b[lte_next(s, 0)] + lte_par(s, 0) * pk, b[lte_next(s, 1)] + sa + lte_par(s, 1) * pk);
#pragma unroll
            for (int s = 0; s < STATES; ++s)
                b[s] = clamp_metric(bn[s] - bn[0]);
            if (w > 0 && i == gs)
#pragma unroll
                for (int s = 0; s < STATES; ++s)
                    b_out[(w - 1) * STATES + s] = int16_t(b[s]);
        }
    }
    __syncthreads();
    int16_t* dst_g = a.dst + size_t(f) * K;
    for (int k = threadIdx.x; k < K; k += blockDim.x)
        dst_g[k] = s_dst[k];
}

class turbo_cuda : public turbo_engine
{
public:
    turbo_cuda(const turbo_code& code, const turbo_options& o, int window, int device, size_t max_batch)
        : d_code(code), d_opts(o), d_W(window), d_dev(device)
    {
        if (window < 2 || window > MAX_WINDOW)
            throw std::invalid_argument("window: the GPU decoder takes 2.." + std::to_string(MAX_WINDOW) + " stages");
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        d_nwin = (code.K + window - 1) / window;
        d_batch = max_batch ? max_batch : 4096; // frames per launch (measured best on the H100)
        const size_t K = size_t(code.K), n = code.coded_bits(), nb = size_t(d_nwin) * STATES;
        d_in.resize(d_batch * n);
        d_apri.resize(2 * d_batch * K);
        d_bounds.resize(d_batch * 8 * nb);
        d_bits.resize(d_batch * K);
        d_pi.resize(K);
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_pi.get(), code.pi.permutation().data(), K * 4, cudaMemcpyHostToDevice));
        const rsc_tables T = make_tables(code.rsc);
        for (int st = 0; st < STATES; ++st)
            for (int x = 0; x < 2; ++x)
                if (T.next[st * 2 + x] != lte_next(st, x) || T.par[st * 2 + x] != lte_par(st, x) ||
                    T.term[st] != lte_fb(st))
                    throw std::invalid_argument("turbo: the GPU decoder is built for the LTE constituent code");
        d_alpha.resize(d_batch * size_t(window + 1) * size_t(d_nwin));
        d_args.n = int(n);
        d_args.K = code.K;
        d_args.W = window;
        d_args.nwin = d_nwin;
        d_args.pi = d_pi.get();
        d_args.scale16 = int(std::lround(o.scaling * 16));
    }
    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") fixed-point max-log, window " + std::to_string(d_W);
    }
    bool on_gpu() const override { return true; }

    void decode(const int8_t* in, size_t frames, uint8_t* bits) override
    {
        device_guard g(d_dev);
        const size_t n = d_code.coded_bits(), K = size_t(d_code.K);
        for (size_t done = 0; done < frames; done += d_batch) {
            const size_t m = std::min(d_batch, frames - done);
            GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in + done * n, m * n, cudaMemcpyHostToDevice, d_s.get()));
            enqueue(m);
            GPUFEC_CUDA_CHECK(cudaMemcpyAsync(bits + done * K, d_bits.get(), m * K, cudaMemcpyDeviceToHost, d_s.get()));
            d_s.sync();
        }
    }

    double time_kernels(const int8_t* in, size_t frames, int reps) override
    {
        device_guard g(d_dev);
        const size_t m = std::min(d_batch, frames), n = d_code.coded_bits();
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_in.get(), in, m * n, cudaMemcpyHostToDevice));
        const double t = time_on_stream(d_s.get(), reps, [&] { enqueue(m); });
        return t * double(frames) / double(m);
    }

private:
    void enqueue(size_t m)
    {
        const size_t K = size_t(d_code.K);
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(d_apri.get(), 0, m * K * sizeof(int16_t), d_s.get()));
        half_args a = d_args;
        a.in = d_in.get();
        a.bounds = d_bounds.get();
        a.alpha = d_alpha.get();
        a.frames = int(m);
        const unsigned grid = unsigned(m); // a block per frame
        const unsigned threads = unsigned(std::min(256, (d_nwin + 31) / 32 * 32));
        // a-priori, extrinsic and pi (16 bits each), sys and parity (8 bits): 48 KiB at K = 6144
        const size_t shared = size_t(d_code.K) * 8;
        int16_t* apri1 = d_apri.get();
        int16_t* apri2 = d_apri.get() + d_batch * K;
        const size_t nb = size_t(d_nwin) * STATES;
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            a.first = it == 1;
            for (int dec = 0; dec < 2; ++dec) {
                a.decoder = dec;
                a.apri = dec == 0 ? apri1 : apri2;
                a.dst = dec == 0 ? apri2 : apri1;
                a.bits = dec == 1 && it == d_opts.max_iterations ? d_bits.get() : nullptr;
                turbo_half_kernel<<<grid, threads, shared, d_s.get()>>>(a);
                GPUFEC_CUDA_CHECK_LAUNCH("turbo_half_kernel");
            }
            // the outputs of this iteration's boundaries become the inputs of the next: swap
            // by copying (small: frames x 2 x 2 x windows x 8 int16)
            for (int dec = 0; dec < 2; ++dec)
                GPUFEC_CUDA_CHECK(cudaMemcpy2DAsync(d_bounds.get() + dec * 4 * nb, 8 * nb * sizeof(int16_t),
                                                    d_bounds.get() + dec * 4 * nb + 2 * nb, 8 * nb * sizeof(int16_t),
                                                    2 * nb * sizeof(int16_t), m, cudaMemcpyDeviceToDevice, d_s.get()));
        }
    }

    turbo_code d_code;
    turbo_options d_opts;
    int d_W, d_dev, d_nwin = 0;
    std::string d_gpu;
    size_t d_batch = 1024;
    half_args d_args{};
    cuda_stream d_s;
    device_buffer<int8_t> d_in;
    device_buffer<int16_t> d_apri, d_bounds;
    device_buffer<uint8_t> d_bits;
    device_buffer<uint32_t> d_pi;
    device_buffer<int4> d_alpha;
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_cuda(const turbo_code& code, const turbo_options& o, int window, int device,
                                              size_t max_batch)
{
    return std::make_unique<turbo_cuda>(code, o, window, device, max_batch);
}

} // namespace gpufec
