/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* TVB codes over the BSID channel as a frame family ("tvb"): a frame is the received bits of
 * one message (its length varies: the channel inserts and deletes bits), the output the N
 * decoded symbols as bits (ceil(log2 q) each, MSB first) and, on request, their a-posteriori
 * probabilities (N x q). The input's sign is the received bit (positive = 1). */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/tvb/tvb.h>

#include "runtime/gpu_engine.h"
#include "tvb_engine.h"
#include <algorithm>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <stdexcept>

namespace gpufec {

namespace {

struct tvb_config {
    tvb_code code;
    size_t N = 0;
    bsid_params channel;
    double exclusion = 1e-10;
    tvb_precision precision = tvb_precision::float64;
    tvb_storage storage = tvb_storage::automatic;
    int cpu_threads = 0;
};

//! the CPU reference (tvb_map_decoder), a frame at a time (a worker of the pooled engine)
class tvb_worker : public frame_worker
{
public:
    explicit tvb_worker(const tvb_config& c)
        : d_dec(c.code, c.N, c.channel, c.exclusion, c.precision), d_app(c.N * size_t(c.code.q)), d_sym(c.N),
          d_sb(tvb_symbol_bits(c.code.q))
    {
    }

    void decode(const engine_frame& f) override
    {
        d_rx.resize(f.length);
        for (size_t i = 0; i < f.length; ++i)
            d_rx[i] = uint8_t(f.value(i) > 0);
        const tvb_result r = d_dec.decode(d_rx.data(), f.length, nullptr, d_app.data(), d_sym.data());
        pack_tvb_symbols(d_sym.data(), d_sym.size(), d_sb, f.packed);
        if (f.soft_out)
            std::copy(d_app.begin(), d_app.end(), f.soft_out);
        *f.status = frame_status{ 1, -1, int8_t(r.erased ? 1 : 0) };
    }

private:
    tvb_map_decoder d_dec;
    std::vector<double> d_app;
    std::vector<uint16_t> d_sym;
    std::vector<uint8_t> d_rx;
    int d_sb;
};

std::string num(double x)
{
    char s[32];
    std::snprintf(s, sizeof s, "%g", x);
    return s;
}

tvb_config read_config(option_reader& r)
{
    tvb_config c;
    const std::string kind = r.get("code");
    const int q = int(r.get_int("q"));
    const int n = int(r.get_int("n"));
    c.N = size_t(r.get_int_or("N", 0)); // (0: the file's, or 50)
    int cap = 2;            // dm and marker codes: at most 2 insertions in a row, unless told
    double exclusion = 1e-10;
    if (kind == "file") {
        tvb_system sys = tvb_load_simcommsys(r.get("file"));
        c.code = std::move(sys.code);
        if (c.N == 0)
            c.N = sys.N;
        if (c.N == 0)
            throw std::invalid_argument("N: the file gives no block length (no uncoded codec); give N");
        // the file's channel and limits are the defaults: an uncapped channel is 64 insertions
        // in a row at most (Pi^64 is far below any exclusion probability)
        cap = sys.has_channel && sys.insertion_cap == 0 ? bsid_params::max_insertion_cap
                                                        : sys.has_channel ? sys.insertion_cap : cap;
        exclusion = sys.exclusion;
    } else if (r.get("file") != "") {
        throw std::invalid_argument("file: only with code=file");
    }
    if (kind == "dm") {
        if (c.N == 0)
            c.N = 50;
        const int books = int(r.get_int("books"));
        c.code = tvb_code::davey_mackay(q, n, books ? books : int(c.N), uint64_t(r.get_int("seed")));
    } else if (kind == "marker") {
        if (c.N == 0)
            c.N = 50;
        c.code = tvb_code::marker(int(r.get_int("d")), r.get("marker"));
    } else if (kind != "file") {
        throw std::invalid_argument("code: '" + kind + "' is not valid (allowed: dm, marker, file)");
    }
    c.channel.Pi = r.get_float("pi");
    c.channel.Pd = r.get_float("pd");
    c.channel.Ps = r.get_float("ps");
    c.channel.max_insertions = int(r.get_int_or("max_insertions", std::min(cap, bsid_params::max_insertion_cap)));
    c.channel.check();
    c.exclusion = r.get_float_or("exclusion", exclusion);
    c.precision = parse_tvb_precision(r.get("precision"));
    c.storage = parse_tvb_storage(r.get("storage"));
    return c;
}

std::unique_ptr<batch_decoder> make_tvb(option_reader& r, const frame_common& common, const device_spec& device)
{
    tvb_config c = read_config(r);
    c.cpu_threads = common.cpu_threads;
    std::unique_ptr<frame_engine> eng;
    const backend_choice choice = resolve_backend(device);
    // the drift ranges, computed once: the GPU engine's setup, or the CPU decoder's memory check
    const tvb_map_decoder ranges(c.code, c.N, c.channel, c.exclusion);
#ifdef GPUFEC_HAVE_CUDA
    if (choice.cuda) {
        tvb_setup s;
        s.code = c.code;
        s.N = c.N;
        s.channel = c.channel;
        s.frame = ranges.frame_drift();
        s.codeword = ranges.codeword_drift();
        s.precision = c.precision;
        s.storage = c.storage;
        eng = gpu_engine_or_cpu(device, choice, "tvb", [&](int d) { return make_tvb_cuda(s, d, size_t(common.max_batch)); });
    }
#else
    (void)choice;
#endif
    const size_t sb = size_t(tvb_symbol_bits(c.code.q)), q = size_t(c.code.q);
    if (!eng) { // the CPU decoder holds a frame's branch metrics: refuse what cannot fit, now
        ranges.check_memory();
        pooled_engine_spec p;
        p.name = "cpu reference in " + to_string(c.precision) + " precision";
        p.cpu_threads = common.cpu_threads;
        p.packed_bytes = (c.N * sb + 7) / 8;
        p.soft_output = c.N * q;
        p.make_worker = [c] { return std::make_unique<tvb_worker>(c); };
        eng = make_pooled_engine(p);
    }
    const auto& ch = c.channel;
    frame_shape shape;
    shape.family = "tvb";
    shape.description = c.code.describe() + ", N=" + std::to_string(c.N) + ", BSID Pi=" + num(ch.Pi) +
                        " Pd=" + num(ch.Pd) + " Ps=" + num(ch.Ps) + ", drift " +
                        std::to_string(ranges.frame_drift().lo) + ".." + std::to_string(ranges.frame_drift().hi);
    shape.variable = true;
    shape.min_input = std::max<size_t>(1, ranges.min_received());
    shape.input_per_frame = ranges.max_received();
    shape.lengths_text = std::to_string(shape.min_input) + ".." + std::to_string(shape.input_per_frame) +
                         " received bits (the drift range around " + std::to_string(c.N * size_t(c.code.n)) + ")";
    shape.output_bits = c.N * sb;
    shape.symbol_bits = sb;
    shape.soft_output = c.N * q;
    shape.batch_cpu = 64;
    shape.batch_gpu = 4096;
    shape.min_efficient_gpu = 64;
    shape.cpu_threads = common.cpu_threads;
    return make_engine_decoder(shape, std::move(eng), size_t(common.max_batch));
}

class tvb_frame_encoder : public frame_encoder
{
public:
    explicit tvb_frame_encoder(const tvb_config& c) : d_c(c), d_sb(size_t(tvb_symbol_bits(c.code.q))), d_sym(c.N) {}
    size_t info_bits() const override { return d_c.N * d_sb; }
    size_t coded_bits() const override { return d_c.N * size_t(d_c.code.n); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        for (size_t f = 0; f < frames; ++f) {
            for (size_t i = 0; i < d_c.N; ++i) {
                uint32_t v = 0;
                for (size_t k = 0; k < d_sb; ++k)
                    v = (v << 1) | (bits[f * info_bits() + i * d_sb + k] & 1u);
                if (v >= uint32_t(d_c.code.q))
                    throw std::invalid_argument("tvb encoder: symbol " + std::to_string(v) + " is not below q = " +
                                                std::to_string(d_c.code.q));
                d_sym[i] = uint16_t(v);
            }
            tvb_encode(d_c.code, d_sym.data(), d_c.N, coded + f * coded_bits());
        }
    }

private:
    tvb_config d_c;
    size_t d_sb;
    std::vector<uint16_t> d_sym;
};

std::unique_ptr<frame_encoder> make_tvb_encoder(option_reader& r)
{
    return std::make_unique<tvb_frame_encoder>(read_config(r));
}

} // namespace

std::unique_ptr<tvb_map_decoder> make_tvb_map_decoder(const std::string& options)
{
    const frame_options parsed = parse_frame_options(options);
    const auto& schema = frame_family_info("tvb").schema;
    check_options("tvb", schema, parsed);
    option_reader r("tvb", parsed, &schema);
    const tvb_config c = read_config(r);
    r.finish();
    auto dec = std::make_unique<tvb_map_decoder>(c.code, c.N, c.channel, c.exclusion, c.precision);
    dec->check_memory();
    return dec;
}

tvb_storage parse_tvb_storage(const std::string& s)
{
    if (s == "auto")
        return tvb_storage::automatic;
    if (s == "global")
        return tvb_storage::global;
    if (s == "local")
        return tvb_storage::local;
    throw std::invalid_argument("storage: '" + s + "' is not valid (allowed: auto, global, local)");
}

GPUFEC_REGISTER_FRAME_FAMILY(tvb,
                             "tvb",
                             "time-varying block codes (Davey-MacKay watermark, marker) over the BSID insertion/"
                             "deletion channel: symbol-level MAP decoding over the drift, received frames of any length "
                             "the drift range allows",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_tvb,
                             make_tvb_encoder,
                             "bsid",
                             "",
                             { opt_choice("code", "dm", { "dm", "marker", "file" },
                                          "Davey-MacKay watermark, marker code, or a SimCommSys system file"),
                               opt_int("q", "16", 2, 65536, "symbols of the alphabet (dm)"),
                               opt_int("n", "7", 1, 32, "bits a codeword (dm)"),
                               opt_int("N", "", 1, double(tvb_max_block_length), "symbols a frame; default 50, or the file's"),
                               opt_text("file", "", "a SimCommSys system file (code=file)"),
                               opt_int("books", "0", 0, 1 << 20, "codebooks (dm; 0: N, one a symbol)"),
                               opt_int("seed", "1", 0, double(1LL << 62), "the watermark's seed (dm)"),
                               opt_int("d", "4", 1, 16, "data bits a codeword (marker)"),
                               opt_text("marker", "001", "the marker bits (marker)"),
                               opt_real("pi", "0.01", 0, 0.999, "insertion probability the decoder assumes"),
                               opt_real("pd", "0.01", 0, 0.999, "deletion probability the decoder assumes"),
                               opt_real("ps", "0", 0, 0.5, "substitution probability the decoder assumes"),
                               opt_int("max_insertions", "", 0, bsid_params::max_insertion_cap,
                                       "insertions in a row at most; default 2, or the file's cap (uncapped: 64)"),
                               opt_real("exclusion", "", 1e-300, 0.5,
                                        "probability of a drift outside the frame's range; default 1e-10, or the file's"),
                               opt_choice("precision", "double", { "double", "single" },
                                          "alpha, beta and the APP sums", { "float" }),
                               opt_choice("storage", "auto", { "auto", "global", "local" },
                                          "the GPU's gamma: all of a chunk, or a symbol at a time") },
                             {},
                             {
                               "q=8, n=5, N=12, pi=0.01, pd=0.01, ps=0.02" });

} // namespace gpufec
