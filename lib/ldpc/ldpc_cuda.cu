/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* CUDA layered (TDMP) min-sum LDPC decoder for quasi-cyclic codes, after Xie Wen et al.
 * ("A high throughput LDPC decoder using a mid-range GPU"), bit-exact with the CPU reference
 * (ldpc_common.h). Three kernels:
 *
 *  - ldpc_cuda_layered.cuh, for codes of one circulant a block whose messages fit shared
 *    memory (the IEEE codes, 5G NR): thread t owns row (t mod Z) of every layer of codeword
 *    (t / Z). The Z rows of a layer touch Z distinct bits, so a layer is one parallel step, and
 *    the block synchronises between layers. Posteriors gamma and one check-to-bit message per
 *    edge in shared memory (int16 / int8, or int32 / int16: wide enough never to saturate);
 *    a thread's messages are one row of S slots, S / 4 odd, so that a warp's rows fall in 32
 *    different banks; rows unrolled by degree, their values held in registers.
 *  - ldpc_cuda_general.cuh, for the rest: layers taken as sub-layers whose rows touch
 *    distinct bits (several circulants a block: DVB-S2, C2; Z > 512), rows that lack an entry
 *    (DVB-S2's corner), messages in global memory (DVB-S2's 64800 bits; 5G NR Z = 384 in
 *    int16) or, where they fit, in shared memory (shared_messages); rows unrolled, or updated
 *    in a loop of few registers.
 *  - ldpc_cuda_chain.cuh, the general kernel's form for codes whose parity bits form a chain
 *    the layers walk in order (DVB-S2's accumulator): those bits in a register from one layer
 *    to the next and in global memory between iterations, so that an SM holds more codewords.
 *
 * All: C codewords a block (the chain kernel: one), chosen per code so that the most codewords stay resident per SM
 * with few idle threads (from the occupancy); blocks take groups of C codewords from a queue
 * (one atomic counter), so a block whose codewords stop early takes new ones instead of idling.
 * The base matrix travels in the launch parameters (constant bank): every thread of the block
 * reads the same entry at the same time, which the uniform datapath serves without
 * shared-memory traffic. Channel values are read once from global memory, int8; the output is
 * the packed leading hard bits (codeword, or information bits of a systematic-first code), the
 * per-codeword results and the optional posteriors (float) each into their own buffer, copied
 * back to the caller by the batch pipeline. */
#include "codes/bch_gpu.h"
#include "ldpc_cuda_chain.cuh"
#include "ldpc_cuda_general.cuh"
#include "ldpc_cuda_layered.cuh"
#include "ldpc_cuda_pairs.cuh"
#include "ldpc_common.h"
#include "ldpc_engine.h"
#include "ldpc_load_plan.h"
#include "ldpc_schedule.h"
#include "runtime/batch_pipeline.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_resources.h"
#include "runtime/tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace gpufec {

namespace {

typedef void (*general_fn)(general_params, const general_table, const int8_t*, uint8_t*, frame_status*, float*,
                           void*, int*);

/*! The general kernel for rows spread over TR lanes whose longest row gives a lane up to
 *  max_degree entries (0: one lane a row, the rows as loops): unrolled to 8, 16 or 32 entries
 *  (TR 1), 8 or 16 (TR 2), 8 (TR 4 and 8); null where none applies. */
template <typename T, typename M, bool HOLES>
general_fn general_by_degree(int tr, int max_degree, bool wide, bool shared, bool pack)
{
    if (shared) { // (one lane a row)
        if (tr != 1)
            return nullptr;
        return max_degree == 0    ? ldpc_general_kernel<T, M, 0, HOLES, 1, false, true>
               : max_degree <= 8  ? (wide ? ldpc_general_kernel<T, M, 8, HOLES, 1, true, true>
                                          : ldpc_general_kernel<T, M, 8, HOLES, 1, false, true>)
               : max_degree <= 16 ? ldpc_general_kernel<T, M, 16, HOLES, 1, false, true>
                                  : ldpc_general_kernel<T, M, 32, HOLES, 1, false, true>;
    }
    if (tr == 1)
        return max_degree == 0    ? ldpc_general_kernel<T, M, 0, HOLES, 1>
               : max_degree <= 8  ? (wide ? (pack ? ldpc_general_kernel<T, M, 8, HOLES, 1, true>
                                                 : ldpc_general_kernel<T, M, 8, HOLES, 1, true, false, false>)
                                          : ldpc_general_kernel<T, M, 8, HOLES, 1>)
               : max_degree <= 16 ? ldpc_general_kernel<T, M, 16, HOLES, 1>
                                  : ldpc_general_kernel<T, M, 32, HOLES, 1>;
    if (max_degree == 0)
        return nullptr;
    if (tr == 2)
        return max_degree <= 8 ? ldpc_general_kernel<T, M, 8, HOLES, 2> : ldpc_general_kernel<T, M, 16, HOLES, 2>;
    if (tr == 4 && max_degree <= 8)
        return ldpc_general_kernel<T, M, 8, HOLES, 4>;
    if (tr == 8 && max_degree <= 8)
        return ldpc_general_kernel<T, M, 8, HOLES, 8>;
    return nullptr;
}

//! int8 messages with int16 posteriors, or int16 with int32; with or without missing entries;
//! wide: the registers of a block alone on its SM (general_bounds); shared: messages in shared
//! memory
general_fn pick_general(bool int8_messages, bool holes, int tr, int max_degree, bool wide = false, bool shared = false,
                        bool pack = true)
{
    if (holes)
        return int8_messages ? general_by_degree<int16_t, int8_t, true>(tr, max_degree, wide, shared, pack)
                             : general_by_degree<int32_t, int16_t, true>(tr, max_degree, wide, shared, pack);
    return int8_messages ? general_by_degree<int16_t, int8_t, false>(tr, max_degree, wide, shared, pack)
                         : general_by_degree<int32_t, int16_t, false>(tr, max_degree, wide, shared, pack);
}

typedef void (*chain_fn)(general_params, const chain_table, const int8_t*, uint8_t*, frame_status*, float*, void*,
                         int*);

//! the chain kernel for rows of up to maxs message slots (int8 messages, or int16 where
//! !int8), held to `blocks` blocks an SM by registers (int16: two); null where none is compiled
inline chain_fn pick_chain(bool int8, int maxs, bool holes, int blocks)
{
    if (!int8) {
        if (maxs == 8)
            return holes ? ldpc_chain_kernel<int32_t, int16_t, 8, true, 2> : ldpc_chain_kernel<int32_t, int16_t, 8, false, 2>;
        if (maxs == 16)
            return holes ? ldpc_chain_kernel<int32_t, int16_t, 16, true, 2>
                         : ldpc_chain_kernel<int32_t, int16_t, 16, false, 2>;
        return nullptr;
    }
    if (maxs == 8)
        return holes ? (blocks == 3 ? ldpc_chain_kernel<int16_t, int8_t, 8, true, 3>
                                    : ldpc_chain_kernel<int16_t, int8_t, 8, true, 2>)
                     : (blocks == 3 ? ldpc_chain_kernel<int16_t, int8_t, 8, false, 3>
                                    : ldpc_chain_kernel<int16_t, int8_t, 8, false, 2>);
    if (maxs == 16)
        return holes ? ldpc_chain_kernel<int16_t, int8_t, 16, true, 2> : ldpc_chain_kernel<int16_t, int8_t, 16, false, 2>;
    return nullptr;
}

//! the chain kernel's table and what follows from it (chain_shape)
struct chain_layout {
    std::unique_ptr<chain_table> table;
    int chains = 0;  // chain columns
    int gstride = 0; // posteriors a codeword in shared memory (and the sink)
    int bounded_for = 2; // the blocks an SM the chosen kernel's registers were bounded for
};

/*! How one engine runs: the kernel, its lanes a row (TR) and codewords a block (C), and what
 *  follows from them. */
struct launch_shape {
    int tr = 1;                     // lanes a row
    bool pairs = false;             // the layered kernel with two codewords a thread
    int vector = 1;                 // its message slots a shared-memory access (half_slots)
    bool profiled = false;          // its kernel compiled for the code's layers (layer_profile)
    bool split = false;             // its layers of several sub-layers split (split_layer)
    bool global = false;            // messages in global memory (the general kernel)
    bool loops = false;             // the general kernel's rows as loops
    bool packed = false;            // its global messages packed (packed_row_words)
    kernel_fn layered = nullptr;    // the kernel, one of the three
    general_fn general = nullptr;
    chain_fn chain = nullptr;       // (global too; its regions: chain_layout)
    int c = 1;                      // codewords a block (pairs: even)
    int threads = 32;               // a block's, whole warps
    int per_sm = 0;                 // resident blocks an SM
    int slots = 0;                  // S: a thread's message slots
    bool shared = false;            // the general kernel's messages in shared memory
    size_t smem = 0;                // a block's dynamic shared memory
    const void* kernel() const
    {
        return chain    ? reinterpret_cast<const void*>(chain)
               : global ? reinterpret_cast<const void*>(general)
                        : reinterpret_cast<const void*>(layered);
    }
    //! threads an SM holds, a pair kernel's counting twice (each does two codewords' rows)
    int resident_threads() const { return per_sm * threads * (pairs ? 2 : 1); }
};

/*! Whether the pair kernel takes half2 arithmetic for this code (pair_row_half: exact where
 *  every posterior stays within 2048 and a magnitude of 1023 normalises to the message limit).
 *  Measured on the H100 (b0d23bd, int8, 10 iterations, no early stop, 16384 codewords, Gb/s
 *  kernels, int16x2 / half2 in the same run): 802.16e 2304 1/2 16.5 / 23.4, 3/4A 23.5 / 36.8,
 *  5/6 27.5 / 42.7, 802.11n 1944 1/2 15.4 / 20.8, 5/6 29.8 / 39.7, 648 5/6 26.2 / 36.1.
 *  GPUFEC_LDPC_PAIR_ARITH=auto|int|half (a tuning aid; half refuses a code where it would not be
 *  exact). */
bool pair_half_arithmetic(const ldpc_code& code, const ldpc_options& o)
{
    const std::string want = tuning_choice("GPUFEC_LDPC_PAIR_ARITH", { "auto", "int", "half" }, "auto");
    if (want == "int")
        return false;
    const ldpc_fixed f = ldpc_fixed_point(code, o);
    const bool exact = ldpc_posterior_bound(code, f.mmax) <= 2048 && ldpc_norm(1023, f) == f.mmax;
    if (want == "half" && !exact)
        throw std::invalid_argument("GPUFEC_LDPC_PAIR_ARITH=half: fp16 is not exact for this code (it needs "
                                    "columns of at most 15 bits and a normalisation that reaches the "
                                    "message limit at 1023)");
    return exact;
}

class cuda_engine : public ldpc_engine
{
public:
    cuda_engine(const ldpc_code& code, const ldpc_options& o, int device)
        : ldpc_engine(code.n()), d_code(code), d_opts(o), d_device(device)
    {
        if (!code.is_qc())
            throw std::invalid_argument("the CUDA LDPC decoder needs a quasi-cyclic code");
        if (code.max_row_degree() > 32)
            throw std::invalid_argument("the CUDA LDPC decoder handles rows of up to 32 bits");
        device_guard guard(d_device);
        cudaDeviceProp prop;
        GPUFEC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = "cuda:" + std::to_string(device) + " (" + prop.name + ")";
        d_sms = prop.multiProcessorCount;
        if (code.mb() > max_table_layers)
            throw std::invalid_argument("the CUDA LDPC decoder handles base matrices of up to " +
                                        std::to_string(max_table_layers) + " rows");
        d_int8 = o.precision == ldpc_precision::int8; // int16 posteriors, else int32
        // int8: two codewords a thread in the layered kernel (ldpc_cuda_pairs.cuh) where the
        // GPU has packed 16-bit instructions (compute capability 9.0 up; older ones emulate
        // them) and an SM then holds at least as many codewords (below); GPUFEC_LDPC_PAIRS=
        // auto|on|off overrides it (a tuning aid; on: wherever a pair fits)
        const std::string pairs = tuning_choice("GPUFEC_LDPC_PAIRS", { "auto", "on", "off" }, "auto");
        d_pairs = d_int8 && (pairs == "on" || (pairs == "auto" && prop.major >= 9));
        const bool pairs_forced = pairs == "on";
        d_pair_half = d_pairs && pair_half_arithmetic(code, o);
        // the half2 pair kernel, or the int8 one-codeword kernel, with the code's layers unrolled
        // where it is compiled for them (layer_profile; compute capability 9.0 on: the IEEE
        // rate-1/2 codes' pairs, 5G NR base graph 1 alone); GPUFEC_LDPC_LAYER_PROFILE=off takes
        // the layer loop (a tuning aid)
        d_layer_profiles = prop.major >= 9 &&
                           tuning_choice("GPUFEC_LDPC_LAYER_PROFILE", { "auto", "off" }, "auto") == "auto";
        // the circulants, layer by layer, in column order (general_table; gpu_table holds the
        // same for the layered kernel) and the most rows of a sub-layer
        const int tsize = d_int8 ? 2 : 4, z = code.z();
        d_gtab = std::make_unique<general_table>();
        general_table* const t = d_gtab.get();
        d_entries = 0;
        d_rows = 0;
        d_holes = 0;
        const auto& circ = code.circulants();
        size_t ci = 0;
        std::vector<int> hole_at; // the table index of each missing entry's circulant
        for (int l = 0; l < code.mb(); ++l) {
            t->layer_start[l] = uint16_t(d_entries);
            const int stride = code.row_stride(l);
            d_rows = std::max(d_rows, z / stride);
            for (; ci < circ.size() && circ[ci].row == l; ++ci) {
                if (d_entries == max_table_entries)
                    throw std::invalid_argument("the CUDA LDPC decoder handles base matrices of up to " +
                                                std::to_string(max_table_entries) + " circulants");
                if (circ[ci].missing >= 0) {
                    if (d_holes == max_table_holes)
                        throw std::invalid_argument("the CUDA LDPC decoder handles up to " +
                                                    std::to_string(max_table_holes) + " missing entries");
                    t->hole_layer[d_holes] = l;
                    t->hole_row[d_holes] = circ[ci].missing;
                    hole_at.push_back(d_entries);
                    ++d_holes;
                }
                t->entry[d_entries++] = make_int2(circ[ci].shift * tsize, circ[ci].col * z * tsize);
            }
        }
        t->layer_start[code.mb()] = uint16_t(d_entries);
        // the layer loops' words (layer_word): steps that touch none of the bits of the steps
        // since the last barrier follow without one (ldpc_schedule.h; the same bits).
        // GPUFEC_LDPC_BARRIERS=all keeps every barrier (a tuning aid). Measured on the H200, int8,
        // 10 iterations, host to host, against every barrier in the same build: 5G NR BG1
        // Z = 384 4.43 -> 4.55 Gb/s, AR4JA k = 16384 7.29 -> 7.75 (C2 within its run-to-run noise).
        const std::vector<bool> free = ldpc_steps_free_of_previous(code);
        const bool keep_all = tuning_choice("GPUFEC_LDPC_BARRIERS", { "needed", "all" }, "needed") == "all";
        for (int l = 0, step = 0; l < code.mb(); ++l) {
            const int stride = code.row_stride(l), first = t->layer_start[l], d = t->layer_start[l + 1] - first;
            if (stride > max_layer_stride || d > max_layer_entries)
                throw std::invalid_argument("the CUDA LDPC decoder handles layers of up to " +
                                            std::to_string(max_layer_stride) + " sub-layers and " +
                                            std::to_string(max_layer_entries) + " circulants");
            bool inner = true;
            for (int c = 1; c < stride; ++c)
                inner = inner && free[size_t(step + c)];
            step += stride;
            const bool next = step < int(free.size()) && free[size_t(step)];
            bool holed = false;
            for (int h = 0; h < d_holes; ++h)
                holed |= t->hole_layer[h] == l;
            t->layer[l] = make_layer_word(first, d, next && !keep_all, inner && !keep_all, holed, stride);
        }
        // rows that lack an entry read the sink (index n of their codeword's posteriors) there
        d_gstride = code.n() + (d_holes ? 8 : 0);
        for (int h = 0; h < d_holes; ++h)
            t->hole_entry[h] = hole_at[size_t(h)] - t->layer_start[t->hole_layer[h]];

        // the layered kernel where it applies (one sub-layer a layer, every entry, messages in
        // shared memory: the fastest), else the general one; GPUFEC_LDPC_MESSAGES=global takes
        // the general kernel anyway (a tuning aid)
        d_optin = size_t(prop.sharedMemPerBlockOptin);
        bool global = d_holes > 0;
        for (int l = 0; l < code.mb(); ++l)
            global |= code.row_stride(l) != 1;
        const bool messages_global =
            tuning_choice("GPUFEC_LDPC_MESSAGES", { "shared", "global" }, "shared") == "global";
        global |= messages_global;
        // lanes a row: one, unless that leaves fewer than 256 threads an SM (a sub-layer of few
        // rows: C2's 7, DVB-S2 9/10's 60 to 180, one codeword an SM); then the lanes that keep
        // the most threads resident. Measured on the H200, int8, 10 iterations, host to host
        // (Gb/s by lanes a row 1 / 2 / 4 / 8): C2 as sent 1.60 / 1.42 / 2.51 / 2.60; DVB-S2
        // 64800 9/10 4.18 / 3.68 / 5.04; but where one lane a row keeps 384 threads or more,
        // more lanes lose (their shuffles and duplicated row work cost more than the latency
        // they hide): 802.16e 2304 14.1 / 5.7 / 3.4, 5G NR Z = 384 4.14 / 1.94, DVB-S2 64800
        // 1/2 1.82 / 1.55, AR4JA k = 16384 7.36 / 3.16. GPUFEC_LDPC_ROW_THREADS=1|2|4|8 forces
        // it (a tuning aid).
        const int forced = std::stoi(tuning_choice("GPUFEC_LDPC_ROW_THREADS", { "1", "2", "4", "8" }, "0"));
        bool have = false;
        int one_lane = 0; // threads an SM with one lane a row
        for (int tr : { 1, 2, 4, 8 }) {
            launch_shape sh;
            if ((forced && tr != forced) || !shape_for(tr, global, sh))
                continue;
            // two codewords a thread where the SM then holds at least as many codewords as with
            // one. Measured on the H200 (int8, 10 iterations, host to host, Gb/s, one codeword
            // a thread / two; codewords an SM): 802.16e 2304 1/2 14.0 / 14.9 (16 / 18), 2/3A
            // 14.9 / 19.2 (5 / 16), 3/4A 16.6 / 21.8, 5/6 19.0 / 22.7; 802.11n 1944 1/2 12.1 /
            // 13.0 (18 / 18), 2/3 13.9 / 17.9, 3/4 16.5 / 21.7, 5/6 20.2 / 25.0; 802.16e 576 5/6
            // 14.1 / 17.6; 5G NR BG2 Z = 104 3.02 / 3.71 (4 / 6), Z = 64 3.77 / 4.01 (8 / 10);
            // where it holds fewer, pairs lose: NR BG1 Z = 64 5.61 / 4.49 (7 / 6), Z = 128 5.24 /
            // 3.73 (3 / 2), Z = 32 5.35 / 4.45 (15 / 14). And rows of up to 8 bits with Z below
            // 64 stay one codeword a thread: 802.11n 648 and 1296 at rate 1/2 lose 14 and 5 %
            // with pairs (10.1-10.2 / 8.7-9.0, 11.4-11.8 / 10.7-11.0) though the SM holds as many
            // codewords (56 / 60, 28 / 30), 802.16e 576 1/2 gains nothing (10.3-10.7 / 10.2-11.0)
            // and 1152 1/2 6 % (12.4-12.7 / 13.1-13.3).
            const bool short_rows = d_code.max_row_degree() <= 8 && d_code.z() < 64;
            if (tr == 1 && d_pairs && (pairs_forced || !short_rows)) {
                const int one_cw = sh.per_sm * sh.c;
                for (int v : message_vectors()) {
                    launch_shape two;
                    two.vector = v;
                    if (shape_for(1, global, two, true) && two.pairs &&
                        (pairs_forced || two.per_sm * two.c >= one_cw) &&
                        (!sh.pairs || two.per_sm * two.c >= sh.per_sm * sh.c))
                        sh = two;
                }
            }
            if (tr == 1)
                one_lane = sh.resident_threads();
            if (!have || (one_lane < 256 && sh.resident_threads() > d_shape.resident_threads()))
                d_shape = sh;
            have = true;
        }
        // the chain kernel where the code has chain columns and the general kernel would keep its
        // messages in global memory and an SM then holds more codewords, or would run its rows
        // as loops (H200, int8, 10 iterations: DVB-S2 16200 3/4 7.49 Gb/s as loops at four
        // blocks an SM, 12.29 on the chain kernel at two), or no other kernel fits (DVB-S2 64800
        // in int16 up to rate 2/3: its posteriors without the chain bits fit)
        // (ldpc_cuda_chain.cuh); GPUFEC_LDPC_CHAIN=auto|on|off (a tuning aid; on: wherever it
        // applies)
        {
            const std::string want = tuning_choice("GPUFEC_LDPC_CHAIN", { "auto", "on", "off" }, "auto");
            launch_shape ch;
            chain_layout cl;
            if (want != "off" && chain_shape(code, ch, cl) &&
                (want == "on" || !have ||
                 (d_shape.global && !d_shape.shared &&
                  (ch.per_sm > d_shape.per_sm * d_shape.c || d_shape.loops)))) {
                d_shape = ch;
                d_chain = std::move(cl);
                have = true;
            }
        }
        // the layered kernel with split layers (split_layer) where the general kernel would run
        // its rows as loops, and the chain kernel was not taken. Measured on the H200 (int8, 10
        // iterations, 16384 frames, host to host, Gb/s, the general kernel / split layers):
        // DVB-S2 16200 3/5 2.34 / 3.44, 2/3 5.42 / 5.88, 4/5 7.30 / 7.77; but 1/2 8.76 / 3.19 (the
        // general kernel with its messages in shared memory), 5/6 10.2 / 3.1 and 8/9 17.0 / 3.4
        // (rows of 19 and 27, one block an SM);
        // GPUFEC_LDPC_SPLIT=auto|on|off (a tuning aid; on: wherever it applies)
        if (have && d_shape.global && !d_shape.chain && (forced == 0 || forced == 1) &&
            !messages_global && split_wanted(global, d_shape.loops)) {
            launch_shape sp;
            if (shape_for(1, false, sp, false, false, true))
                d_shape = sp;
        }
        if (!have) {
            if (forced)
                throw std::invalid_argument("GPUFEC_LDPC_ROW_THREADS=" + std::to_string(forced) +
                                            ": no kernel spreads this code's rows over that many lanes");
            throw std::invalid_argument("the code is too long for the GPU's shared memory (" +
                                        std::to_string(general_smem(1)) + " bytes a codeword, " +
                                        std::to_string(d_optin) + " a block)");
        }
        if (!d_shape.global) {
            d_table = std::make_unique<gpu_table>();
            std::copy(t->entry, t->entry + d_entries, d_table->entry);
            if (d_shape.pairs) // (bytes of int16x2 words rather than of int16)
                for (int e = 0; e < d_entries; ++e)
                    d_table->entry[e] = make_int2(2 * t->entry[e].x, 2 * t->entry[e].y);
            std::copy(t->layer_start, t->layer_start + code.mb() + 1, d_table->layer_start);
            std::copy(t->layer, t->layer + code.mb() + 1, d_table->layer);
            if (d_shape.split)
                split_table(*d_table, hole_at);
        }
        const void* kernel = d_shape.kernel();
        allow_dynamic_shared(kernel, d_shape.smem, "LDPC GPU decoder");
        // all of the unified L1 / shared memory as shared memory: the layered kernel reads
        // global memory once per codeword and needs no L1 (nor the general one whose messages
        // are in shared memory)
        if (!d_shape.global || d_shape.shared || d_shape.chain)
            GPUFEC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                   int(cudaSharedmemCarveoutMaxShared)));
        d_c = d_shape.c;
        d_threads = d_shape.threads;
        d_per_sm = std::max(1, d_shape.per_sm);
        d_resident = d_per_sm * d_sms;
        // Chunks of half a wave of resident blocks where every codeword runs the same
        // iterations and an SM holds several blocks: the next chunk's copy overlaps this one's
        // kernel, and the kernels of neighbouring chunks fill each other's tails. Measured on
        // the H100 (10 iterations, host to host, Gb/s): 802.11n 1944, 16384 codewords: half a
        // wave 12.24, a wave 11.89, a third 11.60; 4096 codewords: 9.60, 8.85, 9.60. 802.16e
        // 2304, 16384: 14.20, 13.75, 13.58; 4096: 11.15, 10.00, 11.33.
        // With early termination a chunk waits for its slowest codeword, and with one block an
        // SM (the large codes) few chunks run at once: two waves a chunk, four chunks in flight.
        // Measured on the H200 (host to host, Gb/s, half a wave and three chunks / two waves and
        // four): early stop at the waterfall, 50 at most: 5G NR BG1 Z = 384 at 1.2 dB 1.11 /
        // 3.49, DVB-S2 1/2 + BCH at 1.2 dB 1.05 / 1.69, 802.16e 2304 at 2 dB 6.79 / 11.61, AR4JA
        // k = 16384 3.03 / 3.26; 10 iterations: DVB-S2 1/2 + BCH 3.89 / 4.37, NR 4.67 / 4.78.
        const size_t half_wave = std::max<size_t>(size_t(d_resident) / 2, 1) * size_t(d_c);
        const bool wide = d_opts.early_termination || d_per_sm == 1;
        d_per_chunk = d_opts.max_batch > 0 ? size_t(d_opts.max_batch) : wide ? 4 * half_wave : half_wave;
        // Four chunks in flight: with the pair kernel's half2 form the kernels of half-wave chunks
        // finish fast enough that a third chunk's copy no longer covers them. Measured on the
        // H100 (b0d23bd, 10 iterations, 16384 codewords, host to host, Gb/s, 3 / 4 chunks):
        // 802.16e 2304 1/2 17.4-18.0 / 18.4-20.2, 802.11n 1944 1/2 15.4-16.5 / 16.8-17.2, 802.16e
        // 3/4A 27.9-28.3 / 30.6, 802.11n 5/6 29.7-30.3 / 31.8; 4096 codewords the same within the
        // runs' spread (802.16e 13.3-14.3 / 13.1-13.7, 802.11n 11.3-11.8 / 11.5-11.9).
        int slots = 4;
        // tuning aids: GPUFEC_LDPC_CHUNK=<codewords a chunk>, GPUFEC_LDPC_SLOTS=<chunks in flight>
        d_per_chunk = size_t(tuning_int("GPUFEC_LDPC_CHUNK", 1, 1 << 20, int(d_per_chunk)));
        slots = tuning_int("GPUFEC_LDPC_SLOTS", 2, 16, slots);
        d_slots_tuned = std::getenv("GPUFEC_LDPC_SLOTS") != nullptr;
        d_in_stride = size_t(code.n());
        // ports: in 0 channel values; out 0 packed hard bits, out 1 results, out 2 posteriors
        // (made on the first batch that asks for them); scratch 0 the block queue. Every
        // buffer is sized for a full chunk, once.
        const size_t n = size_t(code.n()), cw = d_per_chunk;
        pipeline_layout l;
        l.in = { cw * n };
        l.out = { cw * ((n + 7) / 8), cw * sizeof(frame_status) };
        // scratch 1: the messages of every resident block, where they are in global memory
        l.scratch = { sizeof(int), global_message_bytes() };
        d_pipe = std::make_unique<batch_pipeline>(slots, l);
    }

    bool on_gpu() const override { return true; }
    //! every kernel writes each codeword's status whole (write_results), the BCH its verdicts
    bool writes_whole_status() const override { return true; }

    //! the sent values are put in place as the kernel loads them: runs of copies and fills
    bool take_input_order(const std::vector<input_run>& runs, size_t engine_values, size_t frame_values) override
    {
        if (engine_values != size_t(d_code.n()))
            return false;
        if (runs.size() > size_t(max_input_runs)) {
            // a scattered order (DVB-S2's parity bits, its bit interleaver): a table of where
            // each bit comes from, read as the kernel loads the codeword (measured on the H200,
            // 10 iterations, host to host: DVB-S2 64800 1/2 4.44 Gb/s instead of 2.5 to 2.8
            // with the decoder's CPU pass over every frame; 16200 1/2 5.85 instead of 2.77)
            std::vector<int32_t> from(engine_values);
            for (const input_run& r : runs)
                for (size_t v = 0; v < r.length; ++v)
                    from[r.at + v] = r.from >= 0 ? r.from + int32_t(v) : r.from;
            // (after the table, its load plan, which the chain kernel reads: ldpc_load_plan.h)
            if (const int z = d_code.z(); engine_values % size_t(z) == 0) {
                const std::vector<int32_t> plan = ldpc_load_plan(from, z, int(engine_values) / z, int(frame_values));
                from.insert(from.end(), plan.begin(), plan.end());
            }
            // and, where each sent value goes to one bit at most, where each goes (the
            // kernels that keep the whole codeword in shared memory read the frame in order)
            std::vector<int32_t> to(frame_values, -1), fills;
            bool permutation = true;
            for (size_t v = 0; v < engine_values && permutation; ++v) {
                const int32_t f = from[v];
                if (f < 0)
                    fills.push_back(int32_t(v));
                else if (size_t(f) >= frame_values || to[size_t(f)] >= 0)
                    permutation = false;
                else
                    to[size_t(f)] = int32_t(v);
            }
            device_guard guard(d_device);
            d_use_scatter = permutation;
            if (permutation) {
                to.insert(to.end(), fills.begin(), fills.end());
                d_scatter.assign(to);
                d_scatter_fills = int(fills.size());
            }
            d_gather.assign(from);
            d_use_gather = true;
            d_runs = 0;
            d_in_stride = frame_values;
            return true;
        }
        d_use_gather = false;
        d_use_scatter = false;
        for (size_t r = 0; r < runs.size(); ++r) {
            d_gtab->run_at[r] = int(runs[r].at);
            d_gtab->run_len[r] = int(runs[r].length);
            d_gtab->run_from[r] = runs[r].from;
            if (d_chain.table) {
                d_chain.table->run_at[r] = int(runs[r].at);
                d_chain.table->run_len[r] = int(runs[r].length);
                d_chain.table->run_from[r] = runs[r].from;
            }
            if (d_table) {
                d_table->run_at[r] = int(runs[r].at);
                d_table->run_len[r] = int(runs[r].length);
                d_table->run_from[r] = runs[r].from;
            }
        }
        d_runs = int(runs.size());
        d_in_stride = frame_values;
        return true;
    }

    //! the outer BCH code, decoded on the GPU after each chunk's LDPC kernel (codes/bch_gpu.h)
    bool take_outer(std::shared_ptr<const bch_code> outer, size_t at) override
    {
        d_bch = make_bch_gpu(*outer, d_device);
        d_bch_n = outer->n();
        d_bch_k = outer->k();
        d_bch_at = at;
        // eight chunks in flight: the outer code's short kernel after each chunk's LDPC kernel
        // leaves the SMs idle unless more chunks wait behind it. Measured on the H200 (4221f7c,
        // DVB-S2 64800 1/2, 4096 frames, int8, 10 iterations, host to host, Gb/s, 4 / 8 chunks in
        // flight): with the BCH 4.63-4.66 / 5.01-5.09, without it 5.28-5.29 / 5.29 (so only here)
        if (!d_slots_tuned) {
            device_guard guard(d_device);
            d_pipe->add_slots(8);
        }
        return true;
    }

    bool writes_outer_message() const override { return d_bch && d_bch_k % 8 == 0; }

    std::string name() const override
    {
        return d_name + " layered " + (d_int8 ? "int8" : "int16") + ", " + std::to_string(d_c) + " cw/block, " +
               std::to_string(d_per_sm) + " blocks/SM" + (d_shape.pairs ? ", 2 codewords a thread" : "") +
               (d_shape.pairs && d_pair_half ? " in fp16 arithmetic" : "") +
               (d_shape.vector > 1 ? ", " + std::to_string(d_shape.vector) + " messages a load" : std::string()) +
               (d_shape.profiled ? ", layers compiled in" : "") + (d_shape.split ? ", split layers" : "") +
               (d_shape.tr > 1 ? ", " + std::to_string(d_shape.tr) + " lanes a row" : std::string()) +
               (d_shape.chain ? ", chain kernel (parity chain in registers, " + std::to_string(d_chain.chains) +
                                     " chain columns, registers bounded for " +
                                     std::to_string(d_chain.bounded_for) + " blocks an SM)"
                : !d_shape.global ? ""
                                 : std::string(d_shape.shared ? ", general kernel, messages in shared memory"
                                                              : ", messages in global memory") +
                                       (d_shape.packed ? " (packed rows)" : "") + (d_shape.loops ? ", rows as loops" : ""));
    }

    void decode(const int8_t* soft, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                float* post) override
    {
        run_batch(reinterpret_cast<const uint8_t*>(soft), false, frames, packed, out_bits, res, post);
    }

    //! packed 4-bit input is read where the kernels load a codeword (load_group): half the bytes
    //! over the link (frames of an even number of values: batch_decoder checks it)
    bool takes_soft4() const override { return true; }
    void decode_soft4(const uint8_t* soft4, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                      float* post) override
    {
        run_batch(soft4, true, frames, packed, out_bits, res, post);
    }

    //! frames of int8 values, or (soft4) of packed 4-bit ones, through the pipeline
    void run_batch(const uint8_t* soft, bool soft4, size_t frames, uint8_t* packed, int out_bits, frame_status* res,
                   float* post)
    {
        if (frames == 0)
            return;
        device_guard guard(d_device);
        const size_t n = size_t(d_code.n()), in = soft4 ? d_in_stride / 2 : d_in_stride;
        const size_t per_chunk = d_per_chunk;
        const int64_t nchunks = int64_t((frames + per_chunk - 1) / per_chunk);
        const bool want_post = post != nullptr;
        // the outer code's messages as the output (writes_outer_message): the decisions in the
        // slot's scratch, the BCH writes each frame's message to the output
        const bool messages = writes_outer_message() && out_bits == d_bch_k;
        const int kernel_bits = messages ? d_bch_n + 8 * int(d_bch_at) : out_bits;
        if (d_bch && size_t(kernel_bits) != size_t(d_bch_n) + 8 * d_bch_at)
            throw std::logic_error("LDPC GPU decoder: the outer code's " + std::to_string(d_bch_n) +
                                   " bits are not the " + std::to_string(out_bits) + " it writes");
        const size_t nbytes = (size_t(out_bits) + 7) / 8, kernel_bytes = (size_t(kernel_bits) + 7) / 8;
        if (want_post && d_pipe->layout().out.size() < 3)
            d_pipe->grow({ {}, { 0, 0, per_chunk * n * sizeof(float) }, {} });
        if (messages && (d_pipe->layout().scratch.size() < 3 || d_pipe->layout().scratch[2] < per_chunk * kernel_bytes))
            d_pipe->grow({ {}, {}, { 0, 0, per_chunk * kernel_bytes } });
        std::vector<gpu_params>& params = d_params; // (kept: no allocation per batch)
        params.resize(static_cast<size_t>(nchunks));
        d_pipe->run(
            nchunks,
            [&](int64_t c) {
                const size_t a = size_t(c) * per_chunk, b = std::min(frames, a + per_chunk);
                params[size_t(c)] = base_params(int(b - a), kernel_bits, want_post, soft4 ? 4 : 8);
                chunk_io io;
                io.in[0] = soft + a * in;
                io.in_bytes[0] = (b - a) * in;
                io.out[0] = packed + a * nbytes;
                io.out_bytes[0] = (b - a) * nbytes;
                io.out[1] = res + a;
                io.out_bytes[1] = (b - a) * sizeof(frame_status);
                if (want_post) {
                    io.out[2] = post + a * n;
                    io.out_bytes[2] = (b - a) * n * sizeof(float);
                }
                return io;
            },
            [&](int64_t c, const slot_view& v) {
                uint8_t* decisions = messages ? v.scratch_as<uint8_t>(2) : v.output<uint8_t>(0);
                launch(params[size_t(c)], v.input<const int8_t>(0), decisions, v.output<frame_status>(1),
                       v.output<float>(2), v.scratch_as<void>(1), v.scratch_as<int>(0), v.stream);
                if (d_bch)
                    d_bch->decode(decisions + d_bch_at, kernel_bytes, size_t(params[size_t(c)].frames),
                                  v.output<frame_status>(1), nullptr, v.stream,
                                  messages ? v.output<uint8_t>(0) : nullptr, messages ? nbytes : 0);
            });
    }

    double time_kernels(const int8_t* soft, size_t frames, int reps) override
    {
        device_guard guard(d_device);
        const gpu_params g = base_params(int(frames), d_code.k(), false);
        device_buffer<int8_t> in(frames * d_in_stride);
        device_buffer<uint8_t> out(frames * size_t(g.nbytes));
        device_buffer<frame_status> results(frames);
        device_buffer<int> queue(1);
        device_buffer<int8_t> msgs(std::max<size_t>(global_message_bytes(), 1));
        cuda_stream st;
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(in.get(), soft, frames * d_in_stride, cudaMemcpyHostToDevice, st.get()));
        return time_on_stream(st.get(), reps, [&] {
            launch(g, in.get(), out.get(), results.get(), nullptr, msgs.get(), queue.get(), st.get());
            if (d_bch && size_t(d_bch_n) + 8 * d_bch_at == size_t(d_code.k()))
                d_bch->decode(out.get() + d_bch_at, size_t(g.nbytes), frames, results.get(), nullptr, st.get());
        });
    }

private:
    //! the layered kernel's message slots a thread for TR lanes a row: ceil(d / TR) a layer;
    //! or (pair_vector > 0: the pair kernel's int8x2 slots) d rounded up to pair_vector, with
    //! S * 2 / 8 odd where pair_vector is 4, else S * 2 / 4 (conflict-free rows)
    int layered_slots(int tr, int pair_vector = 0) const
    {
        const int v = std::max(pair_vector, 1);
        int slots = 0;
        for (int l = 0; l < d_code.mb(); ++l)
            slots += layer_slots((d_gtab->layer_start[l + 1] - d_gtab->layer_start[l] + tr - 1) / tr, v);
        if (pair_vector == 4) // (each layer's slots a multiple of 4 already)
            return (slots / 4) % 2 == 0 ? slots + 4 : slots;
        if (pair_vector > 0)
            return msg_stride<uint16_t>(slots); // (even)
        return d_int8 ? msg_stride<int8_t>(slots) : msg_stride<int16_t>(slots);
    }

    //! each layer's table entries (its row degree)
    std::vector<int> layer_degrees() const
    {
        std::vector<int> d(size_t(d_code.mb()));
        for (int l = 0; l < d_code.mb(); ++l)
            d[size_t(l)] = d_gtab->layer_start[l + 1] - d_gtab->layer_start[l];
        return d;
    }

    /*! The message slots a shared-memory access the pair kernel may take: 1, and in half2
     *  arithmetic 4 (half_slots), which the engine takes where it keeps as many codewords an SM.
     *  Measured on the H100 (int8, 10 iterations, 16384 codewords, kernels, Gb/s, 1 / 2 / 4 a
     *  load): 802.11n 1944 1/2 20.5 / 21.1 / 21.2 (18 codewords an SM each), 5/6 39.8 / - /
     *  41.4; 802.16e 2304 1/2 23.0 / 22.1 / 22.3 (the padding to 4 leaves 16 codewords an SM
     *  instead of 18), 5/6 41.5 / - / 43.1. GPUFEC_LDPC_MSG_VECTOR=auto|1|4 (a tuning aid). */
    std::vector<int> message_vectors() const
    {
        if (!d_pair_half)
            return { 1 };
        const std::string want = tuning_choice("GPUFEC_LDPC_MSG_VECTOR", { "auto", "1", "4" }, "auto");
        if (want != "auto")
            return { std::stoi(want) };
        return { 1, 4 };
    }

    //! the general kernel's: ceil(d / TR) a sub-layer
    int general_slots(int tr) const
    {
        int slots = 0;
        for (int l = 0; l < d_code.mb(); ++l)
            slots += d_code.row_stride(l) * ((d_gtab->layer_start[l + 1] - d_gtab->layer_start[l] + tr - 1) / tr);
        return slots;
    }

    //! the general kernel's message slots where it packs a row's in words of maxd slots
    //! (packed_row_words): maxd a sub-layer
    int packed_slots(int maxd) const
    {
        int steps = 0;
        for (int l = 0; l < d_code.mb(); ++l)
            steps += d_code.row_stride(l);
        return steps * maxd;
    }

    //! the general kernel's shared memory for c codewords a block, and (SHARED kernels) the S
    //! message slots of each of its `threads` threads
    size_t general_smem(int c, int threads = 0, int S = 0) const
    {
        return d_int8 ? general_smem_bytes<int16_t, int8_t>(d_gstride, c, threads, S)
                      : general_smem_bytes<int32_t, int16_t>(d_gstride, c, threads, S);
    }

    /*! The general kernel's messages in shared memory (a SHARED kernel, one lane a row) where
     *  they fit and the SM keeps at least half its blocks and 256 threads. Measured on the H200
     *  (int8, 10 iterations, host to host, Gb/s, messages in global memory / in shared memory,
     *  blocks an SM): AR4JA k = 16384 rate 1/2 7.7 / 9.2 (2 / 1), 2/3 9.8 / 12.1 (1 / 1), DVB-S2
     *  16200 1/4 2.72 / 2.98, 1/3 4.70 / 5.14, 1/2 6.25-6.30 / 7.45, 7/15 3.96 / 4.40 (4 / 2),
     *  telecommand (128, 64) 4.1-4.2 / 5.0-5.5 (24 / 24; kernels 5.07 / 8.77), (512, 256) 4.7-4.9
     *  / 9.7-10.1 (24 / 24); but DVB-S2 16200 2/3, 3/4, 4/5 (rows as loops; 4 / 1) 5.09 / 3.48,
     *  7.05 / 4.27, 6.98 / 4.11, and 5/6 went from 8.58 to 5.61 where its 120 threads an SM made
     *  the engine spread rows over lanes. Tuning aid GPUFEC_LDPC_GENERAL_MESSAGES=auto|shared|
     *  global (`shared`: wherever they fit). */
    void shared_messages(launch_shape& sh) const
    {
        const std::string want = tuning_choice("GPUFEC_LDPC_GENERAL_MESSAGES", { "auto", "shared", "global" }, "auto");
        const int lane_degree = (d_code.max_row_degree() + sh.tr - 1) / sh.tr;
        if (want == "global" || sh.tr != 1)
            return;
        const int one_lane = general_slots(1);
        const int slots = d_int8 ? msg_stride<int8_t>(one_lane) : msg_stride<int16_t>(one_lane); // (conflict-free)
        const size_t bytes = general_smem(sh.c, sh.threads, slots);
        general_fn f = pick_general(d_int8, d_holes > 0, 1, sh.loops ? 0 : lane_degree, false, true);
        if (bytes > d_optin || !f)
            return;
        int resident = resident_blocks(reinterpret_cast<const void*>(f), sh.threads, bytes);
        if (!sh.loops && lane_degree <= 8) { // (a block alone on its SM may have all the registers)
            const general_fn wide = pick_general(d_int8, d_holes > 0, 1, lane_degree, true, true);
            const int resident_wide = resident_blocks(reinterpret_cast<const void*>(wide), sh.threads, bytes);
            if (resident_wide >= resident) {
                f = wide;
                resident = resident_wide;
            }
        }
        if (want == "auto" && (2 * resident < sh.per_sm || resident * sh.threads < 256))
            return;
        if (resident == 0)
            return;
        sh.general = f;
        sh.shared = true;
        sh.packed = false;
        sh.slots = slots;
        sh.smem = bytes;
        sh.per_sm = resident;
    }

    /*! Whether to try split layers (split_layer): int8, a code the general kernel takes for its
     *  sub-layers or missing entries (the caller leaves out GPUFEC_LDPC_MESSAGES=global), whose layers
     *  have at most split_shared_entries entries that share a block column; by itself (`auto`)
     *  where that kernel runs its rows as loops (`loops`) and the lone entries are at least half
     *  of the entries of the layers of several sub-layers (C2 shares every block column: nothing
     *  would run at once). */
    bool split_wanted(bool global, bool loops) const
    {
        const std::string want = tuning_choice("GPUFEC_LDPC_SPLIT", { "auto", "on", "off" }, "auto");
        if (want == "off" || !global || !d_int8)
            return false;
        int lone = 0, entries = 0;
        for (int l = 0; l < d_code.mb(); ++l) {
            const std::vector<int> alone = lone_entries(l);
            const int n_lone = int(std::count(alone.begin(), alone.end(), 1));
            if (int(alone.size()) - n_lone > split_shared_entries)
                return false;
            if (d_code.row_stride(l) > 1) {
                lone += n_lone;
                entries += int(alone.size());
            }
        }
        return want == "on" || (loops && 2 * lone >= entries);
    }

    //! for each entry of layer l (table order): 1 where it is alone in its block column
    std::vector<int> lone_entries(int l) const
    {
        const int first = d_gtab->layer_start[l], last = d_gtab->layer_start[l + 1];
        std::vector<int> lone(size_t(last - first), 1);
        for (int a = first; a < last; ++a)
            for (int b = first; b < last; ++b)
                if (a != b && d_gtab->entry[a].y == d_gtab->entry[b].y)
                    lone[size_t(a - first)] = 0;
        return lone;
    }

    /*! The layered kernel's table for split layers: each layer's shared entries first (their
     *  count: gpu_table::shared), the missing entries' places in that order (hole_at: their
     *  table indices before it), and a barrier after every layer of several sub-layers and
     *  before one (the lone entries of all of its sub-layers are read at its start and written
     *  at its end, so the steps the schedule lets follow without a barrier may not). */
    void split_table(gpu_table& tab, const std::vector<int>& hole_at) const
    {
        tab.holes = d_holes;
        for (int l = 0; l < d_code.mb(); ++l) {
            const int first = d_gtab->layer_start[l];
            const std::vector<int> lone = lone_entries(l);
            std::vector<int> order; // table indices in the new order
            for (int pass = 0; pass <= 1; ++pass)
                for (size_t i = 0; i < lone.size(); ++i)
                    if (lone[i] == pass)
                        order.push_back(first + int(i));
            for (size_t i = 0; i < order.size(); ++i) {
                tab.entry[first + int(i)] = d_gtab->entry[order[i]];
                for (int h = 0; h < d_holes; ++h)
                    if (hole_at[size_t(h)] == order[i])
                        tab.hole_entry[h] = int(i);
            }
            tab.shared[l] = uint8_t(std::count(lone.begin(), lone.end(), 0));
            const bool next_split = l + 1 < d_code.mb() && d_code.row_stride(l + 1) > 1;
            const layer_word w{ d_gtab->layer[l] };
            const bool free_next = w.free_next() && d_code.row_stride(l) == 1 && !next_split;
            tab.layer[l] = make_layer_word(w.first(), w.entries(), free_next, w.free_inner(), w.holed(), w.stride());
        }
        for (int h = 0; h < d_holes; ++h) {
            tab.hole_layer[h] = d_gtab->hole_layer[h];
            tab.hole_row[h] = d_gtab->hole_row[h];
        }
    }

    size_t smem(const launch_shape& sh, int c) const
    {
        if (sh.global)
            return general_smem(c);
        if (sh.pairs) // (c pairs)
            return pair_smem_bytes(d_code.n(), d_code.z(), sh.slots, c, d_code.mb());
        const int threads = sh.tr * d_code.z();
        return d_int8 ? smem_bytes<int16_t, int8_t>(d_code.n(), threads, sh.slots, c, d_code.mb())
                      : smem_bytes<int32_t, int16_t>(d_code.n(), threads, sh.slots, c, d_code.mb());
    }

    int resident_blocks(const void* kernel, int threads, size_t bytes) const
    {
        allow_dynamic_shared(kernel, bytes, "LDPC GPU decoder");
        int per_sm = 0;
        GPUFEC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, bytes));
        return per_sm;
    }

    /*! The launch for TR lanes a row, messages in global memory or (where they fit) shared, with
     *  two codewords a thread where `pairs` and a pair fits; false where no kernel applies. */
    bool shape_for(int tr, bool global, launch_shape& sh, bool pairs = false, bool profile = true,
                   bool split = false) const
    {
        // threads a block (the kernels' launch bounds); split layers: a thread for each row of a
        // layer
        const int bound = split ? split_threads : tr == 1 ? 512 : 1024;
        const int lane_degree = (d_code.max_row_degree() + tr - 1) / tr, cwt = tr * (split ? d_code.z() : d_rows);
        if (cwt > bound || (tr > 1 && lane_degree < 2))
            return false;
        sh.tr = tr;
        sh.global = global;
        sh.split = split;
        if (!sh.global) {
            sh.slots = layered_slots(tr);
            sh.global = smem(sh, 1) > d_optin; // (the messages do not fit)
            if (split && sh.global)
                return false;
        }
        if (sh.global) {
            sh.slots = general_slots(tr);
            if (smem(sh, 1) > d_optin)
                return false; // (the posteriors alone do not fit: DVB-S2 64800 in int16)
            // rows unrolled (held in registers) unless registers then cut the codewords an SM
            // holds to a quarter of what the loop form keeps (measured on the H200, 10
            // iterations: DVB-S2 9/10 held 3.9 Gb/s, loops 1.1, both one codeword an SM; C2
            // held 1.9, loops 0.8; 5G NR Z = 384 int8 held 2.4 at one codeword an SM, loops
            // 2.7 at four)
            sh.general = pick_general(d_int8, d_holes > 0, tr, lane_degree);
            if (!sh.general)
                return false;
            // rows unrolled to 8, 16 or 32 bytes of messages keep them packed, a row's in one
            // piece a sub-layer (packed_row_words), except where one lane a row of up to 8
            // entries fills less than 7/8 of its piece and a block is alone on its SM (DVB-S2
            // 64800 at low rates: their messages then crowd the L2 cache). Measured on the H200
            // (int8, 10 iterations, host to host, Gb/s, one a slot / packed): DVB-S2 64800 1/4
            // 2.11 / 1.70, 1/3 2.78 / 2.30, 2/5 3.44 / 3.21, 1/2 4.71 / 5.11; the kernels for
            // 16 and 32 entries come packed only (2/3 7.02 / 6.52, 3/5 3.23 / 3.90, 8/9 6.84 /
            // 9.62). GPUFEC_LDPC_PACKED=auto|on|off (a tuning aid: off and on choose for those
            // rows)
            const std::string want = tuning_choice("GPUFEC_LDPC_PACKED", { "auto", "on", "off" }, "auto");
            const bool pack_wide = want == "on" || (want == "auto" && lane_degree >= 7);
            bool wide_kernel = false;
            if (tr == 1) {
                const int threads = (d_rows + 31) / 32 * 32;
                auto resident = [&](general_fn f) {
                    return resident_blocks(reinterpret_cast<const void*>(f), threads, smem(sh, 1));
                };
                const general_fn loops = pick_general(d_int8, d_holes > 0, 1, 0);
                if (resident(loops) >= 4 * std::max(1, resident(sh.general))) {
                    sh.general = loops;
                    sh.loops = true;
                } else if (const general_fn wide =
                               pick_general(d_int8, d_holes > 0, 1, lane_degree, true, false, pack_wide);
                           resident(wide) >= resident(sh.general)) {
                    // as many blocks an SM (shared memory holds one) without spilled registers
                    // (H200, int8, 10 iterations: DVB-S2 64800 1/2 2.74 Gb/s instead of 1.82)
                    sh.general = wide;
                    wide_kernel = lane_degree <= 8;
                }
            }
            const int maxd = sh.loops ? 0 : lane_degree <= 8 ? 8 : lane_degree <= 16 ? 16 : 32;
            sh.packed = (d_int8 ? packed_row_words<int8_t>(maxd) : packed_row_words<int16_t>(maxd)) > 0 &&
                        (!wide_kernel || pack_wide);
            if (sh.packed)
                sh.slots = packed_slots(maxd);
        } else {
            // two codewords a thread where a pair's values fit
            if (tr == 1 && pairs) {
                sh.pairs = true;
                sh.slots = layered_slots(1, sh.vector);
                if (smem(sh, 1) > d_optin) {
                    sh.pairs = false;
                    sh.slots = layered_slots(1);
                }
            }
            if (!sh.pairs)
                sh.vector = 1;
            sh.layered = split      ? split_kernel_for(lane_degree)
                         : sh.pairs ? pair_kernel_for(lane_degree, d_pair_half, sh.vector)
                                    : pick_kernel(d_int8, tr, lane_degree);
            if (sh.pairs && d_pair_half && d_layer_profiles)
                if (const kernel_fn f = pair_kernel_for_profile(layer_degrees(), sh.vector)) {
                    sh.layered = f;
                    sh.profiled = true;
                }
            if (!sh.pairs && tr == 1 && d_int8 && d_layer_profiles && profile)
                if (const kernel_fn f = layered_kernel_for_profile(layer_degrees())) {
                    sh.layered = f;
                    sh.profiled = true;
                }
            if (!sh.layered)
                return false;
        }
        if (smem(sh, 1) > d_optin)
            return false;
        // codewords per block C: the most codewords resident per SM, weighted by the share of
        // each block's threads that do work (C * TR * R of a whole number of warps); ties go to
        // the smaller block (its per-layer synchronisation is cheaper). Measured on the H100
        // for Z = 81 (802.11n 1944): C = 3 8.9 Gb/s, C = 5 (fewest idle threads) 7.8, C = 1 8.2.
        // The pair kernel: c counts pairs (R threads each), C = 2c.
        const size_t smem_limit = std::min<size_t>(d_optin, 100 << 10);
        const void* kernel = sh.kernel();
        int best = 1;
        double best_score = -1.0;
        for (int c = 1; c * cwt <= bound; ++c) {
            if (smem(sh, c) > smem_limit && c > 1)
                break;
            const int t = c * cwt, padded = (t + 31) / 32 * 32;
            const double score = double(resident_blocks(kernel, padded, smem(sh, c))) * c * t / padded;
            if (score > best_score + 1e-9) {
                best_score = score;
                best = c;
            }
        }
        // tuning aid: GPUFEC_LDPC_CW_PER_BLOCK=C forces the codewords per block (pairs: C / 2
        // pairs, at least one), as many as fit the block's threads where a shape takes fewer (the
        // engine weighs the shapes of several lanes a row too)
        const int per_unit = sh.pairs ? 2 : 1, most = std::max(1, bound / cwt);
        const int units = std::min(most, std::max(1, tuning_int("GPUFEC_LDPC_CW_PER_BLOCK", 1, 2 * 1024,
                                                                per_unit * best) / per_unit));
        sh.smem = smem(sh, units);
        if (sh.smem > d_optin)
            return false;
        sh.c = per_unit * units;
        sh.threads = (units * cwt + 31) / 32 * 32;
        sh.per_sm = resident_blocks(kernel, sh.threads, sh.smem);
        // the one-codeword kernel compiled for the code's layers where an SM holds at most
        // three of its blocks, else the loop. Measured on the H200 (5G NR BG1, int8, 10
        // iterations, host to host, Gb/s, compiled in / loop; blocks an SM): Z = 384 6.15-6.17 /
        // 4.81 (1), Z = 256 4.94 / 3.91 (1), Z = 128 5.54-5.57 / 5.49 (3; kernels 6.45 / 5.70),
        // Z = 64 4.68-4.79 / 5.88 (7). (A reading, not measured: its 46 unrolled layers are
        // far more code than the loop's rows, and blocks walking different layers at once
        // crowd the instruction cache.)
        if (sh.profiled && !sh.pairs && sh.per_sm > max_profiled_blocks) {
            sh = launch_shape{};
            return shape_for(tr, global, sh, pairs, false, split);
        }
        if (sh.global && sh.per_sm > 0)
            shared_messages(sh);
        return sh.per_sm > 0;
    }
    static constexpr int max_profiled_blocks = 3; // (shape_for)

    /*! The chain kernel's shape and layout where it applies:
     *  int8, at most 384 rows, at least one chain column (a block column of two entries of one
     *  shift in consecutive layers of one sub-layer each, neither missing; a layer has at most
     *  one arriving and one leaving), and rows of at most 16 entries. */
    bool chain_shape(const ldpc_code& code, launch_shape& sh, chain_layout& layout) const
    {
        const int z = code.z(), mb = code.mb(), tsize = d_int8 ? 2 : 4;
        if (z > 384 || code.n() % z != 0 || code.n() / z > max_chain_columns)
            return false;
        const general_table& g = *d_gtab;
        const int nb = code.n() / z;
        struct use {
            int layer, shift;
            bool missing;
        };
        std::vector<std::vector<use>> uses(static_cast<size_t>(nb));
        std::vector<int> hole_of_entry(static_cast<size_t>(d_entries), -1); // the missing entries
        for (int h = 0; h < d_holes; ++h)
            hole_of_entry[size_t(g.layer_start[g.hole_layer[h]] + g.hole_entry[h])] = h;
        for (int l = 0; l < mb; ++l)
            for (int e = g.layer_start[l]; e < g.layer_start[l + 1]; ++e)
                uses[size_t(g.entry[e].y / (z * tsize))].push_back({ l, g.entry[e].x / tsize,
                                                                     hole_of_entry[size_t(e)] >= 0 });
        std::vector<int> chain_of(size_t(nb), -1), in_of(size_t(mb), -1), out_of(size_t(mb), -1);
        int chains = 0;
        for (int b = 0; b < nb; ++b) {
            const auto& x = uses[size_t(b)];
            if (x.size() != 2 || x[0].missing || x[1].missing || x[0].layer + 1 != x[1].layer ||
                x[0].shift != x[1].shift || code.row_stride(x[0].layer) != 1 || code.row_stride(x[1].layer) != 1 ||
                in_of[size_t(x[0].layer)] >= 0 || out_of[size_t(x[1].layer)] >= 0)
                continue;
            chain_of[size_t(b)] = chains;
            in_of[size_t(x[0].layer)] = chains;
            out_of[size_t(x[1].layer)] = chains;
            ++chains;
        }
        if (chains == 0)
            return false;
        auto t = std::make_unique<chain_table>();
        std::vector<bool> apart(static_cast<size_t>(nb));
        int shared = 0;
        for (int b = 0; b < nb; ++b) {
            apart[size_t(b)] = chain_of[size_t(b)] >= 0;
            t->column[b] = int16_t(apart[size_t(b)] ? -1 - chain_of[size_t(b)] : shared++);
        }
        const std::vector<bool> free = ldpc_steps_free_of_previous(code, apart);
        const bool keep_all = tuning_choice("GPUFEC_LDPC_BARRIERS", { "needed", "all" }, "needed") == "all";
        const int threads = (z + 31) / 32 * 32, steps = int(free.size());
        if (steps < 4 || steps + 1 > max_chain_steps)
            return false;
        int entries = 0, most = 0, step = 0;
        for (int l = 0; l < mb; ++l) {
            const int first = entries, stride = code.row_stride(l);
            bool holed = false;
            for (int e = g.layer_start[l]; e < g.layer_start[l + 1]; ++e) {
                const int b = g.entry[e].y / (z * tsize);
                if (chain_of[size_t(b)] >= 0)
                    continue;
                if (const int h = hole_of_entry[size_t(e)]; h >= 0) {
                    t->hole_layer[h] = step + g.hole_row[h] % stride; // (the step of the row)
                    t->hole_row[h] = g.hole_row[h];
                    t->hole_entry[h] = entries - first;
                    holed = true;
                }
                t->entry[entries++] = make_int2(g.entry[e].x, t->column[b] * z * tsize);
            }
            const int d = entries - first;
            if (d < 1)
                return false;
            // (slots d and d + 1 for the chain bits where the layer has any: chain_row)
            most = std::max(most, in_of[size_t(l)] >= 0 || out_of[size_t(l)] >= 0 ? d + 2 : d);
            for (int c = 0; c < stride; ++c, ++step) {
                const bool next = step + 1 < steps && free[size_t(step + 1)];
                bool step_holed = false;
                for (int h = 0; h < d_holes; ++h)
                    step_holed |= holed && g.hole_layer[h] == l && g.hole_row[h] % stride == c;
                // (chain columns lie in layers of one sub-layer only; their offsets in the
                // block's region are known once the region's layout is, below)
                t->step[step] = make_int4(int(make_layer_word(first, d, next && !keep_all, false, step_holed, stride)),
                                          c, in_of[size_t(l)], out_of[size_t(l)]);
            }
        }
        // an even number of steps (the kernel takes them two at a time): an empty one at the
        // end where needed, no row (c = Z), no entry, no barrier after it (the iteration's end
        // has its own)
        int all = steps;
        if (all % 2)
            t->step[all++] = make_int4(int(make_layer_word(0, 0, true, false, false, 1)), z, -1, -1);
        t->steps = all;
        const int maxs = most <= 8 ? 8 : most <= 16 ? 16 : 0;
        if (maxs == 0)
            return false;
        // the block's region: its rows' messages step by step, then its chain bits (the kernel
        // addresses both in bytes from the region's start)
        const int msize = d_int8 ? 1 : 2;
        t->block_bytes = unsigned(d_int8 ? chain_block_bytes<int16_t, int8_t>(threads, all, maxs, chains)
                                         : chain_block_bytes<int32_t, int16_t>(threads, all, maxs, chains));
        t->chain_at = unsigned(align16(size_t(threads) * all * maxs * msize));
        auto chain_offset = [&](int c) { return c < 0 ? -1 : int(t->chain_at) + c * threads * tsize; };
        for (int k = 0; k < all; ++k) {
            t->step[k].z = chain_offset(t->step[k].z);
            t->step[k].w = chain_offset(t->step[k].w);
        }
        // (a chain bit leaves in the step after the one it arrives in, which the kernel's test
        // after an iteration counts on: it reads each bit once)
        for (int k = 1; k < all; ++k)
            if (t->step[k].w >= 0 && t->step[k - 1].z != t->step[k].w)
                return false;
        for (int k = 0; k < all; ++k) {
            const int after = (k + 1) % all;
            t->ahead[k] = make_int2(t->step[after].z, after * threads * maxs * msize);
        }
        const int gstride = shared * z + (d_holes ? 8 : 0);
        const size_t bytes = d_int8 ? chain_smem_bytes<int16_t>(gstride) : chain_smem_bytes<int32_t>(gstride);
        if (bytes > d_optin)
            return false;
        // three blocks an SM by registers where that compiles without spilling and shared memory
        // holds three, else two; GPUFEC_LDPC_CHAIN_BLOCKS=2|3 (a tuning aid)
        const int forced = std::stoi(tuning_choice("GPUFEC_LDPC_CHAIN_BLOCKS", { "0", "2", "3" }, "0"));
        chain_fn f = pick_chain(d_int8, maxs, d_holes > 0, 2);
        int bounded_for = 2;
        if (const chain_fn three = pick_chain(d_int8, maxs, d_holes > 0, 3); three && three != f && forced != 2) {
            cudaFuncAttributes a{};
            GPUFEC_CUDA_CHECK(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(three)));
            if (forced == 3 || (a.localSizeBytes == 0 &&
                                resident_blocks(reinterpret_cast<const void*>(three), threads, bytes) >
                                    resident_blocks(reinterpret_cast<const void*>(f), threads, bytes))) {
                f = three;
                bounded_for = 3;
            }
        }
        if (!f)
            return false;
        sh = launch_shape{};
        sh.global = true;
        sh.chain = f;
        sh.c = 1;
        sh.threads = threads;
        sh.smem = bytes;
        sh.per_sm = resident_blocks(reinterpret_cast<const void*>(f), threads, bytes);
        // (the kernel addresses every resident block's region by 32-bit offsets)
        if (sh.per_sm == 0 || double(sh.per_sm) * d_sms * t->block_bytes > double(UINT32_MAX))
            return false;
        layout.table = std::move(t);
        layout.chains = chains;
        layout.gstride = gstride;
        layout.bounded_for = bounded_for;
        return true;
    }

    //! the messages of every resident block, where they are in global memory
    size_t global_message_bytes() const
    {
        if (d_shape.chain)
            return size_t(d_resident) * d_chain.table->block_bytes;
        return d_shape.global && !d_shape.shared ? size_t(d_resident) * d_threads * size_t(d_shape.slots) * (d_int8 ? 1 : 2)
                                                 : 0;
    }

    gpu_params base_params(int frames, int out_bits, bool want_post, int soft_bits = 8) const
    {
        gpu_params g{};
        g.n = d_code.n();
        g.in_stride = int(d_in_stride);
        g.soft_bits = soft_bits;
        g.runs = d_runs;
        g.gather = d_use_gather ? d_gather.get() : nullptr;
        g.scatter = d_use_gather && d_use_scatter ? d_scatter.get() : nullptr;
        g.scatter_fills = d_scatter_fills;
        g.z = d_code.z();
        g.mb = d_code.mb();
        g.cw_per_block = d_c;
        g.msg_stride = d_shape.slots;
        g.frames = frames;
        g.groups = (frames + d_c - 1) / d_c;
        g.max_iter = d_opts.max_iterations;
        g.early_termination = d_opts.early_termination;
        g.want_post = want_post;
        g.fx = ldpc_fixed_point(d_code, d_opts);
        g.out_bits = out_bits;
        g.nbytes = (out_bits + 7) / 8;
        return g;
    }

    void launch(const gpu_params& g, const int8_t* in, uint8_t* out, frame_status* results, float* post,
                void* msgs, int* queue, cudaStream_t st) const
    {
        GPUFEC_CUDA_CHECK(cudaMemsetAsync(queue, 0, sizeof(int), st));
        const unsigned grid = unsigned(std::min(g.groups, d_resident));
        const size_t bytes = d_shape.smem;
        if (d_shape.chain) {
            const general_params gp{ g, d_code.z(), d_holes, d_chain.gstride };
            d_shape.chain<<<grid, d_threads, bytes, st>>>(gp, *d_chain.table, in, out, results, post, msgs, queue);
        } else if (d_shape.global) {
            const general_params gp{ g, d_rows, d_holes, d_gstride };
            d_shape.general<<<grid, d_threads, bytes, st>>>(gp, *d_gtab, in, out, results, post, msgs, queue);
        } else {
            d_shape.layered<<<grid, d_threads, bytes, st>>>(g, *d_table, in, out, results, post, queue);
        }
        GPUFEC_CUDA_CHECK_LAUNCH("ldpc_layered_kernel");
    }

    ldpc_code d_code;
    ldpc_options d_opts;
    int d_device;
    std::string d_name;
    int d_sms = 1, d_entries = 0, d_c = 1, d_threads = 32, d_resident = 1, d_per_sm = 1;
    int d_rows = 0;  // R: the most rows of a sub-layer (TR * R threads a codeword)
    int d_holes = 0; // missing entries in the table
    int d_gstride = 0; // posteriors a codeword in shared memory (n, + the sink where holes)
    bool d_int8 = false;
    bool d_pairs = false; // the pair kernel where it applies (ldpc_cuda_pairs.cuh)
    bool d_pair_half = false; // its rows in half2 arithmetic (pair_row_half)
    bool d_layer_profiles = true; // its kernels compiled for a code's layers where one is (layer_profile)
    size_t d_optin = 0;   // shared memory a block may have
    launch_shape d_shape; // the kernel and how it is launched
    std::unique_ptr<gpu_table> d_table;      // the layered kernel's, passed by value at each launch
    std::unique_ptr<general_table> d_gtab;   // the general kernel's (the engine's description)
    chain_layout d_chain;                    // the chain kernel's table, where it runs
    size_t d_per_chunk = 1;
    bool d_slots_tuned = false; // GPUFEC_LDPC_SLOTS set: the chunks in flight as it says
    size_t d_in_stride = 0; // soft values a codeword in the input (n unless take_input_order)
    int d_runs = 0;
    device_buffer<int32_t> d_gather; // where used: bit v is sent value d_gather[v] (or a fill); its load plan after it
    bool d_use_gather = false;
    device_buffer<int32_t> d_scatter; // where the gather is a permutation: gpu_params::scatter
    bool d_use_scatter = false;
    int d_scatter_fills = 0;
    std::unique_ptr<batch_pipeline> d_pipe;
    std::vector<gpu_params> d_params; // per chunk of the batch being run
    std::unique_ptr<bch_gpu> d_bch;   // the outer code, where the engine took it
    int d_bch_n = 0, d_bch_k = 0;
    size_t d_bch_at = 0; // its codeword's first byte in each codeword's decisions
};

} // namespace

std::unique_ptr<ldpc_engine> make_ldpc_cuda(const ldpc_code& code, const ldpc_options& o, int device)
{
    return std::make_unique<cuda_engine>(code, o, device);
}

} // namespace gpufec
