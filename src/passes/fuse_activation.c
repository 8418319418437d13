/* Pass fuse_activation (TFCC_PASS_FUSE_ACTIVATION): RELU, RELU6 and RELU_N1_TO_1 after a
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL, AVERAGE_POOL_2D or MAX_POOL_2D
 * become the producer's fused activation (the activation field of its options) and the
 * activation node is removed. Conditions: the producer's
 * output has no other reader and is not a graph output; same dtype (float32 or a quantized
 * type) and identical quantization on both sides of the activation (then TFLite's quantized
 * RELU is exactly the clamp a fused activation applies); the producer's own activation is
 * NONE, the same, or RELU with RELU6 (= RELU6). */
#include "passes/passes.h"
#include "kernels/ref/quant_util.h"

static int32_t act_of(int32_t builtin) {
  switch (builtin) {
    case TFCC_OP_RELU: return TFCC_ACT_RELU;
    case TFCC_OP_RELU6: return TFCC_ACT_RELU6;
    case TFCC_OP_RELU_N1_TO_1: return TFCC_ACT_RELU_N1_TO_1;
    default: return -1;
  }
}

/* Activation equal to applying `first` then `then`, or -1. */
static int32_t compose(int32_t first, int32_t then) {
  if (first == TFCC_ACT_NONE || first == then) return then;
  if ((first == TFCC_ACT_RELU && then == TFCC_ACT_RELU6) ||
      (first == TFCC_ACT_RELU6 && then == TFCC_ACT_RELU))
    return TFCC_ACT_RELU6;
  return -1;
}

static bool fusable_dtype(tfcc_dtype dt) {
  return dt == TFCC_FLOAT32 || dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16;
}

tfcc_status tfcc_pass_fuse_activation(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    tfcc_ir_node *a = &sg->nodes[i];
    int32_t act = act_of(a->builtin);
    if (a->removed || act < 0 || a->n_inputs != 1 || a->n_outputs != 1 || !a->op) continue;
    int32_t t = a->inputs[0], out = a->outputs[0];
    if (t < 0 || out < 0 || tfcc_pass_is_graph_output(sg, t)) continue;
    const tfcc_ir_tensor *ti = &sg->tensors[t], *to = &sg->tensors[out];
    if (ti->dtype != to->dtype || !fusable_dtype(ti->dtype) || ti->data || ti->is_variable)
      continue;
    if (ti->dtype != TFCC_FLOAT32 &&
        (ti->quant.count != 1 || !tfcc_pass_same_quant(&ti->quant, &to->quant)))
      continue;
    int32_t consumer;
    if (tfcc_pass_consumers(sg, t, &consumer) != 1 || consumer != i) continue;
    int32_t pi = tfcc_pass_producer(sg, t);
    if (pi < 0 || pi >= i) continue;
    tfcc_ir_node *p = &sg->nodes[pi];
    if (!p->op || p->n_outputs != 1 || p->outputs[0] != t) continue;
    int32_t cur = tfcc_pass_activation(p);
    if (cur < 0) continue; /* operator without a fused activation */
    int32_t fused = compose(cur, act);
    if (fused < 0) continue;
    tfcc_pass_set_activation(p, fused);
    p->outputs[0] = out;
    a->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
