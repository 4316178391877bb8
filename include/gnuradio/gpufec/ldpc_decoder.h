/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_LDPC_DECODER_H
#define INCLUDED_GPUFEC_LDPC_DECODER_H

#include <gnuradio/gpufec/api.h>
#include <gnuradio/gpufec/frame_decoder.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief LDPC decoder (layered or flooding min-sum, sum-product) on a CUDA GPU or the CPU.
 * \ingroup gpufec
 *
 * \details
 * `code`: a standard code id ("802.11n:1944:1/2", "802.16e:2304:2/3A", ...; gpufec.ldpc_codes()
 * lists them all) or the path of an alist or base-matrix file.
 *
 * Input: n soft values per codeword, float (positive means bit 1; quantised to int8 with
 * `scale` for the fixed-point decoders, used as LLRs as they are with precision "float") or
 * int8 (`input_type="int8"`). NaN is an erasure (0), counted and logged once.
 * Output: the k information bits (`output="info"`) or the n codeword bits ("codeword"), one per
 * byte or packed 8 per byte MSB first, each codeword starting on a byte (`packed_output`).
 * Every output codeword carries two stream tags on its first item: "ldpc_iterations" (long)
 * and "ldpc_syndrome_ok" (bool: all checks satisfied).
 *
 * `algorithm`: "layered" (TDMP min-sum, the GPU's), "flooding" (min-sum) or "sum-product"
 * (needs precision "float"; CPU only). `precision`: "int8" or "int16" messages, or "float".
 * Min-sum magnitudes are multiplied by `normalization` (0: the code's own, 0.75 .. 0.875 for
 * DVB-S2 and S2X as measured per code, 0.625 for 5G NR, 0.75 for the others) and reduced by
 * `offset`.
 * `max_iterations`; `early_termination` stops each codeword once its syndrome is zero.
 * `device`: "auto", "cpu", "cuda" or "cuda:N"; `max_batch`: codewords per work() call
 * (0 = 1024 on a GPU, 64 on the CPU). Complete codewords only are decoded; nothing is
 * dropped or reordered. `outer`: "none", or "bch" for the dvbs2 codes (DVB-S2's BCH after the
 * LDPC code: K_bch bits out per FECFRAME; tag "ldpc_bch_ok" is then the frame's verdict and
 * "ldpc_inner_ok" the LDPC syndrome's). `interleaver`: "none", or for the dvbs2 codes the
 * modulation ("8psk", "16apsk", "32apsk"; "qpsk", "bpsk": nothing to undo) whose DVB-S2 bit
 * interleaver the frames come through: they are taken in that order.
 */
class GPUFEC_API ldpc_decoder : virtual public frame_decoder
{
public:
    typedef std::shared_ptr<ldpc_decoder> sptr;

    static sptr make(const std::string& code = "802.11n:1944:1/2",
                     int max_iterations = 10,
                     bool early_termination = true,
                     const std::string& algorithm = "layered",
                     const std::string& device = "auto",
                     int max_batch = 0,
                     const std::string& input_type = "float",
                     const std::string& output = "info",
                     bool packed_output = false,
                     const std::string& precision = "int16",
                     float normalization = 0.0f,
                     float offset = 0.0f,
                     float scale = 32.0f,
                     const std::string& status_tags = "failures",
                     const std::string& length_tag_key = "",
                     const std::string& outer = "none",
                     const std::string& interleaver = "none");

    virtual int codeword_bits() const = 0; //!< soft values a codeword as sent (n; 5G NR: n - 2Z)
    virtual int info_bits() const = 0;     //!< k
    //! frames(), failed_frames() under LDPC's names
    uint64_t codewords() const { return frames(); }
    uint64_t failed_codewords() const { return failed_frames(); }
};

} // namespace gpufec
} // namespace gr

#endif
