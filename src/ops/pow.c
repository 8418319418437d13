/* POW: float32, int32 (exponents must be >= 0). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, TFCC_ARITH_POW); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_POW); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_POW); }

const tfcc_op_def tfcc_op_pow = {
    .name = "POW", .init = init, .release = tfcc_arith_release, .prepare = prepare, .eval = eval};
