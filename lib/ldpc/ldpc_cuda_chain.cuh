/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The chain kernel: the general kernel's layered min-sum (ldpc_cuda_general.cuh, one lane a
 * row, messages packed in global memory) for codes whose parity bits form a chain that the
 * schedule walks in order, DVB-S2's accumulator: a chain column is a block column of exactly
 * two entries of one shift, in layers l and l + 1 (one sub-layer each). Row u of both layers
 * touches the same bit of it, so the thread of row u alone ever touches that bit, one layer
 * after the other: the kernel keeps the bit in a register from layer l to l + 1 (the carry)
 * and in global memory between iterations, not in shared memory. DVB-S2 64800 at rate 1/2
 * then keeps 38 K posteriors a codeword in shared memory instead of 65 K, and an SM holds
 * three codewords instead of one; the barriers between layers that only the chain made
 * needed go too. Same arithmetic and bits as every LDPC engine (ldpc_common.h).
 *
 * Parallel mapping: one codeword a block, thread u owns row u of every layer of one sub-layer
 * (Z rows, a layer one step) and row c + p u of sub-layer c of a layer of p (those have no
 * chain column). Memory: the other block columns' posteriors (renumbered, chain_table::
 * column) in shared memory with the sink of a missing entry after them; in global memory, a
 * block's region: its messages as the general kernel packs them (a thread's row of a layer one
 * piece of MAXS slots: its D entries in shared memory, then the chain column leaving and the
 * one arriving), then chain column c's bit of row u at
 * [c * blockDim.x + u] (a warp's 32 bits side by side). Included by ldpc_cuda.cu only. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_CHAIN_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_CHAIN_CUH

#include "ldpc_cuda_general.cuh"
#include "ldpc_load_plan.h"

namespace gpufec {
namespace {

constexpr int max_chain_columns = 1024; // block columns of a code the chain kernel takes
constexpr int max_chain_steps = 512;    // steps (sub-layers) of its schedule, the empty one too

/*! The chain kernel's base matrix: gpu_table's entries without the chain columns, and its
 *  schedule step by step (a layer of p sub-layers is p steps; an even number of steps, with an
 *  empty one at the end where needed). Global memory is addressed in bytes from the block's
 *  region (chain_block_bytes), so that a step's addresses are a table word and the thread's
 *  own offset. */
struct chain_table {
    int2 entry[max_table_entries]; // as gpu_table's, the columns renumbered (column)
    // row hole_row[h] of step hole_layer[h] lacks its entry hole_entry[h] (hole_of)
    int hole_layer[max_table_holes], hole_row[max_table_holes], hole_entry[max_table_holes];
    int run_at[max_input_runs], run_len[max_input_runs], run_from[max_input_runs];
    int steps;
    unsigned block_bytes; // a block's region (chain_block_bytes)
    unsigned chain_at;    // where its chain bits start in it
    //! step k: x as layer_word (its first entry and entries, no barrier after it (free_next), a
    //! missing entry (holed), its layer's sub-layers p: the step's rows c + p u); y its c (an
    //! empty step: Z, no row); z and w its chain bits, arriving and leaving, as the byte offset
    //! of row 0's bit in the region (chain_at + the chain column's index times the block's
    //! threads times the bit's bytes), or -1
    int4 step[max_chain_steps];
    //! what step k reads for the step after it (step 0 after the last): x its arriving chain
    //! bit (as step's z), y the byte offset of its row of thread 0 in the region (its index
    //! times the block's threads times the MAXS messages of a row)
    int2 ahead[max_chain_steps];
    //! block column b: >= 0 its place among the columns in shared memory, else chain column -1 - b
    int16_t column[max_chain_columns];
};
// (a kernel's parameters take at most 32764 bytes; general_params and the pointers are the rest)
static_assert(sizeof(chain_table) <= 31 * 1024, "the chain table fits a kernel's parameters");

/*! the eight int8 values src[f .. f + 7] as one word (value i in byte i), by the aligned 8-byte
 *  word at or below src + f and, where that is not f itself, the word after it (the load plan
 *  keeps both within the frame) */
__device__ __forceinline__ uint64_t sent_piece8(const int8_t* src, int f)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(src + f);
    const uint64_t* w = reinterpret_cast<const uint64_t*>(a & ~uintptr_t(7));
    const unsigned shift = unsigned(a & 7) * 8;
    const uint64_t first = w[0];
    return shift ? (first >> shift) | (w[1] << (64 - shift)) : first;
}

/*! One row of the chain kernel: D entries in shared memory (as layered_row_of, one lane,
 *  messages in slots 0 .. D - 1), and the chain bits `pin` (arriving: its value from global
 *  memory; slot D + 1) and `carry` (leaving: the value the row before left in the register; slot
 *  D) where the layer has them (then D + 2 <= MAXS: chain_shape); an absent one counts as
 *  absent_entry, never a minimum, positive. The arriving bit's new value goes to `carry`, the
 *  leaving one's to `leaving`. */
template <typename T, int D, int MAXS, bool HOLES, class Messages>
__device__ __forceinline__ void chain_row(unsigned char* gcw, Messages& msgs, const int2* ent, unsigned rb,
                                          unsigned rbz, const ldpc_fixed& fx, int skip, unsigned sink_off,
                                          bool has_in, int pin, bool has_out, int& carry, int& leaving)
{
    unsigned off[D];
    int rho[D];
    row_minima r;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        off[i] = bit_offset<T>(ent[i], rb, rbz);
        if constexpr (HOLES)
            off[i] = i == skip ? sink_off : off[i];
        rho[i] = int(*reinterpret_cast<const T*>(gcw + off[i])) - msgs.get(i);
        if (i == 1)
            r.start(rho[0], rho[1]);
        else if (i > 1 || D == 1)
            r.add(rho[i]);
    }
    constexpr bool CHAIN = D + 2 <= MAXS; // (a layer with chain bits leaves room for them)
    int rout = absent_entry, rin = absent_entry;
    if constexpr (CHAIN) {
        rout = has_out ? carry - msgs.get(D) : absent_entry;
        rin = has_in ? pin - msgs.get(D + 1) : absent_entry;
        r.add(rout);
        r.add(rin);
    }
    const row_messages<sizeof(T) == 2> message(r, fx);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int msg = message(rho[i]);
        msgs.set(i, msg);
        *reinterpret_cast<T*>(gcw + off[i]) = T(rho[i] + msg);
    }
    if constexpr (CHAIN) {
        const int mout = message(rout), min_ = message(rin);
        msgs.set(D, mout);
        msgs.set(D + 1, min_);
        leaving = rout + mout;
        carry = rin + min_;
    }
}

//! a chain kernel block's shared memory: the posteriors of gstride bits and the flags
template <typename T>
__host__ __device__ inline size_t chain_smem_bytes(int gstride)
{
    return align16(size_t(gstride) * sizeof(T)) + 16;
}

//! a chain kernel block's global memory: `steps` packed rows of MAXS messages (M) and
//! `chains` chain bits (T), each for every one of its `threads` threads
template <typename T, typename M>
__host__ __device__ inline size_t chain_block_bytes(int threads, int steps, int maxs, int chains)
{
    return align16(size_t(threads) * steps * maxs * sizeof(M)) + align16(size_t(threads) * chains * sizeof(T));
}

/*! A codeword's results by the block (as write_results): bit v of block column b is in shared
 *  memory or (chain column c) at chain[c * blockDim.x + v mod Z]. Where Z is a multiple of 8
 *  (DVB-S2's 360) the hard bits go block column by block column as the frame came in: thread
 *  u decides bit b Z + u, and its warp's 32 decisions (a ballot) are four whole bytes of the
 *  output, which lanes 0-3 write (a byte a thread, each of its eight bits placed by a
 *  division, took the kernel 0.4 % longer: H200, DVB-S2 64800 1/2). */
template <typename T>
__device__ __forceinline__ void chain_results(const gpu_params& p, const chain_table& tab, const T* gamma,
                                              const T* chain, int cw, int iterations, bool bad, uint8_t* out,
                                              frame_status* results, float* posteriors)
{
    const int z = p.z;
    auto value_at = [&](int b, int r) {
        const int col = tab.column[b];
        return col >= 0 ? int(gamma[col * z + r]) : int(chain[size_t(-1 - col) * blockDim.x + r]);
    };
    auto value = [&](int v) {
        const int b = v / z;
        return value_at(b, v - b * z);
    };
    uint8_t* o = out + size_t(cw) * p.nbytes;
    if (z % 8 == 0) { // (every thread of the block: the block's warps are whole, chain_shape)
        const int u = threadIdx.x, lane = u & 31, u0 = u - lane;
        for (int b = 0, bz = 0; bz < p.out_bits; ++b, bz += z) {
            const bool one = u < z && bz + u < p.out_bits && value_at(b, u) < 0;
            const unsigned bits = __brev(__ballot_sync(0xffffffffu, one)); // lane j at bit 31 - j
            const int first = u0 + 8 * lane;                               // lane < 4: its byte's first bit
            if (lane < 4 && first < z && bz + first < p.out_bits)
                o[(bz + first) / 8] = uint8_t(bits >> (24 - 8 * lane));
        }
    } else {
        for (int b = threadIdx.x; b < p.nbytes; b += blockDim.x) {
            unsigned byte = 0;
            for (int i = 0; i < 8; ++i) {
                const int v = b * 8 + i;
                byte |= (v < p.out_bits && value(v) < 0) ? (0x80u >> i) : 0u;
            }
            o[b] = uint8_t(byte);
        }
    }
    if (threadIdx.x == 0)
        results[cw] = frame_status{ iterations, int8_t(!bad), 0 };
    if (p.want_post) {
        float* post = posteriors + size_t(cw) * p.n;
        for (int v = threadIdx.x; v < p.n; v += blockDim.x)
            post[v] = float(-value(v));
    }
}

/* BLOCKS: the blocks of up to 384 threads an SM holds by registers (launch bounds). gp.gstride:
 * the posteriors in shared memory (and the sink); the global regions' layout: the table's. */
template <typename T, typename M, int MAXS, bool HOLES, int BLOCKS>
__global__ void __launch_bounds__(384, BLOCKS)
    ldpc_chain_kernel(general_params gp, const __grid_constant__ chain_table tab, const int8_t* __restrict__ soft,
                      uint8_t* __restrict__ out,          // packed hard bits
                      frame_status* __restrict__ results, // one per codeword
                      float* __restrict__ posteriors,     // n per codeword, where wanted
                      void* __restrict__ gmsg_v,          // every resident block's region
                      int* __restrict__ queue)
{
    constexpr int W = packed_row_words<M>(MAXS);
    static_assert(W > 0, "a row's messages one packed piece");
    using vec = packed_vector<W>;
    constexpr int P = packed_planes<W>;
    extern __shared__ __align__(16) unsigned char smem[];
    const gpu_params& p = gp.base;
    const int z = p.z, n = p.n, S = tab.steps;
    const int zbytes = z * int(sizeof(T));
    T* const gamma = reinterpret_cast<T*>(smem);
    int* const s_flags = reinterpret_cast<int*>(smem + align16(size_t(gp.gstride) * sizeof(T)));
    int* const s_bad = s_flags;
    int* const s_done = s_flags + 1;
    int* const s_iters = s_flags + 2;
    int* const s_group = s_flags + 3;
    unsigned char* const gcw = smem;
    const int u = threadIdx.x; // row u of a layer, c + stride u of its sub-layer c
    const unsigned sink_off = unsigned(gp.gstride - 8) * unsigned(sizeof(T)); // (HOLES: bit gstride - 8)
    // A step's addresses: the regions' base plus one 32-bit sum, this thread's offset in them
    // (its block's region and its own place) and the step's table word; every block's region
    // lies within 4 GB of the base (chain_shape). (A 64-bit pointer to the block's region was
    // rebuilt from the block's index at each address, four instructions.)
    unsigned char* const gmsg = static_cast<unsigned char*>(gmsg_v);
    const unsigned block_at = blockIdx.x * tab.block_bytes;
    const unsigned vrow_at = block_at + unsigned(u) * unsigned(sizeof(vec));
    const unsigned crow_at = block_at + unsigned(u) * unsigned(sizeof(T));
    // plane j of this thread's row of the step whose row starts at byte `at` (chain_table::ahead)
    auto row_at = [&](unsigned at) { return reinterpret_cast<vec*>(gmsg + (vrow_at + at)); };
    // this row's bit of the chain column whose row 0 is at byte `off` (chain_table::step)
    auto chain_bit = [&](int off) { return reinterpret_cast<T*>(gmsg + (crow_at + unsigned(off))); };
    // chain column c's bit of this row at crow[c * blockDim.x]
    T* const crow = chain_bit(int(tab.chain_at));
    const bool row_here = u < z;

    for (;;) {
        const int cw = take_group(queue, s_group);
        if (cw >= p.groups)
            return;
        const bool active = cw < p.frames;

        // load: each bit to its place (shared memory, or this row's chain bit: the block has a
        // thread a row), block column by block column, eight columns' loads in flight at a time
        // (one at a time, the load stalled the kernel a fourteenth of its time); messages 0
        if (row_here) {
            const int8_t* src = soft + size_t(active ? cw : 0) * p.in_stride / (p.soft_bits == 4 ? 2 : 1);
            auto put = [&](int b, int x) {
                const int col = tab.column[b];
                if (col >= 0)
                    gamma[col * z + u] = T(x);
                else
                    crow[size_t(-1 - col) * blockDim.x] = T(x);
            };
            if (!active || !p.gather)
                for (int b = 0; b < n / z; ++b) {
                    const int v = b * z + u;
                    int x = int(fill_value<T>(input_erased));
                    if (!active) {
                    } else if (p.runs) {
                        for (int r = 0; r < p.runs; ++r) {
                            const int at = tab.run_at[r], from = tab.run_from[r];
                            if (v >= at && v < at + tab.run_len[r])
                                x = from < 0 ? int(fill_value<T>(from))
                                             : -(p.soft_bits == 4 ? soft_value<true>(src, from + v - at)
                                                                  : soft_value<false>(src, from + v - at));
                        }
                    } else {
                        x = -(p.soft_bits == 4 ? soft_value<true>(src, v) : soft_value<false>(src, v));
                    }
                    put(b, x);
                }
            else {
                // through the gather table and its load plan (ldpc_load_plan.h): straight
                // columns without the table, a group's run across columns as one 8-byte piece
                const int nb = n / z;
                const int* const plan = p.gather + n;
                for (int b0 = 0; b0 < nb; b0 += 8) {
                    const int group = plan[nb + b0 / 8];
                    const int lo = load_plan_lo(group), count = p.soft_bits == 8 ? load_plan_count(group) : 0;
                    auto in_run = [&](int i) { return unsigned(i - lo) < unsigned(count); };
                    const uint64_t run = count ? sent_piece8(src, p.gather[(b0 + lo) * z + u]) : 0;
                    int from[8], x[8];
#pragma unroll
                    for (int i = 0; i < 8; ++i) {
                        const int b = b0 + i, base = b < nb ? plan[b] : input_erased;
                        from[i] = b >= nb ? input_erased : base >= 0 ? base + u : in_run(i) ? 0 : p.gather[b * z + u];
                    }
#pragma unroll
                    for (int i = 0; i < 8; ++i)
                        x[i] = in_run(i)      ? -int(int8_t(run >> (8 * (i - lo))))
                               : from[i] < 0 ? int(fill_value<T>(from[i]))
                                             : -(p.soft_bits == 4 ? soft_value<true>(src, from[i])
                                                                  : soft_value<false>(src, from[i]));
#pragma unroll
                    for (int i = 0; i < 8; ++i)
                        if (b0 + i < nb)
                            put(b0 + i, x[i]);
                }
            }
        }
        if (HOLES && threadIdx.x == 0)
            gamma[gp.gstride - 8] = T(hole_sink<T>());
        for (int k = 0; k < S * P; ++k)
            row_at(0)[size_t(k) * blockDim.x] = vec{};
        if (threadIdx.x == 0) {
            *s_done = !active;
            *s_iters = 0;
        }
        __syncthreads();

        int it = 0;
        bool all_done = false;
        // the step loop taken two steps at a time, two buffers for a row and its arriving chain
        // bit: step k uses one (read during step k - 1) and reads step k + 1's into the other,
        // so a load has a whole step and its barrier to arrive. (With one buffer, moved into
        // place at each step's end, the move waited for the load: three quarters of the
        // kernel's long-scoreboard stalls, DVB-S2 1/2, H200.) A group's first row is zero
        // messages. The steps are even (chain_shape).
        uint32_t row_a[W] = {}, row_b[W] = {};
        int pin_a = 0, pin_b = 0, carry = 0;
        if (row_here && tab.step[0].z >= 0)
            pin_a = int(*chain_bit(tab.step[0].z));
        unsigned at = 0; // step k's row (row_at)
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !*s_done;
            auto step = [&](int k, const uint32_t(&use)[W], uint32_t(&fill)[W], int pin, int& pin_next) {
                const int4 st = tab.step[k];
                const int2 next = tab.ahead[k];
                const layer_word sw{ unsigned(st.x) };
                const int ci = st.z, co = st.w;
                load_packed<W>(row_at(unsigned(next.y)), blockDim.x, fill);
                if (row_here && next.x >= 0)
                    pin_next = int(*chain_bit(next.x));
                const int r = st.y + sw.stride() * u;
                if (work && r < z) {
                    packed_messages<M, W> pm(use);
                    const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - unsigned(zbytes);
                    const int e0 = sw.first();
                    int leaving = 0;
                    // (the rows that look for a missing entry, two instructions an entry, only in
                    // the steps that have one: one or two of DVB-S2's hundred)
                    auto rows = [&](auto holed) {
                        constexpr bool H = decltype(holed)::value;
                        const int skip = H ? hole_of(tab, gp.holes, k, r) : -1;
                        with_degree<MAXS>(sw.entries(), [&](auto deg) {
                            chain_row<T, decltype(deg)::value, MAXS, H>(gcw, pm, tab.entry + e0, rb, rbz, p.fx, skip,
                                                                        sink_off, ci >= 0, pin, co >= 0, carry,
                                                                        leaving);
                        });
                    };
                    if (HOLES && sw.holed())
                        rows(std::bool_constant<HOLES>());
                    else
                        rows(std::false_type());
                    if (co >= 0)
                        *chain_bit(co) = T(leaving);
                    store_packed<W>(row_at(at), blockDim.x, pm.out);
                }
                at = unsigned(next.y);
                if (!sw.free_next())
                    __syncthreads();
            };
            for (int k = 0; k < S; k += 2) {
                step(k, row_a, row_b, pin_a, pin_b);
                step(k + 1, row_b, row_a, pin_b, pin_a);
            }
            all_done = end_iteration(p, it, work && row_here, active, true, threadIdx.x == 0, 0, s_bad, s_done,
                                     s_iters, [&] {
                                         // (this row's chain bits, its own stores: step k's leaving bit
                                         // arrived at step k - 1 (chain_shape), so each is read once, a
                                         // step ahead of its first use)
                                         bool bad = false;
                                         int arriving = tab.step[0].z >= 0 ? int(*chain_bit(tab.step[0].z)) : 0, leaving = 0;
                                         for (int k = 0; k < S && !bad; ++k) { // (every row: one step has it)
                                             if (k % 8 == 7 && flagged_bad(s_bad, 0))
                                                 break;
                                             const int4 st = tab.step[k];
                                             const int ahead = k + 1 < S ? tab.ahead[k].x : -1;
                                             const int next = ahead >= 0 ? int(*chain_bit(ahead)) : 0;
                                             const int in = arriving, out = leaving;
                                             leaving = arriving;
                                             arriving = next;
                                             const layer_word sw{ unsigned(st.x) };
                                             const int r = st.y + sw.stride() * u;
                                             if (r >= z)
                                                 continue;
                                             const int e0 = sw.first(), d = sw.entries();
                                             const int skip = HOLES && sw.holed() ? hole_of(tab, gp.holes, k, r) : -1;
                                             const unsigned rb = unsigned(r) * sizeof(T), rbz = rb - unsigned(zbytes);
                                             int x = 0;
                                             for (int j = 0; j < d; ++j)
                                                 x ^= j == skip ? 0 : int(*bit_of<T>(gcw, tab.entry[e0 + j], rb, rbz));
                                             if (st.z >= 0)
                                                 x ^= in;
                                             if (st.w >= 0)
                                                 x ^= out;
                                             bad = x < 0;
                                         }
                                         return bad;
                                     });
        }
        __syncthreads(); // (and every row's chain bits seen by the block)

        if (active)
            chain_results<T>(p, tab, gamma, crow - threadIdx.x, cw, *s_iters, *s_bad != 0, out, results, posteriors);
    }
}

} // namespace
} // namespace gpufec

#endif
