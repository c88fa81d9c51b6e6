# Installs fastpair into a scratch prefix, then configures and builds a consumer project that uses
# find_package(fastpair) and #include <fastpair/fastpair.cuh>. Fails on any step.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -DFASTPAIR_BUILD_TESTS=OFF
    -DFASTPAIR_BUILD_BENCH=OFF -DFASTPAIR_BUILD_EXAMPLES=OFF -DFASTPAIR_BUILD_TOOLS=OFF
    -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH} -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/lib)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${WORK_DIR}/consumer
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
message(STATUS "install test passed")
