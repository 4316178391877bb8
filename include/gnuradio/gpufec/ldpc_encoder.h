/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_LDPC_ENCODER_BLOCK_H
#define INCLUDED_GPUFEC_LDPC_ENCODER_BLOCK_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Systematic LDPC encoder for the codes gpufec.ldpc_decoder decodes.
 * \ingroup gpufec
 *
 * \details
 * Input: information bits, one per byte (the low bit is used), k per codeword.
 * Output: codeword bits, one per byte, n per codeword (information bits at the code's
 * information positions, the first k for every standard code). `code` as for ldpc_decoder;
 * `outer` "bch" (dvbs2 codes): K_bch bits in, DVB-S2's BCH before the LDPC code.
 * `interleaver` (dvbs2 codes): "8psk", "16apsk", "32apsk": each FECFRAME out through DVB-S2's
 * bit interleaver for that modulation (the bits of a symbol in turn, most significant first).
 */
class GPUFEC_API ldpc_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<ldpc_encoder> sptr;
    static sptr make(const std::string& code = "802.11n:1944:1/2",
                     const std::string& outer = "none",
                     const std::string& interleaver = "none");
    virtual std::string code_description() const = 0;
    virtual int codeword_bits() const = 0; //!< bits a codeword as sent (n; 5G NR: n - 2Z)
    virtual int info_bits() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
