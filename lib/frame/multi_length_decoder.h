/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Frames of several codes of one family in one batch, told apart by their length: a code
 * block of an LTE transport block is one of two turbo sizes, and a receiver that serves
 * several allocations sees all 188. The decoder groups a batch's frames by length, decodes
 * each group with a decoder made for that length (kept for later batches, the least recently
 * used dropped beyond a few), and puts every frame's results back in the batch's order, at the
 * longest frame's stride (frame_batch's rule for variable-length families). A group whose
 * frames are not back to back in the batch is gathered first (frames in parallel on the CPU
 * pool; for a GPU decoder into page-locked memory, grown as groups grow). For a GPU decoder
 * the groups go in pieces of about `piece_bytes` of input, and a helper thread gathers the
 * next piece while the GPU decodes one: for a fast code the gather, not the decoding, would
 * otherwise set the pace (docs/performance.md). A family whose GPU engine takes every length in
 * one batch (make_mixed: LTE turbo) skips the groups there. */
#ifndef INCLUDED_GPUFEC_FRAME_MULTI_LENGTH_DECODER_H
#define INCLUDED_GPUFEC_FRAME_MULTI_LENGTH_DECODER_H

#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <functional>
#include <memory>
#include <string>

namespace gpufec {

struct multi_length_spec {
    std::string describe;     //!< the codes, in words ("LTE turbo, any K, ...")
    std::string lengths_text; //!< the accepted lengths, in words, for errors
    size_t min_input = 0, max_input = 0;
    std::function<bool(size_t)> accepts;          //!< a length decodable by some code
    std::function<size_t(size_t)> output_bits_for; //!< decoded bits of a frame of that length
    std::function<size_t(size_t)> soft_output_for; //!< soft output values (0: none)
    //! the decoder for frames of one length (made on first use; sized for `batch` frames)
    std::function<std::unique_ptr<batch_decoder>(size_t length)> make;
    size_t batch = 0;       //!< frames per call
    size_t keep = 8;        //!< decoders kept (each holds buffers for `batch` frames)
    /*! where set: a decoder of whole batches of these lengths (variable input; a frame's results
     *  at the longest frame's stride, its own output_bits_for(n) leading bits), made once with
     *  the wrapper and then used for every batch of int8 input without soft output instead of
     *  the groups (a GPU engine that reads each frame where it lies: no gather, one pipeline for
     *  the batch). It returns null where it does not apply (a CPU): the groups then. */
    std::function<std::unique_ptr<batch_decoder>()> make_mixed;
    //! input bytes of a piece that is gathered while the one before is decoded; 0: 64 MB for a
    //! GPU decoder, whole groups without a helper thread for a CPU one (whose decoding uses
    //! every core anyway)
    size_t piece_bytes = 0;
};

/*! The wrapper; it makes the decoder of max_input at once (so bad options fail here and its
 *  properties - family, backend, check, iterations, float input - stand for every length). */
std::unique_ptr<batch_decoder> make_multi_length_decoder(multi_length_spec spec);

} // namespace gpufec

#endif
