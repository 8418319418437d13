/* Pass fuse_pad (TFCC_PASS_FUSE_PAD): a PAD (or PADV2 whose constant value is the pad value
 * PAD would use) of a 4-D tensor on H and W only, with constant paddings, whose output feeds
 * nothing else, becomes the explicit padding (options padding TFCC_PAD_EXPLICIT with pad[]) of
 * the VALID operator it feeds, and the PAD node is removed:
 * - CONV_2D or DEPTHWISE_CONV_2D (float, int8, uint8; read through tfcc_conv_window). Positions
 *   in the padding are skipped by the kernels, which is the same as reading the pad value: 0 for
 *   float, the zero point for quantized tensors (the PAD's input and output must then have the
 *   same quantization, so that the conv's input offset is that zero point). Not for 1x1 filters
 *   (pointless, and the direct 1x1 GEMM path assumes no padding).
 * - MAX_POOL_2D (float, int8, uint8, int16; ResNet's stem). The pool skips padded cells (as
 *   TFLite's does under SAME) where the PAD made them take part in the maximum, so this is the
 *   same only when (a) every window keeps a real cell (keeps_real_cells), and (b) no real cell
 *   is below the pad value, proven from the graph: a quantized tensor whose zero point is its
 *   type's lowest value, or a producer whose fused activation is RELU / RELU6, or a RELU / RELU6
 *   operator (its output clamps at 0, the zero point when quantized). A float NaN is below nothing: a window whose real cells are all
 *   NaN gives 0 through the PAD and the lowest float (clamped) without it; no graph proves that
 *   away, and a NaN there is already a broken model. AVERAGE_POOL counts padded cells: left alone.
 */
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "passes/passes.h"

static bool read_pads(const tfcc_ir_tensor *p, int64_t pads[8]) {
  if (!p->data || p->is_variable || p->sparsity || p->rank != 2 || p->dims[0] != 4 ||
      p->dims[1] != 2)
    return false;
  for (int i = 0; i < 8; i++) {
    if (p->dtype == TFCC_INT32 && p->data_bytes >= 32) {
      int32_t v;
      memcpy(&v, (const uint8_t *)p->data + 4 * i, 4);
      pads[i] = v;
    } else if (p->dtype == TFCC_INT64 && p->data_bytes >= 64) {
      int64_t v;
      memcpy(&v, (const uint8_t *)p->data + 8 * i, 8);
      pads[i] = v;
    } else {
      return false;
    }
    if (pads[i] < 0 || pads[i] > 1 << 20) return false;
  }
  return pads[0] == 0 && pads[1] == 0 && pads[6] == 0 && pads[7] == 0;
}

/* PADV2's constant value equals what PAD uses (0, or the zero point). */
static bool pad_value_is_default(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n) {
  if (n->builtin == TFCC_OP_PAD) return n->n_inputs == 2;
  if (n->n_inputs != 3 || n->inputs[2] < 0) return n->n_inputs == 2;
  const tfcc_ir_tensor *v = &sg->tensors[n->inputs[2]], *in = &sg->tensors[n->inputs[0]];
  if (!v->data || v->is_variable || v->dtype != in->dtype ||
      tfcc_shape_elements(v->rank, v->dims) != 1)
    return false;
  if (in->dtype != TFCC_FLOAT32 && !tfcc_pass_same_quant(&v->quant, &in->quant)) return false;
  switch (in->dtype) {
    case TFCC_FLOAT32: {
      float f;
      memcpy(&f, v->data, 4);
      return f == 0.0f;
    }
    case TFCC_INT8:
      return in->quant.count == 1 && *(const int8_t *)v->data == in->quant.zero_point[0];
    case TFCC_UINT8:
      return in->quant.count == 1 && *(const uint8_t *)v->data == in->quant.zero_point[0];
    case TFCC_INT16: {
      int16_t q;
      memcpy(&q, v->data, 2);
      return in->quant.count == 1 && q == in->quant.zero_point[0];
    }
    default: return false;
  }
}

/* The padding fields of a CONV_2D's or DEPTHWISE_CONV_2D's options (NULL for other kinds). */
static int32_t *padding_of(tfcc_ir_node *n, int32_t **pad) {
  switch (n->opts.kind) {
    case TFCC_OPTIONS_CONV_2D: *pad = n->opts.conv.pad; return &n->opts.conv.padding;
    case TFCC_OPTIONS_DEPTHWISE_CONV_2D:
      *pad = n->opts.depthwise.pad;
      return &n->opts.depthwise.padding;
    default: return NULL;
  }
}

/* The lowest value of a quantized dtype, or 1 (above every zero point) for another. */
static int32_t q_lowest(tfcc_dtype dt) {
  return dt == TFCC_UINT8 ? 0 : dt == TFCC_INT8 ? -128 : dt == TFCC_INT16 ? -32768 : 1;
}

/* No value of tensor t is below its pad value (0 for float, the zero point if quantized). */
static bool never_below_pad(const tfcc_ir_subgraph *sg, int32_t t) {
  const tfcc_ir_tensor *x = &sg->tensors[t];
  if (x->dtype != TFCC_FLOAT32 && x->quant.zero_point[0] == q_lowest(x->dtype)) return true;
  const int32_t pi = tfcc_pass_producer(sg, t);
  if (pi < 0) return false; /* a graph input, a constant, a variable: anything */
  const tfcc_ir_node *p = &sg->nodes[pi];
  if (p->n_outputs != 1 || p->outputs[0] != t) return false;
  if (p->builtin == TFCC_OP_RELU || p->builtin == TFCC_OP_RELU6) return true;
  const int32_t act = tfcc_pass_activation(p);
  return act == TFCC_ACT_RELU || act == TFCC_ACT_RELU6;
}

/* Every window along an axis keeps a real cell: padding before and after of at most filter - 1
 * (the first and the last window then reach the image, and the ones between lie between them)
 * on an image of at least one cell. That holds for any size when the two paddings together are
 * under the filter: an empty image has then no window either way (the padded size is under the
 * filter); else the size must be static and non-zero. */
static bool keeps_real_cells(int32_t size, bool static_size, int64_t before, int64_t after,
                             int32_t filter) {
  if (before >= filter || after >= filter) return false;
  return before + after < filter || (static_size && size > 0);
}

/* pool (MAX_POOL_2D, VALID) takes the PAD's pads of tensor tin (pads[8] as PAD's, NHWC);
 * static_shapes: false where the caller of the subgraph sets its input shapes. */
static bool fold_into_max_pool(const tfcc_ir_subgraph *sg, bool static_shapes, tfcc_ir_node *pool,
                               int32_t tin, const int64_t pads[8]) {
  tfcc_pool_options *o = &pool->opts.pool;
  if (pool->builtin != TFCC_OP_MAX_POOL_2D || pool->opts.kind != TFCC_OPTIONS_POOL_2D ||
      o->padding != TFCC_PAD_VALID)
    return false;
  const tfcc_ir_tensor *in = &sg->tensors[tin];
  const bool fixed = static_shapes && tfcc_pass_static_shapes(sg);
  if (!keeps_real_cells(in->dims[1], fixed, pads[2], pads[3], o->filter_h) ||
      !keeps_real_cells(in->dims[2], fixed, pads[4], pads[5], o->filter_w) ||
      !never_below_pad(sg, tin))
    return false;
  o->padding = TFCC_PAD_EXPLICIT;
  for (int k = 0; k < 4; k++) o->pad[k] = (int32_t)pads[2 + k];
  return true;
}

/* conv (CONV_2D or DEPTHWISE_CONV_2D, VALID, not 1x1) takes the PAD's pads. */
static bool fold_into_conv(const tfcc_ir_subgraph *sg, tfcc_ir_node *conv, const int64_t pads[8]) {
  if (conv->builtin != TFCC_OP_CONV_2D && conv->builtin != TFCC_OP_DEPTHWISE_CONV_2D) return false;
  if (conv->n_inputs < 2) return false;
  int32_t *explicit_pad, *padding = padding_of(conv, &explicit_pad);
  if (!padding || *padding != TFCC_PAD_VALID) return false; /* not SAME, not padded already */
  /* A 1x1 filter over padding only sees pad values (bias-only border pixels), and the 1x1
   * GEMM path reads the input directly, assuming every output pixel maps into it: leave it. */
  if (conv->inputs[1] < 0) return false;
  const tfcc_ir_tensor *f = &sg->tensors[conv->inputs[1]];
  if (f->rank != 4 || (f->dims[1] == 1 && f->dims[2] == 1)) return false;
  *padding = TFCC_PAD_EXPLICIT;
  for (int k = 0; k < 4; k++) explicit_pad[k] = (int32_t)pads[2 + k];
  return true;
}

tfcc_status tfcc_pass_fuse_pad(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *pad = &sg->nodes[i];
    if (pad->removed || (pad->builtin != TFCC_OP_PAD && pad->builtin != TFCC_OP_PADV2)) continue;
    if (pad->n_inputs < 2 || pad->n_outputs != 1 || pad->inputs[0] < 0 || pad->inputs[1] < 0)
      continue;
    int32_t tin = pad->inputs[0], tout = pad->outputs[0];
    if (tout < 0 || tfcc_pass_is_graph_output(sg, tout)) continue;
    const tfcc_ir_tensor *in = &sg->tensors[tin], *out = &sg->tensors[tout];
    if (in->dtype != out->dtype || in->rank != 4 || in->is_variable) continue;
    const bool q8 = in->dtype == TFCC_INT8 || in->dtype == TFCC_UINT8;
    if (in->dtype != TFCC_FLOAT32 && ((!q8 && in->dtype != TFCC_INT16) || in->quant.count != 1 ||
                                      !tfcc_pass_same_quant(&in->quant, &out->quant)))
      continue;
    int64_t pads[8];
    if (!read_pads(&sg->tensors[pad->inputs[1]], pads) || !pad_value_is_default(sg, pad)) continue;
    int32_t ci;
    if (tfcc_pass_consumers(sg, tout, &ci) != 1 || ci <= i) continue;
    tfcc_ir_node *next = &sg->nodes[ci];
    if (next->n_inputs < 1 || next->inputs[0] != tout) continue;
    /* the convolutions take no int16 padding here (their 16x8 kernels are not checked on it) */
    const bool folded = (in->dtype != TFCC_INT16 && fold_into_conv(sg, next, pads)) ||
                        fold_into_max_pool(sg, !ctx->shapes_from_caller, next, tin, pads);
    if (!folded) continue;
    next->inputs[0] = tin;
    pad->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
