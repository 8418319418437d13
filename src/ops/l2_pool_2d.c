/* L2_POOL_2D: Pool2DOptions; see ops/pool_common.c and kernels/ref/pool.c. */
#include "ops/pool_common.h"

TFCC_POOL_OP_DEF(tfcc_op_l2_pool_2d, "L2_POOL_2D", TFCC_POOL_L2, NULL);
