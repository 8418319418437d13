/* L2_POOL_2D: Pool2DOptions; see ops/pool_common.c and kernels/ref/pool.c. */
#include "ops/pool_common.h"

static tfcc_status l2_pool_2d_init(tfcc_init_ctx *ctx) { return tfcc_pool_init(ctx, TFCC_POOL_L2); }

const tfcc_op_def tfcc_op_l2_pool_2d = {
    .name = "L2_POOL_2D",
    .init = l2_pool_2d_init,
    .prepare = tfcc_pool_prepare,
    .eval = tfcc_pool_eval,
};
