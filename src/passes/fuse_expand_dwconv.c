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
 * follow XNNPACK's exact order (ops/hybrid.h), which the fused kernel does not. */
#include "passes/passes.h"
#include "kernels/ref/quant_util.h"
#include "ops/hybrid.h"
#include "ops/op.h"

static bool is_f32_activation(const tfcc_ir_tensor *t) {
  return t->dtype == TFCC_FLOAT32 && t->quant.count == 0 && !t->data && !t->is_variable &&
         t->rank == 4;
}

/* Constant float32 tensor of `n` elements, or an omitted input (-1). */
static bool const_or_absent(const tfcc_ir_subgraph *sg, int32_t t, int64_t n) {
  if (t < 0) return true;
  const tfcc_ir_tensor *x = &sg->tensors[t];
  return tfcc_pass_is_const(sg, t, TFCC_FLOAT32) && x->quant.count == 0 &&
         tfcc_shape_elements(x->rank, x->dims) == n;
}

/* The expand conv's filter channels (N), or -1 when the conv does not qualify. */
static int32_t expand_channels(const tfcc_ir_subgraph *sg, const tfcc_ir_node *c) {
  if (c->builtin != TFCC_OP_CONV_2D || !c->op || c->n_inputs < 2 || c->n_outputs != 1) return -1;
  const tfcc_conv_options *o = &c->opts.conv;
  if (o->padding == TFCC_PAD_EXPLICIT || c->inputs[0] < 0 || c->inputs[1] < 0) return -1;
  const tfcc_ir_tensor *x = &sg->tensors[c->inputs[0]], *f = &sg->tensors[c->inputs[1]];
  if (!is_f32_activation(x)) return -1;
  if (!tfcc_pass_is_const(sg, c->inputs[1], TFCC_FLOAT32) || f->quant.count != 0 || f->rank != 4 ||
      f->dims[1] != 1 || f->dims[2] != 1 || f->dims[0] <= 0 || f->dims[3] != x->dims[3])
    return -1;
  if (!const_or_absent(sg, c->n_inputs > 2 ? c->inputs[2] : -1, f->dims[0])) return -1;
  if (o->stride_w != 1 || o->stride_h != 1) return -1;
  const int32_t act = tfcc_pass_activation(c);
  if (act != TFCC_ACT_NONE && act != TFCC_ACT_RELU && act != TFCC_ACT_RELU6 &&
      act != TFCC_ACT_RELU_N1_TO_1)
    return -1;
  return f->dims[0];
}

static bool dw_qualifies(const tfcc_ir_subgraph *sg, const tfcc_ir_node *d, int32_t t, int32_t ce) {
  if (d->builtin != TFCC_OP_DEPTHWISE_CONV_2D || !d->op || d->n_inputs < 2 || d->n_outputs != 1)
    return false;
  if (d->inputs[0] != t || d->inputs[1] < 0 || d->outputs[0] < 0) return false;
  const tfcc_ir_tensor *f = &sg->tensors[d->inputs[1]], *y = &sg->tensors[d->outputs[0]];
  if (!tfcc_pass_is_const(sg, d->inputs[1], TFCC_FLOAT32) || f->quant.count != 0 || f->rank != 4 ||
      f->dims[0] != 1 || f->dims[3] != ce || f->dims[1] != f->dims[2] ||
      (f->dims[1] != 3 && f->dims[1] != 5))
    return false;
  if (y->dtype != TFCC_FLOAT32 || y->quant.count != 0) return false;
  if (!const_or_absent(sg, d->n_inputs > 2 ? d->inputs[2] : -1, ce)) return false;
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
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && tfcc_hybrid_in_subgraph(sg)) return TFCC_OK;
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *c = &sg->nodes[i];
    if (c->removed) continue;
    if (c->opts.kind == TFCC_OPTIONS_CONV_2D && c->opts.conv.residual) continue; /* never */
    const int32_t ce = expand_channels(sg, c);
    if (ce < 0) continue;
    const int32_t t = c->outputs[0];
    if (t < 0 || tfcc_pass_is_graph_output(sg, t)) continue;
    const tfcc_ir_tensor *te = &sg->tensors[t];
    if (!is_f32_activation(te)) continue;
    int32_t di;
    if (tfcc_pass_consumers(sg, t, &di) != 1 || di <= i) continue;
    tfcc_ir_node *d = &sg->nodes[di];
    if (!dw_qualifies(sg, d, t, ce)) continue;
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
    d->builtin = TFCC_OP_EXPAND_DEPTHWISE_CONV_2D;
    d->op = op;
    d->inputs = in;
    d->n_inputs = 5;
    c->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
