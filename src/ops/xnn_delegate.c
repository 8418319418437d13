#include "ops/xnn_delegate.h"

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

bool tfcc_xnn_delegate_fails(const tfcc_graph *g, int32_t *sg, int32_t *node) {
  for (int32_t i = 0; i < g->n_subgraphs; i++) {
    const tfcc_ir_subgraph *s = &g->subgraphs[i];
    for (int32_t k = 0; k < s->n_nodes; k++)
      if (resize_refused(s, &s->nodes[k])) {
        *sg = i;
        *node = k;
        return true;
      }
  }
  return false;
}
