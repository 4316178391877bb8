/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* TVB codes over the BSID channel as a frame family ("tvb"): a frame is the received bits of
 * one message (its length varies: the channel inserts and deletes bits), the output the N
 * decoded symbols as bits (ceil(log2 q) each, MSB first) and, on request, their a-posteriori
 * probabilities (N x q). The input's sign is the received bit (positive = 1). */
#include <gnuradio/gpufec/core/bits.h>
#include <gnuradio/gpufec/core/device.h>
#include <gnuradio/gpufec/core/frame_registry.h>
#include <gnuradio/gpufec/core/tvb.h>

#include "runtime/gpu_engine.h"
#include "runtime/cpu_pool.h"
#include "tvb_engine.h"
#include <algorithm>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <stdexcept>

namespace gpufec {

namespace {

int bits_per_symbol(int q)
{
    int b = 0;
    while ((1 << b) < q)
        ++b;
    return b;
}

struct tvb_config {
    tvb_code code;
    size_t N = 0;
    bsid_params channel;
    double exclusion = 1e-10;
    tvb_precision precision = tvb_precision::float64;
    tvb_storage storage = tvb_storage::automatic;
    int cpu_threads = 0;
};

class tvb_frames : public frame_decoder
{
public:
    tvb_frames(const tvb_config& c, size_t batch, std::unique_ptr<tvb_engine> engine)
        : d_c(c), d_engine(std::move(engine)), d_pool(get_cpu_pool(c.cpu_threads)), d_batch(batch)
    {
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back(std::make_unique<worker>(c));
        const tvb_map_decoder& d = d_workers.front()->dec;
        d_min = std::max<size_t>(1, d.min_received());
        d_max = d.max_received();
    }

    std::string family() const override { return "tvb"; }
    std::string describe() const override
    {
        const auto& ch = d_c.channel;
        return d_c.code.describe() + ", N=" + std::to_string(d_c.N) + ", BSID Pi=" + num(ch.Pi) + " Pd=" + num(ch.Pd) +
               " Ps=" + num(ch.Ps) + ", drift " + std::to_string(d_workers.front()->dec.frame_drift().lo) + ".." +
               std::to_string(d_workers.front()->dec.frame_drift().hi);
    }
    std::string backend() const override
    {
        if (d_engine)
            return d_engine->name();
        return "cpu reference in " + to_string(d_c.precision) + " precision (" + std::to_string(d_pool->size()) +
               " threads " + d_pool->kind() + ")";
    }
    size_t input_per_frame() const override { return d_max; }
    size_t min_input_per_frame() const override { return d_min; }
    bool variable_input() const override { return true; }
    size_t symbol_bits() const override { return size_t(gpufec::bits_per_symbol(d_c.code.q)); }
    size_t output_bits() const override { return d_c.N * size_t(bits_per_symbol(d_c.code.q)); }
    size_t output_bits_for(size_t) const override { return output_bits(); }
    size_t soft_output_per_frame() const override { return d_c.N * size_t(d_c.code.q); }
    size_t soft_output_for(size_t) const override { return soft_output_per_frame(); }
    std::string accepted_lengths() const override
    {
        return std::to_string(d_min) + ".." + std::to_string(d_max) + " received bits (the drift range around " +
               std::to_string(d_c.N * size_t(d_c.code.n)) + ")";
    }
    size_t preferred_batch() const override { return d_batch; }
    size_t min_efficient_batch() const override { return d_engine ? 64 : 1; }

protected:
    void decode_checked(const frame_batch& b) override
    {
        if (d_engine && !b.soft_f) {
            decode_engine(b);
            return;
        }
        std::vector<size_t>& start = d_start;
        start.assign(b.frames + 1, 0);
        for (size_t f = 0; f < b.frames; ++f)
            start[f + 1] = start[f] + (b.input_lengths ? b.input_lengths[f] : input_per_frame());
        const size_t N = d_c.N, q = size_t(d_c.code.q), sb = size_t(bits_per_symbol(d_c.code.q));
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t fi, int wi) {
            const size_t f = size_t(fi), len = start[f + 1] - start[f];
            worker& w = *d_workers[size_t(wi)];
            w.rx.resize(len);
            for (size_t i = 0; i < len; ++i) {
                const float v = b.soft_f ? b.soft_f[start[f] + i] : float(b.soft[start[f] + i]);
                w.rx[i] = uint8_t(v > 0);
            }
            const tvb_result r = w.dec.decode(w.rx.data(), len, nullptr, w.app.data(), w.sym.data());
            // symbols to bits, MSB first
            w.bits.resize(N * sb);
            for (size_t i = 0; i < N; ++i)
                for (size_t k = 0; k < sb; ++k)
                    w.bits[i * sb + k] = uint8_t((w.sym[i] >> (sb - 1 - k)) & 1);
            uint8_t* out = b.bits + f * output_bytes(b.packed);
            if (b.packed)
                pack_bits(w.bits.data(), w.bits.size(), out);
            else
                std::copy(w.bits.begin(), w.bits.end(), out);
            if (b.soft_out)
                for (size_t i = 0; i < N * q; ++i)
                    b.soft_out[f * soft_output_per_frame() + i] = float(w.app[i]);
            b.status[f].iterations = 1;
            b.status[f].check = -1;
            if (r.erased)
                b.status[f].erased = 1;
        });
    }

private:
    //! the GPU: symbols (and APPs straight into the soft output), then symbols to bits here
    void decode_engine(const frame_batch& b)
    {
        const size_t N = d_c.N, sb = size_t(bits_per_symbol(d_c.code.q));
        d_lengths.assign(b.frames, input_per_frame());
        const size_t* lengths = b.input_lengths ? b.input_lengths : d_lengths.data();
        d_sym.resize(b.frames * N);
        d_erased.resize(b.frames);
        d_engine->decode(b.soft, lengths, b.frames, d_sym.data(), b.soft_out, d_erased.data());
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t fi, int wi) {
            const size_t f = size_t(fi);
            std::vector<uint8_t>& bits = d_workers[size_t(wi)]->bits;
            bits.resize(N * sb);
            for (size_t i = 0; i < N; ++i)
                for (size_t k = 0; k < sb; ++k)
                    bits[i * sb + k] = uint8_t((d_sym[f * N + i] >> (sb - 1 - k)) & 1);
            uint8_t* out = b.bits + f * output_bytes(b.packed);
            if (b.packed)
                pack_bits(bits.data(), bits.size(), out);
            else
                std::copy(bits.begin(), bits.end(), out);
            b.status[f].iterations = 1;
            b.status[f].check = -1;
            if (d_erased[f])
                b.status[f].erased = 1;
        });
    }

    static std::string num(double x)
    {
        char s[32];
        std::snprintf(s, sizeof s, "%g", x);
        return s;
    }
    struct worker {
        explicit worker(const tvb_config& c)
            : dec(c.code, c.N, c.channel, c.exclusion, c.precision), app(c.N * size_t(c.code.q)), sym(c.N)
        {
        }
        tvb_map_decoder dec;
        std::vector<double> app;
        std::vector<uint16_t> sym;
        std::vector<uint8_t> rx, bits;
    };

    tvb_config d_c;
    std::unique_ptr<tvb_engine> d_engine;
    std::shared_ptr<cpu_pool> d_pool;
    size_t d_batch, d_min = 0, d_max = 0;
    std::vector<std::unique_ptr<worker>> d_workers;
    std::vector<size_t> d_lengths, d_start;
    std::vector<uint16_t> d_sym;
    std::vector<uint8_t> d_erased;
};

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

std::unique_ptr<frame_decoder> make_tvb(option_reader& r, const frame_common& common, const device_spec& device)
{
    tvb_config c = read_config(r);
    c.cpu_threads = common.cpu_threads;
    std::unique_ptr<tvb_engine> eng;
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
    const size_t batch = common.max_batch > 0 ? size_t(common.max_batch) : eng ? 4096 : 64;
    if (!eng) // the CPU decoder holds a frame's branch metrics: refuse what cannot fit, now
        ranges.check_memory();
    return std::make_unique<tvb_frames>(c, batch, std::move(eng));
}

class tvb_frame_encoder : public frame_encoder
{
public:
    explicit tvb_frame_encoder(const tvb_config& c) : d_c(c), d_sb(size_t(bits_per_symbol(c.code.q))), d_sym(c.N) {}
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
