/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The telemetry receiver's deframing as a block (ccsds_tm_deframer.h): whole CADUs through the
 * core's ccsds_tm_deframer, their tags moved to the start of their codeblocks. */
#include <gnuradio/gpufec/ccsds_tm_deframer.h>

#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>

#include <gnuradio/io_signature.h>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufec {

class ccsds_tm_deframer_impl : public ccsds_tm_deframer
{
public:
    ccsds_tm_deframer_impl(const ::gpufec::ccsds_tm_layout& layout, bool float_input, float scale, bool randomized,
                           int buffer_cadus)
        : gr::block("gpufec_ccsds_tm_deframer",
                    gr::io_signature::make(1, 1, float_input ? sizeof(float) : sizeof(uint8_t)),
                    gr::io_signature::make(2, 2, sizeof(uint8_t))),
          d_core(layout, randomized, scale),
          d_float(float_input),
          d_cadu(d_core.cadu_bits()),
          d_bits(d_core.codeblock_bits())
    {
        set_output_multiple(int(d_bits)); // (both outputs: a value a codeblock bit)
        set_relative_rate(d_bits, d_cadu);
        // many CADUs a call, and room for what the decoder after out 0 holds
        set_min_output_buffer(0, size_t(buffer_cadus) * d_bits);
        set_min_output_buffer(1, size_t(buffer_cadus) * d_bits);
        set_tag_propagation_policy(TPP_DONT);
    }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        required[0] = int(size_t(noutput_items) / d_bits * d_cadu);
    }

    int general_work(int noutput_items, gr_vector_int& ninput_items, gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const size_t n = std::min(size_t(ninput_items[0]) / d_cadu, size_t(noutput_items) / d_bits);
        if (n == 0)
            return 0;
        auto* soft = static_cast<int8_t*>(output_items[0]);
        auto* hard = static_cast<uint8_t*>(output_items[1]);
        if (d_float)
            d_core.run(static_cast<const float*>(input_items[0]), n, soft, hard);
        else
            d_core.run(static_cast<const uint8_t*>(input_items[0]), n, soft, hard);
        // each tag to the start of its CADU's codeblock on out 0
        const uint64_t start = nitems_read(0), written = nitems_written(0);
        get_tags_in_range(d_tags, 0, start, start + n * d_cadu);
        for (const auto& t : d_tags)
            add_item_tag(0, written + (t.offset - start) / d_cadu * d_bits, t.key, t.value, t.srcid);
        consume(0, int(n * d_cadu));
        return int(n * d_bits);
    }

    int cadu_bits() const override { return int(d_cadu); }
    int codeblock_bits() const override { return int(d_bits); }

private:
    ::gpufec::ccsds_tm_deframer d_core;
    bool d_float;
    size_t d_cadu, d_bits;
    std::vector<gr::tag_t> d_tags;
};

ccsds_tm_deframer::sptr ccsds_tm_deframer::make(const std::string& code, int interleave, int virtual_fill,
                                                const std::string& basis, const std::string& dtype, float scale,
                                                bool randomized, int buffer_cadus)
{
    if (dtype != "byte" && dtype != "float")
        throw std::invalid_argument("dtype: '" + dtype + "' is not valid (allowed: byte, float)");
    if (!(scale > 0))
        throw std::invalid_argument("scale: " + std::to_string(scale) + " (a positive factor)");
    if (buffer_cadus < 1)
        throw std::invalid_argument("buffer_cadus: " + std::to_string(buffer_cadus) + " (at least 1)");
    return gnuradio::make_block_sptr<ccsds_tm_deframer_impl>(
        ::gpufec::ccsds_tm_layout::make(code, interleave, virtual_fill, basis, "none"), dtype == "float", scale,
        randomized, buffer_cadus);
}

} // namespace gpufec
} // namespace gr
