/* Pass fuse_residual_add (TFCC_PASS_FUSE_RESIDUAL_ADD): a float32 ADD of two tensors of the
 * same shape (no broadcasting), X = the output of a float32 CONV_2D with fused activation
 * NONE and R = a tensor available before that conv runs (an earlier node's output, a graph
 * input or a constant), becomes the conv's residual: the conv gets R as a 4th input
 * (inputs[3], options conv.residual), the ADD's fused activation and the ADD's output, and the
 * ADD is removed. The conv then computes out = act((bias + sum_k) + R), the bits of the conv
 * followed by the ADD (ResNet-style blocks: the GEMM epilogue adds R while the tile is hot).
 * Conditions: X has no other reader and is not a graph output; X != R; the conv has its
 * filter and is not already fused; R is not a variable; when both inputs are such convs the
 * later one takes the other's output as R. A constant R needs fixed input shapes (a resize
 * could make the ADD broadcast); otherwise CONV_2D's prepare reports a residual whose run
 * shape differs from the output's. Runs after fold_batch_norm and fuse_activation (so a conv
 * with folded batch norm has activation NONE and a RELU after the ADD is already the ADD's). */
#include "passes/passes.h"
#include "kernels/ref/quant_util.h"

static bool same_dims(const tfcc_ir_tensor *a, const tfcc_ir_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

static bool plain_f32(const tfcc_ir_tensor *t) {
  return t->dtype == TFCC_FLOAT32 && t->quant.count == 0 && !t->is_variable && !t->sparsity;
}

/* The conv producing x that can take the ADD (node ai) as its residual, or -1. */
static int32_t fusable_conv(const tfcc_ir_subgraph *sg, int32_t x, int32_t ai) {
  if (tfcc_pass_is_graph_output(sg, x) || sg->tensors[x].data) return -1;
  int32_t only;
  if (tfcc_pass_consumers(sg, x, &only) != 1 || only != ai) return -1;
  int32_t ci = tfcc_pass_producer(sg, x);
  if (ci < 0 || ci >= ai) return -1;
  const tfcc_ir_node *c = &sg->nodes[ci];
  if (c->builtin != TFCC_OP_CONV_2D || !c->op || c->opts.conv.residual || c->n_outputs != 1 ||
      c->outputs[0] != x || c->n_inputs < 2 || c->n_inputs > 3 || c->n_intermediates)
    return -1;
  if (tfcc_pass_activation(c) != TFCC_ACT_NONE) return -1;
  for (int32_t k = 0; k < c->n_inputs; k++) {
    int32_t t = c->inputs[k];
    if (k < 2 && t < 0) return -1;
    if (t >= 0 && k < 2 && !plain_f32(&sg->tensors[t])) return -1;
  }
  return ci;
}

/* R is ready before node ci runs: no producer (graph input, constant) or an earlier one. */
static bool ready_before(const tfcc_ir_subgraph *sg, int32_t r, int32_t ci) {
  int32_t pr = tfcc_pass_producer(sg, r);
  return pr < ci;
}

tfcc_status tfcc_pass_fuse_residual_add(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  const bool static_shapes = tfcc_pass_static_shapes(sg);
  for (int32_t ai = 0; ai < sg->n_nodes; ai++) {
    tfcc_ir_node *a = &sg->nodes[ai];
    if (a->removed || a->builtin != TFCC_OP_ADD || !a->op || a->n_inputs != 2 ||
        a->n_outputs != 1 || a->n_intermediates)
      continue;
    const int32_t t0 = a->inputs[0], t1 = a->inputs[1], out = a->outputs[0];
    if (t0 < 0 || t1 < 0 || out < 0 || t0 == t1) continue;
    const tfcc_ir_tensor *x0 = &sg->tensors[t0], *x1 = &sg->tensors[t1], *o = &sg->tensors[out];
    if (!plain_f32(x0) || !plain_f32(x1) || !plain_f32(o) || o->data) continue;
    if (!same_dims(x0, x1) || !same_dims(x0, o) || x0->rank != 4) continue;
    const int32_t act = tfcc_pass_activation(a);
    if (act < 0) continue;
    /* the later of the two convs (the other's output is then ready before it) */
    int32_t c0 = fusable_conv(sg, t0, ai), c1 = fusable_conv(sg, t1, ai);
    int32_t ci = -1, r = -1;
    if (c0 >= 0 && (c1 < 0 || c0 > c1) && ready_before(sg, t1, c0)) {
      ci = c0;
      r = t1;
    } else if (c1 >= 0 && ready_before(sg, t0, c1)) {
      ci = c1;
      r = t0;
    }
    if (ci < 0) continue;
    if (sg->tensors[r].data && !static_shapes) continue;
    tfcc_ir_node *c = &sg->nodes[ci];
    int32_t *inputs = tfcc_graph_alloc(ctx->graph, 4 * sizeof(int32_t), 4);
    if (!inputs)
      return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY,
                          "out of memory fusing the residual ADD (node %d) into node %d", (int)ai,
                          (int)ci);
    inputs[0] = c->inputs[0];
    inputs[1] = c->inputs[1];
    inputs[2] = c->n_inputs > 2 ? c->inputs[2] : -1;
    inputs[3] = r;
    c->inputs = inputs;
    c->n_inputs = 4;
    c->opts.conv.residual = true;
    c->opts.conv.activation = act;
    c->outputs[0] = out;
    a->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
