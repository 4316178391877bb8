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
        if (soft4) {
            uint8_t* o = soft4 + f * (n / 2);
            span_word_values(t, key, frame, bits, w, n, [&](size_t j, int v) {
                const uint32_t nib = soft4_nibble(v);
                o[j / 2] = uint8_t(j & 1 ? (o[j / 2] & 0x0f) | nib << 4 : nib);
            });
        } else {
            int8_t* o = soft8 + f * n;
            span_word_values(t, key, frame, bits, w, n, [&](size_t j, int v) { o[j] = int8_t(v); });
        }
    }
}

class span_maker_cuda : public span_maker_gpu
{
public:
    span_maker_cuda(int device, const span_basis& b, int soft_bits)
        : d_device(device), d_n(b.n), d_code_words(b.code_words), d_info_words(b.info_words),
          d_soft4(soft_bits == 4)
    {
        if (d_soft4 && b.n % 2)
            throw std::invalid_argument("span frames: packed 4-bit frames need an even number of values");
        device_guard g(d_device); // the stream and buffers belong to d_device
        d_res = std::make_unique<resources>();
        d_res->info_rows.assign(b.info);
        d_res->code_rows.assign(b.code);
    }

    ~span_maker_cuda() override
    {
        if (d_res) // a batch made ahead may still be on its way into the host buffers
            cudaStreamSynchronize(d_res->stream.get());
    }

    void start(int slot, const awgn_levels& lv, span_key key, uint64_t first, uint64_t count) override
    {
        device_guard g(d_device);
        slot_state& s = d_res->slots.at(size_t(slot));
        s.done.sync(); // its last batch may still be on its way to the host
        const size_t value_bytes = d_soft4 ? count * (d_n / 2) : count * d_n;
        const size_t info_bytes = count * d_info_words * 4;
        s.values.resize(value_bytes);
        s.info.resize(count * d_info_words);
        s.host_values.resize(value_bytes);
        s.host_info.resize(info_bytes);
        const uint64_t items = count * (d_code_words + d_info_words);
        const int threads = 256;
        const uint64_t blocks = std::min<uint64_t>((items + threads - 1) / threads, 65536);
        span_frames_kernel<<<unsigned(std::max<uint64_t>(blocks, 1)), threads, 0, d_res->stream.get()>>>(
            d_res->info_rows.get(), d_res->code_rows.get(), lv, key, first, count, uint32_t(d_n), uint32_t(d_code_words),
            uint32_t(d_info_words), d_soft4 ? nullptr : reinterpret_cast<int8_t*>(s.values.get()),
            d_soft4 ? s.values.get() : nullptr, s.info.get());
        GPUFEC_CUDA_CHECK_LAUNCH("span_frames_kernel");
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(s.host_values.get(), s.values.get(), value_bytes, cudaMemcpyDeviceToHost,
                                          d_res->stream.get()));
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(s.host_info.get(), s.info.get(), info_bytes, cudaMemcpyDeviceToHost,
                                          d_res->stream.get()));
        s.done.record(d_res->stream.get());
    }

    span_output wait(int slot) override
    {
        device_guard g(d_device);
        slot_state& s = d_res->slots.at(size_t(slot));
        s.done.sync();
        span_output o;
        if (d_soft4)
            o.soft4 = s.host_values.get();
        else
            o.soft8 = reinterpret_cast<int8_t*>(s.host_values.get());
        o.info = s.host_info.get();
        return o;
    }

    std::string device() const override { return "cuda:" + std::to_string(d_device); }

private:
    struct slot_state {
        device_buffer<uint8_t> values;
        device_buffer<uint32_t> info;
        pinned_buffer<uint8_t> host_values, host_info;
        cuda_event done;
    };
    struct resources {
        device_buffer<uint32_t> info_rows, code_rows;
        cuda_stream stream;
        std::array<slot_state, 2> slots;
    };
    int d_device;
    size_t d_n, d_code_words, d_info_words;
    bool d_soft4;
    std::unique_ptr<resources> d_res;
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
