# libtfcc_cuda: the CUDA backend (src/cuda/*.c host code, src/cuda/*.cu kernels), a shared library
# that libtfcc loads with dlopen when a runtime asks for device "cuda" (runtime/device.c). It links
# the CUDA runtime statically and cuBLAS / cuBLASLt dynamically; the driver (libcuda.so.1) is loaded by the
# CUDA runtime when a device is opened, so the library loads on machines without a GPU and says so.
#   TFCC_CUDA=AUTO (default): build it when a CUDA compiler and cuBLAS are found; ON: required; OFF.
set(TFCC_CUDA AUTO CACHE STRING "Build libtfcc_cuda, the CUDA backend (AUTO, ON, OFF)")
set_property(CACHE TFCC_CUDA PROPERTY STRINGS AUTO ON OFF)
set(TFCC_CUDA_ENABLED OFF)
if(TFCC_CUDA STREQUAL "AUTO" AND TFCC_SANITIZE)
  message(STATUS "tfcc: CUDA backend not built in a sanitizer build (TFCC_CUDA=AUTO)")
elseif(NOT TFCC_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # Ampere, Ada and Hopper machine code, plus PTX for later GPUs
    set(CMAKE_CUDA_ARCHITECTURES "80-real;89-real;90-real;90-virtual")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND AND TARGET CUDA::cublas AND TARGET CUDA::cublasLt)
    set(TFCC_CUDA_ENABLED ON)
  elseif(TFCC_CUDA STREQUAL "ON")
    message(FATAL_ERROR "TFCC_CUDA=ON: no CUDA compiler or cuBLAS found (nvcc on PATH, CUDA toolkit)")
  else()
    message(STATUS "tfcc: CUDA backend not built (no CUDA compiler or cuBLAS found)")
  endif()
endif()
if(TFCC_CUDA_ENABLED)
  message(STATUS "tfcc: CUDA backend libtfcc_cuda (CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
  file(GLOB TFCC_CUDA_HOST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.c)
  file(GLOB TFCC_CUDA_DEVICE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.cu)
  # the partition and the device plan (host code with no CUDA call), also linked by host tests
  set(TFCC_CUDA_PLAN_SOURCES ${CMAKE_SOURCE_DIR}/src/cuda/cuda_plan.c)
  # base/err.c: the backend sets its errors as the core does (its own copy: the core hides its symbols)
  add_library(tfcc_cuda SHARED ${TFCC_CUDA_HOST_SOURCES} ${TFCC_CUDA_DEVICE_SOURCES}
              ${CMAKE_SOURCE_DIR}/src/base/err.c)
  set_target_properties(tfcc_cuda PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0
                        C_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden
                        CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  target_include_directories(tfcc_cuda PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(tfcc_cuda PRIVATE CUDA::cudart_static CUDA::cublas CUDA::cublasLt Threads::Threads m
                        ${CMAKE_DL_LIBS})
  # cuDNN is opened at run time (src/cuda/cuda_cudnn.c); its header gives the types
  find_path(TFCC_CUDNN_INCLUDE cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(NOT TFCC_CUDNN_INCLUDE)
    message(STATUS "tfcc: no cudnn.h: libtfcc_cuda runs every convolution as im2col + cuBLAS")
    set_source_files_properties(${CMAKE_SOURCE_DIR}/src/cuda/cuda_cudnn.c PROPERTIES
                                COMPILE_DEFINITIONS TFCC_NO_CUDNN_HEADER)
  endif()
  target_compile_options(tfcc_cuda PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter --Werror=all-warnings -O3>)
  # the backend's arena planner comes from the core through tfcc_device_services
endif()
