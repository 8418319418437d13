/* ADD: fused activation; uint8/int8/int16 rescaled (add.cc), int16 power-of-two path. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, TFCC_ARITH_ADD); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_ADD); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_ADD); }
static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, TFCC_ARITH_ADD); }

const tfcc_op_def tfcc_op_add = {.name = "ADD", .init = init, .prepare = prepare, .eval = eval,
                                 .kernel = kernel, .inplace_ok = true};
