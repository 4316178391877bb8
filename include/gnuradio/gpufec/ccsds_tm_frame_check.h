/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CCSDS_TM_FRAME_CHECK_H
#define INCLUDED_GPUFEC_CCSDS_TM_FRAME_CHECK_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief The last stage of the CCSDS telemetry receiver: decoded transfer frames out as PDUs.
 * \ingroup gpufec
 *
 * In 0: the codeblock decoder's information bytes (packed output of frame_decoder("rs") or
 * frame_decoder("ldpc") or ("turbo")), a transfer frame (k I bytes, or k / 8 for LDPC and
 * turbo) each; in 1: the
 * codeblocks' decisions as received, a bit a byte (from ccsds_tm_deframer's second output).
 * Message port "frames" out: (metadata, u8vector of the frame's bytes). Metadata: "cadu" (the
 * frame's index since the start); Reed-Solomon: "rs_corrected" (s32vector: the symbols each
 * codeword corrected, the decoded information encoded again beside what was received; -1 where
 * the codeword did not decode), "rs_ok"; LDPC: "ldpc_corrected" (the information bits the
 * decoder changed), "ldpc_ok" (false where the decoder's "ldpc_syndrome_ok" tag is false or its
 * "ldpc_erased" tag true); with fecf "fecf_ok" (the last two bytes are the CRC-16 of the
 * others, 132.0-B); and the tags in the frame's bytes on in 0 (the sync's "tm_sync",
 * "tm_ambiguity", the LDPC or turbo decoder's status; a turbo frame has no verdict of its own
 * beyond the FECF). Frames whose codeblock failed (or FECF) are
 * dropped unless pass_failed; the counters count every frame. `code` and the others as
 * ccsds_tm_receiver takes them.
 */
class GPUFEC_API ccsds_tm_frame_check : virtual public gr::block
{
public:
    typedef std::shared_ptr<ccsds_tm_frame_check> sptr;

    static sptr make(const std::string& code = "ccsds:255:223",
                     int interleave = 5,
                     int virtual_fill = -1,
                     const std::string& basis = "default",
                     bool fecf = false,
                     bool pass_failed = false);

    virtual uint64_t cadus() const = 0;             //!< frames checked
    virtual uint64_t frames() const = 0;            //!< frames sent on
    virtual uint64_t codeblock_failed() const = 0; //!< with a codeword that did not decode
    virtual uint64_t fecf_failed() const = 0;      //!< decoded, but the CRC-16 failed
    virtual uint64_t dropped() const = 0;          //!< not sent on (failed, without pass_failed)
    //! corrected in all codewords that decoded: symbols (Reed-Solomon), information bits (LDPC);
    //! not counted for turbo
    virtual uint64_t corrected() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
