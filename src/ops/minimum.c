/* MINIMUM: raw values of float32, uint8, int8, int16, int32, int64. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_MIN); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_MIN); }
static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, TFCC_ARITH_MIN); }

const tfcc_op_def tfcc_op_minimum = {
    .name = "MINIMUM", .prepare = prepare, .eval = eval, .kernel = kernel};
