/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* One-way messages between the blocks of a thread block cluster (compute capability 9.0), for
 * kernels that exchange a few values between blocks many times over.
 *
 * A block receives through a transaction barrier (mbarrier) in its shared memory: a sender
 * writes into the receiver's shared memory with st.async, and the hardware counts the bytes on
 * the receiver's barrier; the receiver arms the barrier with the bytes it expects and waits for
 * its phase to complete, after which the values are visible to it. Nothing else orders the
 * blocks, so this is much cheaper than a cluster barrier with release/acquire semantics
 * (cluster.sync()), which waits for every earlier memory operation of the cluster. A relaxed
 * cluster barrier (arrive_relaxed + wait), which only orders execution, then keeps a fast block
 * from overwriting values that a slower one has not read yet.
 *
 * Addresses are 32-bit: shared::cta ones from smem_address(), shared::cluster ones from
 * map_to_rank() (the same variable in another block of the cluster). */
#ifndef INCLUDED_GPUFEC_RUNTIME_CLUSTER_MESSAGES_CUH
#define INCLUDED_GPUFEC_RUNTIME_CLUSTER_MESSAGES_CUH

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

namespace gpufec {
namespace cluster_msg {

__device__ __forceinline__ uint32_t smem_address(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

//! the shared::cluster address of shared::cta address `a` in block `rank` of the cluster
__device__ __forceinline__ uint32_t map_to_rank(uint32_t a, int rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}

//! 4 bytes into a block's shared memory, counted on that block's barrier `mbar` (both cluster addresses)
__device__ __forceinline__ void send(uint32_t a, float v, uint32_t mbar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(a),
                 "r"(__float_as_uint(v)), "r"(mbar)
                 : "memory");
}

//! 16 bytes (a 16-byte aligned address), counted as send() does
__device__ __forceinline__ void send4(uint32_t a, float v0, float v1, float v2, float v3, uint32_t mbar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(a),
                 "r"(__float_as_uint(v0)), "r"(__float_as_uint(v1)), "r"(__float_as_uint(v2)),
                 "r"(__float_as_uint(v3)), "r"(mbar)
                 : "memory");
}

//! a barrier that completes a phase on `arrivals` arrivals (and the bytes they expect)
__device__ __forceinline__ void barrier_init(uint32_t mbar, int arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mbar), "r"(arrivals) : "memory");
}

//! makes initialised barriers visible to the cluster (before the cluster's first barrier)
__device__ __forceinline__ void barrier_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

//! one arrival on the block's own barrier, announcing `bytes` more to come in this phase
__device__ __forceinline__ void expect(uint32_t mbar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(bytes) : "memory");
}

//! waits until the phase of parity `parity` (the n-th phase has parity n & 1) has completed.
//! It spins on test_wait, which never suspends the thread: the waits here are a fraction of a
//! microsecond, and try_wait, which may suspend the thread, made the FPTD's half-iterations 2 %
//! slower on an H100.
__device__ __forceinline__ void wait(uint32_t mbar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(mbar), "r"(parity)
                     : "memory");
    } while (!done);
}

//! a 4-byte store into another block's shared memory (a cluster address), not counted on any
//! barrier: an arrive_release() after it makes it visible
__device__ __forceinline__ void store_remote(uint32_t a, uint32_t v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

//! an arrival on barrier `mbar` of another block (a cluster address) with release semantics at
//! cluster scope: what this thread wrote or acquired before it is visible to a thread that then
//! waits on that barrier with wait_acquire()
__device__ __forceinline__ void arrive_release(uint32_t mbar)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mbar) : "memory");
}

//! wait() with acquire semantics at cluster scope, the other end of arrive_release()
__device__ __forceinline__ void wait_acquire(uint32_t mbar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; "
                     "selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(mbar), "r"(parity)
                     : "memory");
    } while (!done);
}

//! the two halves of execution_barrier(), for work between them that no other thread waits
//! for: a thread arrives, and later waits until every thread of the cluster has arrived (each
//! thread alternates the two)
__device__ __forceinline__ void execution_arrive() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }
__device__ __forceinline__ void execution_wait() { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }

//! every thread of the cluster gets here before any goes on; the arrival is relaxed: it orders
//! execution, not memory
__device__ __forceinline__ void execution_barrier()
{
    execution_arrive();
    execution_wait();
}

} // namespace cluster_msg
} // namespace gpufec

#endif
#endif
