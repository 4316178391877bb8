/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* SCPPM as a frame family ("scppm"): max-log runs on a fixed-point engine (CUDA or the CPU twin,
 * the same bits); log-map runs the float reference, a codeword per CPU pool task. A frame is a
 * codeword's slots (15120 / m symbols of M slots), its output the information bits. */
#include <gnuradio/gpufec/core/bits.h>
#include <gnuradio/gpufec/core/device.h>
#include <gnuradio/gpufec/core/frame_registry.h>
#include <gnuradio/gpufec/core/scppm.h>
#include <gnuradio/gpufec/core/scppm_framing.h>

#include "runtime/gpu_engine.h"
#include "runtime/cpu_pool.h"
#include "scppm_codeword.h"
#include "scppm_engine.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpufec {

namespace {

struct scppm_config {
    scppm_setup s;
    bool log_map = false;
    double weight = 1.0; //!< log-map with counts: ln(1 + Ks / Kb)
    bool randomizer = false; //!< the information blocks were randomized before the CRC
    int cpu_threads = 0;
};

class scppm_frames : public frame_decoder
{
public:
    scppm_frames(const scppm_config& c, size_t batch, std::unique_ptr<scppm_engine> engine)
        : d_c(c), d_engine(std::move(engine)), d_pool(get_cpu_pool(c.cpu_threads)), d_batch(batch)
    {
        if (!d_engine)
            for (int w = 0; w < d_pool->size(); ++w)
                d_workers.push_back(std::make_unique<worker>(c));
    }

    std::string family() const override { return "scppm"; }
    std::string describe() const override
    {
        return d_c.s.code.describe() + ", " + (d_c.log_map ? "log-map" : "max-log") + ", " +
               std::to_string(d_c.s.max_iterations) + " it at most, input " +
               (d_c.s.counts ? "photon counts" : "slot LLRs") + (d_c.randomizer ? ", de-randomized" : "");
    }
    std::string backend() const override
    {
        if (d_engine)
            return d_engine->name();
        return "cpu float reference (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    size_t input_per_frame() const override { return d_c.s.code.slots(); }
    size_t output_bits() const override { return size_t(d_c.s.code.info_bits()); }
    bool has_check() const override { return true; }
    std::string check_name() const override { return "crc_ok"; }
    bool iterates() const override { return true; }
    size_t soft_output_per_frame() const override { return d_engine ? 0 : output_bits(); }
    //! exact max* depends on the metric's scale: log-map takes the float values themselves
    bool wants_float_input() const override { return d_c.log_map; }
    size_t preferred_batch() const override { return d_batch; }
    size_t min_efficient_batch() const override { return d_engine && d_engine->on_gpu() ? 256 : 1; }
    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        return d_engine ? d_engine->time_kernels(soft, frames, reps) : -1;
    }

protected:
    void decode_checked(const frame_batch& b) override
    {
        if (d_engine)
            decode_fixed(b);
        else
            decode_reference(b);
    }

private:
    void decode_fixed(const frame_batch& b)
    {
        const size_t k = output_bits(), bytes = (k + 7) / 8;
        const bool direct = b.packed;
        if (!direct)
            d_packed.resize(b.frames * bytes);
        d_reports.resize(b.frames);
        d_engine->decode(b.soft, b.frames, direct ? b.bits : d_packed.data(), d_reports.data());
        for (size_t f = 0; f < b.frames; ++f) {
            b.status[f].iterations = d_reports[f].iterations;
            b.status[f].check = d_reports[f].check;
            if (d_reports[f].bad_input) // a negative photon count: not a count
                mark_bad(b.status[f]);
        }
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t f, int) {
            uint8_t* packed = (direct ? b.bits : d_packed.data()) + size_t(f) * bytes;
            if (d_c.randomizer)
                ccsds_randomize_packed(packed, k);
            if (!direct)
                unpack_bits(packed, k, b.bits + size_t(f) * k);
        });
    }

    void decode_reference(const frame_batch& b)
    {
        const size_t n = input_per_frame(), k = output_bits();
        const bool counts = d_c.s.counts;
        const float w = float(d_c.weight);
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t fi, int wi) {
            const size_t f = size_t(fi);
            worker& wk = *d_workers[size_t(wi)];
            bool negative = false;
            for (size_t i = 0; i < n; ++i) {
                float v = b.soft_f ? b.soft_f[f * n + i] : float(std::max<int8_t>(b.soft[f * n + i], -127));
                if (counts) {
                    negative |= v < 0;
                    v = std::max(v, 0.f) * w;
                }
                wk.ch[i] = v;
            }
            float* soft = b.soft_out ? b.soft_out + f * k : nullptr;
            const scppm::report r = wk.dec.decode(wk.ch.data(), wk.info.data(), soft);
            if (d_c.randomizer) {
                ccsds_randomize(wk.info.data(), k);
                if (soft)
                    ccsds_randomize_soft(soft, k);
            }
            uint8_t* out = b.bits + f * output_bytes(b.packed);
            if (b.packed)
                pack_bits(wk.info.data(), k, out);
            else
                std::copy(wk.info.begin(), wk.info.end(), out);
            b.status[f].iterations = r.iterations;
            b.status[f].check = r.check;
            if (negative)
                mark_bad(b.status[f]);
        });
    }

    // a codeword with a negative count is decoded with those slots read as 0, and reported erased
    static void mark_bad(frame_status& s)
    {
        s.erased = 1;
        s.check = 0;
    }

    struct worker {
        explicit worker(const scppm_config& c)
            : dec(c.s.code, c.s.max_iterations, c.s.scaling), ch(c.s.code.slots()), info(size_t(c.s.code.info_bits()))
        {
        }
        scppm::codeword_decoder<scppm::logmap_float> dec;
        std::vector<float> ch;
        std::vector<uint8_t> info;
    };

    scppm_config d_c;
    std::unique_ptr<scppm_engine> d_engine;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<std::unique_ptr<worker>> d_workers;
    size_t d_batch;
    std::vector<uint8_t> d_packed;
    std::vector<scppm_report> d_reports;
};

scppm_code read_code(option_reader& r)
{
    const int M = int(r.get_int("M"));
    return scppm_code::make(M, r.get("rate"));
}

std::unique_ptr<frame_decoder> make_scppm(option_reader& r, const frame_common& common, const device_spec& device)
{
    scppm_config c;
    c.s.code = read_code(r);
    const std::string algorithm = r.get("algorithm");
    if (algorithm != "max-log" && algorithm != "log-map")
        throw std::invalid_argument("algorithm: '" + algorithm + "' is not valid (allowed: max-log, log-map)");
    c.log_map = algorithm == "log-map";
    c.s.max_iterations = int(r.get_int("max_iterations"));
    c.s.scaling = float(r.get_float_or("scaling", c.log_map ? 1.0 : 0.75));
    const std::string input = r.get("input");
    if (input != "counts" && input != "symbol_llr")
        throw std::invalid_argument("input: '" + input + "' is not valid (allowed: counts, symbol_llr)");
    c.s.counts = input == "counts";
    const double ks = r.get_float("ks"), kb = r.get_float("kb");
    if (c.log_map && c.s.counts) {
        if (!(ks > 0) || !(kb > 0))
            throw std::invalid_argument("ks, kb: log-map with input=counts needs the signal and background photons "
                                        "per slot (ks > 0, kb > 0) to weigh the counts (or give input=symbol_llr)");
        c.weight = slot_llr_weight(ks, kb);
    }
    c.randomizer = r.get_bool("randomizer");
    c.cpu_threads = common.cpu_threads;
    std::unique_ptr<scppm_engine> eng;
    if (!c.log_map) {
        const backend_choice choice = resolve_backend(device);
#ifdef GPUFEC_HAVE_CUDA
        eng = gpu_engine_or_cpu(device, choice, "scppm",
                                [&](int d) { return make_scppm_cuda(c.s, d, size_t(common.max_batch)); });
#else
        (void)choice;
#endif
        if (!eng)
            eng = make_scppm_fixed_cpu(c.s, common.cpu_threads);
    } else if (device.type == device_spec::kind::cuda) {
        throw std::invalid_argument("device: log-map runs on the CPU only (max-log runs on the GPU)");
    }
    const size_t batch = common.max_batch > 0 ? size_t(common.max_batch) : eng && eng->on_gpu() ? 2048 : 32;
    return std::make_unique<scppm_frames>(c, batch, std::move(eng));
}

class scppm_frame_encoder : public frame_encoder
{
public:
    scppm_frame_encoder(const scppm_code& code, bool randomizer)
        : d_code(code), d_randomizer(randomizer), d_enc(code), d_sym(size_t(code.symbols()))
    {
        if (randomizer)
            d_info.resize(info_bits());
    }
    size_t info_bits() const override { return size_t(d_code.info_bits()); }
    size_t coded_bits() const override { return d_code.slots(); }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        for (size_t f = 0; f < frames; ++f) {
            const uint8_t* info = bits + f * info_bits();
            if (d_randomizer) {
                std::copy(info, info + info_bits(), d_info.begin());
                ccsds_randomize(d_info.data(), d_info.size());
                info = d_info.data();
            }
            d_enc.encode(info, d_sym.data());
            ppm_slots(d_sym.data(), d_sym.size(), d_code.M, coded + f * coded_bits());
        }
    }

private:
    scppm_code d_code;
    bool d_randomizer;
    scppm_encoder d_enc;
    std::vector<uint16_t> d_sym;
    std::vector<uint8_t> d_info; //!< a randomized copy of the information block
};

std::unique_ptr<frame_encoder> make_scppm_encoder(option_reader& r)
{
    const scppm_code code = read_code(r);
    return std::make_unique<scppm_frame_encoder>(code, r.get_bool("randomizer"));
}

} // namespace

GPUFEC_REGISTER_FRAME_FAMILY(scppm,
                             "scppm",
                             "CCSDS 142 SCPPM (deep-space optical): outer (5,7,7) code, interleaver, accumulator, "
                             "PPM; iterative decoding with a CRC-32 stop",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_scppm,
                             make_scppm_encoder,
                             "poisson-ppm",
                             "",
                             { opt_choice("M", "16", { "4", "8", "16", "32", "64", "128", "256" }, "PPM order"),
                               opt_choice("rate", "2/3", { "1/3", "1/2", "2/3" }, "the outer code's rate"),
                               opt_choice("algorithm", "max-log", { "max-log", "log-map" },
                                          "max-log (fixed point, CPU or GPU, the same bits) or log-MAP (float, CPU)"),
                               opt_int("max_iterations", "32", 1, 1000, "iterations at most (a CRC-32 stops earlier)"),
                               opt_choice("input", "counts", { "counts", "symbol_llr" },
                                          "photon counts per slot, or a log-likelihood per slot"),
                               opt_real("ks", "0", 0, 1e6, "signal photons per pulse (log-map with counts)"),
                               opt_real("kb", "0", 0, 1e6, "background photons per slot (log-map with counts)"),
                               opt_real("scaling", "", 1.0 / 64, 1.0, "extrinsic scaling; default 0.75 max-log, 1 log-map"),
                               opt_bool("randomizer", "false",
                                        "the CCSDS pseudo-randomizer on each information block, before the CRC") },
                             {},
                             {
                               "M=8, rate=1/2, input=symbol_llr, max_iterations=8" });

} // namespace gpufec
