/* SOFTMAX over the last dimension, with beta (SoftmaxOptions field 0).
 *   float32 -> float32
 *   float16 -> float16           types (v4): beta 1 as LiteRT's XNNPACK path (float32, one
 *                                rounding), other betas as reference Softmax<half>
 *   uint8   -> uint8 | int16   } the default builtin kernel (kGenericOptimized): float table
 *   int8    -> int8  | int16   } exp(-input_scale * beta * d) (PopulateSoftmaxLookupTable)
 *   int16   -> int16             reference SoftmaxInt16 with int16 LUTs (q16-softmax)
 * int8 -> int8 needs output zero point -128 and scale ~1/256; int16 -> int16 zero points 0 and
 * output scale ~1/32768 (SoftmaxPrepare). uint8 output rounds as (int)(p + 0.5f) and ignores
 * its zero point, exactly as TFLite's QuantizeSoftmaxOutput<uint8_t> off aarch64. */
#include <math.h>

#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"
#include "ops/act_common.h"
#include "ops/hybrid.h"

typedef struct softmax_op {
  act_head head;
  float beta;
  float out_scale;
  int32_t out_zp;
  float table[256];
  tfcc_softmax_i16_params i16;
  bool xnn_f32;                     /* float32, beta 1, either mode: XNNPACK's softmax */
  tfcc_xnn_softmax_order xnn_order; /* REFERENCE mode: the older XNNPACK's sum */
  bool eigen_f32; /* ref9: REFERENCE mode where the classic interpreter delegates nothing */
  /* uint8 -> uint8, int8 -> int8: the q8-softmax variant these output parameters run on,
   * chosen at init (tfcc_q8_softmax_pick); NULL: the reference (8-bit -> int16) */
  const tfcc_q8_softmax_kernel *q8;
} softmax_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  softmax_op *p = (softmax_op *)params;
  p->beta = node->opts.softmax.beta;
  const tfcc_dtype it = in->dtype, ot = out->dtype;
  const bool ok = (it == TFCC_FLOAT32 && ot == TFCC_FLOAT32) ||
                  (it == TFCC_FLOAT16 && ot == TFCC_FLOAT16) ||
                  (it == TFCC_UINT8 && (ot == TFCC_UINT8 || ot == TFCC_INT16)) ||
                  (it == TFCC_INT8 && (ot == TFCC_INT8 || ot == TFCC_INT16)) ||
                  (it == TFCC_INT16 && ot == TFCC_INT16);
  if (!ok)
    return tfcc_err_set(
        err, TFCC_ERR_UNSUPPORTED,
        "input %s with output %s not supported "
        "(float32->float32, float16->float16, uint8->uint8|int16, int8->int8|int16, "
        "int16->int16)",
        tfcc_dtype_name(it), tfcc_dtype_name(ot));
  if (it == TFCC_FLOAT32 || it == TFCC_FLOAT16) return TFCC_OK;
  float s_in = 0.f, s_out = 0.f;
  int32_t z_in = 0, z_out = 0;
  tfcc_status st = act_quant_io(err, in, out, &s_in, &z_in, &s_out, &z_out);
  if (st) return st;
  if (it == TFCC_INT8 && ot == TFCC_INT8) {
    if (z_out != -128 || fabsf(s_out - 1.f / 256) > 0.001f * 1.f / 256)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "int8 output needs scale 1/256 and zero "
                          "point -128, got %g and %d",
                          (double)s_out, (int)z_out);
  } else if (it == TFCC_INT16) {
    if (z_in != 0 || z_out != 0 || fabsf(s_out - 1.f / 32768) > 0.001f * 1.f / 32768)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "int16 softmax needs zero points 0 and "
                          "output scale 1/32768, got %d, %d, %g",
                          (int)z_in, (int)z_out, (double)s_out);
  }
  p->out_scale = s_out;
  p->out_zp = z_out;
  if (it == TFCC_INT16) {
    tfcc_softmax_i16_params_init(s_in, p->beta, &p->i16);
    if (p->i16.input_shift > 30)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "input scale * beta = %g too large",
                          (double)(s_in * p->beta));
  } else {
    tfcc_softmax_table_build(p->table, s_in, p->beta);
  }
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = act_unary_init(ctx, sizeof(softmax_op), setup);
  if (st == TFCC_OK && ctx->params) {
    softmax_op *p = ctx->params;
    /* the delegate takes a float SOFTMAX of beta 1 (VisitSoftmaxNode); every
     * one, in both modes (the same bits at every ISA cap, and TFLite's: LiteRT's XNNPACK in
     * TFLITE mode, the classic interpreter's older one in REFERENCE mode) */
    p->xnn_f32 = p->head.in_type == TFCC_FLOAT32 && p->beta == 1.0f;
    p->xnn_order = ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE ? TFCC_XNN_SOFTMAX_SEQ
                                                                    : TFCC_XNN_SOFTMAX_PAIR;
    /* ref9: a subgraph the classic interpreter leaves to its builtin kernels: Eigen's softmax */
    p->eigen_f32 = p->head.in_type == TFCC_FLOAT32 && tfcc_ref_builtin_float_range(ctx);
    if (p->eigen_f32) p->xnn_f32 = false;
    const tfcc_dtype it = p->head.in_type;
    if (ctx->ks && it == p->head.out_type && (it == TFCC_UINT8 || it == TFCC_INT8))
      p->q8 = tfcc_q8_softmax_pick(ctx->ks->q8_softmax, it == TFCC_UINT8, p->out_scale, p->out_zp);
  }
  return st;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) { return act_last_axis_prepare(ctx, "SOFTMAX"); }

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const softmax_op *p = (const softmax_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  const size_t depth = (size_t)in->dims[in->rank - 1];
  const size_t n = act_count(in);
  if (depth == 0 || n == 0) return TFCC_OK;
  const size_t outer = n / depth;
  switch (p->head.in_type) {
    case TFCC_FLOAT32:
      if (p->xnn_f32) {
        tfcc_xnn_softmax_run(ctx->pool, ctx->ks->tflite_f32, (const float *)in->data,
                             (float *)ctx->out[0]->data, outer, depth, p->xnn_order);
        break;
      }
      if (p->eigen_f32) {
        tfcc_eigen_softmax_f32((const float *)in->data, (float *)ctx->out[0]->data, outer, depth,
                               p->beta, ctx->ks->tflite_f32->expf);
        break;
      }
      tfcc_f32_softmax_run(ctx->pool, ctx->ks->f32_softmax, (const float *)in->data,
                           (float *)ctx->out[0]->data, outer, depth, p->beta);
      break;
    case TFCC_FLOAT16:
      /* LiteRT's default build hands beta 1 to XNNPACK (float32 arithmetic, one rounding to
       * half); other betas run the builtin Softmax<half> (each exp rounded to half first) */
      tfcc_softmax_f16((const uint16_t *)in->data, (uint16_t *)ctx->out[0]->data, outer, depth,
                       p->beta, p->beta != 1.0f);
      break;
    case TFCC_INT16:
      tfcc_q16_softmax_run(ctx->pool, ctx->ks->q16_softmax, (const int16_t *)in->data,
                           (int16_t *)ctx->out[0]->data, outer, depth, &p->i16);
      break;
    default:
      if (p->q8)
        tfcc_q8_softmax_run(ctx->pool, p->q8, ctx->ks->q8_lut, p->head.in_type == TFCC_UINT8,
                            (const uint8_t *)in->data, (uint8_t *)ctx->out[0]->data, outer, depth,
                            p->table, p->out_scale, p->out_zp);
      else
        tfcc_softmax_q8(p->head.in_type, in->data, p->head.out_type, ctx->out[0]->data, outer,
                        depth, p->table, p->out_scale, p->out_zp);
      break;
  }
  return TFCC_OK;
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  const softmax_op *p = (const softmax_op *)ctx->params;
  if (!p) return "ref";
  if (p->head.in_type == TFCC_FLOAT32 && p->eigen_f32) return "eigen";
  if (p->head.in_type == TFCC_FLOAT32 && p->xnn_f32) return ctx->ks->tflite_f32->name;
  if (p->head.in_type == TFCC_FLOAT32) return p->beta >= 0.f ? ctx->ks->f32_softmax->name : "ref";
  if (p->q8) return p->q8->name;
  if (p->head.in_type == TFCC_INT16) return ctx->ks->q16_softmax->name;
  return "ref";
}

TFCC_OP_DEFINE(tfcc_op_softmax, "SOFTMAX", init, prepare, eval, .kernel = kernel);
