/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* 5G NR transport blocks for LDPC (3GPP TS 38.212): the base graph, code block segmentation
 * and its inverse (5.2.2), and rate matching of a code block (5.4.2): bit selection from the
 * circular buffer at the redundancy version's start k0, and bit interleaving over the Qm bits of
 * a modulation symbol; and the receiver's inverse, which adds soft values into the code block
 * so that retransmissions combine.
 *
 * The code block is the ldpc family's nr:bg<1|2>:<Z> code as it is sent (ldpc_transmission):
 * its first 2Z bits are never in the circular buffer, and its filler bits (K' .. K - 1, known
 * zeros) are <NULL> there: a frame of N - F values, N = 66Z (BG1) or 50Z (BG2), F = K - K'. That
 * is what the family's encoder with `shorten=<K'>:<K>` sends and its decoder takes. */
#ifndef INCLUDED_GPUFEC_CORE_NR_CODING_H
#define INCLUDED_GPUFEC_CORE_NR_CODING_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

//! Table 5.3.2-1: the set index (0..7) of lifting size Z = a 2^j (a = 2, 3, 5, .., 15; Z <= 384), or -1
int nr_lifting_set(int Z);

/*! 7.2.2 (DL-SCH) and 6.2.2 (UL-SCH): the base graph of a transport block of A payload bits at
 *  code rate R: 2 where A <= 292, or A <= 3824 with R <= 0.67, or R <= 0.25; else 1 */
int nr_base_graph(int A, double R);

//! 7.2.1 / 6.2.1: the transport block's CRC: 24 bits (CRC24A) where A > 3824, else 16 (CRC16)
int nr_tb_crc_bits(int A);

/*! 5.2.2: how B bits (the transport block with its CRC) are cut into code blocks of base
 *  graph bg: C blocks of K' bits each (the last L of them the block's CRC24B where C > 1),
 *  lifting size Z, K = 22Z or 10Z bits with F = K - K' filler bits at the end. */
struct nr_segmentation {
    int B = 0, bg = 1;
    int C = 0, L = 0;
    int K_prime = 0, K = 0, Z = 0, F = 0;

    static nr_segmentation compute(int B, int bg);
    //! the ldpc family's options of a code block: "code=nr:bg<bg>:<Z>, shorten=<K'>:<K>"
    std::string ldpc_options() const;
};

/*! The code blocks of B bits (0/1 a byte): C blocks of K' bits, each with its CRC24B where
 *  C > 1 (the encoder's input with shorten=K':K) */
std::vector<std::vector<uint8_t>> nr_segment(const nr_segmentation& seg, const uint8_t* bits);
/*! The B bits back from the C decoded blocks (K' bits each, back to back); where C > 1 each
 *  block's CRC24B is checked, the results in block_ok (C entries) if given. Returns whether
 *  every block passed. */
bool nr_desegment(const nr_segmentation& seg, const uint8_t* blocks, uint8_t* bits,
                  std::vector<uint8_t>* block_ok = nullptr);

class nr_rate_matcher
{
public:
    /*! bg: 1 or 2; Z: a lifting size of Table 5.3.2-1; K_prime: the code block's bits before
     *  its filler bits (K' <= K = 22Z or 10Z); Ncb: the circular buffer (0: all N bits; else
     *  limited buffer rate matching, 2Z .. N, whole blocks of Z not required). Else
     *  std::invalid_argument naming the argument. */
    nr_rate_matcher(int bg, int Z, int K_prime, int Ncb = 0);

    int N() const { return d_N; }         //!< the circular buffer's bits (66Z or 50Z)
    int Ncb() const { return d_Ncb; }
    int filler() const { return d_F; }    //!< F = K - K'
    int sent() const { return d_N - d_F; } //!< values a frame of the code block (N - F)
    //! 5.4.2.1, Table 5.4.2.1-2: where redundancy version rv (0..3) starts
    int k0(int rv) const;

    /*! E bits of version rv from a frame (sent() bits: the encoder's output with
     *  shorten=K':K), interleaved for a modulation of Qm bits a symbol (1, 2, 4, 6, 8; E a
     *  multiple of Qm) */
    std::vector<uint8_t> match(const uint8_t* frame, int E, int rv, int Qm) const;
    /*! The receiver: adds the E soft values of version rv (Qm as sent) into `acc` (sent()
     *  values, zero where nothing was received yet): repeated bits and retransmissions add up */
    void accumulate(const float* soft, int E, int rv, int Qm, float* acc) const;
    //! Sets received[i] (sent() flags) for each frame value that E values of version rv reach.
    void mark_received(int E, int rv, int Qm, uint8_t* received) const;
    /*! The ldpc family's `erased` option for a frame whose values came where `received` is set:
     *  the Z-bit block columns none of whose values came, as codeword ranges ("" for none), so
     *  that the decoder leaves out the rows only those tie to (ldpc_trim: a high-rate
     *  transmission's extension parity). Whole blocks only: the options of the code blocks of
     *  many E are then the same few (each is a decoder). */
    std::string ldpc_erased(const uint8_t* received) const;

private:
    //! the frame index of circular-buffer bit j (0 .. Ncb-1), or -1 for a filler bit
    int frame_index(int j) const;
    //! f(k, i) for each e_k of the E bits of version rv: frame value i (5.4.2.1; after check())
    template <class F>
    void select(int E, int rv, F&& f) const;
    void check(int E, int rv, int Qm) const;

    int d_bg, d_Z, d_N, d_Ncb, d_F, d_filler_at; // fillers: buffer bits d_filler_at .. + F
};

} // namespace gpufec

#endif
