/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_LDPC_H
#define INCLUDED_GPUFEC_CORE_LDPC_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {

class bch_code;

/*! layered  TDMP: check rows processed layer by layer, each using the posteriors the previous
 *           layers updated (converges in about half the iterations of flooding).
 *  flooding TPMP: all checks, then all bits, per iteration.
 *  The check update is min-sum (normalised by `normalization`, less `offset`) or, for
 *  sum_product, the exact tanh rule (float only). */
enum class ldpc_algorithm { layered_min_sum, flooding_min_sum, sum_product };
/*! Message arithmetic. int8 / int16: every message and posterior saturates at +-127 /
 *  +-32767, in the units of the int8 input; float: no saturation. */
enum class ldpc_precision { float32, int16, int8 };
enum class ldpc_output { info, codeword };

ldpc_algorithm parse_ldpc_algorithm(const std::string& name); //!< "layered", "flooding", "sum-product"
std::string to_string(ldpc_algorithm a);
ldpc_precision parse_ldpc_precision(const std::string& name); //!< "float", "int16", "int8"
std::string to_string(ldpc_precision p);

struct ldpc_options {
    ldpc_algorithm algorithm = ldpc_algorithm::layered_min_sum;
    ldpc_precision precision = ldpc_precision::int16;
    int max_iterations = 10;
    //! stop a codeword as soon as all its checks are satisfied (tested after each iteration)
    bool early_termination = true;
    /*! min-sum magnitudes are multiplied by this (fixed point: in sixteenths, rounded) ...;
     *  0: the code's own (ldpc_code::default_normalization(): 0.75 .. 0.875 for DVB-S2/S2X, measured per code; 5G NR 0.625; else 0.75) */
    float normalization = 0.f;
    //! ... and then reduced by this, not below zero (input units)
    float offset = 0.f;
    int max_batch = 0;          //!< codewords per GPU chunk; 0 = sized from the GPU
    bool cpu_reference = false; //!< CPU: the plain reference decoder instead of the fast one
    int cpu_threads = 0;        //!< CPU: 0 = every core

    void validate() const;
};

//! Per codeword: iterations run, and whether hard decisions satisfy every check at the end
//! (never for a codeword whose soft values are all 0: it carries nothing, see frame_status).
struct ldpc_result {
    int32_t iterations = 0;
    int32_t syndrome_ok = 0;
};

/*! Decodes batches of LDPC codewords.
 *
 *  Input: n soft values per codeword in the module's convention (positive = bit 1, int8 as
 *  produced by quantize_soft; or float, quantised here with `scale` unless the precision is
 *  float32). Output: the k information bits (at code.info_columns()) or the n codeword bits,
 *  one per byte or packed MSB first per codeword. Optionally per-codeword results and the
 *  posterior soft values (n per codeword, positive = bit 1, input units). The convenience
 *  face of make_ldpc_frame_decoder (what blocks and apps use), for C++ callers. */
class ldpc_decoder
{
public:
    ldpc_decoder(const ldpc_code& code, const ldpc_options& options, const device_spec& device);
    ~ldpc_decoder();

    std::string backend() const;
    const ldpc_code& code() const { return d_code; }
    const ldpc_options& options() const { return d_opts; }
    size_t output_bits(ldpc_output what) const
    {
        return what == ldpc_output::info ? size_t(d_code.k()) : size_t(d_code.n());
    }

    void decode(const int8_t* soft,
                size_t frames,
                uint8_t* out,
                ldpc_output what = ldpc_output::info,
                bool packed = false,
                ldpc_result* results = nullptr,
                float* posteriors = nullptr);
    //! returns how many input values were NaN (decoded as erasures, 0)
    size_t decode(const float* soft,
                  size_t frames,
                  uint8_t* out,
                  ldpc_output what = ldpc_output::info,
                  bool packed = false,
                  ldpc_result* results = nullptr,
                  float* posteriors = nullptr,
                  float scale = 32.0f);

    //! GPU: seconds per batch of the kernels alone, data already on the device; CPU: -1
    double time_kernels_only(const int8_t* soft, size_t frames, int reps);

private:
    //! the frame decoder of one output (the information bits: made at construction)
    batch_decoder& decoder(ldpc_output what);
    void copy_results(size_t frames, ldpc_result* results) const;

    ldpc_code d_code;
    ldpc_options d_opts;
    device_spec d_device;
    std::unique_ptr<batch_decoder> d_info, d_codeword;
    std::vector<frame_status> d_status;
};

/*! How a codeword is sent: the bits left out. Punctured bits are not sent and are decoded as
 *  erasures (5G NR's first 2Z bits, AR4JA's last block); shortened bits are information bits
 *  known to be 0, neither sent nor given to the user (filler bits, virtual fill). The rest is
 *  sent in the code's send order (ldpc_code::send_order(): DVB-S2), else in codeword order. */
struct ldpc_transmission {
    std::vector<int> punctured, shortened; //!< the code's columns, ascending
    int appended = 0; //!< zero bits sent after the codeword (the code's fill_bits(): C2 as sent, 2)
    /*! where not empty: the frame as sent goes through a bit interleaver, position p carrying
     *  the codeword's bit interleaver[p] in the send order (DVB-S2's for 8PSK and APSK) */
    std::vector<int> interleaver;
    /*! columns sent but known to carry nothing (their frame values are 0: a rate matcher that
     *  never received them): decoded as erasures, and where a block row ties only to such bits
     *  and punctured ones, left out of the graph decoded (ldpc_trim) */
    std::vector<int> erased;

    bool empty() const { return punctured.empty() && shortened.empty() && appended == 0 && interleaver.empty(); }
    //! every bit sent, in column order: the frames are the codewords as the engines hold them
    bool as_columns(const ldpc_code& code) const { return empty() && code.send_order().empty(); }
    /*! From option texts: "first:end" ranges (end excluded) or single positions, separated by
     *  spaces; "none": none; positions as sent (the code's send order). Positions must lie in the code, shortened ones among its
     *  information bits, and no position in both; else std::invalid_argument naming the
     *  option. "" takes the code's own: `puncture` nr's first 2Z bits, AR4JA's last M;
     *  `shorten` C2's (8160, 7136) first 18 bits; else none. `interleaver`: "" or "none", or
     *  a DVB-S2 modulation for the dvbs2 codes (dvbs2_bit_interleaver; with neither puncturing
     *  nor shortening). `erased`: positions as `puncture`, each one sent ("" or "none": none). */
    static ldpc_transmission parse(const ldpc_code& code, const std::string& puncture, const std::string& shorten,
                                   const std::string& interleaver = "", const std::string& erased = "");
    //! the codeword positions sent, in the order they are sent (the appended zeros follow them)
    std::vector<int> sent(const ldpc_code& code) const;
};

/*! LDPC behind the batch_decoder interface (what the blocks and apps use); `batch` is the
 *  number of codewords per call it is sized for (0: about 32 MB of input on a GPU). With a
 *  transmission, frames are the sent values (tx.sent()) and the information output leaves the
 *  shortened bits out. With an outer code (DVB-S2's BCH: its n must be the code's k, the
 *  information bits first, output info, no shortening), each frame's k decided bits are
 *  decoded by it and the output is its k message bits; frame_status::check is then the outer
 *  code's verdict and frame_status::inner the syndrome's. */
std::unique_ptr<batch_decoder> make_ldpc_frame_decoder(const ldpc_code& code,
                                                       const ldpc_options& options,
                                                       const device_spec& device,
                                                       ldpc_output what = ldpc_output::info,
                                                       int batch = 0,
                                                       const ldpc_transmission& tx = {},
                                                       std::shared_ptr<const bch_code> outer = nullptr);

/*! The outer code an `outer` option names for a code: "none" or "" (none), "bch" (DVB-S2's, for
 *  the dvbs2:<n>:<rate> codes); std::invalid_argument otherwise. */
std::shared_ptr<const bch_code> ldpc_outer_code(const ldpc_code& code, const std::string& outer);

} // namespace gpufec

#endif
