/* SQUARED_DIFFERENCE: float32, int32, quantized int8. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_SQDIFF); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_SQDIFF); }
static const char *kernel(const tfcc_op_ctx *ctx) {
  return tfcc_arith_kernel(ctx, TFCC_ARITH_SQDIFF);
}

const tfcc_op_def tfcc_op_squared_difference = {
    .name = "SQUARED_DIFFERENCE", .prepare = prepare, .eval = eval, .kernel = kernel};
