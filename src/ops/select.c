/* SELECT: out = condition ? x : y; condition equal in shape to the inputs, a scalar, or 1-D over their first dimension (select.cc v1). */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_select_prepare(ctx, false); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_select_eval(ctx, false); }

const tfcc_op_def tfcc_op_select = {.name = "SELECT", .prepare = prepare, .eval = eval};
