/* QUANTIZE: float32 -> uint8 | int8 | int16 (per-tensor, or per-axis along the output's
 * quantized dimension), float32 -> int4 per-tensor (v4: round(x / scale) + zp clamped to
 * [-8, 7], AffineQuantizeToInt4; tfcc's int4 tensors hold one value per byte), float32 -> uint4
 * per tensor (types, v5: the same, clamped to [0, 15], AffineQuantizeToUInt4), and
 * requantization uint8 -> uint8|int8|int16 (int16: v6), int8 -> uint8|int8|int16, int16 -> int8|int16|int32,
 * int32 -> int8|int16 with multiplier (double)input_scale / (double)output_scale. Zero points
 * must be 0 only for int16 -> int16 (quantize.cc Prepare checks no other pair: int16 -> int8
 * with a -32768 input zero point is in tflite-micro's keyword_scrambled); int32 zero points are
 * any int32 (the int32 cases take
 * quantized int32 model inputs or outputs, quantize.cc "not supported by the converter"). */
#include "kernels/quantize/quantize.h"
#include "kernels/ref/quantize.h"
#include "ops/act_common.h"
#include "ops/f32_fast.h"

typedef struct quantize_op {
  act_head head;
  bool per_axis;
  float scale;
  int32_t zp, in_zp;
  int32_t mult;
  int shift;
  bool xnn;           /* TFCC_QUANT_COMPAT_TFLITE and the XNNPACK delegate takes the node */
  float inv_scale;    /* xnn f32 -> q8: 1 / output scale (float) */
  int32_t xnn_mult;   /* xnn q8 -> q8: lrintf(256 * in_scale / out_scale) */
  bool use_lut;       /* 8-bit input: the requantization as a table of all 256 inputs */
  atomic_bool logged; /* KERNEL_FALLBACK noted */
  tfcc_qz_lut lut;
} quantize_op;

/* act_quant, with int32 (any zero point) besides the 8/16-bit types. */
static tfcc_status quant_of(tfcc_err *err, const char *what, tfcc_dtype t, const tfcc_quant *q,
                            float *scale, int32_t *zp) {
  if (t != TFCC_INT32 || !q || q->count != 1) return act_quant(err, what, t, q, scale, zp);
  if (!(q->scale[0] > 0.f) || !isfinite(q->scale[0]))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "%s: quantization scale %g is not a positive "
                        "finite number",
                        what, (double)q->scale[0]);
  *scale = q->scale[0];
  *zp = q->zero_point[0];
  return TFCC_OK;
}

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  (void)node;
  quantize_op *p = (quantize_op *)params;
  const tfcc_dtype it = in->dtype, ot = out->dtype;
  bool ok;
  if (it == TFCC_FLOAT32)
    ok = ot == TFCC_UINT8 || ot == TFCC_INT8 || ot == TFCC_INT16 || ot == TFCC_INT4 ||
         ot == TFCC_UINT4;
  else if (it == TFCC_INT16)
    ok = ot == TFCC_INT8 || ot == TFCC_INT16 || ot == TFCC_INT32;
  else if (it == TFCC_INT32)
    ok = ot == TFCC_INT8 || ot == TFCC_INT16;
  else if (it == TFCC_INT8)
    ok = ot == TFCC_UINT8 || ot == TFCC_INT8 || ot == TFCC_INT16;
  else /* types: uint8 -> int16 is v6 */
    ok = it == TFCC_UINT8 && (ot == TFCC_UINT8 || ot == TFCC_INT8 || ot == TFCC_INT16);
  if (!ok)
    return tfcc_err_set(
        err, TFCC_ERR_UNSUPPORTED,
        "input %s with output %s not supported "
        "(float32->uint8|int8|int16|int4|uint4, uint8->uint8|int8|int16, int8->uint8|int8|int16, "
        "int16->int8|int16|int32, int32->int8|int16)",
        tfcc_dtype_name(it), tfcc_dtype_name(ot));
  tfcc_status st;
  if ((ot == TFCC_INT4 || ot == TFCC_UINT4) && out->quant.count > 1) /* per-tensor only */
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "%s output with per-axis quantization (%d scales) not supported (TFLite "
                        "quantizes to int4 / uint4 per tensor only)",
                        tfcc_dtype_name(ot), (int)out->quant.count);
  if (it == TFCC_FLOAT32 && out->quant.count > 1) {
    const tfcc_quant *q = &out->quant;
    for (int32_t c = 0; c < q->count; c++) {
      if (!(q->scale[c] > 0.f) || !isfinite(q->scale[c]))
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                            "output 0: channel %d scale %g is not a "
                            "positive finite number",
                            (int)c, (double)q->scale[c]);
      if (q->zero_point[c] < act_qmin(ot) || q->zero_point[c] > act_qmax(ot) ||
          (ot == TFCC_INT16 && q->zero_point[c] != 0))
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                            "output 0: channel %d zero point %d "
                            "invalid for %s",
                            (int)c, (int)q->zero_point[c], tfcc_dtype_name(ot));
    }
    p->per_axis = true;
    return TFCC_OK;
  }
  if ((st = quant_of(err, "output 0", ot, &out->quant, &p->scale, &p->zp))) return st;
  if (it == TFCC_INT16 && ot == TFCC_INT16 && p->zp != 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "int16 -> int16: output zero point %d, must be 0", (int)p->zp);
  const bool compat = p->head.quant_compat == TFCC_QUANT_COMPAT_TFLITE;
  if (it == TFCC_FLOAT32) {
    /* VisitQuantizeNode: float32 -> int8/uint8 (xnn_create_convert_nc_f32_q*8, scale 1/s) */
    if (compat && (ot == TFCC_INT8 || ot == TFCC_UINT8)) {
      p->xnn = true;
      p->inv_scale = 1.0f / p->scale;
    }
    return TFCC_OK;
  }
  float s_in = 0.f;
  if (in->quant.count == 1 && in->quant.scale[0] == 0.f) {
    /* a zero-scale constant (the reader allows it here only): multiplier 0 as TFLite's
       QuantizeMultiplier(0), every output the output's zero point */
    p->in_zp = in->quant.zero_point[0];
  } else if ((st = quant_of(err, "input 0", it, &in->quant, &s_in, &p->in_zp))) {
    return st;
  }
  if (it == TFCC_INT16 && ot == TFCC_INT16 && p->in_zp != 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "int16 -> int16: input zero point %d, must be 0",
                        (int)p->in_zp);
  if (compat && it == ot && (it == TFCC_INT8 || it == TFCC_UINT8)) {
    /* VisitQuantizeNode: same-type requantization with in/out scale in [2^-8, 2^7] */
    const float r = s_in / p->scale;
    if (r >= 0x1.0p-8f && r <= 0x1.0p+7f) {
      p->xnn = true;
      p->xnn_mult = (int32_t)lrintf(256.0f * r);
    }
  }
  st = act_multiplier(err, "input/output scale", (double)s_in / (double)p->scale, &p->mult,
                      &p->shift);
  if (st == TFCC_OK && !p->xnn && (it == TFCC_UINT8 || it == TFCC_INT8)) {
    tfcc_qz_lut_build(&p->lut, it, ot, false, p->mult, p->shift, p->in_zp, p->zp);
    p->use_lut = true;
  }
  return st;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  return act_unary_init(ctx, sizeof(quantize_op), setup);
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = act_unary_prepare(ctx);
  if (st) return st;
  quantize_op *p = (quantize_op *)ctx->params;
  if (p->per_axis || (p->head.in_type == TFCC_INT16))
    tfcc_f32_log_fallback_once(&p->logged, ctx, "QUANTIZE",
                               p->per_axis ? "per-axis quantization" : "int16 input");
  if (p->per_axis) {
    size_t o = 0, c = 0, i = 0;
    return act_per_axis_layout(ctx->err, ctx->out[0], &o, &c, &i);
  }
  return TFCC_OK;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const quantize_op *p = (const quantize_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0], *out = ctx->out[0];
  const size_t n = act_count(in);
  if (p->head.in_type == TFCC_FLOAT32) {
    if (p->per_axis) {
      size_t o = 0, c = 0, i = 0;
      tfcc_status st = act_per_axis_layout(ctx->err, out, &o, &c, &i);
      if (st) return st;
      tfcc_affine_quantize_pc((const float *)in->data, p->head.out_type, out->data, o, c, i,
                              out->quant->scale, out->quant->zero_point);
    } else if (p->xnn) {
      tfcc_qz_quantize_xnn(ctx->pool, ctx->ks->qz, (const float *)in->data, out->data, n,
                           p->inv_scale, p->zp, p->head.out_type);
    } else if (p->head.out_type == TFCC_INT4 || p->head.out_type == TFCC_UINT4) {
      tfcc_affine_quantize((const float *)in->data, p->head.out_type, out->data, n, p->scale,
                           p->zp);
    } else {
      tfcc_qz_quantize_ref(ctx->pool, ctx->ks->qz, (const float *)in->data, out->data, n, p->scale,
                           p->zp, p->head.out_type);
    }
  } else if (p->xnn) {
    tfcc_qz_requantize_xnn(ctx->pool, ctx->ks->qz, in->data, out->data, n, p->xnn_mult, p->in_zp,
                           p->zp, p->head.in_type);
  } else if (p->use_lut) {
    tfcc_qz_lut_apply(&p->lut, in->data, out->data, n);
  } else {
    tfcc_requantize(p->head.in_type, in->data, p->head.out_type, out->data, n, p->mult, p->shift,
                    p->in_zp, p->zp);
  }
  return TFCC_OK;
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  const quantize_op *p = (const quantize_op *)ctx->params;
  if (!p || p->per_axis || p->head.out_type == TFCC_INT4 || p->head.out_type == TFCC_UINT4)
    return "ref";
  if (p->head.in_type == TFCC_FLOAT32 || p->xnn) return ctx->ks->qz->name;
  if (p->use_lut) return "quantize-lut";
  return "ref";
}

TFCC_OP_DEFINE(tfcc_op_quantize, "QUANTIZE", init, prepare, eval, .kernel = kernel);
