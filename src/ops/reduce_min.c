/* REDUCE_MIN (TFLite reduce.cc); shared logic in reduce_common.c. */
#include "ops/reduce_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_prepare(ctx, TFCC_REDUCE_OP_MIN);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_reduce_op_eval(ctx, TFCC_REDUCE_OP_MIN); }
static const char *kernel(const tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_kernel(ctx, TFCC_REDUCE_OP_MIN);
}

const tfcc_op_def tfcc_op_reduce_min = {
    .name = "REDUCE_MIN", .prepare = prepare, .eval = eval, .kernel = kernel};
