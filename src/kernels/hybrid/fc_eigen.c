/* Eigen-order float32 FULLY_CONNECTED (fc_eigen.h): dispatch table. */
#include "kernels/hybrid/fc_eigen.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "f32-fc-eigen", tfcc_fc_eigen)
