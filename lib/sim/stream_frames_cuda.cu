/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The simulated stream made on a GPU (stream_frames.h), the same bytes as make_stream_cpu.
 *
 * Parallel mapping: a thread owns 32 consecutive values of the stretch (its stages'
 * information bits drawn once, 16 or 17 Philox draws of noise, 32 threshold searches) or the
 * information bits of 32 consecutive stages; grid-stride over both. A block keeps the point's
 * 256 thresholds in shared memory; the code table is a kernel parameter. */
#include "gpu_slots.cuh"
#include "stream_frames.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpufec {
namespace sim {

namespace {

__global__ void stream_kernel(stream_code c, awgn_levels lv, span_key key, stream_stretch st, int8_t* soft8,
                              uint8_t* soft4, uint32_t* info)
{
    __shared__ uint64_t t[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        t[i] = lv.t[i];
    __syncthreads();
    auto level = [&](uint64_t u) { return awgn_level(t, u); };
    auto draw = [&](uint64_t p) { return stream_pair_draw(key, p); };
    const uint64_t groups = (st.v1 - st.v0 + 31) / 32, info_groups = uint64_t(st.s1 - st.s0 + 31) / 32;
    for (uint64_t item = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; item < groups + info_groups;
         item += uint64_t(gridDim.x) * blockDim.x) {
        if (item >= groups) {
            const uint64_t g = item - groups;
            info[g] = stream_info_word(key, st.s0 + int64_t(32 * g), st.s1);
            continue;
        }
        const uint64_t v = st.v0 + 32 * item;
        stream_group_values(c, level, draw, key, v, st.v1,
                            [&](uint64_t y, int q) { put_soft_value(soft8, soft4, y - st.v0, q); });
    }
}

class stream_maker_cuda : public stream_maker_gpu
{
public:
    stream_maker_cuda(int device, const stream_code& c, int soft_bits)
        : d_code(c), d_soft4(soft_bits == 4), d_slots(device)
    {
    }

    void start(int slot, const awgn_levels& lv, span_key key, const stream_stretch& st) override
    {
        device_guard g(d_slots.device());
        const uint64_t values = st.v1 - st.v0;
        const auto dev = d_slots.prepare(slot, d_soft4 ? (values + 1) / 2 : values, st.info_bytes());
        const uint64_t items = (values + 31) / 32 + uint64_t(st.s1 - st.s0 + 31) / 32;
        const int threads = 256;
        const uint64_t blocks = std::min<uint64_t>((items + threads - 1) / threads, 65536);
        stream_kernel<<<unsigned(std::max<uint64_t>(blocks, 1)), threads, 0, d_slots.stream()>>>(
            d_code, lv, key, st, d_soft4 ? nullptr : reinterpret_cast<int8_t*>(dev.values),
            d_soft4 ? dev.values : nullptr, reinterpret_cast<uint32_t*>(dev.info));
        GPUFEC_CUDA_CHECK_LAUNCH("stream_kernel");
        d_slots.finish(slot);
    }

    span_output wait(int slot) override { return d_slots.wait(slot, d_soft4); }

    std::string device() const override { return "cuda:" + std::to_string(d_slots.device()); }

private:
    stream_code d_code;
    bool d_soft4;
    gpu_slots d_slots;
};

} // namespace

std::unique_ptr<stream_maker_gpu> make_stream_maker_gpu(int device, const stream_code& c, int soft_bits)
{
    try {
        return std::make_unique<stream_maker_cuda>(device, c, soft_bits);
    } catch (const cuda_error& e) {
        throw std::runtime_error("a simulated stream on cuda:" + std::to_string(device) + ": " + e.what());
    }
}

} // namespace sim
} // namespace gpufec
