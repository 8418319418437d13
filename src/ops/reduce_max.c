/* REDUCE_MAX (TFLite reduce.cc); shared logic in reduce_common.c. */
#include "ops/reduce_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_prepare(ctx, TFCC_REDUCE_OP_MAX);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_reduce_op_eval(ctx, TFCC_REDUCE_OP_MAX); }
static const char *kernel(const tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_kernel(ctx, TFCC_REDUCE_OP_MAX);
}

const tfcc_op_def tfcc_op_reduce_max = {
    .name = "REDUCE_MAX", .prepare = prepare, .eval = eval, .kernel = kernel};
