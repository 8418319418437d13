/* FLOOR_DIV: floor(a / b) in double: float32, int8, int16, int32. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_arith_prepare(ctx, TFCC_ARITH_FLOOR_DIV);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_FLOOR_DIV); }

const tfcc_op_def tfcc_op_floor_div = {.name = "FLOOR_DIV", .prepare = prepare, .eval = eval};
