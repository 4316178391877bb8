/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* A small pool of persistent threads for the CPU engines: parallel_for(n, fn) runs fn(i, worker)
 * for every i in [0, n) on the pool and the calling thread, handing out indices one at a time
 * (so a thread that is preempted by other flowgraph blocks does not hold the others back), and
 * returns when all are done. Starting threads once, not per call, matters when a block calls
 * the decoder thousands of times a second. One pool belongs to one decoder instance; calls on
 * one pool are serialised. */
#ifndef INCLUDED_GPUFEC_RUNTIME_WORKER_POOL_H
#define INCLUDED_GPUFEC_RUNTIME_WORKER_POOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpufec {

class worker_pool
{
public:
    //! threads: total parallelism including the calling thread (at least 1)
    explicit worker_pool(int threads)
    {
        for (int w = 1; w < threads; ++w)
            d_threads.emplace_back([this, w] { loop(w); });
    }

    ~worker_pool()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_stop = true;
        }
        d_start.notify_all();
        for (auto& t : d_threads)
            t.join();
    }

    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    int size() const { return static_cast<int>(d_threads.size()) + 1; }

    //! fn(index, worker) with worker in [0, size()); rethrows the first exception of any call
    void parallel_for(int64_t n, const std::function<void(int64_t, int)>& fn)
    {
        std::lock_guard<std::mutex> serial(d_call);
        if (n <= 0)
            return;
        if (n == 1 || d_threads.empty()) {
            for (int64_t i = 0; i < n; ++i)
                fn(i, 0);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_fn = &fn;
            d_n = n;
            d_next.store(0);
            d_busy = static_cast<int>(d_threads.size());
            d_error = nullptr;
            ++d_generation;
        }
        d_start.notify_all();
        drain(0);
        std::unique_lock<std::mutex> lock(d_mutex);
        d_done.wait(lock, [this] { return d_busy == 0; });
        d_fn = nullptr;
        if (d_error)
            std::rethrow_exception(d_error);
    }

private:
    void drain(int worker)
    {
        try {
            for (int64_t i = d_next.fetch_add(1); i < d_n; i = d_next.fetch_add(1))
                (*d_fn)(i, worker);
        } catch (...) {
            std::lock_guard<std::mutex> lock(d_mutex);
            if (!d_error)
                d_error = std::current_exception();
            d_next.store(d_n); // the others stop taking new indices
        }
    }

    void loop(int worker)
    {
        uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(d_mutex);
                d_start.wait(lock, [&] { return d_stop || d_generation != seen; });
                if (d_stop)
                    return;
                seen = d_generation;
            }
            drain(worker);
            std::lock_guard<std::mutex> lock(d_mutex);
            if (--d_busy == 0)
                d_done.notify_one();
        }
    }

    std::vector<std::thread> d_threads;
    std::mutex d_call;  // one parallel_for at a time
    std::mutex d_mutex; // guards everything below but d_next
    std::condition_variable d_start, d_done;
    const std::function<void(int64_t, int)>* d_fn = nullptr;
    int64_t d_n = 0;
    std::atomic<int64_t> d_next{ 0 };
    int d_busy = 0;
    uint64_t d_generation = 0;
    bool d_stop = false;
    std::exception_ptr d_error;
};

} // namespace gpufec

#endif
