/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_VITERBI_H
#define INCLUDED_GPUFEC_CORE_VITERBI_H

#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

class vit_engine;
class viterbi_frames_engine;
struct vit_params;

struct viterbi_options {
    conv_mode mode = conv_mode::streaming;
    int frame_bits = 0;     //!< frame modes: information bits per frame
    int block_len = 512;    //!< D: decoded stages per parallel block (streaming; multiple of 8)
    int traceback = 0;      //!< L: overlap / traceback stages; 0 picks 6*K (12*K when punctured)
    int max_batch = 0;      //!< jobs (blocks or frames) per GPU chunk; 0 picks automatically
    int cpu_threads = 0;    //!< CPU path: worker threads; 0 uses every core
    bool cpu_reference = false; //!< CPU path: the plain reference decoder instead of the fast one

    int traceback_for(const conv_code& code) const
    {
        return traceback > 0 ? traceback : (code.puncture.empty() ? 6 : 12) * code.k;
    }
};

/*! Soft input convention (gr-fec's): positive means bit 1. int8 values use the full range
 *  [-127, 127] (-128 acts as -127); 0 is an erasure. See docs/soft_input.md. */

//! Decodes whole frames (terminated, tail-biting or truncated modes).
class viterbi_frame_decoder
{
public:
    viterbi_frame_decoder(const conv_code& code,
                          const viterbi_options& options,
                          const device_spec& device = device_spec{});
    ~viterbi_frame_decoder();
    viterbi_frame_decoder(const viterbi_frame_decoder&) = delete;
    viterbi_frame_decoder& operator=(const viterbi_frame_decoder&) = delete;

    size_t input_per_frame() const;  //!< soft values
    size_t output_per_frame() const; //!< bits
    /*! Decodes `frames` frames. Output: one bit per byte, or packed MSB first when `packed`
     *  (ceil(frame_bits / 8) bytes a frame). Blocking, host memory to host memory. */
    void decode(const int8_t* soft, size_t frames, uint8_t* out, bool packed = false);
    //! sizes the engine for decodes of up to `frames` frames now, so none allocates later
    void reserve(size_t frames);
    std::string backend() const;
    const conv_code& code() const;

private:
    std::unique_ptr<viterbi_frames_engine> d_engine;
    std::vector<uint8_t> d_packed;
    std::vector<frame_status> d_status;
};

/*! Decodes one endless stream with the parallel block-based Viterbi algorithm (PBVD).
 *
 *  The stream is cut into blocks of D stages; block p is decoded from stages
 *  [pD - L, pD + D + L). Output bit i is the decoder's estimate of input bit i, with nothing
 *  inserted, dropped or reordered, whatever sizes push() is called with. Block p is emitted once
 *  stage pD + D + L - 1 has been pushed: the latency is D + L stages at most; the last blocks
 *  of a stream that ends stay in the decoder. */
class viterbi_stream_decoder
{
public:
    viterbi_stream_decoder(const conv_code& code,
                           const viterbi_options& options,
                           const device_spec& device = device_spec{});
    ~viterbi_stream_decoder();
    viterbi_stream_decoder(const viterbi_stream_decoder&) = delete;
    viterbi_stream_decoder& operator=(const viterbi_stream_decoder&) = delete;

    //! push() takes soft values in multiples of this (the kept outputs of a puncturing period)
    size_t input_multiple() const { return d_code.kept_per_period(); }
    //! stages (= output bits) per input_multiple() soft values
    size_t stages_per_multiple() const { return d_code.period(); }
    /*! Appends soft values and decodes the blocks that became complete. With `defer`, blocks
     *  are held back until at least batch_hint() of them are ready (the engines are much more
     *  efficient on batches); push(nullptr, 0) or a push without defer decodes all of them. */
    void push(const int8_t* soft, size_t count, bool defer = false);
    //! blocks per decode that keep the engine efficient (16 SIMD lanes on the CPU)
    static constexpr int64_t batch_hint() { return 16; }
    //! decoded bits waiting to be read (always a multiple of 8)
    size_t available() const { return (d_out.size() - d_out_read) * 8; }
    //! Reads up to max_bits decoded bits (a multiple of 8 when packed); returns bits read.
    size_t read(uint8_t* out, size_t max_bits, bool packed = false);
    //! back to the start of a new stream
    void reset();

    /*! Stateless: decodes blocks [first_pb, first_pb + n_pbs) of a stream whose soft values
     *  from stage `stage0` (a multiple of the puncturing period) are in `soft`, into packed
     *  bits (n_pbs * D / 8 bytes). Used by benchmarks and by push(). */
    void decode_blocks(const int8_t* soft,
                       size_t soft_len,
                       int64_t stage0,
                       int64_t first_pb,
                       int64_t n_pbs,
                       uint8_t* out_packed);

    /*! decode_blocks() from packed 4-bit soft values (pack_soft4, runtime/soft.h): soft_len
     *  values in (soft_len + 1) / 2 bytes, half the bytes to move to a GPU. The same bits as
     *  decode_blocks() on unpack_soft4 of them. Needs a code that keeps an even number of soft
     *  values per puncturing period (std::invalid_argument otherwise). */
    void decode_blocks_soft4(const uint8_t* soft4,
                             size_t soft_len,
                             int64_t stage0,
                             int64_t first_pb,
                             int64_t n_pbs,
                             uint8_t* out_packed);

    /*! Benchmarks: seconds per decode_blocks() of the device kernels alone (data already on
     *  the GPU, no transfers); negative on the CPU path. soft_bits 4: `soft` is packed. */
    double time_kernels_only(const int8_t* soft, size_t soft_len, int64_t n_pbs, int reps, int soft_bits = 8);

    //! sizes the engine for decodes of up to max_blocks blocks now, so none allocates later
    void reserve(int64_t max_blocks);

    int block_len() const { return d_opts.block_len; }
    int traceback() const { return d_L; }
    std::string backend() const;
    const conv_code& code() const { return d_code; }

private:
    vit_params stream_params(int soft_bits = 8) const;
    void decode_blocks_as(int soft_bits, const int8_t* soft, size_t soft_len, int64_t stage0, int64_t first_pb,
                          int64_t n_pbs, uint8_t* out_packed);
    conv_code d_code;
    viterbi_options d_opts;
    device_spec d_device; // (a GPU whose buffers do not fit falls back by the device rule)
    int d_L;
    std::unique_ptr<vit_engine> d_engine;
    std::vector<int8_t> d_hist; // soft values from stage d_hist_stage0
    int64_t d_hist_stage0 = 0;
    int64_t d_stages = 0;       // stages pushed so far
    int64_t d_next_pb = 0;
    std::vector<uint8_t> d_out; // packed decoded bits
    size_t d_out_read = 0;
};

//! Picks and builds the engine for a backend (used by every Viterbi decoder).
std::unique_ptr<vit_engine> make_viterbi_engine(const conv_code& code,
                                                const viterbi_options& options,
                                                const device_spec& device);
std::string engine_name(const vit_engine& engine);

class batch_decoder;
class option_reader;
/*! The code that a "viterbi" options string names: code=<preset>, or code=custom with k, polys
 *  and puncture (as the viterbi family and the apps read it). */
conv_code conv_code_from_options(option_reader& options);

//! The frame modes behind the batch_decoder interface (what the blocks and apps use).
std::unique_ptr<batch_decoder> make_viterbi_frame_decoder(const conv_code& code,
                                                          const viterbi_options& options,
                                                          const device_spec& device);

} // namespace gpufec

#endif
