/* Eigen-order float32 FULLY_CONNECTED, portable one-lane build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_scalar.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_scalar
#include "kernels/hybrid/fc_eigen_body.h"
