/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log SCPPM engine on the CPU: a codeword per task over the CPU pool. */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/cpu_pool.h"
#include "scppm_codeword.h"
#include "scppm_engine.h"

namespace gpufec {

namespace {

class scppm_fixed_cpu : public frame_engine
{
public:
    scppm_fixed_cpu(const scppm_setup& s, int threads) : d_s(s), d_pool(get_cpu_pool(threads))
    {
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back(std::make_unique<worker>(s));
    }
    std::string name() const override
    {
        return "cpu fixed-point max-log (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    void run(const engine_batch& b, const engine_output& out) override
    {
        const int8_t* in = b.soft;
        const size_t n = d_s.code.slots(), k = size_t(d_s.code.info_bits()), bytes = (k + 7) / 8;
        d_pool->parallel_for(int64_t(b.frames), [&](int64_t fi, int w) {
            const size_t f = size_t(fi);
            worker& wk = *d_workers[size_t(w)];
            const int8_t* x = in + f * n;
            bool negative = false;
            for (size_t i = 0; i < n; ++i) {
                negative |= d_s.counts && x[i] < 0;
                wk.ch[i] = scppm::fixed_slot_metric(x[i], d_s.counts);
            }
            const scppm::report r = wk.dec.decode(wk.ch.data(), wk.info.data());
            pack_bits(wk.info.data(), k, out.packed + f * bytes);
            frame_status& st = out.status[f];
            st.iterations = r.iterations;
            st.check = negative ? 0 : r.check;
            st.erased = negative;
        });
    }

private:
    struct worker {
        explicit worker(const scppm_setup& s)
            : dec(s.code, s.max_iterations, s.scaling), ch(s.code.slots()), info(size_t(s.code.info_bits()))
        {
        }
        scppm::codeword_decoder<scppm::maxlog_fixed> dec;
        std::vector<int32_t> ch;
        std::vector<uint8_t> info;
    };
    scppm_setup d_s;
    std::shared_ptr<cpu_pool> d_pool;
    std::vector<std::unique_ptr<worker>> d_workers;
};

} // namespace

std::unique_ptr<frame_engine> make_scppm_fixed_cpu(const scppm_setup& s, int cpu_threads)
{
    return std::make_unique<scppm_fixed_cpu>(s, cpu_threads);
}

} // namespace gpufec
