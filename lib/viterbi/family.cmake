# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the viterbi family (read by lib/CMakeLists.txt)
gpufec_add_family(viterbi
  SOURCES
    vit_params.cc
    vit_reference.cc
    vit_cpu.cc
    viterbi_decoders.cc
    viterbi_family.cc
    viterbi_async_stream.cc
  CUDA
    vit_cuda.cu
  TESTS
    qa_viterbi_cpu.cc
    qa_viterbi_stream.cc
    qa_viterbi_cuda.cc)
