/* POW: float32, int32 (exponents must be >= 0). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_POW); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_POW); }

const tfcc_op_def tfcc_op_pow = {.name = "POW", .prepare = prepare, .eval = eval};
