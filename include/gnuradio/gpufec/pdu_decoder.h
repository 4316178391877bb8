/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_PDU_DECODER_H
#define INCLUDED_GPUFEC_PDU_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief The PDU face of every frame family: PDUs of soft values in, PDUs of decoded bits out.
 * \ingroup gpufec
 *
 * Message port "pdus" in: (metadata, vector) with a whole number of frames of soft values:
 * f32vector (positive = bit 1, quantised with `scale`) or s8vector / u8vector (int8 soft
 * values). Message port "pdus" out: the input metadata plus "frames" (long), "iterations"
 * (s32vector, one per frame), "passed" (u8vector: the code's check, where the family has one)
 * and "erased" (u8vector), with the decoded bits as a u8vector (one bit per byte, or packed).
 * With soft_output, families that have one (LDPC: the posterior LLRs of every code bit, the
 * convention of the input: positive = bit 1) add "soft_out" (f32vector, the frames' values
 * back to back).
 * Families whose frames vary in length (turbo with `code=lte:any`, where K follows from the
 * length) take one frame per PDU, of any length the decoder accepts; the output PDU holds that
 * frame's bits. A length the decoder does not take is dropped like a bad PDU.
 * PDUs of several frames, and PDUs that arrive close together, are decoded in one batch,
 * asynchronously; output PDUs leave in the order their inputs came. An empty PDU, a length that
 * is not a whole number of frames, or a PDU that is not (dict, vector of those types) is dropped,
 * logged and counted (dropped_pdus()).
 * With options_key (e.g. "ldpc_options", which nr_segmenter writes), a PDU whose metadata holds
 * a string there is decoded by a decoder of the block's options with those on top (a 5G NR
 * code block of any transport block size: "code=nr:bg1:240, shorten=5024:5280"), made on first
 * use and kept (up to 8; the longest unused idle one gives way); PDUs without it take the
 * block's own. Output PDUs still leave in the order they came; options that make no decoder
 * drop the PDU with the reason.
 */
class GPUFEC_API pdu_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<pdu_decoder> sptr;

    static sptr make(const std::string& family,
                     const std::string& options = "",
                     const std::string& device = "auto",
                     int max_batch = 0,
                     bool packed_output = false,
                     float scale = 32.0f,
                     bool soft_output = false,
                     const std::string& options_key = "");

    virtual std::string backend() const = 0;
    virtual int input_per_frame() const = 0;
    virtual uint64_t pdus() const = 0;         //!< PDUs decoded and sent
    virtual uint64_t dropped_pdus() const = 0; //!< PDUs refused (see above)
    virtual uint64_t failed_frames() const = 0;
    virtual uint64_t nan_count() const = 0;    //!< NaN soft values seen (decoded as erasures)
    /*! Changes a setting while the block runs: max_iterations, early_termination, scaling,
     *  normalization or offset, where the family has it (others, or a value the family refuses,
     *  throw std::invalid_argument / ValueError and change nothing). The decoder is made again
     *  with the new value and takes over from the next batch. */
    virtual void set_option(const std::string& key, const std::string& value) = 0;
    virtual void set_max_iterations(int n) = 0;      //!< set_option("max_iterations", n)
    virtual void set_early_termination(bool on) = 0; //!< set_option("early_termination", on)
};

} // namespace gpufec
} // namespace gr

#endif
