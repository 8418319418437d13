/* EXP: float32 (TFLITE mode: XNNPACK's exp, as LiteRT runs every float EXP; REFERENCE mode:
 * std::exp); int8 and quantized int16 through lookup tables as TFLite (ops/unary_lut.h). */
#include "ops/unary_lut.h"

static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_unary_lut_init(ctx, TFCC_UN_EXP); }
static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_unary_lut_prepare(ctx, TFCC_UN_EXP); }
static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_unary_lut_eval(ctx, TFCC_UN_EXP); }

const tfcc_op_def tfcc_op_exp = {.name = "EXP", .init = init, .prepare = prepare, .eval = eval};
