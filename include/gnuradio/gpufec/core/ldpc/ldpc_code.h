/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPUFEC_CORE_LDPC_CODE_H
#define INCLUDED_GPUFEC_CORE_LDPC_CODE_H

#include <memory>
#include <string>
#include <vector>

namespace gpufec {

struct gf2_systematic;
class qc_encoder;

/*! One z x z block of a quasi-cyclic parity-check matrix: block row `row`, block column `col`
 *  hold the identity shifted right by `shift` (row r of the block has its 1 in column
 *  (r + shift) mod z); `missing` >= 0: that row of the block has no 1 (DVB-S2's corner), else
 *  -1. Several circulants may share a block (C2, DVB-S2): their 1s add up. */
struct qc_circulant {
    int row = 0, col = 0, shift = 0, missing = -1;
};

/*! A binary LDPC code: its parity-check matrix H (m checks x n bits), and where it is
 *  quasi-cyclic, the base matrix it was lifted from.
 *
 *  Quasi-cyclic (QC) codes: base matrix of mb x nb entries, -1 = all-zero z x z block,
 *  s >= 0 = the z x z identity shifted right by s (row r has its 1 in column (r + s) mod z).
 *
 *  Codeword bit order: the k information bits are the positions info_columns() (0 .. k-1 for
 *  the standard codes, which are systematic-first), the others are parity.
 *
 *  Standard codes are named "802.11n:<n>:<rate>" (n = 648, 1296, 1944; rates 1/2, 2/3, 3/4,
 *  5/6) and "802.16e:<n>:<rate>" (n = 576 + 96i up to 2304; rates 1/2, 2/3A, 2/3B, 3/4A,
 *  3/4B, 5/6), and the 5G NR mother codes "nr:bg1:<Z>" and "nr:bg2:<Z>" (3GPP TS 38.212, the 51
 *  lifting sizes Z of Table 5.3.2-1: n = 68 Z or 52 Z, k = 22 Z or 10 Z, every block column,
 *  the 2 Z punctured ones included), the DVB-S2 codes "dvbs2:<n>:<rate>" (EN 302 307-1: n = 64800
 *  at rates 1/4 .. 9/10, n = 16200 at 1/4 .. 8/9, the standard's nominal rates, and DVB-S2X's
 *  (EN 302 307-2) 23 + 7 rates, bits in the standard's order), the CCSDS codes "ccsds:<n>:<k>": C2 as sent (8160, 7136) and its basic code
 *  (8176, 7156), the telecommand codes (128, 64) and (512, 256), AR4JA (k = 1024, 4096, 16384,
 *  n = 2k, 3k/2, 5k/4); standard_ids() lists them all. */
class ldpc_code
{
public:
    //! A standard code by id; unknown ids throw std::invalid_argument listing the valid forms.
    static ldpc_code standard(const std::string& id);
    static std::vector<std::string> standard_ids();

    /*! A code from a file: an alist file (as gr-fec and AFF3CT write them), or a base-matrix
     *  text file: '#' comments, a line "Z=<lifting size>" (or a "[... Z=<z> ...]" header),
     *  then the rows of shifts. format "auto" tells them apart by the first line that is not a
     *  comment ("n m": alist; "Z=" or "[": base matrix). Malformed files throw
     *  std::invalid_argument naming the file, the line and the format; files over 64 MiB,
     *  directories and devices are refused. */
    static ldpc_code load(const std::string& path, const std::string& format = "auto");
    //! "alist", "base-matrix", or "" when the text starts like neither
    static std::string detect_format(const std::string& text);
    /*! What users type: a standard id ("802.11n:1944:1/2"), the path of a code file, or
     *  "alist:<path>" / "base-matrix:<path>" to name the format. */
    static ldpc_code named(const std::string& name);
    /*! Codes without the standards' dual-diagonal structure, whose last m columns cannot be
     *  solved one check at a time either, need Gaussian elimination of H
     *  (dense, about m * m * n / 64 word operations at worst). Larger codes are refused with a
     *  message naming this limit; GPUFEC_LDPC_MAX_ELIMINATION (word operations) or this call
     *  raises it. Default 2^36 (some seconds on one core). */
    static void set_elimination_limit(double word_operations);
    static double elimination_limit();
    static ldpc_code from_alist(const std::string& text, const std::string& id = "alist");
    static ldpc_code from_base_matrix_text(const std::string& text,
                                           const std::string& id = "base-matrix");
    static ldpc_code from_base_matrix(int z, int mb, int nb, const std::vector<int>& shifts,
                                      const std::string& id = "base-matrix");
    /*! A quasi-cyclic code from its circulants (several may share a block; none may repeat
     *  another). The checks are numbered block row by block row, each block row as row_stride()
     *  sub-layers (see there). */
    static ldpc_code from_circulants(int z, int mb, int nb, std::vector<qc_circulant> circulants,
                                     const std::string& id = "qc");
    //! Any H, given row by row as column lists.
    static ldpc_code from_rows(int n, const std::vector<std::vector<int>>& rows,
                               const std::string& id = "custom");

    const std::string& id() const { return d_id; }
    int n() const { return d_n; }
    int m() const { return d_m; }
    int k() const { return d_k; }
    double rate() const { return double(d_k) / d_n; }

    bool is_qc() const { return d_z > 0; }
    int z() const { return d_z; }
    int mb() const { return d_mb; }
    int nb() const { return d_nb; }
    /*! base matrix, row-major, mb x nb; empty when not quasi-cyclic, or when a block holds
     *  more than one circulant or misses an entry (then circulants() describes it) */
    const std::vector<int>& shifts() const { return d_shifts; }
    //! every circulant, by block row, then block column, then shift; empty when not QC
    const std::vector<qc_circulant>& circulants() const { return d_circulants; }
    /*! The decoding schedule of a QC code: block row (layer) b is taken as p = row_stride(b)
     *  sub-layers, sub-layer c holding the rows c, c + p, c + 2p, ... (z / p of them), so that
     *  the rows of a sub-layer touch distinct bits (a block of two circulants whose shifts
     *  differ by d puts rows d apart on one bit: p must not divide d) and number at most 512
     *  (the GPU's threads a codeword). p is the smallest divisor of z that gives both: 1 for
     *  blocks of one circulant and z <= 512. The checks (row_start / row_cols) are in this
     *  order, which every engine follows, so all give the same bits. */
    int row_stride(int block_row) const { return d_row_stride[size_t(block_row)]; }
    /*! Where not empty: the codeword as transmitted is column send_order()[i] at position i
     *  (DVB-S2: its accumulator's parity bits, which the QC form permutes); the encoders and
     *  decoders of the family speak the transmitted order, puncture and shorten positions
     *  included. Empty: the column order. */
    const std::vector<int>& send_order() const { return d_send_order; }
    void set_send_order(std::vector<int> order); //!< (a permutation of 0 .. n-1; builders use it)
    /*! The parity part (last mb block columns) has the standards' form: in the first
     *  core_rows() block rows a dual-diagonal core (one column of weight 3, shifts a, .., b,
     *  .., a, then an identity staircase), below them (5G NR) one unshifted identity per row
     *  on the diagonal with nothing to its right. Such codes are encoded in linear time. */
    bool dual_diagonal() const { return d_dual_diagonal; }
    //! block rows of the dual-diagonal core (mb for 802.11n and 802.16e, 4 for 5G NR)
    int core_rows() const { return d_core_rows; }

    //! H in compressed rows: the columns of row r are row_cols[row_start[r] .. row_start[r+1])
    const std::vector<int>& row_start() const { return d_row_start; }
    const std::vector<int>& row_cols() const { return d_row_cols; }
    int edges() const { return static_cast<int>(d_row_cols.size()); }
    int max_row_degree() const;
    std::vector<int> row_degrees() const;
    std::vector<int> column_degrees() const;

    const std::vector<int>& info_columns() const { return d_info_cols; }
    /*! Codes without the dual-diagonal structure: the encoder's parity equations, found when the
     *  code was built: solved one check at a time where the last m columns allow it (DVB-S2's
     *  accumulator), else by Gaussian elimination; null for dual-diagonal codes. */
    const gf2_systematic* systematic_form() const { return d_form.get(); }

    /*! The min-sum normalisation that decodes this code best where the options leave it to the
     *  code (ldpc_options::normalization 0): for the DVB-S2 and S2X codes 0.75, 0.8125 or 0.875,
     *  each code's best in a measured sweep (docs/ldpc.md), 0.625 for 5G NR (measured too), 0.75
     *  for the others. Standard codes' builders set it. */
    float default_normalization() const { return d_normalization; }
    void set_default_normalization(float n) { d_normalization = n; }
    /*! The bits the standard never sends, as an ldpc_transmission puncture text ("first:end"):
     *  5G NR's first 2Z, AR4JA's last M; "" for none. Standard codes' builders set it. */
    const std::string& default_puncture() const { return d_default_puncture; }
    void set_default_puncture(const std::string& p) { d_default_puncture = p; }
    /*! The information bits the standard never sends because they are known zeros, as an
     *  ldpc_transmission shorten text: C2's (8160, 7136) form its first 18; "" for none. */
    const std::string& default_shorten() const { return d_default_shorten; }
    void set_default_shorten(const std::string& s) { d_default_shorten = s; }
    //! zero bits the standard appends after each codeword as sent (C2's (8160, 7136) form: 2)
    int fill_bits() const { return d_fill_bits; }
    void set_fill_bits(int bits);
    /*! QC codes whose parity part inverts over the circulants (AR4JA), or whose standard
     *  tabulates a block-circulant generator (C2's (8160, 7136) form): their linear-time encoder */
    const qc_encoder* qc_form() const { return d_qc.get(); }
    /*! Encode with a block-circulant generator instead (its codewords must satisfy H): the code
     *  becomes the generator's subcode, k its information bits, the first k columns (C2: the
     *  expurgated code of 7154 bits, where H alone leaves 7156). Builders use it. */
    void set_generator(std::shared_ptr<const qc_encoder> generator);

    std::string to_alist() const;
    std::string describe() const; //!< "802.11n:1944:1/2 (n=1944, k=972, QC z=81)"

    //! true when every check of H is satisfied by the hard bits (0/1 per byte)
    bool satisfied(const unsigned char* codeword) const;

private:
    void finish(); // degrees, rank, info columns, checks

    std::string d_id;
    int d_n = 0, d_m = 0, d_k = 0;
    int d_z = 0, d_mb = 0, d_nb = 0;
    std::vector<int> d_shifts;
    std::vector<qc_circulant> d_circulants;
    std::vector<int> d_row_stride; // per block row
    std::vector<int> d_send_order;
    bool d_dual_diagonal = false;
    int d_core_rows = 0;
    float d_normalization = 0.75f;
    std::string d_default_puncture, d_default_shorten;
    int d_fill_bits = 0;
    std::shared_ptr<const qc_encoder> d_qc; // shared by copies; computed once
    std::vector<int> d_row_start, d_row_cols;
    std::vector<int> d_info_cols;
    std::shared_ptr<const gf2_systematic> d_form; // shared by copies; computed once
};

} // namespace gpufec

#endif
