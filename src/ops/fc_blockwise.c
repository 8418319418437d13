/* Blockwise-quantized FULLY_CONNECTED (ops/fc_blockwise.h). */
#include "ops/fc_blockwise.h"

#include <math.h>
#include <stdlib.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/ref/fc_blockwise.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/quantize.h"
#include "ops/conv_common.h"

struct tfcc_fc_blockwise {
  int32_t units, accum, block_size;
  float *scales; /* [units][accum / block_size]: bfloat16 values (xnn), else float16 ones */
  bool xnn;      /* XNNPACK's qd8 x qb4w (TFLITE mode, block size a multiple of 32, float16
                    scales normal and positive); else the builtin kernel */
  float lo, hi;  /* fused activation range */
};

bool tfcc_fc_blockwise_applies(const tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *w = tfcc_conv_ir_input(ctx, 1);
  return in && w && in->dtype == TFCC_FLOAT32 && w->block_size > 0;
}

void tfcc_fc_blockwise_free(tfcc_fc_blockwise *b) {
  if (!b) return;
  free(b->scales);
  free(b);
}

tfcc_status tfcc_fc_blockwise_init(const tfcc_init_ctx *ctx, int32_t act, tfcc_fc_blockwise **out) {
  *out = NULL;
  const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
  const int32_t bs = w->block_size;
  if (w->dtype != TFCC_INT8 || !w->data || w->rank != 2 || w->sparsity)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "blockwise-quantized weights must be constant, dense int4 or int8 of rank "
                        "2 (%s of rank %d%s)",
                        tfcc_dtype_name(w->dtype), (int)w->rank, w->data ? "" : ", not constant");
  const int32_t units = w->dims[0], accum = w->dims[1];
  if (accum <= 0 || accum % bs != 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "blockwise quantization: block size %d does not divide the %d weights of "
                        "a row",
                        (int)bs, (int)accum);
  if (w->block_zero_points >= 0)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_UNSUPPORTED,
        "blockwise quantization with zero points (tensor %d) unsupported (symmetric "
        "blocks only, zero_points -1)",
        (int)w->block_zero_points);
  const int32_t si = w->block_scales, nb = accum / bs;
  if (si < 0 || si >= ctx->sg->n_tensors)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "blockwise quantization: scales tensor %d out of range (%d tensors)",
                        (int)si, (int)ctx->sg->n_tensors);
  const tfcc_ir_tensor *s = &ctx->sg->tensors[si];
  const bool f16 = s->dtype == TFCC_FLOAT16;
  if ((!f16 && s->dtype != TFCC_FLOAT32) || !s->data || s->rank != 2 || s->dims[0] != units ||
      s->dims[1] != nb || s->data_bytes < (size_t)units * (size_t)nb * (f16 ? 2 : 4))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "blockwise quantization: scales tensor %d (%s) must be constant float16 or "
                        "float32 [%d, %d]",
                        (int)si, s->name, (int)units, (int)nb);
  tfcc_fc_blockwise *b = calloc(1, sizeof(*b));
  float *sc = malloc(sizeof(float) * (size_t)units * (size_t)nb);
  if (!b || !sc) {
    free(b);
    free(sc);
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for %d block scales",
                        (int)(units * nb));
  }
  bool xnn = ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && bs % 32 == 0 && f16;
  for (size_t i = 0; i < (size_t)units * (size_t)nb; i++) {
    sc[i] = f16 ? tfcc_half_to_float(((const uint16_t *)s->data)[i]) : ((const float *)s->data)[i];
    xnn = xnn && isnormal(sc[i]) && sc[i] > 0.0f;
  }
  if (xnn)
    for (size_t i = 0; i < (size_t)units * (size_t)nb; i++) sc[i] = tfcc_fc_bw_scale(sc[i]);
  b->xnn = xnn;
  b->units = units, b->accum = accum, b->block_size = bs, b->scales = sc;
  tfcc_act_range_f32(act, &b->lo, &b->hi);
  *out = b;
  return TFCC_OK;
}

tfcc_status tfcc_fc_blockwise_prepare(tfcc_op_ctx *ctx, const tfcc_fc_blockwise *b, int32_t units,
                                      int32_t accum) {
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (units != b->units || accum != b->accum)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "weights [%d, %d], expected [%d, %d]", (int)units,
                        (int)accum, (int)b->units, (int)b->accum);
  if (ctx->out[0]->dtype != TFCC_FLOAT32)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "output %s, expected float32",
                        tfcc_dtype_name(ctx->out[0]->dtype));
  if (bias && (bias->dtype != TFCC_FLOAT32 || tfcc_tensor_elements(bias) != units))
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "bias must be float32 [%d]", (int)units);
  ctx->scratch_bytes = (size_t)accum;
  return TFCC_OK;
}

tfcc_status tfcc_fc_blockwise_eval(tfcc_op_ctx *ctx, const tfcc_fc_blockwise *b, int32_t batches,
                                   int32_t units, int32_t accum) {
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const float *x = ctx->in[0]->data;
  float *y = ctx->out[0]->data;
  int8_t *q = ctx->scratch;
  for (int32_t r = 0; r < batches; r++) {
    float scale;
    int32_t zp;
    const float *xr = x + (size_t)r * (size_t)accum;
    tfcc_hyb_quantize(b->xnn ? TFCC_HYB_QD8 : TFCC_HYB_ASYM, xr, (size_t)accum, q, &scale, &zp,
                      NULL, NULL);
    (b->xnn ? tfcc_fc_blockwise_row : tfcc_fc_blockwise_row_builtin)(
        q, zp, scale, ctx->in[1]->data, b->scales, bias ? bias->data : NULL, units, accum,
        b->block_size, b->lo, b->hi, y + (size_t)r * (size_t)units);
  }
  return TFCC_OK;
}
