/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo decoder on the GPU, bit-exact with turbo_fixed_cpu.cc.
 *
 * Parallel mapping: a thread block holds WPB windows of one frame (blockIdx.x = frame,
 * blockIdx.y = group of windows); 8 consecutive lanes own one window, a lane per trellis state.
 * Each stage a lane fetches its predecessors' (forward) or successors' (backward) metrics from
 * the other lanes of its group with shuffles; maxima over the 8 states are butterflies over
 * the group. One launch is one half-iteration for every frame of the batch.
 * Memory: a window's alphas (W + 1 stages x 8 states, int16) in shared memory; the input (int8,
 * d0 | d1 | d2), the a-priori values (int16) and the window boundaries of the previous
 * iteration (int16) in global memory; the scaled extrinsic is scattered through the
 * interleaver into the other decoder's a-priori array. */
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

constexpr int WPB = 8; // windows per thread block (64 threads)

struct half_args {
    const int8_t* in;        // frames x n: d0 | d1 | d2
    int n;                   // 3K + 12
    int K, W, nwin;
    int decoder;             // 0: natural order, 1: interleaved
    const uint32_t* pi;      // K
    const uint32_t* dst_index; // where the extrinsic of stage k goes (inv pi or pi)
    const int16_t* apri;     // frames x K
    int16_t* dst;            // frames x K
    int16_t* bounds;         // frames x 2 decoders x [a_in | b_in | a_out | b_out] x nwin x 8
    int first;
    uint8_t* bits;           // frames x K, or null
    int scale16;
    rsc_tables T;
    // predecessors of each state: (state, input) pairs
    uint8_t prev_s[STATES * 2], prev_x[STATES * 2];
};

__device__ __forceinline__ int group_max(int v, unsigned mask)
{
    v = max(v, __shfl_xor_sync(mask, v, 1, 8));
    v = max(v, __shfl_xor_sync(mask, v, 2, 8));
    v = max(v, __shfl_xor_sync(mask, v, 4, 8));
    return v;
}

__global__ void turbo_half_kernel(half_args a)
{
    extern __shared__ int16_t sh_alpha[]; // WPB x (W + 1) x 8
    const int f = blockIdx.x;
    const int lane = threadIdx.x & 31, s = threadIdx.x & 7, wl = threadIdx.x >> 3;
    const int w = blockIdx.y * WPB + wl;
    if (w >= a.nwin)
        return; // a whole group leaves: its shuffles involve only its own lanes
    const unsigned mask = 0xFFu << (lane & 24);
    const int K = a.K, D = K + 4;
    const int8_t* in = a.in + size_t(f) * a.n;
    const int8_t* sys_nat = in;
    const int8_t* par = in + (a.decoder == 0 ? D : 2 * D);
    const int16_t* apri = a.apri + size_t(f) * K;
    int16_t* dst = a.dst + size_t(f) * K;
    const size_t nb = size_t(a.nwin) * STATES;
    int16_t* bound = a.bounds + size_t(f) * 8 * nb + size_t(a.decoder) * 4 * nb;
    const int16_t* a_in = bound;
    const int16_t* b_in = bound + nb;
    int16_t* a_out = bound + 2 * nb;
    int16_t* b_out = bound + 3 * nb;
    int16_t* alpha = sh_alpha + size_t(wl) * (a.W + 1) * STATES;

    const int k0 = w * a.W, k1 = min(K, k0 + a.W), len = k1 - k0;
    const bool last = w == a.nwin - 1;
    auto sys_at = [&](int k) { return soft_in(a.decoder == 0 ? sys_nat[k] : sys_nat[a.pi[k]]); };

    // the window's inputs, training stages included, staged in shared memory by the 8 lanes
    const int len_next = last ? 0 : min(K, k1 + a.W) - k1;
    const int guard0 = min(TRAIN, a.W);
    const int lo = w == 0 ? k0 : k0 - guard0, hi = k1 + (last ? 0 : min(TRAIN, len_next));
    int16_t* st_sa = reinterpret_cast<int16_t*>(sh_alpha + size_t(WPB) * (a.W + 1) * STATES) +
                     size_t(wl) * (a.W + 2 * TRAIN);
    int8_t* st_pk = reinterpret_cast<int8_t*>(sh_alpha + size_t(WPB) * (a.W + 1) * STATES +
                                              size_t(WPB) * (a.W + 2 * TRAIN)) +
                    size_t(wl) * (a.W + 2 * TRAIN);
    for (int k = lo + s; k < hi; k += STATES) {
        st_sa[k - lo] = int16_t(sys_at(k) + apri[k]);
        st_pk[k - lo] = int8_t(soft_in(par[k]));
    }
    __syncwarp(mask);

    // forward, after ga training stages from the alpha the previous window stored there
    const int p0 = a.prev_s[s * 2], x0 = a.prev_x[s * 2], p1 = a.prev_s[s * 2 + 1], x1 = a.prev_x[s * 2 + 1];
    const int q0 = a.T.par[p0 * 2 + x0], q1 = a.T.par[p1 * 2 + x1];
    const int guard = min(TRAIN, a.W);
    const int ga = w == 0 ? 0 : guard;
    const int store_at = len - guard; // alpha at k1 - guard: the next window's training start
    int am = w == 0 ? (s == 0 ? 0 : -UNKNOWN) : a.first ? 0 : a_in[w * STATES + s];
    for (int i = -ga; i < len; ++i) {
        if (i == 0)
            alpha[s] = int16_t(am);
        if (!last && i == store_at)
            a_out[(w + 1) * STATES + s] = int16_t(am);
        const int sa = st_sa[k0 + i - lo], pk = st_pk[k0 + i - lo];
        const int v0 = __shfl_sync(mask, am, p0, 8) + x0 * sa + q0 * pk;
        const int v1 = __shfl_sync(mask, am, p1, 8) + x1 * sa + q1 * pk;
        const int an = max(v0, v1);
        am = clamp_metric(an - __shfl_sync(mask, an, 0, 8));
        if (i >= 0)
            alpha[(i + 1) * STATES + s] = int16_t(am);
    }
    if (!last && store_at == len)
        a_out[(w + 1) * STATES + s] = int16_t(am);
    __syncwarp(mask);

    // backward: the last window from the known end through the tail; the others after gb
    // training stages from the beta the next window stored there
    int b = last ? (s == 0 ? 0 : -UNKNOWN) : a.first ? 0 : b_in[w * STATES + s];
    if (last) {
        const int8_t* tail = in + K; // the 12 tail values: element e is d_(e % 3)[K + e / 3]
        const int tx = a.T.term[s], tn = a.T.next[s * 2 + tx], tp = a.T.par[s * 2 + tx];
        for (int j = 2; j >= 0; --j) {
            const int xe = 6 * a.decoder + 2 * j, ze = xe + 1;
            const int8_t xv = tail[(xe % 3) * D + xe / 3], zv = tail[(ze % 3) * D + ze / 3];
            b = __shfl_sync(mask, b, tn, 8) + tx * soft_in(xv) + tp * soft_in(zv);
        }
    }
    const int gb = last ? 0 : min(TRAIN, len_next);
    const int gs = min(TRAIN, len); // this window stores beta at stage k0 + gs
    if (w > 0 && gs == len)
        b_out[(w - 1) * STATES + s] = int16_t(b);
    const int n0 = a.T.next[s * 2], n1 = a.T.next[s * 2 + 1];
    const int r0 = a.T.par[s * 2], r1 = a.T.par[s * 2 + 1];
    for (int i = len - 1 + gb; i >= 0; --i) {
        const int k = k0 + i;
        const int sa = st_sa[k - lo], pk = st_pk[k - lo];
        const int b0 = __shfl_sync(mask, b, n0, 8), b1 = __shfl_sync(mask, b, n1, 8);
        if (i < len) { // the same for the 8 lanes of the group
            const int al = alpha[i * STATES + s];
            const int m0 = group_max(al + r0 * pk + b0, mask), m1 = group_max(al + r1 * pk + b1, mask);
            if (s == 0) {
                const int ext = m1 - m0;
                dst[a.dst_index[k]] = scale_ext(ext, a.scale16);
                if (a.bits)
                    a.bits[size_t(f) * K + a.pi[k]] = uint8_t(sa + ext > 0);
            }
        }
        const int bn = max(b0 + r0 * pk, b1 + sa + r1 * pk);
        b = clamp_metric(bn - __shfl_sync(mask, bn, 0, 8));
        if (w > 0 && i == gs)
            b_out[(w - 1) * STATES + s] = int16_t(b);
    }
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
        d_batch = max_batch ? max_batch : 1024;
        const size_t K = size_t(code.K), n = code.coded_bits(), nb = size_t(d_nwin) * STATES;
        d_in.resize(d_batch * n);
        d_apri.resize(2 * d_batch * K);
        d_bounds.resize(d_batch * 8 * nb);
        d_bits.resize(d_batch * K);
        d_pi.resize(K);
        d_inv.resize(K);
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_pi.get(), code.pi.permutation().data(), K * 4, cudaMemcpyHostToDevice));
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_inv.get(), code.pi.inverse().data(), K * 4, cudaMemcpyHostToDevice));
        d_args.T = make_tables(code.rsc);
        int count[STATES] = {};
        for (int s = 0; s < STATES; ++s)
            for (int x = 0; x < 2; ++x) {
                const int nx = d_args.T.next[s * 2 + x];
                d_args.prev_s[nx * 2 + count[nx]] = uint8_t(s);
                d_args.prev_x[nx * 2 + count[nx]] = uint8_t(x);
                ++count[nx];
            }
        d_args.n = int(n);
        d_args.K = code.K;
        d_args.W = window;
        d_args.nwin = d_nwin;
        d_args.pi = d_pi.get();
        d_args.scale16 = int(std::lround(o.scaling * 16));
        // alphas (int16), then the staged sys + a-priori (int16) and parities (int8) per window
        d_shared = size_t(WPB) * size_t(window + 1) * STATES * sizeof(int16_t) +
                   size_t(WPB) * size_t(window + 2 * TRAIN) * (sizeof(int16_t) + sizeof(int8_t));
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
        const dim3 grid(unsigned(m), unsigned((d_nwin + WPB - 1) / WPB));
        int16_t* apri1 = d_apri.get();
        int16_t* apri2 = d_apri.get() + d_batch * K;
        const size_t nb = size_t(d_nwin) * STATES;
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            a.first = it == 1;
            for (int dec = 0; dec < 2; ++dec) {
                a.decoder = dec;
                a.apri = dec == 0 ? apri1 : apri2;
                a.dst = dec == 0 ? apri2 : apri1;
                a.dst_index = dec == 0 ? d_inv.get() : d_pi.get();
                a.bits = dec == 1 && it == d_opts.max_iterations ? d_bits.get() : nullptr;
                turbo_half_kernel<<<grid, WPB * STATES, d_shared, d_s.get()>>>(a);
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
    size_t d_batch = 1024, d_shared = 0;
    half_args d_args{};
    cuda_stream d_s;
    device_buffer<int8_t> d_in;
    device_buffer<int16_t> d_apri, d_bounds;
    device_buffer<uint8_t> d_bits;
    device_buffer<uint32_t> d_pi, d_inv;
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_cuda(const turbo_code& code, const turbo_options& o, int window, int device,
                                              size_t max_batch)
{
    return std::make_unique<turbo_cuda>(code, o, window, device, max_batch);
}

} // namespace gpufec
