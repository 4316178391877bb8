# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the scppm family (read by lib/CMakeLists.txt)
gpufec_add_family(scppm
  SOURCES
    scppm_code.cc
    scppm_framing.cc
    scppm_cpu.cc
    scppm_family.cc
  CUDA
    scppm_cuda.cu
  TESTS
    qa_scppm.cc)
# vector arguments between instruction sets: every such function is inlined (scppm_cpu_lanes.h);
# GCC's note on their ABI comes past the header's pragma
set_source_files_properties(scppm/scppm_cpu.cc PROPERTIES COMPILE_OPTIONS "-Wno-psabi")
