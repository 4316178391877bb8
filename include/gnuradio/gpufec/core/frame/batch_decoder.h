/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one interface every frame family implements (LDPC, Viterbi's frame modes, repetition,
 * turbo, SCPPM and insertion/deletion). Blocks, apps and tests work on
 * this interface only; a family adds its decoder, a factory and one registration line
 * (frame_registry.h). */
#ifndef INCLUDED_GPUFEC_CORE_FRAME_DECODER_H
#define INCLUDED_GPUFEC_CORE_FRAME_DECODER_H

#include <gnuradio/gpufec/core/runtime/soft.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

class side_task;

/*! What a decoder says about one frame.
 *  check: 1 = the code's own check passed (LDPC syndrome, a CRC), 0 = it failed, -1 = the
 *  family has no check (Viterbi). erased: every soft value of the frame was 0 (no information:
 *  a dead input, NaNs, a gap); such a frame is decoded as usual but never counts as passed.
 *  inner: where an outer code follows the family's own (DVB-S2's BCH after LDPC), `check` is
 *  the outer code's verdict (1 = corrected or clean, 0 = too many errors) and `inner` the
 *  family's own check (the LDPC syndrome); -1 where there is no outer code. */
struct frame_status {
    int32_t iterations = 0; //!< iterations run (1 for families that do not iterate)
    int8_t check = -1;
    int8_t erased = 0;
    int8_t inner = -1;
    //! families that count their corrections (counts_corrections(): rs): the symbols the frame's
    //! codewords needed changed, summed; -1 where a codeword did not decode, or not counted
    int32_t corrected = -1;
    bool ok() const { return check != 0 && !erased; }
};

//! One batch, host memory to host memory. Frames lie back to back.
struct frame_batch {
    size_t frames = 0;
    const int8_t* soft = nullptr; //!< int8 soft values (positive = bit 1), or ...
    const float* soft_f = nullptr; //!< ... float, only for decoders with wants_float_input(), or ...
    /*! ... packed 4-bit values (pack_soft4, runtime/soft.h: two a byte, each standing for the int8
     *  value 16 q), every frame an even number of them (so that each starts on a byte). A decoder
     *  decodes them exactly as their unpack_soft4 values; one whose engine reads them packed
     *  (takes_soft4(): the LTE turbo and LDPC GPU engines) move half the bytes to the GPU, the
     *  others get them unpacked here. Not for decoders that want float input. */
    const uint8_t* soft4 = nullptr;
    /*! Variable-length families (variable_input()): the input length of each frame; null for
     *  fixed frames (every frame input_per_frame() values). */
    const size_t* input_lengths = nullptr;
    /*! output_bits() per frame: one per byte, or packed MSB first. Variable-length families
     *  write output_bits_for(length) of each frame at the same stride (output_bytes(packed),
     *  the longest frame's); the rest of the stride is left as it was. */
    uint8_t* bits = nullptr;
    bool packed = false;     //!< packed: ceil(output_bits / 8) bytes per frame
    frame_status* status = nullptr; //!< one per frame, or null
    //! soft_output_per_frame() per frame (where supported; variable families: soft_output_for(length)
    //! at that stride), or null
    float* soft_out = nullptr;
};

class batch_decoder
{
public:
    virtual ~batch_decoder();

    virtual std::string family() const = 0;   //!< "ldpc", "viterbi", "repetition", ...
    virtual std::string describe() const = 0; //!< the code, in words
    virtual std::string backend() const = 0;  //!< "cpu (...)" or "cuda:0 (NVIDIA ...)"
    bool on_gpu() const { return backend().rfind("cuda", 0) == 0; }

    virtual size_t input_per_frame() const = 0; //!< soft values (the longest, if variable)
    virtual size_t output_bits() const = 0;     //!< decoded bits per frame (the most, if variable)
    virtual bool variable_input() const { return false; }
    //! frames whose input is shorter / longer than these are refused (variable families)
    virtual size_t min_input_per_frame() const { return input_per_frame(); }
    /*! whether a frame of `length` soft values can be decoded (variable families whose valid
     *  lengths have gaps, e.g. turbo frames of any LTE K, say which; the default is the range
     *  min_input_per_frame() .. input_per_frame()) */
    virtual bool accepts_length(size_t length) const
    {
        return length >= min_input_per_frame() && length <= input_per_frame();
    }
    //! decoded bits of a frame of `length` soft values (variable families; else output_bits())
    virtual size_t output_bits_for(size_t /*length*/) const { return output_bits(); }
    //! soft output values of a frame of `length` soft values (where supported)
    virtual size_t soft_output_for(size_t /*length*/) const { return soft_output_per_frame(); }
    //! the lengths accepted, in words, for error messages ("132..18444, 3K + 12 for an LTE K")
    virtual std::string accepted_lengths() const;
    virtual bool has_check() const { return false; }
    //! what the check is called in tags and logs: "syndrome_ok", "crc_ok"
    virtual std::string check_name() const { return "check_ok"; }
    virtual bool iterates() const { return false; }
    //! whether frame_status::corrected is counted (the Reed-Solomon family: symbols)
    virtual bool counts_corrections() const { return false; }
    //! bits of one decoded symbol, MSB first (1 for binary codes; tvb: ceil(log2 q)), for symbol error rates
    virtual size_t symbol_bits() const { return 1; }
    virtual size_t soft_output_per_frame() const { return 0; } //!< 0: no soft output
    //! LDPC with float messages wants the float values themselves, not int8
    virtual bool wants_float_input() const { return false; }
    //! whether frame_batch::soft4 reaches the engine packed (else decode() unpacks it first)
    virtual bool takes_soft4() const { return false; }
    //! frames per call the decoder was sized for (a good batch for the block's slots)
    virtual size_t preferred_batch() const = 0;
    //! frames per call that keep the engine efficient; smaller calls still work
    virtual size_t min_efficient_batch() const { return 1; }

    /*! Decodes a batch, blocking. Checks the batch (throws std::invalid_argument naming what
     *  is wrong), then calls decode_checked(). Marks erased frames in the status. */
    void decode(const frame_batch& batch);

    /*! Float input: quantised here (quantize_soft, the one place), unless the decoder wants
     *  float. Returns how many values were NaN (decoded as erasures). */
    size_t decode_float(const float* soft, const frame_batch& rest, float scale = default_soft_scale);

    //! soft values in a batch (input_lengths summed, or frames * input_per_frame)
    size_t batch_input(const frame_batch& batch) const;
    /*! Benchmarks: seconds per decode of `frames` frames of int8 input in the device kernels
     *  alone (data already on the GPU, no transfers), the median of `reps`; negative where the
     *  decoder does not measure it (the CPU path, families without a GPU engine). */
    virtual double time_kernels(const int8_t* /*soft*/, size_t /*frames*/, int /*reps*/) { return -1; }

    //! bytes of output per frame in the given form
    size_t output_bytes(bool packed) const { return packed ? (output_bits() + 7) / 8 : output_bits(); }

protected:
    //! batch is checked; status is never null here (the base supplies scratch)
    virtual void decode_checked(const frame_batch& batch) = 0;
    /*! whether decode_checked() writes every frame's status whole; the base then does not reset
     *  them first (for a GPU batch of 16384 frames that reset is about 20 us before the first
     *  copy can start) */
    virtual bool writes_whole_status() const { return false; }

public:
    batch_decoder();
    batch_decoder(const batch_decoder&) = delete;
    batch_decoder& operator=(const batch_decoder&) = delete;

private:
    std::vector<frame_status> d_status; // when the caller passes none
    std::vector<int8_t> d_q;            // float input, quantised; packed input, unpacked
    std::vector<float> d_f;             // float input, as given (wants_float_input)
    std::vector<uint8_t> d_erased;      // per frame: all input values 0
    std::unique_ptr<side_task> d_side;  // scans large batches beside decode_checked()
    bool find_erased(const frame_batch& b); // fills d_erased; whether any frame is
};

} // namespace gpufec

#endif
