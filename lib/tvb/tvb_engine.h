/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The TVB family's GPU engine: frames of varying length in (int8, the sign is the bit), each
 * frame's symbols and optionally its APPs out, the same numbers as tvb_map_decoder. */
#ifndef INCLUDED_GPUFEC_TVB_ENGINE_H
#define INCLUDED_GPUFEC_TVB_ENGINE_H

#include <gnuradio/gpufec/core/tvb/tvb.h>

#include <gnuradio/gpufec/core/runtime/bits.h>

#include "frame/frame_engine.h"
#include <algorithm>
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

//! bits of a symbol of an alphabet of q
inline int tvb_symbol_bits(int q)
{
    int b = 0;
    while ((1 << b) < q)
        ++b;
    return b;
}

//! N symbols to their bits (sb each, MSB first), packed MSB first
inline void pack_tvb_symbols(const uint16_t* symbols, size_t N, int sb, uint8_t* packed)
{
    const size_t bits = N * size_t(sb);
    std::fill(packed, packed + (bits + 7) / 8, uint8_t(0));
    for (size_t i = 0, at = 0; i < N; ++i)
        for (int k = sb - 1; k >= 0; --k, ++at)
            set_packed_bit(packed, at, symbols[i] >> k);
}

/* The engines are frame engines (frame/frame_engine.h): frames back to back (lengths[f] values
 * each, within the drift range; no lengths: every frame the longest), the N symbols' bits
 * packed, APPs (N x q a frame) as the soft output, and a frame whose end drift falls outside
 * the range marked erased. */
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<frame_engine> make_tvb_cuda(const tvb_setup& s, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
