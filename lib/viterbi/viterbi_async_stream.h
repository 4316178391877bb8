/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The streaming Viterbi decoder, asynchronous: soft values are copied once, straight into
 * page-locked batch slots (each slot holds the stages of `batch` parallel blocks plus their
 * overlap), and a thread of its own decodes full slots while the caller fills the next one and
 * reads earlier ones. Output bit i is the estimate of input bit i, whatever sizes push() and
 * read() are called with: the same bits as viterbi_stream_decoder. */
#ifndef INCLUDED_GPUFEC_CORE_VITERBI_ASYNC_STREAM_H
#define INCLUDED_GPUFEC_CORE_VITERBI_ASYNC_STREAM_H

#include "runtime/slot_ring.h"
#include <gnuradio/gpufec/core/viterbi/viterbi.h>
#include <memory>
#include <mutex>
#include <vector>

namespace gpufec {

class cpu_pool;

class viterbi_async_stream
{
public:
    /*! batch: parallel blocks per slot (0: 32768 on a GPU; on the CPU 512, 256 a core on
     *  machines of more than four, at most 2^22 stages); depth: slots. With device "auto", a
     *  decoder that fails (a GPU lost) is replaced by a CPU one, logged. */
    viterbi_async_stream(const conv_code& code,
                         const viterbi_options& options,
                         const device_spec& device,
                         int batch = 0,
                         int depth = 3);
    ~viterbi_async_stream();
    viterbi_async_stream(const viterbi_async_stream&) = delete;
    viterbi_async_stream& operator=(const viterbi_async_stream&) = delete;

    size_t input_multiple() const { return size_t(d_code.kept_per_period()); }
    size_t stages_per_multiple() const { return size_t(d_code.period()); }

    /*! Takes up to `count` soft values (a multiple of input_multiple()); returns how many it
     *  took: fewer when every slot is decoding or waiting to be read. Float input is quantised
     *  into the slot (quantize_soft with `scale`), NaNs counted in *nans. */
    size_t push(const int8_t* soft, size_t count);
    size_t push(const float* soft, size_t count, float scale, size_t* nans);
    //! sends the complete blocks of the slot being filled (the input stalled, or ended)
    void flush();

    size_t available() const;  //!< decoded bits ready to read now (a multiple of 8)
    bool holds_output() const; //!< blocks inside that will be decoded or read
    size_t in_flight() const;  //!< slots submitted and not yet decoded
    int64_t pending_blocks() const; //!< complete blocks in the slot being filled
    uint64_t submitted_slots() const { return d_submitted; }   //!< batches sent so far
    uint64_t submitted_blocks() const { return d_submitted_blocks; }
    void wait();               //!< until the oldest submitted slot is decoded (rethrows its error)
    //! the same, for at most max_wait; true when the oldest slot is decoded
    bool wait_for(std::chrono::microseconds max_wait);
    //! Reads up to max_bits decoded bits (whole bytes); returns bits read.
    size_t read(uint8_t* out, size_t max_bits, bool packed);

    std::string backend() const;
    int block_len() const { return d_D; }
    int traceback() const { return d_L; }
    int batch() const { return d_batch; }

private:
    struct slot {
        std::unique_ptr<host_buffer> in, out;
        size_t held = 0;      // soft values in `in`, from stage0
        int64_t stage0 = 0;   // first stage held (a period boundary)
        int64_t first_pb = 0; // first block this slot decodes
        int64_t n_pbs = 0;    // blocks it decodes (set at submit)
        size_t read = 0;      // output bytes already read
    };
    template <class Copy>
    size_t push_any(size_t count, Copy&& copy);
    slot* filling_slot(); // null when none is free
    int64_t complete_blocks(const slot& s) const;
    void submit(slot& s, int64_t n);
    void decode_slot(size_t i); // on the ring's thread (or in submit(): cpu_decodes_inline)

    conv_code d_code;
    viterbi_options d_opts;
    device_spec d_device;
    int d_D, d_L, d_batch;
    size_t d_capacity; // soft values per slot
    std::unique_ptr<viterbi_stream_decoder> d_dec; // its decode_blocks(), on the ring's thread
    std::vector<std::unique_ptr<viterbi_stream_decoder>> d_retired;
    mutable std::mutex d_dec_mutex;                 // d_dec may be replaced (fallback)
    std::shared_ptr<cpu_pool> d_copy_pool;          // splits large copies into the slots
    std::vector<slot> d_slots;
    size_t d_filling = slot_ring::none;             // the slot being filled, if any
    std::vector<int8_t> d_carry; // the overlap the next slot starts with
    int64_t d_carry_stage0 = 0, d_next_pb = 0;
    uint64_t d_submitted = 0, d_submitted_blocks = 0;
    std::unique_ptr<slot_ring> d_ring; // last: its thread stops before the slots go
};

} // namespace gpufec

#endif
