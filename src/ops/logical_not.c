/* LOGICAL_NOT: bool. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_prepare(ctx, TFCC_UN_NOT); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_eval(ctx, TFCC_UN_NOT); }

const tfcc_op_def tfcc_op_logical_not = {.name = "LOGICAL_NOT", .prepare = prepare, .eval = eval};
