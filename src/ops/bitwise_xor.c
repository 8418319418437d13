/* BITWISE_XOR: int8, uint8, int16, uint16, int32, uint32, broadcasting (int_bitwise.h). */
#include "ops/int_bitwise.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  return tfcc_int_bitwise_prepare(ctx, TFCC_INT_BITWISE_XOR);
}
static tfcc_status eval(tfcc_op_ctx *ctx) {
  return tfcc_int_bitwise_eval(ctx, TFCC_INT_BITWISE_XOR);
}

const tfcc_op_def tfcc_op_bitwise_xor = {.name = "BITWISE_XOR", .prepare = prepare, .eval = eval};
