/* Eigen-order float32 FULLY_CONNECTED, NEON (aarch64) build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_neon.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_neon
#include "kernels/hybrid/fc_eigen_body.h"
