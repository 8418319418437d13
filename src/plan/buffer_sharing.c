#include "plan/buffer_sharing.h"

int32_t tfcc_buffer_group_root(tfcc_buffer_groups *g, int32_t i) {
  int32_t *group = g->group;
  while (group[i] != i) {
    group[i] = group[group[i]];
    i = group[i];
  }
  return i;
}

static void group_join(tfcc_buffer_groups *g, int32_t into, int32_t t) {
  int32_t a = tfcc_buffer_group_root(g, into), b = tfcc_buffer_group_root(g, t);
  if (a == b) return;
  g->group[b] = a;
  if (g->producer[b] < g->producer[a]) g->producer[a] = g->producer[b];
  if (g->last_use[b] > g->last_use[a]) g->last_use[a] = g->last_use[b];
}

static bool same_shape(const tfcc_tensor *a, const tfcc_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

bool tfcc_share_view(tfcc_buffer_groups *g, const tfcc_op_ctx *c) {
  if (!c->node->op->output_is_view || c->n_out != 1 || c->n_in < 1 || !c->in[0]) return false;
  int32_t ti = c->in[0]->index, to = c->out[0]->index;
  if (g->group[ti] < 0 || g->group[to] < 0 || ti == to || c->in[0]->bytes != c->out[0]->bytes)
    return false;
  group_join(g, ti, to);
  return true;
}

bool tfcc_share_in_place(tfcc_buffer_groups *g, const tfcc_op_ctx *c, int32_t node) {
  if (!c->node->op->inplace_ok || c->n_out != 1 || c->n_tmp > 0) return false;
  const int32_t *group = g->group;
  const tfcc_tensor *out = c->out[0];
  if (group[out->index] < 0) return false;
  for (int32_t k = 0; k < c->n_in; k++) {
    const tfcc_tensor *in = c->in[k];
    if (!in || group[in->index] < 0 || in->dtype != out->dtype || !same_shape(in, out)) continue;
    int32_t r = tfcc_buffer_group_root(g, in->index);
    if (g->last_use[r] != node || r == tfcc_buffer_group_root(g, out->index)) continue;
    bool shared = false;
    for (int32_t j = 0; j < c->n_in; j++)
      if (j != k && c->in[j] && c->in[j]->index != in->index && group[c->in[j]->index] >= 0 &&
          tfcc_buffer_group_root(g, c->in[j]->index) == r)
        shared = true;
    if (shared) continue;
    group_join(g, in->index, out->index);
    return true;
  }
  return false;
}
