/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/ccsds_randomizer.h>
#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/core/runtime/bits.h>
#include <gnuradio/gpufec/core/runtime/soft.h>
#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

namespace gpufec {

namespace {

//! hex digits to bits, MSB first
std::vector<uint8_t> hex_bits(const std::string& hex)
{
    std::vector<uint8_t> b;
    for (char c : hex) {
        const int v = c <= '9' ? c - '0' : c - 'A' + 10;
        for (int i = 3; i >= 0; --i)
            b.push_back(uint8_t((v >> i) & 1));
    }
    return b;
}

const crc_spec& fecf_crc()
{
    static const crc_spec spec = crc_spec::named("ccsds-16");
    return spec;
}

/*! The marker's code symbols under `code` as expected signs: every state the bits before the
 *  marker may leave (all K - 1 bit prefixes) encoded with it; a symbol that is the same in all
 *  is known (+1 for a 1, -1 for a 0), the others 0 */
std::vector<int8_t> coded_marker(const conv_code& code, const std::vector<uint8_t>& m)
{
    const int pre = code.k - 1;
    const size_t per = m.size() * size_t(code.n());
    std::vector<int8_t> first;
    std::vector<uint8_t> bits(size_t(pre) + m.size()), out(bits.size() * size_t(code.n()));
    for (uint32_t p = 0; p < (1u << pre); ++p) {
        for (int i = 0; i < pre; ++i)
            bits[size_t(i)] = uint8_t((p >> i) & 1u);
        std::copy(m.begin(), m.end(), bits.begin() + pre);
        conv_encoder enc(code, conv_mode::streaming);
        enc.encode(bits.data(), bits.size(), out.data());
        const uint8_t* sym = out.data() + size_t(pre) * size_t(code.n());
        if (first.empty()) {
            first.resize(per);
            for (size_t i = 0; i < per; ++i)
                first[i] = sym[i] ? 1 : -1;
        } else {
            for (size_t i = 0; i < per; ++i)
                if (first[i] != (sym[i] ? 1 : -1))
                    first[i] = 0;
        }
    }
    return first;
}

//! the preset's other convention: every inverted output sent plain, or (none inverted) the
//! second output inverted, as CCSDS inverts G2
conv_code other_convention(conv_code c)
{
    const bool any = std::any_of(c.polys.begin(), c.polys.end(), [](int p) { return p < 0; });
    if (any)
        for (int& p : c.polys)
            p = std::abs(p);
    else if (c.n() > 1)
        c.polys[1] = -c.polys[1];
    return c;
}

//! "ccsds:K:1/r" -> "1/r"; "" for another name
std::string turbo_rate(const std::string& code)
{
    const auto c = code.rfind(':');
    return code.rfind("ccsds:", 0) == 0 && c > 6 ? code.substr(c + 1) : std::string();
}

/*! (information bits, bits sent) of an LDPC or turbo code, found once a code (C2's code takes
 *  about 50 ms to build, and every block of a receiver makes its layout) */
std::pair<size_t, size_t> fec_sizes(const std::string& family, const std::string& code)
{
    static std::mutex lock;
    static std::map<std::string, std::pair<size_t, size_t>> known;
    {
        std::lock_guard<std::mutex> g(lock);
        const auto it = known.find(code);
        if (it != known.end())
            return it->second;
    }
    std::pair<size_t, size_t> sizes;
    if (family == "ldpc") {
        // (the code and its transmission, not its encoder: AR4JA's takes a while to build)
        const ldpc_code c = ldpc_code::named(code);
        const ldpc_transmission tx = ldpc_transmission::parse(c, "", "");
        sizes = { size_t(c.k()) - tx.shortened.size(), tx.sent(c).size() + size_t(tx.appended) };
    } else {
        const auto enc = make_frame_encoder(family, { { "code", code } });
        sizes = { enc->info_bits(), enc->coded_bits() };
    }
    std::lock_guard<std::mutex> g(lock);
    known[code] = sizes;
    return sizes;
}

} // namespace

std::vector<uint8_t> ccsds_marker_bits(const std::string& turbo_rate)
{
    // 131.0-B 9.3 (figures 9-2 .. 9-5): the rate-1/4 and 1/6 markers are the rate-1/2 and 1/3
    // ones followed by their complements
    const std::string half = "034776C7272895B0", third = "25D5C0CE8990F6C9461BF79C";
    auto with_complement = [](std::vector<uint8_t> b) {
        const size_t n = b.size();
        for (size_t i = 0; i < n; ++i)
            b.push_back(uint8_t(b[i] ^ 1u));
        return b;
    };
    if (turbo_rate == "1/2")
        return hex_bits(half);
    if (turbo_rate == "1/3")
        return hex_bits(third);
    if (turbo_rate == "1/4")
        return with_complement(hex_bits(half));
    if (turbo_rate == "1/6")
        return with_complement(hex_bits(third));
    const uint8_t asm_bytes[4] = { uint8_t(ccsds_asm_word >> 24), uint8_t(ccsds_asm_word >> 16),
                                   uint8_t(ccsds_asm_word >> 8), uint8_t(ccsds_asm_word) };
    std::vector<uint8_t> b(32);
    unpack_bits(asm_bytes, b.size(), b.data());
    return b;
}

std::vector<std::string> ccsds_tm_rs_codes()
{
    std::vector<std::string> ids;
    for (const std::string& id : rs_code::names())
        if (id.rfind("ccsds:", 0) == 0)
            ids.push_back(id);
    return ids;
}

std::vector<std::string> ccsds_tm_ldpc_codes()
{
    // C2 as sent and AR4JA; not the basic C2 code (7156 information bits: no whole transfer
    // frame) nor the telecommand codes (231.0-B, sent in CLTUs, not CADUs)
    std::vector<std::string> ids;
    for (const std::string& id : ldpc_code::standard_ids())
        if (id.rfind("ccsds:", 0) == 0 && id != "ccsds:8176:7156" && id != "ccsds:128:64" && id != "ccsds:512:256")
            ids.push_back(id);
    return ids;
}

std::vector<std::string> ccsds_tm_turbo_codes()
{
    std::vector<std::string> ids;
    for (int k : { 1784, 3568, 7136, 8920 })
        for (const char* r : { "1/2", "1/3", "1/4", "1/6" })
            ids.push_back("ccsds:" + std::to_string(k) + ":" + r);
    return ids;
}

ccsds_tm_layout ccsds_tm_layout::make(const std::string& code, int interleave, int virtual_fill,
                                      const std::string& basis, const std::string& conv)
{
    ccsds_tm_layout l;
    l.code = code;
    const auto ldpc_ids = ccsds_tm_ldpc_codes(), turbo_ids = ccsds_tm_turbo_codes();
    auto among = [&](const std::vector<std::string>& ids) { return std::find(ids.begin(), ids.end(), code) != ids.end(); };
    l.family = among(ldpc_ids) ? "ldpc" : among(turbo_ids) ? "turbo" : "rs";
    l.conv = conv == "default" ? (l.is_rs() ? "ccsds" : "none") : conv;
    if (!l.is_rs()) {
        // the Reed-Solomon settings mean nothing here: refused rather than ignored
        const std::string what = "the " + std::string(l.family == "ldpc" ? "LDPC" : "turbo") + " code " + code;
        if (interleave != 1)
            throw std::invalid_argument("interleave: " + std::to_string(interleave) + " (" + what +
                                        " has one codeword a transfer frame: 1)");
        if (virtual_fill >= 0)
            throw std::invalid_argument("virtual_fill: " + what + " is not shortened by it (give -1)");
        if (basis != "default")
            throw std::invalid_argument("basis: '" + basis + "' is a Reed-Solomon setting (" + what +
                                        " takes \"default\")");
        if (l.coded())
            throw std::invalid_argument("conv: '" + l.conv + "': " + what +
                                        " is sent without the convolutional code (131.0-B); give \"none\"");
    }
    if (!l.is_rs()) {
        const auto [frame, codeblock] = fec_sizes(l.family, code);
        l.fec_frame_bits = frame;
        l.fec_codeblock_bits = codeblock;
        if (l.family == "turbo")
            l.marker = ccsds_marker_bits(turbo_rate(code));
    } else {
        const auto names = ccsds_tm_rs_codes();
        if (std::find(names.begin(), names.end(), code) == names.end()) {
            std::string known;
            for (const auto* ids : { &names, &ldpc_ids, &turbo_ids })
                for (const auto& n : *ids)
                    known += (known.empty() ? "" : ", ") + n;
            throw std::invalid_argument("code: '" + code + "' is not a telemetry code (allowed: " + known + ")");
        }
        if (interleave < 1 || interleave > 8) // (131.0-B 4.3: I = 1 .. 5 and 8)
            throw std::invalid_argument("interleave: " + std::to_string(interleave) + " is outside 1..8");
        l.rs = rs_code::configured(code, basis, interleave, virtual_fill);
    }
    l.check();
    return l;
}

std::string ccsds_tm_layout::family_options() const
{
    if (!is_rs())
        return "code=" + code;
    std::string o = "code=" + code + ", interleave=" + std::to_string(rs.interleave) + ", basis=" +
                    (rs.dual_basis ? "dual" : "conventional");
    return o + ", virtual_fill=" + std::to_string(rs.virtual_fill);
}

size_t ccsds_tm_layout::cadu_symbols() const
{
    return coded() ? cadu_bits() * size_t(conv_code::preset(conv).n()) : cadu_bits();
}

void ccsds_tm_layout::check() const
{
    if (!is_rs()) {
        if (fec_frame_bits == 0 || fec_frame_bits % 8 || fec_codeblock_bits == 0)
            throw std::invalid_argument("ccsds_tm: the code " + code + " does not carry whole transfer frames");
        if (coded())
            throw std::invalid_argument("ccsds_tm: LDPC and turbo codewords are sent without the convolutional code");
    } else {
        rs.check();
    }
    if (coded()) {
        const conv_code c = conv_code::preset(conv); // (unknown names: its message)
        if (!c.puncture.empty())
            throw std::invalid_argument("ccsds_tm: the inner code '" + conv +
                                        "' is punctured; the telemetry chain takes the rate-1/n codes");
    }
}

std::vector<marker_hypothesis> ccsds_tm_hypotheses(const ccsds_tm_layout& layout, bool both_conventions)
{
    layout.check();
    std::vector<marker_hypothesis> hyps;
    auto add = [&](const std::string& name, const std::vector<int8_t>& pattern, std::vector<int8_t> fix) {
        for (int polarity : { 1, -1 }) {
            marker_hypothesis h;
            h.name = std::string(polarity > 0 ? "upright" : "inverted") + name;
            h.pattern = pattern;
            for (auto& p : h.pattern)
                p = int8_t(p * polarity);
            h.fix = fix;
            for (auto& f : h.fix)
                f = int8_t(f * polarity);
            hyps.push_back(std::move(h));
        }
    };
    if (!layout.coded()) {
        std::vector<int8_t> pattern;
        for (uint8_t b : layout.marker)
            pattern.push_back(b ? 1 : -1);
        add("", pattern, { 1 });
        return hyps;
    }
    const conv_code own = conv_code::preset(layout.conv);
    add("", coded_marker(own, layout.marker), std::vector<int8_t>(size_t(own.n()), 1));
    if (both_conventions) {
        const conv_code other = other_convention(own);
        std::vector<int8_t> fix(size_t(own.n()));
        for (int j = 0; j < own.n(); ++j)
            fix[size_t(j)] = (own.polys[size_t(j)] < 0) == (other.polys[size_t(j)] < 0) ? 1 : -1;
        add(", other convention", coded_marker(other, layout.marker), fix);
    }
    return hyps;
}

ccsds_tm_encoder::ccsds_tm_encoder(const ccsds_tm_layout& layout, bool randomize)
    : d_layout(layout), d_randomize(randomize), d_rs((layout.check(), layout.rs))
{
    if (!layout.is_rs())
        d_fec = make_frame_encoder(layout.family, { { "code", layout.code } });
    if (layout.coded())
        d_conv = std::make_unique<conv_encoder>(conv_code::preset(layout.conv), conv_mode::streaming);
}

std::vector<uint8_t> ccsds_tm_encoder::encode(const uint8_t* frames, size_t n)
{
    const size_t fb = d_layout.frame_bytes(), cb = d_layout.codeblock_bits(), bits = d_layout.cadu_bits();
    const auto& m = d_layout.marker;
    std::vector<uint8_t> cadus(n * bits), block(cb / 8), info(d_fec ? fb * 8 : 0);
    for (size_t f = 0; f < n; ++f) {
        uint8_t* o = cadus.data() + f * bits;
        std::copy(m.begin(), m.end(), o);
        uint8_t* body = o + m.size();
        if (d_fec) { // (the family's encoder, a bit a byte: turbo codewords need not be whole bytes)
            unpack_bits(frames + f * fb, info.size(), info.data());
            d_fec->encode(info.data(), 1, body);
            if (d_randomize)
                ccsds_randomize(body, cb);
        } else {
            d_rs.encode(frames + f * fb, block.data());
            if (d_randomize)
                ccsds_randomize_packed(block.data(), cb);
            unpack_bits(block.data(), cb, body);
        }
    }
    if (!d_conv)
        return cadus;
    std::vector<uint8_t> out(n * d_layout.cadu_symbols());
    d_conv->encode(cadus.data(), cadus.size(), out.data());
    return out;
}

size_t rs_codeword_corrections(const rs_code& code, const uint8_t* received_blocks, const uint8_t* decoded_info,
                               size_t frames, int* per_codeword)
{
    return rs_codeword_corrections(rs_encoder(code), received_blocks, decoded_info, frames, per_codeword);
}

size_t rs_codeword_corrections(const rs_encoder& enc, const uint8_t* received_blocks, const uint8_t* decoded_info,
                               size_t frames, int* per_codeword)
{
    const rs_code& code = enc.code();
    const size_t bb = code.block_bytes(), ib = code.info_bytes(), I = size_t(code.interleave);
    std::vector<uint8_t> again(bb);
    size_t decoded = 0;
    for (size_t f = 0; f < frames; ++f) {
        enc.encode(decoded_info + f * ib, again.data());
        const uint8_t* got = received_blocks + f * bb;
        int* c = per_codeword + f * I;
        std::fill(c, c + I, 0);
        for (size_t b = 0; b < bb; ++b)
            c[b % I] += again[b] != got[b];
        for (size_t j = 0; j < I; ++j) {
            if (c[j] > code.correctable())
                c[j] = -1;
            else
                ++decoded;
        }
    }
    return decoded;
}

void ldpc_information_corrections(const ccsds_tm_layout& layout, const uint8_t* received_bits,
                                  const uint8_t* decoded_frames, size_t frames, int* per_frame)
{
    // the received information bits packed as the decoded frame is, then the differing bits
    // counted 64 at a time
    const size_t fb = layout.frame_bytes(), cw = layout.codeblock_bits();
    std::vector<uint8_t> got(fb);
    for (size_t f = 0; f < frames; ++f) {
        pack_bits(received_bits + f * cw, fb * 8, got.data());
        per_frame[f] = int(packed_bit_differences(got.data(), decoded_frames + f * fb, fb * 8));
    }
}

ccsds_tm_deframer::ccsds_tm_deframer(const ccsds_tm_layout& layout, bool randomized, float scale)
    : d_marker(layout.marker.size()), d_cadu(layout.cadu_bits()), d_bits(layout.codeblock_bits()), d_scale(scale),
      d_pn(d_bits, 0)
{
    if (randomized)
        ccsds_randomize(d_pn.data(), d_bits);
}

// (the loops over a codeblock vectorise: sizes in locals, outputs that alias nothing, no
// branches on the data)
void ccsds_tm_deframer::run(const uint8_t* bits, size_t cadus, int8_t* soft, uint8_t* hard) const
{
    const uint8_t* __restrict pn = d_pn.data();
    const size_t nb = d_bits, per = d_cadu;
    for (size_t f = 0; f < cadus; ++f) {
        const uint8_t* __restrict b = bits + f * per + d_marker;
        int8_t* __restrict s = soft + f * nb;
        uint8_t* __restrict h = hard + f * nb;
        for (size_t i = 0; i < nb; ++i) {
            const uint8_t v = uint8_t((b[i] ^ pn[i]) & 1u);
            h[i] = v;
            s[i] = int8_t(v * 254 - 127); // 1: +127, 0: -127
        }
    }
}

void ccsds_tm_deframer::run(const float* symbols, size_t cadus, int8_t* soft, uint8_t* hard) const
{
    const uint8_t* __restrict pn = d_pn.data();
    const size_t nb = d_bits, per = d_cadu;
    for (size_t f = 0; f < cadus; ++f) {
        int8_t* __restrict s = soft + f * nb;
        uint8_t* __restrict h = hard + f * nb;
        // the platform's one float -> int8 rule (NaN: 0, an erasure to the decoder; clamped to
        // +-127), then the sequence's bits as sign changes
        quantize_soft(symbols + f * per + d_marker, s, nb, d_scale);
        for (size_t i = 0; i < nb; ++i) {
            const int8_t m = int8_t(-int8_t(pn[i] & 1u)); // 0 or -1
            const int8_t q = int8_t((s[i] ^ m) - m);
            s[i] = q;
            h[i] = uint8_t(q > 0);
        }
    }
}

bool ccsds_fecf_ok(const uint8_t* frame, size_t bytes)
{
    if (bytes < 3)
        return false;
    const uint32_t crc = crc_bytes(fecf_crc(), frame, bytes - 2);
    return crc == (uint32_t(frame[bytes - 2]) << 8 | frame[bytes - 1]);
}

void ccsds_fecf_set(uint8_t* frame, size_t bytes)
{
    if (bytes < 3)
        throw std::invalid_argument("ccsds_fecf_set: a frame of at least 3 bytes");
    const uint32_t crc = crc_bytes(fecf_crc(), frame, bytes - 2);
    frame[bytes - 2] = uint8_t(crc >> 8);
    frame[bytes - 1] = uint8_t(crc);
}

} // namespace gpufec
