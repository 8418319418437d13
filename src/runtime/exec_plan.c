#include "runtime/exec_plan.h"

#include "base/weights_mem.h"
#include "ops/work_estimate.h"
#include "plan/buffer_sharing.h"
#include "runtime/run_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TFCC_ARENA_ALIGN 64
/* Values up to this size whose inputs are all known at prepare time are computed then (shape
 * arithmetic: SHAPE → STRIDED_SLICE → PACK → RESHAPE and the like). */
#define TFCC_FOLD_MAX_BYTES 65536
/* ... and whose work estimate and scratch stay under ops/work_estimate.h's TFCC_FOLD_MAX_WORK
 * and TFCC_FOLD_MAX_SCRATCH (else the node runs with the others, under the run's limits). */

typedef struct fold_block {
  struct fold_block *next;
} fold_block;

static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

/* exec_plan.h: quant_copy */
typedef struct tfcc_quant_copy {
  tfcc_quant q;
  float scale;
  int32_t zero_point;
} tfcc_quant_copy;

void tfcc_exec_plan_bind_quant(tfcc_exec_plan *p, int32_t i, const tfcc_quant *q) {
  tfcc_tensor *t = &p->tensors[i];
  if (!p->quant_copy || q->count != 1 || !q->scale) {
    t->quant = q;
    return;
  }
  tfcc_quant_copy *c = &p->quant_copy[i];
  c->q = *q;
  c->scale = q->scale[0];
  c->q.scale = &c->scale;
  if (q->zero_point) {
    c->zero_point = q->zero_point[0];
    c->q.zero_point = &c->zero_point;
  }
  t->quant = &c->q;
}

/* Memory for folded values, kept in a list in front of each block. */
static void *fold_alloc(tfcc_exec_plan *p, fold_block **list, size_t bytes) {
  size_t hdr = TFCC_ARENA_ALIGN;
  uint8_t *m =
      aligned_alloc(TFCC_ARENA_ALIGN, round_up(hdr + (bytes ? bytes : 1), TFCC_ARENA_ALIGN));
  if (!m) return NULL;
  fold_block *b = (fold_block *)m;
  b->next = *list;
  *list = b;
  p->persist_bytes += bytes;
  return m + hdr;
}

/* exec_plan.h: layout (env.keep_layout): what plan_memory reads of a build */
typedef struct tfcc_plan_layout {
  tfcc_plan_buffer *bufs; /* [nb] with their offsets */
  int32_t *buf_tensor;    /* [nb] its tensor, or -1 - node for a node's scratch */
  int32_t *group;         /* [n_tensors] sharing groups (plan/buffer_sharing.h) */
  int32_t nb;
} tfcc_plan_layout;

static void layout_free(tfcc_exec_plan *p) {
  if (!p->layout) return;
  free(p->layout->bufs);
  free(p->layout->buf_tensor);
  free(p->layout->group);
  free(p->layout);
  p->layout = NULL;
}

void tfcc_exec_plan_free(tfcc_exec_plan *p) {
  if (!p) return;
  layout_free(p);
  fold_block *b = (fold_block *)p->persist;
  while (b) {
    fold_block *n = b->next;
    free(b);
    b = n;
  }
  tfcc_arena_mem_free(p->mem_pool, &p->arena_mem);
  for (int32_t e = 0; p->nodes && e < p->n_nodes; e++) {
    tfcc_op_ctx *c = &p->nodes[e].ctx;
    if (c->state) { /* set by prepare (release_state) or allocated here (state_bytes: free) */
      /* not c->node: a session's plan is freed (replanned, destroyed) after the weights
       * generation it was bound to was retired, and the IR graph with it (fuzz63) */
      if (p->nodes[e].release_state)
        p->nodes[e].release_state(c->state);
      else
        free(c->state);
    }
    c->state = NULL;
    free(p->nodes[e].why_dynamic);
    free(p->nodes[e].dyn_scratch);
  }
  for (int32_t i = 0; p->dyn && i < p->n_tensors; i++) free(p->dyn[i].mem);
  free(p->dyn);
  if (p->tables_wmem)
    tfcc_wmem_free(p->tables);
  else
    free(p->tables);
  memset(p, 0, sizeof *p);
}

/* A variable tensor's initial value, as TFLite's ResetVariableTensor: every byte 0, except an
 * int8 tensor, whose bytes are its zero point (the real value 0; an int8 LSTM's output state
 * with a non-zero zero point starts there, and starting at raw 0 instead shifted its first
 * outputs by a few LSB). */
static void reset_variable(tfcc_tensor *t) {
  int value = 0;
  if (t->dtype == TFCC_INT8 && t->quant && t->quant->count > 0) value = t->quant->zero_point[0];
  memset(t->data, value, t->bytes);
}

void tfcc_exec_plan_reset_variables(tfcc_exec_plan *p) {
  for (int32_t i = 0; i < p->n_tensors; i++) {
    tfcc_tensor *t = &p->tensors[i];
    if (t->is_variable && t->data) reset_variable(t);
  }
}

static bool is_graph_input(const tfcc_ir_subgraph *sg, int32_t t) {
  for (int32_t i = 0; i < sg->n_inputs; i++)
    if (sg->inputs[i] == t) return true;
  return false;
}

/* en's prepare needs data known only at run, or en reads a dynamic tensor; err->msg says
 * which. Its outputs become dynamic tensors (kept at their stored shapes until a run). */
static tfcc_status mark_dynamic(tfcc_exec_plan *p, tfcc_exec_node *en, int32_t *producer,
                                int32_t *last_use, tfcc_err *err) {
  tfcc_op_ctx *c = &en->ctx;
  en->dynamic = true;
  en->run_known = c->needs_data;
  c->needs_data = 0;
  c->scratch_bytes = 0;
  en->why_dynamic = strdup(err->msg);
  if (!en->why_dynamic) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  tfcc_err_clear(err);
  p->n_dynamic_nodes++;
  for (int32_t k = 0; k < c->n_out; k++) {
    tfcc_tensor *t = c->out[k];
    const tfcc_ir_tensor *it = &p->sg->tensors[t->index];
    t->dynamic = true;
    t->rank = it->rank; /* the stored shape until a run sizes it */
    memcpy(t->dims, it->dims, sizeof t->dims);
    tfcc_status st = tfcc_tensor_update_bytes(t, err);
    if (st != TFCC_OK) return st;
    producer[t->index] = (int32_t)(en - p->nodes);
    last_use[t->index] = (int32_t)(en - p->nodes);
  }
  return TFCC_OK;
}

/* What dyn_reserve grows, for its messages: "dynamic tensor N" or "scratch" (tensor < 0). */
static const char *dyn_what(char what[32], int32_t tensor) {
  if (tensor < 0) return "scratch";
  snprintf(what, 32, "dynamic tensor %d", (int)tensor);
  return what;
}

/* Grows *mem to hold bytes (by at least half its size, so a slowly growing tensor reallocates
 * rarely); never shrinks. */
static tfcc_status dyn_reserve(tfcc_exec_plan *p, void **mem, size_t *cap, size_t bytes,
                               int32_t tensor, tfcc_err *err) {
  if (bytes <= *cap && *mem) return TFCC_OK;
  size_t want = *cap + *cap / 2;
  if (want < bytes) want = bytes;
  want = round_up(want ? want : 1, TFCC_ARENA_ALIGN);
  if (p->max_memory) { /* the session's limit holds for memory sized by the data too */
    const size_t held = p->arena_bytes + p->variables_bytes + p->dyn_bytes - *cap;
    if (bytes > p->max_memory || held > p->max_memory - bytes) {
      char what[32];
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY,
                          "%s needs %zu bytes, over what the session's limit of %zu bytes "
                          "(max_memory) leaves beside the %zu it holds",
                          dyn_what(what, tensor), bytes, p->max_memory, held);
    }
    if (held > p->max_memory - want)
      want = round_up(bytes, TFCC_ARENA_ALIGN); /* no growth past it */
  }
  void *m = aligned_alloc(TFCC_ARENA_ALIGN, want);
  if (!m) {
    char what[32];
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory growing %s to %zu bytes",
                        dyn_what(what, tensor), bytes);
  }
  free(*mem);
  p->dyn_bytes += want - *cap;
  *mem = m;
  *cap = want;
  return TFCC_OK;
}

tfcc_status tfcc_exec_work_over(const tfcc_exec_node *en, tfcc_err *err) {
  return tfcc_err_set(err, TFCC_ERR_DEADLINE,
                      "node %d (%s): its work estimate %lld passes the run's limit of %lld per "
                      "operator (tfcc_session_set_run_max_work)",
                      (int)en->node, tfcc_node_op_name(en->ctx.node), (long long)en->macs,
                      (long long)en->ctx.budget->max_work);
}

tfcc_status tfcc_exec_node_run_dynamic(tfcc_exec_plan *p, tfcc_exec_node *en, tfcc_err *err) {
  tfcc_op_ctx *c = &en->ctx;
  const struct tfcc_logger *log = c->log;
  uint32_t marked = 0;
  tfcc_status st;
  for (int attempt = 0;; attempt++) {
    for (int32_t k = 0; k < c->n_in && k < 32; k++)
      if ((en->run_known >> k & 1u) && c->in[k] && !c->in[k]->known) {
        c->in[k]->known = true;
        marked |= 1u << k;
      }
    c->needs_data = 0;
    c->needs_memory = false;
    c->scratch_bytes = 0;
    c->run_time = true;
    c->prepare_mem = en->dyn_scratch;
    c->prepare_mem_bytes = en->dyn_scratch ? en->dyn_scratch_cap : 0;
    c->log = NULL; /* no logging during run */
    st = c->node->op->prepare(c);
    c->log = log;
    c->run_time = false;
    c->prepare_mem = NULL;
    c->prepare_mem_bytes = 0;
    if (st == TFCC_OK) break;
    if (c->needs_memory && c->scratch_bytes > (en->dyn_scratch ? en->dyn_scratch_cap : 0) &&
        attempt < 2 * c->n_in + 2) { /* working memory for prepare (grown, kept across runs) */
      if ((st = dyn_reserve(p, &en->dyn_scratch, &en->dyn_scratch_cap, c->scratch_bytes, -1,
                            err)) != TFCC_OK)
        goto restore;
      continue;
    }
    /* a tensor read only now, after another one's value: SLICE asks for begin, then size
       (each attempt adds an operand, so at most one attempt per input) */
    uint32_t more = c->needs_data & ~en->run_known;
    if (!more || attempt >= c->n_in) goto restore;
    en->run_known |= more;
  }
  /* the run's bound on one operator's work, at the shapes just prepared: the estimate of a node
   * whose shapes come with the data (a static node's is checked by tfcc_exec_node_run) */
  if (c->budget && c->budget->max_work && c->node->op->macs) {
    en->macs = c->node->op->macs(c);
    if (en->macs > c->budget->max_work) {
      st = tfcc_exec_work_over(en, err);
      goto restore;
    }
  }
  for (int32_t k = 0; k < c->n_out && st == TFCC_OK; k++) {
    tfcc_tensor *t = c->out[k];
    if ((st = tfcc_tensor_update_bytes(t, err)) != TFCC_OK) break;
    tfcc_dyn_buf *b = &p->dyn[t->index];
    if ((st = dyn_reserve(p, &b->mem, &b->cap, t->bytes, t->index, err)) != TFCC_OK) break;
    t->data = b->mem;
  }
  if (st == TFCC_OK && c->scratch_bytes)
    st = dyn_reserve(p, &en->dyn_scratch, &en->dyn_scratch_cap, c->scratch_bytes, -1, err);
  if (st == TFCC_OK) {
    c->scratch = c->scratch_bytes ? en->dyn_scratch : tfcc_exec_empty_data;
    size_t (*const held)(const tfcc_op_ctx *) = c->node->op->dynamic_bytes;
    const size_t before = held ? held(c) : 0;
    st = c->node->op->eval(c);
    if (held) p->dyn_bytes += held(c) - before; /* outputs the operator grew itself */
  }
restore:
  for (int32_t k = 0; k < c->n_in && k < 32; k++)
    if (marked >> k & 1u) c->in[k]->known = false;
  return st;
}

static tfcc_status fold_node(tfcc_exec_plan *p, fold_block **list, tfcc_exec_node *en,
                             tfcc_err *err) {
  for (int32_t o = 0; o < en->ctx.n_out; o++) {
    tfcc_tensor *t = en->ctx.out[o];
    t->data = fold_alloc(p, list, t->bytes);
    if (!t->data)
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory folding %zu bytes", t->bytes);
  }
  void *scratch = NULL; /* freed below; the kernel gets tfcc_exec_empty_data for 0 bytes */
  if (en->ctx.scratch_bytes) {
    scratch = aligned_alloc(TFCC_ARENA_ALIGN, round_up(en->ctx.scratch_bytes, TFCC_ARENA_ALIGN));
    if (!scratch) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for scratch");
  }
  en->ctx.scratch = scratch ? scratch : tfcc_exec_empty_data;
  tfcc_status st = en->ctx.node->op->eval(&en->ctx);
  free(scratch);
  en->ctx.scratch = NULL;
  if (st != TFCC_OK) return st;
  for (int32_t o = 0; o < en->ctx.n_out; o++) en->ctx.out[o]->known = true;
  en->folded = true;
  return TFCC_OK;
}

/* ---- building a plan: the state its steps share */
typedef struct plan_build {
  tfcc_exec_plan *p;
  const tfcc_exec_env *env;
  const tfcc_kernel_set *ks; /* kernels at env->isa */
  tfcc_err *err;
  tfcc_buffer_groups g; /* lifetimes (producer, last_use per tensor) and sharing groups */
  fold_block *folds;    /* folded values and variables (the plan's persist list) */
  bool *bound;          /* tensors written straight into the caller's output buffer */
  tfcc_plan_buffer *bufs;
  int32_t *buf_tensor; /* per buffer: its tensor, or -1 - node for a node's scratch */
  int32_t nb;
} plan_build;

/* The plan's tensors from the IR at the given input shapes (NULL: stored shapes). */
static tfcc_status plan_tensors(plan_build *b, const tfcc_input_shape *shapes) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  tfcc_status st;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *it = &sg->tensors[i];
    tfcc_tensor *t = &p->tensors[i];
    t->dtype = it->dtype;
    t->rank = it->rank;
    memcpy(t->dims, it->dims, sizeof t->dims);
    tfcc_exec_plan_bind_quant(p, i, &it->quant);
    t->index = i;
    t->is_variable = it->is_variable;
    t->is_const = it->data != NULL && !it->is_variable;
    t->known = t->is_const;
    t->data = t->is_const ? (void *)it->data : NULL;
    if (t->is_const && it->sparsity) {
      t->bytes = it->data_bytes;
    } else if ((st = tfcc_tensor_update_bytes(t, b->err)) != TFCC_OK) {
      return st;
    } else if (t->is_const && t->bytes != it->data_bytes) {
      return tfcc_err_set(b->err, TFCC_ERR_INVALID_MODEL,
                          "tensor %d (%s): constant holds %zu bytes, shape needs %zu", (int)i,
                          it->name, it->data_bytes, t->bytes);
    }
    b->g.producer[i] = -1;
    b->g.last_use[i] = -1;
  }
  if (shapes) {
    for (int32_t k = 0; k < sg->n_inputs; k++) {
      tfcc_tensor *t = &p->tensors[sg->inputs[k]];
      t->rank = shapes[k].rank;
      memcpy(t->dims, shapes[k].dims, sizeof t->dims);
      if ((st = tfcc_tensor_update_bytes(t, b->err)) != TFCC_OK) return st;
    }
  }
  for (int32_t k = 0; k < sg->n_inputs; k++) {
    tfcc_tensor *t = &p->tensors[sg->inputs[k]];
    t->known = false;
    t->is_const = false;
    t->data = NULL;
  }
  return TFCC_OK;
}

/* A custom operator the runtime's user registered (not one of tfcc's own): one that may read a
 * tensor nothing writes as its scratch memory (an Ethos-U operator's `*_scratch`). tfcc's
 * operators read no such tensor: for them it stays an error. */
static bool registered_custom(const tfcc_ir_node *n) {
  return n->builtin == TFCC_OP_CUSTOM && n->op != tfcc_op_custom(n->custom_code);
}

/* Node ni as execution node ei: its context over the plan's tensors (pointer slots from *slot
 * on), its state, and the checks on what it reads and writes. *stateful: it keeps state or
 * touches a variable; *all_known: every input it reads is known now. */
static tfcc_status bind_node(plan_build *b, int32_t ni, int32_t ei, size_t *slot, bool *stateful,
                             bool *all_known) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  const tfcc_ir_node *n = &sg->nodes[ni];
  tfcc_err *err = b->err;
  tfcc_exec_node *en = &p->nodes[ei];
  en->node = ni;
  en->eval = n->op->eval;
  en->release_state = n->op->release_state;
  tfcc_op_ctx *c = &en->ctx;
  c->node = n;
  c->node_index = ni;
  c->params = n->params;
  c->err = err;
  c->isa = b->env->isa;
  c->ks = b->ks;
  c->pool = b->env->pool;
  c->log = b->env->log;
  c->rs = b->env->rs;
  c->budget = b->env->rs ? &b->env->rs->budget : NULL;
  c->in = &p->ptrs[*slot];
  c->n_in = n->n_inputs;
  *slot += (size_t)n->n_inputs;
  c->out = &p->ptrs[*slot];
  c->n_out = n->n_outputs;
  *slot += (size_t)n->n_outputs;
  c->tmp = &p->ptrs[*slot];
  c->n_tmp = n->n_intermediates;
  *slot += (size_t)n->n_intermediates;
  if (n->op->state_bytes && !(c->state = calloc(1, n->op->state_bytes)))
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "node %d (%s): out of memory for its state",
                        (int)ni, tfcc_node_op_name(n));
  *all_known = true;
  *stateful = n->op->stateful || n->op->state_bytes > 0;
  for (int32_t k = 0; k < n->n_inputs; k++) {
    int32_t ti = n->inputs[k];
    if (ti < 0) continue;
    tfcc_tensor *t = &p->tensors[ti];
    c->in[k] = t;
    if (!t->known && !n->op->reads_shapes_only) *all_known = false;
    if (t->is_variable) *stateful = true;
    if (!t->is_const && !t->known && !t->is_variable && b->g.producer[ti] < 0 &&
        !is_graph_input(sg, ti) && registered_custom(n))
      b->g.producer[ti] = ei; /* the operator's scratch (format reader): its arena buffer
                                 lives from this node on, holding whatever was there */
    else if (!t->is_const && !t->known && !t->is_variable && b->g.producer[ti] < 0 &&
             !is_graph_input(sg, ti))
      return tfcc_err_set(
          err, TFCC_ERR_INVALID_MODEL,
          "node %d (%s): input %d reads tensor %d (%s), which no earlier node writes", (int)ni,
          tfcc_node_op_name(n), (int)k, (int)ti, sg->tensors[ti].name);
    b->g.last_use[ti] = ei;
  }
  for (int32_t k = 0; k < n->n_intermediates; k++) {
    int32_t ti = n->intermediates[k];
    c->tmp[k] = ti >= 0 ? &p->tensors[ti] : NULL;
  }
  for (int32_t k = 0; k < n->n_outputs; k++) {
    int32_t ti = n->outputs[k];
    if (ti < 0) continue;
    tfcc_tensor *t = &p->tensors[ti];
    if (t->is_const || t->is_variable || is_graph_input(sg, ti) || b->g.producer[ti] >= 0)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "node %d (%s): output %d writes tensor %d (%s), which is %s", (int)ni,
                          tfcc_node_op_name(n), (int)k, (int)ti, sg->tensors[ti].name,
                          t->is_const              ? "a constant"
                          : t->is_variable         ? "a variable"
                          : b->g.producer[ti] >= 0 ? "written by an earlier node"
                                                   : "a graph input");
    c->out[k] = t;
    if (n->outputs[k] >= 0) *stateful = *stateful || t->is_variable;
  }
  for (int32_t k = 0; k < n->n_outputs; k++)
    if (!c->out[k])
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "node %d (%s): output %d is omitted (-1)",
                          (int)ni, tfcc_node_op_name(n), (int)k);
  return TFCC_OK;
}

/* Prepares execution node ei: sizes its outputs, or makes it dynamic when its shapes are known
 * only while running; folds it when every input is known, it keeps no state and its outputs
 * are small. */
static tfcc_status prepare_node(plan_build *b, int32_t ei, bool stateful, bool all_known) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  tfcc_err *err = b->err;
  tfcc_exec_node *en = &p->nodes[ei];
  tfcc_op_ctx *c = &en->ctx;
  const tfcc_ir_node *n = c->node;
  const int32_t ni = en->node;
  tfcc_status st;
  c->scratch_bytes = 0;
  c->needs_data = 0;
  int32_t dyn_in = -1;
  for (int32_t k = 0; k < n->n_inputs && dyn_in < 0; k++)
    if (c->in[k] && c->in[k]->dynamic) dyn_in = k;
  if (dyn_in >= 0) {
    st = tfcc_err_set(err, TFCC_OK, "reads dynamic tensor %d (%s)", (int)c->in[dyn_in]->index,
                      sg->tensors[c->in[dyn_in]->index].name);
  } else {
    st = n->op->prepare(c);
    if (c->state) p->n_stateful++;
    if (st != TFCC_OK && !c->needs_data) {
      tfcc_err_prefix(err, "node %d (%s)", (int)ni, tfcc_node_op_name(n));
      return st;
    }
  }
  /* Shapes known only while running: prepared again in each run (dynamic node). */
  if (dyn_in >= 0 || st != TFCC_OK) return mark_dynamic(p, en, b->g.producer, b->g.last_use, err);
  size_t out_bytes = 0;
  for (int32_t k = 0; k < n->n_outputs; k++) {
    tfcc_tensor *t = c->out[k];
    if (t->dtype != sg->tensors[t->index].dtype)
      return tfcc_err_set(err, TFCC_ERR_RUNTIME, "node %d (%s): output %d dtype changed by prepare",
                          (int)ni, tfcc_node_op_name(n), (int)k);
    if ((st = tfcc_tensor_update_bytes(t, err)) != TFCC_OK) {
      tfcc_err_prefix(err, "node %d (%s)", (int)ni, tfcc_node_op_name(n));
      return st;
    }
    out_bytes += t->bytes;
    b->g.producer[t->index] = ei;
    b->g.last_use[t->index] = ei;
  }
  if (n->op->macs) en->macs = n->op->macs(c);
  if (all_known && !stateful && out_bytes <= TFCC_FOLD_MAX_BYTES &&
      en->macs <= TFCC_FOLD_MAX_WORK && c->scratch_bytes <= TFCC_FOLD_MAX_SCRATCH &&
      (st = fold_node(p, &b->folds, en, err)) != TFCC_OK) {
    tfcc_err_prefix(err, "node %d (%s) computing at prepare time", (int)ni, tfcc_node_op_name(n));
    return st;
  }
  return TFCC_OK;
}

/* Prepare every node in order; fold what can be computed now. */
static tfcc_status prepare_nodes(plan_build *b) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  size_t slot = 0;
  tfcc_status st;
  for (int32_t ni = 0; ni < sg->n_nodes; ni++) {
    const tfcc_ir_node *n = &sg->nodes[ni];
    if (n->removed) continue;
    if (!n->op)
      return tfcc_err_set(b->err, TFCC_ERR_UNSUPPORTED, "node %d: operator %s is not supported",
                          (int)ni, tfcc_node_op_name(n));
    int32_t ei = p->n_nodes++;
    bool stateful = false, all_known = false;
    if ((st = bind_node(b, ni, ei, &slot, &stateful, &all_known)) != TFCC_OK) return st;
    if ((st = prepare_node(b, ei, stateful, all_known)) != TFCC_OK) return st;
  }
  return TFCC_OK;
}

/* Graph outputs: written in place into the caller's buffer unless they are constant, known,
 * a graph input, never written, or listed twice; those are copied at the end of run. */
static tfcc_status plan_outputs(plan_build *b) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  b->bound = calloc((size_t)sg->n_tensors + 1, sizeof *b->bound);
  if (!b->bound) return tfcc_err_set(b->err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t k = 0; k < sg->n_outputs; k++) {
    int32_t ti = sg->outputs[k];
    tfcc_tensor *t = &p->tensors[ti];
    bool produced = b->g.producer[ti] >= 0 && !t->known && !t->dynamic; /* dynamic: copied */
    if (!produced && !t->is_const && !t->known && !t->dynamic && !is_graph_input(sg, ti) &&
        !t->is_variable)
      return tfcc_err_set(b->err, TFCC_ERR_INVALID_MODEL,
                          "output %d: tensor %d (%s) is never written", (int)k, (int)ti,
                          sg->tensors[ti].name);
    if (!produced || b->bound[ti]) p->copy_outputs[p->n_copy_outputs++] = k;
    if (produced) b->bound[ti] = true;
  }
  return TFCC_OK;
}

/* Arena: every produced, non-folded tensor not bound to the caller, plus per-node scratch.
 * Tensors that share a buffer (plan/buffer_sharing.h: views, in-place outputs) form one group:
 * one buffer whose lifetime covers all of them. */
static tfcc_status plan_arena(plan_build *b) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  tfcc_status st;
  b->bufs = calloc((size_t)sg->n_tensors + (size_t)p->n_nodes + 1, sizeof *b->bufs);
  b->buf_tensor = calloc((size_t)sg->n_tensors + (size_t)p->n_nodes + 1, sizeof *b->buf_tensor);
  b->g.group = malloc(((size_t)sg->n_tensors + 1) * sizeof *b->g.group);
  if (!b->bufs || !b->buf_tensor || !b->g.group)
    return tfcc_err_set(b->err, TFCC_ERR_NO_MEMORY, "out of memory");
  int32_t *group = b->g.group;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    tfcc_tensor *t = &p->tensors[i];
    group[i] = b->g.producer[i] < 0 || t->known || t->dynamic || b->bound[i] || t->bytes == 0
                   ? -2
                   : i; /* -2: not planned */
  }
  /* views first (the node is skipped at run), then in-place outputs in node order */
  for (int32_t e = 0; e < p->n_nodes; e++)
    if (!p->nodes[e].folded && tfcc_share_view(&b->g, &p->nodes[e].ctx)) {
      p->nodes[e].view = true;
      p->n_views++;
    }
  for (int32_t e = 0; e < p->n_nodes; e++)
    if (!p->nodes[e].folded && !p->nodes[e].view &&
        tfcc_share_in_place(&b->g, &p->nodes[e].ctx, e)) {
      p->nodes[e].inplace = true;
      p->n_inplace++;
    }
  int32_t nb = 0;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    if (group[i] != i) continue; /* not planned, or shares its group root's buffer */
    b->bufs[nb] = (tfcc_plan_buffer){p->tensors[i].bytes, b->g.producer[i], b->g.last_use[i], 0};
    b->buf_tensor[nb++] = i;
  }
  for (int32_t e = 0; e < p->n_nodes; e++) {
    if (p->nodes[e].folded || p->nodes[e].ctx.scratch_bytes == 0) continue;
    b->bufs[nb] = (tfcc_plan_buffer){p->nodes[e].ctx.scratch_bytes, e, e, 0};
    b->buf_tensor[nb++] = -1 - e;
  }
  b->nb = nb;
  if ((st = tfcc_arena_plan(b->bufs, nb, TFCC_ARENA_ALIGN, &p->arena_bytes, b->err)) != TFCC_OK)
    return st;
  p->arena_lower_bound = tfcc_arena_lower_bound(b->bufs, nb, TFCC_ARENA_ALIGN);
  for (int32_t k = 0; k < nb; k++) p->naive_bytes += round_up(b->bufs[k].size, TFCC_ARENA_ALIGN);
  /* Variables: persistent, zeroed. */
  for (int32_t i = 0; i < sg->n_tensors; i++)
    if (p->tensors[i].is_variable) p->variables_bytes += p->tensors[i].bytes;
  return TFCC_OK;
}

_Alignas(64) unsigned char tfcc_exec_empty_data[64];

/* The memory: dynamic tensors' table, the arena (tensors and scratch at their offsets, group
 * members at their root's bytes), the variables; empty tensors at tfcc_exec_empty_data. */
static tfcc_status plan_memory(plan_build *b) {
  tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  tfcc_status st;
  const size_t limit = b->env->max_memory;
  p->max_memory = limit;
  if (limit && (p->arena_bytes > limit || p->variables_bytes > limit - p->arena_bytes))
    return tfcc_err_set(b->err, TFCC_ERR_NO_MEMORY,
                        "subgraph %d needs %zu bytes (arena %zu + variable tensors %zu), over "
                        "the session's limit of %zu bytes (max_memory)",
                        (int)p->subgraph, p->arena_bytes + p->variables_bytes, p->arena_bytes,
                        p->variables_bytes, limit);
  if (p->n_dynamic_nodes > 0) {
    p->dyn = calloc((size_t)sg->n_tensors + 1, sizeof *p->dyn);
    if (!p->dyn) return tfcc_err_set(b->err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  p->mem_pool = b->env->mem;
  if ((st = tfcc_arena_mem_alloc(b->env->mem, p->arena_bytes, &p->arena_mem, b->err)) != TFCC_OK)
    return st;
  p->arena = p->arena_mem.ptr;
  for (int32_t k = 0; k < b->nb; k++) {
    if (b->buf_tensor[k] >= 0)
      p->tensors[b->buf_tensor[k]].data = p->arena + b->bufs[k].offset;
    else
      p->nodes[-1 - b->buf_tensor[k]].ctx.scratch = p->arena + b->bufs[k].offset;
  }
  /* no scratch: the empty tensors' non-NULL address, so that a kernel's memset / memcpy of the
     0 bytes its sizes give it is defined (a TRANSPOSE_CONV of output height 0 cleared its
     int64 accumulators at NULL) */
  for (int32_t e = 0; e < p->n_nodes; e++)
    if (!p->nodes[e].ctx.scratch) p->nodes[e].ctx.scratch = tfcc_exec_empty_data;
  for (int32_t i = 0; i < sg->n_tensors; i++)
    if (b->g.group[i] >= 0 && b->g.group[i] != i)
      p->tensors[i].data = p->tensors[tfcc_buffer_group_root(&b->g, i)].data;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    tfcc_tensor *t = &p->tensors[i];
    if (!t->is_variable) continue;
    t->data = fold_alloc(p, &b->folds, t->bytes);
    if (!t->data)
      return tfcc_err_set(b->err, TFCC_ERR_NO_MEMORY,
                          "cannot allocate variable tensor %d (%zu bytes)", (int)i, t->bytes);
    reset_variable(t);
  }
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    tfcc_tensor *t = &p->tensors[i];
    if (!t->data && t->bytes == 0) t->data = tfcc_exec_empty_data;
  }
  return TFCC_OK;
}

/* The plan's run-time tables (exec_plan.h: tables) in one zeroed block, in the order a run
 * reads them: nodes, io, ptrs (ctx.in/out/tmp), tensors, quant_copy, copy_outputs. false: out of
 * memory. */
static bool plan_tables(tfcc_exec_plan *p, bool hot, bool rewhole) {
  const tfcc_ir_subgraph *sg = p->sg;
  size_t n_slots = 0;
  for (int32_t i = 0; i < sg->n_nodes; i++)
    n_slots += (size_t)sg->nodes[i].n_inputs + (size_t)sg->nodes[i].n_outputs +
               (size_t)sg->nodes[i].n_intermediates;
  const size_t n_io = (size_t)sg->n_inputs + (size_t)sg->n_outputs;
  const size_t o_io = round_up(((size_t)sg->n_nodes + 1) * sizeof *p->nodes, 64);
  const size_t o_ptrs = o_io + round_up((n_io + 1) * sizeof *p->io, 64);
  const size_t o_tensors = o_ptrs + round_up((n_slots + 1) * sizeof *p->ptrs, 64);
  const size_t o_quant = o_tensors + round_up(((size_t)sg->n_tensors + 1) * sizeof *p->tensors, 64);
  const size_t o_copy = o_quant + round_up(((size_t)sg->n_tensors + 1) * sizeof *p->quant_copy, 64);
  const size_t bytes = o_copy + ((size_t)sg->n_outputs + 1) * sizeof *p->copy_outputs;
  uint8_t *m = hot ? tfcc_wmem_alloc_spare(bytes, rewhole) : NULL;
  if (m) {
    memset(m, 0, bytes);
    p->tables_wmem = true;
  } else if (!(m = calloc(1, bytes))) {
    return false;
  }
  p->tables = m;
  p->tables_bytes = bytes;
  p->nodes = (tfcc_exec_node *)(void *)m;
  p->io = (tfcc_tensor **)(void *)(m + o_io);
  p->ptrs = (tfcc_tensor **)(void *)(m + o_ptrs);
  p->tensors = (tfcc_tensor *)(void *)(m + o_tensors);
  p->quant_copy = (tfcc_quant_copy *)(void *)(m + o_quant);
  p->copy_outputs = (int32_t *)(void *)(m + o_copy);
  p->n_inputs = sg->n_inputs;
  p->n_outputs = sg->n_outputs;
  for (int32_t k = 0; k < sg->n_inputs; k++) p->io[k] = &p->tensors[sg->inputs[k]];
  for (int32_t k = 0; k < sg->n_outputs; k++) p->io[sg->n_inputs + k] = &p->tensors[sg->outputs[k]];
  return true;
}

tfcc_status tfcc_exec_plan_build(tfcc_exec_plan *p, const tfcc_graph *g, int32_t subgraph,
                                 const tfcc_input_shape *shapes, bool with_memory,
                                 const tfcc_exec_env *env, tfcc_err *err) {
  memset(p, 0, sizeof *p);
  if (subgraph < 0 || subgraph >= g->n_subgraphs)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "subgraph %d does not exist", (int)subgraph);
  const tfcc_ir_subgraph *sg = &g->subgraphs[subgraph];
  plan_build b = {.p = p, .env = env, .ks = tfcc_kernel_set_for(env->isa), .err = err};
  tfcc_status st = TFCC_OK;
  p->graph = g;
  p->sg = sg;
  p->subgraph = subgraph;
  p->n_tensors = sg->n_tensors;
  b.g.producer = malloc(((size_t)sg->n_tensors + 1) * sizeof *b.g.producer);
  b.g.last_use = malloc(((size_t)sg->n_tensors + 1) * sizeof *b.g.last_use);
  if (!plan_tables(p, env->hot_tables, env->rewhole) || !b.g.producer || !b.g.last_use)
    st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory planning %d tensors",
                      (int)sg->n_tensors);
  if (st == TFCC_OK) st = plan_tensors(&b, shapes);
  if (st == TFCC_OK) st = prepare_nodes(&b);
  if (st == TFCC_OK) st = plan_outputs(&b);
  if (st == TFCC_OK) st = plan_arena(&b);
  if (st == TFCC_OK && with_memory) st = plan_memory(&b);
  if (st == TFCC_OK && !with_memory && env->keep_layout) { /* tfcc_exec_plan_add_memory */
    if (!(p->layout = malloc(sizeof *p->layout))) {
      st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    } else {
      *p->layout = (tfcc_plan_layout){b.bufs, b.buf_tensor, b.g.group, b.nb};
      b.bufs = NULL;
      b.buf_tensor = NULL;
      b.g.group = NULL;
    }
  }
  p->persist = (uint8_t *)b.folds;
  free(b.g.producer);
  free(b.g.last_use);
  free(b.g.group);
  free(b.bound);
  free(b.bufs);
  free(b.buf_tensor);
  if (st != TFCC_OK) tfcc_exec_plan_free(p);
  return st;
}

/* ptr moved with the block [lo, lo + n) to `to`; a pointer outside it unchanged. */
static void *moved(const void *ptr, uintptr_t lo, size_t n, uint8_t *to) {
  const uintptr_t v = (uintptr_t)ptr;
  return v >= lo && v - lo < n ? (void *)(to + (v - lo)) : (void *)(uintptr_t)ptr;
}

/* The plan's tables (built in a calloc'd block) moved where a session's build puts them: a
 * block cut from the packed weights' last huge page (plan_tables, hot), every pointer into the
 * old block pointed at the same place in the new one. Kept where they are when that does not
 * fit there (as a build then callocs them). */
static void move_tables(tfcc_exec_plan *p, bool rewhole) {
  if (p->tables_wmem || !p->tables) return;
  uint8_t *m = tfcc_wmem_alloc_spare(p->tables_bytes, rewhole);
  if (!m) return;
  memcpy(m, p->tables, p->tables_bytes);
  const uintptr_t lo = (uintptr_t)p->tables;
  const size_t n = p->tables_bytes;
  p->nodes = moved(p->nodes, lo, n, m);
  p->io = moved(p->io, lo, n, m);
  p->ptrs = moved(p->ptrs, lo, n, m);
  p->tensors = moved(p->tensors, lo, n, m);
  p->quant_copy = moved(p->quant_copy, lo, n, m);
  p->copy_outputs = moved(p->copy_outputs, lo, n, m);
  for (int32_t e = 0; e < p->n_nodes; e++) {
    tfcc_op_ctx *c = &p->nodes[e].ctx;
    c->in = moved(c->in, lo, n, m);
    c->out = moved(c->out, lo, n, m);
    c->tmp = moved(c->tmp, lo, n, m);
  }
  const tfcc_ir_subgraph *sg = p->sg;
  size_t n_slots = 0;
  for (int32_t i = 0; i < sg->n_nodes; i++)
    n_slots += (size_t)sg->nodes[i].n_inputs + (size_t)sg->nodes[i].n_outputs +
               (size_t)sg->nodes[i].n_intermediates;
  for (size_t k = 0; k < n_slots; k++) p->ptrs[k] = moved(p->ptrs[k], lo, n, m);
  for (int32_t k = 0; k < p->n_inputs + p->n_outputs; k++) p->io[k] = moved(p->io[k], lo, n, m);
  for (int32_t i = 0; i < p->n_tensors; i++) {
    p->tensors[i].quant = moved(p->tensors[i].quant, lo, n, m);
    p->quant_copy[i].q.scale = moved(p->quant_copy[i].q.scale, lo, n, m);
    p->quant_copy[i].q.zero_point = moved(p->quant_copy[i].q.zero_point, lo, n, m);
  }
  free(p->tables);
  p->tables = m;
  p->tables_wmem = true;
}

tfcc_status tfcc_exec_plan_add_memory(tfcc_exec_plan *p, const tfcc_exec_env *env, tfcc_err *err) {
  tfcc_plan_layout *l = p->layout;
  if (!l || p->arena) {
    tfcc_exec_plan_free(p);
    return tfcc_err_set(err, TFCC_ERR_STATE, "the plan was not built to be given memory later");
  }
  if (env->hot_tables) move_tables(p, env->rewhole);
  for (int32_t e = 0; e < p->n_nodes; e++) { /* as bind_node sets them for env */
    tfcc_op_ctx *c = &p->nodes[e].ctx;
    c->err = err;
    c->rs = env->rs;
    c->budget = env->rs ? &env->rs->budget : NULL; /* not the load's run state, long gone */
    c->pool = env->pool;
    c->log = env->log;
  }
  plan_build b = {.p = p, .env = env, .ks = tfcc_kernel_set_for(env->isa), .err = err};
  b.g.group = l->group;
  b.bufs = l->bufs;
  b.buf_tensor = l->buf_tensor;
  b.nb = l->nb;
  b.folds = (fold_block *)p->persist;
  tfcc_status st = plan_memory(&b);
  p->persist = (uint8_t *)b.folds;
  layout_free(p);
  if (st != TFCC_OK) tfcc_exec_plan_free(p);
  return st;
}
