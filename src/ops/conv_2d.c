/* CONV_2D: inputs (input NHWC, filter OHWI, optional bias), options Conv2DOptions
 * (padding, stride_w, stride_h, fused_activation_function, dilation_w, dilation_h).
 * Grouped convolution when input channels = k * filter input channels (TFLite >= 2.9). */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-winograd/winograd.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/kernel_set.h"
#include "kernels/q16-dot/dot.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/quant_util.h"
#include "ops/params_mem.h"
#include "base/private_map.h"
#include "ops/bf16_fast.h"
#include "ops/conv_node.h"
#include "ops/f32_fast.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "ops/hybrid.h"
#include "ops/packed_layouts.h"
#include "ops/q8_fast.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"
#include "ops/work_estimate.h"

typedef struct conv_params {
  /* first (the owner the store sees is the params): what this node gave back, whose pages a
   * grouped shape's reference kernel may then not read (conv_grouped_check) */
  tfcc_packed_owner own;
  tfcc_conv_node n;    /* window, quantization, f32 / q8 GEMM packings, hybrid (ops/conv_node.h) */
  tfcc_bf16_fast bf16; /* float32 at precision bf16: filter packed for the bf16 GEMM */
  tfcc_f32_wino_weights wino;         /* float32 3x3 stride 1: Winograd-transformed filter (init) */
  const void *wino_src;               /* filter data wino was made from, or on the fly is for */
  bool wino_borrowed;                 /* wino's block lies in the weights cache */
  int wino_m;                         /* on the fly: tile size (from the GEMM's packing), else 0 */
  const tfcc_f32_wino_kernel *wino_k; /* on the fly: the transforms */
  tfcc_hybrid *hyb;                   /* float32 input with int8 filter (ops/hybrid.h), else NULL */
  const float *xnn_w; /* float32 in XNNPACK's exact arithmetic (tfcc_hybrid_xnn_float):
                                 the filter packed by tfcc_xnn_conv_pack, else NULL */
  int32_t xnn_ocp;
  bool xnn_dw;         /* one input and one output channel: XNNPACK runs its dwconv (below) */
  bool xnn_c4;         /* fewer than 8 output channels: XNNPACK's nr2 kernel (below) */
  const float *xnn_fc; /* 1x1, stride 1 (TFLITE mode): XNNPACK's FULLY_CONNECTED (below), the
                          filter packed by tfcc_xnn_fc_pack, else NULL */
  const void *xnn_src; /* filter data xnn_w was made from (xnn_dw: the filter itself) */
  const tfcc_tflite_f32_kernel *xnn_k;
  bool eigen_f32; /* ref9: the classic interpreter's builtin order (conv_eigen_f32_init) */
  const tfcc_tflite_f32_kernel *eigen_k; /* its GEMM's vector kernel */
  /* layouts packed once from constants (ops/packed_layouts.h) */
  tfcc_packed_layout xnn_wl;      /* xnn_w or xnn_fc (TFCC_BLOCK_XNN_CONV / _XNN_FC) */
  tfcc_packed_layout xnn_fc_tail; /* xnn_fc's nr2 narrow last block */
  tfcc_packed_layout eigen_kn;    /* eigen_f32: the filter [K][out_c] for eigen_k's GEMM */
  const void *eigen_src;          /* the filter data eigen_kn was made from */
  /* 16x8 (int16 input, constant int8 filter): the filter packed once for q16-gemm */
  const int8_t *q16_w;
  int8_t *q16_own;     /* q16_w when packed here (else the weights cache's block, or NULL) */
  const void *q16_src; /* the filter data q16_w was made from */
  const tfcc_q16_gemm_kernel *q16_k;
  tfcc_packed_key q16_key; /* its block in the weights cache (TFCC_BLOCK_Q16_GEMM) */
} conv_params;
_Static_assert(offsetof(conv_params, own) == 0, "the store's owner is the params");

/* The node reads the constants data[i] (bytes[i] each, NULL: none) no more (k's store: the
 * model's load may give back the whole pages inside them, runtime/const_release.h). A grouped
 * convolution (a later input of k times the filter's channels) runs the reference kernel on
 * the raw filter and bias, which conv_grouped_check then refuses if a page of them may be gone. */
static void conv_consumed(conv_params *p, const tfcc_packed_key *k, const void *f, size_t f_bytes,
                          const void *b, size_t b_bytes) {
  tfcc_packed_give(k, &p->own, f, f_bytes);
  tfcc_packed_give(k, &p->own, b, b_bytes);
}

/* A grouped convolution reads the raw filter and bias (the reference kernel): refused where
 * this node gave them back after packing them for one group (p->own, whichever packing gave
 * them: conv_consumed, the bf16 and streamed f32 packings; only the whole
 * pages inside a constant are given back, so none of a constant under a page). Before, it read
 * the released pages: zeros in the model's copy of its file, a wrong output. */
static tfcc_status conv_grouped_check(conv_params *p, const tfcc_conv_geom *g, tfcc_err *err) {
  if (g->in_c == g->filter_in_c || tfcc_packed_given_back(&p->own) < tfcc_page_size())
    return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                      "CONV_2D: %d input channels make a grouped convolution (%d groups of %d), "
                      "whose kernel reads the raw filter; this model's load packed the filter "
                      "for %d input channels and gave its pages back (a model loaded from the "
                      "caller's buffer keeps them)",
                      (int)g->in_c, (int)(g->in_c / g->filter_in_c), (int)g->filter_in_c,
                      (int)g->filter_in_c);
}

static void conv_release(void *p) {
  conv_params *cp = p;
  if (!cp) return;
  tfcc_conv_node_free(&cp->n);
  tfcc_bf16_fast_free(&cp->bf16);
  if (!cp->wino_borrowed) tfcc_f32_wino_free(&cp->wino);
  tfcc_packed_layout_free(&cp->xnn_wl);
  tfcc_packed_layout_free(&cp->xnn_fc_tail);
  tfcc_packed_layout_free(&cp->eigen_kn);
  tfcc_wmem_free(cp->q16_own);
  tfcc_params_free(cp);
}

/* Float32 3x3 stride-1 convolutions where Winograd wins (tfcc_f32_wino_choose, at the model's
 * stored input shape). On the fly (the default): the tile size is chosen here, prepare packs
 * the filter for the im2col GEMM as without Winograd and eval transforms it panel by panel
 * from that packing (the filter's memory only). Stored (TFCC_WINOGRAD=stored): the filter
 * transformed and packed once, here; the im2col GEMM's packed filter is then never made.
 * Anything unusual (non-constant filter, other dtypes, out of memory) leaves it to the GEMM
 * path; so does precision bf16 where a bf16 kernel runs. */
static tfcc_status conv_f32_wino_init(const tfcc_init_ctx *ctx, conv_params *p) {
  if (ctx->winograd == TFCC_WINO_OFF ||
      (ctx->precision == TFCC_PRECISION_BF16 && !tfcc_bf16_gemm_unavailable(ctx->isa)))
    return TFCC_OK;
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  const tfcc_ir_tensor *b = tfcc_conv_ir_input(ctx, 2);
  if (!in || !f || in->dtype != TFCC_FLOAT32 || f->dtype != TFCC_FLOAT32 || !f->data ||
      f->sparsity || in->rank != 4 || f->rank != 4 ||
      (b && (b->dtype != TFCC_FLOAT32 || !b->data || b->sparsity)))
    return TFCC_OK;
  tfcc_conv_geom g = {0};
  tfcc_conv_geom_input(&g, in->dims);
  tfcc_conv_geom_filter(&g, f->dims);
  tfcc_conv_geom_strides(&g, &p->n.o);
  if (f->data_bytes < (size_t)g.out_c * 9 * (size_t)g.in_c * sizeof(float) ||
      (b && b->data_bytes < (size_t)g.out_c * sizeof(float)))
    return TFCC_OK;
  tfcc_err e = {0};
  if (!tfcc_f32_wino_fits(&g) || tfcc_conv_window(&p->n.o, &g, &e) != TFCC_OK) return TFCC_OK;
  const int m =
      ctx->winograd == TFCC_WINO_OTF ? tfcc_f32_wino_choose_otf(&g) : tfcc_f32_wino_choose(&g);
  if (!m) return TFCC_OK;
  const tfcc_f32_wino_kernel *wk = tfcc_f32_wino_select(ctx->isa);
  if (ctx->winograd == TFCC_WINO_OTF) {
    p->wino_m = m;
    p->wino_k = wk;
    p->wino_src = f->data;
    return TFCC_OK;
  }
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_F32_WINO);
  const size_t bytes = tfcc_f32_wino_layout(wk, ctx->ks->f32_gemm, m, g.out_c, g.in_c, &p->wino);
  const void *hit = bytes ? tfcc_packed_get(&key, bytes) : NULL;
  if (hit) {
    tfcc_f32_wino_bind(&p->wino, hit);
    p->wino_borrowed = true;
    p->wino_src = f->data;
  } else if (tfcc_f32_wino_pack(wk, ctx->ks->f32_gemm, m, g.out_c, g.in_c, f->data,
                                b ? b->data : NULL, &p->wino)) {
    tfcc_packed_put(&key, p->wino.mem, bytes);
    p->wino_src = f->data;
  }
  if (p->wino_src && ctx->precision != TFCC_PRECISION_BF16) {
    /* every shape of this filter fits Winograd (tfcc_f32_wino_fits): the raw filter and bias
     * are never read again */
    conv_consumed(p, &key, f->data, f->data_bytes, b ? b->data : NULL, b ? b->data_bytes : 0);
  }
  return TFCC_OK;
}

/* Float32 in a hybrid model (TFLITE mode): XNNPACK's exact order (ops/hybrid.h); constant
 * dense float filter, groups 1; anything else (or no memory) keeps the usual paths. A filter of
 * one input and one output channel is a depthwise convolution to XNNPACK
 * (xnn_create_convolution2d_nhwc picks its dwconv, or vmulcaddc for 1x1 without padding, which
 * sums alike, whenever both group channel counts are 1): taps column by column, not the IGEMM's
 * row by row. Fewer output channels than its IGEMM's 8 columns take its "nr2" kernel
 * (xnn_create_convolution2d_nhwc_f32: gemm_config->nr > group_output_channels), which sums
 * each input channel modulo 4 apart (tfcc_xnn_conv_c4_f32_rows). A 1x1 filter of stride
 * 1 (so no padding) with in + out channels > 2 is no convolution to XNNPACK: its subgraph
 * defines it as a FULLY_CONNECTED (xnn_define_convolution_2d), whose GEMM takes the nr2 kernel
 * by the overcompute rule (tfcc_xnn_fc_uses_nr2: 10, 12, 20, 36 outputs as well as fewer than
 * 8), so it runs tfcc_xnn_fc_f32's order on the pixels as batch rows: here only at the nr2
 * widths of 8 or more outputs, as elsewhere that GEMM sums as the IGEMM (the default order;
 * below 8 outputs the convolution's nr2 kernel, the same order for a 1x1 filter), whose
 * kernels are faster on many pixels. The classic
 * interpreter's older XNNPACK (REFERENCE mode) has no nr2 kernel, and its GEMM's default order
 * is the IGEMM's: it keeps the convolution below. */
static void conv_xnn_f32_init(const tfcc_init_ctx *ctx, conv_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  if (!in || !f || in->dtype != TFCC_FLOAT32 || f->dtype != TFCC_FLOAT32 || !f->data ||
      f->sparsity || f->rank != 4 || in->rank != 4 || in->dims[3] != f->dims[3] ||
      !(tfcc_hybrid_xnn_float(ctx) || tfcc_hybrid_ref_delegated_float(ctx)))
    return;
  if (f->dims[0] == 1 && f->dims[3] == 1) {
    p->xnn_dw = true;
    p->xnn_src = f->data;
    return;
  }
  const int64_t k = (int64_t)f->dims[1] * f->dims[2] * f->dims[3];
  if (k <= 0 || k > INT32_MAX || f->data_bytes < (size_t)f->dims[0] * (size_t)k * sizeof(float))
    return;
  p->xnn_k = tfcc_tflite_f32_select(ctx->isa);
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && f->dims[1] == 1 && f->dims[2] == 1 &&
      p->n.o.stride_w == 1 && p->n.o.stride_h == 1 && f->dims[0] >= TFCC_XNN_NR2_COLS &&
      tfcc_xnn_fc_uses_nr2(f->dims[0])) {
    tfcc_packed_xnn_fc(ctx, f->data, f->dims[0], (int32_t)k, &p->xnn_wl);
    p->xnn_fc = p->xnn_wl.data;
    if (p->xnn_fc) {
      p->xnn_src = f->data;
      tfcc_packed_xnn_fc_tail(ctx, p->xnn_k, p->xnn_fc, f->dims[0], (int32_t)k, &p->xnn_fc_tail);
      return;
    }
  }
  tfcc_packed_xnn_conv(ctx, f->data, f->dims[0], (int32_t)k, &p->xnn_wl, &p->xnn_ocp);
  p->xnn_w = p->xnn_wl.data;
  /* the classic interpreter's older delegate (REFERENCE mode) runs every float convolution
     through its IGEMM, whatever the output channels: no nr2 kernel */
  p->xnn_c4 =
      p->xnn_w && f->dims[0] < TFCC_XNN_NR2_COLS && ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE;
  p->xnn_src = f->data;
}

/* ref9: REFERENCE mode, a float32 CONV_2D of a subgraph with hybrid nodes that the classic
 * interpreter's delegate does not take (a subgraph it leaves to the builtin kernels, or an input
 * rank it declines): its builtin kernel's im2col and Eigen GEMM order, bias added after
 * (tfcc_eigen_conv_f32), clamped to the builtin range. */
static void conv_eigen_f32_init(const tfcc_init_ctx *ctx, conv_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  p->eigen_f32 = in && f && in->dtype == TFCC_FLOAT32 && f->dtype == TFCC_FLOAT32 && !f->sparsity &&
                 tfcc_hybrid_ref_builtin_float(ctx) && !tfcc_hybrid_ref_delegated_float(ctx);
  if (p->eigen_f32) p->eigen_k = tfcc_tflite_f32_select(ctx->isa);
  /* a constant filter transposed for the vector GEMM once, not per run */
  if (!p->eigen_f32 || !p->eigen_k || !p->eigen_k->eigen_gemm || !f->data || f->rank != 4) return;
  const int64_t k = (int64_t)f->dims[1] * f->dims[2] * f->dims[3];
  if (f->dims[0] <= 0 || k <= 0 || k > INT32_MAX ||
      f->data_bytes < (size_t)f->dims[0] * (size_t)k * sizeof(float))
    return;
  tfcc_packed_transpose(ctx, TFCC_BLOCK_EIGEN_CONV, f->data, f->dims[0], (int32_t)k, &p->eigen_kn);
  if (p->eigen_kn.data) p->eigen_src = f->data;
}

/* eigen_kn where the filter run is the one it was made from, else NULL (transposed per run). */
static const float *conv_eigen_kn(const tfcc_op_ctx *ctx) {
  const conv_params *p = ctx->params;
  return p->eigen_src && ctx->in[1]->data == p->eigen_src ? p->eigen_kn.data : NULL;
}

/* 16x8: a constant int8 filter packed once for q16-gemm (its panels of NR output channels);
 * out of memory or a filter too large leaves it to q16-dot. The packing is block
 * TFCC_BLOCK_Q16_GEMM of the weights cache (its size follows from the shapes and the kernel's
 * NR, the kernel from the cache's kernel level): a hit is used in place, the filter unread. */
static void conv_q16_init(const tfcc_init_ctx *ctx, conv_params *p) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *f = tfcc_conv_ir_input(ctx, 1);
  if (!in || !f || in->dtype != TFCC_INT16 || f->dtype != TFCC_INT8 || !f->data || f->rank != 4 ||
      f->sparsity)
    return;
  const tfcc_q16_gemm_kernel *k = ctx->ks ? ctx->ks->q16_gemm : tfcc_q16_gemm_select(ctx->isa);
  const int64_t ks = (int64_t)f->dims[1] * f->dims[2];
  if (!k || ks <= 0 || ks > INT32_MAX) return;
  const size_t bytes = tfcc_q16_gemm_packed_bytes(k, f->dims[0], (int32_t)ks, f->dims[3]);
  if (!bytes || f->data_bytes < (size_t)f->dims[0] * (size_t)ks * (size_t)f->dims[3]) return;
  p->q16_key = tfcc_init_block_key(ctx, TFCC_BLOCK_Q16_GEMM);
  p->q16_w = tfcc_packed_get(&p->q16_key, bytes);
  if (!p->q16_w) {
    p->q16_own = tfcc_wmem_alloc(bytes); /* huge pages, populated: few first-touch faults */
    if (!p->q16_own) return;
    tfcc_q16_gemm_pack(k, f->dims[0], (int32_t)ks, f->dims[3], f->data, p->q16_own);
    tfcc_packed_put(&p->q16_key, p->q16_own, bytes);
    p->q16_w = p->q16_own;
  }
  p->q16_k = k;
  p->q16_src = f->data;
  /* where q16-gemm takes the layer at its stored shapes with up to 1024 threads, no
   * later prepare or eval reads the raw filter (conv_prepare's condition, decided here): it is
   * released as the load goes instead of after the prepare pass, when every layer's filter and
   * packing were resident together (ResNet-50 int16x8's cold peak) */
  if (in->rank != 4) return;
  tfcc_conv_geom g = {0};
  tfcc_conv_geom_input(&g, in->dims);
  tfcc_conv_geom_filter(&g, f->dims);
  tfcc_conv_requant r;
  tfcc_conv_requant_from(&p->n.q, TFCC_INT16, &r);
  if (tfcc_q16_gemm_conv_fits(&g, &r) && tfcc_q16_gemm_conv_scratch(&g, 1024))
    conv_consumed(p, &p->q16_key, f->data, f->data_bytes, NULL, 0);
}

/* Float32 in one of XNNPACK's orders (TFLITE mode): none of tfcc's other float paths. */
static bool xnn_order(const conv_params *p) { return p->xnn_w || p->xnn_fc || p->xnn_dw; }

static tfcc_status conv_init(tfcc_init_ctx *ctx) {
  conv_params *p = tfcc_params_calloc(sizeof(*p)); /* ops/params_mem.h */
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for CONV_2D params");
  atomic_init(&p->own.given_back, 0);
  tfcc_bf16_fast_init(&p->bf16, ctx);
  tfcc_status st = tfcc_conv_node_init(&p->n, ctx, false);
  tfcc_f32_fast_attach(&p->n.f32, ctx, TFCC_BLOCK_F32_GEMM);
  tfcc_q8_fast_attach(&p->n.q8, ctx, TFCC_BLOCK_Q8_GEMM);
  if (st == TFCC_OK && !p->n.hyb) conv_xnn_f32_init(ctx, p);
  if (st == TFCC_OK && !p->n.hyb && !xnn_order(p)) conv_eigen_f32_init(ctx, p);
  if (st == TFCC_OK && !p->n.hyb && !xnn_order(p) && !p->eigen_f32) st = conv_f32_wino_init(ctx, p);
  if (st == TFCC_OK && !p->n.hyb) conv_q16_init(ctx, p);
  if (st != TFCC_OK) {
    conv_release(p);
    return st;
  }
  ctx->params = p;
  return TFCC_OK;
}

/* Validates shapes and fills the kernel geometry (used by prepare and eval). */
static tfcc_status conv_geom(const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  return tfcc_conv_node_geom(&((const conv_params *)ctx->params)->n, ctx, g);
}

/* Float32 fast path: packed weights for this node, or NULL (reference kernel). */
static const tfcc_f32_packed *conv_f32_packed(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const conv_params *p = ctx->params;
  if (ctx->in[0]->dtype != TFCC_FLOAT32 || g->in_c != g->filter_in_c) return NULL;
  return tfcc_f32_fast_get(&p->n.f32, ctx->in[1]->data);
}

/* The Winograd weights for this filter at these shapes, or NULL: the stored ones, or on the fly
 * (filled into *otf) on the GEMM's packing once prepare has made it. */
static const tfcc_f32_wino_weights *conv_f32_wino(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                                                  tfcc_f32_wino_weights *otf) {
  const conv_params *p = ctx->params;
  if (!p->wino_src || ctx->in[0]->dtype != TFCC_FLOAT32 || ctx->in[1]->data != p->wino_src ||
      !tfcc_f32_wino_fits(g))
    return NULL;
  if (p->wino.mem) return g->in_c == p->wino.in_c && g->out_c == p->wino.out_c ? &p->wino : NULL;
  const tfcc_f32_packed *pk = p->wino_m ? conv_f32_packed(ctx, g) : NULL;
  return pk && tfcc_f32_wino_otf(p->wino_k, p->wino_m, g->out_c, g->in_c, pk, otf) ? otf : NULL;
}

/* Small-K first layers (e.g. 3x3 x 3 channels): the direct kernel on the GEMM's packing, or
 * NULL (im2col + GEMM). */
static const tfcc_f32_direct_conv_kernel *conv_f32_direct(const tfcc_op_ctx *ctx,
                                                          const tfcc_conv_geom *g,
                                                          const tfcc_f32_packed *pk) {
  const tfcc_f32_direct_conv_kernel *dk = ctx->ks->f32_direct_conv;
  return pk && dk && dk->nr == pk->k->nr && pk->kc == pk->kdim && tfcc_f32_direct_conv_fits(g)
             ? dk
             : NULL;
}

/* prepare: packs the filter once per model (model load runs the first prepare). */
static void conv_f32_prepare(tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  conv_params *p = (conv_params *)ctx->params;
  const tfcc_tensor *f = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_f32_wino_weights otf;
  const tfcc_f32_wino_weights *wino = conv_f32_wino(ctx, g, &otf);
  if (wino && wino->mem) {
    ctx->scratch_bytes = tfcc_f32_wino_scratch_bytes(g, wino, tfcc_threadpool_size(ctx->pool));
    return;
  }
  const char *why = NULL;
  if (g->in_c != g->filter_in_c)
    why = "grouped convolution";
  else if (!tfcc_f32_const_or_absent(f) || !tfcc_f32_const_or_absent(bias))
    why = "filter or bias is not constant";
  else if (!tfcc_f32_fast_pack_consuming(
               &p->n.f32, ctx->isa, ctx->pool, g->out_c, g->filter_h * g->filter_w * g->filter_in_c,
               f->data, (size_t)g->filter_h * g->filter_w * g->filter_in_c, 1,
               bias ? bias->data : NULL, p->bf16.wanted ? NULL : &p->own)) /* consumed below */
    why = "out of memory packing the filter";
  if (why) {
    tfcc_f32_fast_fallback(&p->n.f32, ctx, "CONV_2D", why);
    return;
  }
  if (!p->bf16.wanted) /* groups 1: every later ungrouped shape runs on the packing */
    conv_consumed(p, &p->n.f32.key, f->data, f->bytes, bias ? bias->data : NULL,
                  bias ? bias->bytes : 0);
  wino = conv_f32_wino(ctx, g, &otf); /* on the fly, on the packing just made */
  if (wino) {
    ctx->scratch_bytes = tfcc_f32_wino_scratch_bytes(g, wino, tfcc_threadpool_size(ctx->pool));
    return;
  }
  const tfcc_f32_packed *pk = conv_f32_packed(ctx, g);
  if (pk && !conv_f32_direct(ctx, g, pk))
    ctx->scratch_bytes = tfcc_f32_conv_scratch_bytes(g, pk, tfcc_threadpool_size(ctx->pool));
}

/* 8-bit fast path: packed filter for this node, or NULL (reference kernel). */
static const tfcc_q8_packed *conv_q8_packed(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const conv_params *p = ctx->params;
  const tfcc_dtype dt = ctx->in[0]->dtype;
  if ((dt != TFCC_INT8 && dt != TFCC_UINT8) || g->in_c != g->filter_in_c) return NULL;
  return tfcc_q8_fast_get(&p->n.q8, ctx->in[1]->data);
}

static void conv_q8_prepare(tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  conv_params *p = (conv_params *)ctx->params;
  const tfcc_tensor *f = ctx->in[1], *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  tfcc_conv_requant r;
  const char *why = tfcc_conv_node_q8_refuse(&p->n, ctx, &r);
  if (g->in_c != g->filter_in_c) why = "grouped convolution";
  if (!why && !tfcc_q8_fast_pack(&p->n.q8, ctx->isa, ctx->pool, ctx->in[0]->dtype == TFCC_INT8,
                                 (int64_t)g->batches * g->out_h * g->out_w, g->out_c,
                                 g->filter_h * g->filter_w * g->filter_in_c, f->data,
                                 bias ? bias->data : NULL, &r))
    why = "out of memory packing the filter";
  if (why) {
    tfcc_f32_log_fallback_once(&p->n.q8.logged, ctx, "CONV_2D", why);
    return;
  }
  /* every later ungrouped shape runs on the packing */
  conv_consumed(p, &p->n.q8.key, f->data, f->bytes, bias ? bias->data : NULL,
                bias ? bias->bytes : 0);
  const tfcc_q8_packed *pk = conv_q8_packed(ctx, g);
  if (pk) ctx->scratch_bytes = tfcc_q8_scratch_bytes(g, pk, tfcc_threadpool_size(ctx->pool));
}

/* 16x8 on q16-gemm: the filter run is the one packed at init. */
static bool conv_i16_gemm_packed(const tfcc_op_ctx *ctx) {
  const conv_params *p = ctx->params;
  return p->q16_w && ctx->n_in > 1 && ctx->in[1]->data == p->q16_src;
}

/* 16x8 on q16-gemm: the scratch its row pointers need (0: the layer runs on q16-dot). */
static size_t conv_i16_gemm_scratch(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g) {
  const conv_params *p = ctx->params;
  tfcc_conv_requant r;
  tfcc_conv_requant_from(&p->n.q, TFCC_INT16, &r);
  if (!conv_i16_gemm_packed(ctx) || !tfcc_q16_gemm_conv_fits(g, &r)) return 0;
  return tfcc_q16_gemm_conv_scratch(g, tfcc_threadpool_size(ctx->pool));
}

static bool conv_i16_gemm_takes(const tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                                const tfcc_conv_requant *r) {
  if (!conv_i16_gemm_packed(ctx) || !tfcc_q16_gemm_conv_fits(g, r)) return false;
  const size_t need = tfcc_q16_gemm_conv_scratch(g, tfcc_threadpool_size(ctx->pool));
  return need > 0 && ctx->scratch_bytes >= need;
}

/* ---- residual (pass fuse_residual_add): out = act(conv + R), R = inputs[3]. */

/* The residual tensor, or NULL (no residual, or not float32: prepare rejects it). */
static const tfcc_tensor *conv_residual(const tfcc_op_ctx *ctx) {
  return ctx->node && ctx->node->opts.conv.residual && ctx->n_in > 3 ? ctx->in[3] : NULL;
}

/* conv_residual at eval, without reading the IR node (a page of the heap per node and run):
 * prepare (conv_residual_check) refused a 4th input that is not a fused residual. */
static const tfcc_tensor *conv_residual_run(const tfcc_op_ctx *ctx) {
  return ctx->n_in > 3 ? ctx->in[3] : NULL;
}

/* A 4th input only where the pass put it (a file's 4-input CONV_2D is an error, as in
 * TFLite); the residual is float32 of the output's shape. */
static tfcc_status conv_residual_check(const tfcc_op_ctx *ctx, const int32_t od[4]) {
  const bool residual = ctx->node && ctx->node->opts.conv.residual;
  if (ctx->n_in > (residual ? 4 : 3))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "CONV_2D has %d inputs, expected 2 or 3",
                        (int)ctx->n_in);
  if (!residual) return TFCC_OK;
  const tfcc_tensor *r = conv_residual(ctx);
  if (!r || r->dtype != TFCC_FLOAT32 || ctx->in[0]->dtype != TFCC_FLOAT32)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "CONV_2D with a fused residual ADD needs float32 input and residual");
  bool same = r->rank == 4;
  for (int32_t d = 0; same && d < 4; d++) same = r->dims[d] == od[d];
  if (!same) {
    char a[64], b[64];
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "fused residual ADD: residual %s differs from the conv output %s (it would "
                        "broadcast; load with pass fuse_residual_add disabled)",
                        tfcc_shape_str(r->rank, r->dims, a, sizeof a),
                        tfcc_shape_str(4, od, b, sizeof b));
  }
  return TFCC_OK;
}

/* The packed GEMM runs this conv (not bf16, not the direct first-layer kernel, scratch ok):
 * it adds the residual in its epilogue. */
static const tfcc_f32_packed *conv_f32_gemm_residual(const tfcc_op_ctx *ctx,
                                                     const tfcc_conv_geom *g) {
  const conv_params *p = ctx->params;
  if (tfcc_bf16_fast_kernel(&p->bf16, ctx, g->batches * g->out_h * g->out_w)) return NULL;
  tfcc_f32_wino_weights otf;
  if (conv_f32_wino(ctx, g, &otf)) return NULL; /* Winograd on the fly runs it */
  const tfcc_f32_packed *pk = conv_f32_packed(ctx, g);
  if (!pk || conv_f32_direct(ctx, g, pk)) return NULL;
  return ctx->scratch_bytes >= tfcc_f32_conv_scratch_bytes(g, pk, tfcc_threadpool_size(ctx->pool))
             ? pk
             : NULL;
}

/* Any other path ran the conv with activation NONE: out = clamp(out + R, lo, hi) with the
 * f32-vbinary ADD kernel, in place (no allocation). */
static void conv_residual_add(const tfcc_op_ctx *ctx, const tfcc_tensor *r, float lo, float hi) {
  const tfcc_f32_vbinary_kernel *k = ctx->ks->f32_vbinary;
  const tfcc_f32_vbinary_params fp = {TFCC_F32VB_ADD, lo, hi};
  float *out = ctx->out[0]->data;
  k->fn(&fp, out, r->data, out, (size_t)tfcc_tensor_elements(r), 1, 1);
}

static tfcc_status conv_f32_eval(tfcc_op_ctx *ctx, const tfcc_conv_geom *gp, float lo, float hi);

/* Float32 with a residual: fused in the GEMM epilogue, else conv then ADD. */
static tfcc_status conv_f32_residual_eval(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, float lo,
                                          float hi) {
  const tfcc_tensor *r = conv_residual_run(ctx);
  const tfcc_f32_packed *pk = conv_f32_gemm_residual(ctx, g);
  if (pk) {
    tfcc_f32_conv_residual(ctx->pool, g, pk, ctx->in[0]->data, r->data, (size_t)g->out_c,
                           ctx->out[0]->data, lo, hi, ctx->scratch);
    return TFCC_OK;
  }
  tfcc_status st = conv_f32_eval(ctx, g, -INFINITY, INFINITY);
  if (st == TFCC_OK) conv_residual_add(ctx, r, lo, hi);
  return st;
}

static tfcc_status conv_prepare(tfcc_op_ctx *ctx) {
  const conv_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = tfcc_conv_node_prepare_open(p ? &p->n : NULL, ctx, "CONV_2D", &g);
  if (st != TFCC_OK) return st;
  if (p->n.hyb) { /* float32 input, int8 filter */
    if (ctx->n_in > 3)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          "CONV_2D has %d inputs, expected 2 or 3", (int)ctx->n_in);
    return tfcc_conv_node_prepare_hybrid(&p->n, ctx, &g);
  }
  st = tfcc_conv_node_check_quant(&p->n, ctx, &g);
  if (st != TFCC_OK) return st;
  st = conv_grouped_check((conv_params *)ctx->params, &g, ctx->err);
  if (st != TFCC_OK) return st;
  int32_t od[4] = {g.batches, g.out_h, g.out_w, g.out_c};
  st = conv_residual_check(ctx, od);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes = 0;
  if (ctx->in[0]->dtype == TFCC_FLOAT32 && p->eigen_f32 && g.in_c == g.filter_in_c)
    ctx->scratch_bytes = tfcc_eigen_conv_f32_scratch(&g, conv_eigen_kn(ctx) != NULL);
  else if (ctx->in[0]->dtype == TFCC_FLOAT32 && !xnn_order(p)) {
    conv_params *cp = (conv_params *)ctx->params;
    if (!tfcc_bf16_fast_conv_prepare(&cp->bf16, ctx, &g, &cp->own)) conv_f32_prepare(ctx, &g);
  }
  if (ctx->in[0]->dtype == TFCC_INT8 || ctx->in[0]->dtype == TFCC_UINT8) conv_q8_prepare(ctx, &g);
  if (ctx->in[0]->dtype == TFCC_INT16) {
    ctx->scratch_bytes = conv_i16_gemm_scratch(ctx, &g);
    /* on q16-gemm at every later shape (the filter fixes in_c, the taps and so the scratch):
       the raw filter is never read again */
    if (ctx->scratch_bytes)
      conv_consumed((conv_params *)ctx->params, &p->q16_key, ctx->in[1]->data, ctx->in[1]->bytes,
                    NULL, 0);
  }
  return tfcc_tensor_set_shape(ctx->out[0], 4, od, ctx->err);
}

/* Float32: every path (bf16, direct first layer, packed GEMM, reference), clamped to [lo, hi]. */
static tfcc_status conv_f32_eval(tfcc_op_ctx *ctx, const tfcc_conv_geom *gp, float lo, float hi) {
  const conv_params *p = ctx->params;
  const tfcc_conv_geom g = *gp;
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const void *bd = bias ? bias->data : NULL;
  tfcc_tensor *out = ctx->out[0];
  if (p->xnn_fc && f->data == p->xnn_src && g.in_c == g.filter_in_c && g.filter_h == 1 &&
      g.filter_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_h == 0 && g.pad_w == 0) {
    const int32_t rows = g.batches * g.out_h * g.out_w;
    if (p->xnn_k)
      tfcc_xnn_fc_run(ctx->pool, p->xnn_k, in->data, rows, g.in_c, p->xnn_fc, p->xnn_fc_tail.data,
                      bd, g.out_c, lo, hi, out->data);
    else
      tfcc_xnn_fc_f32(in->data, rows, g.in_c, f->data, bd, g.out_c, lo, hi, out->data);
    return TFCC_OK;
  }
  if (p->xnn_c4 && f->data == p->xnn_src && g.in_c == g.filter_in_c) {
    tfcc_hybrid_xnn_conv_c4(ctx, &g, p->xnn_w, p->xnn_ocp, bd, lo, hi);
    return TFCC_OK;
  }
  if (p->xnn_w && f->data == p->xnn_src && g.in_c == g.filter_in_c) {
    tfcc_hybrid_xnn_conv(ctx, p->xnn_k, p->xnn_w, p->xnn_ocp, &g, bd, lo, hi);
    return TFCC_OK;
  }
  if (p->xnn_dw && f->data == p->xnn_src && g.in_c == 1 && g.filter_in_c == 1 && g.out_c == 1) {
    tfcc_hybrid_xnn_dwconv(ctx, &g, f->data, bd, lo, hi);
    return TFCC_OK;
  }
  const float *eigen_kn = p->eigen_f32 ? conv_eigen_kn(ctx) : NULL;
  if (p->eigen_f32 && g.in_c == g.filter_in_c &&
      ctx->scratch_bytes >= tfcc_eigen_conv_f32_scratch(&g, eigen_kn != NULL)) {
    tfcc_eigen_conv_f32(&g, in->data, f->data, eigen_kn, bd, lo == -INFINITY ? -FLT_MAX : lo,
                        hi == INFINITY ? FLT_MAX : hi, out->data, ctx->scratch,
                        p->eigen_k ? p->eigen_k->eigen_gemm : NULL);
    return TFCC_OK;
  }
  if (tfcc_bf16_fast_conv_eval(&p->bf16, ctx, &g, lo, hi)) return TFCC_OK;
  tfcc_f32_wino_weights otf;
  const tfcc_f32_wino_weights *wino = conv_f32_wino(ctx, &g, &otf);
  if (wino && ctx->scratch_bytes >=
                  tfcc_f32_wino_scratch_bytes(&g, wino, tfcc_threadpool_size(ctx->pool))) {
    tfcc_f32_wino_conv(ctx->pool, &g, wino, in->data, out->data, lo, hi, ctx->scratch);
    return TFCC_OK;
  }
  const tfcc_f32_packed *pk = conv_f32_packed(ctx, &g);
  const tfcc_f32_direct_conv_kernel *dk = conv_f32_direct(ctx, &g, pk);
  if (dk) {
    tfcc_f32_direct_conv(ctx->pool, dk, &g, pk->w, in->data, out->data, lo, hi);
    return TFCC_OK;
  }
  if (pk && (ctx->scratch_bytes >=
             tfcc_f32_conv_scratch_bytes(&g, pk, tfcc_threadpool_size(ctx->pool)))) {
    tfcc_f32_conv(ctx->pool, &g, pk, in->data, out->data, lo, hi, ctx->scratch);
    return TFCC_OK;
  }
  tfcc_conv_f32(&g, in->data, f->data, bd, lo, hi, out->data);
  return TFCC_OK;
}

/* The packed 8-bit convolution, when its packing and scratch are there. */
static bool conv_q8_fast(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r) {
  const tfcc_q8_packed *pk = conv_q8_packed(ctx, g);
  if (!pk || ctx->scratch_bytes < tfcc_q8_scratch_bytes(g, pk, tfcc_threadpool_size(ctx->pool)))
    return false;
  tfcc_q8_conv(ctx->pool, g, pk, r, ctx->in[0]->data, ctx->out[0]->data, ctx->scratch);
  return true;
}

/* 16x8: tfcc_conv_i16's results on q16-gemm (ungrouped, input offset 0, its scratch there),
 * else on the q16-dot kernels. */
static bool conv_i16_fast(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r) {
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (conv_i16_gemm_takes(ctx, g, r)) {
    const conv_params *p = ctx->params;
    tfcc_q16_gemm_conv(ctx->pool, p->q16_k, g, r, ctx->in[0]->data, p->q16_w,
                       bias && bias->dtype == TFCC_INT64 ? bias->data : NULL,
                       bias && bias->dtype == TFCC_INT32 ? bias->data : NULL, ctx->out[0]->data,
                       ctx->scratch);
    return true;
  }
  if (!ctx->ks || !ctx->ks->q16_dot || !tfcc_q16_conv_fits(g, r)) return false;
  tfcc_q16_conv(ctx->ks->q16_dot, g, r, ctx->in[0]->data, ctx->in[1]->data,
                bias && bias->dtype == TFCC_INT64 ? bias->data : NULL,
                bias && bias->dtype == TFCC_INT32 ? bias->data : NULL, ctx->out[0]->data);
  return true;
}

static const tfcc_conv_int_kernels k_conv_int = {.q8_fast = conv_q8_fast,
                                                 .u8 = tfcc_conv_u8,
                                                 .i8 = tfcc_conv_i8,
                                                 .i16 = tfcc_conv_i16,
                                                 .i16_fast = conv_i16_fast};

static tfcc_status conv_eval(tfcc_op_ctx *ctx) {
  const conv_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = conv_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  if (p->n.hyb) return tfcc_hybrid_conv_eval(ctx, p->n.hyb, &g);
  switch (ctx->in[0]->dtype) {
    case TFCC_FLOAT32: {
      float lo, hi;
      tfcc_act_range_f32(p->n.o.act, &lo, &hi);
      if (conv_residual_run(ctx)) return conv_f32_residual_eval(ctx, &g, lo, hi);
      return conv_f32_eval(ctx, &g, lo, hi);
    }
    default: return tfcc_conv_eval_int(ctx, &g, &p->n.q, &k_conv_int);
  }
}

static int64_t conv_macs(const tfcc_op_ctx *ctx) {
  tfcc_conv_geom g;
  if (!tfcc_conv_node_probe(&((const conv_params *)ctx->params)->n, ctx, &g)) return 0;
  return tfcc_work_mul(
      tfcc_work_mul3(g.batches, g.out_h, g.out_w),
      tfcc_work_mul(g.out_c, tfcc_work_mul3(g.filter_h, g.filter_w, g.filter_in_c)));
}

static const char *conv_kernel(const tfcc_op_ctx *ctx) {
  const conv_params *p = ctx->params;
  tfcc_conv_geom g;
  if (!tfcc_conv_node_probe(&p->n, ctx, &g)) return "ref";
  if (p->n.hyb) return tfcc_hybrid_kernel(p->n.hyb);
  if (p->xnn_fc) return tfcc_xnn_fc_uses_nr2(g.out_c) ? "xnn-f32-fc-nr2-vec" : "xnn-f32-fc-vec";
  if (p->xnn_c4) return "xnn-nr2";
  if (p->xnn_w) return p->xnn_k->name;
  if (p->xnn_dw) return "xnn-dwconv";
  if (p->eigen_f32) return "eigen";
  if (ctx->n_in > 0 && ctx->in[0] && ctx->in[0]->dtype == TFCC_INT16) {
    tfcc_conv_requant r;
    tfcc_conv_requant_from(&p->n.q, TFCC_INT16, &r);
    if (conv_i16_gemm_takes(ctx, &g, &r)) return p->q16_k->name;
    return ctx->ks && ctx->ks->q16_dot && tfcc_q16_conv_fits(&g, &r) ? ctx->ks->q16_dot->name
                                                                     : "ref";
  }
  const tfcc_q8_packed *q8 = conv_q8_packed(ctx, &g);
  if (q8) return q8->k->name;
  const char *bf16 = tfcc_bf16_fast_kernel(&p->bf16, ctx, g.batches * g.out_h * g.out_w);
  if (bf16) return bf16;
  tfcc_f32_wino_weights otf;
  const tfcc_f32_wino_weights *wino = conv_f32_wino(ctx, &g, &otf);
  if (wino) return wino->name;
  const tfcc_f32_packed *pk = conv_f32_packed(ctx, &g);
  const tfcc_f32_direct_conv_kernel *dk = conv_f32_direct(ctx, &g, pk);
  return dk ? dk->name : pk ? pk->k->name : "ref";
}

TFCC_OP_DEFINE(tfcc_op_conv_2d, "CONV_2D", conv_init, conv_prepare, conv_eval,
               .release = conv_release, .macs = conv_macs, .kernel = conv_kernel);
