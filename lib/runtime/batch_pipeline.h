/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The batch pipeline every CUDA decoder uses: a batch is cut into chunks that go round-robin
 * over the decoder's own streams (at least two), so that while chunk c runs its kernels, chunk
 * c+1 is being copied in and chunk c-1 copied out. Chunks finish in order. Host memory that is
 * already page-locked is copied from/to directly; other memory is staged through the slot's
 * pinned buffers (the staging copy of chunk c+1 overlaps the GPU work of chunk c). */
#ifndef INCLUDED_GPUFEC_RUNTIME_BATCH_PIPELINE_H
#define INCLUDED_GPUFEC_RUNTIME_BATCH_PIPELINE_H

#include "cuda_resources.h"
#include <cstring>
#include <vector>

namespace gpufec {

struct chunk_io {
    const uint8_t* in = nullptr; // host input of this chunk
    size_t in_bytes = 0;
    uint8_t* out = nullptr;      // host output of this chunk
    size_t out_bytes = 0;
};

class batch_pipeline
{
public:
    explicit batch_pipeline(int slots = 3) : d_slots(slots < 2 ? 2 : slots) {}
    int slots() const { return static_cast<int>(d_slots.size()); }
    cudaStream_t stream(int slot) const { return d_slots[slot].stream.get(); }

    /*! describe(c) -> chunk_io; compute(c, slot, d_in, d_out, stream) enqueues the kernels
     *  that turn d_in (in_bytes) into d_out (out_bytes) on `stream`. Blocks until done. */
    template <class Describe, class Compute>
    void run(int64_t nchunks, Describe&& describe, Compute&& compute)
    {
        const int S = slots();
        for (auto& s : d_slots)
            s.chunk = -1;
        for (int64_t c = 0; c < nchunks; ++c) {
            slot& sl = d_slots[c % S];
            finish(sl);
            sl.io = describe(c);
            sl.in_dev.resize(sl.io.in_bytes);
            sl.out_dev.resize(sl.io.out_bytes);
            const uint8_t* src = sl.io.in;
            if (!is_pinned_host(src)) {
                sl.in_host.resize(sl.io.in_bytes);
                std::memcpy(sl.in_host.get(), src, sl.io.in_bytes);
                src = sl.in_host.get();
            }
            const cudaStream_t st = sl.stream.get();
            GPUFEC_CUDA_CHECK(cudaMemcpyAsync(sl.in_dev.get(), src, sl.io.in_bytes,
                                              cudaMemcpyHostToDevice, st));
            compute(c, static_cast<int>(c % S), sl.in_dev.get(), sl.out_dev.get(), st);
            sl.out_staged = !is_pinned_host(sl.io.out);
            uint8_t* dst = sl.io.out;
            if (sl.out_staged) {
                sl.out_host.resize(sl.io.out_bytes);
                dst = sl.out_host.get();
            }
            GPUFEC_CUDA_CHECK(cudaMemcpyAsync(dst, sl.out_dev.get(), sl.io.out_bytes,
                                              cudaMemcpyDeviceToHost, st));
            sl.chunk = c;
        }
        for (int64_t c = nchunks - S < 0 ? 0 : nchunks - S; c < nchunks; ++c)
            finish(d_slots[c % S]);
    }

private:
    struct slot {
        cuda_stream stream;
        pinned_buffer<uint8_t> in_host, out_host;
        device_buffer<uint8_t> in_dev, out_dev;
        chunk_io io;
        int64_t chunk = -1;
        bool out_staged = false;
    };
    void finish(slot& sl)
    {
        if (sl.chunk < 0)
            return;
        sl.stream.sync();
        if (sl.out_staged)
            std::memcpy(sl.io.out, sl.out_host.get(), sl.io.out_bytes);
        sl.chunk = -1;
    }
    std::vector<slot> d_slots;
};

} // namespace gpufec

#endif
