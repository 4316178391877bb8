/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The CPU parallelism every CPU engine uses. By default all decoders of a process share one
 * pool (set_cpu_threads() sizes it), so several decoder blocks do not each start a thread per
 * core; a decoder given its own thread count gets a private pool. With oneTBB the pool is a
 * task arena (work stealing, shared with anything else in the process that uses TBB); without
 * it, the built-in worker_pool. */
#ifndef INCLUDED_GPUFEC_RUNTIME_CPU_POOL_H
#define INCLUDED_GPUFEC_RUNTIME_CPU_POOL_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gpufec {

class cpu_pool
{
public:
    virtual ~cpu_pool() = default;
    //! threads that may run fn at once; fn's worker index is in [0, size())
    virtual int size() const = 0;
    //! fn(index, worker) for every index in [0, n), on the pool and the calling thread; returns
    //! when all are done; rethrows the first exception
    virtual void parallel_for(int64_t n, const std::function<void(int64_t, int)>& fn) = 0;
    virtual std::string kind() const = 0; //!< "tbb" or "built-in"
};

/*! fn(begin, end) over [0, n) in ranges of about `bytes_per_task` / `item_bytes` items, the
 *  ranges in parallel on `pool`; a single range runs on the calling thread, without the pool.
 *  For loops whose items are too light to be a task each (a frame's copy): handing out tens of
 *  thousands of single items costs milliseconds in the pool's shared counter alone. */
template <class Fn>
void parallel_ranges(cpu_pool& pool, size_t n, size_t item_bytes, Fn&& fn, size_t bytes_per_task = size_t(1) << 18)
{
    const size_t grain = item_bytes >= bytes_per_task ? 1 : bytes_per_task / (item_bytes ? item_bytes : 1);
    const int64_t ranges = int64_t((n + grain - 1) / grain);
    if (ranges <= 1) {
        if (n)
            fn(size_t(0), n);
        return;
    }
    pool.parallel_for(ranges, [&](int64_t r, int) {
        const size_t a = size_t(r) * grain;
        fn(a, a + grain < n ? a + grain : n);
    });
}

//! threads > 0: a private pool of that many threads; 0: the process-wide pool
std::shared_ptr<cpu_pool> get_cpu_pool(int threads);

/*! Units (frames, a stream's parallel blocks) of a CPU engine's default batch on a machine of
 *  `cores`: `few_cores` up to four cores, where a batch's input is still in the cache when it is
 *  decoded (larger batches measured 8-10 % slower in a flowgraph on 2 cores); beyond, `per_core`
 *  a core, so that each core has several groups of SIMD lanes and one the flowgraph's own threads
 *  hold up delays a part of a batch rather than all of it (16 cores, 256 a core: the turbo
 *  blocks 0.28 -> 0.37 Gb/s int16, 0.48 -> 0.60 int8, Viterbi 0.94 -> 1.45). per_core 0:
 *  few_cores everywhere. The callers cap it by memory. */
size_t cpu_batch_units(size_t few_cores, size_t per_core, unsigned cores);
//! the same for this machine (std::thread::hardware_concurrency)
size_t cpu_batch_units(size_t few_cores, size_t per_core);

} // namespace gpufec

#endif
