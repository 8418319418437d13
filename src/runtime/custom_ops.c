/* Custom operators registered on a runtime: the public registration call, and the operator
 * definition each registration becomes. The definition's init/prepare/eval build the
 * tfcc_custom_tensor views the user's callbacks read: at prepare in memory of the prepare call,
 * at eval in the front of the node's scratch (planned in the arena with the rest of the
 * scratch), so that a run allocates nothing. */
#include "runtime/custom_ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

#define CUSTOM_ALIGN 64
/* Views (inputs + outputs) prepare keeps on its stack; more are allocated. */
#define PREPARE_LOCAL_VIEWS 16

struct tfcc_custom_reg {
  tfcc_op_def def; /* first: a node's op pointer is the registration */
  tfcc_custom_op op;
  char name[TFCC_CUSTOM_OP_NAME_MAX + 1];
  tfcc_custom_reg *next;
};

/* A node's params: its registration (for release) and the user's node data. */
typedef struct custom_params {
  const tfcc_custom_reg *reg;
  void *node_data;
} custom_params;

/* Per-plan state of a node whose prepare marked outputs dynamic (ctx->state, made by the
 * prepare of the first run, released with the plan): for each output, whether prepare marked
 * it, whether this eval sized it, and the memory tfcc_custom_output_resize gave it (grown only,
 * by at least half, as the session's dynamic tensors). */
typedef struct custom_dyn_out {
  bool marked, sized;
  void *mem;
  size_t cap;
} custom_dyn_out;

typedef struct custom_dyn {
  int32_t n_out;
  custom_dyn_out out[];
} custom_dyn;

/* ctx->internal_: where tfcc_custom_op_error writes; at eval, the node (for resizes). */
typedef struct custom_call {
  tfcc_err *err;
  bool set;
  tfcc_op_ctx *eval_oc; /* eval only */
} custom_call;

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static const tfcc_custom_reg *reg_of(const tfcc_ir_node *n) {
  return (const tfcc_custom_reg *)n->op;
}

void tfcc_custom_op_default(tfcc_custom_op *op) {
  if (!op) return;
  memset(op, 0, sizeof *op);
  op->struct_size = sizeof *op;
}

static tfcc_status custom_op_verror(tfcc_custom_ctx *ctx, tfcc_status code, const char *fmt,
                                    va_list ap) {
  if (code == TFCC_OK) code = TFCC_ERR_RUNTIME; /* an error with status OK is still an error */
  if (!ctx || !ctx->internal_ || !fmt) return code;
  custom_call *call = ctx->internal_;
  char msg[TFCC_ERR_MSG_MAX];
  vsnprintf(msg, sizeof msg, fmt, ap);
  tfcc_err_set(call->err, code, "%s", msg);
  call->set = true;
  return code;
}

tfcc_status tfcc_custom_op_error(tfcc_custom_ctx *ctx, tfcc_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tfcc_status st = custom_op_verror(ctx, code, fmt, ap);
  va_end(ap);
  return st;
}

/* A callback's result: its status, with a message naming the step when it set none. */
static tfcc_status finish_call(const custom_call *call, tfcc_status st, const char *op,
                               const char *step) {
  if (st == TFCC_OK) return TFCC_OK;
  if ((unsigned)st >= TFCC_STATUS_COUNT_) st = TFCC_ERR_RUNTIME;
  if (!call->set)
    return tfcc_err_set(call->err, st, "custom operator %s: %s failed (%s) without a message", op,
                        step, tfcc_status_str(st));
  return tfcc_err_prefix(call->err, "%s", step);
}

static void base_ctx(tfcc_custom_ctx *c, const tfcc_custom_reg *reg, const tfcc_ir_node *n,
                     int32_t node, custom_call *call) {
  memset(c, 0, sizeof *c);
  c->struct_size = sizeof *c;
  c->op_name = reg->name;
  c->node = node;
  c->options = n->custom_options;
  c->options_size = n->custom_options_len;
  c->op_user = reg->op.user;
  c->input_count = n->n_inputs;
  c->output_count = n->n_outputs;
  c->internal_ = call;
}

static tfcc_status custom_init(tfcc_init_ctx *ic) {
  const tfcc_custom_reg *reg = reg_of(ic->node);
  custom_params *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(ic->err, TFCC_ERR_NO_MEMORY, "out of memory");
  p->reg = reg;
  if (reg->op.init) {
    custom_call call = {.err = ic->err, .set = false};
    tfcc_custom_ctx c;
    base_ctx(&c, reg, ic->node, ic->node_index, &call);
    tfcc_status st = finish_call(&call, reg->op.init(&c), reg->name, "init");
    if (st != TFCC_OK) {
      free(p);
      return st;
    }
    p->node_data = c.node_data;
  }
  ic->params = p;
  return TFCC_OK;
}

static void custom_release(void *params) {
  custom_params *p = params;
  if (!p) return;
  if (p->reg->op.free) p->reg->op.free(p->reg->op.user, p->node_data);
  free(p);
}

static void fill_view(tfcc_custom_tensor *v, const tfcc_tensor *t, bool with_data) {
  memset(v, 0, sizeof *v);
  v->struct_size = sizeof *v;
  v->tensor = t->index;
  v->dtype = t->dtype;
  v->rank = t->rank;
  memcpy(v->dims, t->dims, sizeof(int32_t) * (size_t)(t->rank > 0 ? t->rank : 0));
  v->bytes = t->bytes;
  v->data = with_data ? t->data : NULL;
  v->is_const = t->is_const || t->known;
  v->is_dynamic = t->dynamic;
  if (t->quant) {
    v->quant_count = t->quant->count;
    v->scales = t->quant->scale;
    v->zero_points = t->quant->zero_point;
    v->quant_axis = t->quant->axis;
  }
}

/* Bytes of the views of a node (pointer arrays first, then the structs), 64-byte rounded. */
static size_t views_bytes(int32_t n_in, int32_t n_out) {
  size_t n = (size_t)n_in + (size_t)n_out;
  return n ? round_up(n * (sizeof(void *) + sizeof(tfcc_custom_tensor)), CUSTOM_ALIGN) : 0;
}

/* Lays out and fills the views in mem; inputs' data only when known (prepare) or always (eval). */
static void build_views(const tfcc_op_ctx *oc, void *mem, bool eval, tfcc_custom_ctx *c) {
  const size_t n = (size_t)oc->n_in + (size_t)oc->n_out;
  void **ptrs = mem;
  tfcc_custom_tensor *views = (tfcc_custom_tensor *)(ptrs + n);
  for (int32_t k = 0; k < oc->n_in; k++) {
    ptrs[k] = NULL;
    if (!oc->in[k]) continue;
    fill_view(&views[k], oc->in[k], eval || oc->in[k]->known || oc->in[k]->is_const);
    ptrs[k] = &views[k];
  }
  const custom_dyn *dyn = oc->state;
  for (int32_t k = 0; k < oc->n_out; k++) {
    fill_view(&views[oc->n_in + k], oc->out[k], eval);
    /* prepare marks the outputs it wants sized by eval; eval sees which it must size */
    views[oc->n_in + k].is_dynamic = eval && dyn && dyn->out[k].marked;
    ptrs[oc->n_in + k] = &views[oc->n_in + k];
  }
  c->inputs = (const tfcc_custom_tensor *const *)ptrs;
  c->outputs = (tfcc_custom_tensor *const *)(ptrs + oc->n_in);
}

/* The buffers tfcc_custom_output_resize grew for this node (the session counts them with its
 * dynamic tensors). */
static size_t custom_dynamic_bytes(const tfcc_op_ctx *oc) {
  const custom_dyn *d = oc->state;
  size_t n = 0;
  for (int32_t k = 0; d && k < d->n_out; k++) n += d->out[k].cap;
  return n;
}

static void custom_release_state(void *state) {
  custom_dyn *d = state;
  if (!d) return;
  for (int32_t k = 0; k < d->n_out; k++) free(d->out[k].mem);
  free(d);
}

/* prepare marked some outputs dynamic (mask `marked`, bit per output below 32; `first` the
 * lowest). While the session plans, the node becomes a dynamic node: it asks for the data of
 * its inputs, so that it is prepared again in each run, before its eval (exec_plan.c). In that
 * run-time prepare (its outputs are dynamic tensors then) the marked outputs get zero elements
 * until eval sizes them; the state remembers which eval must size. */
static tfcc_status prepare_dynamic(tfcc_op_ctx *oc, const tfcc_custom_ctx *c, int32_t first,
                                   const char *name) {
  if (!oc->out[first]->dynamic) {
    int32_t asked = -1;
    for (int32_t k = 0; k < oc->n_in && k < 32; k++) {
      if (!oc->in[k]) continue;
      if (asked < 0 || !oc->in[k]->known) tfcc_op_mark_needs_data(oc, oc->in[k]);
      if (asked < 0) asked = k;
    }
    if (!oc->needs_data) oc->needs_data = 1u; /* no input: still prepared in each run */
    return tfcc_err_set(oc->err, TFCC_ERR_UNSUPPORTED,
                        "CUSTOM:%s: output %d's shape depends on input values: set by eval "
                        "(tfcc_custom_output_resize) in each run",
                        name, (int)first);
  }
  custom_dyn *d = oc->state;
  if (!d) { /* the first run of this plan: kept until the plan is freed */
    d = calloc(1, sizeof *d + sizeof(custom_dyn_out) * (size_t)oc->n_out);
    if (!d) return tfcc_err_set(oc->err, TFCC_ERR_NO_MEMORY, "out of memory");
    d->n_out = oc->n_out;
    oc->state = d;
  }
  for (int32_t k = 0; k < oc->n_out; k++) {
    d->out[k].marked = c->outputs[k]->is_dynamic != 0;
    if (!d->out[k].marked) continue;
    tfcc_tensor *t = oc->out[k];
    for (int32_t i = 0; i < t->rank; i++) t->dims[i] = 0; /* nothing until eval sizes it */
  }
  return TFCC_OK;
}

static tfcc_status custom_prepare(tfcc_op_ctx *oc) {
  const tfcc_custom_reg *reg = reg_of(oc->node);
  const custom_params *p = oc->params;
  const size_t vb = views_bytes(oc->n_in, oc->n_out);
  /* on the stack for the usual few tensors: a node whose input is dynamic is prepared again in
   * every run, which allocates nothing for it */
  _Alignas(CUSTOM_ALIGN)
      uint8_t local[PREPARE_LOCAL_VIEWS * (sizeof(void *) + sizeof(tfcc_custom_tensor))];
  void *mem = vb <= sizeof local ? (vb ? local : NULL) : malloc(vb);
  if (vb && !mem) return tfcc_err_set(oc->err, TFCC_ERR_NO_MEMORY, "out of memory");
  custom_call call = {.err = oc->err, .set = false};
  tfcc_custom_ctx c;
  base_ctx(&c, reg, oc->node, oc->node_index, &call);
  c.node_data = p ? p->node_data : NULL;
  if (mem) build_views(oc, mem, false, &c);
  tfcc_status st = finish_call(&call, reg->op.prepare(&c), reg->name, "prepare");
  int32_t first_dynamic = -1;
  for (int32_t k = 0; st == TFCC_OK && k < oc->n_out; k++) {
    const tfcc_custom_tensor *v = c.outputs[k];
    if (v->is_dynamic && first_dynamic < 0) first_dynamic = k;
    tfcc_tensor *t = oc->out[k];
    if (v->dtype != t->dtype) {
      st = tfcc_err_set(
          oc->err, TFCC_ERR_DTYPE,
          "prepare: output %d: dtype set to %s, the model's is %s (custom operators keep the "
          "model's output dtypes)",
          (int)k, tfcc_dtype_name(v->dtype), tfcc_dtype_name(t->dtype));
      break;
    }
    if (v->rank < 0 || v->rank > TFCC_MAX_DIMS) {
      st = tfcc_err_set(oc->err, TFCC_ERR_SHAPE, "prepare: output %d: rank %d out of 0..%d", (int)k,
                        (int)v->rank, TFCC_MAX_DIMS);
      break;
    }
    for (int32_t d = 0; d < v->rank && st == TFCC_OK; d++)
      if (v->dims[d] < 0)
        st = tfcc_err_set(oc->err, TFCC_ERR_SHAPE, "prepare: output %d: dimension %d is %d", (int)k,
                          (int)d, (int)v->dims[d]);
    if (st == TFCC_OK) st = tfcc_tensor_set_shape(t, v->rank, v->dims, oc->err);
  }
  if (st == TFCC_OK && first_dynamic >= 0) st = prepare_dynamic(oc, &c, first_dynamic, reg->name);
  const size_t user_scratch = c.scratch_bytes;
  if (mem != (void *)local) free(mem);
  if (st != TFCC_OK) return st;
  if (user_scratch > SIZE_MAX / 2)
    return tfcc_err_set(oc->err, TFCC_ERR_NO_MEMORY, "prepare: scratch of %zu bytes asked",
                        user_scratch);
  oc->scratch_bytes = vb + user_scratch;
  return TFCC_OK;
}

static tfcc_status custom_eval(tfcc_op_ctx *oc) {
  const tfcc_custom_reg *reg = reg_of(oc->node);
  const custom_params *p = oc->params;
  const size_t vb = views_bytes(oc->n_in, oc->n_out);
  custom_call call = {.err = oc->err, .set = false};
  tfcc_custom_ctx c;
  base_ctx(&c, reg, oc->node, oc->node_index, &call);
  c.node_data = p ? p->node_data : NULL;
  if (vb) build_views(oc, oc->scratch, true, &c);
  c.scratch_bytes = oc->scratch_bytes - vb;
  c.scratch = c.scratch_bytes ? (uint8_t *)oc->scratch + vb : NULL;
  custom_dyn *d = oc->state;
  call.eval_oc = oc;
  for (int32_t k = 0; d && k < d->n_out; k++) d->out[k].sized = false;
  tfcc_status st = finish_call(&call, reg->op.eval(&c), reg->name, "eval");
  for (int32_t k = 0; st == TFCC_OK && d && k < d->n_out; k++)
    if (d->out[k].marked && !d->out[k].sized)
      st = tfcc_err_set(
          oc->err, TFCC_ERR_RUNTIME,
          "eval: output %d is dynamic (marked by prepare) and eval did not size it with "
          "tfcc_custom_output_resize",
          (int)k);
  return st;
}

tfcc_status tfcc_custom_output_resize(tfcc_custom_ctx *ctx, int32_t output, int32_t rank,
                                      const int32_t *dims) {
  if (!ctx || !ctx->internal_) return TFCC_ERR_INVALID_ARG;
  const custom_call *call = ctx->internal_;
  tfcc_op_ctx *oc = call->eval_oc;
  custom_dyn *d = oc ? oc->state : NULL;
  if (output < 0 || output >= ctx->output_count)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_ARG,
                                "tfcc_custom_output_resize: output %d out of 0..%d", (int)output,
                                (int)ctx->output_count - 1);
  if (!d || !d->out[output].marked)
    return tfcc_custom_op_error(
        ctx, TFCC_ERR_STATE, "tfcc_custom_output_resize: output %d %s", (int)output,
        !oc ? "can be sized only in eval"
            : "is not dynamic (its prepare did not set is_dynamic): its shape is prepare's");
  if (rank < 0 || rank > TFCC_MAX_DIMS || (rank > 0 && !dims))
    return tfcc_custom_op_error(
        ctx, TFCC_ERR_SHAPE, "tfcc_custom_output_resize: output %d: rank %d out of 0..%d%s",
        (int)output, (int)rank, TFCC_MAX_DIMS, rank > 0 && !dims ? " (dims NULL)" : "");
  tfcc_tensor *t = oc->out[output];
  size_t bytes = tfcc_dtype_size(t->dtype);
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0)
      return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE,
                                  "tfcc_custom_output_resize: output %d: dimension %d is %d",
                                  (int)output, (int)i, (int)dims[i]);
    if (dims[i] && bytes > SIZE_MAX / 2 / (size_t)dims[i])
      return tfcc_custom_op_error(ctx, TFCC_ERR_NO_MEMORY,
                                  "tfcc_custom_output_resize: output %d: the shape is too large",
                                  (int)output);
    bytes *= (size_t)dims[i];
  }
  custom_dyn_out *o = &d->out[output];
  if (bytes > o->cap || !o->mem) { /* grow: the only allocation of a run, as dynamic tensors */
    size_t want = o->cap + o->cap / 2;
    if (want < bytes) want = bytes;
    want = round_up(want ? want : 1, CUSTOM_ALIGN);
    void *m = aligned_alloc(CUSTOM_ALIGN, want);
    if (!m)
      return tfcc_custom_op_error(ctx, TFCC_ERR_NO_MEMORY,
                                  "tfcc_custom_output_resize: output %d: out of memory "
                                  "for %zu bytes",
                                  (int)output, bytes);
    free(o->mem);
    o->mem = m;
    o->cap = want;
  }
  t->rank = rank;
  for (int32_t i = 0; i < rank; i++) t->dims[i] = dims[i];
  t->bytes = bytes;
  t->data = o->mem;
  o->sized = true;
  tfcc_custom_tensor *v = ctx->outputs[output];
  v->rank = rank;
  memset(v->dims, 0, sizeof v->dims);
  for (int32_t i = 0; i < rank; i++) v->dims[i] = dims[i];
  v->bytes = bytes;
  v->data = o->mem;
  return TFCC_OK;
}

static const char *custom_kernel(const tfcc_op_ctx *oc) { return "custom"; }

/* ---------------------------------------------------------------- the table */

tfcc_status tfcc_custom_table_init(tfcc_custom_table *t, tfcc_err *err) {
  memset(t, 0, sizeof *t);
  if (pthread_mutex_init(&t->lock, NULL) != 0)
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "cannot create a mutex");
  t->lock_init = true;
  return TFCC_OK;
}

void tfcc_custom_table_free(tfcc_custom_table *t) {
  for (tfcc_custom_reg *r = t->head; r;) {
    tfcc_custom_reg *next = r->next;
    free(r);
    r = next;
  }
  t->head = NULL;
  if (t->lock_init) pthread_mutex_destroy(&t->lock);
  t->lock_init = false;
}

static tfcc_custom_reg *find_locked(tfcc_custom_table *t, const char *name) {
  for (tfcc_custom_reg *r = t->head; r; r = r->next)
    if (strcmp(r->name, name) == 0) return r;
  return NULL;
}

const tfcc_op_def *tfcc_custom_table_find(tfcc_custom_table *t, const char *name) {
  if (!t || !t->lock_init || !name) return NULL;
  pthread_mutex_lock(&t->lock);
  tfcc_custom_reg *r = find_locked(t, name);
  pthread_mutex_unlock(&t->lock);
  return r ? &r->def : NULL;
}

static tfcc_status reg_fail(tfcc_status st, const char *fmt, ...) TFCC_PRINTF(2, 3);
static tfcc_status reg_fail(tfcc_status st, const char *fmt, ...) {
  char msg[TFCC_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tfcc_last_error_set(msg);
  return st;
}

tfcc_status tfcc_runtime_register_custom_op(tfcc_runtime *rt, const tfcc_custom_op *op) {
  const char *fn = "tfcc_runtime_register_custom_op";
  if (!rt || !op)
    return reg_fail(TFCC_ERR_INVALID_ARG, "%s: %s is NULL", fn, !rt ? "runtime" : "op");
  if (op->struct_size < offsetof(tfcc_custom_op, user) + sizeof op->user ||
      op->struct_size > sizeof *op)
    return reg_fail(TFCC_ERR_INVALID_ARG,
                    "%s: op.struct_size %zu is not set by tfcc_custom_op_default()", fn,
                    op->struct_size);
  tfcc_custom_op o;
  tfcc_custom_op_default(&o);
  memcpy(&o, op, op->struct_size);
  if (!o.name || !o.name[0])
    return reg_fail(TFCC_ERR_INVALID_ARG, "%s: op.name is %s", fn, o.name ? "empty" : "NULL");
  size_t len = strnlen(o.name, TFCC_CUSTOM_OP_NAME_MAX + 1);
  if (len > TFCC_CUSTOM_OP_NAME_MAX)
    return reg_fail(TFCC_ERR_INVALID_ARG, "%s: op.name '%.32s...' is longer than %d bytes", fn,
                    o.name, TFCC_CUSTOM_OP_NAME_MAX);
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)o.name[i] < 0x20 || o.name[i] == 0x7f)
      return reg_fail(TFCC_ERR_INVALID_ARG, "%s: op.name has a control character at byte %zu", fn,
                      i);
  if (!o.prepare || !o.eval)
    return reg_fail(TFCC_ERR_INVALID_ARG, "%s: custom operator %s has no %s callback", fn, o.name,
                    !o.prepare ? "prepare" : "eval");
  tfcc_custom_reg *r = calloc(1, sizeof *r);
  if (!r) return reg_fail(TFCC_ERR_NO_MEMORY, "%s: out of memory", fn);
  memcpy(r->name, o.name, len);
  r->op = o;
  r->op.name = r->name;
  r->def = (tfcc_op_def){.name = r->name,
                         .init = custom_init,
                         .release = custom_release,
                         .prepare = custom_prepare,
                         .eval = custom_eval,
                         .kernel = custom_kernel,
                         .release_state = custom_release_state,
                         .dynamic_bytes = custom_dynamic_bytes};
  tfcc_custom_table *t = &rt->custom;
  pthread_mutex_lock(&t->lock);
  const bool dup = find_locked(t, r->name) != NULL;
  if (!dup) {
    r->next = t->head;
    t->head = r;
    t->count++;
  }
  pthread_mutex_unlock(&t->lock);
  if (dup) {
    tfcc_status st =
        reg_fail(TFCC_ERR_STATE, "%s: custom operator %s is already registered on this runtime", fn,
                 r->name);
    free(r);
    return st;
  }
  return TFCC_OK;
}

int tfcc_runtime_custom_op_count(const tfcc_runtime *rt) {
  if (!rt) return 0;
  tfcc_custom_table *t = (tfcc_custom_table *)&rt->custom;
  pthread_mutex_lock(&t->lock);
  int n = t->count;
  pthread_mutex_unlock(&t->lock);
  return n;
}

void tfcc_custom_api_get(tfcc_custom_api *api) {
  if (!api) return;
  memset(api, 0, sizeof *api);
  api->struct_size = sizeof *api;
  api->register_custom_op = tfcc_runtime_register_custom_op;
  api->custom_op_count = tfcc_runtime_custom_op_count;
  api->custom_op_verror = custom_op_verror;
  api->custom_output_resize = tfcc_custom_output_resize;
  api->last_error = tfcc_last_error;
  api->status_str = tfcc_status_str;
  api->dtype_name = tfcc_dtype_name;
  api->dtype_size = tfcc_dtype_size;
  api->version = tfcc_version;
}
