/* Eigen-order float32 FULLY_CONNECTED, SSE4.1 build of the shared body (fc_eigen_body.h). */
#include "kernels/simd/f32v_sse4.h"
#define TFCC_FC_EIGEN_FN tfcc_fc_eigen_sse4
#include "kernels/hybrid/fc_eigen_body.h"
