/* PAD: inputs (input, paddings [rank, 2]). The pad value is 0, or the output zero point for
 * quantized uint8/int8/int16 tensors (TFLite pad.cc). */
#include <string.h>

#include "ops/pad_common.h"
#include "ops/shape_ops_util.h"

#define OP "PAD"

static tfcc_status pad_prepare(tfcc_op_ctx *ctx) { return tfcc_pad_prepare_common(ctx, OP, 2, 2); }

static tfcc_status pad_eval(tfcc_op_ctx *ctx) {
  uint8_t value[8] = {0};
  const tfcc_tensor *out = ctx->out[0];
  int32_t zp = tfcc_so_zero_point(out);
  if (out->dtype == TFCC_UINT8) {
    value[0] = (uint8_t)zp;
  } else if (out->dtype == TFCC_INT8) {
    int8_t v = (int8_t)zp;
    memcpy(value, &v, 1);
  } else if (out->dtype == TFCC_INT16) {
    int16_t v = (int16_t)zp;
    memcpy(value, &v, 2);
  }
  return tfcc_pad_eval_common(ctx, OP, value);
}

const tfcc_op_def tfcc_op_pad = {.name = OP, .prepare = pad_prepare, .eval = pad_eval};
