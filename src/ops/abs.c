/* ABS: float32, int32, int64 raw; int8 and quantized int16 rescaled (elementwise.cc); unquantized int16 raw. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_ABS); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_ABS); }

const tfcc_op_def tfcc_op_abs = {
    .name = "ABS", .prepare = prepare, .eval = eval, .inplace_ok = true};
