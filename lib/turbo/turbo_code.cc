/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The LTE turbo code: construction, names, the encoder and the tail layout of 36.212
 * 5.1.3.2.2. */
#include <gnuradio/gpufec/core/turbo.h>

#include <stdexcept>

namespace gpufec {

turbo_code turbo_code::lte(int K, turbo_layout layout)
{
    turbo_code c;
    c.pi = interleaver::lte_qpp(K); // throws for K not in table 5.1.3-3, listing the rule
    c.K = K;
    c.rsc = trellis::lte_turbo_constituent();
    c.layout = layout;
    return c;
}

turbo_code turbo_code::named(const std::string& id, turbo_layout layout)
{
    const std::string pre = "lte:";
    if (id.compare(0, pre.size(), pre) != 0)
        throw std::invalid_argument("code: '" + id + "' is not known (allowed: lte:K with K one of "
                                    "the 188 LTE sizes 40..6144)");
    size_t used = 0;
    int K = 0;
    try {
        K = std::stoi(id.substr(pre.size()), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || pre.size() + used != id.size())
        throw std::invalid_argument("code: '" + id + "': K is not a number");
    return lte(K, layout);
}

std::string turbo_code::describe() const
{
    return "LTE turbo K=" + std::to_string(K) + " (rate 1/3, " + std::to_string(coded_bits()) +
           " code bits, " + (layout == turbo_layout::streams ? "d0|d1|d2 streams" : "interleaved d0 d1 d2") +
           ")";
}

turbo_layout parse_turbo_layout(const std::string& name)
{
    if (name == "streams")
        return turbo_layout::streams;
    if (name == "interleaved")
        return turbo_layout::interleaved;
    throw std::invalid_argument("layout: '" + name + "' is not valid (allowed: streams, interleaved)");
}

void turbo_encode(const turbo_code& code, const uint8_t* bits, uint8_t* coded)
{
    const trellis& t = code.rsc;
    const size_t K = size_t(code.K);
    uint8_t xt[2][3], zt[2][3];
    for (int e = 0; e < 2; ++e) {
        uint32_t s = 0;
        for (size_t k = 0; k < K; ++k) {
            // encoder 2 reads the interleaved sequence c'_k = c_pi(k)
            const uint32_t x = (e == 0 ? bits[k] : bits[code.pi[k]]) & 1u;
            coded[code.pos(e == 0 ? 1 : 2, k)] = uint8_t((t.output(s, x) >> 1) & 1);
            if (e == 0)
                coded[code.pos(0, k)] = uint8_t(x);
            s = t.next_state(s, x);
        }
        for (int i = 0; i < 3; ++i) { // trellis termination: the feedback as input
            const uint32_t x = t.termination_input(s);
            xt[e][i] = uint8_t(x);
            zt[e][i] = uint8_t((t.output(s, x) >> 1) & 1);
            s = t.next_state(s, x);
        }
    }
    // 36.212 5.1.3.2.2: the 12 tail bits over d0..d2 at K..K+3
    const uint8_t tail[3][4] = { { xt[0][0], zt[0][1], xt[1][0], zt[1][1] },
                                 { zt[0][0], xt[0][2], zt[1][0], xt[1][2] },
                                 { xt[0][1], zt[0][2], xt[1][1], zt[1][2] } };
    for (int d = 0; d < 3; ++d)
        for (int i = 0; i < 4; ++i)
            coded[code.pos(d, K + size_t(i))] = tail[d][i];
}

turbo_algorithm parse_turbo_algorithm(const std::string& name)
{
    if (name == "max-log" || name == "maxlog")
        return turbo_algorithm::max_log;
    if (name == "log-map" || name == "logmap")
        return turbo_algorithm::log_map;
    if (name == "fptd")
        return turbo_algorithm::fptd;
    throw std::invalid_argument("algorithm: '" + name + "' is not valid (allowed: max-log, log-map, fptd)");
}

std::string turbo_algorithm_name(turbo_algorithm a)
{
    return a == turbo_algorithm::max_log ? "max-log" : a == turbo_algorithm::log_map ? "log-map" : "fptd";
}

void turbo_options::validate() const
{
    if (max_iterations < 1 || max_iterations > 100)
        throw std::invalid_argument("max_iterations: " + std::to_string(max_iterations) +
                                    " is not valid (allowed: 1..100)");
    if (!(scaling > 0.f && scaling <= 1.f))
        throw std::invalid_argument("scaling: must be in (0, 1]");
    if (window < 0 || window == 1 || window > 6144)
        throw std::invalid_argument("window: " + std::to_string(window) +
                                    " is not valid (allowed: 0 = whole block, or 2..6144 stages)");
    if (!crc.empty() && crc != "lte-24a" && crc != "lte-24b")
        throw std::invalid_argument("crc: '" + crc + "' is not valid (allowed: none, lte-24a, lte-24b)");
    if (cpu_threads < 0)
        throw std::invalid_argument("cpu_threads: must be >= 0");
}

} // namespace gpufec
