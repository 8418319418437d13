/* Eigen-order float32 FULLY_CONNECTED, AVX2 build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_avx2.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_avx2
#include "kernels/hybrid/fc_eigen_body.h"
