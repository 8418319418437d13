#!/bin/sh
# Builds the self-checking device-kernel test into $1: tests/cuda/build_kernels_test.sh OUT
set -eu
out=${1:?usage: build_kernels_test.sh OUTPUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc -std=c++17 -O2 -arch=sm_90 -gencode arch=compute_90,code=sm_90 \
  -gencode arch=compute_80,code=sm_80 -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings \
  -I"$root/src" "$root/src/cuda/gpu_kernels.cu" "$root/tests/cuda/gpu_kernels_test.cu" -o "$out"
