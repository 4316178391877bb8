/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_LDPC_ENCODER_H
#define INCLUDED_GPUFEC_CORE_LDPC_ENCODER_H

#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpufec {

/*! Systematic LDPC encoder: k information bits in, n codeword bits out (one bit per byte),
 *  the information bits at code.info_columns(), in the code's send order (DVB-S2: the
 *  standard's; ldpc_code::send_order()). Codes with the standards' dual-diagonal parity part
 *  are encoded in linear time, so are codes whose parity bits solve check by check (DVB-S2);
 *  any other code through the systematic form that Gaussian elimination found when the code
 *  was built. */
class ldpc_encoder
{
public:
    explicit ldpc_encoder(const ldpc_code& code);

    const ldpc_code& code() const { return d_code; }
    void encode(const uint8_t* info, size_t frames, uint8_t* codeword) const;
    //! the same in the code's column order (what the decoding engines hold)
    void encode_columns(const uint8_t* info, size_t frames, uint8_t* codeword) const;

private:
    void encode_dual_diagonal(const uint8_t* info, uint8_t* cw, std::vector<uint8_t>& lambda,
                              std::vector<uint8_t>& sum) const;
    void encode_generic(const uint8_t* info, uint8_t* cw) const;

    ldpc_code d_code; // holds the systematic form of generic codes
};

} // namespace gpufec

#endif
