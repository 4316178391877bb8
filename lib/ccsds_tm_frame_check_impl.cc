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
    ccsds_tm_frame_check_impl(const ::gpufec::rs_code& code, bool fecf, bool pass_failed)
        : gr::block("gpufec_ccsds_tm_frame_check",
                    gr::io_signature::make(2, 2, sizeof(uint8_t)),
                    gr::io_signature::make(0, 0, 0)),
          d_code(code),
          d_enc(code),
          d_pool(::gpufec::get_cpu_pool(0)),
          d_fb(code.info_bytes()),
          d_bb(code.block_bytes()),
          d_fecf(fecf),
          d_pass_failed(pass_failed),
          d_port(pmt::intern("frames")),
          k_cadu(pmt::intern("cadu")),
          k_corrected(pmt::intern("rs_corrected")),
          k_rs_ok(pmt::intern("rs_ok")),
          k_fecf_ok(pmt::intern("fecf_ok"))
    {
        message_port_register_out(d_port);
        set_tag_propagation_policy(TPP_DONT);
    }

    void forecast(int, gr_vector_int& required) override
    {
        required[0] = int(d_fb);
        required[1] = int(d_bb * 8);
    }

    int general_work(int, gr_vector_int& ninput_items, gr_vector_const_void_star& input_items,
                     gr_vector_void_star&) override
    {
        const size_t n = std::min(size_t(ninput_items[0]) / d_fb, size_t(ninput_items[1]) / (d_bb * 8));
        if (n == 0)
            return 0;
        const auto* frames = static_cast<const uint8_t*>(input_items[0]);
        const auto* hard = static_cast<const uint8_t*>(input_items[1]);
        const size_t I = size_t(d_code.interleave);
        // the received codeblocks packed, and the corrections, frames in parallel on the
        // shared CPU pool
        d_raw.resize(n * d_bb);
        d_counts.resize(n * I);
        ::gpufec::parallel_ranges(*d_pool, n, d_bb * 8 + d_fb, [&](size_t a, size_t b) {
            ::gpufec::pack_bits(hard + a * d_bb * 8, (b - a) * d_bb * 8, d_raw.data() + a * d_bb);
            ::gpufec::rs_codeword_corrections(d_enc, d_raw.data() + a * d_bb, frames + a * d_fb, b - a,
                                              d_counts.data() + a * I);
        });
        const uint64_t start = nitems_read(0);
        get_tags_in_range(d_tags, 0, start, start + n * d_fb);
        size_t t = 0;
        for (size_t f = 0; f < n; ++f) {
            const int* c = d_counts.data() + f * I;
            bool ok = true;
            for (size_t j = 0; j < I; ++j) {
                ok = ok && c[j] >= 0;
                d_corrected += c[j] > 0 ? uint64_t(c[j]) : 0;
            }
            const uint8_t* body = frames + f * d_fb;
            const bool fok = !d_fecf || ::gpufec::ccsds_fecf_ok(body, d_fb);
            d_rs_failed += !ok;
            d_fecf_failed += ok && !fok;
            const uint64_t index = d_cadus + f;
            // the tags of this frame's bytes (in order of offset)
            const uint64_t end = start + (f + 1) * d_fb;
            size_t t0 = t;
            while (t < d_tags.size() && d_tags[t].offset < end)
                ++t;
            if (!(ok && fok) && !d_pass_failed) {
                ++d_dropped;
                continue;
            }
            pmt::pmt_t meta = pmt::make_dict();
            meta = pmt::dict_add(meta, k_cadu, pmt::from_uint64(index));
            meta = pmt::dict_add(meta, k_corrected, pmt::init_s32vector(I, c));
            meta = pmt::dict_add(meta, k_rs_ok, pmt::from_bool(ok));
            if (d_fecf)
                meta = pmt::dict_add(meta, k_fecf_ok, pmt::from_bool(fok));
            for (; t0 < t; ++t0)
                meta = pmt::dict_add(meta, d_tags[t0].key, d_tags[t0].value);
            message_port_pub(d_port, pmt::cons(meta, pmt::init_u8vector(d_fb, body)));
            ++d_frames;
        }
        d_cadus += n;
        consume(0, int(n * d_fb));
        consume(1, int(n * d_bb * 8));
        return 0;
    }

    uint64_t cadus() const override { return d_cadus; }
    uint64_t frames() const override { return d_frames; }
    uint64_t rs_failed() const override { return d_rs_failed; }
    uint64_t fecf_failed() const override { return d_fecf_failed; }
    uint64_t dropped() const override { return d_dropped; }
    uint64_t corrected_symbols() const override { return d_corrected; }

private:
    ::gpufec::rs_code d_code;
    ::gpufec::rs_encoder d_enc;
    std::shared_ptr<::gpufec::cpu_pool> d_pool;
    size_t d_fb, d_bb;
    bool d_fecf, d_pass_failed;
    pmt::pmt_t d_port, k_cadu, k_corrected, k_rs_ok, k_fecf_ok;
    std::vector<int> d_counts;
    std::vector<uint8_t> d_raw;
    std::vector<gr::tag_t> d_tags;
    // (read by stats() from other threads while the flowgraph runs)
    std::atomic<uint64_t> d_cadus{ 0 }, d_frames{ 0 }, d_rs_failed{ 0 }, d_fecf_failed{ 0 }, d_dropped{ 0 },
        d_corrected{ 0 };
};

ccsds_tm_frame_check::sptr ccsds_tm_frame_check::make(const std::string& code, int interleave, int virtual_fill,
                                                      const std::string& basis, bool fecf, bool pass_failed)
{
    if (interleave < 1 || interleave > 8)
        throw std::invalid_argument("interleave: " + std::to_string(interleave) + " is outside 1..8");
    return gnuradio::make_block_sptr<ccsds_tm_frame_check_impl>(
        ::gpufec::rs_code::configured(code, basis, interleave, virtual_fill), fecf, pass_failed);
}

} // namespace gpufec
} // namespace gr
