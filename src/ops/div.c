/* DIV: fused activation; float32, int32, quantized uint8/int8 (div.cc). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, TFCC_ARITH_DIV); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, TFCC_ARITH_DIV); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, TFCC_ARITH_DIV); }
static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, TFCC_ARITH_DIV); }

const tfcc_op_def tfcc_op_div = {.name = "DIV",
                                 .init = init,
                                 .prepare = prepare,
                                 .eval = eval,
                                 .kernel = kernel,
                                 .release = tfcc_arith_release};
