/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The code kit of every frame family, through the registry: frames are made (information bits,
 * encoding, the channel, quantisation) in parallel on the CPU pool, each from its own
 * generator, then decoded in one call. `soft_bits=4` among the options (the kit's, not the
 * decoder's) packs the int8 values into 4-bit ones (pack_soft4) and decodes those. With a mix of encoders (gpufec_bench --mix), frame f is
 * made by encoder f mod (their number), so a decoder of several lengths (turbo code=lte:any)
 * gets a batch of mixed frames, as from an LTE transport block. */
#include "frames_ahead.h"
#include "kit_buffer.h"
#include "kits.h"

#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include "runtime/cpu_pool.h"
#include "sim/span_frames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace gpufec {
namespace app {

namespace {

class frame_kit : public code_kit
{
public:
    frame_kit(const std::string& family, const frame_options& opts, const device_spec& device,
              const std::vector<std::string>& mix, int soft_bits)
        : d_dec(make_frame_decoder(family, opts, device)),
          d_pool(get_cpu_pool(0)),
          d_family(family),
          d_opts(opts),
          d_device(device)
    {
        std::vector<frame_options> codes;
        for (const auto& m : mix)
            codes.push_back(parse_frame_options(m));
        if (codes.empty())
            codes.push_back(opts);
        else if (!d_dec->variable_input())
            throw std::invalid_argument("--mix: " + family + " decoders with these options take one frame length ("
                                        "turbo: code=lte:any takes every LTE K)");
        // encoders per pool worker (encoders keep state between calls), one per code of the mix
        d_workers.resize(size_t(d_pool->size()));
        for (auto& w : d_workers)
            for (const auto& c : codes)
                w.enc.push_back(make_frame_encoder(family, c));
        uint64_t k_sum = 0, n_sum = 0;
        for (size_t c = 0; c < codes.size(); ++c) {
            const auto& enc = *d_workers.front().enc[c];
            const size_t k = enc.info_bits(), n = enc.coded_bits();
            if (d_dec->variable_input() ? !d_dec->accepts_length(n) : n != d_dec->input_per_frame())
                throw std::invalid_argument(family + ": the encoder's output (" + std::to_string(n) +
                                            " values) does not match the decoder's input");
            if (k != d_dec->output_bits_for(n))
                throw std::invalid_argument(family + ": the decoder's output is not the information "
                                            "bits (set output=info)");
            d_codes.push_back({ k, n });
            d_k = std::max(d_k, k);
            d_n = std::max(d_n, n);
            k_sum += k;
            n_sum += n;
        }
        d_rate = double(k_sum) / double(n_sum);
        d_k_mean = (k_sum + codes.size() / 2) / codes.size();
        for (auto& w : d_workers) {
            w.coded.resize(d_n);
            w.rx.resize(d_n);
        }
        d_desc = family + " " + d_dec->describe();
        d_symbol_bits = d_dec->symbol_bits();
        if (d_codes.size() > 1) {
            d_desc += "; frames in turn of";
            for (const auto& m : mix)
                d_desc += " [" + m + "]";
        }
        d_soft_bits = soft_bits;
        if (d_soft_bits == 4 && d_dec->wants_float_input())
            throw std::invalid_argument("soft_bits=4: " + family + " decoders with these options take float values");
        if (d_soft_bits == 4)
            d_desc += ", 4-bit input";
        const frame_family& info = frame_family_info(family);
        if (info.union_bound) { // the family's ML union bound, where its code has one
            option_reader r(family, opts, &info.schema);
            d_bound = info.union_bound(r);
        }
    }

    std::string describe() const override { return d_desc; }
    std::string backend() const override { return d_dec->backend(); }
    double rate() const override { return d_rate; }
    uint64_t info_bits_per_frame() const override { return d_k_mean; }
    uint64_t preferred_frames() const override { return d_dec->preferred_batch(); }
    bool iterates() const override { return d_dec->iterates(); }
    uint64_t symbol_bits() const override { return d_symbol_bits; }
    std::string input_kind() const override
    {
        return d_dec->wants_float_input() ? "float LLR" : d_soft_bits == 4 ? "4-bit" : "int8";
    }
    double union_bound_ber(double ebn0) const override
    {
        return d_bound ? d_bound(rate(), ebn0) : NAN;
    }

    std::string choose_frame_maker(const std::string& maker, const channel_kit& ch, uint64_t seed) override
    {
        d_gpu.reset();
        d_ahead.reset();
        return choose_drawn(
            maker, ch, seed, [&] { return span_refusal(ch, seed); },
            "span frames (64 encoded words, Philox, exact int8 levels)",
            [&] {
                d_gpu = sim::make_span_maker_gpu(resolve_backend(d_device).device, *d_basis, d_soft_bits);
                return d_gpu->device();
            },
            d_span);
    }

    void simulate(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch,
                  frame_result* out) override
    {
        if (d_span) {
            simulate_span(key, first, count, ch, out);
            return;
        }
        tell_decoder(ch);
        make_frames(key, first, count, ch);
        decode(count, false);
        const size_t stride = d_dec->output_bytes(false);
        for_frames(*d_pool, count, [&](uint64_t f, int) {
            const uint8_t* got = d_out.data() + f * stride;
            const uint8_t* sent = d_info.data() + f * d_k;
            const size_t k = code_of(first + f).k;
            uint32_t e = 0, se = 0;
            for (size_t i = 0; i < k; ++i)
                e += got[i] != sent[i];
            if (d_symbol_bits > 1) // a symbol is wrong when any of its bits is
                for (size_t i = 0; i < k; i += d_symbol_bits)
                    se += !std::equal(got + i, got + std::min(k, i + d_symbol_bits), sent + i);
            out[f].bit_errors = e;
            out[f].symbol_errors = se;
            out[f].iterations = uint32_t(std::max(0, d_status[f].iterations));
        });
    }

    void bench_prepare(const sim_key& key, uint64_t count, const channel_kit& ch) override
    {
        tell_decoder(ch);
        make_frames(key, 0, count, ch);
        d_bench_frames = count;
    }
    uint64_t bench_input_bytes() const override
    {
        return d_soft_bits == 4 ? d_input_values / 2 : d_input_values * (d_dec->wants_float_input() ? sizeof(float) : 1);
    }
    void bench_decode() override { decode(d_bench_frames, true); }
    double bench_kernel_seconds(int reps) override
    {
        // (the kernels time int8 input)
        return d_dec->wants_float_input() || !d_len.empty() || d_soft_bits == 4
                   ? -1
                   : d_dec->time_kernels(d_soft8, d_bench_frames, reps);
    }
    error_counts bench_errors() const override
    {
        error_counts c;
        const size_t bytes = d_dec->output_bytes(true);
        for (uint64_t f = 0; f < d_bench_frames; ++f) {
            const size_t k = code_of(f).k;
            uint64_t e = 0;
            for (size_t i = 0; i < k; ++i)
                e += packed_bit(d_packed + f * bytes, i) != d_info[f * d_k + i];
            c.bit_errors += e;
            c.frame_errors += e > 0;
            c.iterations += uint64_t(std::max(0, d_status[f].iterations));
            c.bits += k;
        }
        c.frames = d_bench_frames;
        return c;
    }

private:
    struct worker {
        std::vector<std::unique_ptr<frame_encoder>> enc; //!< one per code of the mix
        std::vector<uint8_t> coded;
        std::vector<float> rx;
    };
    struct code_shape {
        size_t k, n; //!< information bits, code bits
    };
    //! the code of frame `frame` of a point (the mix in turn)
    const code_shape& code_of(uint64_t frame) const { return d_codes[frame % d_codes.size()]; }

    //! why span frames cannot make this kit's frames through `ch` (empty: they can); builds the basis
    std::string span_refusal(const channel_kit& ch, uint64_t seed)
    {
        if (std::isnan(ch.awgn_sigma()))
            return "span frames draw BPSK over AWGN only, not " + ch.name();
        if (!ch.decoder_options().empty())
            return "the decoder is told the channel";
        if (d_dec->wants_float_input())
            return "span frames draw int8 values; this decoder takes float LLRs";
        if (d_codes.size() > 1 || d_dec->variable_input())
            return "span frames are of one length";
        if (d_soft_bits == 4 && d_n % 2)
            return "packed 4-bit span frames need an even number of values";
        if (!basis_for(seed))
            return "the encoder is not affine";
        return "";
    }

    //! the basis of `seed` (made again when the seed changes); false where the encoder is not affine
    bool basis_for(uint64_t seed)
    {
        if (d_basis && d_basis_seed == seed)
            return true;
        auto& enc = *d_workers.front().enc.front();
        d_basis = sim::make_span_basis(d_k, d_n, [&](const uint8_t* u, uint8_t* c) { enc.encode(u, 1, c); }, seed);
        d_basis_seed = seed;
        if (d_basis && d_gpu) // the maker holds the rows of the seed it was made with
            d_gpu = sim::make_span_maker_gpu(resolve_backend(d_device).device, *d_basis, d_soft_bits);
        return bool(d_basis);
    }

    /*! Span frames: made on the GPU (the next call's frames guessed and made while this call's
     *  decode: a wrong guess costs only GPU time) or on the CPU, decoded with packed output, and
     *  compared with the frames' information bytes. */
    void simulate_span(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch, frame_result* out)
    {
        if (!basis_for(key.seed))
            throw std::logic_error("span frames: the encoder is not affine"); // checked when chosen
        const double sigma = ch.awgn_sigma();
        const sim::awgn_levels& levels = d_levels.at(sigma, ch.int8_scale());
        const sim::span_key sk = sim::make_span_key(key.seed, key.point);
        sim::span_output in;
        if (d_gpu) {
            in = d_ahead.made(
                { key.seed, key.point, first, count, sigma },
                [&](int slot, const frames_ahead::batch& b) { d_gpu->start(slot, levels, sk, b.first, b.count); },
                [&](int slot) { return d_gpu->wait(slot); });
        } else {
            if (d_soft_bits == 4)
                in.soft4 = d_in4.get<uint8_t>(count * d_n / 2);
            else
                in.soft8 = d_in.get<int8_t>(count * d_n);
            in.info = d_span_info.get<uint8_t>(count * d_basis->info_bytes());
            sim::make_span_frames_cpu(*d_basis, levels, sk, first, count, in);
        }
        d_status.resize(count);
        frame_batch b;
        b.frames = count;
        b.soft = in.soft8;
        b.soft4 = in.soft4;
        const size_t stride = d_dec->output_bytes(true), info_stride = d_basis->info_bytes();
        d_packed = d_out_buf.get<uint8_t>(count * stride);
        b.bits = d_packed;
        b.packed = true;
        b.status = d_status.data();
        d_dec->decode(b);
        const size_t k = d_k;
        for_frames(*d_pool, count, [&](uint64_t f, int) {
            const uint8_t* got = d_packed + f * stride;
            const uint8_t* sent = in.info + f * info_stride;
            const auto e = uint32_t(packed_bit_differences(got, sent, k));
            uint32_t se = 0;
            if (d_symbol_bits > 1 && e)
                for (size_t i = 0; i < k; i += d_symbol_bits) {
                    bool wrong = false;
                    for (size_t j = i; j < std::min(k, i + d_symbol_bits) && !wrong; ++j)
                        wrong = packed_bit(got, j) != packed_bit(sent, j);
                    se += wrong;
                }
            out[f].bit_errors = e;
            out[f].symbol_errors = se;
            out[f].iterations = uint32_t(std::max(0, d_status[f].iterations));
        });
    }

    //! frame first + f's information bits (into d_info, at a stride of the longest) and code bits
    //! (into wk.coded), drawn from its own generator, which goes on to the channel
    unit_rng encode_frame(const sim_key& key, uint64_t first, uint64_t f, worker& wk)
    {
        unit_rng rng(key.seed, key.point, first + f);
        const size_t c = (first + f) % d_codes.size();
        uint8_t* info = d_info.data() + f * d_k;
        random_bits(info, d_codes[c].k, rng);
        wk.enc[c]->encode(info, 1, wk.coded.data());
        return rng;
    }

    //! a decoder that must know the channel (the BSID probabilities) is made again when they change
    void tell_decoder(const channel_kit& ch)
    {
        const std::string extra = ch.decoder_options();
        if (extra.empty() || extra == d_told)
            return;
        frame_options o = d_opts;
        for (const auto& [k, v] : parse_frame_options(extra))
            o[k] = v;
        d_dec = make_frame_decoder(d_family, o, d_device);
        d_desc = d_family + " " + d_dec->describe(); // the channel it now assumes
        d_told = extra;
    }

    /*! A channel that changes the length: frame f's values go to row f of a scratch of the
     *  decoder's longest frame, then back to back into the input. A frame outside the lengths
     *  the decoder accepts (its drift range: rarer than its exclusion probability) is cut or
     *  padded with -1 to the nearest accepted length and counted. */
    void make_variable_frames(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch)
    {
        const size_t longest = d_dec->input_per_frame(), shortest = d_dec->min_input_per_frame();
        d_var.resize(count * longest);
        d_len.resize(count);
        d_info.resize(count * d_k);
        std::vector<uint8_t>& clipped = d_clip;
        clipped.assign(count, 0);
        for_frames(*d_pool, count, [&](uint64_t f, int w) {
            worker& wk = d_workers[size_t(w)];
            unit_rng rng = encode_frame(key, first, f, wk);
            ch.transmit_variable(wk.coded.data(), code_of(first + f).n, wk.rx, rng);
            size_t len = wk.rx.size();
            if (len > longest || len < shortest) {
                clipped[f] = 1;
                len = std::min(std::max(len, shortest), longest);
                wk.rx.resize(len, -1.f);
            }
            std::copy(wk.rx.begin(), wk.rx.begin() + long(len), d_var.begin() + long(f * longest));
            d_len[f] = len;
        });
        const auto cut = uint64_t(std::count(clipped.begin(), clipped.end(), uint8_t(1)));
        if (cut) {
            d_clipped += cut;
            std::fprintf(stderr, "gpufec: %llu frame(s) came out of the channel with a length outside the decoder's "
                                 "drift range (%zu..%zu); cut or padded to it (%llu so far)\n",
                         (unsigned long long)cut, shortest, longest, (unsigned long long)d_clipped);
        }
        std::vector<size_t>& at = d_at;
        at.assign(count + 1, 0);
        for (uint64_t f = 0; f < count; ++f)
            at[f + 1] = at[f] + d_len[f];
        d_input_values = at[count];
        const bool as_float = d_dec->wants_float_input();
        if (as_float)
            d_softf = d_in.get<float>(d_input_values);
        else
            d_soft8 = d_in.get<int8_t>(d_input_values);
        const float llr = ch.llr_scale(), i8 = ch.int8_scale();
        for_frames(*d_pool, count, [&](uint64_t f, int) {
            const float* x = d_var.data() + f * longest;
            if (as_float)
                for (size_t i = 0; i < d_len[f]; ++i)
                    d_softf[at[f] + i] = x[i] * llr;
            else
                quantize_soft(x, d_soft8 + at[f], d_len[f], i8);
        });
        pack_input();
    }

    // frame first + f draws its bits, then its noise, from unit_rng(seed, point, first + f)
    void make_frames(const sim_key& key, uint64_t first, uint64_t count, const channel_kit& ch)
    {
        if (d_codes.size() > 1) { // a mix: frames of several lengths
            make_variable_frames(key, first, count, ch);
            return;
        }
        if (ch.changes_length() && !d_dec->variable_input())
            throw std::invalid_argument(ch.name() + " changes the frames' length, which " + d_family +
                                        " decoders do not take");
        if (ch.changes_length() || d_dec->variable_input()) {
            // a decoder of frames of varying length is told each frame's length, whatever the
            // channel (else it would read them at its longest length)
            make_variable_frames(key, first, count, ch);
            return;
        }
        d_len.clear();
        d_input_values = count * d_n;
        const bool as_float = d_dec->wants_float_input();
        d_info.resize(count * d_k);
        if (as_float)
            d_softf = d_in.get<float>(count * d_n);
        else
            d_soft8 = d_in.get<int8_t>(count * d_n);
        const float llr = ch.llr_scale(), i8 = ch.int8_scale();
        for_frames(*d_pool, count, [&](uint64_t f, int w) {
            worker& wk = d_workers[size_t(w)];
            unit_rng rng = encode_frame(key, first, f, wk);
            ch.transmit(wk.coded.data(), d_n, wk.rx.data(), rng);
            if (as_float) {
                float* o = d_softf + f * d_n;
                for (size_t i = 0; i < d_n; ++i)
                    o[i] = wk.rx[i] * llr;
            } else {
                quantize_soft(wk.rx.data(), d_soft8 + f * d_n, d_n, i8);
            }
        });
        pack_input();
    }

    //! soft_bits=4: the batch's int8 values packed (frames of an even number of values start on a byte)
    void pack_input()
    {
        if (d_soft_bits != 4 || d_dec->wants_float_input())
            return;
        const size_t n = d_input_values;
        d_soft4 = d_in4.get<uint8_t>((n + 1) / 2);
        parallel_ranges(*d_pool, (n + 1) / 2, 2, [&](size_t first, size_t end) {
            pack_soft4(d_soft8 + 2 * first, d_soft4 + first, std::min(n, 2 * end) - 2 * first);
        });
    }

    void decode(uint64_t count, bool packed)
    {
        d_status.resize(count);
        frame_batch b;
        b.frames = count;
        if (d_dec->wants_float_input()) {
            b.soft_f = d_softf;
        } else if (d_soft_bits == 4) {
            b.soft4 = d_soft4;
        } else {
            b.soft = d_soft8;
        }
        if (packed) {
            d_packed = d_out_buf.get<uint8_t>(count * d_dec->output_bytes(true));
            b.bits = d_packed;
        } else {
            d_out.resize(count * d_dec->output_bytes(false));
            b.bits = d_out.data();
        }
        b.packed = packed;
        b.status = d_status.data();
        b.input_lengths = d_len.empty() ? nullptr : d_len.data();
        d_dec->decode(b);
    }

    std::unique_ptr<batch_decoder> d_dec;
    std::shared_ptr<cpu_pool> d_pool;
    std::string d_family, d_told;
    frame_options d_opts;
    device_spec d_device;
    std::vector<float> d_var;  //!< variable frames: one row of the longest length each
    std::vector<size_t> d_len; //!< variable frames: their lengths (empty: fixed frames)
    size_t d_symbol_bits = 1;  //!< of the decoded symbols
    std::vector<size_t> d_at;  //!< variable frames: where each starts in the input
    std::vector<uint8_t> d_clip;
    uint64_t d_clipped = 0, d_input_values = 0;
    std::vector<worker> d_workers;
    std::vector<code_shape> d_codes;
    size_t d_k = 0, d_n = 0; //!< the longest of the mix
    uint64_t d_k_mean = 0;
    double d_rate = 0;
    std::string d_desc;
    std::function<double(double, double)> d_bound; //!< (rate, Eb/N0 dB) -> BER, where the family has one
    kit_buffer d_in, d_in4, d_out_buf;
    int d_soft_bits = 8; //!< 4: the decoder gets the int8 values packed (pack_soft4)
    int8_t* d_soft8 = nullptr;
    uint8_t* d_soft4 = nullptr; //!< soft_bits=4: d_soft8 packed
    float* d_softf = nullptr;
    uint8_t* d_packed = nullptr;
    std::vector<uint8_t> d_info, d_out;
    std::vector<frame_status> d_status;
    uint64_t d_bench_frames = 0;
    // span frames (choose_frame_maker)
    bool d_span = false;
    std::optional<sim::span_basis> d_basis;
    uint64_t d_basis_seed = 0;
    std::unique_ptr<sim::span_maker_gpu> d_gpu; //!< null: made on the CPU
    levels_cache d_levels;
    kit_buffer d_span_info;
    frames_ahead d_ahead; //!< the GPU maker's slots
};

} // namespace

std::unique_ptr<code_kit> make_frame_kit(const std::string& family, const std::string& options,
                                         const device_spec& device, const std::vector<std::string>& mix)
{
    frame_options opts = parse_frame_options(options);
    int soft_bits = 8;
    if (const auto it = opts.find("soft_bits"); it != opts.end()) { // (the kit's option: not the decoder's)
        if (it->second != "4" && it->second != "8")
            throw std::invalid_argument("soft_bits: '" + it->second + "' is not 4 or 8");
        soft_bits = std::stoi(it->second);
        opts.erase(it);
    }
    return std::make_unique<frame_kit>(family, opts, device, mix, soft_bits);
}

} // namespace app
} // namespace gpufec
