/* ROUND: float32, half to even. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_ROUND); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_ROUND); }

const tfcc_op_def tfcc_op_round = {.name = "ROUND", .prepare = prepare, .eval = eval};
