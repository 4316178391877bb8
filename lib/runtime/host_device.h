/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* GPUFEC_HD marks the small functions that the CPU twins and the CUDA kernels share (the
 * fixed-point rules that make them give the same bits): inline host and device code under nvcc,
 * plain inline elsewhere. */
#ifndef INCLUDED_GPUFEC_RUNTIME_HOST_DEVICE_H
#define INCLUDED_GPUFEC_RUNTIME_HOST_DEVICE_H

#if defined(__CUDACC__)
#define GPUFEC_HD __host__ __device__ __forceinline__
#else
#define GPUFEC_HD inline
#endif

#endif
