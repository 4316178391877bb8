# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the tvb family (read by lib/CMakeLists.txt)
gpufec_add_family(tvb
  SOURCES
    bsid.cc
    tvb_code.cc
    simcommsys_file.cc
    tvb_map_cpu.cc
    tvb_family.cc
  CUDA
    tvb_cuda.cu
  TESTS
    qa_tvb.cc
    qa_tvb_fuzz.cc)
# the CPU reference and the GPU engine give the same numbers: no fused multiply-add
set_source_files_properties(tvb/tvb_map_cpu.cc PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
set_source_files_properties(tvb/tvb_cuda.cu PROPERTIES COMPILE_OPTIONS "-fmad=false")
