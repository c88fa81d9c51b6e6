# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Every public header must compile on its own: one generated translation unit per header
# (.hpp with the C++ compiler alone, .cuh with nvcc), built into one object library.
# Then tests/arch_check.cu, which calls every public GPU entry point, for every architecture of
# FASTPAIR_ARCH_CHECK_ARCHS (nvcc 13's range, 75 to 120): each gets correct code, only sm_90 is
# measured.
file(GLOB_RECURSE _fastpair_headers RELATIVE ${PROJECT_SOURCE_DIR}/include
     ${PROJECT_SOURCE_DIR}/include/fastpair/*.hpp ${PROJECT_SOURCE_DIR}/include/fastpair/*.cuh)
set(_sources)
foreach(h IN LISTS _fastpair_headers)
  string(MAKE_C_IDENTIFIER ${h} id)
  if(h MATCHES "\\.hpp$")
    set(src ${CMAKE_BINARY_DIR}/header_tests/${id}.cpp)
  else()
    set(src ${CMAKE_BINARY_DIR}/header_tests/${id}.cu)
  endif()
  file(WRITE ${src}.in "#include <${h}>\n#include <${h}>  // include guard works\n")
  configure_file(${src}.in ${src} COPYONLY)
  list(APPEND _sources ${src})
endforeach()
add_library(fastpair_header_tests OBJECT ${_sources})
target_link_libraries(fastpair_header_tests PRIVATE fastpair::fastpair fastpair_dev_flags)

# The architecture matrix: tests/arch_check.cu calls every public GPU entry point; one object
# target per architecture so that the builds run in parallel.
set(FASTPAIR_ARCH_CHECK_ARCHS 75 80 86 89 90 100 120 CACHE STRING
    "CUDA architectures tests/arch_check.cu is compiled for (one object target each)")
foreach(arch IN LISTS FASTPAIR_ARCH_CHECK_ARCHS)
  add_library(fastpair_arch_check_${arch} OBJECT ${PROJECT_SOURCE_DIR}/tests/arch_check.cu)
  target_link_libraries(fastpair_arch_check_${arch} PRIVATE fastpair::fastpair fastpair_dev_flags)
  set_target_properties(fastpair_arch_check_${arch} PROPERTIES CUDA_ARCHITECTURES ${arch})
endforeach()
