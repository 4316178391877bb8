/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the CUDA turbo engines share: their chunks (chunk c of a decode() of `frames` frames is
 * frames [c chunk, c chunk + m); its host ports are the soft values (in 0), the packed decisions
 * (out 0) and, where the GPU writes them, the reports (out 1)), run through the engine's
 * pipeline, and the interleaver's permutations on the device. */
#ifndef INCLUDED_GPUFEC_TURBO_CHUNKS_H
#define INCLUDED_GPUFEC_TURBO_CHUNKS_H

#include "runtime/batch_pipeline.h"
#include "turbo_engine.h"

#include <algorithm>
#include <vector>

namespace gpufec {

struct turbo_chunks {
    const int8_t* in;
    uint8_t* bits;
    frame_status* report; //!< null: the engine fills the reports on the host
    size_t frames, chunk, n, bytes;

    int64_t count() const { return int64_t((frames + chunk - 1) / chunk); }
    size_t frames_in(int64_t c) const { return std::min(chunk, frames - size_t(c) * chunk); }
    chunk_io io(int64_t c) const
    {
        const size_t a = size_t(c) * chunk, m = frames_in(c);
        chunk_io io;
        io.in[0] = in + a * n;
        io.in_bytes[0] = m * n;
        io.out[0] = bits + a * bytes;
        io.out_bytes[0] = m * bytes;
        if (report) {
            io.out[1] = report + a;
            io.out_bytes[1] = m * sizeof(frame_status);
        }
        return io;
    }
    //! every chunk through `pipe` on GPU `device`: enqueue(slot_view, frames of the chunk) puts
    //! the chunk's kernels on the slot's stream
    template <class Enqueue>
    void run(int device, batch_pipeline& pipe, Enqueue&& enqueue) const
    {
        if (frames == 0)
            return;
        device_guard g(device);
        pipe.run(
            count(), [&](int64_t c) { return io(c); },
            [&](int64_t c, const slot_view& v) { enqueue(v, frames_in(c)); });
    }
};

//! pi (stage of the interleaved order -> natural position), then its inverse: K words each
inline void upload_permutations(device_buffer<uint32_t>& d, const turbo_code& code)
{
    std::vector<uint32_t> both = code.pi.permutation();
    both.insert(both.end(), code.pi.inverse().begin(), code.pi.inverse().end());
    d.assign(both);
}

} // namespace gpufec

#endif
