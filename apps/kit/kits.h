/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the error-rate and benchmark apps plug together: a channel kit (BPSK over AWGN now; the
 * Poisson PPM and insertion/deletion channels of later families add theirs) and a code kit
 * (every frame family through the registry; streaming Viterbi beside it). A new family adds a
 * kit here, not an app.
 *
 * A code kit simulates any range of frames of a point: frame f draws its bits and noise from
 * its own generator (unit_rng.h), so the counts of a run are the same whichever calls, devices
 * or MPI ranks simulate which frames. */
#ifndef INCLUDED_GPUFEC_APPS_KITS_H
#define INCLUDED_GPUFEC_APPS_KITS_H

#include "error_stats.h"
#include "unit_rng.h"
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
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
    //! what the x axis of a sweep is ("ebn0_db" for AWGN)
    virtual std::string measure() const { return "ebn0_db"; }
    //! the same in words, for printed lines ("Eb/N0", "Ks")
    virtual std::string measure_label() const { return "Eb/N0"; }
    //! its unit ("dB"; "" for a probability)
    virtual std::string measure_unit() const { return "dB"; }
    //! a point as printed: "  3.00 dB", "0.01"
    std::string format_point(double x) const
    {
        char s[48];
        if (measure_unit().empty())
            std::snprintf(s, sizeof s, "%g", x);
        else
            std::snprintf(s, sizeof s, "%6.2f %s", x, measure_unit().c_str());
        return s;
    }
    //! prepares for a point: `snr_db` in the channel's own measure (Eb/N0 for AWGN), `rate` of the code
    virtual void set_point(double snr_db, double rate) = 0;
    //! thread-safe: kits call it from several threads at once, each with its frame's generator
    virtual void transmit(const uint8_t* bits, size_t n, float* out, unit_rng& rng) const = 0;
    //! the scale from the channel's values to LLRs (for decoders that take float LLRs)
    virtual float llr_scale() const = 0;
    //! the scale from the channel's values to int8 input (photon counts go as they are)
    virtual float int8_scale() const { return default_soft_scale; }
    //! the error rate of the same channel without coding, for reference (NaN if unknown)
    virtual double uncoded_ber(double snr_db) const = 0;
    //! whether the channel inserts and deletes bits (its output's length varies)
    virtual bool changes_length() const { return false; }
    /*! the variable-length form: out gets what comes out of the channel for n bits (the
     *  default: transmit(), n values) */
    virtual void transmit_variable(const uint8_t* bits, size_t n, std::vector<float>& out, unit_rng& rng) const
    {
        out.resize(n);
        transmit(bits, n, out.data(), rng);
    }
    /*! BPSK over AWGN with quantize_soft's int8 rule: the noise's deviation at this point
     *  (symbols +-1), for frames drawn by span frames' exact levels; NaN for other channels */
    virtual double awgn_sigma() const { return NAN; }
    /*! options the decoder needs to know the channel at this point (the BSID channel's
     *  probabilities: "pi=0.01, pd=0.01, ps=0"); empty: none */
    virtual std::string decoder_options() const { return ""; }
};

//! BPSK (bit 1 -> +1) over AWGN; Eb/N0 counts information bits (sigma^2 = 1 / (2 R Eb/N0))
std::unique_ptr<channel_kit> make_bpsk_awgn();
/*! Photon counting (PPM slots: bit 1 = a pulse): Poisson(Ks + Kb) photons in a pulsed slot,
 *  Poisson(Kb) in the others; the point is Ks in dB (10 log10 of the signal photons per pulse),
 *  Kb fixed. Values out: the counts (int8 input: as they are, 127 at most; float: counts times
 *  ln(1 + Ks / Kb), the slot log-likelihoods). */
std::unique_ptr<channel_kit> make_poisson_ppm(double kb);
/*! The binary substitution, insertion and deletion channel: the point is p = Pi = Pd (a
 *  probability, not dB); Ps fixed (0 unless given); at most max_insertions in a row. Values
 *  out: +1 / -1 per received bit. The decoder is told the point's probabilities. */
std::unique_ptr<channel_kit> make_bsid(double ps, int max_insertions);
//! "bpsk-awgn" (or "awgn"), "poisson-ppm[:kb=K]" (or "poisson"; Kb 0.2 unless given),
//! "bsid[:ps=P]" 
std::unique_ptr<channel_kit> make_channel(const std::string& name);
//! the kind of a channel name, aliases resolved: "bpsk-awgn", "poisson-ppm" or "bsid" (else the name)
std::string channel_kind(const std::string& name);
/*! Fills in what the user left out (empty: not given) from the family's registration: its app
 *  options and the channel its decoder reads; refuses a channel it cannot read, naming the one
 *  to use (a decoder of photon counts fed BPSK values would decode noise and say so only in
 *  its error rate). */
void resolve_family_defaults(const std::string& family, std::string& options, bool options_given,
                             std::string& channel, bool channel_given);

//! what one frame gave
struct frame_result {
    uint32_t bit_errors = 0;
    uint32_t iterations = 0;
    uint32_t symbol_errors = 0; //!< codes of symbols of several bits (symbol_bits() > 1); else 0
};

//! which point of which run: frame f of it draws from unit_rng(seed, point, f)
struct sim_key {
    uint64_t seed = 1;
    uint64_t point = 0;
};

class code_kit
{
public:
    virtual ~code_kit() = default;
    virtual std::string describe() const = 0;
    virtual std::string backend() const = 0;
    virtual double rate() const = 0;
    virtual uint64_t info_bits_per_frame() const = 0; //!< information bits counted per frame
    virtual uint64_t preferred_frames() const = 0;    //!< frames per call that suit the decoder
    virtual bool iterates() const { return false; }
    //! bits of one decoded symbol (1: a binary code, no symbol error rate)
    virtual uint64_t symbol_bits() const { return 1; }
    virtual std::string input_kind() const { return "int8"; } //!< what the decoder is fed
    //! union bound on the BER of ML decoding (NaN where the kit has none)
    virtual double union_bound_ber(double) const;

    /*! How simulate() makes frames through `ch` for runs seeded with `seed`: "auto" (span
     *  frames where the code, channel and input allow, on the decoder's GPU when it decodes on
     *  one, else on the CPU; else each frame through the encoder), "gpu" or "cpu" (span frames
     *  there, or an error saying why not), "encoder" (each frame's own random bits through the
     *  family's encoder, its noise from the frame's unit_rng). Returns the choice in words. A
     *  kit that is never told makes frames through the encoder. */
    virtual std::string choose_frame_maker(const std::string& maker, const channel_kit& ch, uint64_t seed);

    /*! Simulates frames [first, first + count) of point `key` through `ch` (already set to the
     *  point) and writes one result per frame. The same frame gives the same result in any
     *  call that includes it (on the same kind of backend). */
    virtual void simulate(const sim_key& key,
                          uint64_t first,
                          uint64_t count,
                          const channel_kit& ch,
                          frame_result* out) = 0;

    // -- benchmark: input made once (page-locked where there is a GPU), decoding timed
    //! makes the input of frames [0, count) of `key` through `ch`
    virtual void bench_prepare(const sim_key& key, uint64_t count, const channel_kit& ch) = 0;
    virtual uint64_t bench_input_bytes() const = 0;
    //! decodes the prepared frames once, host memory to host memory (packed output)
    virtual void bench_decode() = 0;
    //! seconds of one bench_decode() in the device kernels alone; negative where not measured
    virtual double bench_kernel_seconds(int /*reps*/) { return -1; }
    //! the errors of the last bench_decode()
    virtual error_counts bench_errors() const = 0;

protected:
    /*! choose_frame_maker's choice for kits that draw their frames by one rule (span frames, the
     *  drawn stream): refusal() says why they cannot here (empty: they can); `what` names them;
     *  make_gpu() makes the GPU maker on the decoder's GPU and names it ("cuda:0"), or throws.
     *  `drawn`: whether the kit draws its frames (on the GPU when make_gpu() was called and
     *  returned). "encoder", a refusal under auto and a GPU that fails under auto fall back;
     *  under gpu or cpu they are errors. */
    std::string choose_drawn(const std::string& maker, const channel_kit& ch, uint64_t seed,
                             const std::function<std::string()>& refusal, const std::string& what,
                             const std::function<std::string()>& make_gpu, bool& drawn);
};

/*! family "viterbi" with option mode=streaming is the streaming kit (a frame is a block of
 *  block_len bits of one endless stream); every other family goes through the registry. */
/*! `mix`: option sets of encoders that make the frames in turn (frame f: mix[f mod size]),
 *  for decoders of several lengths; empty: the encoder of `options` */
std::unique_ptr<code_kit> make_code_kit(const std::string& family, const std::string& options,
                                        const device_spec& device, const std::vector<std::string>& mix = {});

// the two kinds (kits.cc chooses)
std::unique_ptr<code_kit> make_frame_kit(const std::string& family, const std::string& options,
                                         const device_spec& device, const std::vector<std::string>& mix);
std::unique_ptr<code_kit> make_stream_kit(const std::string& options, const device_spec& device);

} // namespace app
} // namespace gpufec

#endif
