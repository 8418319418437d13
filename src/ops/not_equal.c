/* NOT_EQUAL: bool output; float32, int16, int32, int64, bool (EQUAL / NOT_EQUAL only) raw;
 * uint8 / int8 rescaled as comparisons.cc, and (EQUAL v5 / NOT_EQUAL v4) int16 with
 * quantization parameters rescaled likewise (unquantized int16 raw). Broadcasting. */
#include "ops/binary_common.h"

static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_compare_prepare(ctx, TFCC_CMP_NE); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_compare_eval(ctx, TFCC_CMP_NE); }

const tfcc_op_def tfcc_op_not_equal = {.name = "NOT_EQUAL", .prepare = prepare, .eval = eval};
