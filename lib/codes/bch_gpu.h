/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Binary BCH decoding of many codewords on a GPU (bch_gpu.cu), with the CPU decoder's results
 * (bch_code::decode_packed): the same corrected words, the same failures. Engines run it on
 * their own stream after their inner decoder (DVB-S2: BCH after LDPC, on the packed decisions
 * where they lie); the host form is for tests. Built with CUDA only: without it
 * make_bch_gpu throws. */
#ifndef INCLUDED_GPUFEC_CODES_BCH_GPU_H
#define INCLUDED_GPUFEC_CODES_BCH_GPU_H

#include <gnuradio/gpufec/core/codes/bch.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gpufec {

struct frame_status;

class bch_gpu
{
public:
    virtual ~bch_gpu() = default;
    /*! Corrects `frames` codewords in device memory in place, on `stream` (a cudaStream_t):
     *  codeword f is the first n bits (packed, MSB first, the bits after n zero) at packed + f *
     *  stride. Where status is given: status[f].inner takes its check, check the BCH verdict
     *  (1 corrected or clean, 0 more errors than t, the word left as it came). Where corrected
     *  is given: bits corrected, or -1. Where message is given: codeword f's first
     *  message_bytes bytes (its message, where k is whole bytes) go to message + f *
     *  message_bytes too, once corrected (the frames of an LDPC + BCH decoder as its output
     *  wants them, without a pass on the host). Asynchronous. */
    virtual void decode(uint8_t* packed, size_t stride, size_t frames, frame_status* status, int* corrected,
                        void* stream, uint8_t* message = nullptr, size_t message_bytes = 0) const = 0;
    //! the same from host memory, synchronously (copies in and out: tests, not hot paths)
    virtual void decode_host(uint8_t* packed, size_t stride, size_t frames, int* corrected) const = 0;
};

/*! The decoder of `code` on CUDA device `device`: std::invalid_argument where the code is
 *  beyond it (t > 16), std::runtime_error without CUDA. */
std::unique_ptr<bch_gpu> make_bch_gpu(const bch_code& code, int device);

} // namespace gpufec

#endif
