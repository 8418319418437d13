/* SUB: fused activation; quantized as ADD with the second multiplier negated (sub.cc). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, TFCC_ARITH_SUB); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_SUB); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_SUB); }
static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, TFCC_ARITH_SUB); }

const tfcc_op_def tfcc_op_sub = {.name = "SUB", .init = init, .prepare = prepare, .eval = eval,
                                 .kernel = kernel, .inplace_ok = true};
