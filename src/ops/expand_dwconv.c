/* EXPAND_DEPTHWISE_CONV_2D (tfcc-internal, made by the pass fuse_expand_dwconv): a float32 or
 * int8 1x1 stride-1 CONV_2D followed by the DEPTHWISE_CONV_2D that is its only reader, in one
 * node.
 * Inputs: 0 x NHWC [B,H,W,Cin], 1 expand filter [C,1,1,Cin], 2 expand bias [C] (optional),
 * 3 depthwise filter [1,KH,KW,C], 4 depthwise bias [C] (optional). Options
 * (tfcc_expand_dwconv_options): the depthwise's (padding, explicit padding, strides,
 * activation, dilation) and the expand's activation.
 * Kernels are chosen and the expand filter packed at init; eval streams output rows through
 * tfcc_f32_expand_dw_run (src/kernels/f32-expand-dw/), so the expanded tensor never exists.
 * int8: the options also name the absorbed expanded tensor (mid), whose quantization is the
 * expand's output and the depthwise's input; each half's requantization is what the unfused
 * node computes (tfcc_conv_qparams_node: XNNPACK's float scales in TFLITE mode), the
 * filters packed for the q8 GEMM and the q8 depthwise, and eval streams the rows through
 * tfcc_q8_expand_dw_run (src/kernels/q8-expand-dw/): the same bytes as the two nodes. */
#include <stdlib.h>
#include <string.h>

#include "base/weights_mem.h"
#include "kernels/f32-expand-dw/expand_dw.h"
#include "kernels/hybrid/expand_dw.h"
#include "kernels/q8-expand-dw/expand_dw.h"
#include "kernels/ref/quant_util.h"
#include "ops/conv_common.h"
#include "ops/hybrid.h"
#include "base/threadpool.h"
#include "ops/work_estimate.h"

typedef struct xdw_params {
  tfcc_window_opts o; /* the depthwise's */
  int32_t expand_act;
  int32_t cin, c; /* input and expanded channels */
  int32_t kh, kw;
  tfcc_f32_packed packed; /* expand filter + bias */
  bool packed_borrowed;   /* packed.w lies in the weights cache */
  /* the depthwise filter [KH*KW*C] and bias [C] (NULL: none), copied among the packed weights
   * or lying in the weights cache: read raw from the model's copy of its file they lay
   * in ~120 scattered 4 KiB pages (MobileNetV2 f32) that every run walked, a source of latency
   * tail on a VM (docs/bench.md, "The latency tail at 1 thread") */
  const float *dw_w, *dw_b;
  float *dw_own; /* dw_w when not borrowed */
  const tfcc_f32_dwconv_kernel *dw;
  const char *name;
  /* int8 */
  bool q8;
  tfcc_conv_qparams q1, q2; /* expand, depthwise */
  tfcc_conv_requant r1, r2;
  tfcc_q8_packed q8e;
  bool q8e_borrowed;     /* q8e.w lies in the weights cache */
  tfcc_q8_dw_packed q8d; /* an adopted block (the weights cache's) is not freed */
  /* hybrid (TFLITE mode): the expand's hybrid weights (ops/hybrid.h) and the pair's kernels */
  tfcc_hybrid *hyb;
  tfcc_hyb_expand_dw hk;
} xdw_params;

static void xdw_release(void *p) {
  xdw_params *x = p;
  if (!x) return;
  if (!x->packed_borrowed) tfcc_f32_packed_free(&x->packed);
  tfcc_wmem_free(x->dw_own);
  tfcc_conv_qparams_free(&x->q1);
  tfcc_conv_qparams_free(&x->q2);
  if (!x->q8e_borrowed) tfcc_q8_packed_free(&x->q8e);
  tfcc_q8_dw_packed_free(&x->q8d);
  tfcc_hybrid_free(x->hyb);
  free(x);
}

static bool f32_const(const tfcc_ir_tensor *t) {
  return t && t->dtype == TFCC_FLOAT32 && t->data && !t->is_variable && !t->sparsity;
}

static bool i8_const(const tfcc_ir_tensor *t, tfcc_dtype dt) {
  return t && t->dtype == dt && t->data && !t->is_variable && !t->sparsity;
}

/* One half's requantization as the unfused node's init computes it (tfcc_conv_init_quant):
 * the builtin multipliers, and in TFLITE mode XNNPACK's float scales, which the pass
 * fuse_expand_dwconv made sure the delegate takes; the half's tables are the weights cache's
 * block `block` (tfcc_conv_qparams_node). */
static tfcc_status q8_half(const tfcc_init_ctx *ctx, uint32_t block, const tfcc_ir_tensor *in,
                           const tfcc_ir_tensor *f, const tfcc_ir_tensor *out, int32_t act,
                           const char *what, tfcc_conv_qparams *q, tfcc_conv_requant *r) {
  const bool xnn = ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE;
  tfcc_status st = tfcc_conv_qparams_node(q, ctx, block, in, f, out, act, false, xnn);
  if (st == TFCC_OK && xnn && !q->scale)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D: the %s's scales are outside XNNPACK's range",
                        what);
  if (st == TFCC_OK && ctx->quant_compat != TFCC_QUANT_COMPAT_TFLITE &&
      ctx->quant_compat != TFCC_QUANT_COMPAT_REFERENCE) {
    tfcc_conv_qparams_free(q);
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "EXPAND_DEPTHWISE_CONV_2D: int8 pairs are fused in TFLITE and REFERENCE "
                        "modes only, not in mode %d",
                        ctx->quant_compat);
  }
  if (st == TFCC_OK) tfcc_conv_requant_from(q, TFCC_INT8, r);
  return st;
}

/* int8 pair: inputs int8 x, int8 filters, int32 biases; the expanded tensor's quantization from
 * the options' mid tensor. */
static tfcc_status xdw_init_q8(tfcc_init_ctx *ctx, xdw_params *p) {
  const tfcc_ir_node *n = ctx->node;
  const tfcc_ir_tensor *x = tfcc_conv_ir_input(ctx, 0), *f1 = tfcc_conv_ir_input(ctx, 1);
  const tfcc_ir_tensor *b1 = tfcc_conv_ir_input(ctx, 2), *f2 = tfcc_conv_ir_input(ctx, 3);
  const tfcc_ir_tensor *b2 = tfcc_conv_ir_input(ctx, 4), *y = tfcc_conv_ir_output(ctx, 0);
  const int32_t mi = n->opts.expand_dwconv.mid;
  const tfcc_ir_tensor *mid =
      ctx->sg && mi >= 0 && mi < ctx->sg->n_tensors ? &ctx->sg->tensors[mi] : NULL;
  if (!x || !y || !mid || x->dtype != TFCC_INT8 || y->dtype != TFCC_INT8 ||
      mid->dtype != TFCC_INT8 || x->quant.count < 1 || y->quant.count < 1 || mid->quant.count < 1 ||
      x->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D int8: input, expanded tensor (%d) and output "
                        "must be quantized int8",
                        (int)mi);
  if (!i8_const(f1, TFCC_INT8) || !i8_const(f2, TFCC_INT8) || (b1 && !i8_const(b1, TFCC_INT32)) ||
      (b2 && !i8_const(b2, TFCC_INT32)))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D int8 needs constant int8 filters and int32 "
                        "biases");
  const int32_t c = p->c, cin = p->cin;
  if (f1->data_bytes < (size_t)c * (size_t)cin ||
      f2->data_bytes < (size_t)c * (size_t)p->kh * (size_t)p->kw ||
      (b1 && b1->data_bytes < (size_t)c * sizeof(int32_t)) ||
      (b2 && b2->data_bytes < (size_t)c * sizeof(int32_t)))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D weights truncated");
  if (p->kh * p->kw > TFCC_Q8_DW_MAX_TAPS)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "EXPAND_DEPTHWISE_CONV_2D: a %dx%d filter is too large", (int)p->kh,
                        (int)p->kw);
  tfcc_status st =
      q8_half(ctx, TFCC_BLOCK_REQUANT, x, f1, mid, p->expand_act, "expand", &p->q1, &p->r1);
  if (st == TFCC_OK)
    st = q8_half(ctx, TFCC_BLOCK_REQUANT_DW, mid, f2, y, p->o.act, "depthwise", &p->q2, &p->r2);
  if (st == TFCC_OK) st = tfcc_conv_check_channels(&p->q1, c, ctx->err);
  if (st == TFCC_OK) st = tfcc_conv_check_channels(&p->q2, c, ctx->err);
  if (st != TFCC_OK) return st;
  const int64_t rows = (int64_t)x->dims[0] * x->dims[1] * x->dims[2];
  const tfcc_q8_gemm_kernel *gk = tfcc_q8_gemm_select_for(ctx->isa, rows, cin, c);
  /* both packings go through the weights cache as the unfused nodes' do (blocks Q8_GEMM and
   * Q8_DW under this node): a warm load packs nothing and reads neither filter */
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_Q8_GEMM);
  const size_t bytes = tfcc_q8_pack_layout(gk, true, c, cin, &p->r1, &p->q8e);
  const void *hit = bytes ? tfcc_packed_get(&key, bytes) : NULL;
  if (hit) {
    p->q8e.w = (uint8_t *)(uintptr_t)hit; /* read only: the kernels never write it */
    p->q8e_borrowed = true;
  } else if (tfcc_q8_pack(gk, true, c, cin, f1->data, b1 ? b1->data : NULL, &p->r1, &p->q8e)) {
    tfcc_packed_put(&key, p->q8e.w, bytes);
  } else {
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory packing the expand filter");
  }
  const tfcc_q8_dw_kernel *dk = tfcc_q8_dw_select(ctx->isa);
  const tfcc_packed_key key2 = tfcc_init_block_key(ctx, TFCC_BLOCK_Q8_DW);
  const size_t bytes2 = tfcc_q8_dw_block_bytes(dk, true, c, p->kh, p->kw, &p->r2);
  const void *hit2 = bytes2 ? tfcc_packed_get(&key2, bytes2) : NULL;
  bool ok = hit2 && tfcc_q8_dw_adopt(dk, true, c, p->kh, p->kw, &p->r2, hit2, bytes2, &p->q8d);
  /* a block whose header does not fit (another build's layout): packed here, not offered */
  if (!ok)
    ok =
        tfcc_q8_dw_pack(dk, true, c, p->kh, p->kw, f2->data, b2 ? b2->data : NULL, &p->r2, &p->q8d);
  if (!ok)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory packing the depthwise filter");
  if (!hit2) tfcc_packed_put(&key2, tfcc_q8_dw_block(&p->q8d), p->q8d.block_bytes);
  /* every eval, at any shape, reads the two packings only */
  tfcc_packed_consumed(&key, p, f1->data);
  tfcc_packed_consumed(&key, p, b1 ? b1->data : NULL);
  tfcc_packed_consumed(&key2, p, f2->data);
  tfcc_packed_consumed(&key2, p, b2 ? b2->data : NULL);
  p->q8 = true;
  p->name = tfcc_q8_expand_dw_name(p->q8d.k);
  return TFCC_OK;
}

/* Hybrid pair (float32 input, int8 expand weights, float depthwise weights; the pass fuses it
 * in TFLITE mode only): the expand packed as the unfused CONV_2D's init packs it
 * (tfcc_hybrid_init on the same inputs 0-2: qd8 per pixel, the q8 GEMM with the float output
 * stage) and the depthwise in XNNPACK's order on the model's filter, as the unfused
 * DEPTHWISE_CONV_2D runs it (tfcc_hybrid_xnn_dwconv). */
static tfcc_status xdw_init_hyb(tfcc_init_ctx *ctx, xdw_params *p) {
  const tfcc_ir_tensor *x = tfcc_conv_ir_input(ctx, 0), *f2 = tfcc_conv_ir_input(ctx, 3);
  const tfcc_ir_tensor *b1 = tfcc_conv_ir_input(ctx, 2), *b2 = tfcc_conv_ir_input(ctx, 4);
  if (!x || x->rank != 4 || ctx->quant_compat != TFCC_QUANT_COMPAT_TFLITE)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "EXPAND_DEPTHWISE_CONV_2D hybrid: only a 4-D float32 input in TFLITE mode");
  if (!f32_const(f2) || (b1 && !f32_const(b1)) || (b2 && !f32_const(b2)) ||
      f2->data_bytes < (size_t)p->c * (size_t)p->kh * (size_t)p->kw * sizeof(float) ||
      (b1 && b1->data_bytes < (size_t)p->c * sizeof(float)) ||
      (b2 && b2->data_bytes < (size_t)p->c * sizeof(float)))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D hybrid needs a constant float32 depthwise filter "
                        "and float32 biases");
  tfcc_status st = tfcc_hybrid_init(ctx, TFCC_HYB_CONV, p->expand_act, false, &p->hyb);
  if (st != TFCC_OK) return st;
  const tfcc_hybrid *h = p->hyb;
  if (!h->xnn || h->scheme != TFCC_HYB_QD8 || !h->packed.k || h->dense_in_c || !h->qd8_rows ||
      h->n != p->c || h->kdim != p->cin)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "EXPAND_DEPTHWISE_CONV_2D hybrid: the expand does not run as XNNPACK's "
                        "qd8 1x1 convolution");
  float lo, hi;
  tfcc_act_range_f32(p->expand_act, &lo, &hi);
  p->hk.packed = &p->hyb->packed;
  p->hk.stage = (tfcc_q8_hybrid){.wsum = h->wsum,
                                 .wsumf = h->wsumf,
                                 .fscale = h->fscale,
                                 .fscale_stride = h->fscale_stride,
                                 .bias = b1 ? b1->data : NULL,
                                 .lo = lo,
                                 .hi = hi,
                                 .combined = h->combined,
                                 .row = h->row,
                                 .tile = h->tile};
  p->hk.qd8_rows = h->qd8_rows;
  p->hk.dw = ctx->ks && ctx->ks->tflite_f32 ? ctx->ks->tflite_f32->dwconv_rows : NULL;
  p->hk.dw_filter = f2->data;
  p->hk.dw_bias = b2 ? b2->data : NULL;
  p->name = "hybrid-expand-xnn-dw";
  return TFCC_OK;
}

static tfcc_status xdw_init(tfcc_init_ctx *ctx) {
  const tfcc_ir_node *n = ctx->node;
  if (n->n_inputs != 5 || n->n_outputs != 1)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D needs 5 inputs and one output");
  const tfcc_ir_tensor *f1 = tfcc_conv_ir_input(ctx, 1), *b1 = tfcc_conv_ir_input(ctx, 2);
  const tfcc_ir_tensor *f2 = tfcc_conv_ir_input(ctx, 3), *b2 = tfcc_conv_ir_input(ctx, 4);
  const tfcc_ir_tensor *x0 = tfcc_conv_ir_input(ctx, 0);
  const bool hyb = f1 && f1->dtype == TFCC_INT8 && x0 && x0->dtype == TFCC_FLOAT32;
  const bool q8 = f1 && f1->dtype == TFCC_INT8 && !hyb;
  if (!q8 && !hyb &&
      (!f32_const(f1) || !f32_const(f2) || (b1 && !f32_const(b1)) || (b2 && !f32_const(b2))))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D needs constant float32 filters and biases");
  if (q8 && (!f2 || !f1->data || !f2->data))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D needs constant filters");
  if (f1->rank != 4 || f1->dims[1] != 1 || f1->dims[2] != 1 || f1->dims[0] <= 0 ||
      f1->dims[3] <= 0 || f2->rank != 4 || f2->dims[0] != 1 || f2->dims[3] != f1->dims[0] ||
      f2->dims[1] <= 0 || f2->dims[2] <= 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "EXPAND_DEPTHWISE_CONV_2D filter shapes do not match");
  const int32_t c = f1->dims[0], cin = f1->dims[3];
  if ((b1 && tfcc_shape_elements(b1->rank, b1->dims) != c) ||
      (b2 && tfcc_shape_elements(b2->rank, b2->dims) != c))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "EXPAND_DEPTHWISE_CONV_2D bias has not %d elements", (int)c);
  if (!q8 && !hyb &&
      (f1->data_bytes < (size_t)c * (size_t)cin * sizeof(float) ||
       f2->data_bytes < (size_t)c * (size_t)f2->dims[1] * (size_t)f2->dims[2] * sizeof(float) ||
       (b1 && b1->data_bytes < (size_t)c * sizeof(float)) ||
       (b2 && b2->data_bytes < (size_t)c * sizeof(float))))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D weights truncated");
  xdw_params *p = calloc(1, sizeof(*p));
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for EXPAND_DEPTHWISE_CONV_2D");
  const tfcc_depthwise_options *o = &n->opts.expand_dwconv.dw;
  tfcc_status st = tfcc_window_opts_set(&p->o, o->padding, o->stride_w, o->stride_h, o->dilation_w,
                                        o->dilation_h, o->activation, o->pad, ctx->err);
  p->expand_act = n->opts.expand_dwconv.expand_activation;
  p->c = c;
  p->cin = cin;
  p->kh = f2->dims[1];
  p->kw = f2->dims[2];
  if (st == TFCC_OK) st = tfcc_conv_check_act(p->expand_act, ctx->err);
  if (st != TFCC_OK) {
    xdw_release(p);
    return st;
  }
  if (q8 || hyb) {
    st = q8 ? xdw_init_q8(ctx, p) : xdw_init_hyb(ctx, p);
    if (st != TFCC_OK) {
      xdw_release(p);
      return st;
    }
    ctx->params = p;
    return TFCC_OK;
  }
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_XDW_EXPAND);
  const size_t bytes = tfcc_f32_packed_bytes(ctx->ks->f32_gemm, c, cin);
  const void *hit = tfcc_packed_get(&key, bytes);
  if (hit) {
    tfcc_f32_packed_view(ctx->ks->f32_gemm, c, cin, hit, &p->packed);
    p->packed_borrowed = true;
  } else if (tfcc_f32_pack(ctx->ks->f32_gemm, c, cin, f1->data, (size_t)cin, 1,
                           b1 ? b1->data : NULL, &p->packed)) {
    tfcc_packed_put(&key, p->packed.w, bytes);
  } else {
    xdw_release(p);
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory packing the expand filter");
  }
  tfcc_packed_consumed(&key, p, f1->data); /* eval reads the packing and the copy below */
  tfcc_packed_consumed(&key, p, b1 ? b1->data : NULL);
  const size_t dw_n = (size_t)p->kh * (size_t)p->kw * (size_t)c;
  const size_t dw_bytes = (dw_n + (b2 ? (size_t)c : 0)) * sizeof(float);
  const tfcc_packed_key key2 = tfcc_init_block_key(ctx, TFCC_BLOCK_XDW_DW);
  const void *hit2 = tfcc_packed_get(&key2, dw_bytes);
  if (hit2) {
    p->dw_w = hit2;
  } else if ((p->dw_own = tfcc_wmem_alloc(dw_bytes)) != NULL) {
    memcpy(p->dw_own, f2->data, dw_n * sizeof(float));
    if (b2) memcpy(p->dw_own + dw_n, b2->data, (size_t)c * sizeof(float));
    tfcc_packed_put(&key2, p->dw_own, dw_bytes);
    p->dw_w = p->dw_own;
  } else {
    xdw_release(p);
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY,
                        "out of memory copying the depthwise filter (%zu bytes)", dw_bytes);
  }
  p->dw_b = b2 ? p->dw_w + dw_n : NULL;
  tfcc_packed_consumed(&key2, p, f2->data);
  tfcc_packed_consumed(&key2, p, b2 ? b2->data : NULL);
  p->dw = ctx->ks->f32_dwconv;
  p->name = tfcc_f32_expand_dw_name(p->dw);
  ctx->params = p;
  return TFCC_OK;
}

/* Validates shapes and fills the depthwise geometry over the expanded tensor. */
static tfcc_status xdw_geom(const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  const xdw_params *p = ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_dtype dt = p->q8 ? TFCC_INT8 : TFCC_FLOAT32;
  if (in->dtype != dt || ctx->out[0]->dtype != dt)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_DTYPE, "EXPAND_DEPTHWISE_CONV_2D: input %s and output %s, expected %s",
        tfcc_dtype_name(in->dtype), tfcc_dtype_name(ctx->out[0]->dtype), tfcc_dtype_name(dt));
  if (in->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d, expected 4", (int)in->rank);
  if (in->dims[3] != p->cin)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input has %d channels, the filter %d",
                        (int)in->dims[3], (int)p->cin);
  tfcc_conv_geom_input(g, in->dims);
  g->in_c = g->out_c = p->c;
  g->filter_h = p->kh;
  g->filter_w = p->kw;
  g->filter_in_c = 1;
  return tfcc_conv_geom_window(&p->o, in, g, ctx->err);
}

static tfcc_status xdw_prepare(tfcc_op_ctx *ctx) {
  if (!ctx->params)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "EXPAND_DEPTHWISE_CONV_2D not initialised");
  if (ctx->n_in != 5 || !ctx->in[0] || !ctx->in[1] || !ctx->in[3] || ctx->n_out != 1 ||
      !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "EXPAND_DEPTHWISE_CONV_2D needs input, two filters and one output");
  tfcc_conv_geom g;
  tfcc_status st = xdw_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  const xdw_params *p = ctx->params;
  /* the q8 depthwise's row kernels build every column a row's windows span: the fusion admits
     dilation 1 and strides 1 and 2 only, inside their bound (tfcc_q8_dw_fits) at any size */
  if (p->q8 && !tfcc_q8_dw_fits(&g))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "EXPAND_DEPTHWISE_CONV_2D int8: a %dx%d window at stride %d, dilation %d "
                        "spans too many columns for its taps",
                        (int)g.filter_h, (int)g.filter_w, (int)g.stride_w, (int)g.dil_w);
  const int threads = tfcc_threadpool_size(ctx->pool);
  const tfcc_q8_expand_dw q = {&p->q8e, &p->r1, &p->q8d, &p->r2, 0};
  ctx->scratch_bytes = p->q8    ? tfcc_q8_expand_dw_scratch_bytes(&q, &g, threads)
                       : p->hyb ? tfcc_hyb_expand_dw_scratch_bytes(&p->hk, &g, p->cin, threads)
                                : tfcc_f32_expand_dw_scratch_bytes(&g, threads);
  return tfcc_conv_geom_set_output(ctx->out[0], &g, ctx->err);
}

static tfcc_status xdw_eval(tfcc_op_ctx *ctx) {
  const xdw_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = xdw_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  if (p->q8) {
    const tfcc_q8_expand_dw q = {&p->q8e, &p->r1, &p->q8d, &p->r2, 0};
    if (ctx->scratch_bytes <
        tfcc_q8_expand_dw_scratch_bytes(&q, &g, tfcc_threadpool_size(ctx->pool)))
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                          "EXPAND_DEPTHWISE_CONV_2D scratch not prepared");
    tfcc_q8_expand_dw_run(ctx->pool, &q, &g, ctx->in[0]->data, ctx->out[0]->data, ctx->scratch);
    return TFCC_OK;
  }
  if (p->hyb) {
    if (ctx->in[1]->data != p->hyb->src)
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                          "EXPAND_DEPTHWISE_CONV_2D hybrid: weights changed after load");
    if (ctx->scratch_bytes <
        tfcc_hyb_expand_dw_scratch_bytes(&p->hk, &g, p->cin, tfcc_threadpool_size(ctx->pool)))
      return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                          "EXPAND_DEPTHWISE_CONV_2D scratch not prepared");
    tfcc_hyb_expand_dw k = p->hk;
    tfcc_act_range_f32(p->o.act, &k.lo, &k.hi);
    tfcc_hyb_expand_dw_run(ctx->pool, &k, &g, p->cin, ctx->in[0]->data, ctx->out[0]->data,
                           ctx->scratch);
    return TFCC_OK;
  }
  if (ctx->scratch_bytes < tfcc_f32_expand_dw_scratch_bytes(&g, tfcc_threadpool_size(ctx->pool)))
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "EXPAND_DEPTHWISE_CONV_2D scratch not prepared");
  tfcc_f32_expand_dw k = {&p->packed, 0, 0, p->dw, p->dw_w, p->dw_b, 0, 0};
  tfcc_act_range_f32(p->expand_act, &k.expand_lo, &k.expand_hi);
  tfcc_act_range_f32(p->o.act, &k.lo, &k.hi);
  tfcc_f32_expand_dw_run(ctx->pool, &k, &g, ctx->in[0]->data, ctx->out[0]->data, ctx->scratch);
  return TFCC_OK;
}

static int64_t xdw_macs(const tfcc_op_ctx *ctx) {
  const xdw_params *p = ctx->params;
  if (!p || ctx->n_in != 5 || !ctx->in[0] || ctx->in[0]->rank != 4 || !ctx->out[0] ||
      ctx->out[0]->rank != 4)
    return 0;
  const tfcc_tensor *in = ctx->in[0], *out = ctx->out[0];
  return tfcc_work_add(tfcc_work_mul(tfcc_work_mul3(in->dims[0], in->dims[1], in->dims[2]),
                                     tfcc_work_mul(p->c, p->cin)),
                       tfcc_work_mul(tfcc_work_mul3(out->dims[0], out->dims[1], out->dims[2]),
                                     tfcc_work_mul3(p->c, p->kh, p->kw)));
}

static const char *xdw_kernel(const tfcc_op_ctx *ctx) {
  const xdw_params *p = ctx->params;
  return p ? p->name : "ref";
}

TFCC_OP_DEFINE(tfcc_op_expand_dwconv, "EXPAND_DEPTHWISE_CONV_2D", xdw_init, xdw_prepare, xdw_eval,
               .release = xdw_release, .macs = xdw_macs, .kernel = xdw_kernel);
