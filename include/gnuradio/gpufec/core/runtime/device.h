/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_DEVICE_H
#define INCLUDED_GPUFEC_CORE_DEVICE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpufec {

/*! Where a decoder runs: "auto" (a usable CUDA GPU, else the CPU), "cpu", "cuda" (GPU 0)
 *  or "cuda:N". Parsing throws std::invalid_argument naming the allowed values. */
struct device_spec {
    enum class kind { automatic, cpu, cuda };
    kind type = kind::automatic;
    int index = 0;

    static device_spec parse(const std::string& text);
    std::string str() const;
};

struct gpu_info {
    int index;
    std::string name;
    int cc_major, cc_minor;
    size_t memory_bytes;
    int multiprocessors;
};

//! true when this library was built with CUDA support
bool cuda_compiled();
//! gr-gpufec's version ("0.1.0"), as its CMake project names it
const char* version();
//! the usable CUDA devices (empty without CUDA support, driver or GPU; never throws)
std::vector<gpu_info> cuda_devices();

/*! Device and page-locked buffers the decoders of this process have allocated so far (0
 *  without CUDA). Decoders allocate when built (and once on a first batch that needs staging
 *  or soft output), never per batch: the tests check it with this counter. */
uint64_t gpu_allocations();

//! The backend a device_spec resolves to on this machine.
struct backend_choice {
    bool cuda = false;
    int device = -1;
    std::string description; // "cpu" or "cuda:0 (NVIDIA H100 ...)"
};
/*! Resolves a spec. "auto" picks GPU 0 when usable, else the CPU, and logs the choice once per
 *  process. An explicit "cuda[:N]" that this machine cannot provide (no such GPU, or built
 *  without CUDA) throws std::invalid_argument (ValueError in Python). */
backend_choice resolve_backend(const device_spec& spec);

/*! Host memory for batches: page-locked where a CUDA driver is present (so copies to and
 *  from the GPU run at full link speed without a staging copy), ordinary memory elsewhere. */
class host_buffer
{
public:
    explicit host_buffer(size_t bytes);
    ~host_buffer();
    host_buffer(const host_buffer&) = delete;
    host_buffer& operator=(const host_buffer&) = delete;
    uint8_t* data() const { return d_p; }
    size_t size() const { return d_n; }
    bool pinned() const { return d_pinned; }

private:
    uint8_t* d_p = nullptr;
    size_t d_n = 0;
    bool d_pinned = false;
};

/*! The CPU threads that decoders share: every CPU decoder made without its own thread count
 *  (cpu_threads = 0) runs on one process-wide pool of this size (0: every core the process may
 *  run on - its affinity mask, so taskset, cpusets and MPI binding count - or the environment's
 *  GPUFEC_CPU_THREADS). Takes effect for decoders made afterwards. */
void set_cpu_threads(int threads);
int cpu_threads(); //!< the size the shared pool has (or will have)

//! Log sink for the library (GNU Radio blocks route it to GNU Radio's logger).
enum class log_level { debug, info, warn, error };
using log_handler = std::function<void(log_level, const std::string&)>;
void set_log_handler(log_handler handler);
void log(log_level level, const std::string& message);

} // namespace gpufec

#endif
