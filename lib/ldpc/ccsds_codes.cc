/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CCSDS LDPC codes of 131.0-B: the near-earth code C2 (7.3), the basic (8176, 7156) code,
 * H of 2 x 16 circulants of size 511 each of weight 2; and the AR4JA codes (7.4) for
 * k = 1024, 4096, 16384 at rates 1/2, 2/3, 4/5, whose M x M blocks are sums of permutations
 * that are 4 x 4 arrays of circulants of M / 4, the last M bits punctured. */
#include "ldpc/ccsds_codes.h"
#include "ldpc/gf2_systematic.h"
#include "ldpc/qc_encoder.h"

#include <map>
#include <stdexcept>
#include <tuple>

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

/* AR4JA permutations (131.0-B-5 7.4.2.4, Tables 7-3 and 7-4), as in ldpc-toolbox
 * (src/codes/ccsds.rs, commit 2083722). Checked: the whole H of the three k = 1024 codes (the
 * M = 128, 256, 512 columns, every rate's layout) equals, check for check, that of an
 * independent construction from 131.0-B-2's tables (labrador-ldpc-c, commit e019601); every
 * theta and all 728 phi values (every M, 128 .. 8192) equal, number for number, the tables of
 * labrador-ldpc-c's scripts/ccsds131.py (an independent transcription of 131.0-B-2). */
// theta_k, k = 1..26 (Table 7-3)
const int ar4ja_theta[26] = { 3, 0, 1, 2, 2, 3, 0, 1, 0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 2, 3 };
// phi_k(j, M): [j][k - 1][M = 128, 256, ..., 8192] (Tables 7-3 and 7-4)
const int ar4ja_phi[4][26][7] = {
    {
        { 1, 59, 16, 160, 108, 226, 1148 },
        { 22, 18, 103, 241, 126, 618, 2032 },
        { 0, 52, 105, 185, 238, 404, 249 },
        { 26, 23, 0, 251, 481, 32, 1807 },
        { 0, 11, 50, 209, 96, 912, 485 },
        { 10, 7, 29, 103, 28, 950, 1044 },
        { 5, 22, 115, 90, 59, 534, 717 },
        { 18, 25, 30, 184, 225, 63, 873 },
        { 3, 27, 92, 248, 323, 971, 364 },
        { 22, 30, 78, 12, 28, 304, 1926 },
        { 3, 43, 70, 111, 386, 409, 1241 },
        { 8, 14, 66, 66, 305, 708, 1769 },
        { 25, 46, 39, 173, 34, 719, 532 },
        { 25, 62, 84, 42, 510, 176, 768 },
        { 2, 44, 79, 157, 147, 743, 1138 },
        { 27, 12, 70, 174, 199, 759, 965 },
        { 7, 38, 29, 104, 347, 674, 141 },
        { 7, 47, 32, 144, 391, 958, 1527 },
        { 15, 1, 45, 43, 165, 984, 505 },
        { 10, 52, 113, 181, 414, 11, 1312 },
        { 4, 61, 86, 250, 97, 413, 1840 },
        { 19, 10, 1, 202, 158, 925, 709 },
        { 7, 55, 42, 68, 86, 687, 1427 },
        { 9, 7, 118, 177, 168, 752, 989 },
        { 26, 12, 33, 170, 506, 867, 1925 },
        { 17, 2, 126, 89, 489, 323, 270 },
    },
    {
        { 0, 0, 0, 0, 0, 0, 0 },
        { 27, 32, 53, 182, 375, 767, 1822 },
        { 30, 21, 74, 249, 436, 227, 203 },
        { 28, 36, 45, 65, 350, 247, 882 },
        { 7, 30, 47, 70, 260, 284, 1989 },
        { 1, 29, 0, 141, 84, 370, 957 },
        { 8, 44, 59, 237, 318, 482, 1705 },
        { 20, 29, 102, 77, 382, 273, 1083 },
        { 26, 39, 25, 55, 169, 886, 1072 },
        { 24, 14, 3, 12, 213, 634, 354 },
        { 4, 22, 88, 227, 67, 762, 1942 },
        { 12, 15, 65, 42, 313, 184, 446 },
        { 23, 48, 62, 52, 242, 696, 1456 },
        { 15, 55, 68, 243, 188, 413, 1940 },
        { 15, 39, 91, 179, 1, 854, 1660 },
        { 22, 11, 70, 250, 306, 544, 1661 },
        { 31, 1, 115, 247, 397, 864, 587 },
        { 3, 50, 31, 164, 80, 82, 708 },
        { 29, 40, 121, 17, 33, 1009, 1466 },
        { 21, 62, 45, 31, 7, 437, 433 },
        { 2, 27, 56, 149, 447, 36, 1345 },
        { 5, 38, 54, 105, 336, 562, 867 },
        { 11, 40, 108, 183, 424, 816, 1551 },
        { 26, 15, 14, 153, 134, 452, 2041 },
        { 9, 11, 30, 177, 152, 290, 1383 },
        { 17, 18, 116, 19, 492, 778, 1790 },
    },
    {
        { 0, 0, 0, 0, 0, 0, 0 },
        { 12, 46, 8, 35, 219, 254, 318 },
        { 30, 45, 119, 167, 16, 790, 494 },
        { 18, 27, 89, 214, 263, 642, 1467 },
        { 10, 48, 31, 84, 415, 248, 757 },
        { 16, 37, 122, 206, 403, 899, 1085 },
        { 13, 41, 1, 122, 184, 328, 1630 },
        { 9, 13, 69, 67, 279, 518, 64 },
        { 7, 9, 92, 147, 198, 477, 689 },
        { 15, 49, 47, 54, 307, 404, 1300 },
        { 16, 36, 11, 23, 432, 698, 148 },
        { 18, 10, 31, 93, 240, 160, 777 },
        { 4, 11, 19, 20, 454, 497, 1431 },
        { 23, 18, 66, 197, 294, 100, 659 },
        { 5, 54, 49, 46, 479, 518, 352 },
        { 3, 40, 81, 162, 289, 92, 1177 },
        { 29, 27, 96, 101, 373, 464, 836 },
        { 11, 35, 38, 76, 104, 592, 1572 },
        { 4, 25, 83, 78, 141, 198, 348 },
        { 8, 46, 42, 253, 270, 856, 1040 },
        { 2, 24, 58, 124, 439, 235, 779 },
        { 11, 33, 24, 143, 333, 134, 476 },
        { 11, 18, 25, 63, 399, 542, 191 },
        { 3, 37, 92, 41, 14, 545, 1393 },
        { 15, 35, 38, 214, 277, 777, 1752 },
        { 13, 21, 120, 70, 412, 483, 1627 },
    },
    {
        { 0, 0, 0, 0, 0, 0, 0 },
        { 13, 44, 35, 162, 312, 285, 1189 },
        { 19, 51, 97, 7, 503, 554, 458 },
        { 14, 12, 112, 31, 388, 809, 460 },
        { 15, 15, 64, 164, 48, 185, 1039 },
        { 20, 12, 93, 11, 7, 49, 1000 },
        { 17, 4, 99, 237, 185, 101, 1265 },
        { 4, 7, 94, 125, 328, 82, 1223 },
        { 4, 2, 103, 133, 254, 898, 874 },
        { 11, 30, 91, 99, 202, 627, 1292 },
        { 17, 53, 3, 105, 285, 154, 1491 },
        { 20, 23, 6, 17, 11, 65, 631 },
        { 8, 29, 39, 97, 168, 81, 464 },
        { 22, 37, 113, 91, 127, 823, 461 },
        { 19, 42, 92, 211, 8, 50, 844 },
        { 15, 48, 119, 128, 437, 413, 392 },
        { 5, 4, 74, 82, 475, 462, 922 },
        { 21, 10, 73, 115, 85, 175, 256 },
        { 17, 18, 116, 248, 419, 715, 1986 },
        { 9, 56, 31, 62, 459, 537, 19 },
        { 20, 9, 127, 26, 468, 722, 266 },
        { 18, 11, 98, 140, 209, 37, 471 },
        { 31, 23, 23, 121, 311, 488, 1166 },
        { 13, 8, 38, 12, 211, 179, 1300 },
        { 2, 7, 18, 41, 510, 430, 1033 },
        { 18, 24, 62, 249, 320, 264, 1606 },
    },
};

//! the M x M blocks of H (131.0-B-5 7.4.2.3): {block row, block column, permutations}, 0 = I_M
struct ar4ja_block {
    int row, col;
    std::vector<int> pis;
};

std::vector<ar4ja_block> ar4ja_layout(int extra) // extra block columns: 0 (1/2), 2 (2/3), 6 (4/5)
{
    // H_1/2 = [0 0 I 0 I+P1; I I 0 I P2+P3+P4; I P5+P6 0 P7+P8 I], after the rate's extra columns
    std::vector<ar4ja_block> b = { { 0, extra + 2, { 0 } },        { 0, extra + 4, { 0, 1 } },
                                   { 1, extra + 0, { 0 } },        { 1, extra + 1, { 0 } },
                                   { 1, extra + 3, { 0 } },        { 1, extra + 4, { 2, 3, 4 } },
                                   { 2, extra + 0, { 0 } },        { 2, extra + 1, { 5, 6 } },
                                   { 2, extra + 3, { 7, 8 } },     { 2, extra + 4, { 0 } } };
    if (extra >= 2) { // H_2/3 = [0 0; P9+P10+P11 I; I P12+P13+P14 | H_1/2]
        const int e = extra - 2;
        for (const ar4ja_block& x : std::vector<ar4ja_block>{ { 1, e + 0, { 9, 10, 11 } }, { 1, e + 1, { 0 } },
                                                              { 2, e + 0, { 0 } }, { 2, e + 1, { 12, 13, 14 } } })
            b.push_back(x);
    }
    if (extra >= 6) // H_4/5 = [0 0 0 0; P21+P22+P23 I P15+P16+P17 I; I P24+P25+P26 I P18+P19+P20 | H_2/3]
        for (const ar4ja_block& x :
             std::vector<ar4ja_block>{ { 1, 0, { 21, 22, 23 } }, { 1, 1, { 0 } }, { 1, 2, { 15, 16, 17 } }, { 1, 3, { 0 } },
                                       { 2, 0, { 0 } }, { 2, 1, { 24, 25, 26 } }, { 2, 2, { 0 } }, { 2, 3, { 18, 19, 20 } } })
            b.push_back(x);
    return b;
}

} // namespace

std::vector<std::string> ccsds_ar4ja_ids()
{
    std::vector<std::string> ids;
    for (int k : { 1024, 4096, 16384 })
        for (int kk : { 2, 4, 8 }) // n / k: 2 (rate 1/2), 3/2 (2/3), 5/4 (4/5): n = k (K + 2) / K
            ids.push_back("ccsds:" + std::to_string(k * (kk + 2) / kk) + ":" + std::to_string(k));
    return ids;
}

ldpc_code ccsds_ar4ja_code(int n, int k, const std::string& id)
{
    // K = 2, 4, 8 information blocks of M (Table 7-2): n (sent) = (K + 2) M, k = K M
    int K = 0;
    for (int kk : { 2, 4, 8 })
        if (k * (kk + 2) == n * kk)
            K = kk;
    const int M = K ? k / K : 0;
    int mi = -1;
    for (int i = 0; i < 7; ++i)
        if (M == (128 << i))
            mi = i;
    if (!K || mi < 0 || (k != 1024 && k != 4096 && k != 16384))
        throw std::invalid_argument("LDPC code '" + id + "': CCSDS AR4JA codes are (n, k) with k = 1024, 4096 or 16384 "
                                    "and rate 1/2, 2/3 or 4/5 (n = 2k, 3k/2, 5k/4)");
    const int z = M / 4, extra = K - 2;
    // each permutation Pi_k of an M block: row i = a z + r (a = i div z) has its 1 at column
    // z ((theta_k + a) mod 4) + (phi_k(a, M) + r) mod z: in the 4 x 4 sub-blocks, circulant
    // (a, (theta_k + a) mod 4) of shift phi_k(a, M) mod z; I_M: the 4 diagonal ones of shift 0.
    // Sums are mod 2: a circulant met twice cancels.
    std::map<std::tuple<int, int, int>, int> count;
    for (const auto& b : ar4ja_layout(extra))
        for (int pk : b.pis)
            for (int a = 0; a < 4; ++a) {
                const int col = pk == 0 ? a : (ar4ja_theta[pk - 1] + a) % 4;
                const int shift = pk == 0 ? 0 : ar4ja_phi[a][pk - 1][mi] % z;
                ++count[{ 4 * b.row + a, 4 * b.col + col, shift }];
            }
    std::vector<qc_circulant> circ;
    for (const auto& [key, times] : count)
        if (times % 2)
            circ.push_back({ std::get<0>(key), std::get<1>(key), std::get<2>(key), -1 });
    ldpc_code code = ldpc_code::from_circulants(z, 12, 4 * (K + 3), std::move(circ), id);
    code.set_default_puncture(std::to_string((K + 2) * M) + ":" + std::to_string((K + 3) * M));
    return code;
}

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

/* 131.0-B 7.3.4: the generator of the (8176, 7154) subcode is [I | B], B of 14 x 2 circulants
 * whose first rows z_i = (b_i1, b_i2) solve M_i u + D z_i = 0 (M_i: block column i of H, u the
 * unit vector, D the last two block columns, of rank 1020) with z_i's 511th and 1022nd bits 0.
 * Solved here by elimination of [M_1 u .. M_14 u | D without those two columns]: the 1020
 * pivots fall in D's columns, and each parity bit's sum names the blocks whose z_i hold it. */
std::vector<std::vector<uint8_t>> c2_generator_first_rows(const ldpc_code& basic)
{
    const int z = 511, kb = 14, np = 2 * z;
    std::vector<int> sub_col(size_t(basic.n()), -1); // H's column -> the system's, or -1
    for (int i = 0; i < kb; ++i)
        sub_col[size_t(i * z)] = i;
    std::vector<int> parity_of; // the system's column - kb -> parity position 0 .. 1021
    for (int t = 0; t < np; ++t)
        if (t != z - 1 && t != np - 1) {
            sub_col[size_t(kb * z + t)] = kb + int(parity_of.size());
            parity_of.push_back(t);
        }
    std::vector<int> start(1, 0), cols;
    for (int r = 0; r < basic.m(); ++r) {
        for (int e = basic.row_start()[size_t(r)]; e < basic.row_start()[size_t(r) + 1]; ++e)
            if (sub_col[size_t(basic.row_cols()[size_t(e)])] >= 0)
                cols.push_back(sub_col[size_t(basic.row_cols()[size_t(e)])]);
        start.push_back(int(cols.size()));
    }
    const gf2_systematic s = gf2_make_systematic(kb + int(parity_of.size()), start, cols);
    if (s.rank != int(parity_of.size()) || s.info_cols.size() != size_t(kb) || s.info_cols.back() != kb - 1)
        throw std::logic_error("CCSDS C2: the generator's system does not solve (rank " + std::to_string(s.rank) + ")");
    std::vector<std::vector<uint8_t>> rows(size_t(kb), std::vector<uint8_t>(size_t(np), 0));
    for (size_t p = 0; p < s.parity_cols.size(); ++p)
        for (int i : s.parity_sums[p])
            rows[size_t(i)][size_t(parity_of[size_t(s.parity_cols[p] - kb)])] = 1;
    return rows;
}

ldpc_code ccsds_c2_transmitted_code(const std::string& id)
{
    // 131.0-B 7.3.4-7.3.6: the expurgated (8176, 7154) code, shortened by 18 leading zero
    // information bits (not sent) and extended by two zero bits: 8160 bits, 7136 of information
    ldpc_code code = ccsds_c2_code(id);
    code.set_generator(qc_encoder::from_first_rows(511, 2, c2_generator_first_rows(code)));
    code.set_default_shorten("0:18");
    code.set_fill_bits(2);
    return code;
}

/* The telecommand codes of 231.0-B (4.2; 231.1-O-1 2.2): H of 4 x 8 blocks of M = k / 4, each
 * empty, a circulant of shift s (Phi^s, row r's 1 at (r + s) mod M) or, on the diagonal of the
 * first four block columns, I + Phi^s. Shifts as in two open implementations that agree (the
 * labrador-ldpc-c constants, commit e019601, and a transcription of 231.1-O-1's tables); the
 * standard's generator (its Table 4-1 / 2-x) checks them in qa_ldpc_code. -1 empty, -2 - s:
 * I + Phi^s. */
const int tc64_blocks[4][8] = { { -9, 2, 14, 6, -1, 0, 13, 0 },
                                { 6, -17, 0, 1, 0, -1, 0, 7 },
                                { 4, 1, -17, 14, 11, 0, -1, 3 },
                                { 0, 1, 9, -15, 14, 1, 0, -1 } };
const int tc256_blocks[4][8] = { { -65, 30, 50, 25, -1, 43, 62, 0 },
                                 { 56, -63, 50, 23, 0, -1, 37, 26 },
                                 { 16, 0, -57, 27, 56, 0, -1, 43 },
                                 { 35, 56, 62, -13, 58, 3, 0, -1 } };

ldpc_code ccsds_tc_code(int n, int k, const std::string& id)
{
    if (!((n == 128 && k == 64) || (n == 512 && k == 256)))
        throw std::invalid_argument("LDPC code '" + id + "': the CCSDS telecommand codes are (128, 64) and (512, 256)");
    const auto& blocks = k == 64 ? tc64_blocks : tc256_blocks;
    std::vector<qc_circulant> circ;
    for (int rb = 0; rb < 4; ++rb)
        for (int cb = 0; cb < 8; ++cb) {
            const int v = blocks[rb][cb];
            if (v >= 0)
                circ.push_back({ rb, cb, v, -1 });
            else if (v <= -2) {
                circ.push_back({ rb, cb, 0, -1 });
                circ.push_back({ rb, cb, -2 - v, -1 });
            }
        }
    return ldpc_code::from_circulants(k / 4, 4, 8, std::move(circ), id);
}

} // namespace gpufec
