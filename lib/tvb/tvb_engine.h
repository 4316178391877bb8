/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The TVB family's GPU engine: frames of varying length in (int8, the sign is the bit), each
 * frame's symbols and optionally its APPs out, the same numbers as tvb_map_decoder. */
#ifndef INCLUDED_GPUFEC_TVB_ENGINE_H
#define INCLUDED_GPUFEC_TVB_ENGINE_H

#include <gnuradio/gpufec/core/tvb.h>
#include <memory>
#include <string>

namespace gpufec {

/*! Where the GPU keeps the receiver metrics (gamma): all of a chunk's in device memory
 *  (global: each computed once) or one symbol's at a time per frame (local: computed twice,
 *  in the forward and in the backward pass, for frames whose gamma would not leave room for
 *  enough frames at once); automatic chooses from the memory gamma needs. */
enum class tvb_storage { automatic, global, local };
//! "auto" | "global" | "local"; else std::invalid_argument
tvb_storage parse_tvb_storage(const std::string& s);

struct tvb_setup {
    tvb_code code;
    size_t N = 0;
    bsid_params channel;
    drift_limits frame, codeword; //!< the drift ranges (tvb_map_decoder's)
    tvb_precision precision = tvb_precision::float64;
    tvb_storage storage = tvb_storage::automatic;
};

class tvb_engine
{
public:
    virtual ~tvb_engine() = default;
    virtual std::string name() const = 0;
    /*! frames back to back (lengths[f] values each, within the drift range); symbols: N per
     *  frame; app: N x q per frame or null; erased: per frame (end drift outside the range) */
    virtual void decode(const int8_t* soft, const size_t* lengths, size_t frames, uint16_t* symbols, float* app,
                        uint8_t* erased) = 0;
};

#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<tvb_engine> make_tvb_cuda(const tvb_setup& s, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
