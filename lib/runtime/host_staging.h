/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Host memory a decoder reuses from batch to batch for what goes to or comes from its engine:
 * page-locked (host_buffer) for a GPU engine, so that the runtime's pipeline copies from and to
 * it directly instead of staging it once more through its own page-locked buffers; ordinary
 * memory for a CPU engine. Grown (by half again at least, so that a few batches settle it),
 * never shrunk; what it held is not kept when it grows. */
#ifndef INCLUDED_GPUFEC_RUNTIME_HOST_STAGING_H
#define INCLUDED_GPUFEC_RUNTIME_HOST_STAGING_H

#include <gnuradio/gpufec/core/device.h>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpufec {

class host_staging
{
public:
    explicit host_staging(bool page_locked = false) : d_locked(page_locked) {}
    void set_page_locked(bool page_locked) { d_locked = page_locked; }

    //! room for `count` values of T
    template <class T>
    T* get(size_t count)
    {
        const size_t bytes = count * sizeof(T);
        if (!d_locked) {
            d_plain.resize((bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t));
            return reinterpret_cast<T*>(d_plain.data());
        }
        if (!d_buffer || d_buffer->size() < bytes)
            d_buffer = std::make_unique<host_buffer>(std::max(bytes, d_buffer ? d_buffer->size() / 2 * 3 : size_t(0)));
        return reinterpret_cast<T*>(d_buffer->data());
    }

private:
    bool d_locked;
    std::vector<uint64_t> d_plain; // (8-byte aligned)
    std::unique_ptr<host_buffer> d_buffer;
};

} // namespace gpufec

#endif
