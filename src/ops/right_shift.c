/* RIGHT_SHIFT: int8, uint8, int16, uint16, int32, uint32, broadcasting; the shift is clamped to
 * [0, bits - 1] as in TFLite right_shift.cc (int_bitwise.h). */
#include "ops/int_bitwise.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_int_bitwise_prepare(ctx, TFCC_INT_RIGHT_SHIFT);
}
static tfcc_status eval(tfcc_op_ctx *ctx) {
  return tfcc_int_bitwise_eval(ctx, TFCC_INT_RIGHT_SHIFT);
}

const tfcc_op_def tfcc_op_right_shift = {.name = "RIGHT_SHIFT", .prepare = prepare, .eval = eval};
