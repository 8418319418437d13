/* SUM (TFLite reduce.cc); shared logic in reduce_common.c. */
#include "ops/reduce_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_prepare(ctx, TFCC_REDUCE_OP_SUM);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_reduce_op_eval(ctx, TFCC_REDUCE_OP_SUM); }
static const char *kernel(const tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_kernel(ctx, TFCC_REDUCE_OP_SUM);
}

const tfcc_op_def tfcc_op_sum = {
    .name = "SUM", .init = tfcc_reduce_op_init, .prepare = prepare, .eval = eval, .kernel = kernel};
