/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Host memory for a kit's batches that grows to the largest batch seen (page-locked where a
 * GPU is present, so the decoder copies it at full link speed). */
#ifndef INCLUDED_GPUFEC_APPS_KIT_BUFFER_H
#define INCLUDED_GPUFEC_APPS_KIT_BUFFER_H

#include <gnuradio/gpufec/core/device.h>
#include <algorithm>
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

} // namespace app
} // namespace gpufec

#endif
