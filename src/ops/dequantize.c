/* DEQUANTIZE: uint8 / int8 / int16 / int4 / int2 / uint4 (per-tensor or per-axis) and float16 /
 * float8 -> float32.
 * int4 (v6): tfcc's one value per byte, dequantized as int8 (TFLite unpacks, then runs its
 * int8 arithmetic); constant int4 tensors arrive as int8 (unpacked at load). types: int2 (v7)
 * and uint4 (v8) likewise (constant uint4 arrives as uint8: the same values 0..15 that TFLite
 * unpacks into int8); float8 e4m3fn / e5m2 (v9) decoded exactly, quantization ignored, as
 * DequantizeFloat8.
 * Per-tensor: (float)(double(scale) * (q - zp)) as reference_ops::Dequantize; per-axis:
 * scale[c] * (float)(q - zp[c]) as PerChannelDequantize; int16 needs zero point 0. float16
 * (constants in mediapipe models) is decoded exactly, subnormals / inf / NaN included. */
#include "kernels/quantize/quantize.h"
#include "kernels/ref/quantize.h"
#include "ops/act_common.h"
#include "ops/f32_fast.h"

typedef struct dequantize_op {
  act_head head;
  bool per_axis;
  float scale;
  int32_t zp;
  atomic_bool logged; /* KERNEL_FALLBACK noted */
} dequantize_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  (void)node;
  dequantize_op *p = (dequantize_op *)params;
  const tfcc_dtype it = in->dtype;
  const bool is_float = it == TFCC_FLOAT16 || it == TFCC_FLOAT8_E4M3FN || it == TFCC_FLOAT8_E5M2;
  if (!(it == TFCC_UINT8 || it == TFCC_INT8 || it == TFCC_INT16 || it == TFCC_INT4 ||
        it == TFCC_INT2 || it == TFCC_UINT4 || is_float))
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "input dtype %s not supported (uint8, int8, "
                        "int16, int4, int2, uint4, float16, float8_e4m3fn, float8_e5m2)",
                        tfcc_dtype_name(it));
  tfcc_status st = act_out_dtype(err, out->dtype, TFCC_FLOAT32);
  if (st || is_float) return st;
  const tfcc_quant *q = &in->quant;
  if (q->count > 1) {
    for (int32_t c = 0; c < q->count; c++) {
      if (!isfinite(q->scale[c]))
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                            "input 0: channel %d scale %g is not "
                            "finite",
                            (int)c, (double)q->scale[c]);
    }
    p->per_axis = true;
    return TFCC_OK;
  }
  if ((st = act_quant(err, "input 0", it, q, &p->scale, &p->zp))) return st;
  if (it == TFCC_INT16 && p->zp != 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "int16 input zero point %d, must be 0",
                        (int)p->zp);
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  return act_unary_init(ctx, sizeof(dequantize_op), setup);
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = act_unary_prepare(ctx);
  if (st) return st;
  dequantize_op *p = (dequantize_op *)ctx->params;
  if (p->per_axis)
    tfcc_f32_log_fallback_once(&p->logged, ctx, "DEQUANTIZE", "per-axis quantization");
  if (p->per_axis) {
    size_t o = 0, c = 0, i = 0;
    return act_per_axis_layout(ctx->err, ctx->in[0], &o, &c, &i);
  }
  return TFCC_OK;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const dequantize_op *p = (const dequantize_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  float *out = (float *)ctx->out[0]->data;
  if (p->per_axis) {
    size_t o = 0, c = 0, i = 0;
    tfcc_status st = act_per_axis_layout(ctx->err, in, &o, &c, &i);
    if (st) return st;
    tfcc_dequantize_pc(p->head.in_type, in->data, out, o, c, i, in->quant->scale,
                       in->quant->zero_point);
  } else if (p->head.in_type == TFCC_FLOAT16 || p->head.in_type == TFCC_FLOAT8_E4M3FN ||
             p->head.in_type == TFCC_FLOAT8_E5M2) {
    tfcc_dequantize(p->head.in_type, in->data, out, act_count(in), p->scale, p->zp);
  } else {
    const tfcc_dtype t0 = p->head.in_type;
    const tfcc_dtype it = t0 == TFCC_INT4 || t0 == TFCC_INT2 ? TFCC_INT8
                          : t0 == TFCC_UINT4                 ? TFCC_UINT8
                                                             : t0;
    tfcc_qz_dequantize(ctx->pool, ctx->ks->qz, in->data, out, act_count(in), p->scale, p->zp, it);
  }
  return TFCC_OK;
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  const dequantize_op *p = (const dequantize_op *)ctx->params;
  if (!p || p->per_axis || p->head.in_type == TFCC_FLOAT16 ||
      p->head.in_type == TFCC_FLOAT8_E4M3FN || p->head.in_type == TFCC_FLOAT8_E5M2)
    return "ref";
  return ctx->ks->qz->name;
}

TFCC_OP_DEFINE(tfcc_op_dequantize, "DEQUANTIZE", init, prepare, eval, .kernel = kernel);
