/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The symbol-level MAP decoder of TVB codes over the BSID channel (CPU reference).
 *
 * States are drifts m (received minus sent bits before symbol i) in [mt.lo, mt.hi]; symbol i
 * moves the drift by d in [mn.lo, mn.hi]. gamma_i(m', d, D) = Pr{D} R(y[n i + m', n (i + 1) + m'
 * + d) | C_i(D)); alpha and beta are normalised sums over it, in double precision. */
#include <gnuradio/gpufec/core/tvb/tvb.h>

#include <algorithm>
#include <unistd.h>
#include <stdexcept>
#include <type_traits>

namespace gpufec {

namespace {
size_t physical_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
}
} // namespace

std::string to_string(tvb_precision p) { return p == tvb_precision::float32 ? "single" : "double"; }

tvb_precision parse_tvb_precision(const std::string& s)
{
    if (s == "single" || s == "float")
        return tvb_precision::float32;
    if (s == "double")
        return tvb_precision::float64;
    throw std::invalid_argument("precision: '" + s + "' is not valid (allowed: single, double)");
}

tvb_map_decoder::tvb_map_decoder(
    const tvb_code& code, size_t N, const bsid_params& channel, double exclusion, tvb_precision precision)
    : d_code(code), d_N(N), d_ch(channel), d_precision(precision)
{
    code.check();
    channel.check();
    if (N < 1 || N > size_t(tvb_max_block_length))
        throw std::invalid_argument("N: " + std::to_string(N) + " symbols a frame (allowed: 1 .. " +
                                    std::to_string(tvb_max_block_length) + ")");
    d_mt = bsid_drift_limits(channel, N * size_t(code.n), exclusion);
    // as SimCommSys: the frame's exclusion probability is shared by its N codewords
    d_mn = bsid_drift_limits(channel, size_t(code.n), tvb_split_exclusion(exclusion, N));
    // a codeword's drift cannot go beyond the frame's
    d_mn.lo = std::max(d_mn.lo, d_mt.lo);
    d_mn.hi = std::min(d_mn.hi, d_mt.hi);
}

void tvb_map_decoder::check_memory() const
{
    // gamma holds N x (frame drifts) x q x (codeword drifts) values: refuse what cannot fit
    const double bytes = double(d_N) * d_mt.size() * double(d_code.q) * d_mn.size() * sizeof(float);
    const double limit = double(physical_memory_bytes()) / 4;
    if (bytes > limit)
        throw std::invalid_argument("N, q: the CPU decoder would hold " + std::to_string(long(bytes / (1 << 20))) +
                                    " MiB of branch metrics a frame (N=" + std::to_string(d_N) + ", q=" +
                                    std::to_string(d_code.q) + ", drifts " + std::to_string(d_mt.size()) + " x " +
                                    std::to_string(d_mn.size()) + "), more than a quarter of this machine's memory");
}

size_t tvb_map_decoder::min_received() const { return size_t(std::max<long>(0, long(frame_bits()) + d_mt.lo)); }
size_t tvb_map_decoder::max_received() const { return frame_bits() + size_t(d_mt.hi); }

void tvb_map_decoder::receiver_metric(const uint8_t* y, size_t avail, uint32_t x, float* r)
{
    // the lattice F[i][j] (i bits of x sent, j bits of y received) in the corridor
    // j - i = lo + c, c in [0, W): F[i][j] = Pi/2 F[i][j-1] (not in the last row) + Pd F[i-1][j]
    // + Q(y_j | x_i) F[i-1][j-1]
    const int n = d_code.n, lo = d_mn.lo, W = d_mn.size();
    const float ins = float(d_ch.Pi / 2), del = float(d_ch.Pd), same = float(d_ch.Pt() * (1 - d_ch.Ps)),
                diff = float(d_ch.Pt() * d_ch.Ps);
    d_lattice.assign(size_t(n + 1) * size_t(W), 0.f);
    auto F = [&](int i, int c) -> float& { return d_lattice[size_t(i) * size_t(W) + size_t(c)]; };
    auto valid = [&](int i, int c) { const long j = long(i) + lo + c; return j >= 0 && j <= long(avail); };
    for (int c = 0; c < W; ++c) { // row 0: only insertions
        const int j = lo + c;
        if (j < 0 || j > long(avail))
            continue;
        float v = 1;
        for (int k = 0; k < j; ++k)
            v *= ins;
        F(0, c) = v;
    }
    for (int i = 1; i <= n; ++i) {
        const int xi = int((x >> (n - i)) & 1);
        for (int c = 0; c < W; ++c) {
            if (!valid(i, c))
                continue;
            const long j = long(i) + lo + c;
            float v = 0;
            if (c + 1 < W)
                v += del * F(i - 1, c + 1); // F[i-1][j]
            if (j >= 1)
                v += (int(y[j - 1]) == xi ? same : diff) * F(i - 1, c); // F[i-1][j-1]
            if (i < n && c >= 1)
                v += ins * F(i, c - 1); // F[i][j-1]
            F(i, c) = v;
        }
    }
    for (int c = 0; c < W; ++c)
        r[c] = F(n, c);
}

tvb_result tvb_map_decoder::decode(const uint8_t* rx, size_t rho, const double* priors, double* app, uint16_t* symbols)
{
    const int q = d_code.q, n = d_code.n, Mt = d_mt.size(), Mn = d_mn.size();
    const size_t N = d_N, T = frame_bits();
    tvb_result res;
    res.end_drift = int(long(rho) - long(T));
    if (res.end_drift < d_mt.lo || res.end_drift > d_mt.hi) {
        res.erased = true;
        for (size_t i = 0; i < N; ++i) {
            if (app)
                std::fill(app + i * size_t(q), app + (i + 1) * size_t(q), 1.0 / q);
            if (symbols)
                symbols[i] = 0;
        }
        return res;
    }
    // gamma
    d_gamma.assign(N * size_t(Mt) * size_t(q) * size_t(Mn), 0.f);
    for (size_t i = 0; i < N; ++i)
        for (int a = 0; a < Mt; ++a) {
            const long s = long(i) * n + d_mt.lo + a; // where symbol i starts in rx
            if (s < 0 || s > long(rho))
                continue;
            for (int D = 0; D < q; ++D) {
                float* g = &d_gamma[((i * size_t(Mt) + size_t(a)) * size_t(q) + size_t(D)) * size_t(Mn)];
                receiver_metric(rx + s, rho - size_t(s), d_code.codeword(i, D), g);
                const float pr = float(priors ? priors[i * size_t(q) + size_t(D)] : 1.0 / q);
                for (int c = 0; c < Mn; ++c) {
                    const int b = a + d_mn.lo + c; // the end state's index
                    g[c] = (b >= 0 && b < Mt) ? g[c] * pr : 0.f;
                }
            }
        }
    if (d_precision == tvb_precision::float32)
        forward_backward<float>(res.end_drift, app, symbols);
    else
        forward_backward<double>(res.end_drift, app, symbols);
    return res;
}

template <class R>
void tvb_map_decoder::forward_backward(int end_drift, double* app, uint16_t* symbols)
{
    const int q = d_code.q, Mt = d_mt.size(), Mn = d_mn.size();
    const size_t N = d_N;
    rows<R>& rw = *[this] {
        if constexpr (std::is_same_v<R, float>)
            return &d_rows32;
        else
            return &d_rows64;
    }();
    auto G = [&](size_t i, int a, int D) { return &d_gamma[((i * size_t(Mt) + size_t(a)) * size_t(q) + size_t(D)) * size_t(Mn)]; };
    // alpha (from drift 0) and beta (to the received length's drift), normalised
    rw.alpha.assign((N + 1) * size_t(Mt), R(0));
    rw.beta.assign((N + 1) * size_t(Mt), R(0));
    rw.alpha[size_t(-d_mt.lo)] = 1;
    for (size_t i = 0; i < N; ++i) {
        R* an = &rw.alpha[(i + 1) * size_t(Mt)];
        const R* ap = &rw.alpha[i * size_t(Mt)];
        for (int a = 0; a < Mt; ++a)
            if (ap[a] != 0)
                for (int D = 0; D < q; ++D) {
                    const float* g = G(i, a, D);
                    for (int c = 0; c < Mn; ++c) {
                        const int b = a + d_mn.lo + c;
                        if (b >= 0 && b < Mt)
                            an[b] += ap[a] * R(g[c]);
                    }
                }
        R sum = 0;
        for (int b = 0; b < Mt; ++b)
            sum += an[b];
        if (sum > 0)
            for (int b = 0; b < Mt; ++b)
                an[b] /= sum;
    }
    rw.beta[N * size_t(Mt) + size_t(end_drift - d_mt.lo)] = 1;
    for (size_t i = N; i-- > 0;) {
        R* bp = &rw.beta[i * size_t(Mt)];
        const R* bn = &rw.beta[(i + 1) * size_t(Mt)];
        for (int a = 0; a < Mt; ++a) {
            R v = 0;
            for (int D = 0; D < q; ++D) {
                const float* g = G(i, a, D);
                for (int c = 0; c < Mn; ++c) {
                    const int b = a + d_mn.lo + c;
                    if (b >= 0 && b < Mt)
                        v += R(g[c]) * bn[b];
                }
            }
            bp[a] = v;
        }
        R sum = 0;
        for (int a = 0; a < Mt; ++a)
            sum += bp[a];
        if (sum > 0)
            for (int a = 0; a < Mt; ++a)
                bp[a] /= sum;
    }
    // the symbols' a-posteriori probabilities
    std::vector<R>& L = rw.L;
    L.assign(static_cast<size_t>(q), R(0));
    for (size_t i = 0; i < N; ++i) {
        const R* ap = &rw.alpha[i * size_t(Mt)];
        const R* bn = &rw.beta[(i + 1) * size_t(Mt)];
        R sum = 0;
        for (int D = 0; D < q; ++D) {
            R v = 0;
            for (int a = 0; a < Mt; ++a)
                if (ap[a] != 0) {
                    const float* g = G(i, a, D);
                    R w = 0;
                    for (int c = 0; c < Mn; ++c) {
                        const int b = a + d_mn.lo + c;
                        if (b >= 0 && b < Mt)
                            w += R(g[c]) * bn[b];
                    }
                    v += ap[a] * w;
                }
            L[size_t(D)] = v;
            sum += v;
        }
        int best = 0;
        for (int D = 0; D < q; ++D) {
            const double p = sum > 0 ? double(L[size_t(D)] / sum) : 1.0 / q;
            if (app)
                app[i * size_t(q) + size_t(D)] = p;
            if (L[size_t(D)] > L[size_t(best)])
                best = D;
        }
        if (symbols)
            symbols[i] = uint16_t(best);
    }
}

} // namespace gpufec
