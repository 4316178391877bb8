# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the repetition family (read by lib/CMakeLists.txt)
gpufec_add_family(repetition
  SOURCES
    repetition.cc
  CUDA
    repetition_cuda.cu)
