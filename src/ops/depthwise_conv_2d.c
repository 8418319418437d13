/* DEPTHWISE_CONV_2D: inputs (input NHWC, filter [1, H, W, in_c * multiplier], optional
 * bias), options DepthwiseConv2DOptions (padding, stride_w, stride_h, depth_multiplier,
 * fused_activation_function, dilation_w, dilation_h). As TFLite, the depth multiplier used
 * is output channels / input channels from the shapes (the option is not trusted). */
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/kernel_set.h"
#include "kernels/ref/depthwise_conv.h"
#include "kernels/ref/quant_util.h"
#include "ops/params_mem.h"
#include "ops/conv_node.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"
#include "ops/packed_layouts.h"
#include "ops/q8_fast.h"
#include "base/threadpool.h"
#include "ops/work_estimate.h"

typedef struct dw_params {
  tfcc_conv_node n;   /* window, quantization, q8 depthwise packing, hybrid (ops/conv_node.h);
                       float32 uses the weights in place */
  bool xnn_f32;       /* ops: float32 in a hybrid model, TFLITE mode: XNNPACK's order */
  bool builtin_f32;   /* float32 in a hybrid model where XNNPACK declines the node
                       (and REFERENCE mode in any subgraph the classic interpreter
                       delegates nothing of): TFLite's builtin order (tfcc_dwconv_f32_bias_first) */
  bool builtin_range; /* and REFERENCE mode's builtin activation range there
                         (tfcc_act_range_f32_builtin: NONE clamps to +-FLT_MAX) and clamp (a NaN
                         becomes the upper bound) */
  /* one input channel and a depth multiplier > 1: XNNPACK makes it a convolution of
   * one group with 1 input and out_c output channels, which its IGEMM (or nr2 kernel below 8
   * outputs) runs, taps row by row: the filter as tfcc_xnn_conv_pack packs it, else NULL */
  const float *xnn_w;
  tfcc_packed_layout xnn_wl; /* xnn_w: own, or the weights cache's block */
  int32_t xnn_ocp;
  const void *xnn_src;
  const tfcc_tflite_f32_kernel *xnn_k;
  /* 16x8 (int16 input, constant int8 filter, depth multiplier 1): the filter packed once for
   * q16_k's fused kernel (dw_q16_init), else NULL */
  const int16_t *q16_w; /* q16_own, or the weights cache's block TFCC_BLOCK_Q16_DW */
  int16_t *q16_own;
  const void *q16_src; /* the filter data q16_w was made from */
  const tfcc_q16_dw_kernel *q16_k;
  int32_t q16_c, q16_taps;
} dw_params;

static void dw_release(void *p) {
  dw_params *cp = p;
  if (!cp) return;
  tfcc_conv_node_free(&cp->n);
  tfcc_packed_layout_free(&cp->xnn_wl);
  free(cp->q16_own);
  tfcc_params_free(cp);
}

/* 16x8: a constant int8 filter [1, h, w, c] of an int16 input of c / m channels (any depth
 * multiplier m; at most TFCC_Q16_DWF_MAX_TAPS taps) packed once for the q16-dwconv fused kernel
 * (tfcc_q16_dw_pack: c * taps int16 rounded up to the kernel's blocks). Out of memory or a filter the kernel does not take leaves the layer
 * to the per-pass packing. The packing follows from the filter and the kernel alone (its block
 * and lane order, fixed by the kernel level the weights cache's identity names): the cache's
 * block TFCC_BLOCK_Q16_DW where it holds it, else packed and offered. The filter is not
 * consumed (a geometry the fused kernel does not take reads it raw). */
static void dw_q16_init(const tfcc_init_ctx *ctx, dw_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  if (!in || !f || in->dtype != TFCC_INT16 || f->dtype != TFCC_INT8 || !f->data || f->rank != 4 ||
      f->sparsity || f->dims[0] != 1 || in->rank != 4 || in->dims[3] <= 0 ||
      f->dims[3] % in->dims[3] != 0)
    return;
  const tfcc_q16_dw_kernel *k = ctx->ks ? ctx->ks->q16_dw : tfcc_q16_dw_select(ctx->isa);
  const int64_t taps = (int64_t)f->dims[1] * f->dims[2];
  if (!k || taps <= 0 || taps > TFCC_Q16_DWF_MAX_TAPS) return;
  const size_t bytes = tfcc_q16_dw_packed_bytes(k, f->dims[3], (int32_t)taps);
  if (!bytes || f->data_bytes < (size_t)taps * (size_t)f->dims[3]) return;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_Q16_DW);
  const int16_t *hit = tfcc_packed_get(&key, bytes);
  p->q16_own = hit ? NULL : malloc(bytes);
  if (p->q16_own) {
    tfcc_q16_dw_pack(k, f->dims[3], (int32_t)taps, f->data, p->q16_own);
    tfcc_packed_put(&key, p->q16_own, bytes);
  }
  p->q16_w = hit ? hit : p->q16_own;
  if (!p->q16_w) return;
  p->q16_k = k, p->q16_src = f->data, p->q16_c = f->dims[3], p->q16_taps = (int32_t)taps;
}

static tfcc_status dw_init(tfcc_init_ctx *ctx) {
  dw_params *p = tfcc_params_calloc(sizeof(*p)); /* ops/params_mem.h */
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for DEPTHWISE_CONV_2D params");
  tfcc_status st = tfcc_conv_node_init(&p->n, ctx, true);
  if (st != TFCC_OK) {
    dw_release(p);
    return st;
  }
  tfcc_q8_fast_attach(&p->n.q8, ctx, TFCC_BLOCK_Q8_DW); /* packing shared with a weights cache */
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  p->xnn_f32 = !p->n.hyb && in && f && in->dtype == TFCC_FLOAT32 && f->dtype == TFCC_FLOAT32 &&
               (tfcc_hybrid_xnn_float(ctx) || tfcc_hybrid_ref_delegated_float(ctx));
  p->builtin_f32 = !p->n.hyb && !p->xnn_f32 && in && f && in->dtype == TFCC_FLOAT32 &&
                   f->dtype == TFCC_FLOAT32 && ctx->sg &&
                   (tfcc_hybrid_in_model(ctx->graph, ctx->sg) || tfcc_ref_builtin_float_range(ctx));
  p->builtin_range = p->builtin_f32 && tfcc_ref_builtin_float_range(ctx);
  if (p->xnn_f32 && f->data && !f->sparsity && in->rank == 4 && in->dims[3] == 1 && f->rank == 4 &&
      f->dims[0] == 1 && f->dims[3] > 1 &&
      f->data_bytes >= (size_t)f->dims[1] * f->dims[2] * f->dims[3] * sizeof(float)) {
    /* [1, fh, fw, oc]: the taps are the convolution's k (packed_layouts.h) */
    const int32_t taps = f->dims[1] * f->dims[2], oc = f->dims[3];
    tfcc_packed_xnn_dw(ctx, f->data, oc, taps, &p->xnn_wl, &p->xnn_ocp);
    p->xnn_w = p->xnn_wl.data;
    if (p->xnn_w) {
      p->xnn_src = f->data;
      p->xnn_k = tfcc_tflite_f32_select(ctx->isa);
    }
  }
  if (!p->n.hyb) dw_q16_init(ctx, p);
  ctx->params = p;
  return TFCC_OK;
}

/* Validates shapes and fills the kernel geometry (used by prepare and eval). */
static tfcc_status dw_geom(const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  return tfcc_conv_node_geom(&((const dw_params *)ctx->params)->n, ctx, g);
}

/* 8-bit fast path: packed filter for this node, or NULL (reference kernel). */
static const tfcc_q8_dw_packed *dw_q8_packed(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const dw_params *p = ctx->params;
  const tfcc_dtype dt = ctx->in[0]->dtype;
  if (dt != TFCC_INT8 && dt != TFCC_UINT8) return NULL;
  const tfcc_q8_dw_packed *pk = tfcc_q8_fast_get_dw(&p->n.q8, ctx->in[1]->data);
  return pk && pk->c == g->out_c && pk->taps == g->filter_h * g->filter_w && tfcc_q8_dw_fits(g)
             ? pk
             : NULL;
}

static void dw_q8_prepare(tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  dw_params *p = (dw_params *)ctx->params;
  const tfcc_tensor *f = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_conv_requant r;
  const char *why = tfcc_conv_node_q8_refuse(&p->n, ctx, &r);
  /* over 128 taps, or a window span that dwarfs its taps (tfcc_q8_dw_fits) */
  if (!why && !tfcc_q8_dw_fits(g))
    why = (int64_t)g->filter_h * g->filter_w > TFCC_Q8_DW_MAX_TAPS ? "filter too large"
                                                                   : "window columns too sparse";
  if (!why &&
      !tfcc_q8_fast_pack_dw(&p->n.q8, ctx->isa, ctx->in[0]->dtype == TFCC_INT8, g->out_c,
                            g->filter_h, g->filter_w, f->data, bias ? bias->data : NULL, &r))
    why = "out of memory packing the filter";
  if (why) {
    tfcc_f32_log_fallback_once(&p->n.q8.logged, ctx, "DEPTHWISE_CONV_2D", why);
    return;
  }
  /* every later shape runs on the packing (its channels and taps are the filter's) */
  tfcc_packed_consumed(&p->n.q8.key, p, f->data);
  tfcc_packed_consumed(&p->n.q8.key, p, bias ? bias->data : NULL);
  const tfcc_q8_dw_packed *pk = dw_q8_packed(ctx, g);
  if (pk) ctx->scratch_bytes = tfcc_q8_dw_scratch_bytes(pk, g, tfcc_threadpool_size(ctx->pool));
}

static tfcc_status dw_prepare(tfcc_op_ctx *ctx) {
  const dw_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = tfcc_conv_node_prepare_open(p ? &p->n : NULL, ctx, "DEPTHWISE_CONV_2D", &g);
  if (st != TFCC_OK) return st;
  if (p->n.hyb) return tfcc_conv_node_prepare_hybrid(&p->n, ctx, &g); /* float32 in, int8 filter */
  st = tfcc_conv_node_check_quant(&p->n, ctx, &g);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes = 0;
  if (ctx->in[0]->dtype == TFCC_FLOAT32) ctx->scratch_bytes = tfcc_f32_dwconv_scratch_bytes(&g);
  if (ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) dw_q8_prepare(ctx, &g);
  /* q16-dwconv: each thread's tap pointers and tail rows, and for a depth multiplier above 1 the
   * input spread to the output channels */
  if (ctx->in[0]->dtype == TFCC_INT16)
    ctx->scratch_bytes = tfcc_q16_dwconv_scratch_bytes(&g, tfcc_threadpool_size(ctx->pool));
  return tfcc_conv_geom_set_output(ctx->out[0], &g, ctx->err);
}

/* The packed 8-bit depthwise convolution, when its packing and scratch are there. */
static bool dw_q8_fast(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r) {
  const tfcc_q8_dw_packed *pk = dw_q8_packed(ctx, g);
  if (!pk || ctx->scratch_bytes < tfcc_q8_dw_scratch_bytes(pk, g, tfcc_threadpool_size(ctx->pool)))
    return false;
  tfcc_q8_dwconv(ctx->pool, g, pk, r, ctx->in[0]->data, ctx->out[0]->data, ctx->scratch);
  return true;
}

/* 16x8: tfcc_dwconv_i16's results on the q16-dwconv kernels (input offset 0). */
static bool dw_i16_fast(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r) {
  if (!ctx->ks || !ctx->ks->q16_dw || !tfcc_q16_dwconv_fits(g, r)) return false;
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const dw_params *p = ctx->params;
  const size_t sb = tfcc_q16_dwconv_scratch_bytes(g, tfcc_threadpool_size(ctx->pool));
  /* the packing at init where it is this filter, this kernel and these channels */
  const int16_t *pk = p->q16_w && ctx->in[1]->data == p->q16_src && p->q16_k == ctx->ks->q16_dw &&
                              g->out_c == p->q16_c && g->filter_h * g->filter_w == p->q16_taps
                          ? p->q16_w
                          : NULL;
  tfcc_q16_dwconv(ctx->pool, ctx->ks->q16_dw, g, r, ctx->in[0]->data, ctx->in[1]->data, pk,
                  bias && bias->dtype == TFCC_INT64 ? bias->data : NULL,
                  bias && bias->dtype == TFCC_INT32 ? bias->data : NULL, ctx->out[0]->data,
                  sb && ctx->scratch_bytes >= sb ? ctx->scratch : NULL);
  return true;
}

static const tfcc_conv_int_kernels k_dw_int = {.q8_fast = dw_q8_fast,
                                               .u8 = tfcc_dwconv_u8,
                                               .i8 = tfcc_dwconv_i8,
                                               .i16 = tfcc_dwconv_i16,
                                               .i16_fast = dw_i16_fast};

static tfcc_status dw_eval(tfcc_op_ctx *ctx) {
  const dw_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = dw_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const void *bd = bias ? bias->data : NULL;
  tfcc_tensor *out = ctx->out[0];
  if (p->n.hyb) return tfcc_hybrid_conv_eval(ctx, p->n.hyb, &g);
  switch (in->dtype) {
    case TFCC_FLOAT32: {
      float lo, hi;
      tfcc_act_range_f32(p->n.o.act, &lo, &hi);
      if (p->xnn_w && f->data == p->xnn_src && g.in_c == 1) {
        tfcc_conv_geom gc = g;
        gc.filter_in_c = 1;
        if (g.out_c < TFCC_XNN_NR2_COLS)
          tfcc_hybrid_xnn_conv_c4(ctx, &gc, p->xnn_w, p->xnn_ocp, bd, lo, hi);
        else
          tfcc_hybrid_xnn_conv(ctx, p->xnn_k, p->xnn_w, p->xnn_ocp, &gc, bd, lo, hi);
        return TFCC_OK;
      }
      if (p->xnn_f32) {
        tfcc_hybrid_xnn_dwconv(ctx, &g, f->data, bd, lo, hi);
        return TFCC_OK;
      }
      if (p->builtin_f32) {
        if (p->builtin_range) tfcc_act_range_f32_builtin(p->n.o.act, &lo, &hi);
        tfcc_dwconv_f32_bias_first(&g, in->data, f->data, bd, lo, hi, p->builtin_range, out->data);
        return TFCC_OK;
      }
      if (ctx->scratch_bytes >= tfcc_f32_dwconv_scratch_bytes(&g)) {
        tfcc_f32_dwconv(ctx->pool, ctx->ks->f32_dwconv, &g, in->data, f->data, bd, lo, hi,
                        out->data, ctx->scratch);
        return TFCC_OK;
      }
      tfcc_dwconv_f32(&g, in->data, f->data, bd, lo, hi, out->data);
      return TFCC_OK;
    }
    default: return tfcc_conv_eval_int(ctx, &g, &p->n.q, &k_dw_int);
  }
}

static int64_t dw_macs(const tfcc_op_ctx *ctx) {
  tfcc_conv_geom g;
  if (!tfcc_conv_node_probe(&((const dw_params *)ctx->params)->n, ctx, &g)) return 0;
  return tfcc_work_mul(tfcc_work_mul3(g.batches, g.out_h, g.out_w),
                       tfcc_work_mul3(g.out_c, g.filter_h, g.filter_w));
}

static const char *dw_kernel(const tfcc_op_ctx *ctx) {
  const dw_params *p = ctx->params;
  tfcc_err e;
  tfcc_op_ctx c;
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c)) return "ref";
  if (p->n.hyb) {
    tfcc_conv_geom g;
    return dw_geom(&c, &g) == TFCC_OK ? tfcc_hybrid_dw_kernel(p->n.hyb, &g)
                                      : tfcc_hybrid_kernel(p->n.hyb);
  }
  if (p->xnn_w) return ctx->in[1]->dims[3] < TFCC_XNN_NR2_COLS ? "xnn-nr2" : p->xnn_k->name;
  if (ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) {
    tfcc_conv_geom g;
    const tfcc_q8_dw_packed *pk = dw_geom(&c, &g) == TFCC_OK ? dw_q8_packed(ctx, &g) : NULL;
    return pk ? pk->k->name : "ref";
  }
  if (ctx->in[0]->dtype == TFCC_INT16) {
    tfcc_conv_geom g;
    tfcc_conv_requant r;
    tfcc_conv_requant_from(&p->n.q, TFCC_INT16, &r);
    return dw_geom(&c, &g) == TFCC_OK && ctx->ks && ctx->ks->q16_dw && tfcc_q16_dwconv_fits(&g, &r)
               ? ctx->ks->q16_dw->name
               : "ref";
  }
  if (ctx->in[0]->dtype != TFCC_FLOAT32 || ctx->in[0]->rank != 4 || ctx->in[1]->rank != 4)
    return "ref";
  if (p->builtin_f32) return "ref-bias-first";
  if (p->xnn_f32) /* XNNPACK's order (ops/hybrid.c): the vector kernel for depth multiplier 1 */
    return ctx->in[0]->dims[3] == ctx->in[1]->dims[3] ? ctx->ks->tflite_f32->name : "xnn-dwconv";
  return ctx->ks->f32_dwconv->name;
}

TFCC_OP_DEFINE(tfcc_op_depthwise_conv_2d, "DEPTHWISE_CONV_2D", dw_init, dw_prepare, dw_eval,
               .release = dw_release, .macs = dw_macs, .kernel = dw_kernel);
