/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Which codeword bits are sent (ldpc.h, ldpc_transmission): punctured and shortened positions
 * from the options' range lists, checked against the code. */
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>
#include <gnuradio/gpufec/core/ldpc/ldpc.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

//! "a:b c d:e:s" -> the positions, ascending, each once; every one in 0..n-1 (first:end takes
//! every position from first up to end, end excluded; first:end:step every step-th of them)
std::vector<int> parse_positions(const std::string& key, const std::string& text, int n)
{
    std::vector<int> out;
    if (text == "none")
        return out;
    std::istringstream in(text);
    std::string tok;
    auto number = [&](const std::string& s) {
        size_t used = 0;
        long v = -1;
        try {
            v = std::stol(s, &used, 10);
        } catch (const std::exception&) {
            used = 0;
        }
        if (s.empty() || used != s.size())
            throw std::invalid_argument(key + ": '" + tok + "' is not a position or a first:end range");
        return v;
    };
    while (in >> tok) {
        const auto colon = tok.find(':'), colon2 = colon == std::string::npos ? colon : tok.find(':', colon + 1);
        const long first = number(tok.substr(0, colon));
        const long end = colon == std::string::npos ? first + 1 : number(tok.substr(colon + 1, colon2 - colon - 1));
        const long step = colon2 == std::string::npos ? 1 : number(tok.substr(colon2 + 1));
        if (first < 0 || end > n || first >= end || step < 1)
            throw std::invalid_argument(key + ": '" + tok + "' is not a range of positions in 0.." +
                                        std::to_string(n) + " (first:end or first:end:step, end excluded)");
        for (long i = first; i < end; i += step)
            out.push_back(int(i));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

ldpc_transmission ldpc_transmission::parse(const ldpc_code& code, const std::string& puncture,
                                           const std::string& shorten, const std::string& interleaver,
                                           const std::string& erased)
{
    ldpc_transmission t;
    // "": the code's own (38.212 5.4.2.1: 5G NR never sends its first 2Z bits; AR4JA its last M)
    const std::string p = puncture.empty() ? code.default_puncture() : puncture;
    t.punctured = parse_positions("puncture", p, code.n());
    t.shortened = parse_positions("shorten", shorten.empty() ? code.default_shorten() : shorten, code.n());
    t.appended = code.fill_bits();
    t.erased = parse_positions("erased", erased.empty() ? "none" : erased, code.n());
    if (!code.send_order().empty()) { // positions as sent -> the code's columns
        for (auto* v : { &t.punctured, &t.shortened, &t.erased }) {
            for (int& x : *v)
                x = code.send_order()[size_t(x)];
            std::sort(v->begin(), v->end());
        }
    }
    const auto& info = code.info_columns();
    std::vector<int> sorted_info(info.begin(), info.end());
    std::sort(sorted_info.begin(), sorted_info.end());
    for (int s : t.shortened) {
        if (!std::binary_search(sorted_info.begin(), sorted_info.end(), s))
            throw std::invalid_argument("shorten: position " + std::to_string(s) +
                                        " is a parity bit (only information bits can be known zeros)");
        if (std::binary_search(t.punctured.begin(), t.punctured.end(), s))
            throw std::invalid_argument("shorten: position " + std::to_string(s) + " is punctured too");
    }
    for (int e : t.erased)
        if (std::binary_search(t.punctured.begin(), t.punctured.end(), e) ||
            std::binary_search(t.shortened.begin(), t.shortened.end(), e))
            throw std::invalid_argument("erased: position " + std::to_string(e) +
                                        " is not sent (punctured or shortened)");
    if (t.punctured.size() + t.shortened.size() >= size_t(code.n()))
        throw std::invalid_argument("puncture, shorten: no codeword bit would be sent");
    if (t.shortened.size() >= info.size())
        throw std::invalid_argument("shorten: every information bit would be known");
    if (!interleaver.empty() && interleaver != "none") {
        const std::string& id = code.id();
        if (id.rfind("dvbs2:", 0) != 0)
            throw std::invalid_argument("interleaver: " + interleaver + " is DVB-S2's bit interleaver; the code " + id +
                                        " has none");
        if (!t.punctured.empty() || !t.shortened.empty() || t.appended)
            throw std::invalid_argument("interleaver: DVB-S2's bit interleaver takes whole FECFRAMEs (no puncture, no shorten)");
        try {
            t.interleaver = dvbs2_bit_interleaver(code.n(), id.substr(id.rfind(':') + 1), interleaver);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("interleaver: ") + e.what());
        }
    }
    return t;
}

std::vector<int> ldpc_transmission::sent(const ldpc_code& code) const
{
    std::vector<int> out;
    out.reserve(size_t(code.n()));
    const auto& order = code.send_order();
    for (int i = 0; i < code.n(); ++i) {
        const int col = order.empty() ? i : order[size_t(i)];
        if (!std::binary_search(punctured.begin(), punctured.end(), col) &&
            !std::binary_search(shortened.begin(), shortened.end(), col))
            out.push_back(col);
    }
    if (!interleaver.empty()) {
        std::vector<int> through(interleaver.size());
        for (size_t p = 0; p < interleaver.size(); ++p)
            through[p] = out[size_t(interleaver[p])];
        return through;
    }
    return out;
}

} // namespace gpufec
