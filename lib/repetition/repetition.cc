/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The repetition code as a frame family: the smallest decoder that plugs into the platform,
 * and the template of a family on the engine contract (frame/frame_engine.h): a CPU engine here
 * and a CUDA one (repetition_cuda.cu) that give the same bits, made by the device rule. Each of
 * frame_bits information bits is sent `repeat` times in a row; the decoder adds the copies'
 * soft values and decides on the sign (a sum of 0, no information, decides 0). Its soft
 * output is the sum (the posterior in input units). */
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>


#include "repetition/repetition_engine.h"
#include "runtime/gpu_engine.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpufec {

namespace {

class repetition_cpu : public frame_engine
{
public:
    explicit repetition_cpu(const repetition_setup& s) : d_s(s) {}
    std::string name() const override { return "cpu (repetition)"; }
    void run(const engine_batch& in, const engine_output& out) override
    {
        const size_t k = size_t(d_s.frame_bits), rep = size_t(d_s.repeat), bytes = (k + 7) / 8;
        for (size_t f = 0; f < in.frames; ++f) {
            const int8_t* x = in.soft + f * k * rep;
            uint8_t* o = out.packed + f * bytes;
            std::memset(o, 0, bytes);
            for (size_t i = 0; i < k; ++i) {
                int sum = 0;
                for (size_t r = 0; r < rep; ++r)
                    sum += std::max<int>(x[i * rep + r], -127);
                set_packed_bit(o, i, sum > 0);
                if (out.soft_out)
                    out.soft_out[f * k + i] = float(sum);
            }
            out.status[f].iterations = 1;
        }
    }

private:
    repetition_setup d_s;
};

} // namespace

std::unique_ptr<frame_engine> make_repetition_cpu(const repetition_setup& s)
{
    return std::make_unique<repetition_cpu>(s);
}

namespace {

std::unique_ptr<batch_decoder> make_repetition(option_reader& r, const frame_common& common,
                                               const device_spec& device)
{
    repetition_setup s;
    s.frame_bits = int(r.get_int("frame_bits"));
    s.repeat = int(r.get_int("repeat"));
    std::unique_ptr<frame_engine> eng;
#ifdef GPUFEC_HAVE_CUDA
    eng = gpu_engine_or_cpu(device, resolve_backend(device), "repetition",
                            [&](int d) { return make_repetition_cuda(s, d, size_t(common.max_batch)); });
#else
    if (device.type == device_spec::kind::cuda)
        throw std::invalid_argument("device: this build has no CUDA");
#endif
    if (!eng)
        eng = make_repetition_cpu(s);
    frame_shape shape;
    shape.family = "repetition";
    shape.description = "repetition x" + std::to_string(s.repeat) + ", " + std::to_string(s.frame_bits) + " bits per frame";
    shape.input_per_frame = size_t(s.frame_bits) * size_t(s.repeat);
    shape.output_bits = size_t(s.frame_bits);
    shape.soft_output = size_t(s.frame_bits);
    shape.batch_cpu = 256;
    shape.batch_gpu = 4096;
    return make_engine_decoder(shape, std::move(eng), size_t(common.max_batch));
}

class repetition_encoder : public frame_encoder
{
public:
    repetition_encoder(size_t bits, size_t repeat) : d_bits(bits), d_repeat(repeat) {}
    size_t info_bits() const override { return d_bits; }
    size_t coded_bits() const override { return d_bits * d_repeat; }
    void encode(const uint8_t* bits, size_t frames, uint8_t* coded) override
    {
        for (size_t i = 0; i < frames * d_bits; ++i)
            std::fill(coded + i * d_repeat, coded + (i + 1) * d_repeat, uint8_t(bits[i] & 1));
    }

private:
    size_t d_bits, d_repeat;
};

std::unique_ptr<frame_encoder> make_repetition_encoder(option_reader& r)
{
    return std::make_unique<repetition_encoder>(size_t(r.get_int("frame_bits")), size_t(r.get_int("repeat")));
}

} // namespace

GPUFEC_REGISTER_FRAME_FAMILY(repetition,
                             "repetition",
                             "repetition code (each bit sent `repeat` times); the platform's example family",
                             "", // (the options: the declaration below; docs/<family>.md)
                             make_repetition,
                             make_repetition_encoder,
                             "bpsk-awgn",
                             "",
                             { opt_int("frame_bits", "1024", 1, 1 << 20, "information bits a frame"),
                               opt_int("repeat", "3", 1, 255, "times each bit is sent") },
                             {},
                             { "frame_bits=100, repeat=3" });

} // namespace gpufec
