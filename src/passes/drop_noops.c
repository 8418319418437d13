/* Pass drop_noops (TFCC_PASS_DROP_NOOPS): removes nodes whose output equals their input and
 * makes the consumers read the input:
 *   - CAST to the same dtype, QUANTIZE with identical input and output quantization (a
 *     requantization by exactly 1.0 is the identity in TFLite's arithmetic): for any shape;
 *   - RESHAPE / SQUEEZE / EXPAND_DIMS whose output shape equals the input's: only when the
 *     graph's shapes are static (every input has a fixed signature, and the subgraph is not
 *     run by an operator with its own shapes), since a resized input could make them real
 *     reshapes. Elsewhere the memory plan makes them free views.
 * A node whose output is a graph output stays (the output keeps its name and buffer). */
#include <string.h>

#include "passes/passes.h"

static bool same_shape(const tfcc_ir_tensor *a, const tfcc_ir_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

static bool is_noop(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n, bool static_shapes) {
  if (n->removed || n->n_inputs < 1 || n->n_outputs != 1 || n->n_intermediates > 0) return false;
  int32_t ti = n->inputs[0], to = n->outputs[0];
  if (ti < 0 || to < 0 || ti == to) return false;
  const tfcc_ir_tensor *in = &sg->tensors[ti], *out = &sg->tensors[to];
  if (in->dtype != out->dtype || in->is_variable || out->is_variable || out->data) return false;
  if (!tfcc_pass_same_quant(&in->quant, &out->quant)) return false;
  if (tfcc_pass_is_graph_output(sg, to) || tfcc_pass_is_graph_input(sg, to)) return false;
  switch (n->builtin) {
    case TFCC_OP_CAST: return n->n_inputs == 1;
    case TFCC_OP_QUANTIZE:
      /* float -> int is a real quantization; int -> int with the same parameters is not. */
      return n->n_inputs == 1 && in->quant.count == 1 && in->dtype != TFCC_FLOAT32;
    case TFCC_OP_RESHAPE:
    case TFCC_OP_SQUEEZE:
    case TFCC_OP_EXPAND_DIMS: return static_shapes && same_shape(in, out);
    default: return false;
  }
}

tfcc_status tfcc_pass_drop_noops(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  bool static_shapes = !ctx->shapes_from_caller && tfcc_pass_static_shapes(sg);
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *n = &sg->nodes[i];
    if (!is_noop(sg, n, static_shapes)) continue;
    int32_t from = n->outputs[0], to = n->inputs[0];
    n->removed = true;
    tfcc_pass_replace_input(sg, from, to);
    (*changed)++;
  }
  return TFCC_OK;
}
