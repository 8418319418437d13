/* MAX_POOL_2D: Pool2DOptions; see ops/pool_common.c and kernels/ref/pool.c. */
#include "ops/pool_common.h"

static tfcc_status max_pool_2d_init(tfcc_init_ctx *ctx) { return tfcc_pool_init(ctx, TFCC_POOL_MAX); }

const tfcc_op_def tfcc_op_max_pool_2d = {
    .name = "MAX_POOL_2D",
    .init = max_pool_2d_init,
    .prepare = tfcc_pool_prepare,
    .eval = tfcc_pool_eval,
    .kernel = tfcc_pool_kernel_name,
};
