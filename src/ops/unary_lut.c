/* Quantized EXP / LOG / RSQRT through prepare-time lookup tables;
 * the contract is in unary_lut.h. */
#include "ops/unary_lut.h"

#include <math.h>
#include <stdlib.h>

#include "kernels/ref/activation.h"
#include "kernels/ref/expf.h"
#include "kernels/ref/lut.h"
#include "kernels/tflite-f32/xnn_exp.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"
#include "ops/binary_common.h"

typedef struct unary_lut {
  tfcc_dtype dtype;  /* TFCC_INT8 or TFCC_INT16; TFCC_FLOAT32: EXP as XNNPACK (exact7, below) */
  int32_t in_zp;     /* RSQRT: inputs below it are an error, as TFLite */
  uint8_t lut8[256]; /* int8 */
  int16_t lut16[TFCC_LUT16_SIZE]; /* int16 */
} unary_lut;

static const char *op_name(tfcc_unop op) {
  return op == TFCC_UN_EXP ? "EXP" : (op == TFCC_UN_LOG ? "LOG" : "RSQRT");
}

static float exp_fn(float x, const void *arg) {
  (void)arg;
  return tfcc_expf_ref(x); /* std::exp in TFLite's table: the plain build's bits */
}

/* arg: the output's lowest representable value, which non-positive inputs map to. */
static float log_fn(float x, const void *arg) {
  if (x <= 0.0f) return *(const float *)arg;
  return logf(x);
}

/* arg: the output scale; non-positive inputs give the largest int16 output. */
static float rsqrt16_fn(float x, const void *arg) {
  if (x <= 0.0f) return 32767.0f * *(const float *)arg;
  return 1.0f / sqrtf(x);
}

/* Whether TFLite takes its quantized path: int8, or int16 with quantization parameters. */
static bool lut_path(tfcc_dtype dt, const tfcc_quant *q) {
  return dt == TFCC_INT8 || (dt == TFCC_INT16 && q->count > 0);
}

tfcc_status tfcc_unary_lut_init(tfcc_init_ctx *ctx, tfcc_unop op) {
  const char *name = op_name(op);
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  /* float32 EXP in TFLITE mode runs XNNPACK's exp, as TensorFlow Lite's default build does for
     every float EXP node (its delegate takes them all): exact7 for subgraphs with hybrid nodes
     (run-time quantization downstream turns ulps into steps), lead49 for every model, as exact8
     did for LOG (overflow to inf from 88.7 where std::exp is still finite, NaN's sign, denormal
     results flushed to 0: the DPCRN speech enhancers' softplus) */
  if (in && op == TFCC_UN_EXP && in->dtype == TFCC_FLOAT32 &&
      ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE) {
    unary_lut *p;
    tfcc_status st = act_alloc_params(ctx, sizeof(*p), (void **)&p);
    if (!st) p->dtype = TFCC_FLOAT32;
    return st;
  }
  if (!in || !out || !lut_path(in->dtype, &in->quant)) return TFCC_OK; /* prepare decides */
  if (out->dtype != in->dtype)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: output dtype %s, expected %s", name,
                        tfcc_dtype_name(out->dtype), tfcc_dtype_name(in->dtype));
  float si = 0.f, so = 0.f;
  int32_t zi = 0, zo = 0;
  tfcc_status st = act_quant(ctx->err, "input 0", in->dtype, &in->quant, &si, &zi);
  if (!st) st = act_quant(ctx->err, "output 0", out->dtype, &out->quant, &so, &zo);
  if (st) return st;
  if (in->dtype == TFCC_INT16 && (zi != 0 || zo != 0))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "%s: int16 needs zero points 0 (input %d, output %d)", name, (int)zi,
                        (int)zo);
  unary_lut *p;
  if ((st = act_alloc_params(ctx, sizeof(*p), (void **)&p))) return st;
  p->dtype = in->dtype;
  p->in_zp = zi;
  const float log_min = (float)((in->dtype == TFCC_INT8 ? -128 : -32768) - zo) * so;
  if (in->dtype == TFCC_INT8) {
    if (op == TFCC_UN_EXP) {
      tfcc_lut8_build_fn(TFCC_INT8, si, zi, so, zo, exp_fn, NULL, p->lut8);
    } else if (op == TFCC_UN_LOG) {
      tfcc_lut8_build_fn(TFCC_INT8, si, zi, so, zo, log_fn, &log_min, p->lut8);
    } else {
      /* RsqrtEvalQuantizedInt8 computes per element; one table holds the same values. */
      int32_t mult = 0;
      int shift = 0;
      const double m = 1. / (sqrt((double)si) * (double)so);
      if ((st = act_multiplier(ctx->err, "RSQRT output", m, &mult, &shift))) goto fail;
      if (shift - 20 < -31) {
        st = tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "RSQRT: output multiplier %g too small",
                          m);
        goto fail;
      }
      for (int32_t q = -128; q <= 127; q++)
        p->lut8[(uint8_t)q] = q < zi ? 0 : (uint8_t)tfcc_rsqrt_i8(q, zi, zo, mult, shift);
    }
  } else {
    if (op == TFCC_UN_EXP)
      tfcc_lut16_build_fn(si, zi, so, zo, exp_fn, NULL, p->lut16);
    else if (op == TFCC_UN_LOG)
      tfcc_lut16_build_fn(si, zi, so, zo, log_fn, &log_min, p->lut16);
    else
      tfcc_lut16_build_fn(si, zi, so, zo, rsqrt16_fn, &so, p->lut16);
  }
  return TFCC_OK;
fail:
  free(p);
  ctx->params = NULL;
  return st;
}

tfcc_status tfcc_unary_lut_prepare(tfcc_op_ctx *ctx, tfcc_unop op) {
  const unary_lut *p = (const unary_lut *)ctx->params;
  if (p && p->dtype == TFCC_FLOAT32) return tfcc_unary_prepare(ctx, op);
  if (!p) {
    TFCC_OP_CHECK(ctx,
                  ctx->n_in < 1 || !ctx->in[0] || !lut_path(ctx->in[0]->dtype, ctx->in[0]->quant),
                  TFCC_ERR_STATE, "%s: quantized tables missing (init did not run)", op_name(op));
    return tfcc_unary_prepare(ctx, op);
  }
  tfcc_status st = act_check_io(ctx, 1);
  if (st) return st;
  TFCC_OP_CHECK(ctx, ctx->in[0]->dtype == p->dtype && ctx->out[0]->dtype == p->dtype,
                TFCC_ERR_DTYPE, "%s: input/output dtype %s/%s, model declared %s", op_name(op),
                tfcc_dtype_name(ctx->in[0]->dtype), tfcc_dtype_name(ctx->out[0]->dtype),
                tfcc_dtype_name(p->dtype));
  return act_same_shape(ctx);
}

tfcc_status tfcc_unary_lut_eval(tfcc_op_ctx *ctx, tfcc_unop op) {
  const unary_lut *p = (const unary_lut *)ctx->params;
  if (!p) return tfcc_unary_eval(ctx, op);
  const size_t n = act_count(ctx->in[0]);
  if (p->dtype == TFCC_FLOAT32 && ctx->in[0]->dtype == TFCC_FLOAT32) {
    tfcc_xnn_exp_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data, n);
    return TFCC_OK;
  }
  if (p->dtype == TFCC_INT8) {
    const int8_t *x = (const int8_t *)ctx->in[0]->data;
    if (op == TFCC_UN_RSQRT)
      for (size_t i = 0; i < n; i++)
        TFCC_OP_CHECK(ctx, x[i] >= p->in_zp, TFCC_ERR_RUNTIME,
                      "RSQRT: input element %zu is negative (%d below zero point %d); RSQRT is "
                      "only defined for positive values",
                      i, (int)x[i], (int)p->in_zp);
    act_run_lut(ctx, p->lut8);
  } else {
    const int16_t *x = (const int16_t *)ctx->in[0]->data;
    if (op == TFCC_UN_RSQRT)
      for (size_t i = 0; i < n; i++)
        TFCC_OP_CHECK(ctx, x[i] >= 0, TFCC_ERR_RUNTIME,
                      "RSQRT: input element %zu is negative (%d); RSQRT is only defined for "
                      "positive values",
                      i, (int)x[i]);
    tfcc_lut16_apply(x, (int16_t *)ctx->out[0]->data, n, p->lut16);
  }
  return TFCC_OK;
}
