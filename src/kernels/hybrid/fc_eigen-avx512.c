/* Eigen-order float32 FULLY_CONNECTED, AVX-512 build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_avx512.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_avx512
#include "kernels/hybrid/fc_eigen_body.h"
