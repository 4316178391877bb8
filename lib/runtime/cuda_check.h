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

//! A failed CUDA call: the message names the call, the error and where it happened.
class cuda_error : public std::runtime_error
{
public:
    cuda_error(cudaError_t code, const char* call, const char* file, int line)
        : std::runtime_error(std::string("CUDA error in ") + call + ": " +
                             cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") at " +
                             file + ":" + std::to_string(line)),
          d_code(code)
    {
    }
    cudaError_t code() const { return d_code; }

private:
    cudaError_t d_code;
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
