/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon decoder on the GPU: the CPU engine's results, codeword by codeword.
 *
 * Parallel mapping: a warp owns one codeword at a time (grid-stride over the batch's codewords,
 * frame by frame, codeword j of a codeblock after codeword j - 1). Its lanes take the symbols
 * s = lane, lane + 32, ...: each reads its symbol's 8 soft values as one 8-byte load, decides
 * the bits (MSB first) and whether a value is 0 (an erasure), and stores the symbol in the
 * conventional basis. Lane q then computes syndromes q, q + 32, ... by Horner over the word
 * (the word's bytes are read by all lanes at once: one broadcast a step). A codeword whose
 * syndromes are all zero is done; for the others lane 0 finds the error locator
 * (Berlekamp-Massey, rs_locator), then the warp runs the Chien search (lane q tries positions q,
 * q + 32, ...; the roots gathered in order by ballots) and Forney's formula (a lane an error),
 * with the arithmetic of rs_solver.h, so the results are the CPU solver's. The lanes write the
 * information bytes back in the code's basis.
 *
 * Memory: per block, the field's log and antilog tables, the dual-basis tables and the roots'
 * logarithms in shared memory (from the launch parameters); per warp its word, erasure flags,
 * syndromes and erasure list. Global: the input as it comes (frames x 8 block_bytes int8), the
 * information bytes (frames x info_bytes) and a result per codeword (the changed symbols or
 * -1), which the host folds into the frames' status. A batch goes through the shared batch
 * pipeline (runtime/batch_pipeline.h): chunks of about two waves on three streams, so the
 * copies of one chunk overlap the decoding of the others. */
#include "codes/gf2m_field.h"
#include "rs/rs_engine.h"
#include "rs/rs_reference.h"
#include "rs/rs_solver.h"
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpufec {

namespace {

constexpr int warps_a_block = 4;

struct rs_gpu_params {
    rs_solver_code sc;
    int n, k, I, R, dual;
    int64_t block_bytes, info_bytes;
};

struct rs_gpu_tables {
    uint8_t exp[512], log[256], from[256], to[256], root_log[128];
};

//! lanes below this one
__device__ __forceinline__ unsigned lanes_below(int lane) { return (1u << lane) - 1u; }

/*! The solver across a warp (every lane calls it; the codeword `word`, its syndromes S and
 *  erasure list in shared memory): rs_solve's result, the same value and the same changes.
 *  lambda, omega: 129 and 128 bytes of the warp's shared memory; loc: 128 ints (may be eras:
 *  the erasures are read before it is written). */
__device__ int rs_solve_warp(const rs_solver_code& p, const rs_field_ops& f, uint8_t* word, const uint8_t* S,
                             int* eras, int n_eras, uint8_t* lambda, uint8_t* omega, int lane)
{
    int st = 0, deg = 0;
    if (lane == 0)
        st = rs_locator(p, f, S, eras, n_eras, lambda, &deg);
    st = __shfl_sync(0xffffffffu, st, 0);
    deg = __shfl_sync(0xffffffffu, deg, 0);
    __syncwarp();
    if (st <= 0)
        return st;
    // Chien: the roots in increasing position, at most deg of them counted
    int* loc = eras;
    int count = 0;
    for (int base = 0; base < 255; base += 32) {
        const int i = base + lane;
        const bool root = i < 255 && rs_chien_at(p, f, lambda, deg, i) == 0;
        const unsigned m = __ballot_sync(0xffffffffu, root);
        const int at = count + __popc(m & lanes_below(lane));
        if (root && at < 128)
            loc[at] = i;
        count += __popc(m);
    }
    __syncwarp();
    if (count != deg || deg == 0)
        return -1;
    bool bad = false;
    for (int c = lane; c < count; c += 32)
        bad |= loc[c] < p.virtual_fill;
    if (__any_sync(0xffffffffu, bad))
        return -1;
    // omega, then a lane an error value
    int deg_omega = 0;
    for (int i = lane; i < p.nroots; i += 32) {
        omega[i] = rs_omega_at(f, S, lambda, deg, i);
        deg_omega = omega[i] ? i : deg_omega;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        deg_omega = max(deg_omega, __shfl_xor_sync(0xffffffffu, deg_omega, o));
    __syncwarp();
    uint8_t value[4] = {}; // errors lane, lane + 32, ... (count <= 128)
    for (int c = lane, u = 0; c < count; c += 32, ++u)
        bad |= !rs_error_value(p, f, lambda, deg, omega, deg_omega, loc[c], &value[u]);
    if (__any_sync(0xffffffffu, bad))
        return -1;
    int changed = 0;
    for (int c = lane, u = 0; c < count; c += 32, ++u) {
        word[loc[c]] ^= value[u];
        changed += value[u] != 0; // (an erasure whose value was right is not counted)
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        changed += __shfl_xor_sync(0xffffffffu, changed, o);
    __syncwarp();
    return changed;
}

__global__ void __launch_bounds__(32 * warps_a_block)
    rs_decode_kernel(const rs_gpu_params p, const rs_gpu_tables tab, const int8_t* __restrict__ soft, int64_t frames,
                     uint8_t* __restrict__ info, int* __restrict__ result)
{
    __shared__ uint8_t s_exp[512], s_log[256], s_from[256], s_to[256], s_root[128];
    __shared__ uint8_t s_word[warps_a_block][256], s_er[warps_a_block][256], s_syn[warps_a_block][128];
    __shared__ int s_eras[warps_a_block][128];
    __shared__ uint8_t s_lambda[warps_a_block][129], s_omega[warps_a_block][128];
    for (int i = threadIdx.x; i < 512; i += blockDim.x)
        s_exp[i] = tab.exp[i];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        s_log[i] = tab.log[i];
        s_from[i] = tab.from[i];
        s_to[i] = tab.to[i];
    }
    for (int i = threadIdx.x; i < 128; i += blockDim.x)
        s_root[i] = tab.root_log[i];
    __syncthreads();

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int V = p.sc.virtual_fill;
    uint8_t* word = s_word[warp];
    uint8_t* er = s_er[warp];
    const int64_t total = frames * p.I;
    for (int64_t c = int64_t(blockIdx.x) * warps_a_block + warp; c < total; c += int64_t(gridDim.x) * warps_a_block) {
        const int64_t f = c / p.I;
        const int j = int(c % p.I);
        const int8_t* x = soft + f * p.block_bytes * 8;
        int erasures = 0;
        for (int s = lane; s < p.n; s += 32) {
            const uint2 w = *reinterpret_cast<const uint2*>(x + (int64_t(s) * p.I + j) * 8);
            uint32_t v = 0, zero = 0;
#pragma unroll
            for (int t = 0; t < 8; ++t) {
                const int8_t b = int8_t(((t < 4 ? w.x : w.y) >> (8 * (t & 3))) & 0xff);
                v = (v << 1) | uint32_t(b > 0);
                zero |= uint32_t(b == 0);
            }
            word[V + s] = p.dual ? s_from[v] : uint8_t(v);
            er[s] = uint8_t(zero);
            erasures += int(zero);
        }
        for (int s = lane; s < V; s += 32)
            word[s] = 0;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            erasures += __shfl_xor_sync(0xffffffffu, erasures, o);
        __syncwarp();
        // syndromes S_q = word(b^(fcr + q)) by Horner
        bool dirty = false;
        for (int q = lane; q < p.R; q += 32) {
            const int lr = s_root[q];
            uint32_t s = 0;
            for (int i = V; i < 255; ++i)
                s = (s ? s_exp[s_log[s] + lr] : 0u) ^ word[i];
            s_syn[warp][q] = uint8_t(s);
            dirty |= s != 0;
        }
        dirty = __any_sync(0xffffffffu, dirty);
        __syncwarp();
        int res = 0;
        if (erasures > p.R) {
            res = -1; // (more erasures than check symbols: as the CPU engine)
        } else if (dirty) {
            // the erasures' positions in order, 32 symbols a ballot
            int ne = 0;
            for (int base = 0; base < p.n; base += 32) {
                const bool e = base + lane < p.n && er[base + lane];
                const unsigned m = __ballot_sync(0xffffffffu, e);
                if (e)
                    s_eras[warp][ne + __popc(m & lanes_below(lane))] = base + lane;
                ne += __popc(m);
            }
            __syncwarp();
            res = rs_solve_warp(p.sc, rs_field_ops{ s_exp, s_log }, word, s_syn[warp], s_eras[warp], ne,
                                s_lambda[warp], s_omega[warp], lane);
        }
        if (lane == 0)
            result[c] = res;
        __syncwarp();
        uint8_t* out = info + f * p.info_bytes + j;
        for (int s = lane; s < p.k; s += 32)
            out[int64_t(s) * p.I] = p.dual ? s_to[word[V + s]] : word[V + s];
        __syncwarp();
    }
}

class rs_cuda : public frame_engine
{
public:
    rs_cuda(const rs_code& code, int device, size_t max_batch) : d_code(code), d_device(device)
    {
        code.check();
        device_guard g(d_device);
        cudaDeviceProp prop{};
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = "cuda:" + std::to_string(d_device) + " (" + prop.name + ", Reed-Solomon)";
        d_blocks = prop.multiProcessorCount * 16;
        // the field and the tables, from the reference decoder's definitions
        gf2m_field(8, uint32_t(code.gfpoly)).tables8(d_tab.exp, d_tab.log);
        for (int i = 0; i < 256; ++i) {
            d_tab.from[i] = code.dual_basis ? rs_ccsds_from_dual(uint8_t(i)) : uint8_t(i);
            d_tab.to[i] = code.dual_basis ? rs_ccsds_to_dual(uint8_t(i)) : uint8_t(i);
        }
        const rs_reference_decoder ref(code);
        for (int q = 0; q < code.nroots; ++q)
            d_tab.root_log[q] = d_tab.log[ref.root(q)];
        d_p.sc = rs_solver_code{ code.nroots, code.fcr, code.prim, code.virtual_fill };
        d_p.n = code.n();
        d_p.k = code.k();
        d_p.I = code.interleave;
        d_p.R = code.nroots;
        d_p.dual = code.dual_basis ? 1 : 0;
        d_p.block_bytes = int64_t(code.block_bytes());
        d_p.info_bytes = int64_t(code.info_bytes());
        // chunks of about two waves of warps (a codeword each), copied in and out while the
        // chunk before them decodes; no larger than a batch
        const size_t wave = size_t(d_blocks) * warps_a_block;
        d_chunk = std::max<size_t>(1, 2 * wave / size_t(code.interleave));
        if (max_batch)
            d_chunk = std::min(d_chunk, max_batch);
        pipeline_layout l;
        l.in = { d_chunk * code.block_bytes() * 8 };
        l.out = { d_chunk * code.info_bytes(), d_chunk * size_t(code.interleave) * sizeof(int) };
        d_pipe = std::make_unique<batch_pipeline>(3, l);
    }
    std::string name() const override { return d_name; }
    bool on_gpu() const override { return true; }

    void run(const engine_batch& in, const engine_output& out) override
    {
        if (!in.soft)
            throw std::invalid_argument("Reed-Solomon (GPU): int8 input only");
        if (in.frames == 0)
            return;
        device_guard g(d_device);
        const size_t frames = in.frames, I = size_t(d_code.interleave);
        const size_t bb = d_code.block_bytes() * 8, ib = d_code.info_bytes();
        d_host_result.resize(frames * I);
        d_pipe->run(
            int64_t((frames + d_chunk - 1) / d_chunk),
            [&](int64_t c) {
                const size_t at = size_t(c) * d_chunk, m = std::min(d_chunk, frames - at);
                chunk_io io;
                io.in[0] = in.soft + at * bb;
                io.in_bytes[0] = m * bb;
                io.out[0] = out.packed + at * ib;
                io.out_bytes[0] = m * ib;
                io.out[1] = d_host_result.data() + at * I;
                io.out_bytes[1] = m * I * sizeof(int);
                return io;
            },
            [&](int64_t c, const slot_view& v) {
                const size_t m = std::min(d_chunk, frames - size_t(c) * d_chunk);
                enqueue(v.stream, v.input<const int8_t>(0), m, v.output<uint8_t>(0), v.output<int>(1));
            });
        for (size_t f = 0; f < frames; ++f)
            rs_fold_status(d_host_result.data() + f * I, int(I), out.status[f]);
    }

    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        device_guard g(d_device);
        const size_t m = std::min(d_chunk, frames), bb = d_code.block_bytes() * 8;
        device_buffer<int8_t> d_in(m * bb);
        device_buffer<uint8_t> d_out(m * d_code.info_bytes());
        device_buffer<int> d_res(m * size_t(d_code.interleave));
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), soft, m * bb, cudaMemcpyHostToDevice, st.get()));
        const double t = time_on_stream(st.get(), reps, [&] { enqueue(st.get(), d_in.get(), m, d_out.get(), d_res.get()); });
        return t * double(frames) / double(m);
    }

private:
    void enqueue(cudaStream_t st, const int8_t* soft, size_t frames, uint8_t* info, int* result)
    {
        const size_t cws = frames * size_t(d_code.interleave);
        const unsigned grid = unsigned(std::min<size_t>(size_t(d_blocks), (cws + warps_a_block - 1) / warps_a_block));
        rs_decode_kernel<<<grid, 32 * warps_a_block, 0, st>>>(d_p, d_tab, soft, int64_t(frames), info, result);
        GPUFEC_CUDA_CHECK_LAUNCH("rs_decode_kernel");
    }

    rs_code d_code;
    int d_device;
    int d_blocks = 1;
    size_t d_chunk = 1;
    std::string d_name;
    rs_gpu_params d_p{};
    rs_gpu_tables d_tab{};
    std::unique_ptr<batch_pipeline> d_pipe;
    std::vector<int> d_host_result;
};

} // namespace

std::unique_ptr<frame_engine> make_rs_cuda(const rs_code& code, int device, size_t max_batch)
{
    return std::make_unique<rs_cuda>(code, device, max_batch);
}

} // namespace gpufec
