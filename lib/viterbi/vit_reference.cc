/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The reference Viterbi engine: one job at a time, 32-bit metrics, one decision byte per state
 * and stage, written to be read. Every other engine must match it bit for bit. */
#include "vit_engine.h"
#include <gnuradio/gpufec/core/codes/trellis.h>

#include <vector>

namespace gpufec {

namespace {

class reference_engine : public vit_engine
{
public:
    explicit reference_engine(const conv_code& code) : d_code(code)
    {
        // branches from the codes layer's trellis (shift-register states: bit 0 = newest input)
        const trellis tr = trellis::feed_forward(code);
        const uint32_t states = code.states();
        d_out.resize(2 * states);
        for (uint32_t s = 0; s < states; ++s)
            for (uint32_t x = 0; x < 2; ++x)
                d_out[2 * s + x] = tr.output(s, x);
    }

    std::string name() const override { return "cpu-reference"; }

    void run(const vit_params& p,
             const int8_t* soft,
             size_t,
             int64_t njobs,
             uint8_t* out,
             size_t) override
    {
        for (int64_t j = 0; j < njobs; ++j)
            decode_job(p, make_job(p, j), soft, out);
    }

private:
    void decode_job(const vit_params& p, const vit_job& job, const int8_t* soft, uint8_t* out)
    {
        const int N = 1 << (p.K - 1);
        const int half = N / 2;
        std::vector<int> pm(N), next(N);
        std::vector<uint8_t> dec(static_cast<size_t>(job.length) * N);
        for (int s = 0; s < N; ++s)
            pm[s] = (job.known_start && s != 0) ? vit_init_big : 0;

        stage_cursor cur;
        cur.init(p, job);
        int sv[4];
        for (int t = 0; t < job.length; ++t, cur.next()) {
            load_stage(p, cur, soft, sv);
            for (int ns = 0; ns < N; ++ns) {
                const int x = ns & 1;
                const int j = ns >> 1;
                const int a = pm[j] + branch_metric(d_out[2 * j + x], sv, p.n);
                const int b = pm[j + half] + branch_metric(d_out[2 * (j + half) + x], sv, p.n);
                const bool take_b = b < a;
                next[ns] = take_b ? b : a;
                dec[static_cast<size_t>(t) * N + ns] = take_b;
            }
            pm.swap(next);
        }

        int state = 0;
        if (job.tb_best)
            for (int s = 1; s < N; ++s)
                if (pm[s] < pm[state])
                    state = s;
        for (int t = job.length - 1; t >= 0; --t) {
            const int o = t - job.out_start;
            if (o >= 0 && o < job.out_len) {
                uint8_t& byte = out[job.out_byte + o / 8];
                const uint8_t mask = static_cast<uint8_t>(0x80 >> (o % 8));
                byte = (state & 1) ? (byte | mask) : (byte & ~mask);
            }
            const int b = dec[static_cast<size_t>(t) * N + state];
            state = (state >> 1) | (b << (p.K - 2));
        }
    }

    conv_code d_code;
    std::vector<uint32_t> d_out;
};

} // namespace

std::unique_ptr<vit_engine> make_viterbi_reference(const conv_code& code)
{
    return std::make_unique<reference_engine>(code);
}

} // namespace gpufec
