/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_FRAME_DECODER_H
#define INCLUDED_GPUFEC_FRAME_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Decodes fixed-size frames of any frame family (LDPC, Viterbi frames, repetition,
 * ...) on a GPU or the CPU, asynchronously in batches.
 * \ingroup gpufec
 *
 * Soft values in (float, positive = bit 1, or int8), decoded bits out (one per byte, or
 * packed). work() copies incoming frames into page-locked batch slots and hands full batches
 * to the decoder's own thread, returning frames of earlier batches, so copies, transfers and
 * kernels of consecutive batches overlap. When the input stalls the batch goes out as it is;
 * at the end of a stream everything is decoded and delivered.
 *
 * Tags, at the first output item of a frame: "<family>_iterations" (families that iterate),
 * "<family>_<check>" (families with a check: ldpc_syndrome_ok), "<family>_corrected" (families
 * that count corrections: rs_corrected, symbols; -1 for a failure), "<family>_erased" (true, only
 * on frames whose soft values were all zero or NaN). status_tags says which frames get them:
 * "failures" (default: frames whose check failed or that were erased), "all", or "none"; the
 * counters (frames(), failed_frames(), erased_frames(), mean_iterations()) count every frame.
 * Input tags move to the start of the output of the frame they fell in.
 *
 * Tagged-stream face (length_tag_key, e.g. "packet_len"): input packets marked by that tag, each
 * a whole number of frames, come out as packets of their decoded frames, with the tag's value
 * set to the output length. A packet whose length is not a whole number of frames, and items
 * outside any packet, are dropped, counted (dropped_packets(), dropped_items()) and logged;
 * empty packets give no output. Families whose frames vary in length (turbo with
 * `code=lte:any`: K follows from the length) need this face (or the PDU face): each packet is
 * one frame of any length the decoder accepts, and comes out as a packet of that frame's bits;
 * input_per_frame() and output_per_frame() are then the longest frame's.
 *
 * family: a registered family (frame_families()); options: "key=value, ..." as that family
 * documents (frame_family_options(family)).
 */
class GPUFEC_API frame_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<frame_decoder> sptr;

    static sptr make(const std::string& family,
                     const std::string& options = "",
                     const std::string& device = "auto",
                     int max_batch = 0,
                     const std::string& input_type = "float",
                     bool packed_output = false,
                     float scale = 32.0f,
                     const std::string& status_tags = "failures",
                     const std::string& length_tag_key = "");

    virtual std::string backend() const = 0;
    virtual std::string code_description() const = 0;
    virtual int input_per_frame() const = 0;  //!< input items per frame
    virtual int output_per_frame() const = 0; //!< output items per frame
    virtual int batch_frames() const = 0;     //!< frames per batch slot
    virtual uint64_t frames() const = 0;          //!< decoded and delivered so far
    virtual uint64_t failed_frames() const = 0;   //!< whose check failed (or erased, with a check)
    virtual uint64_t erased_frames() const = 0;   //!< all soft values zero or NaN
    virtual double mean_iterations() const = 0;
    virtual uint64_t nan_count() const = 0;       //!< NaN soft values seen
    virtual uint64_t dropped_items() const = 0;   //!< input items that made no whole frame
    //! tagged-stream face: packets dropped (length not a whole number of frames, or cut short)
    virtual uint64_t dropped_packets() const = 0;
    /*! Changes a setting while the block runs: max_iterations, early_termination, scaling,
     *  normalization or offset, where the family has it (others, or a value the family refuses,
     *  throw std::invalid_argument / ValueError and change nothing). The decoder is made again
     *  with the new value and takes over from the next batch; frames already in a batch are
     *  decoded with the old one. (GRC calls these when a variable they use changes.) */
    virtual void set_option(const std::string& key, const std::string& value) = 0;
    virtual void set_max_iterations(int n) = 0;      //!< set_option("max_iterations", n)
    virtual void set_early_termination(bool on) = 0; //!< set_option("early_termination", on)
};

} // namespace gpufec
} // namespace gr

#endif
