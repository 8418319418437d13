/* Helpers shared by the graph passes. */
#include <string.h>

#include "passes/passes.h"
#include "kernels/ref/quant_util.h"

int32_t tfcc_pass_consumers(const tfcc_ir_subgraph *sg, int32_t t, int32_t *only) {
  int32_t count = 0, who = -1;
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *n = &sg->nodes[i];
    if (n->removed) continue;
    for (int32_t k = 0; k < n->n_inputs; k++)
      if (n->inputs[k] == t) {
        count++;
        who = i;
      }
    for (int32_t k = 0; k < n->n_intermediates; k++)
      if (n->intermediates[k] == t) count += 2; /* never fuse across intermediates */
  }
  if (only) *only = count == 1 ? who : -1;
  return count;
}

int32_t tfcc_pass_producer(const tfcc_ir_subgraph *sg, int32_t t) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *n = &sg->nodes[i];
    if (n->removed) continue;
    for (int32_t k = 0; k < n->n_outputs; k++)
      if (n->outputs[k] == t) return i;
  }
  return -1;
}

bool tfcc_pass_is_graph_output(const tfcc_ir_subgraph *sg, int32_t t) {
  for (int32_t i = 0; i < sg->n_outputs; i++)
    if (sg->outputs[i] == t) return true;
  return false;
}

bool tfcc_pass_is_graph_input(const tfcc_ir_subgraph *sg, int32_t t) {
  for (int32_t i = 0; i < sg->n_inputs; i++)
    if (sg->inputs[i] == t) return true;
  return false;
}

bool tfcc_pass_same_quant(const tfcc_quant *a, const tfcc_quant *b) {
  if (a->count != b->count) return false;
  if (a->count == 0) return true;
  if (a->count > 1 && a->axis != b->axis) return false;
  for (int32_t i = 0; i < a->count; i++)
    if (a->scale[i] != b->scale[i] || a->zero_point[i] != b->zero_point[i]) return false;
  return true;
}

void tfcc_pass_replace_input(tfcc_ir_subgraph *sg, int32_t from, int32_t to) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *n = &sg->nodes[i];
    if (n->removed) continue;
    for (int32_t k = 0; k < n->n_inputs; k++)
      if (n->inputs[k] == from) n->inputs[k] = to;
  }
}

/* The operators whose fused activation the passes may change. */
static bool takes_activation(int32_t builtin) {
  switch (builtin) {
    case TFCC_OP_CONV_2D:
    case TFCC_OP_DEPTHWISE_CONV_2D:
    case TFCC_OP_FULLY_CONNECTED:
    case TFCC_OP_ADD:
    case TFCC_OP_SUB:
    case TFCC_OP_MUL:
    case TFCC_OP_AVERAGE_POOL_2D:
    case TFCC_OP_MAX_POOL_2D: return true;
    default: return false;
  }
}

int32_t tfcc_pass_activation(const tfcc_ir_node *n) {
  if (!takes_activation(n->builtin)) return -1;
  const int32_t *a = tfcc_options_activation((tfcc_op_options *)&n->opts);
  return a ? *a : -1;
}

void tfcc_pass_set_activation(tfcc_ir_node *n, int32_t act) {
  int32_t *a = tfcc_options_activation(&n->opts);
  if (a) *a = act;
}

bool tfcc_pass_is_const(const tfcc_ir_subgraph *sg, int32_t t, tfcc_dtype dt) {
  if (t < 0 || t >= sg->n_tensors) return false;
  const tfcc_ir_tensor *it = &sg->tensors[t];
  return it->data && !it->is_variable && !it->sparsity && it->dtype == dt &&
         !tfcc_pass_is_graph_input(sg, t);
}

bool tfcc_pass_static_shapes(const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_inputs; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[sg->inputs[i]];
    if (!t->has_signature) return false;
    for (int32_t d = 0; d < t->rank; d++)
      if (t->signature[d] < 0 || t->signature[d] != t->dims[d]) return false;
  }
  return true;
}
