/* CONCATENATION: joins inputs along `axis` (ConcatenationOptions: axis, fused activation).
 * As TFLite: the fused activation is read but ignored (TFLite's kernel never applies it; a
 * RELU-fused float CONCATENATION keeps its negative values); int8 inputs must share the output's scale and zero point;
 * int16 zero points must be 0 (copied without rescaling); uint8 inputs with another
 * scale/zero point are requantized as ConcatenationWithScaling. */
#include <stdlib.h>

#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "CONCATENATION"
#define CONCAT_MAX_INPUTS 4096

static tfcc_status concat_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 1, CONCAT_MAX_INPUTS, 1);
  if (st) return st;
  const tfcc_fb_table *o = &ctx->node->options;
  int32_t axis_opt = tfcc_fb_i32(o, 0, 0);
  tfcc_tensor *t0;
  if ((st = tfcc_so_input(ctx, 0, OP, &t0))) return st;
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16, TFCC_INT32, TFCC_INT64,
                           TFCC_FLOAT16, TFCC_BOOL, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input", t0->dtype, ok))) return st;
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, axis_opt, t0->rank, &axis))) return st;
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, t0->dtype))) return st;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < t0->rank; d++) dims[d] = t0->dims[d];
  for (int32_t i = 1; i < ctx->n_in; i++) {
    tfcc_tensor *t;
    if ((st = tfcc_so_input(ctx, i, OP, &t))) return st;
    TFCC_OP_CHECK(ctx, t->dtype == t0->dtype, TFCC_ERR_DTYPE, OP ": input %d dtype %s, expected %s",
                  (int)i, tfcc_dtype_name(t->dtype), tfcc_dtype_name(t0->dtype));
    TFCC_OP_CHECK(ctx, t->rank == t0->rank, TFCC_ERR_SHAPE, OP ": input %d rank %d, expected %d",
                  (int)i, (int)t->rank, (int)t0->rank);
    for (int32_t d = 0; d < t0->rank; d++) {
      if (d == axis)
        dims[d] += t->dims[d];
      else
        TFCC_OP_CHECK(ctx, t->dims[d] == t0->dims[d], TFCC_ERR_SHAPE,
                      OP ": input %d dimension %d is %d, expected %d", (int)i, (int)d,
                      (int)t->dims[d], (int)t0->dims[d]);
    }
  }
  if (t0->dtype == TFCC_INT8 || t0->dtype == TFCC_UINT8 || t0->dtype == TFCC_INT16) {
    for (int32_t i = 0; i <= ctx->n_in; i++) {
      const tfcc_tensor *t = i < ctx->n_in ? ctx->in[i] : out;
      TFCC_OP_CHECK(ctx, t->quant->count <= 1, TFCC_ERR_UNSUPPORTED,
                    OP ": per-axis quantization is not supported");
      if (t0->dtype == TFCC_UINT8) {
        TFCC_OP_CHECK(ctx, i == ctx->n_in || tfcc_so_scale(t) == tfcc_so_scale(out) ||
                               tfcc_so_scale(out) > 0.0f,
                      TFCC_ERR_INVALID_MODEL, OP ": output scale must be positive to rescale");
      } else if (t0->dtype == TFCC_INT8 && i < ctx->n_in) {
        /* TFLite Prepare: no rescaling for int8. */
        TFCC_OP_CHECK(ctx, tfcc_so_scale(t) == tfcc_so_scale(out) &&
                               tfcc_so_zero_point(t) == tfcc_so_zero_point(out),
                      TFCC_ERR_UNSUPPORTED,
                      OP ": int8 input %d scale %g zero point %d differ from output %g/%d", (int)i,
                      (double)tfcc_so_scale(t), (int)tfcc_so_zero_point(t),
                      (double)tfcc_so_scale(out), (int)tfcc_so_zero_point(out));
      } else if (t0->dtype == TFCC_INT16) {
        TFCC_OP_CHECK(ctx, tfcc_so_zero_point(t) == 0, TFCC_ERR_UNSUPPORTED,
                      OP ": int16 %s %d zero point %d, expected 0", i < ctx->n_in ? "input" : "output",
                      (int)(i < ctx->n_in ? i : 0), (int)tfcc_so_zero_point(t));
      }
    }
  }
  ctx->scratch_bytes = (size_t)ctx->n_in * (sizeof(void *) + sizeof(int64_t) + sizeof(size_t) +
                                            sizeof(float) + sizeof(int32_t));
  return tfcc_so_set_shape(ctx, OP, out, t0->rank, dims);
}

static tfcc_status concat_eval(tfcc_op_ctx *ctx) {
  tfcc_tensor *out = ctx->out[0];
  const tfcc_tensor *t0 = ctx->in[0];
  int32_t axis = tfcc_fb_i32(&ctx->node->options, 0, 0);
  if (axis < 0) axis += t0->rank;
  int32_t n = ctx->n_in;
  int64_t outer = tfcc_so_prod(out->dims, 0, axis);
  size_t es = tfcc_dtype_size(out->dtype);
  uint8_t *s = (uint8_t *)ctx->scratch;
  const void **ptrs = (const void **)(void *)s;
  s += (size_t)n * sizeof(void *);
  int64_t *inner = (int64_t *)(void *)s;
  s += (size_t)n * sizeof(int64_t);
  size_t *inner_bytes = (size_t *)(void *)s;
  s += (size_t)n * sizeof(size_t);
  float *scales = (float *)(void *)s;
  s += (size_t)n * sizeof(float);
  int32_t *zps = (int32_t *)(void *)s;
  bool rescale = false;
  for (int32_t i = 0; i < n; i++) {
    const tfcc_tensor *t = ctx->in[i];
    ptrs[i] = t->data;
    inner[i] = tfcc_so_prod(t->dims, axis, t->rank);
    inner_bytes[i] = (size_t)inner[i] * es;
    scales[i] = tfcc_so_scale(t);
    zps[i] = tfcc_so_zero_point(t);
    if (out->dtype == TFCC_UINT8 &&
        (scales[i] != tfcc_so_scale(out) || zps[i] != tfcc_so_zero_point(out)))
      rescale = true;
  }
  if (rescale)
    tfcc_ref_concat_u8_scaled(n, (const uint8_t *const *)ptrs, inner, outer, scales, zps,
                              tfcc_so_scale(out), tfcc_so_zero_point(out), (uint8_t *)out->data);
  else
    tfcc_ref_concat(n, ptrs, inner_bytes, outer, out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_concatenation = {
    .name = OP, .prepare = concat_prepare, .eval = concat_eval};
