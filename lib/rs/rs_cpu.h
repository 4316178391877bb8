/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon CPU decoder: the syndromes of a group of codewords at once, a codeword a
 * SIMD byte lane (multiplication by each root through two 16-entry nibble tables and byte
 * shuffles), then the reference decoder's solver for the codewords whose syndromes are not all
 * zero. The same results as rs_reference_decoder, codeword by codeword. */
#ifndef INCLUDED_GPUFEC_RS_RS_CPU_H
#define INCLUDED_GPUFEC_RS_RS_CPU_H

#include "rs_reference.h"
#include "runtime/simd_isa.h"
#include <string>
#include <vector>

namespace gpufec {

class rs_cpu_decoder
{
public:
    explicit rs_cpu_decoder(const rs_code& code);
    /*! `blocks` codeblocks (block_bytes() each, back to back) to their information bytes
     *  (info_bytes() each); result[b * I + j] is codeword j of block b's count, or -1.
     *  `erased`, where given, flags the symbols to decode as erasures (nonzero; the layout of
     *  `blocks`): a codeword with more of them than check symbols fails (its bytes as they
     *  came), the others go to the solver with their list, as decode_codeword() takes it. */
    void decode_blocks(const uint8_t* blocks, size_t nblocks, uint8_t* info, int* result,
                       const uint8_t* erased = nullptr);
    std::string name() const;

private:
    rs_code d_code;
    rs_reference_decoder d_solver;
    simd_isa d_isa;
    int d_lanes;
    std::vector<uint8_t> d_lo, d_hi;   // per root j: 16 bytes root * x, 16 bytes root * (x << 4)
    std::vector<uint8_t> d_words;      // a group: [symbol 0 .. 254][lane], conventional basis
    std::vector<uint8_t> d_syn;        // a group: [root][lane]
    std::vector<uint8_t> d_from, d_to; // the code's basis to the conventional one and back
    std::vector<int> d_eras;           // (a codeword's erasures)
};

} // namespace gpufec

#endif
