/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CCSDS_TM_SYNC_H
#define INCLUDED_GPUFEC_CCSDS_TM_SYNC_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Frame synchronisation of a CCSDS telemetry stream on soft symbols.
 * \ingroup gpufec
 *
 * Soft symbols in (float, positive = bit 1); each CADU's channel symbols out (frame_symbols() of
 * them, from its marker's first on), made upright in the convention of the inner code `conv`.
 * Searching, every symbol offset of a CADU (which settles the pairing of the code's symbols) and
 * every ambiguity (the 180-degree one; with both_conventions the inner code's inverted output
 * sent inverted or not) is scored by its marker's normalised correlation and the next CADU's; the
 * best locks when both reach track_threshold and it stands acquire_sigmas deviations above all
 * offsets' scores. Locked, each marker is looked for within slip_range symbols of where it is due
 * (a slip is followed); a marker below track_threshold is a miss, and the CADU is still given
 * where it was due (flywheel); max_misses misses in a row lose the lock (logged).
 * Tags "tm_sync" (acquired, (slipped . shift), flywheel) mark the CADUs where these happened,
 * "tm_ambiguity" the ambiguity found at each acquisition. The layout keywords (code, interleave,
 * virtual_fill, basis, conv) are ccsds_tm_receiver's.
 */
class GPUFEC_API ccsds_tm_sync : virtual public gr::block
{
public:
    typedef std::shared_ptr<ccsds_tm_sync> sptr;

    static sptr make(const std::string& code = "ccsds:255:223",
                     int interleave = 5,
                     int virtual_fill = -1,
                     const std::string& basis = "default",
                     const std::string& conv = "default",
                     bool both_conventions = true,
                     int max_misses = 3,
                     double acquire_sigmas = 6.0,
                     double track_threshold = 0.5,
                     int slip_range = 2);

    virtual int frame_symbols() const = 0; //!< channel symbols a CADU
    virtual uint64_t frames() const = 0;          //!< CADUs given
    virtual uint64_t acquisitions() const = 0;
    virtual uint64_t losses() const = 0;
    virtual uint64_t slips() const = 0;
    virtual uint64_t flywheel() const = 0;        //!< CADUs given with their marker missed
    virtual uint64_t skipped_symbols() const = 0; //!< symbols in no CADU given
    //! the ambiguity of the lock (or of the last one): "upright", "inverted", "..., other
    //! convention"; "" before any
    virtual std::string ambiguity() const = 0;
    virtual bool locked() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
