# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the turbo family (read by lib/CMakeLists.txt)
gpufec_add_family(turbo
  SOURCES
    turbo_code.cc
    turbo_reference.cc
    turbo_fptd.cc
    fptd_exchange.cc
    turbo_family.cc
    turbo_fixed_cpu.cc
    turbo_fptd_fixed_cpu.cc
    turbo_fixed_lanes.cc
    lte_coding.cc
  CUDA
    turbo_cuda.cu
    turbo_fptd_cuda.cu
    turbo_ccsds_cuda.cu
  TESTS
    qa_turbo.cc
    qa_turbo_ccsds.cc
    qa_turbo_any_k.cc
    qa_turbo_lanes.cc
    qa_fptd_exchange.cc
    qa_lte_coding.cc)
# the FPTD with max-log gives the GPU's bits only without fused multiply-adds
set_source_files_properties(turbo/turbo_fptd.cc PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# vector arguments between instruction sets: every such function is inlined (turbo_cpu_lanes.h)
set_source_files_properties(turbo/turbo_fixed_lanes.cc PROPERTIES COMPILE_OPTIONS "-Wno-psabi")
