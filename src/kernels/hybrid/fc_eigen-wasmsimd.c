/* Eigen-order float32 FULLY_CONNECTED, WebAssembly SIMD128 build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_wasmsimd
#include "kernels/hybrid/fc_eigen_body.h"
