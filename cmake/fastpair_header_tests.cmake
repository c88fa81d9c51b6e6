# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Every public header must compile on its own: one generated translation unit per header
# (.hpp with the C++ compiler alone, .cuh with nvcc), built into one object library.
# A second target compiles a TU that instantiates the decode kernels for sm_80, sm_90 and the
# newest architecture this toolkit supports (FASTPAIR_NEWEST_CUDA_ARCH), proving the headers build
# beyond the H200.
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

set(FASTPAIR_NEWEST_CUDA_ARCH 120 CACHE STRING "Newest CUDA architecture the arch build check compiles for")
add_library(fastpair_arch_check OBJECT ${PROJECT_SOURCE_DIR}/tests/arch_check.cu)
target_link_libraries(fastpair_arch_check PRIVATE fastpair::fastpair)
set_target_properties(fastpair_arch_check PROPERTIES CUDA_ARCHITECTURES "80;90;${FASTPAIR_NEWEST_CUDA_ARCH}")
