/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The repetition code as a frame family: the smallest decoder that plugs into the platform.
 * Each of frame_bits information bits is sent `repeat` times in a row; the decoder adds the
 * copies' soft values and decides on the sign (a sum of 0, no information, decides 0). Its soft
 * output is the sum (the posterior in input units). CPU only. */
#include <gnuradio/gpufec/core/frame_registry.h>

#include <algorithm>
#include <stdexcept>

namespace gpufec {

namespace {

class repetition_decoder : public frame_decoder
{
public:
    repetition_decoder(int frame_bits, int repeat, size_t batch)
        : d_bits(size_t(frame_bits)), d_repeat(size_t(repeat)), d_batch(batch)
    {
    }

    std::string family() const override { return "repetition"; }
    std::string describe() const override
    {
        return "repetition x" + std::to_string(d_repeat) + ", " + std::to_string(d_bits) +
               " bits per frame";
    }
    std::string backend() const override { return "cpu (repetition)"; }
    size_t input_per_frame() const override { return d_bits * d_repeat; }
    size_t output_bits() const override { return d_bits; }
    size_t soft_output_per_frame() const override { return d_bits; }
    size_t preferred_batch() const override { return d_batch; }

protected:
    void decode_checked(const frame_batch& b) override
    {
        const size_t bytes = output_bytes(b.packed);
        for (size_t f = 0; f < b.frames; ++f) {
            const int8_t* in = b.soft + f * input_per_frame();
            uint8_t* out = b.bits + f * bytes;
            if (b.packed)
                std::fill(out, out + bytes, 0);
            for (size_t i = 0; i < d_bits; ++i) {
                int sum = 0;
                for (size_t r = 0; r < d_repeat; ++r)
                    sum += std::max<int>(in[i * d_repeat + r], -127);
                const uint8_t bit = sum > 0;
                if (b.packed)
                    out[i / 8] |= uint8_t(bit << (7 - i % 8));
                else
                    out[i] = bit;
                if (b.soft_out)
                    b.soft_out[f * d_bits + i] = float(sum);
            }
            b.status[f].iterations = 1;
        }
    }

private:
    size_t d_bits, d_repeat, d_batch;
};

std::unique_ptr<frame_decoder> make_repetition(option_reader& r, const frame_common& common,
                                               const device_spec& device)
{
    const int bits = int(r.get_int("frame_bits"));
    const int repeat = int(r.get_int("repeat"));
    if (device.type == device_spec::kind::cuda)
        throw std::invalid_argument("device: the repetition family runs on the CPU only");
    const size_t batch = common.max_batch > 0 ? size_t(common.max_batch) : 256;
    return std::make_unique<repetition_decoder>(bits, repeat, batch);
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
                             "frame_bits=<1..1048576> (1024), repeat=<1..255> (3)",
                             make_repetition,
                             make_repetition_encoder,
                             "bpsk-awgn",
                             "",
                             { opt_int("frame_bits", "1024", 1, 1 << 20, "information bits a frame"),
                               opt_int("repeat", "3", 1, 255, "times each bit is sent") },
                             {},
                             { "frame_bits=100, repeat=3" });

} // namespace gpufec
