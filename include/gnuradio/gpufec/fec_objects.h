/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Every frame family as a gr-fec FECAPI object, so gr-fec's extended, async and tagged
 * decoders/encoders and its BER curve generator accept gr-gpufec's codes. gr-fec hands these
 * objects one frame per call, so they run on the CPU by default and give none of the batching
 * and GPU speed of gr-gpufec's own blocks (frame_decoder, ldpc_decoder, pdu_decoder). */
#ifndef INCLUDED_GPUFEC_FEC_OBJECTS_H
#define INCLUDED_GPUFEC_FEC_OBJECTS_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gpufec/api.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief A frame family's decoder as a gr::fec::generic_decoder.
 *
 * Input: float soft values, positive = bit 1 (gr-fec's convention; quantised with `scale`);
 * output: decoded bits, one per byte. get_iterations() gives the mean iterations so far.
 */
class GPUFEC_API fec_decoder : public gr::fec::generic_decoder
{
public:
    typedef std::shared_ptr<fec_decoder> sptr;
    static gr::fec::generic_decoder::sptr
    make(const std::string& family, const std::string& options = "", const std::string& device = "cpu",
         float scale = 32.0f);
    fec_decoder() : gr::fec::generic_decoder("gpufec_fec_decoder") {}
};

//! A frame family's encoder as a gr::fec::generic_encoder (bits in and out, one per byte).
class GPUFEC_API fec_encoder : public gr::fec::generic_encoder
{
public:
    typedef std::shared_ptr<fec_encoder> sptr;
    static gr::fec::generic_encoder::sptr make(const std::string& family, const std::string& options = "");
    fec_encoder() : gr::fec::generic_encoder("gpufec_fec_encoder") {}
};

} // namespace gpufec
} // namespace gr

#endif
