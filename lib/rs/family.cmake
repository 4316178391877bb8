# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
# the Reed-Solomon family (read by lib/CMakeLists.txt)
gpufec_add_family(rs
  SOURCES
    rs_reference.cc
    rs_cpu.cc
    rs_family.cc
  CUDA
    rs_cuda.cu
  TESTS
    qa_rs.cc)
# Debian's libfec (libfec-dev), where installed, is the tests' independent reference
find_path(GPUFEC_LIBFEC_INCLUDE fec.h)
find_library(GPUFEC_LIBFEC fec)
if(GPUFEC_LIBFEC_INCLUDE AND GPUFEC_LIBFEC)
    set_source_files_properties(rs/qa_rs.cc PROPERTIES COMPILE_DEFINITIONS GPUFEC_HAVE_LIBFEC)
    list(APPEND GPUFEC_FAMILY_TEST_LIBS ${GPUFEC_LIBFEC})
    # the CPU decoder beside libfec in one run (docs/performance.md; not installed)
    add_executable(gpufec_rs_anchor rs/rs_cpu_anchor.cc)
    target_link_libraries(gpufec_rs_anchor PRIVATE gnuradio-gpufec-core ${GPUFEC_LIBFEC})
    target_include_directories(gpufec_rs_anchor PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    message(STATUS "gr-gpufec: the Reed-Solomon tests compare with libfec (${GPUFEC_LIBFEC})")
else()
    message(STATUS "gr-gpufec: libfec not found (libfec-dev): the Reed-Solomon tests skip their libfec comparisons")
endif()
