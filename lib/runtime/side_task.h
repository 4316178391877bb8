/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* One persistent helper thread that runs one job beside the caller: start(job), do the main
 * work, wait(). Used where host work can overlap a blocking GPU call (the erasure scan of a
 * frame batch). wait() rethrows what the job threw. */
#ifndef INCLUDED_GPUFEC_RUNTIME_SIDE_TASK_H
#define INCLUDED_GPUFEC_RUNTIME_SIDE_TASK_H

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace gpufec {

class side_task
{
public:
    side_task() : d_thread([this] { loop(); }) {}
    ~side_task()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_quit = true;
        }
        d_cv.notify_all();
        d_thread.join();
    }
    side_task(const side_task&) = delete;
    side_task& operator=(const side_task&) = delete;

    //! runs `job` on the helper thread; one job at a time (wait() before the next start())
    void start(std::function<void()> job)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_job = std::move(job);
            d_busy = true;
            d_error = nullptr;
        }
        d_cv.notify_all();
    }
    void wait()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_cv.wait(lock, [this] { return !d_busy; });
        if (d_error)
            std::rethrow_exception(d_error);
    }

private:
    void loop()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            d_cv.wait(lock, [this] { return d_quit || (d_busy && d_job); });
            if (d_quit)
                return;
            auto job = std::move(d_job);
            d_job = nullptr;
            lock.unlock();
            std::exception_ptr err;
            try {
                job();
            } catch (...) {
                err = std::current_exception();
            }
            lock.lock();
            d_error = err;
            d_busy = false;
            d_cv.notify_all();
        }
    }

    std::mutex d_mutex;
    std::condition_variable d_cv;
    std::function<void()> d_job;
    bool d_busy = false, d_quit = false;
    std::exception_ptr d_error;
    std::thread d_thread; // last: starts after the members it uses
};

} // namespace gpufec

#endif
