/* ARG_MIN (TFLite arg_min_max.cc); shared logic in reduce_common.c. Runs the branch-free kernel of
 * kernels/arg (`arg-select`); `tfcc_arg_min_max` is its reference twin. */
#include "ops/reduce_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arg_op_prepare(ctx, false); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arg_op_eval(ctx, false); }

static const char *kernel(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "arg-select"; /* kernels/arg */
}

const tfcc_op_def tfcc_op_arg_min = {
    .name = "ARG_MIN", .prepare = prepare, .eval = eval, .kernel = kernel};
