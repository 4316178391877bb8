/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log turbo engines (turbo_fixed.h): the CPU one and the CUDA one give the
 * same bits, iteration counts and CRC results. Input in the streams layout (d0 | d1 | d2, K + 4
 * each), int8. With a CRC (turbo_options::crc) each engine checks it after every iteration and,
 * with early_termination, stops a frame once it passes (its decisions are those of that
 * iteration); without one, every frame runs max_iterations. */
#ifndef INCLUDED_GPUFEC_TURBO_ENGINE_H
#define INCLUDED_GPUFEC_TURBO_ENGINE_H

#include <gnuradio/gpufec/core/turbo/turbo.h>

#include "frame/frame_engine.h"
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

//! the CRC over the packed decisions of a code block of K bits: the data bytes, then the CRC's
//! bytes (K and the width are multiples of 8)
inline bool packed_crc_passes(const crc_spec& c, const uint8_t* bytes, size_t K)
{
    const size_t data = (K - size_t(c.width)) / 8;
    uint32_t sent = 0;
    for (size_t i = data; i < K / 8; ++i)
        sent = sent << 8 | bytes[i];
    return crc_bytes(c, bytes, data) == sent;
}

//! the fixed-point engines: frame engines (frame/frame_engine.h) of int8 frames in the streams layout
class turbo_engine : public frame_engine
{
public:
    void run(const engine_batch& in, const engine_output& out) final
    {
        if (in.soft4)
            decode_soft4(in.soft4, in.frames, out.packed, out.status);
        else
            decode(in.soft, in.frames, out.packed, out.status);
    }
    //! frames x (3K + 12) int8 in, frames x K / 8 bytes of decisions out (packed, MSB first; the
    //! CRC, where there is one, ends them), and per frame the iterations run and the CRC result
    //! (-1: no CRC)
    virtual void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) = 0;
    //! the same from packed 4-bit values (engines whose takes_soft4() says so)
    virtual void decode_soft4(const uint8_t*, size_t, uint8_t*, frame_status*)
    {
        throw std::logic_error("turbo engine: no packed 4-bit input");
    }
};

/*! Where each soft value a fixed-point engine reads sits in a frame (-1: not sent, read as 0):
 *  the systematic values (K), the parities of each encoder [e][j][k] (2 x NP x K), and each
 *  encoder's tail [e][t][0: sys, 1..: parities] (2 x TAIL x (1 + NP)). LTE frames come in the
 *  streams layout whatever the code's layout (the family converts). */
struct turbo_value_map {
    int NP = 0, TAIL = 0;
    std::vector<int32_t> at_sys, at_par, at_tail;
};
turbo_value_map make_turbo_value_map(const turbo_code& code);

/*! throws std::invalid_argument unless `window`, `training` and the CRC suit the fixed-point
 *  decoders (turbo_fixed.h) */
void check_fixed_window(const turbo_code& code, int window, int training, const std::string& crc = "");
//! `window`: stages per window, a multiple of 8 up to turbo_fx::MAX_WINDOW; the SIMD engine
//! (a group of frames per vector, turbo_fixed_lanes.cc)
std::unique_ptr<turbo_engine> make_turbo_fixed_cpu(const turbo_code& code, const turbo_options& o, int window);
//! the fully parallel decoder (FPTD) with max-log in fixed point (LTE), a frame per pool task
std::unique_ptr<turbo_engine> make_turbo_fptd_fixed_cpu(const turbo_code& code, const turbo_options& o);
//! the scalar engine, a frame at a time, state by state (the readable twin the tests compare with)
std::unique_ptr<turbo_engine> make_turbo_fixed_scalar(const turbo_code& code, const turbo_options& o, int window);
//! LTE K of a frame of n soft values (3K + 12), or 0 where n is no such length
int lte_k_of_length(size_t n);

#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<turbo_engine> make_turbo_cuda(const turbo_code& code, const turbo_options& o, int window,
                                              int device, size_t max_batch);
/*! frames of every LTE K in one batch (engine_batch::lengths: 3K + 12 each, the streams
 *  layout), each decoded as make_turbo_cuda's engine for its K decodes it, where it lies in the
 *  batch (no gather); decisions at a stride of 6144 / 8 bytes */
std::unique_ptr<frame_engine> make_turbo_cuda_any_k(const turbo_options& o, int window, int device,
                                                    size_t max_batch);
//! the CCSDS codes: the CPU SIMD engine's int32 arithmetic (and CRC early stop), a thread per
//! window of a frame (windows up to 32 stages)
std::unique_ptr<turbo_engine> make_turbo_ccsds_cuda(const turbo_code& code, const turbo_options& o, int window,
                                                    int device, size_t max_batch);
//! the fully parallel decoder with max-log (fptd_max_log), a cluster of blocks per frame; in
//! float, or (fixed) in int16, the bits of make_turbo_fptd_fixed_cpu
std::unique_ptr<turbo_engine> make_turbo_fptd_cuda(const turbo_code& code, const turbo_options& o, int device,
                                                   size_t max_batch, bool fixed = false);
#endif

} // namespace gpufec

#endif
