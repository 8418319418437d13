/* AVERAGE_POOL_2D: Pool2DOptions; see ops/pool_common.c and kernels/ref/pool.c. */
#include "ops/pool_common.h"

static tfcc_status average_pool_2d_init(tfcc_init_ctx *ctx) { return tfcc_pool_init(ctx, TFCC_POOL_AVG); }

const tfcc_op_def tfcc_op_average_pool_2d = {
    .name = "AVERAGE_POOL_2D",
    .init = average_pool_2d_init,
    .prepare = tfcc_pool_prepare,
    .eval = tfcc_pool_eval,
    .kernel = tfcc_pool_kernel_name,
};
