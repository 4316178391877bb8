/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/conv_code.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {
int parity(uint32_t x) { return __builtin_parity(x); }
constexpr int max_period = 32;
} // namespace

conv_mode parse_conv_mode(const std::string& name)
{
    if (name == "streaming" || name == "stream" || name == "continuous")
        return conv_mode::streaming;
    if (name == "terminated" || name == "zero_tail" || name == "zero-tail")
        return conv_mode::terminated;
    if (name == "tailbiting" || name == "tail_biting" || name == "tail-biting")
        return conv_mode::tailbiting;
    if (name == "truncated")
        return conv_mode::truncated;
    throw std::invalid_argument("mode: unknown mode '" + name +
                                "' (allowed: streaming, terminated, tailbiting, truncated)");
}

std::string to_string(conv_mode mode)
{
    switch (mode) {
    case conv_mode::streaming:
        return "streaming";
    case conv_mode::terminated:
        return "terminated";
    case conv_mode::tailbiting:
        return "tailbiting";
    case conv_mode::truncated:
        return "truncated";
    }
    return "?";
}

int conv_code::period() const
{
    return puncture.empty() ? 1 : static_cast<int>(puncture.size()) / n();
}

int conv_code::kept_per_period() const
{
    if (puncture.empty())
        return n();
    return static_cast<int>(std::count(puncture.begin(), puncture.end(), 1));
}

int64_t conv_code::kept_for_stages(int64_t stages) const
{
    const int p = period();
    int64_t kept = (stages / p) * kept_per_period();
    const int64_t rest = stages % p;
    if (!puncture.empty())
        for (int64_t i = 0; i < rest * n(); ++i)
            kept += puncture[i];
    else
        kept += rest * n();
    return kept;
}

void conv_code::validate() const
{
    if (k < 3 || k > 9)
        throw std::invalid_argument("k: constraint length " + std::to_string(k) +
                                    " is out of range (allowed: 3..9)");
    if (polys.size() < 2 || polys.size() > 4)
        throw std::invalid_argument("polys: " + std::to_string(polys.size()) +
                                    " polynomials given (allowed: 2..4, rate 1/2 to 1/4)");
    for (int p : polys) {
        const long mag = p < 0 ? -static_cast<long>(p) : p;
        if (mag == 0)
            throw std::invalid_argument("polys: a polynomial is zero");
        if (mag >= (1L << k))
            throw std::invalid_argument("polys: polynomial " + std::to_string(p) +
                                        " is wider than K=" + std::to_string(k) + " bits");
    }
    bool current = false, oldest = false;
    for (int p : polys) {
        const int mag = p < 0 ? -p : p;
        current |= (mag & 1) != 0;
        oldest |= (mag >> (k - 1)) & 1;
    }
    if (!current || !oldest)
        throw std::invalid_argument(
            "polys: no polynomial taps the " + std::string(current ? "oldest" : "current") +
            " bit, so the code's constraint length is not K=" + std::to_string(k));
    if (!puncture.empty()) {
        if (puncture.size() % polys.size() != 0)
            throw std::invalid_argument(
                "puncture: pattern length " + std::to_string(puncture.size()) +
                " is not a multiple of the number of outputs n=" + std::to_string(n()));
        if (period() > max_period)
            throw std::invalid_argument("puncture: pattern spans more than " +
                                        std::to_string(max_period) + " stages");
        for (uint8_t v : puncture)
            if (v > 1)
                throw std::invalid_argument("puncture: entries must be 0 or 1");
        if (kept_per_period() == 0)
            throw std::invalid_argument("puncture: pattern keeps no output");
    }
}

std::string conv_code::describe() const
{
    std::ostringstream s;
    s << "K=" << k << " polys=[";
    for (size_t i = 0; i < polys.size(); ++i)
        s << (i ? "," : "") << polys[i];
    s << "] rate ";
    if (puncture.empty())
        s << "1/" << n();
    else
        s << period() << "/" << kept_per_period();
    return s.str();
}

uint32_t conv_code::output(uint32_t state, uint32_t x) const
{
    const uint32_t reg = (state << 1) | (x & 1);
    uint32_t out = 0;
    for (int r = 0; r < n(); ++r) {
        const int p = polys[r];
        const uint32_t mag = static_cast<uint32_t>(p < 0 ? -p : p);
        out |= static_cast<uint32_t>(parity(reg & mag) ^ (p < 0 ? 1 : 0)) << r;
    }
    return out;
}

std::vector<int> polys_from_octal(const std::vector<int>& octal, int k)
{
    std::vector<int> out;
    for (int o : octal) {
        // read the digits as octal, then reverse the k bits so that bit 0 = current input
        int v = 0, mul = 1, x = o;
        while (x > 0) {
            const int d = x % 10;
            if (d > 7)
                throw std::invalid_argument("polys: " + std::to_string(o) + " is not octal");
            v += d * mul;
            mul *= 8;
            x /= 10;
        }
        int r = 0;
        for (int b = 0; b < k; ++b)
            if (v & (1 << b))
                r |= 1 << (k - 1 - b);
        out.push_back(r);
    }
    return out;
}

conv_code conv_code::preset(const std::string& name)
{
    conv_code c;
    c.k = 7;
    // 802.11 puncturing patterns (IEEE 802.11-2020 17.3.5.7), stage-major over (A, B):
    // 2/3: A1 B1 A2 -; 3/4: A1 B1 A2 - - B3; 5/6: A1 B1 A2 - - B3 A4 - - B5.
    if (name == "ccsds") {
        c.polys = { 79, -109 };
    } else if (name == "nasa-dsn") {
        c.polys = { -109, 79 };
    } else if (name == "ccsds-uninverted") {
        c.polys = { 79, 109 };
    } else if (name == "nasa-dsn-uninverted" || name == "voyager") {
        c.polys = { 109, 79 };
    } else if (name == "80211") {
        c.polys = { 109, 79 };
    } else if (name == "80211-2/3") {
        c.polys = { 109, 79 };
        c.puncture = { 1, 1, 1, 0 };
    } else if (name == "80211-3/4") {
        c.polys = { 109, 79 };
        c.puncture = { 1, 1, 1, 0, 0, 1 };
    } else if (name == "80211-5/6") {
        c.polys = { 109, 79 };
        c.puncture = { 1, 1, 1, 0, 0, 1, 1, 0, 0, 1 };
    } else if (name == "dvbs-7/8") {
        // DVB-S (EN 300 421) 7/8: X: 1000101, Y: 1111010, sent stage-major
        c.polys = { 79, 109 };
        c.puncture = { 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0 };
    } else if (name == "lte") {
        c.polys = polys_from_octal({ 133, 171, 165 }, 7);
    } else {
        std::string all;
        for (const auto& p : preset_names())
            all += (all.empty() ? "" : ", ") + p;
        throw std::invalid_argument("code: unknown preset '" + name + "' (allowed: " + all + ")");
    }
    return c;
}

std::vector<std::string> conv_code::preset_names()
{
    return { "ccsds",     "nasa-dsn",  "ccsds-uninverted", "nasa-dsn-uninverted",
             "voyager",   "80211",     "80211-2/3",        "80211-3/4",
             "80211-5/6", "dvbs-7/8",  "lte" };
}

} // namespace gpufec
