/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one device rule every family follows when it makes a GPU engine, and the fault injection
 * that tests it.
 *
 * device="auto": a GPU engine that cannot be made (out of memory, an architecture the build
 * lacks, a kernel that cannot launch) is logged as a warning with the reason, and the family
 * decodes on the CPU. device="cuda[:N]": the same failure is an error naming the family, the
 * device and the cause (for memory: how much was asked for and how much was free).
 *
 * GPUFEC_FAULT (a comma-separated list) makes failures on purpose: "engine" makes every GPU
 * engine's construction fail, "batch" every GPU batch (batch_decoder::decode), so that the
 * fallbacks can be tested on a machine whose GPU works. */
#ifndef INCLUDED_GPUFEC_RUNTIME_GPU_ENGINE_H
#define INCLUDED_GPUFEC_RUNTIME_GPU_ENGINE_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

//! whether GPUFEC_FAULT names `what` ("engine", "batch")
bool fault_injected(const char* what);

/*! For tests of memory pressure: holds all of a GPU's free memory but `leave_free` bytes
 *  (another process's allocations, in effect) until destroyed. Nothing without CUDA. */
class gpu_memory_ballast
{
public:
    gpu_memory_ballast(int device, size_t leave_free);
    ~gpu_memory_ballast();
    gpu_memory_ballast(const gpu_memory_ballast&) = delete;
    gpu_memory_ballast& operator=(const gpu_memory_ballast&) = delete;
    size_t held() const { return d_held; }

private:
    std::vector<void*> d_blocks;
    size_t d_held = 0;
    int d_device;
};

/*! The rule for a GPU engine that failed (made, or its first buffers reserved) on `where`: with
 *  device auto, logs a warning and returns (the caller goes on with the CPU); otherwise throws,
 *  naming the family, the device and the cause (std::invalid_argument for settings the GPU
 *  cannot take, std::runtime_error for the rest). */
void gpu_engine_failed(const device_spec& device, const std::string& where, const std::string& family,
                       const std::exception& cause);

/*! make(device index) -> the family's GPU engine (a smart pointer); returns it, or null where
 *  choice is the CPU or (with device auto) the engine cannot be made */
template <class Make>
auto gpu_engine_or_cpu(const device_spec& device, const backend_choice& choice, const std::string& family, Make&& make)
    -> decltype(make(0))
{
    if (!choice.cuda)
        return nullptr;
    try {
        if (fault_injected("engine"))
            throw std::runtime_error("GPUFEC_FAULT=engine: the GPU engine was made to fail");
        return make(choice.device);
    } catch (const std::exception& e) {
        gpu_engine_failed(device, choice.description, family, e);
        return nullptr;
    }
}

} // namespace gpufec

#endif
