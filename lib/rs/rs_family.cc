/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon codes as a frame family (docs/rs.md). A frame is one codeblock: its
 * block_bytes() * 8 code bits as soft values, each byte's bits MSB first (the order CCSDS
 * sends them); a bit is 1 where its value is positive, and a symbol with a value of 0 (no
 * information) among its bits is an erasure. Out: the info_bytes() * 8 information bits; the
 * check is 1 where every codeword of the block decoded. The CPU engine is rs_cpu_decoder (SIMD
 * syndromes across codewords, the erasures handed to its solver); the CUDA engine (rs_cuda.cu)
 * gives the same results, made by the device rule. */
#include <gnuradio/gpufec/core/codes/reed_solomon.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "frame/frame_engine.h"
#include "rs/rs_cpu.h"
#include "rs/rs_engine.h"
#include "runtime/cpu_pool.h"
#include "runtime/gpu_engine.h"
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace gpufec {

namespace {

constexpr size_t codewords_a_task = 256; // a worker's share at once: 4 groups of 64 SIMD lanes

class rs_cpu_engine : public frame_engine
{
public:
    rs_cpu_engine(const rs_code& code, int threads) : d_code(code), d_pool(get_cpu_pool(threads))
    {
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back(std::make_unique<worker>(code));
    }
    std::string name() const override
    {
        return "cpu (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ", " +
               d_workers[0]->fast.name().substr(5);
    }
    void run(const engine_batch& in, const engine_output& out) override
    {
        // codeblocks a task: up to 256 codewords, but a task for every thread where the batch
        // is smaller than that
        const size_t threads = size_t(d_pool->size());
        const size_t per = std::max<size_t>(1, std::min(codewords_a_task / size_t(d_code.interleave),
                                                        (in.frames + threads - 1) / threads));
        const size_t tasks = (in.frames + per - 1) / per;
        d_pool->parallel_for(int64_t(tasks), [&](int64_t t, int w) {
            const size_t a = size_t(t) * per, b = std::min(in.frames, a + per);
            d_workers[size_t(w)]->decode(in, out, a, b);
        });
    }

private:
    struct worker {
        explicit worker(const rs_code& c) : code(c), fast(c) {}
        rs_code code;
        rs_cpu_decoder fast;
        std::vector<uint8_t> bytes, erased; // the frames' symbols and erasure flags
        std::vector<int> result;

        void decode(const engine_batch& in, const engine_output& out, size_t a, size_t b)
        {
            const int I = code.interleave;
            const size_t bb = code.block_bytes(), ib = code.info_bytes(), frames = b - a;
            bytes.resize(frames * bb);
            erased.resize(frames * bb);
            result.resize(frames * size_t(I));
            // hard decisions, MSB first, and the symbols with a value of 0 among their bits:
            // a symbol's 8 values as one 64-bit word (byte t = value t), each byte's top bit
            // set where it is nonzero, then where it is positive, gathered MSB first by one
            // multiplication
            constexpr uint64_t high = 0x8080808080808080ull, low = 0x7f7f7f7f7f7f7f7full;
            for (size_t f = 0; f < frames; ++f) {
                const int8_t* x = in.soft + (a + f) * bb * 8;
                for (size_t s = 0; s < bb; ++s) {
                    uint64_t w;
                    std::memcpy(&w, x + s * 8, 8);
                    const uint64_t nonzero = (((w & low) + low) | w) & high;
                    const uint64_t positive = (nonzero & ~w) >> 7;
                    bytes[f * bb + s] = uint8_t((positive * 0x8040201008040201ull) >> 56);
                    erased[f * bb + s] = nonzero != high;
                }
            }
            // the information bytes are the packed output bits: straight into place
            fast.decode_blocks(bytes.data(), frames, out.packed + a * ib, result.data(), erased.data());
            for (size_t f = 0; f < frames; ++f) {
                rs_fold_status(result.data() + f * size_t(I), I, out.status[a + f]);
            }
        }
    };

    rs_code d_code;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<std::unique_ptr<worker>> d_workers;
};

} // namespace

std::unique_ptr<frame_engine> make_rs_cpu(const rs_code& code, int threads)
{
    return std::make_unique<rs_cpu_engine>(code, threads);
}

namespace {

rs_code code_from_options(option_reader& r)
{
    return rs_code::configured(r.get("code"), r.get("basis"), int(r.get_int("interleave")),
                               int(r.get_int_or("virtual_fill", -1)));
}

std::unique_ptr<batch_decoder> make_rs(option_reader& r, const frame_common& common, const device_spec& device)
{
    const rs_code c = code_from_options(r);
    std::unique_ptr<frame_engine> eng;
#ifdef GPUFEC_HAVE_CUDA
    eng = gpu_engine_or_cpu(device, resolve_backend(device), "rs",
                            [&](int d) { return make_rs_cuda(c, d, size_t(common.max_batch)); });
#else
    if (device.type == device_spec::kind::cuda)
        throw std::invalid_argument("device: this build has no CUDA");
#endif
    if (!eng)
        eng = make_rs_cpu(c, common.cpu_threads);
    frame_shape shape;
    shape.family = "rs";
    shape.description = c.describe();
    shape.input_per_frame = c.block_bytes() * 8;
    shape.output_bits = c.info_bytes() * 8;
    shape.has_check = true;
    shape.check_name = "decoded";
    shape.counts_corrections = true;
    shape.batch_cpu = 256;
    shape.min_efficient_cpu = 64;
    shape.batch_gpu = 8192;
    shape.min_efficient_gpu = 1024;
    shape.cpu_threads = common.cpu_threads;
    return make_engine_decoder(shape, std::move(eng), size_t(common.max_batch));
}

class rs_frame_encoder : public frame_encoder
{
public:
    explicit rs_frame_encoder(const rs_code& c) : d_enc(c), d_info(c.info_bytes()), d_block(c.block_bytes()) {}
    size_t info_bits() const override { return d_info.size() * 8; }
    size_t coded_bits() const override { return d_block.size() * 8; }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        for (size_t f = 0; f < frames; ++f) {
            pack_bits(bits + f * info_bits(), info_bits(), d_info.data());
            d_enc.encode(d_info.data(), d_block.data());
            unpack_bits(d_block.data(), coded_bits(), coded + f * coded_bits());
        }
    }

private:
    rs_encoder d_enc;
    std::vector<uint8_t> d_info, d_block;
};

std::unique_ptr<frame_encoder> make_rs_encoder(option_reader& r)
{
    return std::make_unique<rs_frame_encoder>(code_from_options(r));
}

} // namespace

GPUFEC_REGISTER_FRAME_FAMILY(rs,
                             "rs",
                             "Reed-Solomon codes over GF(2^8): CCSDS (255, 223) / (255, 239) with interleaving and "
                             "virtual fill, DVB (204, 188); a codeblock a frame",
                             "", // (the options: the declaration below; docs/rs.md)
                             make_rs,
                             make_rs_encoder,
                             "bpsk-awgn",
                             "",
                             { opt_choice("code", "ccsds:255:223", rs_code::names(), "the code"),
                               opt_choice("basis", "default", { "default", "dual", "conventional" },
                                          "symbol representation (default: the code's own; CCSDS: dual)"),
                               opt_int("interleave", "1", 1, 8, "I: codewords a codeblock, interleaved symbol by symbol"),
                               opt_int("virtual_fill", "", 0, 254,
                                       "symbols of every codeword not sent (default: the code's own, DVB 51)") },
                             {},
                             { "code=ccsds:255:223", "code=ccsds:255:239, interleave=5",
                               "code=ccsds:255:223, basis=conventional, interleave=2, virtual_fill=100",
                               "code=dvb:204:188" });

} // namespace gpufec
