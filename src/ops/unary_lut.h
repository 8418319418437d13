/* Quantized EXP / LOG / RSQRT (int8 and int16): TensorFlow Lite evaluates these through lookup
 * tables built at prepare time (exp.cc, elementwise.cc). init builds the table from the
 * model's quantization; float32 and everything else goes to the plain unary family
 * (binary_common.h). Private to exp.c, log.c, rsqrt.c. */
#ifndef TFCC_OPS_UNARY_LUT_H
#define TFCC_OPS_UNARY_LUT_H

#include "kernels/ref/unary.h"
#include "ops/op.h"

tfcc_status tfcc_unary_lut_init(tfcc_init_ctx *ctx, tfcc_unop op);
tfcc_status tfcc_unary_lut_prepare(tfcc_op_ctx *ctx, tfcc_unop op);
tfcc_status tfcc_unary_lut_eval(tfcc_op_ctx *ctx, tfcc_unop op);

#endif
