/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS near-earth LDPC code C2 (CCSDS 131.0-B, 7.3): the basic (8176, 7156) code, H of
 * 2 x 16 circulants of size 511, each of weight 2. */
#include "ldpc/ccsds_codes.h"

namespace gpufec {

namespace {

/* Table 7-1 (131.0-B; Table 6-1 of the 131.0-P-1.1 draft): the two 1s of the first row of each
 * circulant (row j has them at (c + j) mod 511). Cross-checked number by number between two
 * independent sources: ldpc-toolbox (src/codes/ccsds.rs, commit 2083722) and a MATLAB
 * construction of the draft's H (Yang Xiao, Beijing Jiaotong University, 2010). */
const int c2_circulants[2][16][2] = {
    { { 0, 176 }, { 12, 239 }, { 0, 352 }, { 24, 431 }, { 0, 392 }, { 151, 409 }, { 0, 351 }, { 9, 359 },
      { 0, 307 }, { 53, 329 }, { 0, 207 }, { 18, 281 }, { 0, 399 }, { 202, 457 }, { 0, 247 }, { 36, 261 } },
    { { 99, 471 }, { 130, 473 }, { 198, 435 }, { 260, 478 }, { 215, 420 }, { 282, 481 }, { 48, 396 }, { 193, 445 },
      { 273, 430 }, { 302, 451 }, { 96, 379 }, { 191, 386 }, { 244, 467 }, { 364, 470 }, { 51, 382 }, { 192, 414 } }
};

} // namespace

ldpc_code ccsds_c2_code(const std::string& id)
{
    // row j of a block has its 1s at (c + j) mod 511: circulants of shift c
    std::vector<qc_circulant> circ;
    for (int rb = 0; rb < 2; ++rb)
        for (int cb = 0; cb < 16; ++cb)
            for (int c : c2_circulants[rb][cb])
                circ.push_back({ rb, cb, c, -1 });
    return ldpc_code::from_circulants(511, 2, 16, std::move(circ), id);
}

} // namespace gpufec
