/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_RUNTIME_CUDA_CHECK_H
#define INCLUDED_GPUFEC_RUNTIME_CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace gpufec {

/*! A failed CUDA call: the message names the call and the error, and for memory how much the
 *  GPU had free (users see it: no source paths; where it happened is kept in file() and line()). */
class cuda_error : public std::runtime_error
{
public:
    cuda_error(cudaError_t code, const char* call, const char* file, int line, const std::string& more = "")
        : std::runtime_error(message(code, call, more)), d_code(code), d_file(file), d_line(line)
    {
    }
    cudaError_t code() const { return d_code; }
    const char* file() const { return d_file; }
    int line() const { return d_line; }

private:
    static std::string message(cudaError_t code, const char* call, const std::string& more)
    {
        std::string m = std::string("CUDA error in ") + call + ": " + cudaGetErrorName(code) + " (" +
                        cudaGetErrorString(code) + ")" + (more.empty() ? "" : "; " + more);
        if (code == cudaErrorMemoryAllocation) {
            size_t free = 0, total = 0;
            int dev = -1;
            if (cudaGetDevice(&dev) == cudaSuccess && cudaMemGetInfo(&free, &total) == cudaSuccess)
                m += "; GPU " + std::to_string(dev) + " has " + std::to_string(free >> 20) + " MiB free of " +
                     std::to_string(total >> 20) + " MiB";
            cudaGetLastError(); // (the query may have failed too: clear it)
        }
        return m;
    }
    cudaError_t d_code;
    const char* d_file;
    int d_line;
};

} // namespace gpufec

//! Every CUDA runtime call goes through this: errors become gpufec::cuda_error.
#define GPUFEC_CUDA_CHECK(call)                                                   \
    do {                                                                          \
        const cudaError_t gpufec_err_ = (call);                                   \
        if (gpufec_err_ != cudaSuccess)                                           \
            throw ::gpufec::cuda_error(gpufec_err_, #call, __FILE__, __LINE__);   \
    } while (0)

//! After a kernel launch: launch-configuration errors surface here.
#define GPUFEC_CUDA_CHECK_LAUNCH(what) GPUFEC_CUDA_CHECK(cudaPeekAtLastError())

#endif
