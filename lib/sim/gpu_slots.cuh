/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The GPU frame makers' buffers: a stream of their own and two slots, each device memory for a
 * batch's values and information bytes and the page-locked host memory they are copied to, so
 * one batch is made while the decoder reads the other. */
#ifndef INCLUDED_GPUFEC_SIM_GPU_SLOTS_CUH
#define INCLUDED_GPUFEC_SIM_GPU_SLOTS_CUH

#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "span_frames.h"

#include <array>
#include <memory>

namespace gpufec {
namespace sim {

class gpu_slots
{
public:
    explicit gpu_slots(int device) : d_device(device)
    {
        device_guard g(d_device); // the stream belongs to d_device
        d_res = std::make_unique<resources>();
    }
    ~gpu_slots()
    {
        if (d_res) { // a batch made ahead may still be on its way into the host buffers
            device_guard g(d_device);
            cudaStreamSynchronize(d_res->stream.get());
        }
    }
    gpu_slots(const gpu_slots&) = delete;
    gpu_slots& operator=(const gpu_slots&) = delete;

    int device() const { return d_device; }
    cudaStream_t stream() const { return d_res->stream.get(); }

    struct device_side {
        uint8_t* values;
        uint8_t* info;
    };
    //! the slot's device buffers for a batch of these sizes (waits for the slot's last batch)
    device_side prepare(int slot, size_t value_bytes, size_t info_bytes)
    {
        slot_state& s = d_res->slots.at(size_t(slot));
        s.done.sync();
        s.values.resize(value_bytes);
        s.info.resize(info_bytes);
        s.host_values.resize(value_bytes);
        s.host_info.resize(info_bytes);
        s.value_bytes = value_bytes;
        s.info_bytes = info_bytes;
        return { s.values.get(), s.info.get() };
    }
    //! after the slot's kernels: its batch copied to the host, on the stream
    void finish(int slot)
    {
        slot_state& s = d_res->slots.at(size_t(slot));
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(s.host_values.get(), s.values.get(), s.value_bytes, cudaMemcpyDeviceToHost,
                                          stream()));
        GPUFEC_CUDA_CHECK(
            cudaMemcpyAsync(s.host_info.get(), s.info.get(), s.info_bytes, cudaMemcpyDeviceToHost, stream()));
        s.done.record(stream());
    }
    //! waits for the slot's batch: its values (int8, or packed 4-bit) and information bytes
    span_output wait(int slot, bool soft4)
    {
        device_guard g(d_device);
        slot_state& s = d_res->slots.at(size_t(slot));
        s.done.sync();
        span_output o;
        if (soft4)
            o.soft4 = s.host_values.get();
        else
            o.soft8 = reinterpret_cast<int8_t*>(s.host_values.get());
        o.info = s.host_info.get();
        return o;
    }

private:
    struct slot_state {
        device_buffer<uint8_t> values, info;
        pinned_buffer<uint8_t> host_values, host_info;
        size_t value_bytes = 0, info_bytes = 0;
        cuda_event done;
    };
    struct resources {
        cuda_stream stream;
        std::array<slot_state, 2> slots;
    };
    int d_device;
    std::unique_ptr<resources> d_res;
};

} // namespace sim
} // namespace gpufec

#endif
