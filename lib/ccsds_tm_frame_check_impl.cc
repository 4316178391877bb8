/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The telemetry receiver's frame check (ccsds_tm_frame_check.h): whole frames from both inputs
 * in lockstep, correction counts for all of them at once (core/telemetry/ccsds_tm.h), a PDU a
 * frame. */
#include <gnuradio/gpufec/ccsds_tm_frame_check.h>

#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>

#include "runtime/cpu_pool.h"
#include <gnuradio/io_signature.h>
#include <pmt/pmt.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <atomic>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufec {

class ccsds_tm_frame_check_impl : public ccsds_tm_frame_check
{
public:
    explicit ccsds_tm_frame_check_impl(const ::gpufec::ccsds_tm_layout& layout, bool fecf, bool pass_failed)
        : gr::block("gpufec_ccsds_tm_frame_check",
                    gr::io_signature::make(2, 2, sizeof(uint8_t)),
                    gr::io_signature::make(0, 0, 0)),
          d_layout(layout),
          d_ldpc(layout.family == "ldpc"),
          d_turbo(layout.family == "turbo"),
          d_enc(layout.rs),
          d_pool(::gpufec::get_cpu_pool(0)),
          d_fb(layout.frame_bytes()),
          d_cb(layout.codeblock_bits()),
          d_per(layout.is_rs() ? size_t(layout.rs.interleave) : 1),
          d_fecf(fecf),
          d_pass_failed(pass_failed),
          d_port(pmt::intern("frames")),
          k_cadu(pmt::intern("cadu")),
          k_corrected(pmt::intern(layout.family + "_corrected")),
          k_ok(pmt::intern(layout.family + "_ok")),
          k_fecf_ok(pmt::intern("fecf_ok")),
          k_syndrome_ok(pmt::intern("ldpc_syndrome_ok")),
          k_erased(pmt::intern("ldpc_erased"))
    {
        message_port_register_out(d_port);
        set_tag_propagation_policy(TPP_DONT);
    }

    void forecast(int, gr_vector_int& required) override
    {
        required[0] = int(d_fb);
        required[1] = int(d_cb);
    }

    int general_work(int, gr_vector_int& ninput_items, gr_vector_const_void_star& input_items,
                     gr_vector_void_star&) override
    {
        const size_t n = std::min(size_t(ninput_items[0]) / d_fb, size_t(ninput_items[1]) / d_cb);
        if (n == 0)
            return 0;
        const auto* frames = static_cast<const uint8_t*>(input_items[0]);
        const auto* hard = static_cast<const uint8_t*>(input_items[1]);
        count_corrections(frames, hard, n);
        const uint64_t start = nitems_read(0);
        get_tags_in_range(d_tags, 0, start, start + n * d_fb);
        size_t t = 0;
        for (size_t f = 0; f < n; ++f) {
            const int* c = d_counts.data() + f * d_per;
            // the tags of this frame's bytes (in order of offset)
            const uint64_t end = start + (f + 1) * d_fb;
            const size_t t0 = t;
            while (t < d_tags.size() && d_tags[t].offset < end)
                ++t;
            bool ok = true;
            if (d_turbo) {
                // (no check of its own: the FECF, where there is one, says whether it decoded)
            } else if (d_ldpc) {
                for (size_t i = t0; i < t; ++i)
                    ok = ok && !(pmt::eq(d_tags[i].key, k_syndrome_ok) && !pmt::to_bool(d_tags[i].value)) &&
                         !(pmt::eq(d_tags[i].key, k_erased) && pmt::to_bool(d_tags[i].value));
                d_corrected += ok ? uint64_t(c[0]) : 0;
            } else {
                for (size_t j = 0; j < d_per; ++j) {
                    ok = ok && c[j] >= 0;
                    d_corrected += c[j] > 0 ? uint64_t(c[j]) : 0;
                }
            }
            const uint8_t* body = frames + f * d_fb;
            const bool fok = !d_fecf || ::gpufec::ccsds_fecf_ok(body, d_fb);
            d_failed += !ok;
            d_fecf_failed += ok && !fok;
            const uint64_t index = d_cadus + f;
            if (!(ok && fok) && !d_pass_failed) {
                ++d_dropped;
                continue;
            }
            pmt::pmt_t meta = pmt::make_dict();
            meta = pmt::dict_add(meta, k_cadu, pmt::from_uint64(index));
            if (d_ldpc)
                meta = pmt::dict_add(meta, k_corrected, pmt::from_long(c[0]));
            else if (!d_turbo)
                meta = pmt::dict_add(meta, k_corrected, pmt::init_s32vector(d_per, c));
            if (!d_turbo)
                meta = pmt::dict_add(meta, k_ok, pmt::from_bool(ok));
            if (d_fecf)
                meta = pmt::dict_add(meta, k_fecf_ok, pmt::from_bool(fok));
            for (size_t i = t0; i < t; ++i)
                meta = pmt::dict_add(meta, d_tags[i].key, d_tags[i].value);
            message_port_pub(d_port, pmt::cons(meta, pmt::init_u8vector(d_fb, body)));
            ++d_frames;
        }
        d_cadus += n;
        consume(0, int(n * d_fb));
        consume(1, int(n * d_cb));
        return 0;
    }

    uint64_t cadus() const override { return d_cadus; }
    uint64_t frames() const override { return d_frames; }
    uint64_t codeblock_failed() const override { return d_failed; }
    uint64_t fecf_failed() const override { return d_fecf_failed; }
    uint64_t dropped() const override { return d_dropped; }
    uint64_t corrected() const override { return d_corrected; }

private:
    //! d_counts: each codeword's corrections (core/telemetry/ccsds_tm.h), frames in parallel on
    //! the shared CPU pool
    void count_corrections(const uint8_t* frames, const uint8_t* hard, size_t n)
    {
        d_counts.assign(n * d_per, 0);
        if (d_turbo)
            return; // (its codeword's multiplexed order puts no information bits first)
        if (d_ldpc) {
            ::gpufec::parallel_ranges(*d_pool, n, d_cb, [&](size_t a, size_t b) {
                ::gpufec::ldpc_information_corrections(d_layout, hard + a * d_cb, frames + a * d_fb, b - a,
                                                       d_counts.data() + a);
            });
            return;
        }
        // the received codeblocks packed, then encoded information beside them
        const size_t bb = d_cb / 8;
        d_raw.resize(n * bb);
        ::gpufec::parallel_ranges(*d_pool, n, d_cb + d_fb, [&](size_t a, size_t b) {
            ::gpufec::pack_bits(hard + a * d_cb, (b - a) * d_cb, d_raw.data() + a * bb);
            ::gpufec::rs_codeword_corrections(d_enc, d_raw.data() + a * bb, frames + a * d_fb, b - a,
                                              d_counts.data() + a * d_per);
        });
    }

    ::gpufec::ccsds_tm_layout d_layout;
    bool d_ldpc, d_turbo;
    ::gpufec::rs_encoder d_enc; // (Reed-Solomon)
    std::shared_ptr<::gpufec::cpu_pool> d_pool;
    size_t d_fb, d_cb, d_per; // frame bytes, codeblock bits, codewords a frame
    bool d_fecf, d_pass_failed;
    pmt::pmt_t d_port, k_cadu, k_corrected, k_ok, k_fecf_ok, k_syndrome_ok, k_erased;
    std::vector<int> d_counts;
    std::vector<uint8_t> d_raw;
    std::vector<gr::tag_t> d_tags;
    // (read by stats() from other threads while the flowgraph runs)
    std::atomic<uint64_t> d_cadus{ 0 }, d_frames{ 0 }, d_failed{ 0 }, d_fecf_failed{ 0 }, d_dropped{ 0 },
        d_corrected{ 0 };
};

ccsds_tm_frame_check::sptr ccsds_tm_frame_check::make(const std::string& code, int interleave, int virtual_fill,
                                                      const std::string& basis, bool fecf, bool pass_failed)
{
    return gnuradio::make_block_sptr<ccsds_tm_frame_check_impl>(
        ::gpufec::ccsds_tm_layout::make(code, interleave, virtual_fill, basis, "none"), fecf, pass_failed);
}

} // namespace gpufec
} // namespace gr
