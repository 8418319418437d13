/* FLOOR: float32. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_FLOOR); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_FLOOR); }

const tfcc_op_def tfcc_op_floor = {.name = "FLOOR", .prepare = prepare, .eval = eval};
