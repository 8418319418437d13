/* NEG: float32, int8, int16, int32, int64 (raw, wrapping). */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_NEG); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_NEG); }

const tfcc_op_def tfcc_op_neg = {
    .name = "NEG", .prepare = prepare, .eval = eval, .inplace_ok = true};
