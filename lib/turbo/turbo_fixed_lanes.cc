/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU turbo engine: the fixed-point max-log decoder of turbo_fixed.h with a group of
 * frames per SIMD vector (turbo_cpu_lanes.h: 32 int16 lanes with AVX-512BW, 16 with AVX2, 8
 * otherwise), groups over the worker pool. Same bits, iterations and CRC results as the scalar
 * engine (turbo_fixed_cpu.cc) and the GPU. A frame whose CRC passes keeps the decisions of that
 * iteration while its group goes on for the others. */
#include <gnuradio/gpufec/core/bits.h>

#include "runtime/cpu_pool.h"
#include "runtime/simd_isa.h"
#include "turbo_cpu_lanes.h"
#include "turbo_engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

// (vector arguments between instruction sets: every such function is inlined; the note GCC
// gives about their ABI comes at the end of the file, so it stays off for the whole file)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace gpufec {

namespace {

using namespace turbo_fx;

typedef int16_t i16x8 __attribute__((vector_size(16), aligned(16)));
typedef int32_t i32x8 __attribute__((vector_size(32), aligned(16)));
typedef int16_t i16x16 __attribute__((vector_size(32), aligned(16)));
typedef int32_t i32x16 __attribute__((vector_size(64), aligned(16)));
typedef int16_t i16x32 __attribute__((vector_size(64), aligned(16)));
typedef int32_t i32x32 __attribute__((vector_size(128), aligned(16)));

//! what a group decode needs besides its frames
struct group_setup {
    int K, W, T, nwin, scale16, max_iterations;
    bool early_termination;
    const crc_spec* crc; // or null
    const uint32_t* pi;
    const uint32_t* inv;
};

//! one group: `used` frames (the other lanes repeat the last), decoded into packed / report
struct group_io {
    const int8_t* in; // used x (3K + 12)
    int used;
    uint8_t* packed;  // used x K / 8
    turbo_report* report;
    void* scratch;    // group_scratch_bytes()
};

size_t group_scratch_vectors(const group_setup& g)
{
    const size_t K = size_t(g.K), nb = size_t(g.nwin) * STATES;
    // sys, sys2, par1, par2, apri1, apri2, decisions: K each; tails 12; alpha W x 8; bounds 8 nb
    return 7 * K + 12 + size_t(g.W) * STATES + 8 * nb;
}

template <class V, class V32, int LANES>
__attribute__((always_inline)) inline void decode_group_lanes(const group_setup& g, const group_io& io)
{
    const size_t K = size_t(g.K), D = K + 4, n = 3 * D, nb = size_t(g.nwin) * STATES;
    V* sys = static_cast<V*>(io.scratch);
    V* sys2 = sys + K;
    V* par1 = sys2 + K;
    V* par2 = par1 + K;
    V* apri1 = par2 + K;
    V* apri2 = apri1 + K;
    V* dec = apri2 + K;
    V* tails = dec + K; // t1[6], t2[6]
    V* alpha = tails + 12;
    V* bounds = alpha + size_t(g.W) * STATES;
    // frames into lanes (-128 reads as -127)
    for (int l = 0; l < LANES; ++l) {
        const int8_t* f = io.in + size_t(std::min(l, io.used - 1)) * n;
        const int8_t *d0 = f, *d1 = f + D, *d2 = f + 2 * D;
        for (size_t k = 0; k < K; ++k) {
            sys[k][l] = int16_t(soft_in(d0[k]));
            par1[k][l] = int16_t(soft_in(d1[k]));
            par2[k][l] = int16_t(soft_in(d2[k]));
        }
        const int8_t tv[12] = { d0[K], d1[K], d2[K], d0[K + 1], d1[K + 1], d2[K + 1],
                                d0[K + 2], d1[K + 2], d2[K + 2], d0[K + 3], d1[K + 3], d2[K + 3] };
        for (int i = 0; i < 12; ++i)
            tails[i][l] = int16_t(soft_in(tv[i]));
    }
    for (size_t k = 0; k < K; ++k)
        sys2[k] = sys[g.pi[k]];
    const V zero = lanes_splat<V, V32, LANES>(0);
    std::fill(apri1, apri1 + K, zero);
    std::fill(apri2, apri2 + K, zero);
    std::fill(bounds, bounds + 8 * nb, zero);
    bool done[LANES] = {};
    int left = io.used;
    std::vector<uint8_t> bits(K);
    for (int it = 1; it <= g.max_iterations && left > 0; ++it) {
        const bool final = it == g.max_iterations, decide = final || g.crc;
        lane_half<V> h1{ sys, par1, tails, apri1, apri2, g.inv, bounds, it == 1, nullptr, nullptr, alpha };
        lanes_half<V, V32, LANES>(h1, g.K, g.W, g.T, g.nwin, g.scale16);
        lane_half<V> h2{ sys2, par2, tails + 6, apri2, apri1, g.pi, bounds + 4 * nb, it == 1,
                         decide ? dec : nullptr, g.pi, alpha };
        lanes_half<V, V32, LANES>(h2, g.K, g.W, g.T, g.nwin, g.scale16);
        if (decide) {
            for (int l = 0; l < io.used; ++l) {
                if (done[l])
                    continue;
                for (size_t k = 0; k < K; ++k)
                    bits[k] = uint8_t(dec[k][l] != 0);
                uint8_t* out = io.packed + size_t(l) * (K / 8);
                pack_bits(bits.data(), K, out);
                turbo_report& r = io.report[l];
                r.iterations = uint8_t(it);
                if (g.crc) {
                    r.check = int8_t(packed_crc_passes(*g.crc, out, K));
                    if (r.check && g.early_termination) {
                        done[l] = true;
                        left--;
                    }
                }
            }
        } else {
            for (int l = 0; l < io.used; ++l)
                io.report[l].iterations = uint8_t(it);
        }
        for (int d = 0; d < 2; ++d) // the outputs become the next iteration's inputs
            std::copy(bounds + (4 * d + 2) * nb, bounds + (4 * d + 4) * nb, bounds + 4 * d * nb);
    }
}

typedef void (*group_fn)(const group_setup&, const group_io&);

template <class V, class V32, int LANES>
void group_generic(const group_setup& g, const group_io& io)
{
    decode_group_lanes<V, V32, LANES>(g, io);
}

#if defined(__x86_64__) || defined(__i386__)
template <class V, class V32, int LANES>
__attribute__((target("avx2"))) void group_avx2(const group_setup& g, const group_io& io)
{
    decode_group_lanes<V, V32, LANES>(g, io);
}

template <class V, class V32, int LANES>
__attribute__((target("avx512f,avx512bw"))) void group_avx512(const group_setup& g, const group_io& io)
{
    decode_group_lanes<V, V32, LANES>(g, io);
}
#endif

struct kernel_choice {
    group_fn fn;
    int lanes, vector_bytes;
};

kernel_choice pick(simd_isa isa)
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return { group_avx512<i16x32, i32x32, 32>, 32, 64 };
    if (isa == simd_isa::avx2)
        return { group_avx2<i16x16, i32x16, 16>, 16, 32 };
#else
    (void)isa;
#endif
    return { group_generic<i16x8, i32x8, 8>, 8, 16 };
}

class fixed_lanes : public turbo_engine
{
public:
    fixed_lanes(const turbo_code& code, const turbo_options& o, int window)
        : d_code(code), d_opts(o), d_pool(get_cpu_pool(o.cpu_threads)), d_isa(detect_simd_isa()), d_k(pick(d_isa))
    {
        check_fixed_window(code, window, o.training, o.crc);
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            d_has_crc = true;
        }
        const auto& pi = code.pi.permutation();
        d_pi.assign(pi.begin(), pi.end());
        d_inv.assign(code.pi.inverse().begin(), code.pi.inverse().end());
        group_setup& g = d_setup;
        g.K = code.K;
        g.W = window;
        g.T = o.training;
        g.nwin = (code.K + window - 1) / window;
        g.scale16 = int(std::lround(o.scaling * 16));
        g.max_iterations = o.max_iterations;
        g.early_termination = o.early_termination;
        g.crc = d_has_crc ? &d_crc : nullptr;
        g.pi = d_pi.data();
        g.inv = d_inv.data();
        if (!lte_trellis_matches(code.rsc))
            throw std::invalid_argument("turbo: the SIMD engine runs the LTE constituent code");
        d_scratch.resize(size_t(d_pool->size()));
    }
    std::string name() const override
    {
        return "cpu fixed-point max-log, window " + std::to_string(d_setup.W) + ", training " +
               std::to_string(d_setup.T) + ", " + std::to_string(d_k.lanes) + " frames per vector (" +
               simd_isa_name(d_isa) + ", " + std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    void decode(const int8_t* in, size_t frames, uint8_t* bits, turbo_report* report) override
    {
        const size_t n = d_code.coded_bits(), bytes = size_t(d_code.K) / 8, L = size_t(d_k.lanes);
        const size_t groups = (frames + L - 1) / L;
        const size_t vectors = group_scratch_vectors(d_setup);
        d_pool->parallel_for(int64_t(groups), [&](int64_t gi, int w) {
            auto& sc = d_scratch[size_t(w)];
            // (64-byte aligned: the widest vector)
            if (sc.size() < vectors * size_t(d_k.vector_bytes) / 64 + 1)
                sc.resize(vectors * size_t(d_k.vector_bytes) / 64 + 1);
            const size_t f0 = size_t(gi) * L;
            group_io io;
            io.in = in + f0 * n;
            io.used = int(std::min(L, frames - f0));
            io.packed = bits + f0 * bytes;
            io.report = report + f0;
            io.scratch = sc.data();
            for (int l = 0; l < io.used; ++l)
                io.report[l] = turbo_report{};
            d_k.fn(d_setup, io);
        });
    }

private:
    struct alignas(64) line {
        uint8_t b[64];
    };
    turbo_code d_code;
    turbo_options d_opts;
    std::shared_ptr<cpu_pool> d_pool;
    simd_isa d_isa;
    kernel_choice d_k;
    crc_spec d_crc;
    bool d_has_crc = false;
    std::vector<uint32_t> d_pi, d_inv;
    group_setup d_setup{};
    std::vector<std::vector<line>> d_scratch; // per worker
};

} // namespace

std::unique_ptr<turbo_engine> make_turbo_fixed_lanes(const turbo_code& code, const turbo_options& o, int window)
{
    return std::make_unique<fixed_lanes>(code, o, window);
}

} // namespace gpufec
