/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Submit a batch, collect it later, in order: a batch_decoder run by a thread of its own over
 * a ring of batch slots, so the caller fills batch i+1 (copying or quantising soft values into
 * the slot) while batch i is decoded and batch i-1 read out. The slots are sized once, for
 * `batch_frames` frames, in page-locked memory where a CUDA driver is present, so the GPU
 * engines copy them without staging and nothing is allocated afterwards. */
#ifndef INCLUDED_GPUFEC_CORE_ASYNC_DECODER_H
#define INCLUDED_GPUFEC_CORE_ASYNC_DECODER_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace gpufec {

class slot_ring; // (lib/runtime/slot_ring.h: an internal of the library)

class async_decoder
{
public:
    //! one batch: the caller fills soft (and lengths), the decoder the outputs
    struct slot {
        int8_t* soft = nullptr;  //!< int8 input, batch_frames * input_per_frame (or ...)
        float* soft_f = nullptr; //!< ... float input, where the decoder wants_float_input()
        size_t* lengths = nullptr; //!< per-frame input lengths (variable-length families)
        size_t frames = 0;       //!< frames filled
        size_t used = 0;         //!< soft values filled
        uint8_t* bits = nullptr; //!< output, output_bytes(packed) per frame
        frame_status* status = nullptr;
        float* soft_out = nullptr; //!< where asked for
        size_t read = 0;         //!< frames the caller has read out (its own bookkeeping)
    };

    struct options {
        size_t batch_frames = 0; //!< 0: the decoder's preferred_batch()
        int depth = 3;           //!< slots: one filling, the others decoding or waiting to be read
        bool packed = false;
        bool soft_output = false;
        bool variable_lengths = false; //!< the caller fills slot::lengths
    };

    /*! fallback: where given, a decode error (a GPU lost or out of memory) is logged, the
     *  decoder is replaced by fallback() and the batch decoded again; without it the error is
     *  rethrown by front(). */
    async_decoder(std::unique_ptr<batch_decoder> decoder,
                  const options& opts,
                  std::function<std::unique_ptr<batch_decoder>()> fallback = nullptr);
    ~async_decoder();
    async_decoder(const async_decoder&) = delete;
    async_decoder& operator=(const async_decoder&) = delete;

    //! the slot to fill next (the same one until submitted), or null when none is free
    slot* filling();
    /*! fn(n, piece) runs piece(a, b) over [0, n) (in parts, perhaps on several threads) and
     *  returns the sum of what the pieces return: how the caller splits large copies */
    using splitter = std::function<size_t(size_t, const std::function<size_t(size_t, size_t)>&)>;
    /*! Appends `frames` frames to the filling slot (there must be one, with room), in the type
     *  the slot holds: int8 copied, or widened for float decoders; float quantised with `scale`
     *  (quantize_soft), or kept for float decoders (sanitize_soft). Returns the NaNs seen. */
    size_t append(const int8_t* soft, size_t frames, const splitter& split = nullptr);
    size_t append(const float* soft, size_t frames, float scale, const splitter& split = nullptr);
    /*! Variable-length families (options::variable_lengths): appends one frame of `length`
     *  values and records its length; false (nothing appended) when the filling slot has no
     *  room for it (then submit and fill the next). The decoder checks the length. */
    bool append_frame(const int8_t* soft, size_t length);
    //! the same for float soft values (quantised with `scale`); adds the NaNs seen to `nans`
    bool append_frame(const float* soft, size_t length, float scale, size_t& nans);
    //! decode the filling slot (it must hold at least one frame)
    void submit();
    /*! the oldest submitted slot once decoded (wait: until it is), else null; rethrows what
     *  the decode threw (when there is no fallback) */
    slot* front(bool wait);
    //! the same, waiting at most max_wait for it to be decoded
    slot* front_within(std::chrono::microseconds max_wait);
    //! the caller has read the front slot: it becomes free
    void release_front();

    size_t batch_frames() const { return d_batch; }
    size_t capacity() const { return d_capacity; } //!< soft values a slot holds
    size_t in_flight() const;                       //!< submitted, not yet decoded
    size_t unreleased() const;                      //!< submitted, not yet released
    /*! the decoder in use (after a fallback or a replacement, the new one; a replaced one stays
     *  alive until collect_retired(), so a reference taken before stays good until then) */
    const batch_decoder& decoder() const;
    /*! A decoder of the same frames with other settings (a running block's max_iterations, say):
     *  it decodes from the next batch that starts on; `fallback` replaces the old fallback.
     *  Throws std::invalid_argument, changing nothing, where its frames differ (input, output,
     *  soft output, input type) from those of the decoder in use. */
    void replace_decoder(std::unique_ptr<batch_decoder> next, std::function<std::unique_ptr<batch_decoder>()> fallback);
    //! frees the decoders replaced so far (call where no reference from decoder() is held)
    void collect_retired();
    std::string backend() const;
    const options& opts() const { return d_opts; }

private:
    slot& room_for(size_t frames); // the filling slot, checked to hold `frames` more
    slot* room_for_frame(size_t length); // the filling slot if one more frame fits, else null
    void decode_slot(size_t i); // on the ring's thread (or in submit(): cpu_decodes_inline)

    std::shared_ptr<batch_decoder> d_dec; // (a batch being decoded holds it too)
    std::function<std::unique_ptr<batch_decoder>()> d_fallback;
    std::shared_ptr<batch_decoder> d_pending; // replace_decoder()'s, taken by the next batch
    std::function<std::unique_ptr<batch_decoder>()> d_pending_fallback;
    options d_opts;
    size_t d_batch = 0, d_capacity = 0;
    size_t d_in_per_frame = 0; // (every decoder that replaces the first keeps its frames)
    std::vector<std::unique_ptr<host_buffer>> d_buffers;
    std::vector<slot> d_slots;
    std::vector<std::shared_ptr<batch_decoder>> d_retired; // replaced decoders, until collect_retired()
    mutable std::mutex d_dec_mutex;                        // d_dec may be replaced
    /* GPU decoders, and CPU decoders on machines of more than 4 cores, get a decode thread of
     * their own; CPU decoders on small machines decode in submit(), on the caller's thread
     * (runtime/slot_ring.h: cpu_decodes_inline). */
    std::unique_ptr<slot_ring> d_ring; // last: its thread stops before the slots go
};

} // namespace gpufec

#endif
