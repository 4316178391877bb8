# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the ldpc family (read by lib/CMakeLists.txt)
gpufec_add_family(ldpc
  SOURCES
    gf2_systematic.cc
    ldpc_code.cc
    ldpc_formats.cc
    ldpc_encoder.cc
    ldpc_reference.cc
    ldpc_schedule.cc
    ldpc_trim.cc
    ldpc_load_plan.cc
    ldpc_cpu.cc
    ldpc_decoder.cc
    ldpc_family.cc
    ldpc_transmission.cc
    nr_coding.cc
    ccsds_codes.cc
    dvbs2_codes.cc
    qc_encoder.cc
  CUDA
    ldpc_cuda.cu
  TESTS
    qa_ldpc_code.cc
    qa_ldpc_decoder.cc
    qa_ldpc_error_rates.cc
    qa_ldpc_cuda.cc
    qa_ldpc_fuzz.cc
    qa_ldpc_load_plan.cc
    qa_ldpc_transmission.cc
    qa_nr_coding.cc)
# the standards' base matrices, compiled in (read by the same parser as users' files)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/ldpc/standards/ieee80211n_ldpc_base_matrices.txt GPUFEC_IEEE80211N_TEXT)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/ldpc/standards/ieee80216e_ldpc_base_matrices.txt GPUFEC_IEEE80216E_TEXT)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/ldpc/standards/nr_ldpc_base_graphs.txt GPUFEC_NR_TEXT)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/ldpc/standards/dvbs2_ldpc_tables.txt GPUFEC_DVBS2_TEXT)
configure_file(ldpc/ldpc_standard_text.cc.in ${CMAKE_CURRENT_BINARY_DIR}/ldpc_standard_text.cc @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ldpc/standards/ieee80211n_ldpc_base_matrices.txt ldpc/standards/ieee80216e_ldpc_base_matrices.txt
    ldpc/standards/nr_ldpc_base_graphs.txt ldpc/standards/dvbs2_ldpc_tables.txt)
list(APPEND GPUFEC_FAMILY_SOURCES ${CMAKE_CURRENT_BINARY_DIR}/ldpc_standard_text.cc)
