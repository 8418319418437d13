/* Pass fuse_expand_dwconv (TFCC_PASS_FUSE_EXPAND_DWCONV): the inverted-residual pair of
 * MobileNetV2-style networks, a float32 1x1 stride-1 unpadded CONV_2D ("expand", any fused
 * activation, constant weights and bias) whose output is read only by a float32
 * DEPTHWISE_CONV_2D (3x3 or 5x5, stride 1 or 2, SAME, VALID or an explicit padding from
 * fuse_pad, dilation 1, depth multiplier 1, constant weights and bias) and is not a graph
 * output, becomes one EXPAND_DEPTHWISE_CONV_2D node (src/ops/expand_dwconv.c) in the
 * depthwise's place: inputs (x, expand filter, expand bias, depthwise filter, depthwise bias),
 * the depthwise's options and the expand's activation (tfcc_expand_dwconv_options). The
 * expanded tensor then has no reader or writer and leaves the memory plan. Not in a subgraph
 * with hybrid nodes in TFLITE mode: there the float convolutions and depthwise convolutions
 * follow XNNPACK's exact order (ops/hybrid.h), which the fused kernel does not; nor, in
 * REFERENCE mode, its float pairs (the classic interpreter's orders, ops/hybrid.h).
 * int8 pairs too (MobileNetV2 int8; the q8 GEMM and q8 depthwise, src/kernels/q8-expand-dw/):
 * int8 activations quantized per tensor, constant int8 filters with zero points 0 (per tensor
 * or per channel) and int32 biases, in TFLITE mode (the delegate takes both nodes: normal
 * positive filter scales, in_scale * filter_scale / out_scale below 256 as XNNPACK requires)
 * or REFERENCE mode; the options then name the expanded tensor (mid) for its quantization.
 * Not in TFLITE_BUILTIN mode, where the int8 conv runs ruy's requantization.
 * Hybrid pairs (TFLITE mode, a subgraph with hybrid nodes): a CONV_2D as above but with a
 * constant int8 filter (zero points 0, per tensor or per output channel), which runs as
 * XNNPACK's qd8 1x1 (each pixel quantized on its own), read only by a float-weight depthwise
 * as above, which runs in XNNPACK's order: no quantization needs the whole expanded tensor, so
 * the pair runs in strips (src/kernels/hybrid/expand_dw.h, the same bits). Pairs whose
 * depthwise has int8 weights (quantized per image) stay apart. */
#include <math.h>

#include "passes/passes.h"
#include "kernels/ref/quant_util.h"
#include "ops/hybrid.h"
#include "ops/op.h"

static bool is_f32_activation(const tfcc_ir_tensor *t) {
  return t->dtype == TFCC_FLOAT32 && t->quant.count == 0 && !t->data && !t->is_variable &&
         t->rank == 4;
}

/* An int8 activation tensor quantized per tensor, its zero point a byte. */
static bool is_i8_activation(const tfcc_ir_tensor *t) {
  return t->dtype == TFCC_INT8 && t->quant.count == 1 && t->quant.scale && t->quant.zero_point &&
         t->quant.scale[0] > 0.f && isnormal(t->quant.scale[0]) && t->quant.zero_point[0] >= -128 &&
         t->quant.zero_point[0] <= 127 && !t->data && !t->is_variable && t->rank == 4;
}

/* A constant int8 filter with n output channels (per tensor or per channel along `axis`):
 * zero points 0 and normal positive scales, and in TFLITE mode in_scale * scale / out_scale
 * (float, XNNPACK's expression) below 256 for every channel. */
static bool i8_filter_ok(const tfcc_pass_ctx *ctx, int32_t ft, int32_t n, int32_t axis,
                         const tfcc_ir_tensor *in, const tfcc_ir_tensor *out) {
  const tfcc_ir_tensor *f = &ctx->sg->tensors[ft];
  if (!tfcc_pass_is_const(ctx->sg, ft, TFCC_INT8) || f->sparsity) return false;
  const int32_t q = f->quant.count;
  if ((q != 1 && q != n) || !f->quant.scale || !f->quant.zero_point) return false;
  if (q > 1 && f->quant.axis != axis) return false;
  for (int32_t c = 0; c < q; c++) {
    const float fs = f->quant.scale[c];
    if (f->quant.zero_point[c] != 0 || !(fs > 0.f) || !isnormal(fs)) return false;
    if (ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE &&
        !(in->quant.scale[0] * fs / out->quant.scale[0] < 256.f))
      return false;
  }
  return true;
}

/* Constant int32 bias of n elements, or an omitted input (-1). */
static bool bias_i32_ok(const tfcc_ir_subgraph *sg, int32_t t, int64_t n) {
  if (t < 0) return true;
  const tfcc_ir_tensor *x = &sg->tensors[t];
  return tfcc_pass_is_const(sg, t, TFCC_INT32) && tfcc_shape_elements(x->rank, x->dims) == n;
}

/* int8 pair: the modes whose unfused int8 nodes run the packed q8 kernels. */
static bool q8_mode(const tfcc_pass_ctx *ctx) {
  return ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE ||
         ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE;
}

/* Constant float32 tensor of `n` elements, or an omitted input (-1). */
static bool const_or_absent(const tfcc_ir_subgraph *sg, int32_t t, int64_t n) {
  if (t < 0) return true;
  const tfcc_ir_tensor *x = &sg->tensors[t];
  return tfcc_pass_is_const(sg, t, TFCC_FLOAT32) && x->quant.count == 0 &&
         tfcc_shape_elements(x->rank, x->dims) == n;
}

/* The expand's stride is 1 and its activation one the fused kernels apply (none, or a clamp). */
static bool stride1_clamp_act(const tfcc_ir_node *c) {
  const tfcc_conv_options *o = &c->opts.conv;
  const int32_t act = tfcc_pass_activation(c);
  return o->stride_w == 1 && o->stride_h == 1 &&
         (act == TFCC_ACT_NONE || act == TFCC_ACT_RELU || act == TFCC_ACT_RELU6 ||
          act == TFCC_ACT_RELU_N1_TO_1);
}

/* The expand conv's filter channels (N), or -1 when the conv does not qualify; *q8: an int8
 * pair (its expanded tensor's quantization checked by the caller). */
static int32_t expand_channels(const tfcc_pass_ctx *ctx, const tfcc_ir_node *c, bool *q8) {
  const tfcc_ir_subgraph *sg = ctx->sg;
  if (c->builtin != TFCC_OP_CONV_2D || !c->op || c->n_inputs < 2 || c->n_outputs != 1) return -1;
  const tfcc_conv_options *o = &c->opts.conv;
  if (o->padding == TFCC_PAD_EXPLICIT || c->inputs[0] < 0 || c->inputs[1] < 0) return -1;
  if (c->outputs[0] < 0) return -1;
  const tfcc_ir_tensor *x = &sg->tensors[c->inputs[0]], *f = &sg->tensors[c->inputs[1]];
  const tfcc_ir_tensor *y = &sg->tensors[c->outputs[0]];
  *q8 = x->dtype == TFCC_INT8;
  if (*q8 ? !q8_mode(ctx) || !is_i8_activation(x) || !is_i8_activation(y) : !is_f32_activation(x))
    return -1;
  if (f->rank != 4 || f->dims[1] != 1 || f->dims[2] != 1 || f->dims[0] <= 0 ||
      f->dims[3] != x->dims[3])
    return -1;
  const int32_t b = c->n_inputs > 2 ? c->inputs[2] : -1;
  if (*q8) {
    if (!i8_filter_ok(ctx, c->inputs[1], f->dims[0], 0, x, y) || !bias_i32_ok(sg, b, f->dims[0]))
      return -1;
  } else {
    if (!tfcc_pass_is_const(sg, c->inputs[1], TFCC_FLOAT32) || f->quant.count != 0) return -1;
    if (!const_or_absent(sg, b, f->dims[0])) return -1;
  }
  return stride1_clamp_act(c) ? f->dims[0] : -1;
}

/* Hybrid subgraph, TFLITE mode: the expand a float32 CONV_2D with a constant int8 filter
 * (ops/hybrid.c runs it as XNNPACK's qd8 1x1, conv_per_pixel); its filter channels, or -1. */
static int32_t hyb_expand_channels(const tfcc_pass_ctx *ctx, const tfcc_ir_node *c) {
  const tfcc_ir_subgraph *sg = ctx->sg;
  if (c->builtin != TFCC_OP_CONV_2D || !c->op || c->n_inputs < 2 || c->n_outputs != 1) return -1;
  const tfcc_conv_options *o = &c->opts.conv;
  if (o->padding == TFCC_PAD_EXPLICIT || c->inputs[0] < 0 || c->inputs[1] < 0 || c->outputs[0] < 0)
    return -1;
  const tfcc_ir_tensor *x = &sg->tensors[c->inputs[0]], *f = &sg->tensors[c->inputs[1]];
  if (!is_f32_activation(x) || !is_f32_activation(&sg->tensors[c->outputs[0]])) return -1;
  if (!tfcc_pass_is_const(sg, c->inputs[1], TFCC_INT8) || f->sparsity || f->rank != 4 ||
      f->dims[1] != 1 || f->dims[2] != 1 || f->dims[0] <= 1 || f->dims[3] != x->dims[3])
    return -1;
  const int32_t q = f->quant.count;
  if ((q != 1 && q != f->dims[0]) || !f->quant.scale) return -1;
  for (int32_t i = 0; i < q && f->quant.zero_point; i++)
    if (f->quant.zero_point[i] != 0) return -1;
  if (!const_or_absent(sg, c->n_inputs > 2 ? c->inputs[2] : -1, f->dims[0])) return -1;
  return stride1_clamp_act(c) ? f->dims[0] : -1;
}

static bool dw_qualifies(const tfcc_pass_ctx *ctx, const tfcc_ir_node *d, int32_t t, int32_t ce,
                         bool q8) {
  const tfcc_ir_subgraph *sg = ctx->sg;
  if (d->builtin != TFCC_OP_DEPTHWISE_CONV_2D || !d->op || d->n_inputs < 2 || d->n_outputs != 1)
    return false;
  if (d->inputs[0] != t || d->inputs[1] < 0 || d->outputs[0] < 0) return false;
  const tfcc_ir_tensor *f = &sg->tensors[d->inputs[1]], *y = &sg->tensors[d->outputs[0]];
  if (f->rank != 4 || f->dims[0] != 1 || f->dims[3] != ce || f->dims[1] != f->dims[2] ||
      (f->dims[1] != 3 && f->dims[1] != 5))
    return false;
  const int32_t b = d->n_inputs > 2 ? d->inputs[2] : -1;
  if (q8) {
    if (!is_i8_activation(y) || !i8_filter_ok(ctx, d->inputs[1], ce, 3, &sg->tensors[t], y) ||
        !bias_i32_ok(sg, b, ce))
      return false;
  } else {
    if (!tfcc_pass_is_const(sg, d->inputs[1], TFCC_FLOAT32) || f->quant.count != 0) return false;
    if (y->dtype != TFCC_FLOAT32 || y->quant.count != 0) return false;
    if (!const_or_absent(sg, b, ce)) return false;
  }
  const tfcc_depthwise_options *o = &d->opts.depthwise;
  const int32_t pad = o->padding, sw = o->stride_w, sh = o->stride_h;
  if (pad != TFCC_PAD_SAME && pad != TFCC_PAD_VALID && pad != TFCC_PAD_EXPLICIT) return false;
  if ((sw != 1 && sw != 2) || (sh != 1 && sh != 2)) return false;
  if (o->dilation_w != 1 || o->dilation_h != 1) return false;
  const int32_t act = tfcc_pass_activation(d);
  return act == TFCC_ACT_NONE || act == TFCC_ACT_RELU || act == TFCC_ACT_RELU6 ||
         act == TFCC_ACT_RELU_N1_TO_1;
}

tfcc_status tfcc_pass_fuse_expand_dwconv(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  const tfcc_op_def *op = tfcc_op_internal(TFCC_OP_EXPAND_DEPTHWISE_CONV_2D);
  if (!op) return TFCC_OK;
  const bool in_hyb = tfcc_hybrid_in_model(ctx->graph, sg);
  const bool hyb = ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && in_hyb;
  /* ref9: REFERENCE mode, a subgraph with hybrid nodes: its float pairs run the classic
   * interpreter's orders (XNNPACK's or the builtin kernels', ops/hybrid.h), so only int8 pairs;
   * also a subgraph that interpreter delegates nothing of (its builtin kernels) */
  const bool ref_hyb = ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE &&
                       (in_hyb || tfcc_classic_undelegated(ctx->graph, sg));
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *c = &sg->nodes[i];
    if (c->removed) continue;
    if (c->opts.kind == TFCC_OPTIONS_CONV_2D && c->opts.conv.residual) continue; /* never */
    bool q8 = false;
    /* in a hybrid subgraph only the hybrid pairs (their float halves in XNNPACK's order) */
    const int32_t ce = hyb ? hyb_expand_channels(ctx, c) : expand_channels(ctx, c, &q8);
    if (ce < 0 || (ref_hyb && !q8)) continue;
    const int32_t t = c->outputs[0];
    if (t < 0 || tfcc_pass_is_graph_output(sg, t)) continue;
    const tfcc_ir_tensor *te = &sg->tensors[t];
    if (!(q8 ? is_i8_activation(te) : is_f32_activation(te))) continue;
    int32_t di;
    if (tfcc_pass_consumers(sg, t, &di) != 1 || di <= i) continue;
    tfcc_ir_node *d = &sg->nodes[di];
    if (!dw_qualifies(ctx, d, t, ce, q8)) continue;
    int32_t *in = tfcc_graph_alloc(ctx->graph, sizeof(int32_t) * 5, 4);
    if (!in)
      return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory fusing nodes %d and %d",
                          (int)i, (int)di);
    in[0] = c->inputs[0];
    in[1] = c->inputs[1];
    in[2] = c->n_inputs > 2 ? c->inputs[2] : -1;
    in[3] = d->inputs[1];
    in[4] = d->n_inputs > 2 ? d->inputs[2] : -1;
    const tfcc_depthwise_options dw = d->opts.depthwise;
    const int32_t expand_act = tfcc_pass_activation(c);
    tfcc_options_default(&d->opts, TFCC_OPTIONS_EXPAND_DWCONV);
    d->opts.expand_dwconv.dw = dw;
    d->opts.expand_dwconv.expand_activation = expand_act;
    d->opts.expand_dwconv.mid = q8 ? t : -1;
    d->builtin = TFCC_OP_EXPAND_DEPTHWISE_CONV_2D;
    d->op = op;
    d->inputs = in;
    d->n_inputs = 5;
    c->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
