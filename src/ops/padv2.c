/* PADV2: inputs (input, paddings [rank, 2], constant_values). constant_values is a one-element
 * tensor of the input dtype (its raw value is the pad element; quantized ones must share the
 * output's scale and zero point, as TFLite checks); when omitted PADV2 pads like PAD. */
#include <string.h>

#include "ops/pad_common.h"
#include "ops/shape_ops_util.h"

#define OP "PADV2"

static tfcc_status padv2_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_pad_prepare_common(ctx, OP, 2, 3);
  if (st) return st;
  const tfcc_tensor *cv = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (cv) {
    const tfcc_tensor *in = ctx->in[0], *out = ctx->out[0];
    TFCC_OP_CHECK(ctx, cv->dtype == in->dtype, TFCC_ERR_DTYPE,
                  OP ": constant_values dtype %s, expected %s", tfcc_dtype_name(cv->dtype),
                  tfcc_dtype_name(in->dtype));
    TFCC_OP_CHECK(ctx, tfcc_tensor_elements(cv) == 1, TFCC_ERR_SHAPE,
                  OP ": constant_values has %lld elements, expected 1",
                  (long long)tfcc_tensor_elements(cv));
    if (in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8 || in->dtype == TFCC_INT16)
      TFCC_OP_CHECK(ctx,
                    tfcc_so_scale(cv) == tfcc_so_scale(out) &&
                        tfcc_so_zero_point(cv) == tfcc_so_zero_point(out),
                    TFCC_ERR_UNSUPPORTED,
                    OP ": constant_values quantization (%g, %d) differs from the output's (%g, %d)",
                    (double)tfcc_so_scale(cv), (int)tfcc_so_zero_point(cv),
                    (double)tfcc_so_scale(out), (int)tfcc_so_zero_point(out));
  }
  return TFCC_OK;
}

static tfcc_status padv2_eval(tfcc_op_ctx *ctx) {
  uint8_t value[8] = {0};
  const tfcc_tensor *out = ctx->out[0];
  const tfcc_tensor *cv = ctx->n_in > 2 ? ctx->in[2] : NULL;
  size_t es = tfcc_dtype_size(out->dtype);
  if (cv) {
    memcpy(value, cv->data, es);
  } else {
    tfcc_pad_zero_value(out, value);
  }
  return tfcc_pad_eval_common(ctx, OP, value);
}

const tfcc_op_def tfcc_op_padv2 = {
    .name = OP, .prepare = padv2_prepare, .eval = padv2_eval, .kernel = tfcc_pad_kernel_name};
