# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -P run_install_test.cmake
#
# 1. Configures fastpair with the tool on (tests, benchmarks, examples off) and installs component
#    `fastpair` into a scratch prefix without building anything; the tool must not be installed.
# 2. host_consumer/: a C++-only project (no CUDA language), configured with find_package of the
#    CUDA toolkit and CCCL disabled, uses fastpair::host; built and run.
# 3. cuda_consumer/: a CUDA project at CMake's default architecture (no CMAKE_CUDA_ARCHITECTURES)
#    uses fastpair::fastpair; built and run (its GPU part skips itself without a GPU). Its two
#    executables must hold one CUDA runtime each: `consumer` the static one (CMake's default),
#    `consumer_shared` (CUDA_RUNTIME_LIBRARY Shared) the shared one only.
# Fails on any step.
string(TIMESTAMP t0 "%s")
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(step what)
  string(TIMESTAMP now "%s")
  math(EXPR elapsed "${now} - ${t0}")
  message(STATUS "install test [${elapsed} s]: ${what}")
endfunction()

step("configure and install the library (component fastpair, nothing built)")
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -DFASTPAIR_BUILD_TESTS=OFF
    -DFASTPAIR_BUILD_BENCH=OFF -DFASTPAIR_BUILD_EXAMPLES=OFF -DFASTPAIR_BUILD_TOOLS=ON
    -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install ${WORK_DIR}/lib --component fastpair)
foreach(f include/fastpair/fastpair.hpp include/fastpair/fastpair.cuh)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()
file(GLOB_RECURSE config_files ${prefix}/*/fastpair-config.cmake)
file(GLOB_RECURSE tool_files ${prefix}/bin/*)
if(NOT config_files OR tool_files)
  message(FATAL_ERROR "component fastpair: expected fastpair-config.cmake and no bin/ (got: ${config_files} ${tool_files})")
endif()

step("host-only consumer (C++ only, find_package of CUDAToolkit and CCCL disabled)")
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/host_consumer -B ${WORK_DIR}/host_consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_CCCL=ON)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/host_consumer)
run(${WORK_DIR}/host_consumer/host_consumer)
message(STATUS "${out}")

step("CUDA consumer (default CUDA architecture, default runtime + a shared-runtime twin)")
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/cuda_consumer -B ${WORK_DIR}/cuda_consumer
    -DCMAKE_PREFIX_PATH=${prefix})
string(REGEX MATCH "CMAKE_CUDA_ARCHITECTURES = [^\n]*" archs "${out}")
message(STATUS "cuda consumer: ${archs}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/cuda_consumer --parallel 2)
run(${WORK_DIR}/cuda_consumer/consumer)
message(STATUS "${out}")

# One runtime per binary: cudaGetDeviceCount is defined in `consumer` (static runtime) and
# undefined in `consumer_shared` (from libcudart.so; a static copy linked beside it would define it).
find_program(NM nm)
if(NM)
  foreach(exe consumer consumer_shared)
    run(${NM} ${WORK_DIR}/cuda_consumer/${exe})
    string(REGEX MATCH "[^\n]* cudaGetDeviceCount[^\n]*" sym_${exe} "${out}")
  endforeach()
  if(NOT sym_consumer MATCHES " [Tt] cudaGetDeviceCount" OR NOT sym_consumer_shared MATCHES " U cudaGetDeviceCount")
    message(FATAL_ERROR "CUDA runtime: expected static in consumer (got '${sym_consumer}') and shared "
                        "only in consumer_shared (got '${sym_consumer_shared}')")
  endif()
  message(STATUS "cuda consumer: runtime: consumer '${sym_consumer}', consumer_shared '${sym_consumer_shared}'")
else()
  message(STATUS "cuda consumer: nm not found: runtime check skipped")
endif()
step("passed")
