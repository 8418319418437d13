/* SQRT: float32; int8 / int16 (v2) through float as SqrtEvalQuantized. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_SQRT); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_SQRT); }

const tfcc_op_def tfcc_op_sqrt = {.name = "SQRT", .prepare = prepare, .eval = eval};
