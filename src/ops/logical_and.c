/* LOGICAL_AND: bool inputs and output, broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_logical_prepare(ctx, false); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_logical_eval(ctx, false); }

const tfcc_op_def tfcc_op_logical_and = {.name = "LOGICAL_AND", .prepare = prepare, .eval = eval};
