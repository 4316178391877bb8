/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The repetition family's engines: the template of a family on the engine contract
 * (frame/frame_engine.h), with a CPU engine and a CUDA one that give the same bits. */
#ifndef INCLUDED_GPUFEC_REPETITION_ENGINE_H
#define INCLUDED_GPUFEC_REPETITION_ENGINE_H

#include "frame/frame_engine.h"
#include <memory>

namespace gpufec {

//! frame_bits information bits, each sent `repeat` times in a row
struct repetition_setup {
    int frame_bits = 1024;
    int repeat = 3;
};

std::unique_ptr<frame_engine> make_repetition_cpu(const repetition_setup& s);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<frame_engine> make_repetition_cuda(const repetition_setup& s, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
