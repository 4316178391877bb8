/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CUDA layered min-sum kernel for quasi-cyclic codes of one circulant a block whose
 * messages fit shared memory (the IEEE codes, 5G NR up to Z = 384 in int8): thread t owns row
 * (t mod Z) of every layer; see ldpc_cuda.cu for the mapping and the memory layout. Included by
 * ldpc_cuda.cu only. */
#ifndef INCLUDED_GPUFEC_LDPC_CUDA_LAYERED_CUH
#define INCLUDED_GPUFEC_LDPC_CUDA_LAYERED_CUH

#include "ldpc_common.h"
#include "ldpc_engine.h"
#include "runtime/soft4.h"

#include <type_traits>
#include <vector>

namespace gpufec {
namespace {

constexpr int max_table_entries = 2048; // non-zero entries of the base matrix
constexpr int max_table_layers = 1024;  // its rows

/*! The base matrix, layer by layer, in the form the row update uses. Entry e (block column
 *  bc, shift s) as byte counts: entry[e].x = s * sizeof(T), entry[e].y = bc * Z * sizeof(T).
 *  The bit of row r is bc * Z + (r + s) mod Z (bit_of). */
constexpr int max_input_runs = 16; // pieces of a sent frame's layout (take_input_order)
constexpr int max_table_holes = 4; // rows of a layer without one of their layer's entries

struct gpu_table {
    int2 entry[max_table_entries];
    uint16_t layer_start[max_table_layers + 1]; // layer l: entries layer_start[l] .. [l + 1]
    // where codes are sent without some bits: run r puts run_len[r] values at bit run_at[r],
    // copied from sent value run_from[r] on, or (run_from < 0) the fill input_erased,
    // input_known_zero or input_known_one (frame/frame_engine.h)
    int run_at[max_input_runs], run_len[max_input_runs], run_from[max_input_runs];
    uint32_t layer[max_table_layers + 1]; // layer l as layer_word (the one past the last: 0)
    // the split layers (split_layer, where the kernel takes them): layer l's first shared[l]
    // entries share their block column of the layer with another, the others are alone in
    // theirs; row hole_row[h] of layer hole_layer[h] lacks its entry hole_entry[h] (from the
    // layer's first)
    uint8_t shared[max_table_layers];
    int holes;
    int hole_layer[max_table_holes], hole_row[max_table_holes], hole_entry[max_table_holes];
};

/*! One layer as the kernels' layer loops read it: a 32-bit word fetched a layer ahead (from
 *  shared memory: copy_layer_words), so that its load overlaps the row work instead of stalling
 *  the layer's start (5G NR's rows are short: the table loads at each layer's start and the
 *  barrier test were a fifth of its kernel's stalls).
 *  Bits 0-11 the layer's first table entry, 12-17 its entries d, 18: the barrier after the layer
 *  may be dropped (the next layer touches none of the bits of the layers since the last one:
 *  ldpc_schedule.h; the same bits), 19: its sub-layers after the first follow one another without
 *  barriers, 20: a row of the layer lacks an entry, 21-31 its sub-layers (ldpc_code::row_stride). */
struct layer_word {
    uint32_t w;
    __host__ __device__ int first() const { return int(w & 0xfffu); }
    __host__ __device__ int entries() const { return int((w >> 12) & 0x3fu); }
    __host__ __device__ bool free_next() const { return (w >> 18) & 1u; }
    __host__ __device__ bool free_inner() const { return (w >> 19) & 1u; }
    __host__ __device__ bool holed() const { return (w >> 20) & 1u; }
    __host__ __device__ int stride() const { return int(w >> 21); }
};
constexpr int max_layer_entries = 63;  // what layer_word holds
constexpr int max_layer_stride = 2047;

inline uint32_t make_layer_word(int first, int entries, bool free_next, bool free_inner, bool holed, int stride)
{
    return uint32_t(first) | uint32_t(entries) << 12 | uint32_t(free_next) << 18 | uint32_t(free_inner) << 19 |
           uint32_t(holed) << 20 | uint32_t(stride) << 21;
}

struct gpu_params {
    int n, z, mb;
    int in_stride;      // soft values a codeword in the input (n, or the sent ones)
    int soft_bits;      // 8: int8 values; 4: packed two a byte (runtime/soft4.h)
    int runs;           // 0: the input is the codeword; else the table's runs place it
    const int* gather;  // or (not null) bit v is sent value gather[v], or the fill gather[v] < 0
    const int* scatter; // where the gather is a permutation: sent value i to bit scatter[i] (or
                        // none: -1), then the scatter_fills bits that are fills
    int scatter_fills;
    int cw_per_block;   // C
    int msg_stride;     // S: messages per thread (>= entries), S * sizeof(M) / 4 odd
    int frames;         // codewords in this launch
    int groups;         // ceil(frames / C)
    int max_iter;
    int early_termination;
    int want_post;
    ldpc_fixed fx;
    int out_bits;        // leading hard bits written per codeword (n, or k)
    int nbytes;          // packed bytes per codeword: ceil(out_bits / 8)
};

/*! PTX prmt: byte i of the result is byte (sel >> 4i) & 7 of {b, a}, or where bit 3 of that
 *  nibble is set, its sign copied over the byte (__byte_perm keeps the three low bits only) */
__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned sel)
{
    unsigned r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
    return r;
}

__host__ __device__ inline size_t align16(size_t x) { return (x + 15) & ~size_t(15); }

//! messages per thread S: at least `entries`, with S * sizeof(M) / 4 odd (conflict-free rows)
template <typename M>
__host__ __device__ inline int msg_stride(int entries)
{
    int words = int((size_t(entries) * sizeof(M) + 3) / 4);
    words += words % 2 == 0 ? 1 : 0;
    return int(size_t(words) * 4 / sizeof(M));
}

//! the layer words (layer_word) of mb layers and the one past them, in shared memory
__host__ __device__ inline size_t layer_words_bytes(int mb) { return align16(size_t(mb + 1) * 4); }

/*! The layer words into shared memory, once a kernel: read from there a layer ahead, the load
 *  stays ahead (the compiler moves no shared load past the row's shared stores; a constant
 *  load it moved back next to its use). Before the first barrier. */
__device__ __forceinline__ void copy_layer_words(const uint32_t* layer, uint32_t* s_layer, int mb)
{
    for (int i = threadIdx.x; i <= mb; i += blockDim.x)
        s_layer[i] = layer[i];
}

//! dynamic shared memory of one block of C codewords of `threads` threads each: gamma (T),
//! messages (M, one row of S slots per thread), flags, the layer words of mb layers
template <typename T, typename M>
__host__ __device__ inline size_t smem_bytes(int n, int threads, int S, int C, int mb)
{
    return align16(size_t(C) * n * sizeof(T)) + align16(size_t(C) * threads * S * sizeof(M)) +
           align16(size_t(C) * 4 * 4) + layer_words_bytes(mb);
}

/*! Address of the bit of table entry `e` for the thread whose row starts rb bytes into a
 *  block column of its codeword's posteriors `gcw` (rbz = rb - Z * sizeof(T)). (r + s) mod Z
 *  in bytes is the unsigned minimum of rb + s and rbz + s, the latter wrapping round to a huge
 *  value when it is negative: one add and one add-and-minimum (a single instruction on Hopper)
 *  instead of a comparison, a select and an add on the integer ALU, the kernel's busiest pipe. */
template <typename T>
__device__ __forceinline__ unsigned bit_offset(int2 e, unsigned rb, unsigned rbz)
{
    return unsigned(e.y) + __viaddmin_u32(rb, unsigned(e.x), rbz + unsigned(e.x));
}

template <typename T>
__device__ __forceinline__ T* bit_of(unsigned char* gcw, int2 e, unsigned rb, unsigned rbz)
{
    return reinterpret_cast<T*>(gcw + bit_offset<T>(e, rb, rbz));
}

//! lanes whose row is that of this thread, TR adjacent lanes of a warp (TR a power of two <= 8)
template <int TR>
__device__ __forceinline__ unsigned row_lanes()
{
    const unsigned lane = threadIdx.x & 31u;
    return ((1u << TR) - 1u) << (lane & ~unsigned(TR - 1));
}

/*! A row's two smallest magnitudes and sign (the sign bit of sx) from the partial ones of its
 *  TR lanes (each holds some of its entries): a butterfly over the lanes, two shuffles a step
 *  (min1 < 2^31 carries sx's sign bit). The result is the whole row's, in every lane: min2 is
 *  the second smallest of all magnitudes, equal to min1 where two entries share the minimum. */
template <int TR>
__device__ __forceinline__ void combine_row(int& min1, int& min2, int& sx)
{
    if constexpr (TR > 1) {
        const unsigned lanes = row_lanes<TR>();
#pragma unroll
        for (int o = 1; o < TR; o <<= 1) {
            const int a1 = __shfl_xor_sync(lanes, min1 | (sx & int(0x80000000u)), o, TR);
            const int a2 = __shfl_xor_sync(lanes, min2, o, TR);
            const int m1 = a1 & 0x7fffffff;
            min2 = min(min(min2, a2), max(min1, m1));
            min1 = min(min1, m1);
            sx ^= a1; // (only the sign bit counts)
        }
    }
}

//! |rho| of an entry a thread lacks (its row's degree is not a multiple of TR): beyond any real
//! magnitude, positive, so neither a minimum nor a sign
constexpr int absent_entry = 1 << 29;

/*! A row's two smallest magnitudes and sign product (the sign bit of sx) as its rho come in,
 *  pass 1 of every row update of these kernels (ldpc_common.h's arithmetic). */
struct row_minima {
    int min1 = 1 << 30, min2 = 1 << 30, sx = 0;
    __device__ __forceinline__ void add(int rho)
    {
        const int mag = abs(rho);
        sx ^= rho;
        min2 = min(min2, max(min1, mag));
        min1 = min(min1, mag);
    }
    //! the minima of a row's first two rho, in place of adding them (two instructions fewer)
    __device__ __forceinline__ void start(int a, int b)
    {
        const int ma = abs(a), mb = abs(b);
        min1 = min(ma, mb);
        min2 = max(ma, mb);
        sx = a ^ b;
    }
};

/*! The new messages of a row from its minima, pass 2 (SMALL: int16 posteriors, ldpc_norm's
 *  `small`). The sign of all rho is folded into the two normalised magnitudes once per row. The
 *  first j at min1 gets min2; any other j at min1 means min2 == min1, so |rho_j| == min1 selects
 *  the same magnitude: n2 + min(|rho_j| - min1, 1) * (n1 - n2), a multiply-add rather than a
 *  comparison and a select. Message j carries the product of the other signs: that of all rho
 *  (in n1, n2) times rho_j's own. */
template <bool SMALL>
struct row_messages {
    int n2, step, min1;
    row_messages() = default;
    __device__ __forceinline__ row_messages(const row_minima& r, const ldpc_fixed& fx) : min1(r.min1)
    {
        int n1 = ldpc_norm(r.min1, fx, SMALL);
        n2 = ldpc_norm(r.min2, fx, SMALL);
        n1 = r.sx < 0 ? -n1 : n1;
        n2 = r.sx < 0 ? -n2 : n2;
        step = n1 - n2;
    }
    __device__ __forceinline__ int operator()(int rho) const
    {
        const int m = n2 + __viaddmin_s32(abs(rho), -min1, 1) * step;
        return rho < 0 ? -m : m;
    }
};

/*! A lane's messages of one row where the kernels keep them one to a slot: message i at p[i * ms]
 *  (ms 1: a thread's row in shared memory; the general kernel's global messages, its block's
 *  threads). */
template <typename M>
struct strided_messages {
    M* p;
    int ms;
    __device__ __forceinline__ int get(int i) const { return int(p[i * ms]); }
    __device__ __forceinline__ void set(int i, int v) { p[i * ms] = M(v); }
};

/*! One check row for one codeword: the layered min-sum update of ldpc_common.h, the row's d
 *  entries spread over TR adjacent lanes, lane q holding entries q, q + TR, ... (D = ceil(d /
 *  TR) of them; where TR does not divide d the last is absent for some lanes). msg.get(i) and
 *  msg.set(i, v) are the lane's message i (strided_messages, or the general kernel's
 *  packed_messages), ent[j] the table entry of the row's bit j; HOLES: entry `skip` reads
 *  `sink` instead (ldpc_cuda_general.cuh). rho, magnitudes and bit addresses stay in registers
 *  between the two passes. */
template <typename T, int D, int TR, bool HOLES = false, class Messages>
__device__ __forceinline__ void layered_row_of(unsigned char* gcw, Messages& msgs, const int2* ent, int d, int q,
                                               unsigned rb, unsigned rbz, const ldpc_fixed& fx, int skip = -1,
                                               T* sink = nullptr)
{
    // a bit's place as a 32-bit byte offset from gcw, and |rho| taken again in pass 2: two
    // registers an entry rather than four (a 64-bit address and the magnitude), so that rows of
    // 16 or 32 entries stay in registers
    unsigned off[D];
    int rho[D];
    bool valid[D];
    const unsigned sink_off = HOLES ? unsigned(reinterpret_cast<unsigned char*>(sink) - gcw) : 0u;
    row_minima r;
    // pass 1: rho = gamma - old message, the two smallest magnitudes and the sign product
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int j = q + TR * i;
        valid[i] = TR == 1 || i < D - 1 || j < d; // (only the last entry may be absent)
        off[i] = bit_offset<T>(ent[valid[i] ? j : 0], rb, rbz);
        if constexpr (HOLES)
            off[i] = j == skip ? sink_off : off[i];
        rho[i] = valid[i] ? int(*reinterpret_cast<const T*>(gcw + off[i])) - msgs.get(i) : absent_entry;
        if (i == 1) // (the first two ordered: the minima's start, without the sentinels)
            r.start(rho[0], rho[1]);
        else if (i > 1 || D == 1)
            r.add(rho[i]);
    }
    combine_row<TR>(r.min1, r.min2, r.sx);
    // pass 2: new messages and posteriors (this thread alone touches these bits in this layer)
    const row_messages<sizeof(T) == 2> message(r, fx);
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int msg = message(rho[i]);
        if (valid[i]) {
            msgs.set(i, msg);
            *reinterpret_cast<T*>(gcw + off[i]) = T(rho[i] + msg);
        }
    }
}

//! layered_row_of with the messages one to a slot, lrow[i * ms]
template <typename T, typename M, int D, int TR, bool HOLES = false>
__device__ __forceinline__ void layered_row(unsigned char* gcw, M* lrow, const int2* ent, int d, int q,
                                            unsigned rb, unsigned rbz, const ldpc_fixed& fx, int ms = 1,
                                            int skip = -1, T* sink = nullptr)
{
    strided_messages<M> msgs{ lrow, ms };
    layered_row_of<T, D, TR, HOLES>(gcw, msgs, ent, d, q, rb, rbz, fx, skip, sink);
}

/*! The entry (from the layer's first) that row r of layer l lacks, or -1 (Table: general_table,
 *  chain_table, gpu_table). The general and chain kernels' rows read the codeword's sink there
 *  instead of a bit (ldpc_cuda_general.cuh: hole_sink), split_layer leaves it out: either way the
 *  row updates as if it had no such entry, as the CPU engines do. */
template <class Table>
__device__ __forceinline__ int hole_of(const Table& tab, int holes, int l, int r)
{
    int skip = -1;
    for (int h = 0; h < holes; ++h)
        if (tab.hole_layer[h] == l && tab.hole_row[h] == r)
            skip = tab.hole_entry[h];
    return skip;
}

/*! One layer taken as p sub-layers (ldpc_code::row_stride: sub-layer c holds the rows c, c + p,
 *  ...; they follow one another) by threads that each own one row of it, the layer's first `dm`
 *  entries (at most DM) sharing their block column with another entry of the layer
 *  (gpu_table::shared), the others alone in theirs. A bit of a lone entry's block column is
 *  touched by one row of the layer only, so that row may read it before the sub-layers run and
 *  write it after them, and gets the value it would have got in its turn; only the shared entries
 *  (rows p apart meet there) wait for the row's sub-layer. So every row's first pass over its lone
 *  entries runs at once, then the sub-layers in turn with a barrier between them, each on its
 *  rows' shared entries and messages, then every row's second pass: the same bits as the
 *  sub-layers one after another (layered_row on each), with the layer's long part no longer run
 *  p times by a p-th of the threads. Entry `skip` (a row that lacks it: DVB-S2's corner) is
 *  absent. Every thread of the block calls it (the barriers); `work`: the thread's codeword is
 *  being decoded. */
template <typename T, typename M, int D, int DM>
__device__ __forceinline__ void split_layer(unsigned char* gcw, M* lrow, const int2* ent, int d, int dm, int p,
                                            int sub, int skip, bool work, unsigned rb, unsigned rbz,
                                            const ldpc_fixed& fx)
{
    // D: the most entries (d at run time, not a case of with_degree: a barrier inside a switch's
    // cases cost the kernel hundreds of bytes of spilled registers a case); the lone ones are
    // those of `lone`'s bits (a mask, not a bound the compiler would make a loop's, indexing the
    // registers at run time)
    static_assert(D < 32, "a row's entries as the bits of a word");
    constexpr int S = D < DM ? D : DM; // (the shared entries' registers: DM, not D)
    const unsigned lone = ((1u << d) - 1u) & ~((1u << dm) - 1u);
    unsigned off[D];
    int rho[D];
    row_minima r;
    row_messages<sizeof(T) == 2> message;
    // entry i's two passes (layered_row_of's, its own register slots o and x)
    auto first_pass = [&](int i, unsigned& o, int& x) {
        o = bit_offset<T>(ent[i], rb, rbz);
        x = i == skip ? absent_entry : int(*reinterpret_cast<const T*>(gcw + o)) - int(lrow[i]);
        r.add(x);
    };
    auto second_pass = [&](int i, unsigned o, int x) {
        const int msg = message(x);
        lrow[i] = M(msg);
        *reinterpret_cast<T*>(gcw + o) = T(x + msg);
    };
#pragma unroll
    for (int i = 0; i < D; ++i)
        if (work && (lone >> i & 1u))
            first_pass(i, off[i], rho[i]);
    for (int c = 0; c < p; ++c) {
        if (c > 0)
            __syncthreads(); // (sub-layer c - 1 has written the shared entries' bits)
        if (work && c == sub) {
            unsigned soff[S];
            int srho[S];
#pragma unroll
            for (int i = 0; i < S; ++i)
                if (i < dm)
                    first_pass(i, soff[i], srho[i]);
            message = row_messages<sizeof(T) == 2>(r, fx);
#pragma unroll
            for (int i = 0; i < S; ++i)
                if (i < dm && i != skip)
                    second_pass(i, soff[i], srho[i]);
        }
    }
#pragma unroll
    for (int i = 0; i < D; ++i)
        if (work && (lone >> i & 1u) && i != skip)
            second_pass(i, off[i], rho[i]);
}

//! the split-layer kernel (ldpc_layered_split_kernel): the most threads a block, entries a row
//! and entries of a layer that share a block column
constexpr int split_threads = 384, split_entries = 16, split_shared_entries = 8;

/*! Parity of one check row (its entries spread over TR lanes as in layered_row): negative in
 *  every lane of the row when an odd number of its bits decide 1 (the sign bit of the XOR of
 *  their posteriors); without entry `skip` (a row that lacks it: split_layer's). */
template <typename T, int D, int TR>
__device__ __forceinline__ int row_parity(unsigned char* gcw, const int2* ent, int d, int q, unsigned rb,
                                          unsigned rbz, int skip = -1)
{
    int x = 0;
#pragma unroll
    for (int i = 0; i < D; ++i) {
        const int j = q + TR * i;
        if ((TR == 1 || i < D - 1 || j < d) && j != skip)
            x ^= int(*bit_of<T>(gcw, ent[j], rb, rbz));
    }
    if constexpr (TR > 1) {
#pragma unroll
        for (int o = 1; o < TR; o <<= 1)
            x ^= __shfl_xor_sync(row_lanes<TR>(), x, o, TR);
    }
    return x;
}

/*! f(std::integral_constant<int, d>) for the entries d = 1..MAXD a lane holds of a row (a row
 *  of one lane has at least 2: ldpc_code refuses checks of fewer bits; a row of d <= TR entries
 *  spread over TR lanes gives each one): one fully unrolled instantiation per count, so loops
 *  have no predicated-off steps (802.16e rate 1/2 has rows of 6 and 7 bits). */
template <int MAXD, class F>
__device__ __forceinline__ void with_degree(int d, F&& f)
{
    switch (d) {
#define GPUFEC_LDPC_DEGREE(D)                                                                       \
    case D:                                                                                         \
        if constexpr (D <= MAXD)                                                                    \
            f(std::integral_constant<int, D>());                                                    \
        break;
        GPUFEC_LDPC_DEGREE(1) GPUFEC_LDPC_DEGREE(2) GPUFEC_LDPC_DEGREE(3) GPUFEC_LDPC_DEGREE(4) GPUFEC_LDPC_DEGREE(5)
        GPUFEC_LDPC_DEGREE(6) GPUFEC_LDPC_DEGREE(7) GPUFEC_LDPC_DEGREE(8) GPUFEC_LDPC_DEGREE(9)
        GPUFEC_LDPC_DEGREE(10) GPUFEC_LDPC_DEGREE(11) GPUFEC_LDPC_DEGREE(12) GPUFEC_LDPC_DEGREE(13)
        GPUFEC_LDPC_DEGREE(14) GPUFEC_LDPC_DEGREE(15) GPUFEC_LDPC_DEGREE(16) GPUFEC_LDPC_DEGREE(17)
        GPUFEC_LDPC_DEGREE(18) GPUFEC_LDPC_DEGREE(19) GPUFEC_LDPC_DEGREE(20) GPUFEC_LDPC_DEGREE(21)
        GPUFEC_LDPC_DEGREE(22) GPUFEC_LDPC_DEGREE(23) GPUFEC_LDPC_DEGREE(24) GPUFEC_LDPC_DEGREE(25)
        GPUFEC_LDPC_DEGREE(26) GPUFEC_LDPC_DEGREE(27) GPUFEC_LDPC_DEGREE(28) GPUFEC_LDPC_DEGREE(29)
        GPUFEC_LDPC_DEGREE(30) GPUFEC_LDPC_DEGREE(31) GPUFEC_LDPC_DEGREE(32)
#undef GPUFEC_LDPC_DEGREE
    default:
        break;
    }
}

//! a layer's message slots in a thread's row: its d entries rounded up to V (the one-codeword
//! kernels: 1; the pair kernel's half_slots: 1 or 4; the engine lays the rows out with the same
//! rule, layered_slots)
__host__ __device__ constexpr int layer_slots(int d, int v) { return (d + v - 1) / v * v; }

//! the row lengths the kernels are unrolled to: the least of 8, 16, 24 and 32 that holds d
__host__ __device__ constexpr int rows_unrolled_to(int d) { return d <= 8 ? 8 : d <= 16 ? 16 : d <= 24 ? 24 : 32; }

/*! A code's layers as a kernel may know them when it is compiled: layer l has degree(l) table
 *  entries. A kernel with a profile (the one-codeword layered kernel, the pair kernel) walks the
 *  layers unrolled, so each row's table entries are read at fixed offsets of the kernel's
 *  parameter (constant-bank operands instead of a load with a computed index), its message slots
 *  at fixed offsets of the thread's row, and no layer bound, degree branch or slot sum is
 *  computed at run time; the table's shifts and columns stay data, so one profile serves every
 *  code of that shape (802.16e's 19 lifting sizes of a rate, 5G NR's 51 of a base graph). The
 *  generic loop spent about 30 instructions a layer on that (a row of 7 entries itself takes
 *  about 160), and a tenth of its stall samples waiting on the layer bounds' loads. */
template <int... D>
struct layer_profile {
    static constexpr int layers = int(sizeof...(D));
    __host__ __device__ static constexpr int degree(int l)
    {
        constexpr int d[] = { D... };
        return d[l];
    }
    __host__ __device__ static constexpr int max_degree()
    {
        int m = 0;
        for (int l = 0; l < layers; ++l)
            m = degree(l) > m ? degree(l) : m;
        return m;
    }
    //! whether a code's layer degrees are this profile's
    static bool matches(const std::vector<int>& degrees)
    {
        if (int(degrees.size()) != layers)
            return false;
        for (int l = 0; l < layers; ++l)
            if (degrees[size_t(l)] != degree(l))
                return false;
        return true;
    }
};

/*! f(integral_constant<D>, first table entry E0, first message slot) for layers L.. of PROFILE,
 *  unrolled, each followed by barrier(L); a layer's slots are its entries rounded up to V
 *  (layer_slots). E0 and the slot are constants where the calls are inlined. */
template <class PROFILE, int V, int L = 0, int E0 = 0, int SLOT = 0, class Row, class Barrier>
__device__ __forceinline__ void profile_layers(Row&& row, Barrier&& barrier)
{
    if constexpr (L < PROFILE::layers) {
        constexpr int D = PROFILE::degree(L);
        row(std::integral_constant<int, D>(), E0, SLOT);
        barrier(L);
        profile_layers<PROFILE, V, L + 1, E0 + D, SLOT + layer_slots(D, V)>(row, barrier);
    }
}

//! the rows unrolled to at least PROFILE's longest
template <class PROFILE>
constexpr int profile_maxd = rows_unrolled_to(PROFILE::max_degree());

//! gamma = -soft for four bits (the internal sign convention)
__device__ __forceinline__ void store_negated(int16_t* g, char4 s)
{
    *reinterpret_cast<short4*>(g) = make_short4(short(-s.x), short(-s.y), short(-s.z), short(-s.w));
}
__device__ __forceinline__ void store_negated(int32_t* g, char4 s)
{
    *reinterpret_cast<int4*>(g) = make_int4(-s.x, -s.y, -s.z, -s.w);
}

//! the next group of C codewords from the queue, the same for every thread of the block
__device__ __forceinline__ int take_group(int* queue, int* s_group)
{
    __syncthreads(); // (the previous group is finished with s_group)
    if (threadIdx.x == 0)
        *s_group = atomicAdd(queue, 1);
    __syncthreads();
    return *s_group;
}

//! a new group's flags: codewords past the last frame count as done, no iterations yet
__device__ __forceinline__ void start_group_flags(const gpu_params& p, int group, int* s_done, int* s_iters)
{
    const int C = p.cw_per_block;
    if (threadIdx.x < C) {
        s_done[threadIdx.x] = group * C + threadIdx.x >= p.frames;
        s_iters[threadIdx.x] = 0;
    }
}

//! gamma of a bit that is not sent: erased 0, a known 0 (soft -127) +127, a known 1 -127
template <typename T>
__device__ __forceinline__ T fill_value(int from)
{
    return from == input_known_zero ? T(127) : from == input_known_one ? T(-127) : T(0);
}

/*! store(v, load(v)) for v in [0, len), the block's threads taking v = threadIdx.x + i *
 *  blockDim.x, AHEAD loads of a thread issued before their stores: the loads of a frame's
 *  scattered or unaligned values then overlap (one at a time, 5G NR's load stalled its kernel
 *  a thirteenth of the time, one codeword on an SM and nothing else to run meanwhile). Kernels
 *  held to few registers (several blocks an SM) take AHEAD 1: more would spill. */
template <int AHEAD, class Load, class Store>
__device__ __forceinline__ void copy_ahead(int len, Load&& load, Store&& store)
{
    constexpr int ahead = AHEAD;
    for (int v0 = threadIdx.x; v0 < len; v0 += ahead * blockDim.x) {
        int x[ahead];
#pragma unroll
        for (int u = 0; u < ahead; ++u) {
            const int v = v0 + u * int(blockDim.x);
            x[u] = v < len ? load(v) : 0;
        }
#pragma unroll
        for (int u = 0; u < ahead; ++u) {
            const int v = v0 + u * int(blockDim.x);
            if (v < len)
                store(v, x[u]);
        }
    }
}

//! value i (int8, or soft4_value of packed 4-bit values) of a codeword's input from `src`
template <bool SOFT4>
__device__ __forceinline__ int soft_value(const int8_t* src, int i)
{
    if constexpr (SOFT4)
        return soft4_value(reinterpret_cast<const uint8_t*>(src), i);
    else
        return src[i];
}

//! values 4 v .. 4 v + 3 from packed 4-bit ones (soft4_word4; `src` 2-byte aligned)
__device__ __forceinline__ char4 soft4_quad(const int8_t* src, int v)
{
    const uint32_t w = soft4_word4(reinterpret_cast<const uint16_t*>(src)[v]);
    char4 c;
    memcpy(&c, &w, 4);
    return c;
}

/*! load_group for int8 input or (SOFT4) packed 4-bit input: see load_group */
template <int AHEAD, typename T, int STEP, bool SOFT4, bool SCATTER, typename Table>
__device__ __forceinline__ void load_group_as(const gpu_params& p, const Table& tab, const int8_t* soft, T* s_gamma,
                                              int stride, int group)
{
    const int C = p.cw_per_block, n = p.n;
    for (int c = 0; c < C; ++c) {
        const int id = group * C + c;
        const int8_t* src = soft + size_t(id) * p.in_stride / (SOFT4 ? 2 : 1);
        T* g = s_gamma + (c / STEP) * STEP * stride + c % STEP;
        if (id >= p.frames) {
            for (int v = threadIdx.x; v < n; v += blockDim.x)
                g[STEP * v] = T(0);
        } else if (SCATTER && p.scatter) {
            // (a permutation: DVB-S2's parity order, its bit interleaver) the sent values read in
            // order and each written to its bit in shared memory, then the fills: a warp's reads
            // through the gather table had landed as far apart as the order put them (DVB-S2's
            // parity: 90 bytes, 32 sectors a read)
            const int len = p.in_stride;
            for (int i0 = threadIdx.x; i0 < len; i0 += AHEAD * blockDim.x) {
                int x[AHEAD], to[AHEAD];
#pragma unroll
                for (int a = 0; a < AHEAD; ++a) {
                    const int i = i0 + a * int(blockDim.x);
                    to[a] = i < len ? p.scatter[i] : -1;
                    x[a] = i < len ? -soft_value<SOFT4>(src, i) : 0;
                }
#pragma unroll
                for (int a = 0; a < AHEAD; ++a)
                    if (to[a] >= 0)
                        g[STEP * to[a]] = T(x[a]);
            }
            for (int j = threadIdx.x; j < p.scatter_fills; j += blockDim.x) {
                const int v = p.scatter[len + j];
                g[STEP * v] = fill_value<T>(p.gather[v]);
            }
        } else if (p.gather) { // (an order that is not a permutation)
            copy_ahead<AHEAD>(n, [&](int v) {
                const int from = p.gather[v];
                return from >= 0 ? -soft_value<SOFT4>(src, from) : int(fill_value<T>(from));
            }, [&](int v, int x) { g[STEP * v] = T(x); });
        } else if (p.runs) {
            for (int r = 0; r < p.runs; ++r) {
                const int at = tab.run_at[r], len = tab.run_len[r], from = tab.run_from[r];
                if (from >= 0)
                    copy_ahead<AHEAD>(len, [&](int v) { return -soft_value<SOFT4>(src, from + v); },
                                      [&](int v, int x) { g[STEP * (at + v)] = T(x); });
                else
                    for (int v = threadIdx.x; v < len; v += blockDim.x)
                        g[STEP * (at + v)] = fill_value<T>(from);
            }
        } else if (n % 4 == 0) {
            for (int v = threadIdx.x; v < n / 4; v += blockDim.x) {
                const char4 s = SOFT4 ? soft4_quad(src, v) : reinterpret_cast<const char4*>(src)[v];
                if constexpr (STEP == 1) {
                    store_negated(g + 4 * v, s);
                } else {
                    g[STEP * (4 * v)] = T(-s.x);
                    g[STEP * (4 * v + 1)] = T(-s.y);
                    g[STEP * (4 * v + 2)] = T(-s.z);
                    g[STEP * (4 * v + 3)] = T(-s.w);
                }
            }
        } else {
            for (int v = threadIdx.x; v < n; v += blockDim.x)
                g[STEP * v] = T(-soft_value<SOFT4>(src, v));
        }
    }
}

/*! The C codewords of a group into shared memory (gamma = -soft, the internal sign
 *  convention): codeword c's bit v at s_gamma[(c / STEP) * STEP * stride + c % STEP + STEP * v]
 *  (STEP 1: one codeword after another; 2: two codewords' bits interleaved, the pair kernel's
 *  int16x2 words). Four bits at a time where the codewords keep 4-byte alignment, or (runs, or
 *  a gather table for a permutation) the sent values in place with erasures and known bits
 *  between them, zeros past the last frame; from int8 values or (p.soft_bits 4) packed 4-bit
 *  ones, which give the int8 values soft4_value reads. Table: any with run_at / run_len /
 *  run_from. SCATTER: a permutation read in order and scattered (p.scatter) where the engine
 *  made one; without it, through the gather table. */
template <int AHEAD, typename T, int STEP = 1, bool SCATTER = true, typename Table>
__device__ __forceinline__ void load_group(const gpu_params& p, const Table& tab, const int8_t* soft, T* s_gamma,
                                           int stride, int group)
{
    if (p.soft_bits == 4)
        load_group_as<AHEAD, T, STEP, true, SCATTER>(p, tab, soft, s_gamma, stride, group);
    else
        load_group_as<AHEAD, T, STEP, false, SCATTER>(p, tab, soft, s_gamma, stride, group);
}

//! `bytes` (a multiple of 16) of shared memory set to the 32-bit `word` by the block, 16 bytes
//! a thread at a time
__device__ __forceinline__ void fill_shared(void* at, size_t bytes, unsigned word = 0u)
{
    const int w = int(word);
    for (int i = threadIdx.x; i < int(bytes / 16); i += blockDim.x)
        reinterpret_cast<int4*>(at)[i] = make_int4(w, w, w, w);
}

/*! A group's start in the layered kernels: its codewords loaded (load_group), `msg_bytes` of
 *  messages set to zero messages (`msg_fill`: how a kernel writes them), its flags reset
 *  (start_group_flags), then a barrier */
template <int AHEAD, typename T, int STEP = 1, bool SCATTER = true, typename Table>
__device__ __forceinline__ void begin_group(const gpu_params& p, const Table& tab, const int8_t* soft, T* s_gamma,
                                            int stride, int group, void* s_msg, size_t msg_bytes, int* s_done,
                                            int* s_iters, unsigned msg_fill = 0u)
{
    load_group<AHEAD, T, STEP, SCATTER>(p, tab, soft, s_gamma, stride, group);
    fill_shared(s_msg, msg_bytes, msg_fill);
    start_group_flags(p, group, s_done, s_iters);
    __syncthreads();
}

/*! The test after an iteration (end_iteration) stops looking once any thread of the block has
 *  found a failing row of the codeword: a thread that finds one stops and sets the codeword's
 *  flag (flag_bad; end_iteration does it as the test returns, the kernels whose tests keep
 *  looking at other rows at once), the others read it every few layers (flagged_bad) and stop. The flag decides, as
 *  before, and is set exactly where a row fails; until a codeword converges some row fails
 *  early, so the test then ends after a few layers instead of every row. (With every row read,
 *  the test took 0.20 to 0.36 of an iteration's time with early stop: DVB-S2, 5G NR, 802.16e,
 *  H200, performance.md.) A race by design (compute-sanitizer's racecheck may name it): the flag
 *  only goes from 0 to 1 between end_iteration's two barriers, and an early read only lets a
 *  thread stop sooner. Not where a row's lanes shuffle together (TR > 1): they could read the
 *  flag apart. */
__device__ __forceinline__ bool flagged_bad(const int* s_bad, int local)
{
    return *reinterpret_cast<const volatile int*>(s_bad + local) != 0;
}
__device__ __forceinline__ void flag_bad(int* s_bad, int local) { *reinterpret_cast<volatile int*>(s_bad + local) = 1; }

/*! The end of an iteration for the codeword of this thread (`first`: its thread 0): where the
 *  syndrome is checked, rows_bad() says whether any of the thread's rows fails; returns whether
 *  every codeword of the block is done. Every row of a codeword reads s_bad after the barrier
 *  and so knows whether its codeword is done; thread 0 alone records it. (Reading s_done here
 *  instead raced with thread 0's write: compute-sanitizer racecheck.) */
template <class RowsBad>
__device__ __forceinline__ bool end_iteration(const gpu_params& p, int it, bool work, bool active, bool lane_used,
                                              bool first, int local, int* s_bad, int* s_done, int* s_iters,
                                              RowsBad&& rows_bad)
{
    bool mine_done;
    if (p.early_termination || it == p.max_iter) {
        if (lane_used && first)
            s_bad[local] = 0;
        __syncthreads();
        if (work && rows_bad())
            flag_bad(s_bad, local);
        __syncthreads();
        const bool passed = lane_used && !s_bad[local];
        if (work && first) {
            s_iters[local] = it;
            if (p.early_termination && passed)
                s_done[local] = 1;
        }
        mine_done = !work || (p.early_termination && passed);
    } else {
        if (work && first)
            s_iters[local] = it;
        mine_done = !work;
    }
    return __syncthreads_and(!active || mine_done);
}

/*! A codeword's results, by its R threads (u the thread's place): the packed leading hard
 *  bits, iterations and syndrome, and the posteriors where wanted; its bit v at gamma[STEP * v]
 *  (load_group) */
template <typename T, int STEP = 1>
__device__ __forceinline__ void write_results(const gpu_params& p, const T* gamma, int cw, int u, int R,
                                              int iterations, bool bad, uint8_t* out, frame_status* results,
                                              float* posteriors)
{
    uint8_t* o = out + size_t(cw) * p.nbytes;
    for (int b = u; b < p.nbytes; b += R) {
        unsigned byte = 0;
        for (int i = 0; i < 8; ++i) {
            const int v = b * 8 + i;
            byte |= (v < p.out_bits && gamma[STEP * v] < 0) ? (0x80u >> i) : 0u;
        }
        o[b] = uint8_t(byte);
    }
    if (u == 0)
        results[cw] = frame_status{ iterations, int8_t(!bad), 0 };
    if (p.want_post) {
        float* post = posteriors + size_t(cw) * p.n;
        for (int v = u; v < p.n; v += R)
            post[v] = float(-int(gamma[STEP * v]));
    }
}

/* Launch bounds: one lane a row (TR 1), rows of up to 8 bits (the rate-1/2 codes) fit 40
 * registers, which lets 1536 threads (3 blocks of 512, or 6 of 256) share an SM; longer rows
 * get what they need. Rows spread over TR > 1 lanes: blocks of up to 1024 threads. */
template <int TR, int MAXD>
struct layered_bounds {
    static constexpr int threads = TR == 1 ? 512 : 1024;
    static constexpr int blocks = TR == 1 && MAXD <= 8 ? 3 : 1;
};

/* Thread mapping: codeword `local` of the block has TR * Z threads; its thread w owns row
 * w / TR of every layer, as lane q = w mod TR of the row's TR adjacent lanes (entries q,
 * q + TR, ...: layered_row). PROFILE: void (the layers as a loop over the table's bounds), or
 * the code's layer_profile (its layers unrolled; TR 1). */
template <typename T, typename M, int MAXD, int TR, class PROFILE, bool SPLIT = false>
__device__ __forceinline__ void layered_kernel_body(const gpu_params& p, const gpu_table& tab,
                                                    const int8_t* __restrict__ soft,
                                                    uint8_t* __restrict__ out,         // packed hard bits
                                                    frame_status* __restrict__ results, // one per codeword
                                                    float* __restrict__ posteriors,    // n per codeword, where wanted
                                                    int* __restrict__ queue)
{
    static_assert(std::is_void_v<PROFILE> || TR == 1, "a layer profile has one lane a row");
    static_assert(!SPLIT || (TR == 1 && std::is_void_v<PROFILE>), "split layers: one lane a row, the layer loop");
    extern __shared__ __align__(16) unsigned char smem[];
    const int C = p.cw_per_block, z = p.z, n = p.n, S = p.msg_stride, cwt = TR * z;
    const int zbytes = z * int(sizeof(T));
    unsigned char* cursor = smem;
    T* s_gamma = reinterpret_cast<T*>(cursor);
    cursor += align16(size_t(C) * n * sizeof(T));
    // messages of thread t: s_msg[t * S + i], its slot i (its entries of each layer in turn)
    M* s_msg = reinterpret_cast<M*>(cursor);
    cursor += align16(size_t(C) * cwt * S * sizeof(M));
    int* s_bad = reinterpret_cast<int*>(cursor); // per codeword: a check failed
    int* s_done = s_bad + C;
    int* s_iters = s_done + C;
    int* s_group = s_iters + C;
    // kernels held to 40 registers (rows of up to 8 bits: the IEEE codes, whose layers all
    // share bits) read the layer's entries as they reach it and keep every barrier: the layer
    // words read ahead and the barrier test cost them 4 to 6 % (802.16e 2304, H200)
    constexpr bool lean = layered_bounds<TR, MAXD>::blocks > 1;
    static_assert(!SPLIT || !lean, "split layers read the layer words");
    cursor += align16(size_t(C) * 4 * 4);
    uint32_t* s_layer = reinterpret_cast<uint32_t*>(cursor); // the layer words
    if constexpr (!lean && std::is_void_v<PROFILE>)
        copy_layer_words(tab.layer, s_layer, p.mb);

    const int local = threadIdx.x / cwt;     // codeword within the block
    const int w = threadIdx.x - local * cwt; // the thread within its codeword
    const int row = w / TR, q = w - row * TR; // row within every layer, lane within the row
    const bool lane_used = local < C;
    T* gamma = s_gamma + (lane_used ? local * n : 0);
    unsigned char* gcw = reinterpret_cast<unsigned char*>(gamma);
    const unsigned rb = unsigned(row) * sizeof(T), rbz = rb - unsigned(zbytes); // bit_of
    M* mrow = s_msg + (lane_used ? size_t(threadIdx.x) * S : 0);

    for (;;) {
        const int group = take_group(queue, s_group);
        if (group >= p.groups)
            return;
        const int cw = group * C + local;
        const bool active = lane_used && cw < p.frames;

        // load: the codewords; messages 0
        // (the kernels compiled for a code's layers, 5G NR BG1's, never see a permuted frame in
        // practice and leave the scatter out (load_group_as): with it their code moved, and they
        // ran 0.5 % slower)
        begin_group<layered_bounds<TR, MAXD>::blocks == 1 ? 4 : 1, T, 1, std::is_void_v<PROFILE>>(
            p, tab, soft, s_gamma, n, group, s_msg, align16(size_t(C) * cwt * S * sizeof(M)), s_done, s_iters);

        int it = 0;
        bool all_done = false;
        while (it < p.max_iter && !all_done) {
            ++it;
            const bool work = active && !s_done[local];
            if constexpr (!std::is_void_v<PROFILE>) {
                // (each barrier's flag a constant-bank operand: tab.layer[l] at a fixed offset)
                auto barrier = [&](int l) {
                    if (lean || !layer_word{ tab.layer[l] }.free_next())
                        __syncthreads();
                };
                // where every thread of the block works (no codeword has stopped, none is past
                // the last frame, no idle lanes), the rows without the test and its branch around
                // each (three instructions a layer). Measured on the H200 (int8, 10 iterations,
                // host to host, with the minima's start): 5G NR BG1 Z = 384 6.60 -> 6.95 Gb/s;
                // Z = 128, three blocks an SM, 5.72-5.78 -> 5.60-5.63 (not understood)
                auto row = [&](auto deg, int e0, int slot) {
                    constexpr int D = decltype(deg)::value;
                    layered_row<T, M, D, 1>(gcw, mrow + slot, tab.entry + e0, D, 0, rb, rbz, p.fx);
                };
                if (__syncthreads_and(work))
                    profile_layers<PROFILE, 1>(row, barrier);
                else
                    profile_layers<PROFILE, 1>(
                        [&](auto deg, int e0, int slot) {
                            if (work)
                                row(deg, e0, slot);
                        },
                        barrier);
            } else {
                int slot = 0; // the thread's message slots of the layers before
                uint32_t next = lean ? 0u : s_layer[0];
                for (int l = 0; l < p.mb; ++l) {
                    const layer_word lw{ next };
                    if constexpr (!lean)
                        next = s_layer[l + 1]; // (read ahead: see layer_word)
                    const int e0 = lean ? tab.layer_start[l] : lw.first();
                    const int d = lean ? tab.layer_start[l + 1] - e0 : lw.entries(), dq = (d + TR - 1) / TR;
                    if constexpr (SPLIT) { // (every layer: rows of one sub-layer without a missing entry
                        // are split layers of one part whose entries are all lone; the degree is not
                        // a switch's case there either, which cost registers)
                        const int stride = lw.stride(), skip = lw.holed() ? hole_of(tab, tab.holes, l, row) : -1;
                        const int sub = stride == 1 ? 0 : row % stride;
                        split_layer<T, M, MAXD, split_shared_entries>(gcw, mrow + slot, tab.entry + e0, d,
                                                                      tab.shared[l], stride, sub, skip, work, rb, rbz,
                                                                      p.fx);
                    } else if (work) {
                        with_degree<MAXD>(dq, [&](auto deg) {
                            layered_row<T, M, decltype(deg)::value, TR>(gcw, mrow + slot, tab.entry + e0, d, q, rb,
                                                                        rbz, p.fx);
                        });
                    }
                    slot += dq;
                    if (lean || !lw.free_next())
                        __syncthreads();
                }
            }
            all_done = end_iteration(p, it, work, active, lane_used, w == 0, local, s_bad, s_done, s_iters, [&] {
                bool bad = false, stop = false;
                if constexpr (!std::is_void_v<PROFILE>) {
                    profile_layers<PROFILE, 1>(
                        [&](auto deg, int e0, int) {
                            constexpr int D = decltype(deg)::value;
                            if (!stop)
                                bad |= row_parity<T, D, 1>(gcw, tab.entry + e0, D, 0, rb, rbz) < 0;
                        },
                        [&](int l) {
                            if (l % 4 == 3) { // (flagged_bad)
                                if (bad)
                                    flag_bad(s_bad, local);
                                stop = bad || flagged_bad(s_bad, local);
                            }
                        });
                } else {
                    for (int l = 0; l < p.mb && !bad; ++l) {
                        if (TR == 1 && l % 4 == 3 && flagged_bad(s_bad, local))
                            break;
                        const int e0 = tab.layer_start[l], d = tab.layer_start[l + 1] - e0;
                        const bool holed = SPLIT && layer_word{ s_layer[l] }.holed();
                        const int skip = holed ? hole_of(tab, tab.holes, l, row) : -1;
                        with_degree<MAXD>((d + TR - 1) / TR, [&](auto deg) {
                            bad = row_parity<T, decltype(deg)::value, TR>(gcw, tab.entry + e0, d, q, rb, rbz, skip) <
                                  0;
                        });
                    }
                }
                return bad;
            });
        }
        __syncthreads();

        if (active)
            write_results(p, gamma, cw, w, cwt, s_iters[local], s_bad[local] != 0, out, results, posteriors);
    }
}

template <typename T, typename M, int MAXD, int TR>
__global__ void __launch_bounds__(layered_bounds<TR, MAXD>::threads, layered_bounds<TR, MAXD>::blocks)
    ldpc_layered_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                        uint8_t* __restrict__ out, frame_status* __restrict__ results, float* __restrict__ posteriors,
                        int* __restrict__ queue)
{
    layered_kernel_body<T, M, MAXD, TR, void>(p, tab, soft, out, results, posteriors, queue);
}

/*! The layered kernel with every layer taken as a split layer (split_layer; one lane a row,
 *  the layer loop): codes whose messages fit shared memory but which the general kernel takes
 *  for their sub-layers and runs as loops (DVB-S2 16200 3/5, 2/3, 4/5: ldpc_cuda.cu); rows of up
 *  to MAXD entries (12 or split_entries), registers for two blocks of up to split_threads
 *  threads an SM. */
template <int MAXD>
__global__ void __launch_bounds__(split_threads, 2)
    ldpc_layered_split_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                              uint8_t* __restrict__ out, frame_status* __restrict__ results,
                              float* __restrict__ posteriors, int* __restrict__ queue)
{
    static_assert(MAXD == 12 || MAXD == split_entries, "split layers: rows of up to 12 or 16 entries");
    layered_kernel_body<int16_t, int8_t, MAXD, 1, void, true>(p, tab, soft, out, results, posteriors, queue);
}

/*! The layered kernel (int8 messages, one lane a row) with PROFILE's layers unrolled. Compiled
 *  for compute capability 9.0 on only, as the pair kernel's profiles (ldpc_cuda_pairs.cuh). */
template <class PROFILE>
__global__ void __launch_bounds__(layered_bounds<1, profile_maxd<PROFILE>>::threads,
                                  layered_bounds<1, profile_maxd<PROFILE>>::blocks)
    ldpc_layered_profile_kernel(gpu_params p, const __grid_constant__ gpu_table tab, const int8_t* __restrict__ soft,
                                uint8_t* __restrict__ out, frame_status* __restrict__ results,
                                float* __restrict__ posteriors, int* __restrict__ queue)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    layered_kernel_body<int16_t, int8_t, profile_maxd<PROFILE>, 1, PROFILE>(p, tab, soft, out, results, posteriors,
                                                                            queue);
#else
    __trap(); // (never launched below 9.0)
#endif
}

typedef void (*kernel_fn)(gpu_params, const gpu_table, const int8_t*, uint8_t*, frame_status*, float*, int*);

/*! The layer profiles the one-codeword layered kernel is compiled for: 5G NR base graph 1 (every
 *  lifting size that takes this kernel, Z = 384 where a pair does not fit shared memory and
 *  sizes where a pair would leave an SM fewer codewords, and where an SM then holds at most
 *  three of its blocks: shape_for in ldpc_cuda.cu). */
using profile_nr_bg1 = layer_profile<19, 19, 19, 19, 3, 8, 9, 7, 10, 9, 7, 8, 7, 6, 7, 7, 6, 6, 6, 6, 6, 6, 5, 5,
                                     6, 5, 5, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 5, 5, 4, 5, 4, 5, 5, 4>;

//! the int8 layered kernel compiled for a code of these layer degrees, or null where none is
inline kernel_fn layered_kernel_for_profile(const std::vector<int>& degrees)
{
    if (profile_nr_bg1::matches(degrees))
        return ldpc_layered_profile_kernel<profile_nr_bg1>;
    return nullptr;
}

/*! The layered kernel for rows spread over TR lanes whose longest row gives a lane up to
 *  max_degree entries: rows unrolled to 8, 16, 24 or 32 entries (TR 1), 8 or 16 (TR 2), 8
 *  (TR 4); null where none applies. */
template <typename T, typename M>
kernel_fn layered_by_degree(int tr, int max_degree)
{
    if (tr == 1)
        return max_degree <= 8    ? ldpc_layered_kernel<T, M, 8, 1>
               : max_degree <= 16 ? ldpc_layered_kernel<T, M, 16, 1>
               : max_degree <= 24 ? ldpc_layered_kernel<T, M, 24, 1>
                                  : ldpc_layered_kernel<T, M, 32, 1>;
    if (tr == 2)
        return max_degree <= 8 ? ldpc_layered_kernel<T, M, 8, 2> : ldpc_layered_kernel<T, M, 16, 2>;
    if (tr == 4 && max_degree <= 8)
        return ldpc_layered_kernel<T, M, 8, 4>;
    return nullptr;
}

/*! the split-layer kernel (int8 messages) for rows of up to max_degree entries, or null: the
 *  rows of a split layer are as long as the kernel's most entries, those past a row's degree
 *  masked off (split_layer), so rows of up to 12 take a kernel of 12 (DVB-S2 16200 3/5's 11) */
inline kernel_fn split_kernel_for(int max_degree)
{
    return max_degree <= 12              ? ldpc_layered_split_kernel<12>
           : max_degree <= split_entries ? ldpc_layered_split_kernel<split_entries>
                                         : nullptr;
}

//! int8 messages with int16 posteriors, or int16 messages with int32 posteriors (ldpc_common.h);
//! max_degree: the most entries of a row a lane holds
kernel_fn pick_kernel(bool int8_messages, int tr, int max_degree)
{
    return int8_messages ? layered_by_degree<int16_t, int8_t>(tr, max_degree)
                         : layered_by_degree<int32_t, int16_t>(tr, max_degree);
}

} // namespace
} // namespace gpufec

#endif
