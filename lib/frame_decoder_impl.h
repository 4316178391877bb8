/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The one block behind every frame family: asynchronous batching over page-locked slots
 * (core/async_decoder.h), tags, counters, buffer sizing and the end of a stream. Family blocks
 * (ldpc_decoder, viterbi_decoder's frame modes) derive from it and only build the decoder. */
#ifndef INCLUDED_GPUFEC_FRAME_DECODER_IMPL_H
#define INCLUDED_GPUFEC_FRAME_DECODER_IMPL_H

#include <gnuradio/gpufec/core/frame/async_decoder.h>
#include <gnuradio/gpufec/frame_decoder.h>
#include "runtime/cpu_pool.h"
#include "runtime/partial_batch.h"
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

/*! How a block's decoder is made: a family by name, its options, the block's max_batch and
 *  the device. A running block makes it again with an option changed (set_option). */
class decoder_recipe
{
public:
    decoder_recipe(std::string family, ::gpufec::frame_options options, int max_batch, ::gpufec::device_spec device);
    std::unique_ptr<::gpufec::batch_decoder> make() const;
    //! with device "auto": the same decoder on the CPU, for when the GPU fails (else empty)
    std::function<std::unique_ptr<::gpufec::batch_decoder>()> fallback() const;
    /*! this recipe with `key` set to `value`; only options a running decoder can take without
     *  changing its frames (runtime_options()); others throw std::invalid_argument naming them */
    decoder_recipe with(const std::string& key, const std::string& value) const;
    //! max_iterations, early_termination, scaling, normalization, offset
    static const std::vector<std::string>& runtime_options();

private:
    std::string d_family;
    ::gpufec::frame_options d_options;
    ::gpufec::device_spec d_device;
};

struct frame_block_settings {
    bool float_input = true;
    bool packed = false;
    float scale = 32.0f;
    //! which frames get status tags: every frame, only those that failed or were erased, none
    enum class tags { all, failures, none } status_tags = tags::failures;
    int max_batch = 0; //!< frames per batch slot; 0 = the decoder's preferred batch
    //! tagged-stream face: packets marked by this length tag, each a whole number of frames
    //! (empty: the stream face)
    std::string length_tag_key;
    //! with device "auto": builds the same decoder on the CPU when the GPU fails mid-stream
    std::function<std::unique_ptr<::gpufec::batch_decoder>()> fallback;
    //! how the decoder was made, for settings changed while it runs (null: none can change)
    std::shared_ptr<const decoder_recipe> recipe;
};

/*! A running block's settings change (the blocks' set_option): the decoder is made again from
 *  `recipe` with the option changed and takes over from the next batch; returns the new recipe.
 *  Throws std::invalid_argument (nothing changes) where the option cannot change while running,
 *  or its value is not valid. */
std::shared_ptr<const decoder_recipe> change_setting(::gpufec::async_decoder& async,
                                                     const std::shared_ptr<const decoder_recipe>& recipe,
                                                     const std::string& key,
                                                     const std::string& value);

//! the settings of the parameters the frame blocks share (checked; throw naming them)
frame_block_settings make_block_settings(const std::string& input_type,
                                         bool packed_output,
                                         float scale,
                                         const std::string& status_tags,
                                         const std::string& length_tag_key,
                                         int max_batch);


//! io signatures of a frame block (every constructor of the hierarchy names them)
gr::io_signature::sptr frame_block_input(bool float_input);
gr::io_signature::sptr frame_block_output();
//! "all", "failures", "none" (the status_tags parameter); throws naming the parameter
frame_block_settings::tags parse_status_tags(const std::string& text);

class frame_decoder_impl : public virtual frame_decoder
{
public:
    frame_decoder_impl(std::unique_ptr<::gpufec::batch_decoder> decoder,
                       const frame_block_settings& settings);
    ~frame_decoder_impl() override;

    bool check_topology(int ninputs, int noutputs) override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

    std::string backend() const override { return d_async->backend(); }
    std::string code_description() const override { return d_describe; }
    void set_option(const std::string& key, const std::string& value) override;
    void set_max_iterations(int n) override { set_option("max_iterations", std::to_string(n)); }
    void set_early_termination(bool on) override { set_option("early_termination", on ? "true" : "false"); }
    int input_per_frame() const override { return d_in_unit; }
    int output_per_frame() const override { return d_out_unit; }
    int batch_frames() const override { return int(d_async->batch_frames()); }
    uint64_t frames() const override { return d_frames_out; }
    uint64_t failed_frames() const override { return d_failed; }
    uint64_t erased_frames() const override { return d_erased; }
    double mean_iterations() const override
    {
        return d_frames_out ? double(d_iterations) / double(d_frames_out) : 0.0;
    }
    uint64_t nan_count() const override { return d_nans; }
    uint64_t dropped_items() const override { return d_dropped; }
    uint64_t dropped_packets() const override { return d_bad_packets; }

private:
    ::gpufec::async_decoder::slot* front_slot(bool wait); // the oldest decoded batch; errors named
    size_t emit(uint8_t* out, size_t max_frames, bool wait);
    size_t emit_variable(uint8_t* out, size_t room, bool wait); // items written
    size_t emit_items(uint8_t* out, size_t room, bool wait);    // either, in items
    size_t fill(const void* in, size_t first_item, size_t frames);
    bool fill_frame(const void* in, size_t first_item, size_t length); // one variable frame
    void move_tags(size_t first_item, size_t items, uint64_t frame0, size_t in_unit);
    void tag_frame(uint64_t at, const ::gpufec::frame_status& st, uint64_t frame);
    size_t take_stream(const void* in, size_t ninput, bool input_done);
    size_t take_packets(const void* in, size_t ninput, bool input_done);
    size_t cut_packet(size_t ninput, size_t pos); // the stream ended inside a packet
    void flush_if_idle(bool input_done);
    ::gpufec::partial_batch_policy d_partial;
    void submit();
    pmt::pmt_t iterations_pmt(int iterations);
    size_t parallel_chunks(size_t n, const std::function<size_t(size_t, size_t)>& fn);

    std::unique_ptr<::gpufec::async_decoder> d_async;
    frame_block_settings d_set;
    std::mutex d_setting_mutex; // set_option() from another thread (GRC callbacks)
    std::string d_family, d_describe;
    int d_in_unit = 0, d_out_unit = 0;
    size_t d_slot_bytes = 0, d_out_bits = 0; // packed bytes per frame in a slot; bits per frame
    std::shared_ptr<::gpufec::cpu_pool> d_copy_pool;
    std::vector<pmt::pmt_t> d_iter_pmts;
    bool d_iterates = false, d_has_check = false, d_counts = false;
    bool d_variable = false; // frames of varying length: one per packet (tagged-stream face)
    size_t d_min_in = 0;     // the shortest frame's input
    size_t d_frames_multiple = 1; // frames per GNU Radio output multiple
    pmt::pmt_t d_iter_key, d_check_key, d_erased_key, d_inner_key, d_corrected_key, d_src;
    std::deque<std::pair<uint64_t, gr::tag_t>> d_tags; // (frame, tag) waiting for their frame
    std::vector<gr::tag_t> d_tag_scratch;
    uint64_t d_frames_in = 0, d_frames_out = 0;
    // GPUFEC_PROFILE=1: where the block's thread spends its time, logged at stop()
    bool d_profile = false;
    double d_t_work = 0, d_t_fill = 0, d_t_emit = 0, d_t_wait = 0;
    uint64_t d_calls = 0, d_batches = 0, d_batch_frames_sum = 0;
    bool d_warned_erased = false;
    // tagged-stream face
    pmt::pmt_t d_len_key;             // null: stream face
    uint64_t d_pkt_left = 0;          // items of the current packet still to take
    bool d_pkt_decode = false;        // the current packet is decoded (else skipped)
    uint64_t d_pkt_first_frame = 0;   // the current packet's first frame (its length tag's key)
    uint64_t d_pkt_offset = 0;        // the current packet's first input item
    uint64_t d_tag_seen = ~uint64_t(0); // offset of the length tag last handled
    uint64_t d_bad_packets = 0;
    bool d_warned_unframed = false;
    std::vector<gr::tag_t> d_len_tags;
    uint64_t d_failed = 0, d_erased = 0, d_iterations = 0, d_nans = 0, d_dropped = 0;
};

} // namespace gpufec
} // namespace gr

#endif
