/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CONV_ENCODER_BLOCK_H
#define INCLUDED_GPUFEC_CONV_ENCODER_BLOCK_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

/*!
 * \brief Convolutional encoder for every code gpufec.viterbi_decoder decodes.
 * \ingroup gpufec
 *
 * \details
 * Input: bits, one per byte (bit 0 used). Output: coded bits, one per byte, punctured when
 * the code has a puncturing pattern. The code and mode parameters mean what they mean for
 * gpufec.viterbi_decoder. Streaming starts in state 0 and goes on forever; frame modes encode
 * frames of `frame_bits` bits (terminated frames get K-1 tail stages).
 */
class GPUFEC_API conv_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<conv_encoder> sptr;

    static sptr make(const std::string& code = "ccsds",
                     int k = 7,
                     const std::vector<int>& polys = std::vector<int>{ 79, -109 },
                     const std::vector<int>& puncture = std::vector<int>(),
                     const std::string& mode = "streaming",
                     int frame_bits = 1024);

    virtual std::string code_description() const = 0;
    //! coded bits per frame (frame modes)
    virtual int output_per_frame() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
