/* GREATER_EQUAL: bool output; float32, int16, int32, int64, bool (EQUAL / NOT_EQUAL only) raw;
 * uint8 / int8 rescaled as comparisons.cc. Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_compare_prepare(ctx, TFCC_CMP_GE); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_compare_eval(ctx, TFCC_CMP_GE); }

const tfcc_op_def tfcc_op_greater_equal = {
    .name = "GREATER_EQUAL", .prepare = prepare, .eval = eval};
