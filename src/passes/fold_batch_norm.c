/* Pass fold_batch_norm (TFCC_PASS_FOLD_BATCH_NORM): a chain of MUL / ADD / SUB by constants
 * that are per-channel along the last axis (shape [C], [1,..,1,C]) or scalars, following a
 * float32 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED with constant weights, is folded into
 * new weights and bias (graph memory): y = conv(x) * s + b  ==  conv'(x) with W' = W * s
 * (per output channel) and bias' = bias * s + b. The chain's last activation becomes the
 * conv's. Conditions: no activation on the conv nor inside the chain, every intermediate read
 * only by the next link and not a graph output, weights and bias read by this node only.
 * Float results change by rounding only (the product is formed in another order). */
#include <string.h>

#include "passes/passes.h"
#include "kernels/ref/quant_util.h"
#include "ops/hybrid.h"

enum { MAX_CHAIN = 8 };

/* Output-channel count and the channel of weight element k. */
typedef struct wlayout {
  int32_t channels;
  int64_t n;     /* weight elements */
  int64_t inner; /* conv/FC: elements per output channel (channel = k / inner); dw: 0 */
} wlayout;

static bool weight_layout(const tfcc_ir_node *p, const tfcc_ir_tensor *w, wlayout *L) {
  L->n = tfcc_shape_elements(w->rank, w->dims);
  if (L->n <= 0) return false;
  switch (p->builtin) {
    case TFCC_OP_CONV_2D:
      if (w->rank != 4) return false;
      L->channels = w->dims[0];
      L->inner = L->n / L->channels;
      return true;
    case TFCC_OP_DEPTHWISE_CONV_2D:
      if (w->rank != 4) return false;
      L->channels = w->dims[3];
      L->inner = 0;
      return true;
    case TFCC_OP_FULLY_CONNECTED:
      if (w->rank != 2) return false;
      if (p->opts.fc.weights_format != 0) return false;
      L->channels = w->dims[0];
      L->inner = L->n / L->channels;
      return true;
    default: return false;
  }
}

static bool same_dims(const tfcc_ir_tensor *a, const tfcc_ir_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

/* Constant c broadcasts per channel (or as a scalar) onto t without changing t's shape. */
static bool per_channel_const(const tfcc_ir_subgraph *sg, int32_t c, const tfcc_ir_tensor *t,
                              int32_t channels) {
  if (!tfcc_pass_is_const(sg, c, TFCC_FLOAT32)) return false;
  const tfcc_ir_tensor *ct = &sg->tensors[c];
  if (ct->quant.count != 0 || ct->rank > t->rank) return false;
  int64_t n = tfcc_shape_elements(ct->rank, ct->dims);
  if (n == 1) return ct->data_bytes >= 4;
  if (n != channels || ct->rank < 1 || ct->dims[ct->rank - 1] != channels) return false;
  return ct->data_bytes >= (size_t)n * 4;
}

static float const_at(const tfcc_ir_tensor *ct, int32_t ch) {
  float v;
  int64_t n = tfcc_shape_elements(ct->rank, ct->dims);
  memcpy(&v, (const float *)ct->data + (n == 1 ? 0 : ch), 4);
  return v;
}

tfcc_status tfcc_pass_fold_batch_norm(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  /* REFERENCE mode, a subgraph the classic interpreter delegates nothing of: its builtin
     kernels run the conv and each MUL / ADD apart (the folded weights round otherwise) */
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE && tfcc_classic_undelegated(ctx->graph, sg))
    return TFCC_OK;
  for (int32_t pi = 0; pi < sg->n_nodes; pi++) {
    tfcc_ir_node *p = &sg->nodes[pi];
    if (p->removed || !p->op || p->n_outputs != 1 || p->n_inputs < 2 || p->n_intermediates)
      continue;
    if (p->builtin != TFCC_OP_CONV_2D && p->builtin != TFCC_OP_DEPTHWISE_CONV_2D &&
        p->builtin != TFCC_OP_FULLY_CONNECTED)
      continue;
    if (tfcc_pass_activation(p) != TFCC_ACT_NONE) continue;
    int32_t tw = p->inputs[1], tb = p->n_inputs > 2 ? p->inputs[2] : -1, t = p->outputs[0];
    if (t < 0 || sg->tensors[t].dtype != TFCC_FLOAT32 || sg->tensors[t].rank < 1) continue;
    if (p->inputs[0] < 0 || sg->tensors[p->inputs[0]].dtype != TFCC_FLOAT32) continue;
    if (!tfcc_pass_is_const(sg, tw, TFCC_FLOAT32) || tfcc_pass_consumers(sg, tw, NULL) != 1)
      continue;
    const tfcc_ir_tensor *w = &sg->tensors[tw];
    wlayout L;
    if (!weight_layout(p, w, &L) || w->data_bytes < (size_t)L.n * 4) continue;
    const int32_t C = L.channels;
    if (sg->tensors[t].dims[sg->tensors[t].rank - 1] != C) continue;
    if (tb >= 0 &&
        (!tfcc_pass_is_const(sg, tb, TFCC_FLOAT32) || tfcc_pass_consumers(sg, tb, NULL) != 1 ||
         tfcc_shape_elements(sg->tensors[tb].rank, sg->tensors[tb].dims) != C ||
         sg->tensors[tb].data_bytes < (size_t)C * 4))
      continue;

    /* Walk the chain. */
    int32_t chain[MAX_CHAIN], consts[MAX_CHAIN], n_chain = 0, cur = t, final_act = TFCC_ACT_NONE;
    while (n_chain < MAX_CHAIN && final_act == TFCC_ACT_NONE) {
      int32_t ni;
      if (tfcc_pass_is_graph_output(sg, cur) || tfcc_pass_consumers(sg, cur, &ni) != 1) break;
      tfcc_ir_node *n = &sg->nodes[ni];
      if (n->builtin != TFCC_OP_MUL && n->builtin != TFCC_OP_ADD && n->builtin != TFCC_OP_SUB)
        break;
      if (n->n_inputs != 2 || n->n_outputs != 1 || n->outputs[0] < 0) break;
      int32_t c = n->inputs[0] == cur ? n->inputs[1] : n->inputs[0];
      if (n->builtin == TFCC_OP_SUB && n->inputs[0] != cur) break;
      if (c == cur || !per_channel_const(sg, c, &sg->tensors[t], C)) break;
      const tfcc_ir_tensor *o = &sg->tensors[n->outputs[0]];
      if (o->dtype != TFCC_FLOAT32 || !same_dims(o, &sg->tensors[t]) || o->quant.count) break;
      int32_t act = tfcc_pass_activation(n);
      if (act < 0) break;
      chain[n_chain] = ni;
      consts[n_chain++] = c;
      final_act = act;
      cur = n->outputs[0];
    }
    if (n_chain == 0) continue;

    /* A tensor to hold the new bias: the conv's, else a chain constant read only by the chain. */
    int32_t bias_t = tb;
    for (int32_t k = 0; k < n_chain && bias_t < 0; k++) {
      int32_t c = consts[k], users = 0;
      for (int32_t j = 0; j < n_chain; j++) users += consts[j] == c;
      if (tfcc_pass_consumers(sg, c, NULL) == users && users == 1 &&
          !tfcc_pass_is_graph_output(sg, c))
        bias_t = c;
    }
    if (bias_t < 0) continue;

    float *scale = tfcc_graph_alloc(ctx->graph, (size_t)C * 4, 64);
    float *bias = tfcc_graph_alloc(ctx->graph, (size_t)C * 4, 64);
    float *nw = tfcc_graph_alloc(ctx->graph, (size_t)L.n * 4, 64);
    int32_t *inputs =
        p->n_inputs > 2 ? p->inputs : tfcc_graph_alloc(ctx->graph, 3 * sizeof(int32_t), 4);
    if (!scale || !bias || !nw || !inputs)
      return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY,
                          "out of memory folding batch norm into node %d", (int)pi);
    for (int32_t ch = 0; ch < C; ch++) {
      float s = 1.0f, b = 0.0f;
      if (tb >= 0) memcpy(&b, (const float *)sg->tensors[tb].data + ch, 4);
      for (int32_t k = 0; k < n_chain; k++) {
        float v = const_at(&sg->tensors[consts[k]], ch);
        switch (sg->nodes[chain[k]].builtin) {
          case TFCC_OP_MUL:
            s *= v;
            b *= v;
            break;
          case TFCC_OP_ADD: b += v; break;
          default: b -= v; break;
        }
      }
      scale[ch] = s;
      bias[ch] = b;
    }
    const float *ow = w->data;
    for (int64_t k = 0; k < L.n; k++) {
      int32_t ch = L.inner ? (int32_t)(k / L.inner) : (int32_t)(k % C);
      float v;
      memcpy(&v, ow + k, 4);
      nw[k] = v * scale[ch];
    }
    tfcc_ir_tensor *wt = &sg->tensors[tw];
    wt->data = nw;
    wt->data_bytes = (size_t)L.n * 4;
    tfcc_ir_tensor *bt = &sg->tensors[bias_t];
    bt->data = bias;
    bt->data_bytes = (size_t)C * 4;
    bt->rank = 1;
    bt->dims[0] = C;
    bt->has_signature = false;
    bt->signature[0] = C;
    if (p->n_inputs < 3) {
      inputs[0] = p->inputs[0];
      inputs[1] = p->inputs[1];
      p->inputs = inputs;
      p->n_inputs = 3;
    }
    p->inputs[2] = bias_t;
    p->outputs[0] = cur;
    for (int32_t k = 0; k < n_chain; k++) sg->nodes[chain[k]].removed = true;
    if (final_act != TFCC_ACT_NONE) tfcc_pass_set_activation(p, final_act);
    (*changed)++;
  }
  return TFCC_OK;
}
