/* Pass fuse_pad (TFCC_PASS_FUSE_PAD): a PAD (or PADV2 whose constant value is the pad value
 * PAD would use) of a 4-D tensor on H and W only, with constant paddings, feeding a
 * CONV_2D or DEPTHWISE_CONV_2D with VALID padding, becomes the convolution's explicit padding
 * (options padding TFCC_PAD_EXPLICIT with pad[], read through tfcc_conv_window) and the PAD
 * node is removed.
 * Positions in the padding are skipped by the kernels, which is the same as reading the pad
 * value: 0 for float, the zero point for quantized tensors (the PAD's input and output must then
 * have the same quantization, so that the conv's input offset is that zero point).
 * Not for 1x1 filters (pointless, and the direct 1x1 GEMM path assumes no padding).
 * Pools are left alone: MAX_POOL would need -inf padding, AVERAGE_POOL counts padded cells. */
#include <string.h>

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
    if (in->dtype != TFCC_FLOAT32 &&
        ((in->dtype != TFCC_INT8 && in->dtype != TFCC_UINT8) || in->quant.count != 1 ||
         !tfcc_pass_same_quant(&in->quant, &out->quant)))
      continue;
    int64_t pads[8];
    if (!read_pads(&sg->tensors[pad->inputs[1]], pads) || !pad_value_is_default(sg, pad)) continue;
    int32_t ci;
    if (tfcc_pass_consumers(sg, tout, &ci) != 1 || ci <= i) continue;
    tfcc_ir_node *conv = &sg->nodes[ci];
    if (conv->builtin != TFCC_OP_CONV_2D && conv->builtin != TFCC_OP_DEPTHWISE_CONV_2D) continue;
    if (conv->n_inputs < 2 || conv->inputs[0] != tout) continue;
    int32_t *explicit_pad, *padding = padding_of(conv, &explicit_pad);
    if (!padding || *padding != TFCC_PAD_VALID) continue; /* not SAME, not padded already */
    /* A 1x1 filter over padding only sees pad values (bias-only border pixels), and the 1x1
     * GEMM path reads the input directly, assuming every output pixel maps into it: leave it. */
    if (conv->inputs[1] < 0) continue;
    const tfcc_ir_tensor *f = &sg->tensors[conv->inputs[1]];
    if (f->rank != 4 || (f->dims[1] == 1 && f->dims[2] == 1)) continue;
    *padding = TFCC_PAD_EXPLICIT;
    explicit_pad[0] = (int32_t)pads[2];
    explicit_pad[1] = (int32_t)pads[3];
    explicit_pad[2] = (int32_t)pads[4];
    explicit_pad[3] = (int32_t)pads[5];
    conv->inputs[0] = tin;
    pad->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
