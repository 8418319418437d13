/* SIN: float32. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_SIN); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_SIN); }

const tfcc_op_def tfcc_op_sin = {.name = "SIN", .prepare = prepare, .eval = eval};
