/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* RAII owners of CUDA objects. Destructors never throw; every other call is checked. */
#ifndef INCLUDED_GPUFEC_RUNTIME_CUDA_RESOURCES_H
#define INCLUDED_GPUFEC_RUNTIME_CUDA_RESOURCES_H

#include "cuda_check.h"
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpufec {

/*! Device and page-locked allocations made by this process's buffers so far: the tests check
 *  that decoders allocate at construction (or on first use) and never again per batch. */
inline std::atomic<uint64_t>& cuda_allocations()
{
    static std::atomic<uint64_t> count{ 0 };
    return count;
}

//! Makes `device` current for the lifetime of the guard (decoders may live on any GPU).
class device_guard
{
public:
    explicit device_guard(int device)
    {
        GPUFEC_CUDA_CHECK(cudaGetDevice(&d_prev));
        if (d_prev != device)
            GPUFEC_CUDA_CHECK(cudaSetDevice(device));
    }
    ~device_guard() { cudaSetDevice(d_prev); }
    device_guard(const device_guard&) = delete;
    device_guard& operator=(const device_guard&) = delete;

private:
    int d_prev = 0;
};

class cuda_stream
{
public:
    cuda_stream() { GPUFEC_CUDA_CHECK(cudaStreamCreateWithFlags(&d_s, cudaStreamNonBlocking)); }
    ~cuda_stream()
    {
        if (d_s)
            cudaStreamDestroy(d_s);
    }
    cuda_stream(cuda_stream&& o) noexcept : d_s(std::exchange(o.d_s, nullptr)) {}
    cuda_stream(const cuda_stream&) = delete;
    cuda_stream& operator=(const cuda_stream&) = delete;
    cudaStream_t get() const { return d_s; }
    void sync() const { GPUFEC_CUDA_CHECK(cudaStreamSynchronize(d_s)); }

private:
    cudaStream_t d_s = nullptr;
};

class cuda_event
{
public:
    explicit cuda_event(unsigned flags = cudaEventDisableTiming)
    {
        GPUFEC_CUDA_CHECK(cudaEventCreateWithFlags(&d_e, flags));
    }
    ~cuda_event()
    {
        if (d_e)
            cudaEventDestroy(d_e);
    }
    cuda_event(cuda_event&& o) noexcept : d_e(std::exchange(o.d_e, nullptr)) {}
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;
    cudaEvent_t get() const { return d_e; }
    void record(cudaStream_t s) { GPUFEC_CUDA_CHECK(cudaEventRecord(d_e, s)); }
    void sync() const { GPUFEC_CUDA_CHECK(cudaEventSynchronize(d_e)); }

private:
    cudaEvent_t d_e = nullptr;
};

//! Seconds per call of enqueue(), which puts work on `stream`: one warm-up call, then the mean
//! of `reps` calls timed by events on the stream (for kernel-only benchmark figures).
template <class Enqueue>
double time_on_stream(cudaStream_t stream, int reps, Enqueue&& enqueue)
{
    cuda_event t0(cudaEventDefault), t1(cudaEventDefault);
    enqueue();
    t0.record(stream);
    for (int r = 0; r < reps; ++r)
        enqueue();
    t1.record(stream);
    t1.sync();
    float ms = 0;
    GPUFEC_CUDA_CHECK(cudaEventElapsedTime(&ms, t0.get(), t1.get()));
    return ms / 1000.0 / reps;
}

//! Device memory (cudaMalloc; never managed memory).
template <typename T>
class device_buffer
{
public:
    device_buffer() = default;
    explicit device_buffer(size_t count) { resize(count); }
    ~device_buffer() { release(); }
    device_buffer(device_buffer&& o) noexcept
        : d_p(std::exchange(o.d_p, nullptr)), d_n(std::exchange(o.d_n, 0))
    {
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    //! grows only; contents are not kept
    void resize(size_t count)
    {
        if (count <= d_n)
            return;
        release();
        const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&d_p), count * sizeof(T));
        if (e != cudaSuccess) { // name the size asked for: memory errors are what users meet most
            cudaGetLastError();
            throw cuda_error(e, "cudaMalloc", __FILE__, __LINE__,
                             std::to_string((count * sizeof(T) + (1 << 20) - 1) >> 20) + " MiB asked for");
        }
        d_n = count;
        ++cuda_allocations();
    }
    T* get() const { return d_p; }
    size_t size() const { return d_n; }
    //! the buffer holds a copy of host values (a synchronous copy: for set-up, not hot paths)
    void assign(const std::vector<T>& host)
    {
        resize(host.size());
        GPUFEC_CUDA_CHECK(cudaMemcpy(d_p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }

private:
    void release()
    {
        if (d_p)
            cudaFree(d_p);
        d_p = nullptr;
        d_n = 0;
    }
    T* d_p = nullptr;
    size_t d_n = 0;
};

//! Page-locked host memory, so copies run asynchronously at full link speed; where the driver
//! cannot pin memory it falls back to ordinary memory (copies then run synchronously).
template <typename T>
class pinned_buffer
{
public:
    pinned_buffer() = default;
    explicit pinned_buffer(size_t count) { resize(count); }
    ~pinned_buffer() { release(); }
    pinned_buffer(pinned_buffer&& o) noexcept
        : d_p(std::exchange(o.d_p, nullptr)), d_n(std::exchange(o.d_n, 0)),
          d_pinned(o.d_pinned)
    {
    }
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;
    void resize(size_t count)
    {
        if (count <= d_n)
            return;
        release();
        if (cudaMallocHost(reinterpret_cast<void**>(&d_p), count * sizeof(T)) == cudaSuccess) {
            d_pinned = true;
        } else {
            cudaGetLastError();
            d_p = static_cast<T*>(std::malloc(count * sizeof(T)));
            if (!d_p)
                throw std::bad_alloc();
            d_pinned = false;
        }
        d_n = count;
        ++cuda_allocations();
    }
    T* get() const { return d_p; }
    size_t size() const { return d_n; }
    bool pinned() const { return d_pinned; }

private:
    void release()
    {
        if (d_p) {
            if (d_pinned)
                cudaFreeHost(d_p);
            else
                std::free(d_p);
        }
        d_p = nullptr;
        d_n = 0;
    }
    T* d_p = nullptr;
    size_t d_n = 0;
    bool d_pinned = false;
};

//! true when `p` is page-locked host memory that the GPU can copy from asynchronously
inline bool is_pinned_host(const void* p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attr.type == cudaMemoryTypeHost;
}

/*! Lets `kernel` launch with up to `bytes` of dynamic shared memory on the current device. The
 *  limit is a property of the kernel function, shared by every decoder of the process: one
 *  decoder setting it to its own size would break another that needs more (two LDPC codes, two
 *  turbo sizes in one flowgraph). So it is raised to the device's opt-in maximum, never lowered;
 *  `bytes` beyond that maximum (less the kernel's static shared memory) throws, naming `what`. */
template <class F>
void allow_dynamic_shared(F* kernel, size_t bytes, const char* what)
{
    int dev = 0, optin = 0;
    GPUFEC_CUDA_CHECK(cudaGetDevice(&dev));
    GPUFEC_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    // the kernel's static shared memory comes out of the same opt-in maximum
    cudaFuncAttributes fa;
    GPUFEC_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    const size_t room = size_t(optin) > fa.sharedSizeBytes ? size_t(optin) - fa.sharedSizeBytes : 0;
    if (bytes > room)
        throw std::invalid_argument(std::string(what) + ": needs " + std::to_string(bytes + fa.sharedSizeBytes) +
                                    " bytes of shared memory per block; the GPU has " + std::to_string(optin));
    GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(room)));
}

} // namespace gpufec

#endif
