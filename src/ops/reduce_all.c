/* REDUCE_ALL: bool only (TFLite reduce.cc); shared logic in reduce_common.c. */
#include "ops/reduce_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_reduce_op_prepare(ctx, TFCC_REDUCE_OP_ALL);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_reduce_op_eval(ctx, TFCC_REDUCE_OP_ALL); }

const tfcc_op_def tfcc_op_reduce_all = {.name = "REDUCE_ALL", .prepare = prepare, .eval = eval};
