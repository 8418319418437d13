/* NumericVerify (ops; a custom operator every standard TFLite build registers,
 * kernels/numeric_verify.cc): a quantized tensor (uint8 / int8 / int16, per-tensor, or uint8 /
 * int8 per-axis) or a float16 tensor, and its float32 reference of as many elements -> float32
 * with the input's shape: dequantized input - reference. Dequantized as TFLite's reference
 * DEQUANTIZE (kernels/ref/quantize.c; any int16 zero point). With log_if_failed and a
 * tolerance >= 0.1 the run fails at the first element whose |difference| exceeds tolerance x
 * the input's per-tensor scale (0 for a per-axis or unquantized input: any difference fails); otherwise TFLite only logs
 * statistics of the differences, which tfcc does not (nothing logs on the run path).
 * TFLite dequantizes a constant input once and then skips the whole operator, leaving the
 * first run's differences in its output; tfcc computes them on every run. */

#include "kernels/ref/numeric_verify.h"
#include "kernels/ref/quantize.h"
#include "ops/act_common.h"
#include "ops/custom_params.h"

typedef struct numeric_verify_op {
  tfcc_numeric_verify_options o;
} numeric_verify_op;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_status st = tfcc_custom_params_new(
      ctx, TFCC_OPTIONS_NUMERIC_VERIFY, "tolerance, log_if_failed", sizeof(numeric_verify_op));
  if (st) return st;
  ((numeric_verify_op *)ctx->params)->o = ctx->node->opts.numeric_verify;
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 2 && ctx->n_out == 1 && ctx->in[0] && ctx->in[1] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL,
                "%d inputs and %d outputs, expected 2 (quantized input, float reference) and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0], *ref = ctx->in[1];
  const tfcc_dtype it = in->dtype;
  TFCC_OP_CHECK(ctx, it == TFCC_UINT8 || it == TFCC_INT8 || it == TFCC_INT16 || it == TFCC_FLOAT16,
                TFCC_ERR_DTYPE, "input 0 dtype %s, expected uint8, int8, int16 or float16",
                tfcc_dtype_name(it));
  TFCC_OP_CHECK(ctx, ref->dtype == TFCC_FLOAT32 && ctx->out[0]->dtype == TFCC_FLOAT32,
                TFCC_ERR_DTYPE, "reference %s, output %s: both must be float32",
                tfcc_dtype_name(ref->dtype), tfcc_dtype_name(ctx->out[0]->dtype));
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(ref) == tfcc_tensor_elements(in), TFCC_ERR_SHAPE,
                "reference has %lld elements, input 0 %lld: they must be equal",
                (long long)tfcc_tensor_elements(ref), (long long)tfcc_tensor_elements(in));
  const tfcc_quant *q = in->quant;
  if (it != TFCC_FLOAT16) {
    TFCC_OP_CHECK(ctx, q->count >= 1, TFCC_ERR_INVALID_MODEL,
                  "input 0 (%s) has no quantization parameters", tfcc_dtype_name(it));
    for (int32_t c = 0; c < q->count; c++)
      TFCC_OP_CHECK(ctx, isfinite(q->scale[c]), TFCC_ERR_INVALID_MODEL,
                    "input 0: scale %g (channel %d) is not finite", (double)q->scale[c], (int)c);
    if (q->count > 1) {
      TFCC_OP_CHECK(ctx, it != TFCC_INT16, TFCC_ERR_UNSUPPORTED,
                    "input 0: int16 with per-axis quantization (%d scales): TFLite dequantizes "
                    "per-axis uint8 / int8 only",
                    (int)q->count);
      size_t o = 0, c = 0, i = 0;
      tfcc_status st = act_per_axis_layout(ctx->err, in, &o, &c, &i);
      if (st) return st;
    }
  }
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const numeric_verify_op *p = (const numeric_verify_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_quant *q = in->quant;
  float *out = (float *)ctx->out[0]->data;
  const size_t n = (size_t)tfcc_tensor_elements(in);
  if (n == 0) return TFCC_OK;
  /* TFLite's params.scale: the scale of a per-tensor quantization, 0 otherwise */
  const float scale = q->count == 1 ? q->scale[0] : 0.f;
  if (in->dtype == TFCC_FLOAT16 || q->count == 1) {
    tfcc_dequantize(in->dtype, in->data, out, n, scale, q->count >= 1 ? q->zero_point[0] : 0);
  } else {
    size_t o = 0, c = 0, i = 0;
    tfcc_status st = act_per_axis_layout(ctx->err, in, &o, &c, &i);
    if (st) return st;
    tfcc_dequantize_pc(in->dtype, in->data, out, o, c, i, q->scale, q->zero_point);
  }
  /* TFLite: a float tolerance compared with the double 0.1; max_diff in float */
  const bool check = p->o.log_if_failed && (double)p->o.tolerance >= 0.1;
  const float max_diff = p->o.tolerance * scale;
  const float *ref = (const float *)ctx->in[1]->data;
  const size_t bad = tfcc_numeric_verify_diff(out, ref, n, check, max_diff);
  if (bad < n)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_ARG,
                        "NumericVerify: element %zu: dequantized %g - reference %g = %g, "
                        "beyond the tolerance %g (%g x scale %g)",
                        bad, (double)out[bad], (double)ref[bad], (double)(out[bad] - ref[bad]),
                        (double)max_diff, (double)p->o.tolerance, (double)scale);
  return TFCC_OK;
}

TFCC_OP_DEFINE(tfcc_op_numeric_verify, "NumericVerify", init, prepare, eval);
