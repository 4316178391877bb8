/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU LDPC engine: layered min-sum in fixed point, a group of codewords per SIMD
 * vector (ldpc_cpu_lanes.h), groups over the worker pool. The instruction set is chosen at run
 * time (AVX-512BW, AVX2 or the baseline; GPUFEC_SIMD caps it); every choice gives the
 * reference's output. */
#include "ldpc_cpu_lanes.h"
#include "ldpc_engine.h"
#include "../runtime/simd_isa.h"
#include "../runtime/cpu_pool.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

// the vector functions are inlined into the group functions, so the ABI of vector arguments
// between instruction sets never applies (GCC reports it where the templates are instantiated,
// at the end of this file, outside ldpc_cpu_lanes.h's own silencing)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

namespace {

typedef void (*group_fn)(const ldpc_group_code&, const ldpc_group_io&, void*);

template <class V, int LANES, class S, class VM>
void group_generic(const ldpc_group_code& c, const ldpc_group_io& io, void* scratch)
{
    V* gamma = static_cast<V*>(scratch);
    ldpc_decode_lanes<V, LANES, S, VM>(c, io, gamma, reinterpret_cast<VM*>(gamma + c.n));
}

#if defined(__x86_64__) || defined(__i386__)
template <class V, int LANES, class S, class VM>
__attribute__((target("avx2"))) void group_avx2(const ldpc_group_code& c, const ldpc_group_io& io, void* scratch)
{
    V* gamma = static_cast<V*>(scratch);
    ldpc_decode_lanes<V, LANES, S, VM>(c, io, gamma, reinterpret_cast<VM*>(gamma + c.n));
}

template <class V, int LANES, class S, class VM>
__attribute__((target("avx512f,avx512bw"))) void
group_avx512(const ldpc_group_code& c, const ldpc_group_io& io, void* scratch)
{
    V* gamma = static_cast<V*>(scratch);
    ldpc_decode_lanes<V, LANES, S, VM>(c, io, gamma, reinterpret_cast<VM*>(gamma + c.n));
}
#endif

struct kernel_choice {
    group_fn fn;
    int lanes, vector_bytes, message_bytes; // a vector of lanes; a message vector
};

/* Messages stored as wide as the lanes compute, or (narrow) half as wide: int8 for int8
 * messages, int16 for int16 ones. Narrow pays where a group's working set leaves the core's
 * caches (measured on the 2-core AVX-512 machine, int8, 10 iterations, both cores: DVB-S2
 * 64800 1/2 0.068 -> 0.086 Gb/s, NR BG1 Z = 384 and DVB-S2 16200 8/9 +3-5 %) and costs up to
 * 10 % where it fits (802.16e 2304: its conversions), so it is taken where the wide vectors of
 * a group's values (n posteriors and a message per edge) pass 1 MiB. */
template <class V, int LANES, class VN>
kernel_choice choice(group_fn wide, group_fn narrow, size_t values)
{
    const bool n = values * sizeof(V) > (size_t(1) << 20);
    return { n ? narrow : wide, LANES, int(sizeof(V)), int(n ? sizeof(VN) : sizeof(V)) };
}

kernel_choice pick(simd_isa isa, bool int8_messages, size_t values)
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return int8_messages ? choice<i16x32, 32, i8x32>(group_avx512<i16x32, 32, int16_t, i16x32>,
                                                         group_avx512<i16x32, 32, int16_t, i8x32>, values)
                             : choice<i32x16, 16, i16x16>(group_avx512<i32x16, 16, int32_t, i32x16>,
                                                          group_avx512<i32x16, 16, int32_t, i16x16>, values);
    if (isa == simd_isa::avx2)
        return int8_messages ? choice<i16x16, 16, i8x16>(group_avx2<i16x16, 16, int16_t, i16x16>,
                                                         group_avx2<i16x16, 16, int16_t, i8x16>, values)
                             : choice<i32x8, 8, i16x8>(group_avx2<i32x8, 8, int32_t, i32x8>,
                                                       group_avx2<i32x8, 8, int32_t, i16x8>, values);
#else
    (void)isa;
#endif
    return int8_messages ? choice<i16x8, 8, i8x8>(group_generic<i16x8, 8, int16_t, i16x8>,
                                                  group_generic<i16x8, 8, int16_t, i8x8>, values)
                         : choice<i32x4, 4, i16x4>(group_generic<i32x4, 4, int32_t, i32x4>,
                                                   group_generic<i32x4, 4, int32_t, i16x4>, values);
}

class cpu_engine : public ldpc_engine
{
public:
    cpu_engine(const ldpc_code& code, const ldpc_options& o)
        : ldpc_engine(code.n()), d_code(code),
          d_pool(get_cpu_pool(o.cpu_threads)),
          d_threads(d_pool->size()),
          d_scratch(size_t(d_threads)),
          d_isa(detect_simd_isa())
    {
        d_int8 = o.precision == ldpc_precision::int8;
        d_kernel = pick(d_isa, d_int8, size_t(code.n()) + size_t(code.edges()));
        d_c.n = code.n();
        d_c.m = code.m();
        d_c.row_start = d_code.row_start().data(); // the engine's own copy, not the argument
        d_c.row_cols = d_code.row_cols().data();
        d_c.max_iter = o.max_iterations;
        d_c.early_termination = o.early_termination;
        d_c.fx = ldpc_fixed_point(code, o);
        d_c.loop_rows = ldpc_lanes_have_loop_rows(d_c.row_start, d_c.m);
    }

    std::string name() const override
    {
        return "cpu (" + std::to_string(d_threads) + " threads " + d_pool->kind() + ", " + std::to_string(d_kernel.lanes) +
               " codewords per vector, " + simd_isa_name(d_isa) + ")";
    }

    void decode(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                float* post) override
    {
        const int lanes = d_kernel.lanes;
        const int64_t groups = int64_t((frames + size_t(lanes) - 1) / size_t(lanes));
        const size_t n = size_t(d_code.n()), nbytes = (size_t(out_bits) + 7) / 8;
        const size_t bytes = n * size_t(d_kernel.vector_bytes) + size_t(d_code.edges()) * size_t(d_kernel.message_bytes) + 64;
        d_pool->parallel_for(groups, [&](int64_t g, int worker) {
            auto& raw = d_scratch[size_t(worker)];
            if (raw.size() < bytes)
                raw.resize(bytes);
            void* aligned = raw.data() + (64 - reinterpret_cast<uintptr_t>(raw.data()) % 64);
            const size_t f0 = size_t(g) * size_t(lanes);
            ldpc_group_io io;
            io.soft = soft + f0 * n;
            io.used = int(std::min(frames - f0, size_t(lanes)));
            io.packed = packed + f0 * nbytes;
            io.out_bits = out_bits;
            io.res = res + f0;
            io.post = post ? post + f0 * n : nullptr;
            d_kernel.fn(d_c, io, aligned);
        });
    }

private:
    ldpc_code d_code; // owns the rows d_c points into
    std::shared_ptr<cpu_pool> d_pool;
    int d_threads;
    std::vector<std::vector<uint8_t>> d_scratch;
    simd_isa d_isa;
    bool d_int8 = false;
    kernel_choice d_kernel{};
    ldpc_group_code d_c{};
};

} // namespace

std::unique_ptr<ldpc_engine> make_ldpc_cpu(const ldpc_code& code, const ldpc_options& o)
{
    return std::make_unique<cpu_engine>(code, o);
}

} // namespace gpufec
