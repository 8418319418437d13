/* FLOOR_MOD: remainder with the divisor's sign: float32, int8, int16, int32, int64. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_arith_prepare(ctx, TFCC_ARITH_FLOOR_MOD);
}
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_FLOOR_MOD); }

const tfcc_op_def tfcc_op_floor_mod = {.name = "FLOOR_MOD", .prepare = prepare, .eval = eval};
