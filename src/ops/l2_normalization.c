/* L2_NORMALIZATION along the last axis: float32, uint8 (output scale 1/128, zero point 128)
 * and int8 (scale 1/128, zero point 0), as TFLite's l2norm.cc; fused activation must be
 * NONE. */
#include <stdlib.h>

#include "kernels/ref/l2norm.h"
#include "ops/conv_common.h"

static tfcc_status l2n_init(tfcc_init_ctx *ctx) {
  int32_t act = ctx->node->opts.l2_norm.activation;
  if (act != 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "L2_NORMALIZATION fused activation %d unsupported (only NONE)", (int)act);
  return TFCC_OK;
}

static tfcc_status l2n_prepare(tfcc_op_ctx *ctx) {
  if (ctx->n_in < 1 || !ctx->in[0] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "L2_NORMALIZATION needs one input and one output");
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  if (in->rank < 1 || in->rank > 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d, expected 1 to 4", (int)in->rank);
  tfcc_status st = tfcc_conv_expect_dtype(out, "output", in->dtype, ctx->err);
  if (st != TFCC_OK) return st;
  int64_t n;
  if (!tfcc_conv_count(in->rank, in->dims, &n))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input too large");
  if (in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8) {
    const int32_t want_zp = in->dtype == TFCC_UINT8 ? 128 : 0;
    if (in->quant->count < 1 || out->quant->count < 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "quantization missing");
    if (out->quant->scale[0] != 1.f / 128.f || out->quant->zero_point[0] != want_zp)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          "output quantization scale %g zero point %d, expected 1/128 and %d",
                          (double)out->quant->scale[0], (int)out->quant->zero_point[0],
                          (int)want_zp);
  } else if (in->dtype != TFCC_FLOAT32) {
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype %s unsupported",
                        tfcc_dtype_name(in->dtype));
  }
  ctx->scratch_bytes = 0;
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

static tfcc_status l2n_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const int32_t depth = in->dims[in->rank - 1];
  const int64_t n = tfcc_tensor_elements(in);
  const int32_t outer = depth ? (int32_t)(n / depth) : 0;
  void *out = ctx->out[0]->data;
  switch (in->dtype) {
    case TFCC_FLOAT32: tfcc_l2norm_f32(outer, depth, in->data, out); return TFCC_OK;
    case TFCC_UINT8:
      tfcc_l2norm_u8(outer, depth, in->quant->zero_point[0], in->data, out);
      return TFCC_OK;
    case TFCC_INT8:
      tfcc_l2norm_i8(outer, depth, in->quant->zero_point[0], in->data, out);
      return TFCC_OK;
    default: return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype unsupported");
  }
}

TFCC_OP_DEFINE(tfcc_op_l2_normalization, "L2_NORMALIZATION", l2n_init, l2n_prepare, l2n_eval);
