/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The batch pipeline every CUDA decoder uses: a batch is cut into chunks that go round-robin
 * over the decoder's own streams (at least two), so that while chunk c runs its kernels, chunk
 * c+1 is being copied in and chunk c-1 copied out. Chunks finish in order.
 *
 * A chunk has up to `pipeline_ports` inputs (host -> device), outputs (device -> host: hard
 * bits, per-frame results, soft output) and device-only scratch areas, each with its own
 * buffer per slot. The engine gives the largest chunk's sizes at construction (the layout) and
 * every device buffer is allocated there, once; a batch allocates nothing. Host memory that is
 * already page-locked (the asynchronous decoder's slots) is copied from/to directly; other
 * memory is staged through page-locked buffers of the layout's size, made on first such use. */
#ifndef INCLUDED_GPUFEC_RUNTIME_BATCH_PIPELINE_H
#define INCLUDED_GPUFEC_RUNTIME_BATCH_PIPELINE_H

#include "cuda_resources.h"
#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpufec {

constexpr int pipeline_ports = 4;

//! the largest chunk's bytes per port: what the pipeline allocates at construction
struct pipeline_layout {
    std::vector<size_t> in, out, scratch;
};

//! one chunk's host memory, port by port in the layout's order (bytes 0: nothing to copy)
struct chunk_io {
    std::array<const void*, pipeline_ports> in{};
    std::array<size_t, pipeline_ports> in_bytes{};
    std::array<void*, pipeline_ports> out{};
    std::array<size_t, pipeline_ports> out_bytes{};
};

//! what compute() gets: the slot's device buffers and stream
struct slot_view {
    int slot = 0;
    cudaStream_t stream = nullptr;
    std::array<void*, pipeline_ports> in{}, out{}, scratch{};
    template <class T>
    T* input(int port) const { return static_cast<T*>(in[size_t(port)]); }
    template <class T>
    T* output(int port) const { return static_cast<T*>(out[size_t(port)]); }
    template <class T>
    T* scratch_as(int port) const { return static_cast<T*>(scratch[size_t(port)]); }
};

class batch_pipeline
{
public:
    batch_pipeline(int slots, const pipeline_layout& layout)
    {
        d_slots.resize(size_t(slots < 2 ? 2 : slots));
        grow(layout);
    }
    /*! Grows ports to at least the given sizes (never shrinks); for a port that only some
     *  batches use (soft output), made on the first batch that asks for it. Not during run(). */
    void grow(const pipeline_layout& layout)
    {
        if (layout.in.size() > pipeline_ports || layout.out.size() > pipeline_ports ||
            layout.scratch.size() > pipeline_ports)
            throw std::logic_error("batch_pipeline: more than " + std::to_string(pipeline_ports) +
                                   " ports of one kind");
        widen(d_layout.in, layout.in);
        widen(d_layout.out, layout.out);
        widen(d_layout.scratch, layout.scratch);
        for (auto& s : d_slots) {
            for (size_t p = 0; p < d_layout.in.size(); ++p)
                s.in_dev[p].resize(d_layout.in[p]);
            for (size_t p = 0; p < d_layout.out.size(); ++p)
                s.out_dev[p].resize(d_layout.out[p]);
            for (size_t p = 0; p < d_layout.scratch.size(); ++p)
                s.scratch_dev[p].resize(d_layout.scratch[p]);
        }
    }
    /*! At least `slots` chunks in flight from the next run() on: only the added slots' streams
     *  and buffers are allocated (never fewer slots). Not during run(). */
    void add_slots(int slots)
    {
        if (slots <= this->slots())
            return;
        d_slots.resize(size_t(slots));
        grow(d_layout);
    }
    int slots() const { return static_cast<int>(d_slots.size()); }
    const pipeline_layout& layout() const { return d_layout; }

    /*! describe(c) -> chunk_io for chunk c; compute(c, const slot_view&) enqueues the kernels
     *  that turn the slot's inputs into its outputs on its stream. Blocks until all is done.
     *  A chunk larger than the layout is a bug in the engine: std::logic_error. */
    template <class Describe, class Compute>
    void run(int64_t nchunks, Describe&& describe, Compute&& compute)
    {
        const int S = slots();
        for (auto& s : d_slots)
            s.chunk = -1;
        for (int64_t c = 0; c < nchunks; ++c) {
            slot& sl = d_slots[size_t(c % S)];
            finish(sl);
            sl.io = describe(c);
            slot_view v;
            v.slot = int(c % S);
            v.stream = sl.stream.get();
            for (size_t p = 0; p < pipeline_ports; ++p) {
                v.in[p] = sl.in_dev[p].get();
                v.out[p] = sl.out_dev[p].get();
                v.scratch[p] = sl.scratch_dev[p].get();
                copy_in(sl, p);
            }
            compute(c, static_cast<const slot_view&>(v));
            for (size_t p = 0; p < pipeline_ports; ++p)
                copy_out(sl, p);
            sl.chunk = c;
        }
        for (int64_t c = nchunks - S < 0 ? 0 : nchunks - S; c < nchunks; ++c)
            finish(d_slots[size_t(c % S)]);
    }

private:
    struct slot {
        cuda_stream stream;
        std::array<device_buffer<uint8_t>, pipeline_ports> in_dev, out_dev, scratch_dev;
        std::array<pinned_buffer<uint8_t>, pipeline_ports> in_host, out_host; // staging
        std::array<bool, pipeline_ports> out_staged{};
        chunk_io io;
        int64_t chunk = -1;
    };

    static void widen(std::vector<size_t>& have, const std::vector<size_t>& want)
    {
        if (have.size() < want.size())
            have.resize(want.size(), 0);
        for (size_t p = 0; p < want.size(); ++p)
            have[p] = std::max(have[p], want[p]);
    }

    static void fits(size_t bytes, const device_buffer<uint8_t>& b, const char* what, size_t p)
    {
        if (bytes > b.size())
            throw std::logic_error(std::string("batch_pipeline: chunk ") + what + " port " +
                                   std::to_string(p) + " needs " + std::to_string(bytes) +
                                   " bytes, the layout has " + std::to_string(b.size()));
    }

    void copy_in(slot& sl, size_t p)
    {
        const size_t bytes = sl.io.in_bytes[p];
        if (bytes == 0)
            return;
        fits(bytes, sl.in_dev[p], "input", p);
        const void* src = sl.io.in[p];
        if (!is_pinned_host(src)) {
            sl.in_host[p].resize(d_layout.in[p]);
            std::memcpy(sl.in_host[p].get(), src, bytes);
            src = sl.in_host[p].get();
        }
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(sl.in_dev[p].get(), src, bytes, cudaMemcpyHostToDevice,
                                          sl.stream.get()));
    }

    void copy_out(slot& sl, size_t p)
    {
        const size_t bytes = sl.io.out_bytes[p];
        sl.out_staged[p] = false;
        if (bytes == 0)
            return;
        fits(bytes, sl.out_dev[p], "output", p);
        void* dst = sl.io.out[p];
        if (!is_pinned_host(dst)) {
            sl.out_host[p].resize(d_layout.out[p]);
            dst = sl.out_host[p].get();
            sl.out_staged[p] = true;
        }
        GPUFEC_CUDA_CHECK(cudaMemcpyAsync(dst, sl.out_dev[p].get(), bytes, cudaMemcpyDeviceToHost,
                                          sl.stream.get()));
    }

    void finish(slot& sl)
    {
        if (sl.chunk < 0)
            return;
        sl.stream.sync();
        for (size_t p = 0; p < pipeline_ports; ++p)
            if (sl.out_staged[p])
                std::memcpy(sl.io.out[p], sl.out_host[p].get(), sl.io.out_bytes[p]);
        sl.chunk = -1;
    }

    pipeline_layout d_layout;
    std::vector<slot> d_slots;
};

} // namespace gpufec

#endif
