/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Turbo codes: construction, names, where every encoder output sits in the codeword (LTE 36.212
 * 5.1.3.2.2 with its tail layout; CCSDS 131.0-B 6.3 with its puncturing), and the encoder. */
#include <gnuradio/gpufec/core/turbo/turbo.h>

#include <stdexcept>

namespace gpufec {

turbo_code turbo_code::lte(int K, turbo_layout layout)
{
    turbo_code c;
    c.pi = interleaver::lte_qpp(K); // throws for K not in table 5.1.3-3, listing the rule
    c.K = K;
    c.rsc = trellis::lte_turbo_constituent();
    c.layout = layout;
    c.build_map();
    return c;
}

turbo_code turbo_code::ccsds(int K, int rate_inv)
{
    if (rate_inv != 2 && rate_inv != 3 && rate_inv != 4 && rate_inv != 6)
        throw std::invalid_argument("rate: 1/" + std::to_string(rate_inv) +
                                    " is not a CCSDS turbo rate (allowed: 1/2, 1/3, 1/4, 1/6)");
    turbo_code c;
    c.standard = turbo_standard::ccsds;
    c.pi = interleaver::ccsds_turbo(K); // throws for other K, listing the four
    c.K = K;
    c.rate_inv = rate_inv;
    c.rsc = trellis::ccsds_turbo_constituent();
    c.build_map();
    return c;
}

void turbo_code::build_map()
{
    const int n = rsc.n(), N = stages();
    d_map.assign(size_t(2 * n * N), -1);
    auto set = [&](int e, int r, int k, size_t p) { d_map[(size_t(e) * size_t(n) + size_t(r)) * size_t(N) + size_t(k)] = int32_t(p); };
    if (standard == turbo_standard::lte) {
        for (int k = 0; k < K; ++k) {
            set(0, 0, k, pos(0, size_t(k)));
            set(0, 1, k, pos(1, size_t(k)));
            set(1, 1, k, pos(2, size_t(k)));
        }
        // 36.212 5.1.3.2.2: encoder e's tail x_K, z_K, x_K+1, z_K+1, x_K+2, z_K+2 (f = 0..5) go
        // to stream f mod 3 at index K + 2e + f / 3
        for (int e = 0; e < 2; ++e)
            for (int f = 0; f < 6; ++f)
                set(e, f % 2, K + f / 2, pos(f % 3, size_t(K + 2 * e + f / 3)));
        return;
    }
    // CCSDS 131.0-B 6.3 (figure 6-2 note): per bit time t, the rate's outputs in this order
    for (int t = 0; t < N; ++t) {
        const size_t b = size_t(t) * size_t(rate_inv);
        switch (rate_inv) {
        case 2: // (0a, 1a, 0a, 1b): 1a on even bit times, 1b on odd ones
            set(0, 0, t, b);
            set(t % 2 ? 1 : 0, 1, t, b + 1);
            break;
        case 3: // (0a, 1a, 1b)
            set(0, 0, t, b);
            set(0, 1, t, b + 1);
            set(1, 1, t, b + 2);
            break;
        case 4: // (0a, 2a, 3a, 1b)
            set(0, 0, t, b);
            set(0, 2, t, b + 1);
            set(0, 3, t, b + 2);
            set(1, 1, t, b + 3);
            break;
        default: // 6: (0a, 1a, 2a, 3a, 1b, 3b)
            set(0, 0, t, b);
            set(0, 1, t, b + 1);
            set(0, 2, t, b + 2);
            set(0, 3, t, b + 3);
            set(1, 1, t, b + 4);
            set(1, 3, t, b + 5);
            break;
        }
    }
}

turbo_code turbo_code::named(const std::string& id, turbo_layout layout)
{
    const auto colon = id.find(':');
    const std::string std_name = id.substr(0, colon);
    if ((std_name != "lte" && std_name != "ccsds") || colon == std::string::npos)
        throw std::invalid_argument("code: '" + id + "' is not known (allowed: lte:K with K one of the 188 LTE "
                                    "sizes 40..6144; ccsds:K[:1/r] with K 1784, 3568, 7136, 8920 and r 2, 3, 4, 6)");
    std::string rest = id.substr(colon + 1), rate;
    const auto colon2 = rest.find(':');
    if (colon2 != std::string::npos) {
        rate = rest.substr(colon2 + 1);
        rest = rest.substr(0, colon2);
    }
    auto number = [&](const std::string& text, const char* what) {
        size_t used = 0;
        int v = 0;
        try {
            v = std::stoi(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size())
            throw std::invalid_argument("code: '" + id + "': " + what + " is not a number");
        return v;
    };
    const int K = number(rest, "K");
    if (std_name == "lte") {
        if (!rate.empty() && rate != "1/3")
            throw std::invalid_argument("code: '" + id + "': the LTE mother code has rate 1/3 (rate matching "
                                        "gives the others: lte_rate_match)");
        return lte(K, layout);
    }
    if (layout != turbo_layout::streams)
        throw std::invalid_argument("layout: CCSDS codewords have the standard's one order (layout is LTE's)");
    int rate_inv = 3;
    if (!rate.empty()) {
        if (rate.compare(0, 2, "1/") != 0)
            throw std::invalid_argument("code: '" + id + "': the rate is written 1/r (1/2, 1/3, 1/4, 1/6)");
        rate_inv = number(rate.substr(2), "the rate");
    }
    return ccsds(K, rate_inv);
}

std::string turbo_code::id() const
{
    if (standard == turbo_standard::lte)
        return "lte:" + std::to_string(K);
    return "ccsds:" + std::to_string(K) + ":1/" + std::to_string(rate_inv);
}

std::string turbo_code::describe() const
{
    if (standard == turbo_standard::ccsds)
        return "CCSDS turbo K=" + std::to_string(K) + " (rate 1/" + std::to_string(rate_inv) + ", " +
               std::to_string(coded_bits()) + " code bits)";
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
    const int K = code.K, n = t.n();
    for (int e = 0; e < 2; ++e) {
        uint32_t s = 0;
        for (int k = 0; k < code.stages(); ++k) {
            // encoder 1 reads the interleaved sequence c'_k = c_pi(k); both end with the
            // termination: the feedback bit as input
            const uint32_t x = k >= K ? t.termination_input(s) : (e == 0 ? bits[k] : bits[code.pi[size_t(k)]]) & 1u;
            const uint32_t out = t.output(s, x);
            for (int r = 0; r < n; ++r) {
                const int64_t p = code.position(e, r, k);
                if (p >= 0)
                    coded[p] = uint8_t((out >> r) & 1u);
            }
            s = t.next_state(s, x);
        }
    }
}

turbo_algorithm parse_turbo_algorithm(const std::string& name)
{
    if (name == "max-log" || name == "maxlog")
        return turbo_algorithm::max_log;
    if (name == "log-map" || name == "logmap")
        return turbo_algorithm::log_map;
    if (name == "fptd")
        return turbo_algorithm::fptd;
    if (name == "fptd-max-log")
        return turbo_algorithm::fptd_max_log;
    throw std::invalid_argument("algorithm: '" + name +
                                "' is not valid (allowed: max-log, log-map, fptd, fptd-max-log)");
}

std::string turbo_algorithm_name(turbo_algorithm a)
{
    switch (a) {
    case turbo_algorithm::max_log:
        return "max-log";
    case turbo_algorithm::log_map:
        return "log-map";
    case turbo_algorithm::fptd:
        return "fptd";
    default:
        return "fptd-max-log";
    }
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
    if (!crc.empty())
        crc_spec::named(crc); // throws for an unknown name, listing the known ones
    if (cpu_threads < 0)
        throw std::invalid_argument("cpu_threads: must be >= 0");
    if (precision != 16 && precision != 8)
        throw std::invalid_argument("precision: " + std::to_string(precision) + " is not valid (allowed: 16, 8)");
    if (prelaunch && algorithm != turbo_algorithm::fptd_max_log)
        throw std::invalid_argument("prelaunch: an option of the GPU FPTD (algorithm=fptd-max-log)");
}

} // namespace gpufec
