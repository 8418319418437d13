/* MUL: fused activation; quantized multiplier s1*s2/so in float (mul.cc). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, TFCC_ARITH_MUL); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_MUL); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_MUL); }
static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, TFCC_ARITH_MUL); }

const tfcc_op_def tfcc_op_mul = {.name = "MUL", .init = init, .prepare = prepare, .eval = eval,
                                 .kernel = kernel, .inplace_ok = true};
