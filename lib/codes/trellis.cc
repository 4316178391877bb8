/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/codes/trellis.h>

#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {
int parity(uint32_t v) { return __builtin_popcount(v) & 1; }
} // namespace

trellis trellis::feed_forward(const conv_code& code)
{
    code.validate();
    trellis t;
    t.d_k = code.k;
    t.d_n = code.n();
    const uint32_t S = uint32_t(t.states());
    t.d_next.resize(2 * S);
    t.d_out.resize(2 * S);
    t.d_term.assign(S, 0);
    // conv_code's state: bit 0 = the newest past input; the next state shifts the input in
    for (uint32_t s = 0; s < S; ++s)
        for (uint32_t x = 0; x < 2; ++x) {
            t.d_next[s * 2 + x] = ((s << 1) | x) & (S - 1);
            t.d_out[s * 2 + x] = code.output(s, x);
        }
    t.d_desc = "feed-forward " + code.describe();
    t.finish();
    return t;
}

trellis trellis::recursive_systematic(int k, int feedback, const std::vector<int>& feedforward)
{
    if (k < 2 || k > 9)
        throw std::invalid_argument("k: " + std::to_string(k) + " is not valid (allowed: 2..9)");
    const int m = k - 1;
    const int full = 1 << k;
    if (feedback < (1 << m) || feedback >= full || !(feedback & 1))
        throw std::invalid_argument("feedback: polynomial " + std::to_string(feedback) +
                                    " must have degree K-1 and a constant term");
    if (feedforward.empty() || feedforward.size() > 3)
        throw std::invalid_argument("feedforward: 1 to 3 polynomials");
    for (int g : feedforward)
        if (g <= 0 || g >= full)
            throw std::invalid_argument("feedforward: polynomial " + std::to_string(g) +
                                        " does not fit K=" + std::to_string(k));
    trellis t;
    t.d_k = k;
    t.d_n = 1 + int(feedforward.size());
    t.d_recursive = true;
    const uint32_t S = uint32_t(t.states());
    t.d_next.resize(2 * S);
    t.d_out.resize(2 * S);
    t.d_term.resize(S);
    // Octal convention (36.212): g = g_0 g_1 .. g_m with g_0 (the MSB) for the current
    // register input a_t = x_t + sum_{i>=1} fb_i a_{t-i}; parity = sum_i g_i a_{t-i}.
    // State bit (i-1) holds a_{t-i}: bit 0 = the newest.
    auto coef = [&](int poly, int i) { return (poly >> (m - i)) & 1; };
    for (uint32_t s = 0; s < S; ++s) {
        int fb = 0;
        for (int i = 1; i <= m; ++i)
            fb ^= coef(feedback, i) & int((s >> (i - 1)) & 1);
        t.d_term[s] = uint32_t(fb); // x = fb makes a_t = 0
        for (uint32_t x = 0; x < 2; ++x) {
            const int a = int(x) ^ fb;
            const uint32_t reg = (s << 1) | uint32_t(a); // bit 0 = a_t, bit i = a_{t-i}
            uint32_t out = x;                            // output 0: systematic
            for (size_t r = 0; r < feedforward.size(); ++r) {
                int p = 0;
                for (int i = 0; i <= m; ++i)
                    p ^= coef(feedforward[r], i) & int((reg >> i) & 1);
                out |= uint32_t(p) << (r + 1);
            }
            t.d_next[s * 2 + x] = reg & (S - 1);
            t.d_out[s * 2 + x] = out;
        }
    }
    std::ostringstream d;
    d << "recursive systematic K=" << k << " feedback " << std::oct << feedback << " feedforward";
    for (int g : feedforward)
        d << " " << std::oct << g;
    d << " (octal)";
    t.d_desc = d.str();
    t.finish();
    return t;
}

trellis trellis::lte_turbo_constituent() { return recursive_systematic(4, 013, { 015 }); }

trellis trellis::ccsds_turbo_constituent() { return recursive_systematic(5, 023, { 033, 025, 037 }); }

void trellis::finish()
{
    const uint32_t S = uint32_t(states());
    d_prev.assign(S, {});
    for (uint32_t s = 0; s < S; ++s)
        for (uint32_t x = 0; x < 2; ++x)
            d_prev[d_next[s * 2 + x]].emplace_back(s, x);
    for (uint32_t s = 0; s < S; ++s)
        if (d_prev[s].size() != 2)
            throw std::logic_error("trellis: state " + std::to_string(s) + " has " +
                                   std::to_string(d_prev[s].size()) + " predecessors");
    (void)parity;
}

std::vector<uint8_t> trellis::encode(const std::vector<uint8_t>& bits, bool terminate,
                                     std::vector<uint8_t>* tail_inputs) const
{
    std::vector<uint8_t> out;
    uint32_t s = 0;
    auto step = [&](uint32_t x) {
        const uint32_t o = output(s, x);
        for (int r = 0; r < d_n; ++r)
            out.push_back(uint8_t((o >> r) & 1));
        s = next_state(s, x);
    };
    for (uint8_t b : bits)
        step(b & 1u);
    if (terminate)
        for (int i = 0; i < d_k - 1; ++i) {
            const uint32_t x = termination_input(s);
            if (tail_inputs)
                tail_inputs->push_back(uint8_t(x));
            step(x);
        }
    return out;
}

std::string trellis::describe() const { return d_desc; }

} // namespace gpufec
