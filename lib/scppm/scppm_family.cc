/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* SCPPM as a frame family ("scppm"): max-log runs on a fixed-point engine (CUDA or the CPU twin,
 * the same bits); log-map runs the float reference through the pooled engine. A frame is a
 * codeword's slots (15120 / m symbols of M slots), its output the information bits. */
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/scppm/scppm.h>
#include <gnuradio/gpufec/core/scppm/scppm_framing.h>

#include "runtime/gpu_engine.h"
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

//! the log-MAP float reference, a codeword at a time (a worker of the pooled engine)
class scppm_logmap_worker : public frame_worker
{
public:
    explicit scppm_logmap_worker(const scppm_config& c)
        : d_c(c), d_dec(c.s.code, c.s.max_iterations, c.s.scaling), d_ch(c.s.code.slots()),
          d_info(size_t(c.s.code.info_bits()))
    {
    }

    void decode(const engine_frame& f) override
    {
        const float w = float(d_c.weight);
        bool negative = false;
        for (size_t i = 0; i < d_ch.size(); ++i) {
            float v = f.value(i);
            if (d_c.s.counts) {
                negative |= v < 0;
                v = std::max(v, 0.f) * w;
            }
            d_ch[i] = v;
        }
        const scppm::report r = d_dec.decode(d_ch.data(), d_info.data(), f.soft_out);
        pack_bits(d_info.data(), d_info.size(), f.packed);
        f.status->iterations = r.iterations;
        f.status->check = negative ? 0 : r.check; // (a negative count: as the fixed-point engines)
        f.status->erased = negative;
    }

private:
    scppm_config d_c;
    scppm::codeword_decoder<scppm::logmap_float> d_dec;
    std::vector<float> d_ch;
    std::vector<uint8_t> d_info;
};

std::string describe(const scppm_config& c)
{
    return c.s.code.describe() + ", " + (c.log_map ? "log-map" : "max-log") + ", " +
           std::to_string(c.s.max_iterations) + " it at most, input " +
           (c.s.counts ? "photon counts" : "slot LLRs") + (c.randomizer ? ", de-randomized" : "");
}

scppm_code read_code(option_reader& r)
{
    const int M = int(r.get_int("M"));
    return scppm_code::make(M, r.get("rate"));
}

std::unique_ptr<batch_decoder> make_scppm(option_reader& r, const frame_common& common, const device_spec& device)
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
    const size_t k = size_t(c.s.code.info_bits());
    std::unique_ptr<frame_engine> eng;
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
    } else {
        pooled_engine_spec p;
        p.name = "cpu float reference";
        p.cpu_threads = common.cpu_threads;
        p.input_per_frame = c.s.code.slots();
        p.packed_bytes = (k + 7) / 8;
        p.soft_output = k;
        p.make_worker = [c] { return std::make_unique<scppm_logmap_worker>(c); };
        eng = make_pooled_engine(p);
    }
    frame_shape shape;
    shape.family = "scppm";
    shape.description = describe(c);
    shape.input_per_frame = c.s.code.slots();
    shape.output_bits = k;
    shape.soft_output = c.log_map ? k : 0;
    shape.has_check = true;
    shape.check_name = "crc_ok";
    shape.iterates = true;
    shape.wants_float = c.log_map; // exact max* depends on the metric's scale: the float values themselves
    if (c.randomizer) // the information blocks were randomized before their CRC
        shape.post_frame = [k](uint8_t* packed, float* soft, frame_status&) {
            ccsds_randomize_packed(packed, k);
            if (soft)
                ccsds_randomize_soft(soft, k);
        };
    shape.batch_cpu = 32; // two groups of lanes (16 codewords each on AVX-512) a pair of cores
    // beyond four cores, four groups a core (1024 frames on 16): a core that GNU Radio's threads
    // hold up then delays a quarter of its share, not all of it (flowgraph sweep, 16-core host:
    // 0.15-0.17 Gb/s at 256 frames, 0.20-0.22 at 1024, 0.21 at 2048; the engine alone 0.26)
    shape.batch_cpu_per_core = 64;
    shape.batch_gpu = 2048;
    shape.min_efficient_gpu = 256;
    shape.cpu_threads = common.cpu_threads;
    return make_engine_decoder(shape, std::move(eng), size_t(common.max_batch));
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
