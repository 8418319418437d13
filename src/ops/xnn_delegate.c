#include "ops/xnn_delegate.h"

#include <math.h>

static bool is_q8(const tfcc_ir_tensor *t) {
  return t && (t->dtype == TFCC_UINT8 || t->dtype == TFCC_INT8) && t->quant.count == 1;
}

bool tfcc_xnn_takes_resize_bilinear(const tfcc_ir_tensor *in, const tfcc_ir_tensor *size,
                                    const tfcc_ir_tensor *out, bool align_corners,
                                    bool half_pixel_centers) {
  return is_q8(in) && is_q8(out) && in->dtype == out->dtype && in->rank == 4 && size &&
         size->data && !(align_corners && half_pixel_centers);
}

static bool resize_refused(const tfcc_ir_subgraph *s, const tfcc_ir_node *n) {
  if (n->removed || n->builtin != TFCC_OP_RESIZE_BILINEAR || n->n_inputs < 2 || n->n_outputs < 1)
    return false;
  const int32_t a = n->inputs[0], b = n->inputs[1], o = n->outputs[0];
  if (a < 0 || a >= s->n_tensors || b < 0 || b >= s->n_tensors || o < 0 || o >= s->n_tensors)
    return false;
  const tfcc_ir_tensor *in = &s->tensors[a], *out = &s->tensors[o];
  if (!tfcc_xnn_takes_resize_bilinear(in, &s->tensors[b], out, n->opts.resize.align_corners,
                                      n->opts.resize.half_pixel_centers))
    return false;
  return in->quant.scale[0] != out->quant.scale[0] ||
         in->quant.zero_point[0] != out->quant.zero_point[0];
}

/* An 8-bit CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED the partitioner takes (ops/conv_common.c
 * xnn_takes: constant filter and bias, per-channel zero points 0, every filter scale normal and
 * positive) whose requantization scale input_scale * filter_scale / output_scale (float, per
 * channel) is 256 or more: xnn_create_convolution2d_nhwc_q* / xnn_create_fully_connected_nc_q*
 * refuse it when the runtime is created, after the partition was made. */
static bool requant_refused(const tfcc_ir_subgraph *s, const tfcc_ir_node *n) {
  if (n->removed || n->n_inputs < 2 || n->n_outputs < 1 ||
      (n->builtin != TFCC_OP_CONV_2D && n->builtin != TFCC_OP_DEPTHWISE_CONV_2D &&
       n->builtin != TFCC_OP_FULLY_CONNECTED))
    return false;
  for (int32_t i = 0; i < n->n_inputs; i++)
    if (n->inputs[i] >= s->n_tensors || (i < 2 && n->inputs[i] < 0)) return false;
  if (n->outputs[0] < 0 || n->outputs[0] >= s->n_tensors) return false;
  const tfcc_ir_tensor *in = &s->tensors[n->inputs[0]], *f = &s->tensors[n->inputs[1]];
  const tfcc_ir_tensor *out = &s->tensors[n->outputs[0]];
  if (!is_q8(in) || !is_q8(out) || out->dtype != in->dtype || f->dtype != in->dtype || !f->data ||
      f->sparsity || f->quant.count < 1)
    return false;
  for (int32_t i = 2; i < n->n_inputs; i++)
    if (n->inputs[i] >= 0 && !s->tensors[n->inputs[i]].data) return false;
  for (int32_t c = 0; c < f->quant.count; c++)
    if ((f->quant.count > 1 && f->quant.zero_point[c] != 0) || !isnormal(f->quant.scale[c]) ||
        f->quant.scale[c] <= 0.f)
      return false;
  const float in_scale = in->quant.scale[0], out_scale = out->quant.scale[0];
  for (int32_t c = 0; c < f->quant.count; c++)
    if (!(in_scale * f->quant.scale[c] / out_scale < 256.f)) return true;
  return false;
}

bool tfcc_xnn_delegate_fails(const tfcc_graph *g, int32_t *sg, int32_t *node, const char **why) {
  for (int32_t i = 0; i < g->n_subgraphs; i++) {
    const tfcc_ir_subgraph *s = &g->subgraphs[i];
    for (int32_t k = 0; k < s->n_nodes; k++) {
      const char *w = resize_refused(s, &s->nodes[k])    ? "input and output quantization differ"
                      : requant_refused(s, &s->nodes[k]) ? "requantization scale is 256 or more"
                                                         : NULL;
      if (w) {
        *sg = i;
        *node = k;
        *why = w;
        return true;
      }
    }
  }
  return false;
}
