/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Span frames made on a GPU (span_frames.h), the same bytes as make_span_frames_cpu.
 *
 * Parallel mapping: a thread owns one 32-bit word of one frame: 32 code bits (their values:
 * 16 Philox draws and 32 threshold searches) or 32 information bits; consecutive threads take
 * consecutive words of a frame, frames one after the other (grid-stride). A block keeps the
 * point's 256 thresholds in shared memory (the searches' indices diverge). The basis rows
 * (65 code rows, 64 information rows; 0.5 MB for a 64800-bit code) are read through the cache.
 * Output: the batch's values and information bytes in device memory, then copied to the slot's
 * page-locked host memory on the maker's stream. */
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "gpu_slots.cuh"
#include "span_frames.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace gpufec {
namespace sim {

namespace {

__global__ void span_frames_kernel(const uint32_t* __restrict__ info_rows, const uint32_t* __restrict__ code_rows,
                                   awgn_levels lv, span_key key, uint64_t first, uint64_t count, uint32_t n,
                                   uint32_t code_words, uint32_t info_words, int8_t* soft8, uint8_t* soft4,
                                   uint32_t* info)
{
    __shared__ uint64_t t[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        t[i] = lv.t[i];
    __syncthreads();
    auto level = [&](uint64_t u) { return awgn_level(t, u); };
    const uint64_t words = code_words + info_words, items = count * words;
    for (uint64_t item = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; item < items;
         item += uint64_t(gridDim.x) * blockDim.x) {
        const uint64_t f = item / words, frame = first + f;
        const uint32_t w = uint32_t(item % words);
        const uint64_t mask = span_mask(key, frame);
        if (w >= code_words) {
            info[f * info_words + (w - code_words)] = span_row_word(info_rows, info_words, mask, w - code_words);
            continue;
        }
        const uint32_t bits = span_code_word(code_rows, code_words, mask, w);
        auto draw = [&](uint64_t p) { return span_pair_draw(key, frame, p); };
        int8_t* o8 = soft4 ? nullptr : soft8 + f * n;
        uint8_t* o4 = soft4 ? soft4 + f * (n / 2) : nullptr;
        span_word_values(level, draw, bits, w, n, [&](size_t j, int v) { put_soft_value(o8, o4, j, v); });
    }
}

class span_maker_cuda : public span_maker_gpu
{
public:
    span_maker_cuda(int device, const span_basis& b, int soft_bits)
        : d_n(b.n), d_code_words(b.code_words), d_info_words(b.info_words), d_soft4(soft_bits == 4),
          d_slots(device)
    {
        if (d_soft4 && b.n % 2)
            throw std::invalid_argument("span frames: packed 4-bit frames need an even number of values");
        device_guard g(device);
        d_info_rows.assign(b.info);
        d_code_rows.assign(b.code);
    }

    void start(int slot, const awgn_levels& lv, span_key key, uint64_t first, uint64_t count) override
    {
        device_guard g(d_slots.device());
        const size_t value_bytes = d_soft4 ? count * (d_n / 2) : count * d_n;
        const auto dev = d_slots.prepare(slot, value_bytes, count * d_info_words * 4);
        const uint64_t items = count * (d_code_words + d_info_words);
        const int threads = 256;
        const uint64_t blocks = std::min<uint64_t>((items + threads - 1) / threads, 65536);
        span_frames_kernel<<<unsigned(std::max<uint64_t>(blocks, 1)), threads, 0, d_slots.stream()>>>(
            d_info_rows.get(), d_code_rows.get(), lv, key, first, count, uint32_t(d_n), uint32_t(d_code_words),
            uint32_t(d_info_words), d_soft4 ? nullptr : reinterpret_cast<int8_t*>(dev.values),
            d_soft4 ? dev.values : nullptr, reinterpret_cast<uint32_t*>(dev.info));
        GPUFEC_CUDA_CHECK_LAUNCH("span_frames_kernel");
        d_slots.finish(slot);
    }

    span_output wait(int slot) override { return d_slots.wait(slot, d_soft4); }

    std::string device() const override { return "cuda:" + std::to_string(d_slots.device()); }

private:
    size_t d_n, d_code_words, d_info_words;
    bool d_soft4;
    device_buffer<uint32_t> d_info_rows, d_code_rows;
    gpu_slots d_slots; // last: destroyed first, waiting for a batch still in flight
};

} // namespace

std::unique_ptr<span_maker_gpu> make_span_maker_gpu(int device, const span_basis& b, int soft_bits)
{
    try {
        return std::make_unique<span_maker_cuda>(device, b, soft_bits);
    } catch (const cuda_error& e) {
        throw std::runtime_error(std::string("span frames on cuda:") + std::to_string(device) + ": " + e.what());
    }
}

} // namespace sim
} // namespace gpufec
