/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cpu_pool.h"

#include <gnuradio/gpufec/core/runtime/device.h>

#include "worker_pool.h"
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>
#ifdef __linux__
#include <sched.h>
#endif

#ifdef GPUFEC_HAVE_TBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#endif

namespace gpufec {

namespace {

class builtin_pool : public cpu_pool
{
public:
    explicit builtin_pool(int threads) : d_pool(threads) {}
    int size() const override { return d_pool.size(); }
    void parallel_for(int64_t n, const std::function<void(int64_t, int)>& fn) override
    {
        d_pool.parallel_for(n, fn);
    }
    std::string kind() const override { return "built-in"; }

private:
    worker_pool d_pool;
};

#ifdef GPUFEC_HAVE_TBB
// a task arena of `threads` slots: work stealing, one index at a time (the engines' tasks are
// large: a SIMD group of frames or of trellis blocks), worker = the thread's slot in the arena
class tbb_pool : public cpu_pool
{
public:
    explicit tbb_pool(int threads) : d_arena(threads) { d_arena.initialize(); }
    int size() const override { return d_arena.max_concurrency(); }
    void parallel_for(int64_t n, const std::function<void(int64_t, int)>& fn) override
    {
        if (n <= 0)
            return;
        d_arena.execute([&] {
            oneapi::tbb::parallel_for(
                oneapi::tbb::blocked_range<int64_t>(0, n, 1),
                [&](const oneapi::tbb::blocked_range<int64_t>& r) {
                    const int worker = oneapi::tbb::this_task_arena::current_thread_index();
                    for (int64_t i = r.begin(); i != r.end(); ++i)
                        fn(i, worker);
                },
                oneapi::tbb::simple_partitioner());
        });
    }
    std::string kind() const override { return "tbb"; }

private:
    mutable oneapi::tbb::task_arena d_arena;
};
#endif

std::shared_ptr<cpu_pool> make_pool(int threads)
{
#ifdef GPUFEC_HAVE_TBB
    return std::make_shared<tbb_pool>(threads);
#else
    return std::make_shared<builtin_pool>(threads);
#endif
}

std::mutex g_mutex;
int g_threads = 0; // 0: every core (or GPUFEC_CPU_THREADS)
std::shared_ptr<cpu_pool> g_shared;

int default_threads()
{
    if (const char* env = std::getenv("GPUFEC_CPU_THREADS")) {
        const int v = std::atoi(env);
        if (v > 0)
            return std::min(v, 1024);
    }
#ifdef __linux__
    // the cores this process may run on: fewer than the machine's under taskset, a container's
    // cpuset or an MPI launcher's binding (one rank bound to one core must not start a thread
    // per core of the machine on it)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace

size_t cpu_batch_units(size_t few_cores, size_t per_core, unsigned cores)
{
    return cores > 4 && per_core > 0 ? per_core * cores : few_cores;
}

size_t cpu_batch_units(size_t few_cores, size_t per_core)
{
    return cpu_batch_units(few_cores, per_core, std::thread::hardware_concurrency());
}

void set_cpu_threads(int threads)
{
    if (threads < 0 || threads > 1024)
        throw std::invalid_argument("cpu_threads: " + std::to_string(threads) +
                                    " is not valid (allowed: 0 = every core, or 1..1024)");
    std::lock_guard<std::mutex> lock(g_mutex);
    if (threads != g_threads)
        g_shared.reset(); // decoders made from now on share a pool of the new size
    g_threads = threads;
}

int cpu_threads()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_threads > 0 ? g_threads : default_threads();
}

std::shared_ptr<cpu_pool> get_cpu_pool(int threads)
{
    if (threads > 0)
        return make_pool(threads);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_shared)
        g_shared = make_pool(g_threads > 0 ? g_threads : default_threads());
    return g_shared;
}

} // namespace gpufec
