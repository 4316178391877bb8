/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The Reed-Solomon family's engines (rs_family.cc): a codeblock a frame, its code bits as
 * soft values; packed information bytes and a status per frame out. */
#ifndef INCLUDED_GPUFEC_RS_RS_ENGINE_H
#define INCLUDED_GPUFEC_RS_RS_ENGINE_H

#include <gnuradio/gpufec/core/codes/reed_solomon.h>
#include "frame/frame_engine.h"
#include <memory>

namespace gpufec {

std::unique_ptr<frame_engine> make_rs_cpu(const rs_code& code, int threads);
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<frame_engine> make_rs_cuda(const rs_code& code, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
