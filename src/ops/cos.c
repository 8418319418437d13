/* COS: float32. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_COS); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_COS); }

const tfcc_op_def tfcc_op_cos = {.name = "COS", .prepare = prepare, .eval = eval};
