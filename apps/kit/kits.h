/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the error-rate and benchmark apps plug together: a channel kit (BPSK over AWGN now; the
 * Poisson PPM and insertion/deletion channels of later families add theirs) and a code kit
 * (every frame family through the registry; streaming Viterbi beside it). A code kit runs one
 * batch end to end (random information, encoding, the channel, decoding) and counts errors. */
#ifndef INCLUDED_GPUFEC_APPS_KITS_H
#define INCLUDED_GPUFEC_APPS_KITS_H

#include "error_stats.h"
#include <gnuradio/gpufec/core/device.h>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace gpufec {
namespace app {

//! a channel: code bits in, what the receiver sees out (soft values, positive = bit 1)
class channel_kit
{
public:
    virtual ~channel_kit() = default;
    virtual std::string name() const = 0;
    //! prepares for a point: `snr_db` in the channel's own measure (Eb/N0 for AWGN), `rate` of the code
    virtual void set_point(double snr_db, double rate) = 0;
    virtual void transmit(const uint8_t* bits, size_t n, float* out, std::mt19937_64& rng) = 0;
    //! the scale from the channel's values to LLRs (for decoders that take float LLRs)
    virtual float llr_scale() const = 0;
    //! the error rate of the same channel without coding, for reference (NaN if unknown)
    virtual double uncoded_ber(double snr_db) const = 0;
};

//! BPSK (bit 1 -> +1) over AWGN; Eb/N0 counts information bits (sigma^2 = 1 / (2 R Eb/N0))
std::unique_ptr<channel_kit> make_bpsk_awgn();
std::unique_ptr<channel_kit> make_channel(const std::string& name);

class code_kit
{
public:
    virtual ~code_kit() = default;
    virtual std::string describe() const = 0;
    virtual std::string backend() const = 0;
    virtual double rate() const = 0;
    virtual uint64_t info_bits_per_frame() const = 0; //!< information bits counted per frame
    virtual uint64_t preferred_frames() const = 0;    //!< frames per batch that suit the decoder
    virtual bool iterates() const { return false; }
    //! one batch of `frames` frames through `ch`; streaming kits may count fewer (decoder latency)
    virtual error_counts run(uint64_t frames, channel_kit& ch, std::mt19937_64& rng) = 0;
    //! a new point: streaming kits restart their stream
    virtual void reset() {}
};

/*! family "viterbi" with options mode=streaming (the default mode of the viterbi family here
 *  is the registry's) is the streaming kit; every other family goes through the registry. */
std::unique_ptr<code_kit> make_code_kit(const std::string& family, const std::string& options,
                                        const device_spec& device);

} // namespace app
} // namespace gpufec

#endif
