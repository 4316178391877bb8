/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fully parallel turbo decoder (FPTD) with max-log in fixed point on the CPU: the twin of
 * the GPU's int16 FPTD (turbo_fptd_cuda.cu with engine=fixed), bit for bit. It is the float
 * FPTD of turbo_fptd.cc (the same algorithmic blocks, the same odd/even halves) in the
 * arithmetic of turbo_fixed.h:
 *  - int8 input, -128 read as -127; branch metric x (sys + a-priori) + p par;
 *  - alpha and beta normalised to state 0 after every block; alpha into stage 0 is 0 for
 *    state 0 and -UNKNOWN for the others, beta into the last stage comes from the 3 tail stages
 *    (input = feedback, not normalised), every other metric starts at 0 (uniform);
 *  - each block's extrinsic value m1 - m0 is sent scaled by scale16 / 16 (floor) and clamped
 *    to +-EXT_MAX, and is the other code's a-priori value in the next half;
 *  - decision: sys + the lower code's scaled value + the upper code's unscaled one > 0.
 *
 * Why int16 holds every metric and sum (the GPU computes in int16 pairs, this in int): the
 * windowed decoder's bound (turbo_fixed.h) holds here too. Every metric is the end of a chain
 * of blocks, one a half, from a start: 0 everywhere (spread 0), stage 0 (spread UNKNOWN) or the
 * tail (values within +-762). A chain of 3 or more blocks has a spread of at most 3 (2G) =
 * 13806; a shorter one from stage 0 lies in [-UNKNOWN - 4G, 13806] = [-17396, 13806], from the
 * others in [-1524 - 4G, 13806]. So alpha + par + beta >= -17396 - 127 - 13806 = -31329, and
 * metric + branch metric >= -19697. m1 - m0 is formed in int (the GPU too). */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/cpu_pool.h"
#include "turbo_engine.h"
#include "turbo_fixed.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpufec {

namespace {

using namespace turbo_fx;

//! a frame's working values, one set per pool thread
struct fptd_scratch {
    std::vector<int> sys, par[2], apri[2], up_ext, alpha[2], beta[2];
    std::vector<uint8_t> hard;
};

class fptd_fixed_cpu : public turbo_engine
{
public:
    fptd_fixed_cpu(const turbo_code& code, const turbo_options& o)
        : d_code(code), d_opts(o), d_T(make_tables(code.rsc)), d_pool(get_cpu_pool(o.cpu_threads))
    {
        if (code.standard != turbo_standard::lte || code.K % 8)
            throw std::invalid_argument("engine: the fixed-point FPTD runs the LTE code");
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            if (d_crc.width % 8)
                throw std::invalid_argument("crc: the fixed-point decoders take CRCs of whole bytes");
            d_has_crc = true;
        }
        d_scale16 = int(std::lround(o.scaling * 16));
        d_pi.assign(code.pi.permutation().begin(), code.pi.permutation().end());
        d_inv.assign(code.pi.inverse().begin(), code.pi.inverse().end());
        d_scratch.resize(size_t(d_pool->size()));
    }
    std::string name() const override
    {
        return "cpu FPTD max-log int16 (fixed point, " + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        const size_t n = d_code.coded_bits(), bytes = size_t(d_code.K) / 8;
        d_pool->parallel_for(int64_t(frames), [&](int64_t f, int w) {
            report[f] = frame(in + size_t(f) * n, d_scratch[size_t(w)], bits + size_t(f) * bytes);
        });
    }

private:
    frame_status frame(const int8_t* in, fptd_scratch& sc, uint8_t* bits) const
    {
        const size_t K = size_t(d_code.K), D = K + 4;
        sc.sys.resize(K);
        sc.up_ext.assign(K, 0);
        sc.hard.resize(K);
        for (int r = 0; r < 2; ++r) {
            sc.par[r].resize(K);
            sc.apri[r].assign(K, 0); // apri[r][i]: code r's a-priori value at its stage i
            sc.alpha[r].assign((K + 1) * STATES, 0);
            sc.beta[r].assign((K + 1) * STATES, 0);
            for (int s = 1; s < STATES; ++s)
                sc.alpha[r][size_t(s)] = -UNKNOWN; // the trellis starts in state 0
        }
        for (size_t k = 0; k < K; ++k) {
            sc.sys[k] = soft_in(in[k]);
            sc.par[0][k] = soft_in(in[D + k]);
            sc.par[1][k] = soft_in(in[2 * D + k]);
        }
        // beta into the last stage from code r's 3 tail stages (not normalised)
        for (int r = 0; r < 2; ++r) {
            // stage j of the tail takes (x, p) = (tv[2 j], tv[2 j + 1]): the values K + 2r and
            // K + 2r + 1 of the streams d0, d1, d2, in that order (as turbo_fptd.cc reads them)
            const int8_t* t0 = in + K + size_t(2 * r);
            const int tv[6] = { soft_in(t0[0]), soft_in(t0[D]), soft_in(t0[2 * D]),
                                soft_in(t0[1]), soft_in(t0[D + 1]), soft_in(t0[2 * D + 1]) };
            int b[STATES];
            tail_betas(d_T, tv, b);
            std::copy(b, b + STATES, sc.beta[r].begin() + long(K * STATES));
        }
        frame_status rep;
        for (int it = 1; it <= d_opts.max_iterations; ++it) {
            for (int half = 0; half < 2; ++half) {
                // half 0: even stages of the upper code, odd of the lower; half 1: the others
                for (size_t i = size_t(half); i < K; i += 2)
                    block(sc, 0, i);
                for (size_t i = size_t(1 - half); i < K; i += 2)
                    block(sc, 1, i);
            }
            rep.iterations = uint8_t(it);
            if (!d_has_crc && it < d_opts.max_iterations)
                continue; // only the CRC reads the decisions before the last iteration
            for (size_t k = 0; k < K; ++k)
                sc.hard[k] = sc.sys[k] + sc.apri[0][k] + sc.up_ext[k] > 0;
            pack_bits(sc.hard.data(), K, bits);
            if (d_has_crc) {
                rep.check = int8_t(packed_crc_passes(d_crc, bits, K));
                if (d_opts.early_termination && rep.check)
                    break;
            }
        }
        return rep;
    }

    //! block i of code r from the previous half's values; its outputs go where the next half reads them
    void block(fptd_scratch& sc, int r, size_t i) const
    {
        const int sys = r == 0 ? sc.sys[i] : sc.sys[d_pi[i]];
        const int su = sys + sc.apri[r][i], pr = sc.par[r][i];
        const int* a = sc.alpha[r].data() + i * STATES;
        const int* bnext = sc.beta[r].data() + (i + 1) * STATES;
        int an[STATES], bn[STATES], m[2] = { INT_MIN, INT_MIN };
        std::fill(an, an + STATES, INT_MIN);
        for (int s = 0; s < STATES; ++s) {
            bn[s] = INT_MIN;
            for (int x = 0; x < 2; ++x) {
                const int nx = d_T.next[s * 2 + x], p = d_T.par[s * 2 + x];
                const int g = x * su + p * pr;
                an[nx] = max2(an[nx], a[s] + g);
                bn[s] = max2(bn[s], bnext[nx] + g);
                m[x] = max2(m[x], a[s] + p * pr + bnext[nx]);
            }
        }
        const int ext = m[1] - m[0];
        // to the other code's stage that reads it: the lower code's pi^-1(i), the upper's pi(i)
        const size_t to = r == 0 ? d_inv[i] : d_pi[i];
        sc.apri[1 - r][to] = scale_ext(ext, d_scale16);
        if (r == 0)
            sc.up_ext[i] = ext;
        int* ao = sc.alpha[r].data() + (i + 1) * STATES;
        int* bo = sc.beta[r].data() + i * STATES;
        for (int s = 0; s < STATES; ++s) {
            ao[s] = an[s] - an[0];
            if (i > 0) // beta into stage 0 is not used
                bo[s] = bn[s] - bn[0];
        }
    }

    turbo_code d_code;
    turbo_options d_opts;
    rsc_tables d_T;
    std::shared_ptr<cpu_pool> d_pool;
    int d_scale16 = 12;
    crc_spec d_crc;
    bool d_has_crc = false;
    std::vector<uint32_t> d_pi, d_inv;
    mutable std::vector<fptd_scratch> d_scratch;
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_fptd_fixed_cpu(const turbo_code& code, const turbo_options& o)
{
    return std::make_unique<fptd_fixed_cpu>(code, o);
}

} // namespace gpufec
