/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "kits.h"

#include <gnuradio/gpufec/core/conv_encoder.h>
#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <gnuradio/gpufec/core/frame_decoder.h>
#include <gnuradio/gpufec/core/frame_registry.h>
#include <gnuradio/gpufec/core/soft.h>
#include <gnuradio/gpufec/core/viterbi.h>
#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace gpufec {
namespace app {

namespace {

// ------------------------------------------------------------------ channels

class bpsk_awgn : public channel_kit
{
public:
    std::string name() const override { return "bpsk-awgn"; }
    void set_point(double ebn0_db, double rate) override
    {
        d_sigma = float(std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0))));
    }
    void transmit(const uint8_t* bits, size_t n, float* out, std::mt19937_64& rng) override
    {
        std::normal_distribution<float> gauss(0.f, d_sigma);
        for (size_t i = 0; i < n; ++i)
            out[i] = (bits[i] ? 1.f : -1.f) + gauss(rng);
    }
    float llr_scale() const override { return 2.f / (d_sigma * d_sigma); }
    double uncoded_ber(double ebn0_db) const override { return uncoded_bpsk_ber(ebn0_db); }

private:
    float d_sigma = 1.f;
};

void random_bits(uint8_t* out, size_t n, std::mt19937_64& rng)
{
    for (size_t i = 0; i < n; i += 64) {
        uint64_t w = rng();
        for (size_t j = i; j < std::min(n, i + 64); ++j, w >>= 1)
            out[j] = uint8_t(w & 1);
    }
}

// ------------------------------------------------------------------ frame families

class frame_kit : public code_kit
{
public:
    frame_kit(const std::string& family, const frame_options& opts, const device_spec& device)
        : d_dec(make_frame_decoder(family, opts, device)), d_enc(make_frame_encoder(family, opts))
    {
        if (d_enc->info_bits() != d_dec->output_bits())
            throw std::invalid_argument(family + ": the decoder's output is not the information bits "
                                        "(set output=info)");
        d_desc = family + " " + d_dec->describe();
    }
    std::string describe() const override { return d_desc; }
    std::string backend() const override { return d_dec->backend(); }
    double rate() const override { return double(d_enc->info_bits()) / double(d_enc->coded_bits()); }
    uint64_t info_bits_per_frame() const override { return d_enc->info_bits(); }
    uint64_t preferred_frames() const override { return d_dec->preferred_batch(); }
    bool iterates() const override { return d_dec->iterates(); }

    error_counts run(uint64_t frames, channel_kit& ch, std::mt19937_64& rng) override
    {
        const size_t k = d_enc->info_bits(), n = d_enc->coded_bits();
        d_info.resize(frames * k);
        random_bits(d_info.data(), d_info.size(), rng);
        d_coded.resize(frames * n);
        d_enc->encode(d_info.data(), frames, d_coded.data());
        d_rx.resize(d_coded.size());
        ch.transmit(d_coded.data(), d_coded.size(), d_rx.data(), rng);
        // float decoders take LLRs; int8 decoders the channel values quantised (x 32)
        if (d_dec->wants_float_input())
            for (auto& v : d_rx)
                v *= ch.llr_scale();
        d_out.resize(frames * k);
        d_status.resize(frames);
        frame_batch b;
        b.frames = frames;
        b.bits = d_out.data();
        b.status = d_status.data();
        d_dec->decode_float(d_rx.data(), b);
        error_counts c;
        for (size_t f = 0; f < frames; ++f) {
            uint64_t e = 0;
            for (size_t i = 0; i < k; ++i)
                e += d_out[f * k + i] != d_info[f * k + i];
            c.bit_errors += e;
            c.frame_errors += e > 0;
            c.iterations += uint64_t(d_status[f].iterations);
        }
        c.frames = frames;
        c.bits = frames * k;
        return c;
    }

private:
    std::unique_ptr<frame_decoder> d_dec;
    std::unique_ptr<frame_encoder> d_enc;
    std::string d_desc;
    std::vector<uint8_t> d_info, d_coded, d_out;
    std::vector<float> d_rx;
    std::vector<frame_status> d_status;
};

// ------------------------------------------------------------------ streaming Viterbi

/* One endless stream per point; a "frame" is a block of block_len decoded bits. Decoded bits
 * come back D + L stages late, so a batch counts the blocks that came out, compared with the
 * information bits kept in a queue. */
class stream_kit : public code_kit
{
public:
    stream_kit(const frame_options& opts, const device_spec& device)
    {
        option_reader r("viterbi", opts);
        d_code = conv_code_from_options(r);
        r.get("mode", "streaming");
        d_opts.mode = conv_mode::streaming;
        d_opts.block_len = int(r.get_int("block_len", 512, 8, 1 << 20));
        d_opts.traceback = int(r.get_int("traceback", 0, 0, 4096));
        d_opts.max_batch = int(r.get_int("max_batch", 0, 0, max_batch_limit));
        d_opts.cpu_threads = int(r.get_int("cpu_threads", 0, 0, 1024));
        r.finish();
        d_dec = std::make_unique<viterbi_stream_decoder>(d_code, d_opts, device);
        reset();
    }
    std::string describe() const override
    {
        return "viterbi " + d_code.describe() + ", streaming D=" + std::to_string(d_opts.block_len) +
               " L=" + std::to_string(d_dec->traceback());
    }
    std::string backend() const override { return d_dec->backend(); }
    double rate() const override { return double(d_code.period()) / d_code.kept_per_period(); }
    uint64_t info_bits_per_frame() const override { return uint64_t(d_opts.block_len); }
    uint64_t preferred_frames() const override { return 2048; }
    void reset() override
    {
        d_dec->reset();
        d_enc = std::make_unique<conv_encoder>(d_code, conv_mode::streaming);
        d_sent.clear();
    }

    error_counts run(uint64_t frames, channel_kit& ch, std::mt19937_64& rng) override
    {
        const size_t D = size_t(d_opts.block_len);
        size_t nbits = frames * D;
        nbits -= nbits % size_t(d_code.period()); // whole puncturing periods per push
        d_info.resize(nbits);
        random_bits(d_info.data(), nbits, rng);
        d_sent.insert(d_sent.end(), d_info.begin(), d_info.end());
        d_coded.resize(nbits * size_t(d_code.n()));
        d_coded.resize(d_enc->encode(d_info.data(), nbits, d_coded.data()));
        d_rx.resize(d_coded.size());
        ch.transmit(d_coded.data(), d_coded.size(), d_rx.data(), rng);
        d_soft.resize(d_rx.size());
        quantize_soft(d_rx.data(), d_soft.data(), d_rx.size());
        d_dec->push(d_soft.data(), d_soft.size());
        // whole blocks only: what is left waits for the next batch
        const size_t ready = d_dec->available() / D * D;
        d_out.resize(ready);
        const size_t got = d_dec->read(d_out.data(), ready);
        error_counts c;
        for (size_t f = 0; f + D <= got; f += D) {
            uint64_t e = 0;
            for (size_t i = 0; i < D; ++i)
                e += d_out[f + i] != d_sent[f + i];
            c.bit_errors += e;
            c.frame_errors += e > 0;
            c.frames++;
        }
        c.bits = c.frames * D;
        c.iterations = c.frames;
        d_sent.erase(d_sent.begin(), d_sent.begin() + long(c.bits));
        return c;
    }

private:
    conv_code d_code;
    viterbi_options d_opts;
    std::unique_ptr<viterbi_stream_decoder> d_dec;
    std::unique_ptr<conv_encoder> d_enc;
    std::deque<uint8_t> d_sent; // information bits not yet compared
    std::vector<uint8_t> d_info, d_coded, d_out;
    std::vector<float> d_rx;
    std::vector<int8_t> d_soft;
};

} // namespace

std::unique_ptr<channel_kit> make_bpsk_awgn() { return std::make_unique<bpsk_awgn>(); }

std::unique_ptr<channel_kit> make_channel(const std::string& name)
{
    if (name == "bpsk-awgn" || name == "awgn")
        return make_bpsk_awgn();
    throw std::invalid_argument("channel: '" + name + "' is not known (allowed: bpsk-awgn)");
}

std::unique_ptr<code_kit> make_code_kit(const std::string& family, const std::string& options,
                                        const device_spec& device)
{
    const frame_options opts = parse_frame_options(options);
    const auto mode = opts.find("mode");
    if (family == "viterbi" && mode != opts.end() && mode->second == "streaming")
        return std::make_unique<stream_kit>(opts, device);
    return std::make_unique<frame_kit>(family, opts, device);
}

} // namespace app
} // namespace gpufec
