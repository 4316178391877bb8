/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Turbo codes: the LTE code (TS 36.212 5.1.3.2: two 8-state RSC codes, feedback 13 and
 * feed-forward 15 octal, the QPP interleaver, 12 tail bits) for all 188 block sizes, the CCSDS
 * code (131.0-B section 6: two 16-state RSC codes, feedback 23 and feed-forward 33, 25, 37
 * octal, its permutation, K = 1784, 3568, 7136, 8920, rates 1/2, 1/3, 1/4, 1/6), their encoder,
 * and the decoders (BCJR in the log domain, exact max* or max-log with extrinsic scaling,
 * optional sliding windows with the previous iteration's boundary metrics, early stop on a CRC or
 * on unchanged decisions).
 *
 * LTE codeword layout (what the encoder writes and the decoder reads): the three streams d0, d1,
 * d2 of K + 4 values each, one after the other, as 36.212 5.1.3.2 defines them and as an LTE
 * receiver has them after sub-block deinterleaving (OpenAirInterface's order): d0 = the
 * systematic bits, d1 = the first parity, d2 = the second parity, each followed by 4 of the 12
 * tail bits in the standard's order. layout=interleaved takes (d0_k, d1_k, d2_k) triplets
 * instead (srsRAN's order).
 *
 * CCSDS codeword: the standard's multiplexed order (131.0-B 6.3, figure 6-2 and its note), K + 4
 * bit times of (out 0a, out 1a, out 1b) at rate 1/3, (0a, 2a, 3a, 1b) at 1/4, (0a, 1a, 2a, 3a, 1b,
 * 3b) at 1/6, and (0a, 1a) / (0a, 1b) on even / odd bit times at 1/2; during the 4 termination bit
 * times out 0a carries encoder a's feedback bits. Soft values: positive = bit 1. */
#ifndef INCLUDED_GPUFEC_CORE_TURBO_H
#define INCLUDED_GPUFEC_CORE_TURBO_H

#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/codes/interleaver.h>
#include <gnuradio/gpufec/core/codes/trellis.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufec {

enum class turbo_layout { streams, interleaved };
enum class turbo_standard { lte, ccsds };

struct turbo_code {
    turbo_standard standard = turbo_standard::lte;
    int K = 0;
    int rate_inv = 3; //!< the code rate is 1 / rate_inv (LTE: 3)
    trellis rsc;      //!< the constituent code (both encoders); CCSDS: outputs 1..3 = G1, G2, G3
    interleaver pi;   //!< c'_i = c_pi(i)
    turbo_layout layout = turbo_layout::streams;

    //! the LTE code of block size K (one of the 188 of table 5.1.3-3)
    static turbo_code lte(int K, turbo_layout layout = turbo_layout::streams);
    //! the CCSDS code of block size K (1784, 3568, 7136, 8920) and rate 1 / rate_inv (2, 3, 4, 6)
    static turbo_code ccsds(int K, int rate_inv = 3);
    /*! "lte:6144" (K one of the 188 sizes), "ccsds:1784" (rate 1/3), "ccsds:8920:1/6"; the
     *  layout is LTE's only (a CCSDS codeword has one order) */
    static turbo_code named(const std::string& id, turbo_layout layout = turbo_layout::streams);

    int tail_stages() const { return rsc.k() - 1; } //!< per constituent code: LTE 3, CCSDS 4
    int stages() const { return K + tail_stages(); }
    //! LTE: 3 (K + 4); CCSDS: rate_inv (K + 4)
    size_t coded_bits() const
    {
        return standard == turbo_standard::lte ? 3 * size_t(K) + 12 : size_t(rate_inv) * (size_t(K) + 4);
    }
    std::string id() const;
    std::string describe() const;
    /*! Where output r (0: systematic, 1..: parities) of encoder e (0: natural order, 1:
     *  interleaved) at trellis stage k (0..stages()-1) sits in the codeword; -1 when it is not
     *  sent (punctured, or encoder 1's systematic bits, which are encoder 0's in another order). */
    int64_t position(int e, int r, int k) const
    {
        return d_map[(size_t(e) * size_t(rsc.n()) + size_t(r)) * size_t(stages()) + size_t(k)];
    }
    //! LTE only: position in a codeword of stream `d` (0..2), index k (0..K+3)
    size_t pos(int d, size_t k) const
    {
        return layout == turbo_layout::streams ? size_t(d) * (size_t(K) + 4) + k : 3 * k + size_t(d);
    }

private:
    void build_map();
    std::vector<int32_t> d_map; // position(), (e, r, k) row-major
};

turbo_layout parse_turbo_layout(const std::string& name);

//! K information bits (one per byte) -> the coded_bits() code bits, in the code's order
void turbo_encode(const turbo_code& code, const uint8_t* bits, uint8_t* coded);

/*! max_log, log_map: the BCJR of each constituent code, two half-iterations per iteration.
 *  fptd: the fully parallel turbo decoder (Li, Maunder et al., SIMD FPTD): every trellis stage
 *  of both codes is an algorithmic block using its neighbours' metrics of the previous half-
 *  iteration; odd stages of the upper code and even stages of the lower code in one
 *  half-iteration, the others in the next (exact max*, float). fptd_max_log: the same with
 *  max-log (the paper's GPU configuration): the CPU and the GPU give the same bits; every
 *  iteration runs by default. */
enum class turbo_algorithm { max_log, log_map, fptd, fptd_max_log };
turbo_algorithm parse_turbo_algorithm(const std::string& name);
std::string turbo_algorithm_name(turbo_algorithm a);

struct turbo_options {
    turbo_algorithm algorithm = turbo_algorithm::max_log;
    int max_iterations = 6; //!< full iterations (two half-iterations each)
    //! extrinsic scaling (max-log's usual correction; 1 for log-map)
    float scaling = 0.75f;
    //! stages per sliding window (0: the whole block, exact BCJR); windows start from the
    //! previous iteration's boundary metrics
    int window = 0;
    /*! the fixed-point engine: each window's forward recursion starts this many stages before it
     *  and its backward recursion this many after it (from the known ends of the block where
     *  they are nearer), from the metrics stored there in the previous iteration */
    int training = 32;
    /*! "" (none) or a crc_spec name ("lte-24a", "lte-24b", "ccsds-16", ...): the last bits of
     *  the K are this CRC; the decoder outputs the bits before it and reports the check */
    std::string crc;
    //! stop a frame when its CRC passes, or (without CRC) when its decisions stop changing
    bool early_termination = true;
    /*! the GPU FPTD (fptd-max-log): when a batch of one frame is decoded, the kernel for the next
     *  one is launched at once and waits on the GPU for its frame, holding its multiprocessors
     *  (a cluster) for up to 4 ms; a frame that comes within 2 ms of the one before skips the
     *  launch. No effect on the CPU. */
    bool prelaunch = false;
    /*! the fixed-point max-log engine's metrics: 16 (int16: CPU and GPU, the same bits) or 8
     *  (int8 lanes with saturation, twice the frames per vector: the CPU only, its own bits) */
    int precision = 16;
    int cpu_threads = 0;

    void validate() const;
};

} // namespace gpufec

#endif
