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

/*! A codeblock's status from its I codewords' results (the symbols each changed, or -1 where
 *  it did not decode): check 1 and their sum as corrected where all decoded, else check 0 and
 *  corrected -1. The CPU and GPU engines fold their results the same way. */
inline void rs_fold_status(const int* result, int interleave, frame_status& st)
{
    st.iterations = 1;
    st.check = 1;
    st.corrected = 0;
    for (int j = 0; j < interleave; ++j) {
        if (result[j] < 0)
            st.check = 0;
        else
            st.corrected += result[j];
    }
    if (!st.check)
        st.corrected = -1;
}
#ifdef GPUFEC_HAVE_CUDA
std::unique_ptr<frame_engine> make_rs_cuda(const rs_code& code, int device, size_t max_batch);
#endif

} // namespace gpufec

#endif
