/* LOGICAL_OR: bool inputs and output, broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_logical_prepare(ctx, true); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_logical_eval(ctx, true); }

const tfcc_op_def tfcc_op_logical_or = {.name = "LOGICAL_OR", .prepare = prepare, .eval = eval};
