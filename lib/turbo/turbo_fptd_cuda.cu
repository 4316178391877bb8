/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fully parallel turbo decoder (FPTD) on the GPU, for latency: every half-iteration of a
 * frame in one kernel launch, max-log in float, bit for bit the CPU FPTD's arithmetic
 * (turbo_fptd.cc with exact = false: the same operations in the same order, no fused
 * multiply-adds).
 *
 * Parallel mapping. A frame is one thread block cluster of C blocks (up to 16 on Hopper, so up
 * to 16 SMs work on one frame). Thread i of the cluster owns trellis stage i of both codes; in
 * half-iteration h it runs the algorithmic block of the upper code if i + h is even, of the
 * lower code otherwise (the QPP interleaver keeps even with even, so the blocks of one half never
 * read what another block of the same half writes). A cluster barrier separates the halves.
 *
 * Memory. Block b of the cluster holds stages [b L, b L + L) in shared memory: per code the
 * alpha into each stage, the beta into each stage (beta of the next one) and the extrinsic of
 * each stage. A thread writes its outputs where its neighbours will read them, in its own block
 * or (at the block's edges) in the next or previous block, and reads the other code's extrinsic
 * at the interleaved position from whichever block holds it (distributed shared memory). The
 * channel values of a stage stay in its thread's registers for the whole frame. A frame of one
 * block (small K) runs the same kernel without the cluster: plain shared memory and block
 * barriers, which are much cheaper. */
#include <gnuradio/gpufec/core/bits.h>

#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "turbo_chunks.h"
#include "turbo_engine.h"
#include "turbo_rsc.h"

#include <cooperative_groups.h>
#include <algorithm>
#include <vector>

namespace gpufec {

namespace {

namespace cg = cooperative_groups;

constexpr int S = 8;
constexpr int MAX_CLUSTER = 16;

struct fptd_args {
    const int8_t* in; // frames x (3K + 12), d0 | d1 | d2 streams
    int n, K, L, iterations;
    float sf;                             // extrinsic scaling
    const uint32_t* pi;                   // K
    const uint32_t* inv;                  // K
    uint8_t* bits;                        // frames x K / 8, packed MSB first
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // clusters; the host refuses older GPUs
constexpr float NEG = -1e30f; // log(0), as the CPU FPTD
__device__ __forceinline__ float fmax_cpu(float a, float b) { return a < b ? b : a; } // std::max's choice
__device__ __forceinline__ float soft_f(int8_t v) { return float(v < -127 ? -127 : v); }
#define GPUFEC_FPTD_BODY 1
#endif

template <bool CLUSTER>
__global__ void fptd_kernel(fptd_args a)
{
#ifdef GPUFEC_FPTD_BODY
    cg::cluster_group cluster = cg::this_cluster();
    const int C = CLUSTER ? int(cluster.num_blocks()) : 1, rank = CLUSTER ? int(cluster.block_rank()) : 0;
    // block r's copy of a shared array (distributed shared memory only for another block's)
    auto at_rank = [&](float* p, int r) { return CLUSTER && r != rank ? cluster.map_shared_rank(p, r) : p; };
    auto barrier = [&] {
        if (CLUSTER)
            cluster.sync();
        else
            __syncthreads();
    };
    const int frame = int(blockIdx.x) / C, K = a.K, L = a.L, D = K + 4;
    const int li = int(threadIdx.x), i = rank * L + li;
    const bool live = li < L && i < K;
    extern __shared__ float smem[];
    float* s_alpha = smem;             // [code][L][S]: alpha into stage rank L + li
    float* s_beta = s_alpha + 2 * L * S; // [code][L][S]: beta into stage rank L + li (of stage + 1)
    float* s_ext = s_beta + 2 * L * S;   // [code][L]
    uint8_t* s_bit = reinterpret_cast<uint8_t*>(s_ext + 2 * L);
    const int8_t* in = a.in + size_t(frame) * size_t(a.n);

    float sys = 0, sys2 = 0, par[2] = { 0, 0 };
    uint32_t pi_i = 0, inv_i = 0;
    if (live) {
        pi_i = a.pi[i];
        inv_i = a.inv[i];
        sys = soft_f(in[i]);
        sys2 = soft_f(in[pi_i]);
        par[0] = soft_f(in[D + i]);
        par[1] = soft_f(in[2 * D + i]);
        for (int r = 0; r < 2; ++r) {
            for (int s = 0; s < S; ++s) {
                s_alpha[(r * L + li) * S + s] = i == 0 && s != 0 ? NEG : 0.f; // the trellis starts in 0
                s_beta[(r * L + li) * S + s] = 0.f;
            }
            s_ext[r * L + li] = 0.f;
        }
        if (i == K - 1) // beta into the last stage: from the termination stages, once
            for (int r = 0; r < 2; ++r) {
                const int8_t* d0 = in + K + 2 * r;
                const float t[6] = { soft_f(d0[0]), soft_f(d0[D]), soft_f(d0[2 * D]),
                                     soft_f(d0[1]), soft_f(d0[D + 1]), soft_f(d0[2 * D + 1]) };
                float b[S];
                for (int s = 0; s < S; ++s)
                    b[s] = s == 0 ? 0.f : NEG;
                for (int j = 2; j >= 0; --j) {
                    float bn[S];
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        const int x = lte_fb(s), p = lte_par(s, x);
                        bn[s] = __fadd_rn(__fadd_rn(b[lte_next(s, x)], __fmul_rn(float(x), t[2 * j])),
                                          __fmul_rn(float(p), t[2 * j + 1]));
                    }
                    for (int s = 0; s < S; ++s)
                        b[s] = bn[s];
                }
                for (int s = 0; s < S; ++s)
                    s_beta[(r * L + li) * S + s] = b[s];
            }
    }
    barrier();

    for (int it = 0; it < a.iterations; ++it)
        for (int h = 0; h < 2; ++h) {
            if (live) {
                const int r = (i + h) & 1; // 0: the upper code, 1: the lower
                const uint32_t j = r == 0 ? inv_i : pi_i; // where the other code keeps this bit
                const float* ext_other = at_rank(s_ext + (1 - r) * L, int(j) / L);
                const float apri = __fmul_rn(a.sf, ext_other[int(j) % L]);
                const float su = __fadd_rn(apri, r == 0 ? sys : sys2), pr = par[r];
                const float* al = s_alpha + (r * L + li) * S;
                const float* bnext = s_beta + (r * L + li) * S;
                float an[S], bn[S], m0 = NEG, m1 = NEG, alv[S], bv[S];
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    alv[s] = al[s];
                    bv[s] = bnext[s];
                    an[s] = NEG;
                }
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    float bs = NEG;
#pragma unroll
                    for (int x = 0; x < 2; ++x) {
                        const int nx = lte_next(s, x), p = lte_par(s, x);
                        const float g = __fadd_rn(__fmul_rn(float(x), su), __fmul_rn(float(p), pr));
                        an[nx] = fmax_cpu(an[nx], __fadd_rn(alv[s], g));
                        bs = fmax_cpu(bs, __fadd_rn(bv[nx], g));
                        const float e = __fadd_rn(__fadd_rn(__fmul_rn(float(p), pr), alv[s]), bv[nx]);
                        if (x)
                            m1 = fmax_cpu(m1, e);
                        else
                            m0 = fmax_cpu(m0, e);
                    }
                    bn[s] = bs;
                }
                s_ext[r * L + li] = __fsub_rn(m1, m0);
                if (i + 1 < K) { // alpha into stage i + 1
                    float* dst = at_rank(s_alpha, (i + 1) / L) + (r * L + (i + 1) % L) * S;
#pragma unroll
                    for (int s = 0; s < S; ++s)
                        dst[s] = __fsub_rn(an[s], an[0]);
                }
                if (i > 0) { // beta into stage i - 1
                    float* dst = at_rank(s_beta, (i - 1) / L) + (r * L + (i - 1) % L) * S;
#pragma unroll
                    for (int s = 0; s < S; ++s)
                        dst[s] = __fsub_rn(bn[s], bn[0]);
                }
            }
            barrier();
        }

    // decisions: the a-posteriori value sf ext_lower + sys + ext_upper, as the CPU sums it
    if (live) {
        const float* e1 = at_rank(s_ext + L, int(inv_i) / L);
        const float app = __fadd_rn(__fadd_rn(__fmul_rn(a.sf, e1[int(inv_i) % L]), sys), s_ext[li]);
        s_bit[li] = app > 0.f;
    }
    __syncthreads();
    if (live && li % 8 == 0) { // L and rank L are multiples of 8: a byte never spans two blocks
        uint8_t byte = 0;
        for (int b = 0; b < 8; ++b)
            byte = uint8_t(byte << 1 | s_bit[li + b]);
        a.bits[size_t(frame) * size_t(K / 8) + size_t(i / 8)] = byte;
    }
    if (CLUSTER)
        cluster.sync(); // the other blocks may still read this block's extrinsic values
#else
    (void)a;
#endif
}

class fptd_cuda : public turbo_engine
{
public:
    fptd_cuda(const turbo_code& code, const turbo_options& o, int device, size_t max_batch)
        : d_code(code), d_opts(o), d_dev(device)
    {
        if (code.standard != turbo_standard::lte || !lte_trellis_matches(code.rsc) || code.K % 8)
            throw std::invalid_argument("algorithm: the GPU FPTD runs the LTE code");
        if (o.early_termination)
            throw std::invalid_argument("early_termination: the GPU FPTD runs every iteration "
                                        "(early_termination=false, or device=cpu)");
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            d_has_crc = true;
        }
        device_guard g(d_dev);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_dev));
        d_gpu = prop.name;
        if (prop.major < 9)
            throw std::invalid_argument("device: the GPU FPTD needs thread block clusters (compute capability 9.0)");
        const int K = code.K;
        GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(fptd_kernel<true>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        // as many blocks per frame as keep ~128 or more stages each, up to a cluster of 16
        for (d_C = std::min(MAX_CLUSTER, (K + 127) / 128); d_C >= 1; --d_C) {
            d_L = 8 * ((K + 8 * d_C - 1) / (8 * d_C));
            d_threads = (d_L + 31) / 32 * 32;
            d_shared = size_t(d_L) * (2 * 2 * S * 4 + 2 * 4 + 1);
            for (auto* f : { fptd_kernel<true>, fptd_kernel<false> })
                allow_dynamic_shared(f, d_shared, "turbo GPU FPTD");
            if (d_C == 1) { // no cluster
                d_active = prop.multiProcessorCount;
                break;
            }
            cudaLaunchConfig_t cfg = config(1, nullptr);
            int clusters = 0;
            if (cudaOccupancyMaxActiveClusters(&clusters, fptd_kernel<true>, &cfg) == cudaSuccess && clusters > 0) {
                d_active = clusters;
                break;
            }
            (void)cudaGetLastError(); // an unsupported size: try a smaller one
        }
        if (d_C < 1)
            throw std::runtime_error("turbo: no thread block cluster fits the GPU FPTD on " + d_gpu);
        d_chunk = max_batch ? max_batch : size_t(std::max(1, d_active)) * 4;
        upload_permutations(d_perm, code);
        pipeline_layout l;
        l.in = { d_chunk * code.coded_bits() };
        l.out = { d_chunk * size_t(K / 8) };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
    }
    std::string name() const override
    {
        return "cuda:" + std::to_string(d_dev) + " (" + d_gpu + ") FPTD max-log float, " + std::to_string(d_C) +
               " blocks x " + std::to_string(d_L) + " stages per frame";
    }
    bool on_gpu() const override { return true; }

    void decode(const int8_t* in, size_t frames, uint8_t* bits, turbo_report* report) override
    {
        const size_t bytes = size_t(d_code.K / 8);
        const turbo_chunks ch{ in, bits, nullptr, frames, d_chunk, d_code.coded_bits(), bytes };
        ch.run(d_dev, *d_pipe, [&](const slot_view& v, size_t m) {
            enqueue(v.stream, v.input<const int8_t>(0), m, v.output<uint8_t>(0));
        });
        for (size_t f = 0; f < frames; ++f) {
            report[f].iterations = uint8_t(d_opts.max_iterations);
            report[f].check = d_has_crc ? int8_t(packed_crc_passes(d_crc, bits + f * bytes, size_t(d_code.K))) : -1;
        }
    }

    double time_kernels(const int8_t* in, size_t frames, int reps) override
    {
        device_guard g(d_dev);
        const size_t m = std::min(d_chunk, frames), n = d_code.coded_bits();
        device_buffer<int8_t> d_in(m * n);
        device_buffer<uint8_t> out(m * size_t(d_code.K / 8));
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in, m * n, cudaMemcpyHostToDevice, st.get()));
        const double t = time_on_stream(st.get(), reps, [&] { enqueue(st.get(), d_in.get(), m, out.get()); });
        return t * double(frames) / double(m);
    }

private:
    cudaLaunchConfig_t config(size_t frames, cudaStream_t s)
    {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(unsigned(frames) * unsigned(d_C));
        cfg.blockDim = dim3(unsigned(d_threads));
        cfg.dynamicSmemBytes = d_shared;
        cfg.stream = s;
        d_attr.id = cudaLaunchAttributeClusterDimension;
        d_attr.val.clusterDim.x = unsigned(d_C);
        d_attr.val.clusterDim.y = 1;
        d_attr.val.clusterDim.z = 1;
        cfg.attrs = &d_attr;
        cfg.numAttrs = 1;
        return cfg;
    }

    void enqueue(cudaStream_t s, const int8_t* in, size_t m, uint8_t* bits)
    {
        fptd_args a;
        a.in = in;
        a.n = int(d_code.coded_bits());
        a.K = d_code.K;
        a.L = d_L;
        a.iterations = d_opts.max_iterations;
        a.sf = d_opts.scaling;
        a.pi = d_perm.get();
        a.inv = d_perm.get() + d_code.K;
        a.bits = bits;
        if (d_C == 1) {
            fptd_kernel<false><<<unsigned(m), unsigned(d_threads), d_shared, s>>>(a);
            GPUFEC_CUDA_CHECK_LAUNCH("fptd_kernel");
            return;
        }
        cudaLaunchConfig_t cfg = config(m, s);
        GPUFEC_CUDA_CHECK(cudaLaunchKernelEx(&cfg, fptd_kernel<true>, a));
    }

    turbo_code d_code;
    turbo_options d_opts;
    int d_dev, d_C = 1, d_L = 8, d_threads = 32, d_active = 0;
    size_t d_shared = 0, d_chunk = 0;
    std::string d_gpu;
    crc_spec d_crc;
    bool d_has_crc = false;
    cudaLaunchAttribute d_attr{};
    device_buffer<uint32_t> d_perm; // pi, then its inverse
    std::unique_ptr<batch_pipeline> d_pipe;
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_fptd_cuda(const turbo_code& code, const turbo_options& o, int device,
                                                   size_t max_batch)
{
    return std::make_unique<fptd_cuda>(code, o, device, max_batch);
}

} // namespace gpufec
