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

struct tvb_setup {
    tvb_code code;
    size_t N = 0;
    bsid_params channel;
    drift_limits frame, codeword; //!< the drift ranges (tvb_map_decoder's)
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
