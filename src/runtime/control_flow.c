/* Operators that run other subgraphs: WHILE, IF, CALL_ONCE, CALL, STABLEHLO_COMPOSITE and
 * STABLEHLO_CASE (TensorFlow Lite's while.cc, if.cc, call_once.cc, stablehlo_case.cc semantics). Each called subgraph has its own execution plan (its own
 * tensors and arena), built by the operator's prepare for the shapes it is called with and
 * kept in the operator's per-plan state; it is built again only when those shapes change.
 *
 * WHILE: loop variables alternate between two buffer sets (the body reads one and writes the
 * other), so no loop variable is copied between iterations; the final values are copied once
 * into the outputs. When the body keeps every shape, the outputs are static and the buffers
 * are sized at prepare; when it changes one, the outputs are dynamic tensors sized at run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"
#include "runtime/run_state.h"

#define CF_ALIGN 64

typedef struct cf_sub {
  int32_t index; /* subgraph */
  bool built;
  tfcc_exec_plan plan;
} cf_sub;

typedef struct cf_state {
  tfcc_run_state *rs; /* counts the subgraph plans alive (rs->n_plans) */
  cf_sub *sub;        /* [n_sub]: the called subgraphs (STABLEHLO_CASE: its branches) */
  int32_t n_sub;
  int32_t n;             /* loop variables (WHILE) or outputs */
  tfcc_dyn_buf *loop[2]; /* WHILE: two sets of [n] loop variable buffers */
  tfcc_dyn_buf cond;     /* WHILE: the condition's output */
  tfcc_dyn_buf *out;     /* [n]: memory of dynamic outputs */
  tfcc_tensor *cur;      /* [n]: WHILE's current loop variables */
  tfcc_tensor **cur_ptrs;
  void **dst; /* [n] scratch for sub_run */
  size_t *cap;
  tfcc_dyn_buf **grow;
} cf_state;

static void cf_release(void *state) {
  cf_state *st = state;
  if (!st) return;
  for (int32_t k = 0; st->sub && k < st->n_sub; k++)
    if (st->sub[k].built) {
      tfcc_exec_plan_free(&st->sub[k].plan);
      st->rs->n_plans--;
    }
  free(st->sub);
  for (int k = 0; k < 2; k++) {
    for (int32_t i = 0; st->loop[k] && i < st->n; i++) free(st->loop[k][i].mem);
    free(st->loop[k]);
  }
  for (int32_t i = 0; st->out && i < st->n; i++) free(st->out[i].mem);
  free(st->cond.mem);
  free(st->out);
  free(st->cur);
  free(st->cur_ptrs);
  free(st->dst);
  free(st->cap);
  free(st->grow);
  free(st);
}

static const char *op_name(const tfcc_op_ctx *ctx) { return tfcc_builtin_name(ctx->node->builtin); }

static tfcc_status state_get(tfcc_op_ctx *ctx, int32_t n, cf_state **out) {
  if (!ctx->rs)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s runs subgraphs: it needs a session",
                        op_name(ctx));
  cf_state *st = ctx->state;
  if (!st) {
    st = calloc(1, sizeof *st);
    if (!st) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
    ctx->state = st;
    st->rs = ctx->rs;
    st->n = n;
    size_t m = (size_t)n + 1;
    st->loop[0] = calloc(m, sizeof(tfcc_dyn_buf));
    st->loop[1] = calloc(m, sizeof(tfcc_dyn_buf));
    st->out = calloc(m, sizeof(tfcc_dyn_buf));
    st->cur = calloc(m, sizeof(tfcc_tensor));
    st->cur_ptrs = calloc(m, sizeof(tfcc_tensor *));
    st->dst = calloc(m, sizeof(void *));
    st->cap = calloc(m, sizeof(size_t));
    st->grow = calloc(m, sizeof(tfcc_dyn_buf *));
    if (!st->loop[0] || !st->loop[1] || !st->out || !st->cur || !st->cur_ptrs || !st->dst ||
        !st->cap || !st->grow)
      return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
    for (int32_t k = 0; k < n; k++) st->cur_ptrs[k] = &st->cur[k];
    const tfcc_op_options *o = &ctx->node->opts;
    st->n_sub = o->kind == TFCC_OPTIONS_STABLEHLO_CASE ? o->shlo_case.n_branches : 2;
    st->sub = st->n_sub > 0 ? calloc((size_t)st->n_sub, sizeof *st->sub) : NULL;
    if (st->n_sub < 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          "%s: no branch subgraphs (StablehloCaseOptions "
                          "missing or without branch_subgraph_indices)",
                          op_name(ctx));
    if (!st->sub) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
    if (o->kind == TFCC_OPTIONS_STABLEHLO_CASE) {
      for (int32_t k = 0; k < st->n_sub; k++) st->sub[k].index = o->shlo_case.branch[k];
    } else {
      st->sub[0].index = o->subgraphs.first;
      st->sub[1].index = o->subgraphs.second;
    }
  }
  if (!st->sub)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: no subgraphs to run", op_name(ctx));
  if (st->n != n)
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME, "%s: %d values, prepared with %d", op_name(ctx),
                        (int)n, (int)st->n);
  *out = st;
  return TFCC_OK;
}

/* Grows b to hold bytes (never shrinks). */
static tfcc_status reserve(tfcc_dyn_buf *b, size_t bytes, tfcc_err *err) {
  if (b->mem && bytes <= b->cap) return TFCC_OK;
  size_t want = b->cap + b->cap / 2;
  if (want < bytes) want = bytes;
  want = (want + CF_ALIGN - 1) & ~(size_t)(CF_ALIGN - 1);
  if (!want) want = CF_ALIGN;
  void *m = aligned_alloc(CF_ALIGN, want);
  if (!m)
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for %zu bytes of loop state",
                        bytes);
  free(b->mem);
  b->mem = m;
  b->cap = want;
  return TFCC_OK;
}

static bool same_shape(int32_t ra, const int32_t *a, int32_t rb, const int32_t *b) {
  if (ra != rb) return false;
  for (int32_t d = 0; d < ra; d++)
    if (a[d] != b[d]) return false;
  return true;
}

static const tfcc_tensor *sub_output(const cf_sub *s, int32_t k) {
  return &s->plan.tensors[s->plan.sg->outputs[k]];
}

/* Plans subgraph s for the n inputs in (a no-op when it is planned for their shapes). */
static tfcc_status sub_plan(tfcc_op_ctx *ctx, cf_sub *s, int32_t n, tfcc_tensor *const *in) {
  tfcc_run_state *rs = ctx->rs;
  const tfcc_graph *g = rs->graph;
  const tfcc_ir_subgraph *sg = &g->subgraphs[s->index];
  if (sg->n_inputs != n)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "%s: subgraph %d has %d inputs, the operator passes %d", op_name(ctx),
                        (int)s->index, (int)sg->n_inputs, (int)n);
  bool same = s->built;
  for (int32_t k = 0; k < n; k++) {
    const tfcc_ir_tensor *it = &sg->tensors[sg->inputs[k]];
    if (it->dtype != in[k]->dtype)
      return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE,
                          "%s: subgraph %d input %d (%s) is %s, the operator passes %s",
                          op_name(ctx), (int)s->index, (int)k, it->name, tfcc_dtype_name(it->dtype),
                          tfcc_dtype_name(in[k]->dtype));
    if (same) {
      const tfcc_tensor *t = &s->plan.tensors[sg->inputs[k]];
      same = same_shape(t->rank, t->dims, in[k]->rank, in[k]->dims);
    }
  }
  if (same) return TFCC_OK;
  if (rs->depth >= TFCC_MAX_SUBGRAPH_DEPTH)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: subgraph calls nest deeper than %d",
                        op_name(ctx), TFCC_MAX_SUBGRAPH_DEPTH);
  if (!s->built && rs->n_plans >= TFCC_MAX_SUBGRAPH_PLANS)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_UNSUPPORTED,
        "%s: subgraph %d would be the %dth subgraph plan of this session (at most %d: the "
        "model's subgraph calls multiply)",
        op_name(ctx), (int)s->index, (int)rs->n_plans + 1, TFCC_MAX_SUBGRAPH_PLANS);
  tfcc_input_shape *shapes = calloc((size_t)n + 1, sizeof *shapes);
  if (!shapes) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t k = 0; k < n; k++) {
    shapes[k].rank = in[k]->rank;
    memcpy(shapes[k].dims, in[k]->dims, sizeof shapes[k].dims);
  }
  tfcc_exec_plan next;
  bool running = rs->running;
  rs->running = false; /* the subgraph's own nodes are being planned, not run */
  rs->depth++;
  tfcc_status st =
      tfcc_exec_plan_build(&next, g, s->index, shapes, rs->with_memory, &rs->env, ctx->err);
  rs->depth--;
  rs->running = running;
  free(shapes);
  if (st != TFCC_OK) return tfcc_err_prefix(ctx->err, "subgraph %d", (int)s->index);
  if (s->built)
    tfcc_exec_plan_free(&s->plan);
  else
    rs->n_plans++;
  s->plan = next;
  s->built = true;
  return TFCC_OK;
}

/* Makes *dst (of *cap bytes) hold output k's `bytes`: grown through grow when not NULL, else a
 * size error naming the subgraph and output. */
static tfcc_status fit_output(tfcc_op_ctx *ctx, const cf_sub *s, int32_t k, size_t bytes,
                              void **dst, size_t *cap, tfcc_dyn_buf *grow) {
  if (bytes <= *cap) return TFCC_OK;
  if (!grow)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "%s: subgraph %d output %d needs %zu bytes, %zu planned", op_name(ctx),
                        (int)s->index, (int)k, bytes, *cap);
  tfcc_status st = reserve(grow, bytes, ctx->err);
  if (st != TFCC_OK) return st;
  *dst = grow->mem;
  *cap = grow->cap;
  return TFCC_OK;
}

/* Runs planned subgraph s on in; output k goes to dst[k] (cap[k] bytes; grown through grow[k]
 * when not NULL, else a size error). */
static tfcc_status sub_run(tfcc_op_ctx *ctx, cf_sub *s, tfcc_tensor *const *in, void **dst,
                           size_t *cap, tfcc_dyn_buf **grow) {
  tfcc_exec_plan *p = &s->plan;
  const tfcc_ir_subgraph *sg = p->sg;
  tfcc_err *err = ctx->err;
  tfcc_status st;
  for (int32_t k = 0; k < sg->n_inputs; k++) p->tensors[sg->inputs[k]].data = in[k]->data;
  int32_t c = 0;
  for (int32_t k = 0; k < sg->n_outputs; k++) {
    if (c < p->n_copy_outputs && p->copy_outputs[c] == k) {
      c++;
      continue;
    }
    tfcc_tensor *t = &p->tensors[sg->outputs[k]];
    if ((st = fit_output(ctx, s, k, t->bytes, &dst[k], &cap[k], grow[k])) != TFCC_OK) return st;
    t->data = dst[k];
  }
  for (int32_t e = 0; e < p->n_nodes; e++) {
    tfcc_exec_node *en = &p->nodes[e];
    if (en->folded || en->view) continue;
    if ((st = tfcc_run_check(ctx->rs, err)) != TFCC_OK) return st;
    en->ctx.err = err;
    st = tfcc_exec_node_run(p, en, err);
    if (st != TFCC_OK)
      return tfcc_err_prefix(err, "subgraph %d node %d (%s)", (int)s->index, (int)en->node,
                             tfcc_node_op_name(en->ctx.node));
  }
  for (int32_t i = 0; i < p->n_copy_outputs; i++) {
    int32_t k = p->copy_outputs[i];
    const tfcc_tensor *t = &p->tensors[sg->outputs[k]];
    if ((st = fit_output(ctx, s, k, t->bytes, &dst[k], &cap[k], grow[k])) != TFCC_OK) return st;
    if (t->bytes && dst[k] != t->data) memmove(dst[k], t->data, t->bytes);
  }
  return TFCC_OK;
}

/* Output k of a node takes the shape of tensor src (static: must already have it). */
static tfcc_status take_shape(tfcc_op_ctx *ctx, int32_t k, const tfcc_tensor *src) {
  tfcc_tensor *o = ctx->out[k];
  if (o->dtype != src->dtype)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: output %d is %s, the subgraph gives %s",
                        op_name(ctx), (int)k, tfcc_dtype_name(o->dtype),
                        tfcc_dtype_name(src->dtype));
  tfcc_status st = tfcc_tensor_set_shape(o, src->rank, src->dims, ctx->err);
  if (st == TFCC_OK) st = tfcc_tensor_update_bytes(o, ctx->err);
  return st;
}

/* ---------------------------------------------------------------- WHILE */

static tfcc_status while_prepare(tfcc_op_ctx *ctx) {
  int32_t n = ctx->n_in;
  cf_state *st = NULL;
  tfcc_status s = state_get(ctx, n, &st);
  if (s != TFCC_OK) return s;
  if (ctx->n_out != n)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "WHILE: %d inputs but %d outputs", (int)n,
                        (int)ctx->n_out);
  for (int32_t k = 0; k < n; k++) {
    if (!ctx->in[k])
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "WHILE: input %d is omitted", (int)k);
    if (ctx->in[k]->dtype != ctx->out[k]->dtype)
      return tfcc_err_set(
          ctx->err, TFCC_ERR_DTYPE, "WHILE: loop variable %d is %s, output %d is %s", (int)k,
          tfcc_dtype_name(ctx->in[k]->dtype), (int)k, tfcc_dtype_name(ctx->out[k]->dtype));
  }
  cf_sub *cond = &st->sub[0], *body = &st->sub[1];
  if ((s = sub_plan(ctx, cond, n, ctx->in)) != TFCC_OK) return s;
  const tfcc_ir_subgraph *csg = cond->plan.sg;
  if (csg->n_outputs != 1 || sub_output(cond, 0)->dtype != TFCC_BOOL)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "WHILE: cond subgraph %d must have one bool output (it has %d outputs)",
                        (int)cond->index, (int)csg->n_outputs);
  if ((s = sub_plan(ctx, body, n, ctx->in)) != TFCC_OK) return s;
  if (body->plan.sg->n_outputs != n)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "WHILE: body subgraph %d has %d outputs for %d loop variables",
                        (int)body->index, (int)body->plan.sg->n_outputs, (int)n);
  int32_t changed = -1;
  for (int32_t k = 0; k < n; k++) {
    const tfcc_tensor *b = sub_output(body, k);
    if (b->dtype != ctx->in[k]->dtype)
      return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE,
                          "WHILE: body subgraph %d output %d is %s, loop variable %d is %s",
                          (int)body->index, (int)k, tfcc_dtype_name(b->dtype), (int)k,
                          tfcc_dtype_name(ctx->in[k]->dtype));
    if (changed < 0 &&
        (b->dynamic || !same_shape(b->rank, b->dims, ctx->in[k]->rank, ctx->in[k]->dims)))
      changed = k;
  }
  for (int32_t k = 0; k < n; k++)
    if ((s = take_shape(ctx, k, ctx->in[k])) != TFCC_OK) return s;
  if (ctx->rs->running) return TFCC_OK; /* a dynamic WHILE: eval sizes the outputs */
  if (changed >= 0) {
    char a[96], b[96];
    const tfcc_tensor *bo = sub_output(body, changed);
    return TFCC_OP_NEEDS_DATA(
        ctx, ctx->in[0],
        "WHILE: body subgraph %d changes the shape of loop variable %d (%s -> %s%s); "
        "the outputs are sized while running",
        (int)body->index, (int)changed,
        tfcc_shape_str(ctx->in[changed]->rank, ctx->in[changed]->dims, a, sizeof a),
        tfcc_shape_str(bo->rank, bo->dims, b, sizeof b), bo->dynamic ? ", dynamic" : "");
  }
  if (ctx->rs->with_memory) { /* static: the loop buffers are sized now, run allocates nothing */
    for (int32_t k = 0; k < n; k++)
      for (int w = 0; w < 2; w++)
        if ((s = reserve(&st->loop[w][k], ctx->in[k]->bytes, ctx->err)) != TFCC_OK) return s;
    if ((s = reserve(&st->cond, sub_output(cond, 0)->bytes, ctx->err)) != TFCC_OK) return s;
  }
  return TFCC_OK;
}

static tfcc_status while_eval(tfcc_op_ctx *ctx) {
  cf_state *st = ctx->state;
  int32_t n = st->n;
  cf_sub *cond = &st->sub[0], *body = &st->sub[1];
  tfcc_status s;
  for (int32_t k = 0; k < n; k++) st->cur[k] = *ctx->in[k];
  for (uint64_t iter = 0;; iter++) {
    if ((s = tfcc_run_check(ctx->rs, ctx->err)) != TFCC_OK)
      return tfcc_err_prefix(ctx->err, "WHILE iteration %llu", (unsigned long long)iter);
    if ((s = sub_plan(ctx, cond, n, st->cur_ptrs)) != TFCC_OK) return s;
    void *cdst = st->cond.mem;
    size_t ccap = st->cond.cap;
    tfcc_dyn_buf *cgrow = &st->cond;
    if ((s = sub_run(ctx, cond, st->cur_ptrs, &cdst, &ccap, &cgrow)) != TFCC_OK) return s;
    const tfcc_tensor *ct = sub_output(cond, 0);
    if (ct->bytes < 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                          "WHILE: cond subgraph %d gave an empty condition", (int)cond->index);
    if (!*(const uint8_t *)cdst) break; /* a bool byte: any non-zero value is true */
    if ((s = sub_plan(ctx, body, n, st->cur_ptrs)) != TFCC_OK) return s;
    tfcc_dyn_buf *set = st->loop[iter & 1];
    for (int32_t k = 0; k < n; k++) {
      st->dst[k] = set[k].mem;
      st->cap[k] = set[k].mem ? set[k].cap : 0;
      st->grow[k] = &set[k];
    }
    if ((s = sub_run(ctx, body, st->cur_ptrs, st->dst, st->cap, st->grow)) != TFCC_OK) return s;
    for (int32_t k = 0; k < n; k++) {
      const tfcc_tensor *b = sub_output(body, k);
      st->cur[k].rank = b->rank;
      memcpy(st->cur[k].dims, b->dims, sizeof b->dims);
      st->cur[k].bytes = b->bytes;
      st->cur[k].data = st->dst[k];
    }
  }
  for (int32_t k = 0; k < n; k++) {
    tfcc_tensor *o = ctx->out[k];
    const tfcc_tensor *c = &st->cur[k];
    if (o->dynamic) {
      if ((s = take_shape(ctx, k, c)) != TFCC_OK) return s;
      if ((s = reserve(&st->out[k], o->bytes, ctx->err)) != TFCC_OK) return s;
      o->data = st->out[k].mem;
    } else if (!same_shape(o->rank, o->dims, c->rank, c->dims)) {
      char a[96], b[96];
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                          "WHILE: loop variable %d ended as %s, planned as %s", (int)k,
                          tfcc_shape_str(c->rank, c->dims, a, sizeof a),
                          tfcc_shape_str(o->rank, o->dims, b, sizeof b));
    }
    if (c->bytes && o->data != c->data) memmove(o->data, c->data, c->bytes);
  }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- IF, CALL, STABLEHLO_CASE */

typedef enum { BRANCH_CALL, BRANCH_IF, BRANCH_CASE } branch_kind;

/* The subgraph a selector value picks: IF's bool (then 0, else 1); STABLEHLO_CASE's int32
 * index, where an index outside [0, n) picks the last branch (StableHLO's case; TFLite's
 * stablehlo_case.cc). */
static int branch_of(const cf_state *st, branch_kind kind, const void *sel) {
  if (kind == BRANCH_IF) return *(const uint8_t *)sel ? 0 : 1;
  if (kind == BRANCH_CASE) {
    int32_t i;
    memcpy(&i, sel, sizeof i);
    return i < 0 || i >= st->n_sub ? st->n_sub - 1 : i;
  }
  return 0;
}

/* IF: input 0 is the condition, the branches take inputs 1..; STABLEHLO_CASE: input 0 is the
 * int32 branch index, likewise; CALL, STABLEHLO_COMPOSITE: one subgraph, all inputs. */
static tfcc_status branch_prepare(tfcc_op_ctx *ctx, branch_kind kind) {
  cf_state *st = NULL;
  tfcc_status s = state_get(ctx, ctx->n_out, &st);
  if (s != TFCC_OK) return s;
  int32_t first = kind == BRANCH_CALL ? 0 : 1, n_in = ctx->n_in - first;
  if (n_in < 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: no %s input", op_name(ctx),
                        kind == BRANCH_IF ? "condition" : "branch index");
  for (int32_t k = 0; k < ctx->n_in; k++)
    if (!ctx->in[k])
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: input %d is omitted", op_name(ctx),
                          (int)k);
  int32_t n_sub = kind == BRANCH_CALL ? 1 : st->n_sub;
  int chosen = 0; /* -1: every branch (the selector is not known yet) */
  if (kind != BRANCH_CALL) {
    const tfcc_tensor *c = ctx->in[0];
    tfcc_dtype want = kind == BRANCH_IF ? TFCC_BOOL : TFCC_INT32;
    if (c->dtype != want || tfcc_tensor_elements(c) != 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          "%s: the %s must be one %s (it is %s with %lld elements)", op_name(ctx),
                          kind == BRANCH_IF ? "condition" : "branch index", tfcc_dtype_name(want),
                          tfcc_dtype_name(c->dtype), (long long)tfcc_tensor_elements(c));
    chosen = c->known || ctx->rs->running ? branch_of(st, kind, c->data) : -1;
  }
  int32_t differs = -1,
          ref = -1; /* ref: the first branch planned, whose shapes the others must match */
  for (int32_t b = 0; b < n_sub; b++) {
    if (chosen >= 0 && b != chosen) continue;
    cf_sub *sub = &st->sub[b];
    if ((s = sub_plan(ctx, sub, n_in, ctx->in + first)) != TFCC_OK) return s;
    if (sub->plan.sg->n_outputs != ctx->n_out)
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          "%s: subgraph %d has %d outputs, the operator %d", op_name(ctx),
                          (int)sub->index, (int)sub->plan.sg->n_outputs, (int)ctx->n_out);
    for (int32_t k = 0; k < ctx->n_out; k++) {
      const tfcc_tensor *o = sub_output(sub, k);
      if (differs < 0 && o->dynamic) differs = k;
      if (ref >= 0 && differs < 0) {
        const tfcc_tensor *t = sub_output(&st->sub[ref], k);
        if (!same_shape(t->rank, t->dims, o->rank, o->dims)) differs = k;
      }
      if ((s = take_shape(ctx, k, o)) != TFCC_OK) return s;
    }
    if (ref < 0) ref = b;
  }
  if (ctx->rs->running || differs < 0) return TFCC_OK;
  return TFCC_OP_NEEDS_DATA(
      ctx, ctx->in[0], "%s: output %d's shape depends on %s; it is sized while running",
      op_name(ctx), (int)differs, chosen < 0 ? "which branch runs" : "data the subgraph computes");
}

static tfcc_status branch_eval(tfcc_op_ctx *ctx, branch_kind kind) {
  cf_state *st = ctx->state;
  int32_t first = kind == BRANCH_CALL ? 0 : 1;
  cf_sub *sub = &st->sub[branch_of(st, kind, kind == BRANCH_CALL ? NULL : ctx->in[0]->data)];
  tfcc_status s = sub_plan(ctx, sub, ctx->n_in - first, ctx->in + first);
  if (s != TFCC_OK) return s;
  for (int32_t k = 0; k < ctx->n_out; k++) {
    tfcc_tensor *o = ctx->out[k];
    st->dst[k] = o->dynamic ? st->out[k].mem : o->data;
    st->cap[k] = o->dynamic ? (st->out[k].mem ? st->out[k].cap : 0) : o->bytes;
    st->grow[k] = o->dynamic ? &st->out[k] : NULL;
  }
  if ((s = sub_run(ctx, sub, ctx->in + first, st->dst, st->cap, st->grow)) != TFCC_OK) return s;
  for (int32_t k = 0; k < ctx->n_out; k++) {
    tfcc_tensor *o = ctx->out[k];
    if (!o->dynamic) continue;
    if ((s = take_shape(ctx, k, sub_output(sub, k))) != TFCC_OK) return s;
    o->data = st->dst[k];
  }
  return TFCC_OK;
}

static tfcc_status if_prepare(tfcc_op_ctx *ctx) { return branch_prepare(ctx, BRANCH_IF); }
static tfcc_status if_eval(tfcc_op_ctx *ctx) { return branch_eval(ctx, BRANCH_IF); }
static tfcc_status call_prepare(tfcc_op_ctx *ctx) { return branch_prepare(ctx, BRANCH_CALL); }
static tfcc_status call_eval(tfcc_op_ctx *ctx) { return branch_eval(ctx, BRANCH_CALL); }
static tfcc_status case_prepare(tfcc_op_ctx *ctx) { return branch_prepare(ctx, BRANCH_CASE); }
static tfcc_status case_eval(tfcc_op_ctx *ctx) { return branch_eval(ctx, BRANCH_CASE); }

/* ---------------------------------------------------------------- CALL_ONCE */

static tfcc_status call_once_prepare(tfcc_op_ctx *ctx) {
  cf_state *st = NULL;
  tfcc_status s = state_get(ctx, 0, &st);
  if (s != TFCC_OK) return s;
  if (ctx->n_in != 0 || ctx->n_out != 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "CALL_ONCE: has %d inputs and %d outputs, takes none", (int)ctx->n_in,
                        (int)ctx->n_out);
  if ((s = sub_plan(ctx, &st->sub[0], 0, NULL)) != TFCC_OK) return s;
  if (st->sub[0].plan.sg->n_outputs != 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "CALL_ONCE: init subgraph %d has %d outputs, must have none",
                        (int)st->sub[0].index, (int)st->sub[0].plan.sg->n_outputs);
  return TFCC_OK;
}

static tfcc_status call_once_eval(tfcc_op_ctx *ctx) {
  cf_state *st = ctx->state;
  int32_t idx = st->sub[0].index;
  if (ctx->rs->once_done[idx]) return TFCC_OK;
  tfcc_status s = sub_run(ctx, &st->sub[0], NULL, NULL, NULL, NULL);
  if (s == TFCC_OK) ctx->rs->once_done[idx] = true;
  return s;
}

const tfcc_op_def tfcc_op_while = {.name = "WHILE",
                                   .prepare = while_prepare,
                                   .eval = while_eval,
                                   .stateful = true,
                                   .release_state = cf_release};
const tfcc_op_def tfcc_op_if = {.name = "IF",
                                .prepare = if_prepare,
                                .eval = if_eval,
                                .stateful = true,
                                .release_state = cf_release};
const tfcc_op_def tfcc_op_call = {.name = "CALL",
                                  .prepare = call_prepare,
                                  .eval = call_eval,
                                  .stateful = true,
                                  .release_state = cf_release};
/* opsc: STABLEHLO_COMPOSITE runs its decomposition subgraph as CALL runs its subgraph
 * (TFLite stablehlo_composite.cc). */
const tfcc_op_def tfcc_op_stablehlo_composite = {.name = "STABLEHLO_COMPOSITE",
                                                 .prepare = call_prepare,
                                                 .eval = call_eval,
                                                 .stateful = true,
                                                 .release_state = cf_release};
const tfcc_op_def tfcc_op_call_once = {.name = "CALL_ONCE",
                                       .prepare = call_once_prepare,
                                       .eval = call_once_eval,
                                       .stateful = true,
                                       .release_state = cf_release};
/* ops: STABLEHLO_CASE runs the branch its int32 index selects (TFLite stablehlo_case.cc). */
const tfcc_op_def tfcc_op_stablehlo_case = {.name = "STABLEHLO_CASE",
                                            .prepare = case_prepare,
                                            .eval = case_eval,
                                            .stateful = true,
                                            .release_state = cf_release};
