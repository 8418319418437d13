/* TRANSPOSE_CONV: inputs (output_shape int32[4], known at prepare or else at run; weights
 * [out_c, H, W, in_c]; input NHWC; optional bias), options TransposeConvOptions (padding,
 * stride_w, stride_h, fused_activation_function). Padding as TFLite: computed from the
 * output size with ComputePaddingHeightWidth. Hybrid (float32 input, int8 weights with
 * per-tensor or per-channel scales, float32 bias), as TFLite's builtin kernel: the input
 * quantized per image, asymmetric (kernels/ref/transpose_conv.h). Float32 in the sum order
 * of the TFLite kernel that runs it: XNNPACK's deconvolution in TFLITE mode with a constant
 * output_shape and static weights, else the builtin kernel's (docs/quantization.md). */
#include <stdlib.h>
#include <string.h>

#include "base/weights_mem.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/transpose_conv.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "ops/conv_common.h"
#include "ops/hybrid.h"
#include "ops/work_estimate.h"

typedef struct tconv_params {
  tfcc_window_opts o;
  tfcc_conv_qparams q;
  bool xnnpack; /* float32 with static operands: LiteRT's XNNPACK delegate takes it if its
                  geometry suits (tconv_delegated, tconv_delegate_geom) */
  /* xnnpack with 8 or more output channels: the block TFCC_BLOCK_F32_TCONV, the float32
     weights packed for tfcc_tconv_f32, then a copy of the bias (when the node has one); packed
     at init into own (packed-weights memory) or taken from the weights cache. Every eval of the
     node reads them, never the stored weights and bias (tconv_eval), which are consumed. */
  const float *packed;
  const float *bias; /* in the block, or NULL */
  void *own;
  /* float32: the vector GEMM the builtin order runs on (tfcc_eigen_tconv_f32, the same
     sums as the scalar tfcc_tconv_f32 with TFCC_TCONV_F32_BUILTIN), or NULL */
  const tfcc_tflite_f32_kernel *eigen_k;
  /* hybrid (float32 input, int8 weights), TFLITE mode, operands the delegate takes as static:
     at a geometry it takes (tconv_delegate_geom), LiteRT's qd8 deconvolution (bit-identical
     on transpose_conv_hybrid_*; GTCRN-Micro's dynamic-range exports were 4e-6 off at their
     first hybrid TRANSPOSE_CONV, 0.0075 at the output), else the builtin EvalHybrid */
  bool hyb_qd8;
} tconv_params;

/* A float TRANSPOSE_CONV goes to LiteRT's XNNPACK delegate (TFLITE mode) when its output_shape
   is a constant of the file (one computed from constants is computed by TFLite at run time:
   tfcc folds it at load, marking it `folded`) and its weights and bias are static: constants
   (float16 or sparse weights unpacked by a DEQUANTIZE / DENSIFY, which tfcc folds, the
   delegate unpacks as static too). Otherwise TFLite runs its builtin kernel; checked with
   LiteRT.js (weights as a graph input: the builtin order, bit for bit). */
static bool tconv_delegated(const tfcc_init_ctx *ctx) {
  if (ctx->quant_compat != TFCC_QUANT_COMPAT_TFLITE && !tfcc_hybrid_ref_delegated_float(ctx))
    return false;
  const tfcc_ir_node *n = ctx->node;
  if (n->n_inputs < 3 || n->inputs[0] < 0 || n->inputs[1] < 0) return false; /* prepare refuses */
  for (int32_t k = 0; k < n->n_inputs && k < 4; k++) {
    if (k == 2 || n->inputs[k] < 0) continue; /* the input; an omitted bias */
    const tfcc_ir_tensor *t = &ctx->sg->tensors[n->inputs[k]];
    if (!t->data || t->is_variable || (k == 0 && t->folded)) return false;
  }
  return true;
}

static void tconv_release(void *p) {
  tconv_params *tp = p;
  if (!tp) return;
  tfcc_conv_qparams_free(&tp->q);
  tfcc_wmem_free(tp->own);
  free(tp);
}

/* ... and when its geometry suits the delegate (CalculateTransposeConvPaddings): VALID needs a
   kernel no larger than the output; SAME a kernel no smaller than the stride and the input
   size SAME padding implies (ceil(output / stride)). Otherwise the builtin kernel runs: with
   SAME, stride 4 and a 2x2 kernel LiteRT's outputs are the builtin order's, bit for bit. */
static bool tconv_delegate_geom(const tfcc_conv_geom *g, int32_t padding) {
  if (padding == TFCC_PAD_VALID) return g->filter_h <= g->out_h && g->filter_w <= g->out_w;
  return g->filter_h >= g->stride_h && g->filter_w >= g->stride_w &&
         (g->out_h + g->stride_h - 1) / g->stride_h == g->in_h &&
         (g->out_w + g->stride_w - 1) / g->stride_w == g->in_w;
}

/* The order a float32 node runs in at geometry g (the delegate takes it, or the builtin kernel) */
static tfcc_tconv_f32_order tconv_order(const tconv_params *p, const tfcc_conv_geom *g) {
  return p->xnnpack && tconv_delegate_geom(g, p->o.padding) ? TFCC_TCONV_F32_XNNPACK
                                                            : TFCC_TCONV_F32_BUILTIN;
}

/* The builtin order on the vector GEMM (its scratch sized at prepare) */
static bool tconv_eigen(const tconv_params *p, const tfcc_conv_geom *g) {
  return p->eigen_k && p->eigen_k->eigen_gemm && tconv_order(p, g) == TFCC_TCONV_F32_BUILTIN;
}

/* The packed block of a delegated float32 node with 8 or more output channels and constant
   float32 weights (and bias): taken from the weights cache, else packed here and offered to
   it. Its size follows from the shapes alone, so a warm load reads neither the weights nor
   the bias. Both are then consumed: every eval reads the block (the XNNPACK order from the
   packing, the builtin one, which an input shape the delegate would refuse runs, from the
   packing too: tfcc_tconv_f32 with no stored weights). */
static tfcc_status tconv_pack(tfcc_init_ctx *ctx, tconv_params *p) {
  const tfcc_ir_node *n = ctx->node;
  const tfcc_ir_tensor *w = &ctx->sg->tensors[n->inputs[1]];
  const tfcc_ir_tensor *b =
      n->n_inputs > 3 && n->inputs[3] >= 0 ? &ctx->sg->tensors[n->inputs[3]] : NULL;
  if (w->dtype != TFCC_FLOAT32 || w->rank != 4 || w->sparsity || w->dims[0] < 8 ||
      w->dims[1] <= 0 || w->dims[2] <= 0 || w->dims[3] <= 0)
    return TFCC_OK; /* unpacked: prepare refuses what does not fit */
  const size_t wbytes = (size_t)tfcc_shape_elements(4, w->dims) * sizeof(float);
  const size_t bbytes = (size_t)w->dims[0] * sizeof(float);
  if (w->data_bytes != wbytes ||
      (b && (b->dtype != TFCC_FLOAT32 || b->sparsity || b->data_bytes != bbytes)))
    return TFCC_OK;
  const size_t bytes = wbytes + (b ? bbytes : 0);
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_F32_TCONV);
  const void *hit = tfcc_packed_get(&key, bytes);
  if (!hit) {
    if (!(p->own = tfcc_wmem_alloc(bytes)))
      return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY,
                          "out of memory packing TRANSPOSE_CONV weights [%d,%d,%d,%d] (%zu bytes)",
                          (int)w->dims[0], (int)w->dims[1], (int)w->dims[2], (int)w->dims[3],
                          bytes);
    tfcc_tconv_f32_pack(w->data, w->dims[0], w->dims[1], w->dims[2], w->dims[3], p->own);
    if (b) memcpy((uint8_t *)p->own + wbytes, b->data, bbytes);
    tfcc_packed_put(&key, p->own, bytes);
    hit = p->own;
  }
  p->packed = hit;
  p->bias = b ? (const float *)((const uint8_t *)hit + wbytes) : NULL;
  tfcc_packed_consumed(&key, p, w->data);
  tfcc_packed_consumed(&key, p, b ? b->data : NULL);
  return TFCC_OK;
}

static tfcc_status tconv_init(tfcc_init_ctx *ctx) {
  tconv_params *p = calloc(1, sizeof(*p));
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for TRANSPOSE_CONV");
  const tfcc_transpose_conv_options *o = &ctx->node->opts.transpose_conv;
  p->xnnpack = tconv_delegated(ctx);
  p->hyb_qd8 = p->xnnpack && ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE;
  p->o.padding = o->padding;
  p->o.stride_w = o->stride_w;
  p->o.stride_h = o->stride_h;
  p->o.act = o->activation;
  p->o.dil_w = p->o.dil_h = 1;
  tfcc_status st = tfcc_window_opts_check(&p->o, ctx->err);
  if (st == TFCC_OK) st = tfcc_conv_init_quant(ctx, 2, 1, p->o.act, false, &p->q);
  if (st == TFCC_OK && p->xnnpack) st = tconv_pack(ctx, p);
  if (st == TFCC_OK) p->eigen_k = tfcc_tflite_f32_select(ctx->isa);
  if (st != TFCC_OK) {
    tconv_release(p);
    return st;
  }
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status tconv_geom(tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  const tconv_params *p = ctx->params;
  const tfcc_tensor *os = ctx->in[0], *f = ctx->in[1], *in = ctx->in[2];
  const tfcc_tensor *bias = ctx->n_in > 3 ? ctx->in[3] : NULL;
  if (os->dtype != TFCC_INT32 || os->rank != 1 || os->dims[0] != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "output_shape must be int32[4]");
  if (!os->known || !os->data)
    return TFCC_OP_NEEDS_DATA(
        ctx, os, "TRANSPOSE_CONV: output_shape (tensor %d) is known only while running",
        (int)os->index);
  if (in->rank != 4 || f->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d and weights rank %d, expected 4",
                        (int)in->rank, (int)f->rank);
  const int32_t *shp = os->data;
  tfcc_conv_geom_input(g, in->dims);
  tfcc_conv_geom_filter(g, f->dims);
  if (shp[0] != g->batches || shp[3] != g->out_c)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "output_shape [%d,%d,%d,%d] disagrees with batch %d / channels %d",
                        (int)shp[0], (int)shp[1], (int)shp[2], (int)shp[3], (int)g->batches,
                        (int)g->out_c);
  if (g->filter_in_c != g->in_c)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "weights input channels %d, input has %d",
                        (int)g->filter_in_c, (int)g->in_c);
  tfcc_status st = tfcc_conv_geom_bias(bias, g, ctx->err);
  if (st != TFCC_OK) return st;
  if (shp[1] < 0 || shp[2] < 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "negative output_shape");
  g->out_h = shp[1];
  g->out_w = shp[2];
  tfcc_conv_geom_strides(g, &p->o); /* dilations 1 (init) */
  int32_t uh, uw;
  st = tfcc_conv_out_size(p->o.padding, g->out_h, g->filter_h, g->stride_h, 1, &uh, ctx->err);
  if (st == TFCC_OK)
    st = tfcc_conv_out_size(p->o.padding, g->out_w, g->filter_w, g->stride_w, 1, &uw, ctx->err);
  if (st != TFCC_OK) return st;
  g->pad_h = tfcc_conv_pad(g->stride_h, 1, g->out_h, g->filter_h, uh);
  g->pad_w = tfcc_conv_pad(g->stride_w, 1, g->out_w, g->filter_w, uw);
  return tfcc_conv_geom_fits(in, g, ctx->err);
}

/* float32 input with int8 weights: dynamic-range quantization */
static bool tconv_hybrid(const tfcc_op_ctx *ctx) {
  return ctx->in[2]->dtype == TFCC_FLOAT32 && ctx->in[1]->dtype == TFCC_INT8;
}

static tfcc_status tconv_hybrid_check(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const tfcc_tensor *f = ctx->in[1], *bias = ctx->n_in > 3 ? ctx->in[3] : NULL;
  if (ctx->out[0]->dtype != TFCC_FLOAT32 || (bias && bias->dtype != TFCC_FLOAT32))
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE,
                        "hybrid TRANSPOSE_CONV needs a float32 output and bias");
  if (!f->quant || (f->quant->count != 1 && f->quant->count != g->out_c))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "int8 weights need 1 or %d scales (they have %d)", (int)g->out_c,
                        f->quant ? (int)f->quant->count : 0);
  for (int32_t c = 0; c < f->quant->count; c++)
    if (!(f->quant->scale[c] > 0.f))
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "weights scale %d is not positive",
                          (int)c);
  return TFCC_OK;
}

static tfcc_status tconv_prepare(tfcc_op_ctx *ctx) {
  const tconv_params *p = ctx->params;
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "TRANSPOSE_CONV not initialised");
  if (ctx->n_in < 3 || !ctx->in[0] || !ctx->in[1] || !ctx->in[2] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "TRANSPOSE_CONV needs output_shape, weights, input and one output");
  const tfcc_tensor *bias = ctx->n_in > 3 ? ctx->in[3] : NULL;
  tfcc_status st = tconv_hybrid(ctx)
                       ? TFCC_OK
                       : tfcc_conv_check_types(ctx->in[2], ctx->in[1], bias, ctx->out[0], ctx->err);
  if (st != TFCC_OK) return st;
  tfcc_conv_geom g;
  st = tconv_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes = 0;
  if (tconv_hybrid(ctx)) {
    if ((st = tconv_hybrid_check(ctx, &g)) != TFCC_OK) return st;
    ctx->scratch_bytes = tfcc_tconv_hybrid_scratch(&g);
    int32_t hd[4] = {g.batches, g.out_h, g.out_w, g.out_c};
    return tfcc_tensor_set_shape(ctx->out[0], 4, hd, ctx->err);
  }
  if (ctx->in[2]->dtype != TFCC_FLOAT32) {
    if (p->q.n_mult == 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "quantization parameters missing");
    st = tfcc_conv_check_channels(&p->q, g.out_c, ctx->err);
    if (st != TFCC_OK) return st;
    ctx->scratch_bytes = (size_t)g.batches * g.out_h * g.out_w * g.out_c * sizeof(int64_t);
  } else if (tconv_eigen(p, &g)) {
    ctx->scratch_bytes = tfcc_eigen_tconv_f32_scratch(&g);
  }
  return tfcc_conv_geom_set_output(ctx->out[0], &g, ctx->err);
}

static tfcc_status tconv_eval(tfcc_op_ctx *ctx) {
  const tconv_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = tconv_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *f = ctx->in[1], *in = ctx->in[2];
  const tfcc_tensor *bias = ctx->n_in > 3 ? ctx->in[3] : NULL;
  const void *bd = bias ? bias->data : NULL;
  void *out = ctx->out[0]->data;
  tfcc_conv_requant r;
  if (tconv_hybrid(ctx)) {
    float lo, hi;
    tfcc_act_range_f32(p->o.act, &lo, &hi);
    tfcc_tconv_hybrid(&g, in->data, f->data, f->quant->scale, f->quant->count > 1 ? 1 : 0, bd, lo,
                      hi, ctx->scratch, out, p->hyb_qd8 && tconv_delegate_geom(&g, p->o.padding));
    return TFCC_OK;
  }
  if (in->dtype != TFCC_FLOAT32) tfcc_conv_requant_from(&p->q, in->dtype, &r);
  switch (in->dtype) {
    case TFCC_FLOAT32: {
      float lo, hi;
      tfcc_act_range_f32(p->o.act, &lo, &hi);
      /* each in the order of the TFLite kernel that runs it: a hybrid model's run-time
         quantization downstream turns ulps into whole steps (a HiFi-GAN vocoder of the
         twelfth sweep: 0.0046 at its output) */
      const tfcc_tconv_f32_order order = tconv_order(p, &g);
      const float *w = p->packed ? NULL : f->data, *b = p->packed ? p->bias : bd;
      if (tconv_eigen(p, &g) && ctx->scratch &&
          ctx->scratch_bytes >= tfcc_eigen_tconv_f32_scratch(&g))
        tfcc_eigen_tconv_f32(&g, in->data, w, p->packed, b, lo, hi, out, ctx->scratch,
                             p->eigen_k->eigen_gemm);
      else if (p->packed) /* the stored weights and bias are consumed: the block only */
        tfcc_tconv_f32(&g, in->data, NULL, p->packed, p->bias, lo, hi, order, out);
      else
        tfcc_tconv_f32(&g, in->data, f->data, NULL, bd, lo, hi, order, out);
      return TFCC_OK;
    }
    case TFCC_UINT8:
      tfcc_tconv_u8(&g, &r, in->data, f->data, bd, ctx->scratch, out);
      return TFCC_OK;
    case TFCC_INT8: tfcc_tconv_i8(&g, &r, in->data, f->data, bd, ctx->scratch, out); return TFCC_OK;
    case TFCC_INT16:
      tfcc_tconv_i16(&g, &r, in->data, f->data, bias && bias->dtype == TFCC_INT64 ? bd : NULL,
                     bias && bias->dtype == TFCC_INT32 ? bd : NULL, ctx->scratch, out);
      return TFCC_OK;
    default: return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype unsupported");
  }
}

static int64_t tconv_macs(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  tfcc_conv_geom g;
  if (!tfcc_op_probe_ctx(ctx, 3, &e, &c) || tconv_geom(&c, &g) != TFCC_OK) return 0;
  return tfcc_work_mul(tfcc_work_mul(tfcc_work_mul3(g.batches, g.in_h, g.in_w), g.in_c),
                       tfcc_work_mul3(g.filter_h, g.filter_w, g.out_c));
}

TFCC_OP_DEFINE(tfcc_op_transpose_conv, "TRANSPOSE_CONV", tconv_init, tconv_prepare, tconv_eval,
               .release = tconv_release, .macs = tconv_macs);
