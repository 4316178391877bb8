/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Time-varying block (TVB) codes for insertion/deletion channels: a message of N q-ary symbols,
 * symbol i sent as the n-bit codeword C_i(D) of codebook i mod (number of codebooks). Davey and
 * MacKay's watermark codes are the case C_i(D) = S(D) xor w_i: a sparse codebook S (the q
 * lowest-weight n-bit words) added to a pseudo-random watermark w_i; marker codes are
 * C(D) = the bits of D followed by fixed marker bits.
 *
 * tvb_map_decoder is the symbol-level MAP decoder over the BSID channel (bsid.h): the
 * forward-backward algorithm over the drift, with the receiver metric R(y | C_i(D)) computed by a
 * lattice limited to a corridor of drifts, alpha and beta normalised in double precision, the
 * lattice in single precision (as the reference decoder of Briffa's papers does). alpha, beta and
 * the APP sums may be kept in single precision instead (tvb_precision::float32), which the GPU
 * engine also offers: faster on GPUs with slow double precision, at the error docs/tvb.md states. */
#ifndef INCLUDED_GPUFEC_CORE_TVB_H
#define INCLUDED_GPUFEC_CORE_TVB_H

#include <gnuradio/gpufec/core/tvb/bsid.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

struct tvb_code {
    int q = 2; //!< symbols of the message alphabet, 2 .. 2^n
    int n = 1; //!< bits per codeword, 1 .. 32
    //! codebooks (each q codewords, bit 0 of the codeword sent first in bit n - 1 .. 0 order:
    //! the MSB first), used in turn
    std::vector<std::vector<uint32_t>> books;

    uint32_t codeword(size_t i, int D) const { return books[i % books.size()][size_t(D)]; }
    //! throws std::invalid_argument naming what is wrong
    void check() const;
    std::string describe() const;

    /*! Davey-MacKay: the q lowest-weight n-bit words (by weight, then value) plus a watermark,
     *  pseudo-random n bits per codebook (`books` codebooks, seed `seed`) */
    static tvb_code davey_mackay(int q, int n, int books, uint64_t seed);
    //! the q = 2^d words of d data bits followed by the marker bits (a string of 0 and 1)
    static tvb_code marker(int d, const std::string& marker_bits);
};

//! the most codebook words a TVB code holds (books x q): 2^26, 256 MiB
constexpr uint64_t tvb_max_codebook_words = uint64_t(1) << 26;

//! the longest frame a TVB decoder takes, in symbols (its set-up and memory grow with it)
constexpr long long tvb_max_block_length = 1 << 16;

/*! A TVB code from a SimCommSys system file, read as SimCommSys reads it (docs/tvb.md lists
 *  the subset): the "tvb" modem object (versions 1 .. 12) with the sparse codebook (type 0) or
 *  user codebooks used in sequence (type 2), and a marker that is zero (type 0) or user vectors
 *  used in sequence (type 2): codebook k of the code is table (k mod tables) xor marker vector
 *  (k mod vectors). Random codebooks and markers (types 1 and 3: SimCommSys's own generator),
 *  trellis pruning and codebooks of different lengths are refused. From the "qids" channel
 *  object (versions 1 .. 5): the cap on insertions; from an "uncoded" codec: the block length
 *  N. Errors name the file (`id`) and the line. */
struct tvb_system {
    tvb_code code;
    size_t N = 0;             //!< symbols a frame (the uncoded codec's block length); 0: not given
    bool has_channel = false; //!< the file has a qids channel object
    int insertion_cap = 0;    //!< its cap on insertions in a row; 0: uncapped
    int receiver_mode = 0;    //!< its receiver (0 trellis, 1 lattice, 2 lattice corridor): all decode alike here
    double exclusion = 1e-10; //!< probability of a channel event outside the limits (tvb version 9 on)
    int version = 0;          //!< the tvb object's format version
};
tvb_system tvb_from_simcommsys(const std::string& text, const std::string& id = "(text)");
//! reads the file (a regular file of at most 16 MiB) and parses it
tvb_system tvb_load_simcommsys(const std::string& path);

/*! SimCommSys's split of a probability of failure over `parts` independent events:
 *  1 - (1 - exclusion)^(1 / parts) (the codeword drift range of a frame of N codewords) */
double tvb_split_exclusion(double exclusion, size_t parts);

//! the sparse codebook: the q lowest-weight n-bit words, by weight then value (n 1 .. 24)
std::vector<uint32_t> tvb_sparse_codebook(int q, int n);
//! N symbols (each below q) to n N bits, one per byte
void tvb_encode(const tvb_code& code, const uint16_t* symbols, size_t N, uint8_t* bits);

//! the arithmetic of alpha, beta and the APP sums (the lattice is single precision in both)
enum class tvb_precision { float32, float64 };
//! "single" / "double" (float32 / float64)
std::string to_string(tvb_precision p);
//! "single" or "float" -> float32, "double" -> float64; else std::invalid_argument
tvb_precision parse_tvb_precision(const std::string& s);

struct tvb_result {
    bool erased = false; //!< the received length is outside the drift range (nothing decoded)
    int end_drift = 0;   //!< received minus sent bits
};

class tvb_map_decoder
{
public:
    /*! code, N symbols a frame, the channel, and the probability of a drift outside the range
     *  considered (the range comes from it: bsid_drift_limits over the frame and over a codeword) */
    tvb_map_decoder(const tvb_code& code,
                    size_t N,
                    const bsid_params& channel,
                    double exclusion = 1e-10,
                    tvb_precision precision = tvb_precision::float64);
    /*! Decodes `rho` received bits (one per byte). priors: N x q probabilities or null
     *  (equiprobable); app: N x q a-posteriori probabilities or null; symbols: N hard decisions
     *  (the most probable symbol) or null. */
    tvb_result decode(const uint8_t* rx, size_t rho, const double* priors, double* app, uint16_t* symbols);

    size_t N() const { return d_N; }
    int q() const { return d_code.q; }
    tvb_precision precision() const { return d_precision; }
    size_t frame_bits() const { return d_N * size_t(d_code.n); }
    drift_limits frame_drift() const { return d_mt; }
    drift_limits codeword_drift() const { return d_mn; }
    //! throws std::invalid_argument where decode() would need more memory than the machine can
    //! spare (its branch metrics: N x frame drifts x q x codeword drifts floats)
    void check_memory() const;
    //! the smallest and largest received lengths a frame may have
    size_t min_received() const;
    size_t max_received() const;

private:
    //! R(y[s .. s + n + d) | x) for every codeword drift d of the corridor into r (Mn values)
    void receiver_metric(const uint8_t* y, size_t avail, uint32_t x, float* r);
    //! forward-backward and APPs with alpha, beta and the sums in R
    template <class R>
    void forward_backward(int end_drift, double* app, uint16_t* symbols);
    template <class R>
    struct rows {
        std::vector<R> alpha, beta, L;
    };

    tvb_code d_code;
    size_t d_N;
    bsid_params d_ch;
    tvb_precision d_precision;
    drift_limits d_mt, d_mn;
    std::vector<float> d_gamma; //!< [i][m'][D][delta]
    rows<double> d_rows64;
    rows<float> d_rows32;
    std::vector<float> d_lattice;
};

/*! The CPU decoder that an options string of the "tvb" frame family describes (code, q, n, N,
 *  file, the channel, exclusion, precision: frame_family_options("tvb")), for decoding with
 *  priors (iterative decoding with an outer code), which the frame faces do not carry. */
std::unique_ptr<tvb_map_decoder> make_tvb_map_decoder(const std::string& options);

} // namespace gpufec

#endif
