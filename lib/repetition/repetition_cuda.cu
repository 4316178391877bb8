/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The repetition decoder on the GPU, the template of a GPU family on the engine contract.
 *
 * Parallel mapping: a thread owns one output byte of one frame (8 information bits, the last
 * byte fewer): it adds the `repeat` soft values of each of its bits, decides on the sign (a sum
 * of 0 decides 0, as the CPU engine) and writes the byte, and the sums where soft output is
 * asked for. Blocks of 256 threads cover frames x bytes in order. Memory: the input is frames
 * x (bits x repeat) int8 values, frame after frame, each bit's copies side by side; the output
 * frames x ceil(bits / 8) bytes. One stream, owned by the engine: copy in, kernel, copy out,
 * synchronised on that stream only. Device buffers are sized at construction for max_batch
 * frames (a larger batch grows them once). */
#include "repetition/repetition_engine.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace gpufec {

namespace {

__global__ void repetition_kernel(const int8_t* __restrict__ soft, size_t frames, int bits, int repeat,
                                  uint8_t* __restrict__ packed, float* __restrict__ sums)
{
    const int bytes = (bits + 7) / 8;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= frames * size_t(bytes))
        return;
    const size_t f = t / size_t(bytes);
    const int j = int(t % size_t(bytes));
    const int8_t* in = soft + f * size_t(bits) * size_t(repeat);
    uint8_t byte = 0;
    for (int b = 0; b < 8 && 8 * j + b < bits; ++b) {
        const int i = 8 * j + b;
        int sum = 0;
        for (int r = 0; r < repeat; ++r)
            sum += max(int(in[i * repeat + r]), -127);
        byte |= uint8_t((sum > 0) << (7 - b));
        if (sums)
            sums[f * size_t(bits) + size_t(i)] = float(sum);
    }
    packed[f * size_t(bytes) + size_t(j)] = byte;
}

class repetition_cuda : public frame_engine
{
public:
    repetition_cuda(const repetition_setup& s, int device, size_t max_batch) : d_s(s), d_device(device)
    {
        device_guard g(d_device);
        cudaDeviceProp p{};
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&p, d_device));
        d_name = "cuda:" + std::to_string(d_device) + " (" + p.name + ", repetition)";
        d_stream = std::make_unique<cuda_stream>(); // (on this engine's device)
        reserve(max_batch ? max_batch : 4096, false);
    }
    std::string name() const override { return d_name; }
    bool on_gpu() const override { return true; }

    void run(const engine_batch& in, const engine_output& out) override
    {
        if (!in.soft)
            throw std::invalid_argument("repetition (GPU): int8 input only");
        device_guard g(d_device);
        const size_t n = size_t(d_s.frame_bits) * size_t(d_s.repeat), bytes = size_t(d_s.frame_bits + 7) / 8;
        reserve(in.frames, out.soft_out != nullptr);
        cudaStream_t st = d_stream->get();
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in.soft, in.frames * n, cudaMemcpyHostToDevice, st));
        const size_t threads = in.frames * bytes;
        repetition_kernel<<<unsigned((threads + 255) / 256), 256, 0, st>>>(
            d_in.get(), in.frames, d_s.frame_bits, d_s.repeat, d_out.get(), out.soft_out ? d_sums.get() : nullptr);
        GPUFEC_CUDA_CHECK_LAUNCH("repetition_kernel");
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(out.packed, d_out.get(), in.frames * bytes, cudaMemcpyDeviceToHost, st));
        if (out.soft_out)
            GPUFEC_CUDA_CHECK(cudaMemcpyAsync(out.soft_out, d_sums.get(), in.frames * size_t(d_s.frame_bits) * sizeof(float),
                                              cudaMemcpyDeviceToHost, st));
        d_stream->sync();
        for (size_t f = 0; f < in.frames; ++f)
            out.status[f].iterations = 1;
    }

private:
    void reserve(size_t frames, bool sums)
    {
        const size_t n = size_t(d_s.frame_bits) * size_t(d_s.repeat), bytes = size_t(d_s.frame_bits + 7) / 8;
        if (d_in.size() < frames * n)
            d_in.resize(frames * n);
        if (d_out.size() < frames * bytes)
            d_out.resize(frames * bytes);
        if (sums && d_sums.size() < frames * size_t(d_s.frame_bits))
            d_sums.resize(frames * size_t(d_s.frame_bits));
    }

    repetition_setup d_s;
    int d_device;
    std::string d_name;
    std::unique_ptr<cuda_stream> d_stream;
    device_buffer<int8_t> d_in;
    device_buffer<uint8_t> d_out;
    device_buffer<float> d_sums;
};

} // namespace

std::unique_ptr<frame_engine> make_repetition_cuda(const repetition_setup& s, int device, size_t max_batch)
{
    return std::make_unique<repetition_cuda>(s, device, max_batch);
}

} // namespace gpufec
