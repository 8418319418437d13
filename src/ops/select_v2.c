/* SELECT_V2: out = condition ? x : y; condition, x and y broadcast together. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_select_prepare(ctx, true); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_select_eval(ctx, true); }

const tfcc_op_def tfcc_op_select_v2 = {.name = "SELECT_V2", .prepare = prepare, .eval = eval};
