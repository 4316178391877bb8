/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The fast CPU turbo engine: the fixed-point max-log decoder of turbo_fixed.h with a group of
 * frames per SIMD vector (turbo_cpu_lanes.h; LTE: 32 int16 lanes with AVX-512BW, 16 with AVX2, 8
 * otherwise, the same bits, iterations and CRC results as the scalar engine turbo_fixed_cpu.cc
 * and the GPU; CCSDS: int32 lanes, half as many), groups over the worker pool. The values are
 * gathered through the code's (encoder, output, stage) -> codeword map. A frame whose CRC passes
 * keeps the decisions of that iteration while its group goes on for the others. */

#include "runtime/cpu_pool.h"
#include "runtime/simd_isa.h"
#include "runtime/simd_vectors.h"
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


//! what a group decode needs besides its frames
struct group_setup {
    int K, W, T, nwin, scale16, max_iterations;
    bool early_termination;
    const crc_spec* crc; // or null
    const uint32_t* pi;
    const uint32_t* inv;
    size_t n;            // soft values per frame
    /* where each value sits in a frame (-1: not sent, read as 0): the systematic values, the
     * parities of each encoder [e][j][k], and each encoder's tail [e][t][0: sys, 1..: parities] */
    const int32_t* at_sys;
    const int32_t* at_par; // 2 x NP x K
    const int32_t* at_tail; // 2 x TAIL x (1 + NP)
};

//! one group: `used` frames (the other lanes repeat the last), decoded into packed / report
struct group_io {
    const int8_t* in; // used x n
    int used;
    uint8_t* packed;  // used x K / 8
    frame_status* report;
    void* scratch;    // group_scratch_vectors() vectors
};

template <class C>
size_t group_scratch_vectors(const group_setup& g)
{
    const size_t K = size_t(g.K), nb = size_t(g.nwin) * C::S;
    // sys, sys2, apri1, apri2, decisions: K each; 2 NP parities; tails; alpha W x S; bounds 8 nb;
    // packed decisions K / 8
    return (5 + 2 * C::NP) * K + 2 * C::TAIL * (1 + C::NP) + size_t(g.W) * C::S + 8 * nb + K / 8;
}

/* The channel values of int8 soft values in lanes, as soft_in (int16 lanes) or soft_in8 (int8
 * lanes: |v| + 2 saturates at 127, which leaves (|v| + 2) >> 2 at most 31 as the clamp would) */
template <class V, int LANES>
__attribute__((always_inline)) inline V lane_channel_values(V v)
{
    const V floor = simd_splat<V, LANES>(-127);
    v = v < floor ? floor : v;
    if constexpr (!int8_lanes<V>) {
        return v;
    } else {
        const V zero = simd_splat<V, LANES>(0);
        const V a = v < zero ? zero - v : v;
        const V q = madd(a, simd_splat<V, LANES>(2)) >> 2;
        return v < zero ? zero - q : q;
    }
}

template <class C, class V, class V32, int LANES>
__attribute__((always_inline)) inline void decode_group_lanes(const group_setup& g, const group_io& io)
{
    constexpr int NP = C::NP, TV = C::TAIL * (1 + C::NP);
    const size_t K = size_t(g.K), nb = size_t(g.nwin) * C::S;
    V* sys = static_cast<V*>(io.scratch);
    V* sys2 = sys + K;
    V* apri1 = sys2 + K;
    V* apri2 = apri1 + K;
    V* dec = apri2 + K;
    V* par = dec + K; // [e][j] x K
    V* tails = par + 2 * NP * K; // [e] x TV
    V* alpha = tails + 2 * TV;
    V* bounds = alpha + size_t(g.W) * C::S;
    V* bytes = bounds + 8 * nb; // K / 8: the packed decisions of a lane
    // frames into lanes (-128 reads as -127, values not sent as 0): runs of 8 values that lie
    // one after the other in every frame (the streams layout: nearly all) by simd_transpose_bytes,
    // 8 bytes a lane at a time, then the channel-value rule on whole vectors; the rest value by value
    const int8_t* lane[LANES];
    for (int l = 0; l < LANES; ++l)
        lane[l] = io.in + size_t(std::min(l, io.used - 1)) * g.n;
    auto fill = [&](const int32_t* at, size_t count, V* out) __attribute__((always_inline)) {
        for (size_t k = 0; k < count;) {
            bool run = k + 8 <= count && at[k] >= 0;
            for (int j = 1; j < 8 && run; ++j)
                run = at[k + size_t(j)] == at[k] + j;
            if (run) {
                simd_transpose_bytes<V, LANES>(lane, size_t(at[k]), out + k);
                for (int j = 0; j < 8; ++j)
                    out[k + size_t(j)] = lane_channel_values<V, LANES>(out[k + size_t(j)]);
                k += 8;
                continue;
            }
            for (int l = 0; l < LANES; ++l)
                out[k][l] = at[k] < 0 ? 0 : int8_lanes<V> ? soft_in8(lane[l][at[k]]) : soft_in(lane[l][at[k]]);
            ++k;
        }
    };
    fill(g.at_sys, K, sys);
    fill(g.at_par, 2 * NP * K, par);
    fill(g.at_tail, size_t(2 * TV), tails);
    for (size_t k = 0; k < K; ++k)
        sys2[k] = sys[g.pi[k]];
    const V zero = simd_splat<V, LANES>(0);
    std::fill(apri1, apri1 + K, zero);
    std::fill(apri2, apri2 + K, zero);
    std::fill(bounds, bounds + 8 * nb, zero);
    bool done[LANES] = {};
    int left = io.used;
    lane_half<V, NP> h1{}, h2{};
    for (int j = 0; j < NP; ++j) {
        h1.par[j] = par + size_t(j) * K;
        h2.par[j] = par + size_t(NP + j) * K;
    }
    h1.sys = sys;
    h1.tail = tails;
    h1.apri = apri1;
    h1.dst = apri2;
    h1.dst_index = g.inv;
    h1.bound = bounds;
    h1.alpha = alpha;
    h2.sys = sys2;
    h2.tail = tails + TV;
    h2.apri = apri2;
    h2.dst = apri1;
    h2.dst_index = g.pi;
    h2.bound = bounds + 4 * nb;
    h2.bit_index = g.pi;
    h2.alpha = alpha;
    for (int it = 1; it <= g.max_iterations && left > 0; ++it) {
        const bool final = it == g.max_iterations, decide = final || g.crc;
        h1.first = h2.first = it == 1;
        h2.decide = decide ? dec : nullptr;
        lanes_half<C, V, V32, LANES>(h1, g.K, g.W, g.T, g.nwin, g.scale16);
        lanes_half<C, V, V32, LANES>(h2, g.K, g.W, g.T, g.nwin, g.scale16);
        if (decide) {
            // the decisions (all ones or zero a lane) as packed bytes a lane, MSB first as
            // pack_bits(), eight stages at a time on whole vectors (bit 7 of an int8 lane: -128)
            for (size_t i = 0; i < K / 8; ++i) {
                V byte = zero;
                for (int j = 0; j < 8; ++j) {
                    const int bit = int8_lanes<V> && j == 0 ? -128 : 1 << (7 - j);
                    byte = byte | (dec[8 * i + size_t(j)] & simd_splat<V, LANES>(bit));
                }
                bytes[i] = byte;
            }
            for (int l = 0; l < io.used; ++l) {
                if (done[l])
                    continue;
                uint8_t* out = io.packed + size_t(l) * (K / 8);
                for (size_t i = 0; i < K / 8; ++i)
                    out[i] = uint8_t(bytes[i][l]);
                frame_status& r = io.report[l];
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

template <class C, class V, class V32, int LANES>
void group_generic(const group_setup& g, const group_io& io)
{
    decode_group_lanes<C, V, V32, LANES>(g, io);
}

#if defined(__x86_64__) || defined(__i386__)
template <class C, class V, class V32, int LANES>
__attribute__((target("avx2"))) void group_avx2(const group_setup& g, const group_io& io)
{
    decode_group_lanes<C, V, V32, LANES>(g, io);
}

template <class C, class V, class V32, int LANES>
__attribute__((target("avx512f,avx512bw"))) void group_avx512(const group_setup& g, const group_io& io)
{
    decode_group_lanes<C, V, V32, LANES>(g, io);
}
#endif

struct kernel_choice {
    group_fn fn;
    int lanes, vector_bytes;
    size_t vectors; // scratch per group
};

//! the int8 engine (LTE, CPU only): int8 lanes, their sums in int16 lanes
kernel_choice pick_int8(simd_isa isa, const group_setup& g)
{
    const size_t v = group_scratch_vectors<lte_rsc>(g);
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return { group_avx512<lte_rsc, i8x64, i16x64, 64>, 64, 64, v };
    if (isa == simd_isa::avx2)
        return { group_avx2<lte_rsc, i8x32, i16x32, 32>, 32, 32, v };
#else
    (void)isa;
#endif
    return { group_generic<lte_rsc, i8x16, i16x16, 16>, 16, 16, v };
}

template <class C>
kernel_choice pick(simd_isa isa, const group_setup& g)
{
    const size_t v = group_scratch_vectors<C>(g);
    // LTE in int16 lanes (the GPU's arithmetic), CCSDS in int32 lanes
    constexpr bool lte = C::S == 8;
#if defined(__x86_64__) || defined(__i386__)
    if (isa == simd_isa::avx512)
        return lte ? kernel_choice{ group_avx512<C, i16x32, i32x32, 32>, 32, 64, v }
                   : kernel_choice{ group_avx512<C, i32x16, i32x16, 16>, 16, 64, v };
    if (isa == simd_isa::avx2)
        return lte ? kernel_choice{ group_avx2<C, i16x16, i32x16, 16>, 16, 32, v }
                   : kernel_choice{ group_avx2<C, i32x8, i32x8, 8>, 8, 32, v };
#else
    (void)isa;
#endif
    return lte ? kernel_choice{ group_generic<C, i16x8, i32x8, 8>, 8, 16, v }
               : kernel_choice{ group_generic<C, i32x4, i32x4, 4>, 4, 16, v };
}

class fixed_lanes : public turbo_engine
{
public:
    fixed_lanes(const turbo_code& code, const turbo_options& o, int window)
        : d_code(code), d_opts(o), d_pool(get_cpu_pool(o.cpu_threads)), d_isa(detect_simd_isa())
    {
        check_fixed_window(code, window, o.training, o.crc);
        if (!o.crc.empty()) {
            d_crc = crc_spec::named(o.crc);
            d_has_crc = true;
        }
        const bool lte = code.standard == turbo_standard::lte;
        if (lte ? !rsc_matches<lte_rsc>(code.rsc) : !rsc_matches<ccsds_rsc>(code.rsc))
            throw std::logic_error("turbo: the SIMD engine's trellis is not the code's");
        d_map = make_turbo_value_map(code);
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
        g.n = code.coded_bits();
        g.at_sys = d_map.at_sys.data();
        g.at_par = d_map.at_par.data();
        g.at_tail = d_map.at_tail.data();
        if (o.precision == 8 && !lte)
            throw std::invalid_argument("precision: int8 runs the LTE code only");
        d_k = o.precision == 8 ? pick_int8(d_isa, g) : lte ? pick<lte_rsc>(d_isa, g) : pick<ccsds_rsc>(d_isa, g);
        d_scratch.resize(size_t(d_pool->size()));
    }
    std::string name() const override
    {
        return "cpu fixed-point max-log" +
               std::string(d_opts.precision == 8 ? " int8" : d_code.standard == turbo_standard::lte ? "" : " (int32)") +
               ", window " + std::to_string(d_setup.W) + ", training " + std::to_string(d_setup.T) + ", " +
               std::to_string(d_k.lanes) + " frames per vector (" + simd_isa_name(d_isa) + ", " +
               std::to_string(d_pool->size()) + " threads " + d_pool->kind() + ")";
    }
    void decode(const int8_t* in, size_t frames, uint8_t* bits, frame_status* report) override
    {
        const size_t n = d_code.coded_bits(), bytes = size_t(d_code.K) / 8, L = size_t(d_k.lanes);
        const size_t groups = (frames + L - 1) / L;
        const size_t lines = d_k.vectors * size_t(d_k.vector_bytes) / 64 + 1; // (64-byte aligned)
        d_pool->parallel_for(int64_t(groups), [&](int64_t gi, int w) {
            auto& sc = d_scratch[size_t(w)];
            if (sc.size() < lines)
                sc.resize(lines);
            const size_t f0 = size_t(gi) * L;
            group_io io;
            io.in = in + f0 * n;
            io.used = int(std::min(L, frames - f0));
            io.packed = bits + f0 * bytes;
            io.report = report + f0;
            io.scratch = sc.data();
            for (int l = 0; l < io.used; ++l)
                io.report[l] = frame_status{};
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
    kernel_choice d_k{};
    crc_spec d_crc;
    bool d_has_crc = false;
    std::vector<uint32_t> d_pi, d_inv;
    turbo_value_map d_map;
    group_setup d_setup{};
    std::vector<std::vector<line>> d_scratch; // per worker
};

} // namespace

turbo_value_map make_turbo_value_map(const turbo_code& code)
{
    const bool lte = code.standard == turbo_standard::lte;
    const turbo_code layout = lte ? turbo_code::lte(code.K) : code;
    turbo_value_map m;
    m.NP = lte ? lte_rsc::NP : ccsds_rsc::NP;
    m.TAIL = code.tail_stages();
    const size_t K = size_t(code.K), NP = size_t(m.NP), TAIL = size_t(m.TAIL);
    m.at_sys.resize(K);
    m.at_par.resize(2 * NP * K);
    m.at_tail.resize(2 * TAIL * (1 + NP));
    for (size_t k = 0; k < K; ++k)
        m.at_sys[k] = int32_t(layout.position(0, 0, int(k)));
    for (int e = 0; e < 2; ++e) {
        for (size_t j = 0; j < NP; ++j)
            for (size_t k = 0; k < K; ++k)
                m.at_par[(size_t(e) * NP + j) * K + k] = int32_t(layout.position(e, int(j) + 1, int(k)));
        for (size_t t = 0; t < TAIL; ++t)
            for (size_t r = 0; r <= NP; ++r)
                m.at_tail[(size_t(e) * TAIL + t) * (1 + NP) + r] = int32_t(layout.position(e, int(r), code.K + int(t)));
    }
    return m;
}

std::unique_ptr<turbo_engine> make_turbo_fixed_cpu(const turbo_code& code, const turbo_options& o, int window)
{
    return std::make_unique<fixed_lanes>(code, o, window);
}

} // namespace gpufec
