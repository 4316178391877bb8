/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS telemetry channel frame (131.0-B): a transfer frame of k I bytes is Reed-Solomon
 * encoded into a codeblock of n I bytes (I codewords interleaved), or a transfer frame of k bits
 * LDPC encoded into a codeword of n bits (C2 or AR4JA, 131.0-B 7) or turbo encoded into one of
 * (k + 4) r bits (131.0-B 6); the codeblock (or codeword) is randomized
 * (codes/ccsds_randomizer.h), the attached sync marker (1ACFFC1D; the turbo rate's own) goes in
 * front of it (the channel access data unit, CADU), and the stream of CADUs goes through the
 * K = 7 rate-1/2 convolutional code (marker included; Reed-Solomon only), or is sent as it is.
 * The receiver's pieces: the marker hypotheses for soft_marker_sync, the corrections a
 * codeword needed, the frame error control field (FECF) check; the encoder makes test and
 * demonstration streams. */
#ifndef INCLUDED_GPUFEC_CORE_TELEMETRY_CCSDS_TM_H
#define INCLUDED_GPUFEC_CORE_TELEMETRY_CCSDS_TM_H

#include <gnuradio/gpufec/core/codes/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/reed_solomon.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/telemetry/marker_sync.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

constexpr uint32_t ccsds_asm_word = 0x1ACFFC1Du; //!< sent MSB first

/*! The attached sync marker's bits (131.0-B 9.3): 1ACFFC1D for uncoded, convolutional,
 *  Reed-Solomon and LDPC data (turbo_rate "" or anything but a turbo rate); for turbo codewords
 *  by the rate ("1/2": 034776C7272895B0; "1/3": 25D5C0CE8990F6C9461BF79C; "1/4" and "1/6":
 *  those followed by their complements). */
std::vector<uint8_t> ccsds_marker_bits(const std::string& turbo_rate);

/*! The shape of a telemetry stream: the codeblock's code, Reed-Solomon (with its interleaving
 *  depth and virtual fill), a CCSDS LDPC code or a CCSDS turbo code of those families (one
 *  codeword a transfer frame), the attached sync marker (1ACFFC1D; the turbo codes' longer ones
 *  by rate, 131.0-B 9.3), and the inner convolutional code (a conv_code preset name, "none" for
 *  none; LDPC and turbo codewords are sent without it). */
struct ccsds_tm_layout {
    std::string code = "ccsds:255:223"; //!< the name it was made from
    std::string family = "rs";          //!< the frame family that decodes the codeblocks: rs, ldpc, turbo
    rs_code rs = rs_code::named("ccsds:255:223"); //!< (Reed-Solomon)
    size_t fec_frame_bits = 0;      //!< (LDPC, turbo) information bits, the transfer frame
    size_t fec_codeblock_bits = 0;  //!< (LDPC, turbo) bits sent after the marker
    std::vector<uint8_t> marker = ccsds_marker_bits(""); //!< the marker's bits, sent first
    std::string conv = "ccsds";

    /*! From the blocks' keywords: `code` a Reed-Solomon code of ccsds_tm_rs_codes()
     *  (rs_code::configured with basis, interleave, virtual_fill), or an LDPC or turbo code of
     *  ccsds_tm_ldpc_codes() / ccsds_tm_turbo_codes() (then interleave 1, virtual_fill
     *  negative, basis "default", conv "none"); conv "default" is "ccsds" for Reed-Solomon and
     *  "none" for the others. Checked: std::invalid_argument names what is wrong. */
    static ccsds_tm_layout make(const std::string& code, int interleave, int virtual_fill,
                                const std::string& basis, const std::string& conv);

    bool is_rs() const { return family == "rs"; }
    bool coded() const { return conv != "none"; }
    //! the options of `family` for the codeblocks
    std::string family_options() const;
    size_t frame_bytes() const { return is_rs() ? rs.info_bytes() : fec_frame_bits / 8; } //!< transfer frame
    //! sent after the marker (turbo codewords need not be whole bytes)
    size_t codeblock_bits() const { return is_rs() ? 8 * rs.block_bytes() : fec_codeblock_bits; }
    size_t cadu_bits() const { return marker.size() + codeblock_bits(); }
    //! channel symbols a CADU: its bits, times n of the convolutional code
    size_t cadu_symbols() const;
    //! std::invalid_argument for an unknown preset, a punctured or tail-biting-only code
    void check() const;
};

//! the Reed-Solomon codes a telemetry stream may carry: (255, 223) and (255, 239)
std::vector<std::string> ccsds_tm_rs_codes();
//! the LDPC codes a telemetry stream may carry: C2 as sent and the nine AR4JA codes
std::vector<std::string> ccsds_tm_ldpc_codes();
//! the turbo codes a telemetry stream may carry: "ccsds:K:1/r", K 1784, 3568, 7136, 8920, r 2, 3, 4, 6
std::vector<std::string> ccsds_tm_turbo_codes();

/*! The marker hypotheses of a stream (soft_marker_sync). Uncoded: the 32 marker bits, upright
 *  and inverted (the 180-degree ambiguity). Coded with preset `conv`: the marker's code symbols
 *  that do not depend on the bits before it (52 of 64 for K = 7), for the preset and for its
 *  other convention (CCSDS's inverted second output sent inverted or not: both_conventions),
 *  each upright and inverted; every fix makes the symbols what a decoder of `conv` expects,
 *  upright. Names: "upright", "inverted", and for the other convention "upright, other
 *  convention", "inverted, other convention". */
std::vector<marker_hypothesis> ccsds_tm_hypotheses(const ccsds_tm_layout& layout, bool both_conventions = true);

/*! Transfer frames to channel bits (one per byte): Reed-Solomon (or LDPC), randomizer, marker,
 *  then the convolutional code as one stream (its state carries from call to call; it starts
 *  at 0). */
class ccsds_tm_encoder
{
public:
    explicit ccsds_tm_encoder(const ccsds_tm_layout& layout, bool randomize = true);
    //! frames: n transfer frames of frame_bytes() bytes; returns n cadu_symbols() bits
    std::vector<uint8_t> encode(const uint8_t* frames, size_t n);
    const ccsds_tm_layout& layout() const { return d_layout; }

private:
    ccsds_tm_layout d_layout;
    bool d_randomize;
    rs_encoder d_rs;
    std::unique_ptr<frame_encoder> d_fec; // (LDPC, turbo)
    std::unique_ptr<conv_encoder> d_conv;
};

/*! The symbols each codeword of `frames` decoded codeblocks needed changed: the decoded
 *  information (info_bytes() a block) encoded again beside the received codeblocks
 *  (block_bytes() each), codeword by codeword. A codeword whose count exceeds E had more errors
 *  than the decoder corrects (it passes such a codeword's information on as it came): -1.
 *  Without erasures a decoded codeword never differs in more than E symbols; with erasures
 *  (up to 2E) a decoded codeword may read as -1. per_codeword: frames x interleave values.
 *  Returns the codewords that decoded. */
size_t rs_codeword_corrections(const rs_code& code, const uint8_t* received_blocks, const uint8_t* decoded_info,
                               size_t frames, int* per_codeword);
//! the same with an encoder of the code made once (its tables take longer than a codeblock)
size_t rs_codeword_corrections(const rs_encoder& encoder, const uint8_t* received_blocks,
                               const uint8_t* decoded_info, size_t frames, int* per_codeword);

/*! LDPC: the information bits the decoder changed in each of `frames` transfer frames: the
 *  decoded frames (frame_bytes() each, packed) beside the decisions as received (a bit a byte,
 *  codeblock_bits() a frame, the information bits first, as every CCSDS LDPC code sends
 *  them). per_frame: frames values. */
void ldpc_information_corrections(const ccsds_tm_layout& layout, const uint8_t* received_bits,
                                  const uint8_t* decoded_frames, size_t frames, int* per_frame);

/*! The receiver's deframing of whole CADUs (from their marker on): the codeblock's code bits
 *  de-randomized (where `randomized`) as int8 soft values for the codeblock's decoder, and their
 *  decisions as received (a bit a byte, 1 where the value is positive: what
 *  rs_codeword_corrections compares with, once packed). From the inner decoder's bits (one a
 *  byte: soft values +-127) or, without an inner code, from the channel's soft symbols
 *  (positive = 1, quantised with `scale`, clamped to +-127; NaN 0). The randomizer's sequence
 *  over a codeblock is made once. soft and hard: cadus x codeblock_bits(). */
class ccsds_tm_deframer
{
public:
    ccsds_tm_deframer(const ccsds_tm_layout& layout, bool randomized = true, float scale = 32.f);
    void run(const uint8_t* bits, size_t cadus, int8_t* soft, uint8_t* hard) const;
    void run(const float* symbols, size_t cadus, int8_t* soft, uint8_t* hard) const;
    size_t cadu_bits() const { return d_cadu; }
    size_t codeblock_bits() const { return d_bits; }

private:
    size_t d_marker, d_cadu, d_bits;
    float d_scale;
    std::vector<uint8_t> d_pn; //!< the sequence over a codeblock's bits, or zeros
};

//! whether the last two bytes of a transfer frame are the CCSDS CRC-16 (132.0-B 4.1.4.2) of the
//! bytes before them
bool ccsds_fecf_ok(const uint8_t* frame, size_t bytes);
//! writes that CRC into the frame's last two bytes
void ccsds_fecf_set(uint8_t* frame, size_t bytes);

} // namespace gpufec

#endif
