/* DEPTHWISE_CONV_2D: inputs (input NHWC, filter [1, H, W, in_c * multiplier], optional
 * bias), options DepthwiseConv2DOptions (padding, stride_w, stride_h, depth_multiplier,
 * fused_activation_function, dilation_w, dilation_h). As TFLite, the depth multiplier used
 * is output channels / input channels from the shapes (the option is not trusted). */
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/ref/depthwise_conv.h"
#include "kernels/ref/quant_util.h"
#include "ops/conv_common.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"
#include "ops/q8_fast.h"
#include "base/threadpool.h"

typedef struct dw_params {
  tfcc_window_opts o;
  tfcc_conv_qparams q;
  tfcc_f32_fast f32; /* float32: only its once-only fallback log (weights used in place) */
  tfcc_q8_fast q8;   /* int8/uint8: filter packed for the q8 depthwise kernels */
  tfcc_hybrid *hyb;  /* float32 input with int8 filter (ops/hybrid.h), else NULL */
  bool xnn_f32;      /* ops: float32 in a hybrid model, TFLITE mode: XNNPACK's order */
} dw_params;

static void dw_release(void *p) {
  dw_params *cp = p;
  if (!cp) return;
  tfcc_conv_qparams_free(&cp->q);
  tfcc_f32_fast_free(&cp->f32);
  tfcc_q8_fast_free(&cp->q8);
  tfcc_hybrid_free(cp->hyb);
  free(cp);
}

static tfcc_status dw_init(tfcc_init_ctx *ctx) {
  dw_params *p = calloc(1, sizeof(*p));
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for DEPTHWISE_CONV_2D params");
  tfcc_f32_fast_init(&p->f32);
  tfcc_q8_fast_init(&p->q8);
  const tfcc_depthwise_options *o = &ctx->node->opts.depthwise;
  tfcc_status st = tfcc_window_opts_set(&p->o, o->padding, o->stride_w, o->stride_h, o->dilation_w,
                                        o->dilation_h, o->activation, o->pad, ctx->err);
  if (st == TFCC_OK && tfcc_hybrid_applies(ctx, 0, 1))
    st = tfcc_hybrid_init(ctx, TFCC_HYB_DW, p->o.act, false, &p->hyb);
  else if (st == TFCC_OK)
    st = tfcc_conv_init_quant(ctx, 0, 1, p->o.act, false, &p->q);
  if (st != TFCC_OK) {
    dw_release(p);
    return st;
  }
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  p->xnn_f32 = !p->hyb && in && f && in->dtype == TFCC_FLOAT32 && f->dtype == TFCC_FLOAT32 &&
               tfcc_hybrid_xnn_float(ctx);
  ctx->params = p;
  return TFCC_OK;
}

/* Validates shapes and fills the kernel geometry (used by prepare and eval). */
static tfcc_status dw_geom(const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  const dw_params *p = ctx->params;
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (in->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d, expected 4", (int)in->rank);
  if (f->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "filter rank %d, expected 4", (int)f->rank);
  if (f->dims[0] != 1)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "filter dimension 0 is %d, expected 1",
                        (int)f->dims[0]);
  tfcc_conv_geom_input(g, in);
  g->out_c = f->dims[3];
  g->filter_h = f->dims[1];
  g->filter_w = f->dims[2];
  g->filter_in_c = 1;
  if (g->in_c <= 0 || g->out_c <= 0 || g->out_c % g->in_c != 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "filter channels %d not a multiple of input channels %d", (int)g->out_c,
                        (int)g->in_c);
  if (bias) {
    int64_t n = tfcc_tensor_elements(bias);
    if (n != g->out_c)
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "bias has %lld elements, expected %d",
                          (long long)n, (int)g->out_c);
  }
  return tfcc_conv_geom_window(&p->o, in, g, ctx->err);
}

/* 8-bit fast path: packed filter for this node, or NULL (reference kernel). */
static const tfcc_q8_dw_packed *dw_q8_packed(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const dw_params *p = ctx->params;
  const tfcc_dtype dt = ctx->in[0]->dtype;
  if (dt != TFCC_INT8 && dt != TFCC_UINT8) return NULL;
  const tfcc_q8_dw_packed *pk = tfcc_q8_fast_get_dw(&p->q8, ctx->in[1]->data);
  return pk && pk->c == g->out_c && pk->taps == g->filter_h * g->filter_w ? pk : NULL;
}

static void dw_q8_prepare(tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  dw_params *p = (dw_params *)ctx->params;
  const tfcc_tensor *f = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_conv_requant r;
  tfcc_conv_requant_from(&p->q, ctx->in[0]->dtype, &r);
  const char *why = tfcc_q8_fast_refuse(ctx->in[0], f, bias, &r);
  if (!why && (int64_t)g->filter_h * g->filter_w > TFCC_Q8_DW_MAX_TAPS) why = "filter too large";
  if (!why &&
      !tfcc_q8_fast_pack_dw(&p->q8, ctx->isa, ctx->in[0]->dtype == TFCC_INT8, g->out_c, g->filter_h,
                            g->filter_w, f->data, bias ? bias->data : NULL, &r))
    why = "out of memory packing the filter";
  if (why) {
    tfcc_f32_log_fallback_once(&p->q8.logged, ctx, "DEPTHWISE_CONV_2D", why);
    return;
  }
  const tfcc_q8_dw_packed *pk = dw_q8_packed(ctx, g);
  if (pk) ctx->scratch_bytes = tfcc_q8_dw_scratch_bytes(pk, g, tfcc_threadpool_size(ctx->pool));
}

static tfcc_status dw_prepare(tfcc_op_ctx *ctx) {
  const dw_params *p = ctx->params;
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "DEPTHWISE_CONV_2D not initialised");
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "DEPTHWISE_CONV_2D needs input, filter and one output");
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_status st =
      p->hyb ? TFCC_OK : tfcc_conv_check_types(ctx->in[0], ctx->in[1], bias, ctx->out[0], ctx->err);
  if (st != TFCC_OK) return st;
  tfcc_conv_geom g;
  st = dw_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  if (p->hyb) { /* float32 input, int8 filter */
    st = tfcc_hybrid_conv_prepare(ctx, p->hyb, &g);
    return st != TFCC_OK ? st : tfcc_conv_geom_set_output(ctx->out[0], &g, ctx->err);
  }
  if (ctx->in[0]->dtype != TFCC_FLOAT32) {
    if (p->q.n_mult == 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "quantization parameters missing");
    st = tfcc_conv_check_channels(&p->q, g.out_c, ctx->err);
    if (st != TFCC_OK) return st;
  }
  ctx->scratch_bytes = 0;
  if (ctx->in[0]->dtype == TFCC_FLOAT32) ctx->scratch_bytes = tfcc_f32_dwconv_scratch_bytes(&g);
  if (ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) dw_q8_prepare(ctx, &g);
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

static const tfcc_conv_int_kernels k_dw_int = {
    .q8_fast = dw_q8_fast, .u8 = tfcc_dwconv_u8, .i8 = tfcc_dwconv_i8, .i16 = tfcc_dwconv_i16};

static tfcc_status dw_eval(tfcc_op_ctx *ctx) {
  const dw_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = dw_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const void *bd = bias ? bias->data : NULL;
  tfcc_tensor *out = ctx->out[0];
  if (p->hyb) return tfcc_hybrid_conv_eval(ctx, p->hyb, &g);
  switch (in->dtype) {
    case TFCC_FLOAT32: {
      float lo, hi;
      tfcc_act_range_f32(p->o.act, &lo, &hi);
      if (p->xnn_f32) {
        tfcc_hybrid_xnn_dwconv(ctx, &g, f->data, bd, lo, hi);
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
    default: return tfcc_conv_eval_int(ctx, &g, &p->q, &k_dw_int);
  }
}

static int64_t dw_macs(const tfcc_op_ctx *ctx) {
  tfcc_conv_geom g;
  tfcc_err e;
  tfcc_op_ctx c;
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c) || dw_geom(&c, &g) != TFCC_OK) return 0;
  return (int64_t)g.batches * g.out_h * g.out_w * g.out_c * g.filter_h * g.filter_w;
}

static const char *dw_kernel(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c)) return "ref";
  if (((const dw_params *)ctx->params)->hyb)
    return tfcc_hybrid_kernel(((const dw_params *)ctx->params)->hyb);
  if (ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) {
    tfcc_conv_geom g;
    const tfcc_q8_dw_packed *pk = dw_geom(&c, &g) == TFCC_OK ? dw_q8_packed(ctx, &g) : NULL;
    return pk ? pk->k->name : "ref";
  }
  if (ctx->in[0]->dtype != TFCC_FLOAT32 || ctx->in[0]->rank != 4 || ctx->in[1]->rank != 4)
    return "ref";
  return ctx->ks->f32_dwconv->name;
}

const tfcc_op_def tfcc_op_depthwise_conv_2d = {
    .name = "DEPTHWISE_CONV_2D",
    .init = dw_init,
    .release = dw_release,
    .prepare = dw_prepare,
    .eval = dw_eval,
    .macs = dw_macs,
    .kernel = dw_kernel,
};
