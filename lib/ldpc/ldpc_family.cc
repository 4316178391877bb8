/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* LDPC as a frame family: its engine (ldpc_engine.h) under the one decoder over engines, and
 * its registration ("ldpc"). */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_encoder.h>
#include <gnuradio/gpufec/core/codes/bch.h>
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "ldpc_engine.h"
#include "ldpc_trim.h"
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

std::unique_ptr<batch_decoder> make_from_options(option_reader& r, const frame_common& common,
                                                 const device_spec& device)
{
    const std::string code = r.get("code");
    ldpc_options o;
    o.algorithm = parse_ldpc_algorithm(r.get("algorithm"));
    o.precision = parse_ldpc_precision(r.get("precision"));
    o.max_iterations = int(r.get_int("max_iterations"));
    o.early_termination = r.get_bool("early_termination");
    o.normalization = float(r.get_float("normalization"));
    o.offset = float(r.get_float("offset"));
    o.cpu_threads = common.cpu_threads;
    const std::string out = r.get("output");
    if (out != "info" && out != "codeword")
        throw std::invalid_argument("output: '" + out + "' is not valid (allowed: info, codeword)");
    const ldpc_code c = ldpc_code::named(code);
    const ldpc_transmission tx =
        ldpc_transmission::parse(c, r.get("puncture"), r.get("shorten"), r.get("interleaver"), r.get("erased"));
    return make_ldpc_frame_decoder(c, o, device, out == "info" ? ldpc_output::info : ldpc_output::codeword,
                                   common.max_batch, tx, ldpc_outer_code(c, r.get("outer")));
}

//! k information bits in (fewer the shortened ones), the bits sent out: the codeword without
//! its punctured and shortened bits (what a decoder with the same options undoes)
class ldpc_frame_encoder : public frame_encoder
{
public:
    ldpc_frame_encoder(const ldpc_code& code, const ldpc_transmission& tx, std::shared_ptr<const bch_code> outer)
        : d_enc(code), d_tx(tx), d_outer(std::move(outer)), d_sent(tx.sent(code)), d_info(size_t(code.k())),
          d_cw(size_t(code.n()))
    {
        // which of the k information bits (in info_columns order) the user gives
        const auto& cols = code.info_columns();
        for (size_t j = 0; j < cols.size(); ++j)
            if (!std::binary_search(tx.shortened.begin(), tx.shortened.end(), cols[j]))
                d_given.push_back(j);
        if (d_outer && size_t(d_outer->n()) != d_given.size())
            throw std::invalid_argument("outer: the BCH codeword's " + std::to_string(d_outer->n()) +
                                        " bits are not the " + std::to_string(d_given.size()) +
                                        " information bits the LDPC code takes (shorten changes them)");
        d_bch.resize(d_outer ? size_t(d_outer->n()) : 0);
    }
    size_t info_bits() const override { return d_outer ? size_t(d_outer->k()) : d_given.size(); }
    size_t coded_bits() const override { return d_sent.size() + size_t(d_tx.appended); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        if (!d_outer && d_tx.as_columns(d_enc.code())) {
            d_enc.encode_columns(bits, frames, coded);
            return;
        }
        for (size_t f = 0; f < frames; ++f) {
            const uint8_t* given = bits + f * info_bits();
            if (d_outer) { // BCH first: its codeword is the LDPC code's information (that is sent)
                d_outer->encode(given, d_bch.data());
                given = d_bch.data();
            }
            std::fill(d_info.begin(), d_info.end(), uint8_t(0)); // (shortened bits: 0)
            for (size_t j = 0; j < d_given.size(); ++j)
                d_info[d_given[j]] = given[j];
            encode_one(d_info.data(), coded + f * coded_bits());
        }
    }

private:
    //! k information bits (in info_columns order) to the bits sent
    void encode_one(const uint8_t* info, uint8_t* out)
    {
        d_enc.encode_columns(info, 1, d_cw.data());
        for (size_t i = 0; i < d_sent.size(); ++i)
            out[i] = d_cw[size_t(d_sent[i])];
        std::fill(out + d_sent.size(), out + coded_bits(), uint8_t(0)); // (the appended zeros)
    }

    ldpc_encoder d_enc;
    ldpc_transmission d_tx;
    std::shared_ptr<const bch_code> d_outer;
    std::vector<int> d_sent;
    std::vector<size_t> d_given;
    std::vector<uint8_t> d_info, d_cw, d_bch;
};

std::unique_ptr<frame_encoder> make_encoder_from_options(option_reader& r)
{
    const ldpc_code c = ldpc_code::named(r.get("code"));
    return std::make_unique<ldpc_frame_encoder>(c, ldpc_transmission::parse(c, r.get("puncture"), r.get("shorten"), r.get("interleaver")),
                                                ldpc_outer_code(c, r.get("outer")));
}

} // namespace

std::shared_ptr<const bch_code> ldpc_outer_code(const ldpc_code& code, const std::string& outer)
{
    if (outer.empty() || outer == "none")
        return nullptr;
    if (outer != "bch")
        throw std::invalid_argument("outer: '" + outer + "' is not valid (allowed: none, bch)");
    const std::string& id = code.id();
    if (id.rfind("dvbs2:", 0) != 0)
        throw std::invalid_argument("outer: bch is DVB-S2's outer code; the code " + id + " has none");
    const auto c2 = id.rfind(':');
    return std::make_shared<const bch_code>(bch_code::dvbs2(std::stoi(id.substr(6, c2 - 6)), id.substr(c2 + 1)));
}

std::unique_ptr<batch_decoder> make_ldpc_frame_decoder(const ldpc_code& code,
                                                       const ldpc_options& options,
                                                       const device_spec& device,
                                                       ldpc_output what,
                                                       int batch,
                                                       const ldpc_transmission& tx,
                                                       std::shared_ptr<const bch_code> outer)
{
    // the outer code's codeword: the information bits after the shortened ones, which must be
    // the leading ones, a whole number of bytes (DVB-S2X VL-SNR: 560 or 640), so that it starts
    // on a byte of the decisions
    const size_t xs = tx.shortened.size();
    if (outer) {
        bool leading = code.info_columns().back() == code.k() - 1 && xs % 8 == 0;
        for (size_t i = 0; i < xs && leading; ++i)
            leading = tx.shortened[i] == int(i);
        if (what != ldpc_output::info || !leading || size_t(outer->n()) + xs != size_t(code.k()))
            throw std::invalid_argument("outer: the outer code needs output info, the code's information bits first "
                                        "and none shortened but leading ones, and the " +
                                        std::to_string(code.k() - int(xs)) + " sent information bits as its codeword (" +
                                        std::to_string(outer->n()) + ")");
    }
    // where the output is the information bits, the graph decoded leaves out the block rows that
    // only unsent bits tie to (ldpc_trim.h: 5G NR at high rates); `col` maps a column of the
    // code to the graph's
    std::vector<int> unsent = tx.punctured; // (and the bits sent empty)
    unsent.insert(unsent.end(), tx.erased.begin(), tx.erased.end());
    std::sort(unsent.begin(), unsent.end());
    const std::optional<ldpc_trimmed_graph> trim =
        what == ldpc_output::info && !outer ? ldpc_trim_unsent(code, unsent) : std::nullopt;
    const ldpc_code& graph = trim ? trim->code : code;
    auto col = [&](int c) { return trim ? trim->column[size_t(c)] : c; };
    std::unique_ptr<ldpc_engine> engine = make_ldpc_engine(graph, options, device);
    const size_t n = size_t(graph.n());
    frame_shape shape;
    shape.family = "ldpc";
    shape.description = code.describe();
    if (trim)
        shape.description += ", " + std::to_string(graph.mb()) + " of its " + std::to_string(code.mb()) +
                             " block rows decoded (the others tie only to unsent bits)";
    shape.input_per_frame = n;
    // the bits out: the codeword, or its information bits but the shortened ones
    std::vector<int32_t> out_cols;
    if (what == ldpc_output::info) {
        for (int c : code.info_columns())
            if (!std::binary_search(tx.shortened.begin(), tx.shortened.end(), c))
                out_cols.push_back(col(c));
    } else { // the codeword as sent
        for (size_t c = 0; c < n; ++c)
            out_cols.push_back(code.send_order().empty() ? int32_t(c) : int32_t(code.send_order()[c]));
    }
    shape.output_bits = out_cols.size();
    // the engines write the leading bits of each codeword: the output itself where it is a
    // prefix of the codeword (the codeword, the information bits of a systematic-first code,
    // fewer the shortened ones at their end); else the codeword, from which the decoder takes
    // the output's columns
    bool prefix = true;
    for (size_t i = 0; i < out_cols.size() && prefix; ++i)
        prefix = out_cols[i] == int32_t(i);
    shape.packed_bits = prefix ? shape.output_bits : n;
    if (!prefix)
        shape.output_order = out_cols;
    if (trim || !tx.as_columns(code)) { // frames are the sent bits: the engine gets erasures and known zeros in between
        const std::vector<int> sent = tx.sent(code);
        shape.input_per_frame = sent.size() + size_t(tx.appended); // (the appended zeros: read by no bit)
        shape.input_order.assign(n, input_erased);
        for (int s : tx.shortened)
            shape.input_order[size_t(col(s))] = input_known_zero;
        for (size_t i = 0; i < sent.size(); ++i) // (a dropped column's value is read by no bit)
            if (col(sent[i]) >= 0)
                shape.input_order[size_t(col(sent[i]))] = int32_t(i);
        if (!tx.empty())
            shape.description += ", " + std::to_string(tx.punctured.size()) + " punctured, " +
                                 std::to_string(tx.shortened.size()) + " shortened" +
                                 (tx.appended ? ", " + std::to_string(tx.appended) + " zeros appended" : "");
        if (!tx.erased.empty())
            shape.description += ", " + std::to_string(tx.erased.size()) + " sent empty";
    }
    shape.has_check = true;
    shape.check_name = "syndrome_ok";
    if (outer) { // the engine decides the k LDPC information bits, the BCH decodes them in place
        shape.output_bits = size_t(outer->k());
        shape.packed_bits = size_t(code.k());
        shape.output_order.clear(); // (its message: the bits after the shortened ones)
        for (size_t i = 0; xs && i < shape.output_bits; ++i)
            shape.output_order.push_back(int32_t(xs + i));
        shape.check_name = "bch_ok";
        shape.description += ", outer " + outer->describe();
        const size_t at = xs / 8; // its first byte in the decisions
        if (!engine->take_outer(outer, at)) // (the GPU engine decodes it on the GPU)
            shape.post_frame = [outer, at](uint8_t* packed, float*, frame_status& st) {
                st.inner = st.check;
                st.check = int8_t(outer->decode_packed(packed + at) >= 0 ? 1 : 0);
            };
        else if (xs == 0 && engine->writes_outer_message()) {
            // (the GPU engine writes the messages themselves: the frames go straight to the
            // output, with no pass on the host over every frame's decisions)
            shape.packed_bits = shape.output_bits;
            shape.output_order.clear();
        }
    }
    if (!code.send_order().empty()) {
        // posteriors as the codeword is sent (DVB-S2's parity bits in the standard's order), not
        // in the engines' QC column order
        auto order = std::make_shared<const std::vector<int>>(code.send_order());
        auto before = shape.post_frame;
        shape.post_frame = [order, before](uint8_t* packed, float* soft, frame_status& st) {
            if (before)
                before(packed, soft, st);
            if (!soft)
                return;
            thread_local std::vector<float> cols;
            cols.assign(soft, soft + order->size());
            for (size_t i = 0; i < order->size(); ++i)
                soft[i] = cols[size_t((*order)[i])];
        };
    }
    engine->set_output_bits(int(shape.packed_bits));
    shape.soft_output = n;
    shape.iterates = true;
    shape.wants_float = options.precision == ldpc_precision::float32;
    // GPU: about 32 MB of int8 input per batch (the engine overlaps its chunks inside it);
    // CPU: enough codewords for every SIMD lane of every worker
    shape.batch_gpu = std::clamp<size_t>((size_t(32) << 20) / n, 256, 65536);
    shape.batch_cpu = std::clamp<size_t>((size_t(1) << 20) / n, 64, 1024);
    shape.min_efficient_cpu = 32;
    shape.min_efficient_gpu = 1024;
    shape.cpu_threads = options.cpu_threads;
    return make_engine_decoder(shape, std::move(engine), batch > 0 ? size_t(batch) : 0);
}

GPUFEC_REGISTER_FRAME_FAMILY(ldpc,
                             "ldpc",
                             "QC-LDPC and any LDPC code: layered / flooding min-sum, sum-product",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_from_options,
                             make_encoder_from_options,
                             "bpsk-awgn",
                             "",
                             { opt_text("code", "802.11n:1944:1/2",
                                        "a standard code (802.11n:<n>:<rate>, 802.16e:<n>:<rate>, nr:<bg1|bg2>:<Z>, dvbs2:<n>:<rate>, "
                                        "ccsds:<n>:<k>), an alist or base-matrix file"),
                               opt_choice("algorithm", "layered", { "layered", "flooding", "sum-product" },
                                          "layered min-sum (GPU and CPU), flooding min-sum or sum-product (CPU)",
                                          { "layered-min-sum", "flooding-min-sum", "spa" }),
                               opt_choice("precision", "int16", { "int8", "int16", "float" }, "the messages' arithmetic"),
                               opt_int("max_iterations", "10", 1, 1000, "iterations at most"),
                               opt_bool("early_termination", "true", "stop a codeword once its syndrome is zero"),
                               opt_real("normalization", "0", 0.0, 1.0,
                                        "min-sum's normalisation factor; 0: the code's own (DVB-S2/S2X: 0.75 .. 0.875 as measured per code, 5G NR 0.625, else 0.75)"),
                               opt_real("offset", "0", 0.0, 127.0, "min-sum's offset"),
                               opt_choice("output", "info", { "info", "codeword" }, "the information bits, or the whole codeword"),
                               opt_text("puncture", "",
                                        "codeword bits not sent, decoded as erasures: first:end ranges (end excluded) or "
                                        "positions, separated by spaces; default the code's own (nr: the first 2Z), none"),
                               opt_text("shorten", "",
                                        "information bits known to be 0, not sent and not output (filler bits): "
                                        "first:end ranges or positions; default the code's own (ccsds:8160:7136: "
                                        "the first 18), none"),
                               opt_text("erased", "",
                                        "codeword bits sent but empty (0 in the frame: a rate matcher never received "
                                        "them), decoded as erasures; rows tied only to such and punctured bits are "
                                        "not decoded: the same form as puncture, none"),
                               opt_choice("interleaver", "none", dvbs2_modulations(),
                                          "DVB-S2's bit interleaver (dvbs2 codes) for the modulation the frames are sent "
                                          "with: frames in the interleaved order; bpsk and qpsk interleave nothing"),
                               opt_choice("outer", "none", { "none", "bch" },
                                          "an outer code after LDPC: bch (DVB-S2's BCH; dvbs2 codes only): "
                                          "frames out are its K_bch message bits, the check its verdict") },
                             {},
                             {
                               "code=802.11n:648:1/2, max_iterations=10",
                               "code=802.16e:576:2/3A, precision=int8, early_termination=false",
                               "code=nr:bg2:20, precision=int8, max_iterations=8",
                               "code=nr:bg1:56, max_iterations=6",
                               "code=nr:bg1:24, shorten=500:528, precision=int8",
                               "code=ccsds:8160:7136, max_iterations=8",
                               "code=ccsds:128:64, max_iterations=20",
                               "code=802.11n:648:3/4, algorithm=flooding, precision=float, max_iterations=20" });

} // namespace gpufec
