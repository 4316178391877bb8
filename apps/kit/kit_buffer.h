/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Host memory for a kit's batches that grows to the largest batch seen (page-locked where a
 * GPU is present, so the decoder copies it at full link speed), and the kits' parallel loop
 * over the frames of a batch. */
#ifndef INCLUDED_GPUFEC_APPS_KIT_BUFFER_H
#define INCLUDED_GPUFEC_APPS_KIT_BUFFER_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include "runtime/cpu_pool.h"
#include <algorithm>
#include <cstdint>
#include <memory>

namespace gpufec {
namespace app {

class kit_buffer
{
public:
    template <typename T>
    T* get(size_t count)
    {
        const size_t bytes = std::max<size_t>(1, count * sizeof(T));
        if (!d_buf || d_buf->size() < bytes)
            d_buf = std::make_unique<host_buffer>(bytes);
        return reinterpret_cast<T*>(d_buf->data());
    }

private:
    std::unique_ptr<host_buffer> d_buf;
};

//! frames of one pool task when a batch is made or checked in parallel
constexpr uint64_t frames_per_task = 16;

//! fn(frame, pool worker) for frames [0, count), frames_per_task at a time on the pool
template <typename Fn>
void for_frames(cpu_pool& pool, uint64_t count, Fn&& fn)
{
    const uint64_t tasks = (count + frames_per_task - 1) / frames_per_task;
    pool.parallel_for(int64_t(tasks), [&](int64_t t, int w) {
        const uint64_t end = std::min(count, uint64_t(t + 1) * frames_per_task);
        for (uint64_t f = uint64_t(t) * frames_per_task; f < end; ++f)
            fn(f, w);
    });
}

} // namespace app
} // namespace gpufec

#endif
