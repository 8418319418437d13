/* PAD: inputs (input, paddings [rank, 2]). The pad value is 0, or the output zero point for
 * quantized uint8/int8/int16 tensors (TFLite pad.cc). */
#include "ops/pad_common.h"
#include "ops/shape_ops_util.h"

#define OP "PAD"

static tfcc_status pad_prepare(tfcc_op_ctx *ctx) { return tfcc_pad_prepare_common(ctx, OP, 2, 2); }

static tfcc_status pad_eval(tfcc_op_ctx *ctx) {
  uint8_t value[8];
  tfcc_pad_zero_value(ctx->out[0], value);
  return tfcc_pad_eval_common(ctx, OP, value);
}

const tfcc_op_def tfcc_op_pad = {
    .name = OP, .prepare = pad_prepare, .eval = pad_eval, .kernel = tfcc_pad_kernel_name};
