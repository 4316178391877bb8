/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CCSDS_TM_DEFRAMER_H
#define INCLUDED_GPUFEC_CCSDS_TM_DEFRAMER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief The CCSDS telemetry receiver's deframing: whole CADUs in, their codeblocks' soft values
 * and decisions out.
 * \ingroup gpufec
 *
 * In: whole CADUs from their marker on: the decoded bits of the inner code (dtype "byte", one
 * bit per byte) or the channel's soft symbols of a stream without it (dtype "float", positive =
 * bit 1, quantised to int8 with `scale`). Out 0: each codeblock's code bits, de-randomized
 * (where `randomized`), as int8 soft values for the rs or ldpc family (bits: +-127); out 1: their
 * decisions as received, a bit a byte (for ccsds_tm_frame_check's correction counts). Tags move
 * to the start of their CADU's codeblock on out 0. `buffer_cadus`: CADUs each output holds, at
 * least what the decoder after out 0 has in flight, since the frame check reads out 1 only when
 * their decoded frames come. The layout keywords are ccsds_tm_receiver's.
 */
class GPUFEC_API ccsds_tm_deframer : virtual public gr::block
{
public:
    typedef std::shared_ptr<ccsds_tm_deframer> sptr;

    static sptr make(const std::string& code = "ccsds:255:223",
                     int interleave = 5,
                     int virtual_fill = -1,
                     const std::string& basis = "default",
                     const std::string& dtype = "byte",
                     float scale = 32.0f,
                     bool randomized = true,
                     int buffer_cadus = 64);

    virtual int cadu_bits() const = 0;      //!< input items a CADU
    virtual int codeblock_bits() const = 0; //!< output items a CADU, on each output
};

} // namespace gpufec
} // namespace gr

#endif
