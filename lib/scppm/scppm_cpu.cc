/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fixed-point max-log SCPPM engine on the CPU: a group of codewords per SIMD vector
 * (scppm_cpu_lanes.h: 16 on AVX-512, 8 on AVX2, 4 on the baseline), groups over the CPU pool.
 * The instruction set is chosen at run time (GPUFEC_SIMD caps it); every choice gives the scalar
 * decoder's numbers (scppm_codeword.h), the codeword-a-thread engine that GPUFEC_SCPPM_CPU=scalar
 * selects (the reference the lanes are tested against). */
#include <gnuradio/gpufec/core/runtime/bits.h>

#include "runtime/cpu_pool.h"
#include "runtime/simd_isa.h"
#include "scppm_codeword.h"
#include "scppm_cpu_lanes.h"
#include "scppm_engine.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

// vector arguments pass only between functions of one instruction set (all inlined)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

namespace {

typedef void (*group_fn)(const scppm::lanes_code&, const scppm::lanes_io&, void*);

template <class V, class VH, int LANES>
void group_generic(const scppm::lanes_code& c, const scppm::lanes_io& io, void* mem)
{
    scppm::lanes_decode<V, VH, LANES>(c, io, mem);
}

#if defined(__x86_64__) || defined(__i386__)
template <class V, class VH, int LANES>
__attribute__((target("avx2"))) void group_avx2(const scppm::lanes_code& c, const scppm::lanes_io& io, void* mem)
{
    scppm::lanes_decode<V, VH, LANES>(c, io, mem);
}

template <class V, class VH, int LANES>
__attribute__((target("avx512f,avx512bw"))) void group_avx512(const scppm::lanes_code& c, const scppm::lanes_io& io,
                                                              void* mem)
{
    scppm::lanes_decode<V, VH, LANES>(c, io, mem);
}
#endif

struct kernel_choice {
    group_fn fn;
    int lanes;
    size_t scratch; // bytes a group
};

kernel_choice pick(simd_isa isa, const scppm::lanes_code& c)
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return { group_avx512<i32x16, i16x16, 16>, 16, scppm::lanes_scratch_bytes<i32x16, i16x16>(c) };
    if (isa == simd_isa::avx2)
        return { group_avx2<i32x8, i16x8, 8>, 8, scppm::lanes_scratch_bytes<i32x8, i16x8>(c) };
#else
    (void)isa;
#endif
    return { group_generic<i32x4, i16x4, 4>, 4, scppm::lanes_scratch_bytes<i32x4, i16x4>(c) };
}

//! the group engine: lanes of codewords, the fast path
class scppm_lanes_cpu : public frame_engine
{
public:
    scppm_lanes_cpu(const scppm_setup& s, int threads)
        : d_s(s), d_pool(get_cpu_pool(threads)), d_isa(detect_simd_isa()), d_scratch(size_t(d_pool->size())),
          d_map(scppm::inner_to_outer_map(s.code)),
          d_crc(scppm::crc_responses(s.code))
    {
        d_c.m = s.code.m;
        d_c.M = s.code.M;
        d_c.symbols = s.code.symbols();
        d_c.K = s.code.outer_input_bits();
        d_c.info_bits = s.code.info_bits();
        d_c.max_iter = s.max_iterations;
        d_c.counts = s.counts;
        d_c.scale_q = scppm::ext_scale(s.scaling).scale_q;
        // the scaling option (at most 1) keeps the extrinsics within int16 (max_lanes_scale_q)
        if (std::abs(d_c.scale_q) > scppm::max_lanes_scale_q)
            throw std::logic_error("scppm: an extrinsic scaling of " + std::to_string(s.scaling) +
                                   " leaves the CPU lanes' int16 extrinsics");
        d_c.map = d_map.data();
        d_unmap.assign(3 * size_t(d_c.K), scppm::not_sent);
        for (size_t j = 0; j < d_map.size(); ++j)
            d_unmap[d_map[j]] = uint32_t(j);
        d_c.unmap = d_unmap.data();
        d_c.crc = d_crc.data();
        d_c.crc_zero = scppm::crc_zero(s.code);
        d_kernel = pick(d_isa, d_c);
    }
    std::string name() const override
    {
        return "cpu fixed-point max-log (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ", " +
               std::to_string(d_kernel.lanes) + " codewords per vector, " + simd_isa_name(d_isa) + ")";
    }
    void run(const engine_batch& b, const engine_output& out) override
    {
        const size_t lanes = size_t(d_kernel.lanes), slots = d_s.code.slots();
        const size_t bytes = (size_t(d_s.code.info_bits()) + 7) / 8;
        const int64_t groups = int64_t((b.frames + lanes - 1) / lanes);
        d_pool->parallel_for(groups, [&](int64_t g, int w) {
            auto& raw = d_scratch[size_t(w)];
            if (raw.size() < d_kernel.scratch + 64)
                raw.resize(d_kernel.scratch + 64);
            void* aligned = raw.data() + (64 - reinterpret_cast<uintptr_t>(raw.data()) % 64);
            const size_t f0 = size_t(g) * lanes;
            scppm::lanes_io io;
            io.soft = b.soft + f0 * slots;
            io.used = int(std::min(b.frames - f0, lanes));
            io.packed = out.packed + f0 * bytes;
            io.status = out.status + f0;
            d_kernel.fn(d_c, io, aligned);
        });
    }

private:
    scppm_setup d_s;
    std::shared_ptr<cpu_pool> d_pool;
    simd_isa d_isa;
    std::vector<std::vector<uint8_t>> d_scratch;
    std::vector<uint32_t> d_map, d_unmap, d_crc;
    scppm::lanes_code d_c{};
    kernel_choice d_kernel{};
};

//! a codeword per task, the sequential recursions (GPUFEC_SCPPM_CPU=scalar)
class scppm_scalar_cpu : public frame_engine
{
public:
    scppm_scalar_cpu(const scppm_setup& s, int threads) : d_s(s), d_pool(get_cpu_pool(threads))
    {
        for (int w = 0; w < d_pool->size(); ++w)
            d_workers.push_back(std::make_unique<worker>(s));
    }
    std::string name() const override
    {
        return "cpu fixed-point max-log (" + std::to_string(d_pool->size()) + " threads " + d_pool->kind() +
               ", a codeword per thread)";
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
    const char* force = std::getenv("GPUFEC_SCPPM_CPU");
    if (force && std::string(force) == "scalar")
        return std::make_unique<scppm_scalar_cpu>(s, cpu_threads);
    return std::make_unique<scppm_lanes_cpu>(s, cpu_threads);
}

} // namespace gpufec
