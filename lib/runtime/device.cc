/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/runtime/device.h>

#include "runtime/gpu_engine.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <mutex>
#include <stdexcept>

#ifdef GPUFEC_HAVE_CUDA
#include "cuda_resources.h"
#include <cuda_runtime.h>
#endif

namespace gpufec {

namespace {
std::mutex g_log_mutex;
log_handler g_log_handler;
} // namespace

void set_log_handler(log_handler handler)
{
    std::lock_guard<std::mutex> lock(g_log_mutex);
    g_log_handler = std::move(handler);
}

void log(log_level level, const std::string& message)
{
    std::lock_guard<std::mutex> lock(g_log_mutex);
    if (g_log_handler) {
        g_log_handler(level, message);
        return;
    }
    if (level == log_level::debug)
        return;
    static const char* names[] = { "debug", "info", "warning", "error" };
    std::fprintf(stderr, "gpufec %s: %s\n", names[static_cast<int>(level)], message.c_str());
}

device_spec device_spec::parse(const std::string& text)
{
    device_spec s;
    if (text == "auto") {
        s.type = kind::automatic;
    } else if (text == "cpu") {
        s.type = kind::cpu;
    } else if (text == "cuda") {
        s.type = kind::cuda;
        s.index = 0;
    } else if (text.rfind("cuda:", 0) == 0) {
        s.type = kind::cuda;
        const std::string num = text.substr(5);
        size_t used = 0;
        int idx = -1;
        try {
            idx = std::stoi(num, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (num.empty() || used != num.size() || idx < 0)
            throw std::invalid_argument("device: '" + text +
                                        "' is not valid (allowed: auto, cpu, cuda, cuda:N)");
        s.index = idx;
    } else {
        throw std::invalid_argument("device: '" + text +
                                    "' is not valid (allowed: auto, cpu, cuda, cuda:N)");
    }
    return s;
}

std::string device_spec::str() const
{
    switch (type) {
    case kind::automatic:
        return "auto";
    case kind::cpu:
        return "cpu";
    case kind::cuda:
        return "cuda:" + std::to_string(index);
    }
    return "?";
}

uint64_t gpu_allocations()
{
#ifdef GPUFEC_HAVE_CUDA
    return cuda_allocations().load();
#else
    return 0;
#endif
}

const char* version() { return GPUFEC_VERSION; }

gpu_memory_ballast::gpu_memory_ballast(int device, size_t leave_free) : d_device(device)
{
#ifdef GPUFEC_HAVE_CUDA
    int previous = 0;
    cudaGetDevice(&previous);
    if (cudaSetDevice(device) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    // in pieces, halving the piece where the allocator says no, until what is free is at most leave_free
    for (size_t piece = size_t(1) << 30; piece >= (size_t(1) << 20);) {
        size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) != cudaSuccess || free <= leave_free)
            break;
        const size_t want = std::min(piece, free - leave_free);
        void* p = nullptr;
        if (want < (size_t(1) << 20) || cudaMalloc(&p, want) != cudaSuccess) {
            cudaGetLastError();
            piece /= 2;
            continue;
        }
        d_blocks.push_back(p);
        d_held += want;
    }
    cudaSetDevice(previous);
#else
    (void)leave_free;
#endif
}

gpu_memory_ballast::~gpu_memory_ballast()
{
#ifdef GPUFEC_HAVE_CUDA
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(d_device);
    for (void* p : d_blocks)
        cudaFree(p);
    cudaSetDevice(previous);
#endif
}

void gpu_engine_failed(const device_spec& device, const std::string& where, const std::string& family,
                       const std::exception& cause)
{
    if (device.type == device_spec::kind::cuda) {
        const std::string m = family + " on " + where + ": the GPU engine cannot be made: " + cause.what();
        if (dynamic_cast<const std::invalid_argument*>(&cause))
            throw std::invalid_argument(m);
        throw std::runtime_error(m);
    }
    log(log_level::warn, family + ": device=auto: the GPU engine on " + where + " cannot be made (" + cause.what() +
                             "); decoding on the CPU");
}

bool fault_injected(const char* what)
{
    const char* env = std::getenv("GPUFEC_FAULT");
    if (!env)
        return false;
    const std::string list = std::string(",") + env + ",";
    return list.find(std::string(",") + what + ",") != std::string::npos;
}

bool cuda_compiled()
{
#ifdef GPUFEC_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

std::vector<gpu_info> cuda_devices()
{
    std::vector<gpu_info> out;
#ifdef GPUFEC_HAVE_CUDA
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no driver" error
        return out;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        out.push_back({ i, prop.name, prop.major, prop.minor, prop.totalGlobalMem,
                        prop.multiProcessorCount });
    }
#endif
    return out;
}

host_buffer::host_buffer(size_t bytes) : d_n(bytes)
{
#ifdef GPUFEC_HAVE_CUDA
    if (!cuda_devices().empty() &&
        cudaMallocHost(reinterpret_cast<void**>(&d_p), bytes) == cudaSuccess) {
        d_pinned = true;
        ++cuda_allocations();
        return;
    }
    cudaGetLastError();
#endif
    d_p = static_cast<uint8_t*>(std::malloc(bytes ? bytes : 1));
    if (!d_p)
        throw std::bad_alloc();
}

host_buffer::~host_buffer()
{
#ifdef GPUFEC_HAVE_CUDA
    if (d_pinned) {
        cudaFreeHost(d_p);
        return;
    }
#endif
    std::free(d_p);
}

static std::string describe_gpu(const gpu_info& g)
{
    return "cuda:" + std::to_string(g.index) + " (" + g.name + ", sm_" +
           std::to_string(g.cc_major) + std::to_string(g.cc_minor) + ")";
}

backend_choice resolve_backend(const device_spec& spec)
{
    backend_choice c;
    c.description = "cpu";
    if (spec.type == device_spec::kind::cpu)
        return c;
    const auto gpus = cuda_devices();
    if (spec.type == device_spec::kind::cuda) {
        if (!cuda_compiled())
            throw std::invalid_argument("device: '" + spec.str() +
                                        "' requested, but gr-gpufec was built without CUDA "
                                        "(allowed here: auto, cpu)");
        for (const auto& g : gpus)
            if (g.index == spec.index) {
                c.cuda = true;
                c.device = g.index;
                c.description = describe_gpu(g);
                return c;
            }
        throw std::invalid_argument("device: '" + spec.str() + "' requested, but " +
                                    std::to_string(gpus.size()) + " usable CUDA device(s) found");
    }
    static std::once_flag logged;
    if (!gpus.empty()) {
        c.cuda = true;
        c.device = gpus[0].index;
        c.description = describe_gpu(gpus[0]);
    }
    std::call_once(logged, [&] {
        log(log_level::info,
            "device=auto chose " + c.description +
                (c.cuda ? "" : (cuda_compiled() ? " (no usable CUDA device)"
                                                : " (built without CUDA)")));
    });
    return c;
}

} // namespace gpufec
