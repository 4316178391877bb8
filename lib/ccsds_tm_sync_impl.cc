/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The telemetry receiver's marker sync as a block (ccsds_tm_sync.h): the core's soft_marker_sync
 * stepped over as many CADUs as the output holds, its events as tags and log lines. */
#include <gnuradio/gpufec/ccsds_tm_sync.h>

#include "block_params.h"

#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>
#include <gnuradio/gpufec/core/telemetry/marker_sync.h>

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>
#include <pmt/pmt.h>
#include <atomic>

namespace gr {
namespace gpufec {

namespace {

::gpufec::soft_marker_sync make_sync(const ::gpufec::ccsds_tm_layout& l, bool both_conventions, int max_misses,
                                     double acquire_sigmas, double track_threshold, int slip_range)
{
    ::gpufec::soft_marker_sync::settings s;
    s.max_misses = max_misses;
    s.acquire_sigmas = acquire_sigmas;
    s.track_threshold = track_threshold;
    s.slip_range = slip_range;
    return ::gpufec::soft_marker_sync(::gpufec::ccsds_tm_hypotheses(l, both_conventions), l.cadu_symbols(), s);
}

} // namespace

class ccsds_tm_sync_impl : public ccsds_tm_sync
{
public:
    explicit ccsds_tm_sync_impl(::gpufec::soft_marker_sync sync, int max_misses)
        : gr::block("gpufec_ccsds_tm_sync",
                    gr::io_signature::make(1, 1, sizeof(float)),
                    gr::io_signature::make(1, 1, sizeof(float))),
          d_sync(std::move(sync)),
          d_F(d_sync.frame_symbols()),
          d_max_misses(max_misses),
          k_sync(pmt::intern("tm_sync")),
          k_ambiguity(pmt::intern("tm_ambiguity")),
          v_acquired(pmt::intern("acquired")),
          v_slipped(pmt::intern("slipped")),
          v_flywheel(pmt::intern("flywheel"))
    {
        set_output_multiple(int(d_F));
        // read as two CADUs in per CADU out, which sizes the buffer before it to hold the
        // search's window (two CADUs and a marker)
        set_relative_rate(1, 2);
        // many CADUs a call, and batches the GPU decoders after it fill quickly
        set_min_output_buffer(64 * d_F);
        set_tag_propagation_policy(TPP_DONT); // input positions mean nothing after it
    }

    void forecast(int, gr_vector_int& required) override
    {
        // at the end of the input, whatever is left (the last frame: general_work), once; then
        // the window again, which an ended input cannot give (so the block is done)
        required[0] = !d_finished && detail()->input(0)->done() ? 1 : int(d_sync.window());
    }

    int general_work(int noutput_items, gr_vector_int& ninput_items, gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const auto* in = static_cast<const float*>(input_items[0]);
        auto* out = static_cast<float*>(output_items[0]);
        const size_t n = size_t(ninput_items[0]), room = size_t(noutput_items) / d_F;
        size_t used = 0, given = 0;
        auto take = [&](const ::gpufec::soft_marker_sync::step_result& r) {
            if (r.what != ::gpufec::soft_marker_sync::event::none)
                event(r.what, r.shift, nitems_written(0) + given * d_F);
            used += r.consumed;
            given += r.frame;
            return r.consumed > 0 || r.frame || r.what != ::gpufec::soft_marker_sync::event::none;
        };
        while (given < room && take(d_sync.step(in + used, n - used, out + given * d_F)))
            ;
        // the input has ended: the last frame, if its symbols have all come (a recording that
        // ends right after a CADU), once; what is left then is skipped. Only where this call
        // sees the whole input: the scheduler counted n before the call, and the upstream may
        // have written its last symbols and finished since (the next call takes them; finishing
        // on n here lost a recording's last frame now and then)
        if (!d_finished && given < room && n - used < d_sync.window() && input_stream_ended(*this, n)) {
            d_finished = true;
            take(d_sync.finish(in + used, n - used, out + given * d_F));
            used = n;
        }
        consume(0, int(used));
        const auto& st = d_sync.stats();
        d_frames = st.frames;
        d_acquisitions = st.acquisitions;
        d_losses = st.losses;
        d_slips = st.slips;
        d_flywheel = st.flywheel;
        d_skipped = st.skipped_symbols;
        d_hyp = d_sync.hypothesis();
        d_locked = d_sync.locked();
        return int(given * d_F);
    }

    int frame_symbols() const override { return int(d_F); }
    uint64_t frames() const override { return d_frames; }
    uint64_t acquisitions() const override { return d_acquisitions; }
    uint64_t losses() const override { return d_losses; }
    uint64_t slips() const override { return d_slips; }
    uint64_t flywheel() const override { return d_flywheel; }
    uint64_t skipped_symbols() const override { return d_skipped; }
    std::string ambiguity() const override
    {
        const int h = d_hyp;
        return h < 0 ? std::string() : d_sync.hypotheses()[size_t(h)].name;
    }
    bool locked() const override { return d_locked; }

private:
    void event(::gpufec::soft_marker_sync::event what, long shift, uint64_t at)
    {
        using ev = ::gpufec::soft_marker_sync::event;
        switch (what) {
        case ev::lost:
            d_logger->warn("lost the CADU marker after {} missed markers in a row; searching again", d_max_misses);
            return;
        case ev::acquired: {
            const std::string amb = d_sync.hypotheses()[size_t(d_sync.hypothesis())].name;
            d_logger->info("CADU marker found ({}); {} symbols skipped so far", amb, d_sync.stats().skipped_symbols);
            add_item_tag(0, at, k_ambiguity, pmt::intern(amb));
            add_item_tag(0, at, k_sync, v_acquired);
            return;
        }
        case ev::slipped:
            add_item_tag(0, at, k_sync, pmt::cons(v_slipped, pmt::from_long(shift)));
            return;
        case ev::flywheel:
            add_item_tag(0, at, k_sync, v_flywheel);
            return;
        case ev::none:
            return;
        }
    }

    ::gpufec::soft_marker_sync d_sync;
    size_t d_F;
    bool d_finished = false; // (the end of the input handled)
    int d_max_misses;
    pmt::pmt_t k_sync, k_ambiguity, v_acquired, v_slipped, v_flywheel;
    // (read by the accessors from other threads while the flowgraph runs)
    std::atomic<uint64_t> d_frames{ 0 }, d_acquisitions{ 0 }, d_losses{ 0 }, d_slips{ 0 }, d_flywheel{ 0 },
        d_skipped{ 0 };
    std::atomic<int> d_hyp{ -1 };
    std::atomic<bool> d_locked{ false };
};

ccsds_tm_sync::sptr ccsds_tm_sync::make(const std::string& code, int interleave, int virtual_fill,
                                        const std::string& basis, const std::string& conv, bool both_conventions,
                                        int max_misses, double acquire_sigmas, double track_threshold,
                                        int slip_range)
{
    const auto layout = ::gpufec::ccsds_tm_layout::make(code, interleave, virtual_fill, basis, conv);
    return gnuradio::make_block_sptr<ccsds_tm_sync_impl>(
        make_sync(layout, both_conventions, max_misses, acquire_sigmas, track_threshold, slip_range), max_misses);
}

} // namespace gpufec
} // namespace gr
