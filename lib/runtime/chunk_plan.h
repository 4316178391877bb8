/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* How a GPU decoder cuts a batch into pipeline chunks (batch_pipeline.h). Chunks of one size
 * leave the GPU idle while the first chunk is copied in and the link idle while the last
 * chunk's kernel runs alone; a large batch therefore starts and ends with smaller chunks
 * (a quarter, then a half of the chunk size, and the same in reverse at the end), so that the
 * first kernel starts after a quarter of the copy and the last one is short. */
#ifndef INCLUDED_GPUFEC_RUNTIME_CHUNK_PLAN_H
#define INCLUDED_GPUFEC_RUNTIME_CHUNK_PLAN_H

#include <cstddef>
#include <vector>

namespace gpufec {

/*! The chunk boundaries of a batch of `frames` frames for chunks of at most `per_chunk`:
 *  bounds[c] .. bounds[c + 1] is chunk c (bounds.front() 0, bounds.back() frames; empty batch:
 *  {0}). `graded`: batches of at least 2.5 chunks (and chunks of at least 4 frames) start and
 *  end with a quarter and a half chunk, the rest cut into equal chunks of at most per_chunk;
 *  otherwise (or not graded) chunks of per_chunk and a last shorter one. `bounds` is reused
 *  (no allocation once it has grown). */
inline void plan_chunks(size_t frames, size_t per_chunk, bool graded, std::vector<size_t>& bounds)
{
    bounds.assign(1, 0);
    if (frames == 0)
        return;
    if (per_chunk == 0)
        per_chunk = 1;
    const size_t quarter = per_chunk / 4, half = per_chunk / 2;
    if (!graded || per_chunk < 4 || 2 * frames < 5 * per_chunk) {
        for (size_t at = per_chunk; at < frames; at += per_chunk)
            bounds.push_back(at);
        bounds.push_back(frames);
        return;
    }
    const size_t middle = frames - 2 * (quarter + half);
    const size_t pieces = (middle + per_chunk - 1) / per_chunk;
    size_t at = 0;
    bounds.push_back(at += quarter);
    bounds.push_back(at += half);
    for (size_t i = 0; i < pieces; ++i)
        bounds.push_back(at += middle / pieces + (i < middle % pieces ? 1 : 0));
    bounds.push_back(at += half);
    bounds.push_back(at += quarter);
}

} // namespace gpufec

#endif
