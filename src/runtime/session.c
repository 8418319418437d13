/* tfcc_session: one execution plan and arena per caller; run() computes only. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "runtime/device_backend.h"
#include "runtime/internal.h"
#include "runtime/weights_cache.h"
#include "base/threadpool.h"

void tfcc_model_tensor_info_(const tfcc_model *m, int32_t subgraph, int32_t tensor,
                             const int32_t *dims, int32_t rank, tfcc_tensor_info *info);

/* Operator name of node i of the session's subgraph (static strings; op_names cover subgraph 0). */
static const char *node_name(const tfcc_session *s, int32_t i) {
  if (s->subgraph == 0) return s->model->op_names[i];
  const tfcc_ir_node *n = &s->sg->nodes[i];
  return n->builtin == TFCC_OP_CUSTOM ? (n->custom_code ? n->custom_code : "CUSTOM")
                                      : tfcc_builtin_name(n->builtin);
}

/* The signature name of tensor t of the session's subgraph, or NULL. */
static const char *sig_name(const tfcc_session *s, int32_t t, bool input) {
  const tfcc_ir_signature *sig = s->sig;
  if (!sig) return NULL;
  int32_t n = input ? sig->n_inputs : sig->n_outputs;
  for (int32_t k = 0; k < n; k++)
    if ((input ? sig->input_tensors[k] : sig->output_tensors[k]) == t)
      return input ? sig->input_names[k] : sig->output_names[k];
  return NULL;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static tfcc_status profile_alloc(tfcc_session *s);

void tfcc_session_options_default(tfcc_session_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
}

/* A session has a plan once one was built (at creation, or by a resize after a creation at
 * placeholder shapes: s->unplanned says why there is none yet). */
static bool planned(const tfcc_session *s) { return s->gen != NULL; }

/* The error of a call that needs a plan on a session that has none yet. */
static tfcc_status no_plan(tfcc_session *s) {
  tfcc_log(s->model->rt ? &s->model->rt->log : NULL, TFCC_LOG_DEBUG, TFCC_TAG_SESSION,
           "no plan: %s", s->unplanned.msg);
  tfcc_err_set(&s->err, TFCC_ERR_STATE,
               "the model cannot run at its inputs' stored shapes (%s): resize its inputs "
               "(tfcc_session_resize_input) to the shapes you run",
               s->unplanned.msg);
  return TFCC_ERR_STATE;
}

/* resizes of up to this many inputs at once keep their old shapes on the stack */
#define TFCC_MAX_INPUTS_RESIZED_ 16

static tfcc_status session_fail(tfcc_session *s, tfcc_status st) {
  tfcc_log(s->model->rt ? &s->model->rt->log : NULL, TFCC_LOG_DEBUG, TFCC_TAG_SESSION, "%s",
           s->err.msg);
  return st;
}

/* The model's load plan (tfcc_model.spare_plan) for the session's first plan, when it is one
 * this session would build: subgraph 0 at the stored input shapes (a session's shapes until it
 * resizes), on generation 0 (the load's weights: the plan points at their constants and
 * params). The other options (prefault, max_memory) only act when it is given memory. */
static tfcc_exec_plan *take_load_plan(tfcc_session *s, const tfcc_weights *w) {
  tfcc_model *m = s->model;
  if (planned(s) || s->subgraph != 0 || w != &m->gen0 ||
      !atomic_load_explicit(&m->spare_plan, memory_order_relaxed))
    return NULL;
  for (int32_t i = 0; i < s->sg->n_inputs; i++) {
    const tfcc_ir_tensor *t = &s->sg->tensors[s->sg->inputs[i]];
    if (s->shapes[i].rank != t->rank ||
        memcmp(s->shapes[i].dims, t->dims, (size_t)t->rank * sizeof *t->dims) != 0)
      return NULL;
  }
  return atomic_exchange_explicit(&m->spare_plan, NULL, memory_order_acq_rel);
}

/* Constants from this size on are read ahead by touch_consts. */
#define TOUCH_CONST_MIN ((size_t)64 << 10)

/* The constants a run reads in place (not packed at load: a batch-1 16x8 FULLY_CONNECTED's
 * filter, a float depthwise filter kept as stored) lie in the model's private copy of its file,
 * on 4 KiB pages where the load split its huge pages; on a paravirtualised VM the first user
 * access of each such page costs even though it is resident (MobileNetV2 int16x8 without a
 * cache: its FULLY_CONNECTED's first run 1.7-2.5 ms against 0.03-0.07, docs/weights_cache.md
 * "cache59"). Reads a byte of each resident page of every constant input (64 KiB or more) of
 * the plan's nodes; pages given back at the load (MADV_DONTNEED: not resident) are left alone,
 * so nothing becomes resident that was not. Only for a private anonymous copy (mincore says what is
 * resident there, not what a file's page cache holds). */
static void touch_consts(const tfcc_exec_plan *p) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  const long sz = sysconf(_SC_PAGESIZE);
  const size_t pg = sz > 0 ? (size_t)sz : 4096;
  unsigned char vec[256];
  uint8_t sum = 0;
  for (int32_t e = 0; e < p->n_nodes; e++) {
    const tfcc_exec_node *en = &p->nodes[e];
    for (int32_t k = 0; !en->folded && k < en->ctx.n_in; k++) {
      const tfcc_tensor *t = en->ctx.in[k];
      if (!t || !t->is_const || !t->data || t->bytes < TOUCH_CONST_MIN) continue;
      const uintptr_t lo = (uintptr_t)t->data, end = lo + t->bytes;
      for (uintptr_t a = lo / pg * pg; a < end;) {
        size_t n = (end - a + pg - 1) / pg;
        if (n > sizeof vec) n = sizeof vec;
        if (mincore((void *)a, n * pg, vec) != 0) break;
        for (size_t i = 0; i < n; i++) {
          const uintptr_t at = a + i * pg < lo ? lo : a + i * pg;
          if ((vec[i] & 1) && at < end) sum ^= *(const volatile uint8_t *)at;
        }
        a += n * pg;
      }
    }
  }
  (void)sum;
#else
  (void)p;
#endif
}

/* Reads a byte of each page of [p, p + n). */
static void read_pages(const uint8_t *p, size_t n) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  const long sz = sysconf(_SC_PAGESIZE);
  const size_t pg = sz > 0 ? (size_t)sz : 4096;
  uint8_t sum = 0;
  for (size_t o = 0; o < n; o += pg) sum ^= ((const volatile uint8_t *)p)[o];
  (void)sum;
#else
  (void)p, (void)n;
#endif
}

/* The default prefault's reads of the session's generation (the current one, referenced
 * meanwhile: a generation retired since the plan was made is not read), once per generation
 * and subgraph: the weights cache's pages (generation 0; an update's cache is read when it is
 * built), the constants its plan reads in place (touch_consts) and the last packed bytes, which
 * the load's trim left in 4 KiB pages (tfcc_wmem_trim: on the test VM the first user access of
 * each cost the first run of a small model 0.4-1 ms). Later sessions of the same weights find
 * them read: session creation no longer pays them again (docs/bench.md, "close18"). */
static void touch_generation(tfcc_session *s) {
  tfcc_model *m = s->model;
  tfcc_weights *w = tfcc_weights_acquire(m);
  const unsigned bit = s->subgraph < 32 ? 1u << s->subgraph : 0u;
  if (w == s->gen && (!bit || !(atomic_load(&w->touched) & bit))) {
    if (w == &m->gen0) tfcc_wcache_prefault(m->wcache);
    /* not under TFCC_DEBUG_RELEASE_TRAP: the pages it gave back stay resident there, made
     * inaccessible, where mincore cannot tell them from kept ones */
    if (w->consts_copy && !m->crel.trap) touch_consts(&s->plan);
    read_pages(w->small, w->small_len);
    atomic_fetch_or(&w->touched, bit);
    atomic_fetch_add_explicit(&w->reads, 1, memory_order_relaxed);
  }
  tfcc_weights_release(m, w);
}

/* Builds the plan against generation w (referenced by the caller). */
static tfcc_status replan_on(tfcc_session *s, tfcc_weights *w) {
  tfcc_exec_plan next;
  tfcc_exec_env env = tfcc_model_env(s->model);
  env.rs = &s->rs;
  env.hot_tables = true; /* a run reads them: on the weights' huge page when they fit there */
  env.rewhole = s->prefault;
  env.max_memory = s->max_memory;
  s->rs.graph = w->graph;
  tfcc_exec_plan *load_plan = take_load_plan(s, w);
  tfcc_status st;
  if (load_plan) { /* prepared and laid out at load: memory only */
    next = *load_plan;
    free(load_plan);
    st = tfcc_exec_plan_add_memory(&next, &env, &s->err);
    s->plan_handed_on = st == TFCC_OK;
  } else {
    st = tfcc_exec_plan_build(&next, w->graph, s->subgraph, s->shapes, true, &env, &s->err);
  }
  if (st != TFCC_OK) {
    if (st == TFCC_ERR_NO_MEMORY)
      tfcc_log(s->model->rt ? &s->model->rt->log : NULL, TFCC_LOG_ERROR, TFCC_TAG_MEM_ALLOC_FAIL,
               "%s", s->err.msg);
    return st;
  }
  const tfcc_device *dev = s->model->dev_model ? s->model->rt->device : NULL;
  tfcc_exec_plan_free(&s->plan);
  s->plan = next;
  s->gen = w;
  s->ran = false;
  if (dev) { /* the device's plan of this one (nodes it lacks fall back to the CPU's) */
    st = s->dev_sess ? dev->be->session_replan(s->dev_sess, &s->plan, &s->err)
                     : dev->be->session_open(s->model->dev_model, &s->plan, &s->dev_sess, &s->err);
    if (st != TFCC_OK) return st;
  }
  /* subgraph plans hold operator params of this generation: a new one replans */
  s->folds_read_consts = s->plan.n_stateful > 0;
  for (int32_t e = 0; e < s->plan.n_nodes; e++) {
    const tfcc_exec_node *en = &s->plan.nodes[e];
    if (!en->folded) continue;
    for (int32_t k = 0; k < en->ctx.n_in; k++)
      if (en->ctx.in[k] && en->ctx.in[k]->is_const) s->folds_read_consts = true;
  }
  return profile_alloc(s);
}

static tfcc_status replan(tfcc_session *s) {
  tfcc_weights *w = tfcc_weights_acquire(s->model);
  tfcc_status st = replan_on(s, w);
  tfcc_weights_release(s->model, w);
  return st;
}

/* Points the plan at generation w's constants, quantization and operator params. Allocates
 * nothing unless values folded at prepare time were computed from constants (then replans). */
static tfcc_status bind_weights(tfcc_session *s, tfcc_weights *w) {
  if (w == s->gen || !planned(s)) return TFCC_OK; /* no plan: the first one binds */
  if (s->folds_read_consts) return replan_on(s, w);
  tfcc_exec_plan *p = &s->plan;
  const tfcc_ir_subgraph *g = &w->graph->subgraphs[s->subgraph];
  p->graph = w->graph;
  p->sg = g;
  for (int32_t i = 0; i < p->n_tensors; i++) {
    tfcc_tensor *t = &p->tensors[i];
    tfcc_exec_plan_bind_quant(p, i, &g->tensors[i].quant);
    if (t->is_const) t->data = (void *)g->tensors[i].data;
  }
  for (int32_t e = 0; e < p->n_nodes; e++) {
    tfcc_exec_node *en = &p->nodes[e];
    en->ctx.node = &g->nodes[en->node];
    en->ctx.params = g->nodes[en->node].params;
  }
  s->gen = w;
  return TFCC_OK;
}

static tfcc_status session_create(tfcc_model *m, int32_t subgraph, const tfcc_ir_signature *sig,
                                  const tfcc_session_options *opts, tfcc_session **out);

tfcc_status tfcc_session_create(tfcc_model *m, const tfcc_session_options *opts,
                                tfcc_session **out) {
  return session_create(m, 0, NULL, opts, out);
}

tfcc_status tfcc_session_create_for_signature(tfcc_model *m, const char *key,
                                              const tfcc_session_options *opts,
                                              tfcc_session **out) {
  if (out) *out = NULL;
  if (!m || !key || !out) {
    tfcc_last_error_set("tfcc_session_create_for_signature: model, key or out is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  for (int32_t k = 0; k < m->graph.n_signatures; k++) {
    const tfcc_ir_signature *sig = &m->graph.signatures[k];
    if (sig->key && strcmp(sig->key, key) == 0)
      return session_create(m, sig->subgraph, sig, opts, out);
  }
  char msg[300];
  snprintf(msg, sizeof msg,
           "the model has no signature '%.200s' (%d signatures; tfcc inspect lists them)", key,
           (int)m->graph.n_signatures);
  tfcc_last_error_set(msg);
  return TFCC_ERR_NOT_FOUND;
}

int tfcc_session_subgraph(const tfcc_session *s) { return s ? s->subgraph : 0; }

static tfcc_status session_create(tfcc_model *m, int32_t subgraph, const tfcc_ir_signature *sig,
                                  const tfcc_session_options *opts, tfcc_session **out) {
  if (!out || !m) {
    tfcc_last_error_set("tfcc_session_create: model or out is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  *out = NULL;
  if (opts && (opts->struct_size == 0 || opts->struct_size > sizeof(tfcc_session_options))) {
    tfcc_last_error_set(
        "tfcc_session_create: options.struct_size is not set by tfcc_session_options_default()");
    return TFCC_ERR_INVALID_ARG;
  }
  const int prefault =
      opts && opts->struct_size >= offsetof(tfcc_session_options, prefault) + sizeof opts->prefault
          ? opts->prefault
          : 0;
  if (prefault < TFCC_PREFAULT_OFF || prefault > TFCC_PREFAULT_BACKGROUND) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "tfcc_session_create: options.prefault is %d, not one of -1 (TFCC_PREFAULT_OFF), "
             "0 (the default), 1, 2 (TFCC_PREFAULT_BACKGROUND)",
             prefault);
    tfcc_last_error_set(msg);
    return TFCC_ERR_INVALID_ARG;
  }
  /* a subgraph that reaches an unsupported operator (a model loaded for introspection, which
   * prepared nothing, has no entry that can run: model.c bind_ops) */
  if (m->graph.subgraphs[subgraph].unrunnable) {
    if (subgraph == 0) { /* and the first signature that can run, when one can (model.c) */
      const char *other = tfcc_graph_other_runnable_signature(&m->graph);
      char msg[1024];
      if (other)
        snprintf(msg, sizeof msg,
                 "subgraph 0 cannot run (signature '%.200s' can: create its session by its "
                 "key): %s",
                 other, m->unsupported);
      tfcc_last_error_set(other ? msg : m->unsupported);
    } else {
      char msg[1024];
      snprintf(msg, sizeof msg, "signature '%.200s' (subgraph %d) cannot run: %s",
               sig ? sig->key : "", (int)subgraph, tfcc_model_subgraph_error(m, subgraph));
      tfcc_last_error_set(msg);
    }
    return TFCC_ERR_UNSUPPORTED;
  }
  /* the session and the arrays a run writes (bound buffers) in one block: a run touches the
   * pages of one allocation, not four spread over the heap */
  const size_t ni = (size_t)m->graph.subgraphs[subgraph].n_inputs,
               no = (size_t)m->graph.subgraphs[subgraph].n_outputs;
  const size_t o_in = (sizeof(tfcc_session) + 63) / 64 * 64;
  const size_t o_out = o_in + (ni + 1) * sizeof(const void *);
  const size_t o_cap = o_out + (no + 1) * sizeof(void *);
  const size_t o_shapes = o_cap + (no + 1) * sizeof(size_t);
  uint8_t *blk = calloc(1, o_shapes + (ni + 1) * sizeof(tfcc_input_shape));
  tfcc_session *s = (tfcc_session *)(void *)blk;
  if (!s) {
    tfcc_last_error_set("tfcc_session_create: out of memory");
    return TFCC_ERR_NO_MEMORY;
  }
  s->model = m;
  tfcc_model_retain(m);
  s->subgraph = subgraph;
  s->sig = sig;
  s->sg = &m->graph.subgraphs[subgraph];
  tfcc_exec_env env = tfcc_model_env(m);
  if (opts && opts->struct_size >= offsetof(tfcc_session_options, max_memory) + sizeof(size_t))
    s->max_memory = opts->max_memory;
  env.max_memory = s->max_memory; /* subgraph plans too (run_state keeps env) */
  if (tfcc_run_state_init(&s->rs, &m->graph, m->n_resources, &env, true, &s->err) != TFCC_OK) {
    tfcc_last_error_set(s->err.msg);
    tfcc_model_release(m);
    free(s);
    return TFCC_ERR_NO_MEMORY;
  }
  s->bound_in = (const void **)(void *)(blk + o_in);
  s->bound_out = (void **)(void *)(blk + o_out);
  s->bound_out_cap = (size_t *)(void *)(blk + o_cap);
  s->shapes = (tfcc_input_shape *)(void *)(blk + o_shapes);
  for (int32_t i = 0; i < (int32_t)ni; i++) {
    const tfcc_ir_tensor *t = &s->sg->tensors[s->sg->inputs[i]];
    s->shapes[i].rank = t->rank;
    memcpy(s->shapes[i].dims, t->dims, sizeof t->dims);
  }
  /* 1: the whole huge page of the weights' tail too (replan_on's rewhole) */
  s->prefault = prefault == 1;
  const bool touch = prefault != TFCC_PREFAULT_OFF && prefault != TFCC_PREFAULT_BACKGROUND;
  tfcc_status st = replan(s);
  if (st != TFCC_OK && st != TFCC_ERR_NO_MEMORY && tfcc_subgraph_has_resizable_input(s->sg)) {
    /* placeholder input shapes (model.c, placeholder_shapes): as TFLite, which prepares
     * nothing until the caller has resized; a run before that fails, naming this */
    s->unplanned = s->err;
    s->err = (tfcc_err){0};
    st = TFCC_OK;
  }
  if (st != TFCC_OK) {
    tfcc_last_error_set(s->err.msg);
    tfcc_session_destroy(s);
    return st;
  }
  if (touch) {
    /* the first run then faults no arena page, and no page of the weights cache's blocks
     * (the default: what the first run would pay, paid here once; docs/weights_cache.md,
     * "cache59") */
    if (s->plan.arena) tfcc_arena_mem_prefault(&s->plan.arena_mem);
    if (planned(s))
      touch_generation(s);
    else /* no plan yet (placeholder shapes): the cache still */
      tfcc_wcache_prefault(m->wcache);
  } else if (prefault == TFCC_PREFAULT_BACKGROUND) {
    /* the cache's blocks read ahead of the first run on a thread of their own (once per
     * model; stopped at this session's destroy if still running). Not the default: on the
     * test VM it moved as much time into the load as it took out of the first run
     * (bench/README.md, "load15") */
    s->touch_started = tfcc_wcache_touch_start(m->wcache);
  }
  *out = s;
  return TFCC_OK;
}

void tfcc_session_destroy(tfcc_session *s) {
  if (!s) return;
  if (s->touch_started) tfcc_wcache_touch_stop(s->model->wcache);
  if (s->dev_sess) s->model->rt->device->be->session_close(s->dev_sess);
  tfcc_exec_plan_free(&s->plan);
  tfcc_run_state_free(&s->rs);
  free(s->profile);
  tfcc_model_release(s->model);
  free(s); /* with its bound arrays and shapes */
}

const char *tfcc_session_last_error(const tfcc_session *s) { return s ? s->err.msg : ""; }

int tfcc_session_input_count(const tfcc_session *s) { return s ? s->sg->n_inputs : 0; }
int tfcc_session_output_count(const tfcc_session *s) { return s ? s->sg->n_outputs : 0; }

/* Input or output index's info, named by the signature when the session runs one. */
static tfcc_status io_info(const tfcc_session *s, bool input, int index, tfcc_tensor_info *info) {
  const int32_t n = input ? s->sg->n_inputs : s->sg->n_outputs;
  if (!info || index < 0 || index >= n) return TFCC_ERR_INVALID_ARG;
  if (!planned(s)) { /* the shapes asked for (inputs), the stored ones (outputs) */
    const int32_t ti = input ? s->sg->inputs[index] : s->sg->outputs[index];
    const tfcc_ir_tensor *it = &s->sg->tensors[ti];
    tfcc_model_tensor_info_(s->model, s->subgraph, ti, input ? s->shapes[index].dims : it->dims,
                            input ? s->shapes[index].rank : it->rank, info);
    const char *nm = sig_name(s, ti, input);
    if (nm) info->name = nm;
    return TFCC_OK;
  }
  const tfcc_tensor *t = &s->plan.tensors[input ? s->sg->inputs[index] : s->sg->outputs[index]];
  tfcc_model_tensor_info_(s->model, s->subgraph, t->index, t->dims, t->rank, info);
  const char *nm = sig_name(s, t->index, input);
  if (nm) info->name = nm;
  return TFCC_OK;
}

tfcc_status tfcc_session_input_info(const tfcc_session *s, int index, tfcc_tensor_info *info) {
  return s ? io_info(s, true, index, info) : TFCC_ERR_INVALID_ARG;
}

tfcc_status tfcc_session_output_info(const tfcc_session *s, int index, tfcc_tensor_info *info) {
  return s ? io_info(s, false, index, info) : TFCC_ERR_INVALID_ARG;
}

static tfcc_status find_named(const tfcc_session *s, const int32_t *list, int32_t n,
                              const char *name, int *index) {
  if (!s || !name || !index) return TFCC_ERR_INVALID_ARG;
  for (int32_t i = 0; i < n; i++)
    if (strcmp(s->sg->tensors[list[i]].name, name) == 0) {
      *index = i;
      return TFCC_OK;
    }
  /* Signature names (e.g. "input" for "serving_default_input:0") also match. */
  for (int32_t g = 0; g < s->model->graph.n_signatures; g++) {
    const tfcc_ir_signature *sig = &s->model->graph.signatures[g];
    if (sig->subgraph != s->subgraph) continue;
    for (int32_t k = 0; k < sig->n_inputs + sig->n_outputs; k++) {
      bool is_in = k < sig->n_inputs;
      const char *nm = is_in ? sig->input_names[k] : sig->output_names[k - sig->n_inputs];
      int32_t t = is_in ? sig->input_tensors[k] : sig->output_tensors[k - sig->n_inputs];
      if (!nm || strcmp(nm, name) != 0) continue;
      for (int32_t i = 0; i < n; i++)
        if (list[i] == t) {
          *index = i;
          return TFCC_OK;
        }
    }
  }
  return TFCC_ERR_NOT_FOUND;
}

tfcc_status tfcc_session_find_input(const tfcc_session *s, const char *name, int *index) {
  return s ? find_named(s, s->sg->inputs, s->sg->n_inputs, name, index) : TFCC_ERR_INVALID_ARG;
}

tfcc_status tfcc_session_find_output(const tfcc_session *s, const char *name, int *index) {
  return s ? find_named(s, s->sg->outputs, s->sg->n_outputs, name, index) : TFCC_ERR_INVALID_ARG;
}

/* Checks one requested input shape against the input's signature. */
static tfcc_status check_resize(tfcc_session *s, int index, int32_t rank, const int32_t *dims) {
  if (index < 0 || index >= s->sg->n_inputs)
    return tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "input %d does not exist (%d inputs)", index,
                        (int)s->sg->n_inputs);
  const tfcc_ir_tensor *t = &s->sg->tensors[s->sg->inputs[index]];
  if (rank < 0 || rank > TFCC_MAX_RANK || (rank > 0 && !dims))
    return tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "input %d: rank %d is invalid", index,
                        (int)rank);
  if (t->has_signature) {
    if (rank != t->rank)
      return tfcc_err_set(&s->err, TFCC_ERR_SHAPE, "input %d (%s): rank %d, model has rank %d",
                          index, t->name, (int)rank, (int)t->rank);
    for (int32_t d = 0; d < rank; d++)
      if (t->signature[d] != -1 && dims[d] != t->signature[d])
        return tfcc_err_set(&s->err, TFCC_ERR_SHAPE,
                            "input %d (%s): dimension %d is fixed at %d, cannot be %d", index,
                            t->name, (int)d, (int)t->signature[d], (int)dims[d]);
  }
  for (int32_t d = 0; d < rank; d++)
    if (dims[d] < 0)
      return tfcc_err_set(&s->err, TFCC_ERR_SHAPE, "input %d: dimension %d is negative", index,
                          (int)d);
  return TFCC_OK;
}

tfcc_status tfcc_session_resize_input(tfcc_session *s, int index, int32_t rank,
                                      const int32_t *dims) {
  return tfcc_session_resize_inputs(s, 1, &index, &rank, &dims);
}

tfcc_status tfcc_session_resize_inputs(tfcc_session *s, int count, const int *indices,
                                       const int32_t *ranks, const int32_t *const *dims) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (count < 0 || count > s->sg->n_inputs || (count > 0 && (!indices || !ranks || !dims)))
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "resize of %d inputs (%d inputs)", count,
                        (int)s->sg->n_inputs));
  for (int k = 0; k < count; k++) {
    tfcc_status st = check_resize(s, indices[k], ranks[k], dims[k]);
    if (st != TFCC_OK) return session_fail(s, st);
    for (int j = 0; j < k; j++)
      if (indices[j] == indices[k])
        return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG,
                                            "input %d is resized twice", indices[k]));
  }
  tfcc_input_shape old[TFCC_MAX_INPUTS_RESIZED_];
  tfcc_input_shape *saved =
      count <= TFCC_MAX_INPUTS_RESIZED_ ? old : malloc((size_t)count * sizeof *saved);
  if (!saved)
    return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_NO_MEMORY, "resize of %d inputs", count));
  for (int k = 0; k < count; k++) {
    saved[k] = s->shapes[indices[k]];
    s->shapes[indices[k]].rank = ranks[k];
    for (int32_t d = 0; d < ranks[k]; d++) s->shapes[indices[k]].dims[d] = dims[k][d];
  }
  tfcc_status st = replan(s);
  if (st != TFCC_OK) /* the previous plan stays in force */
    for (int k = count - 1; k >= 0; k--) s->shapes[indices[k]] = saved[k];
  if (saved != old) free(saved);
  return st == TFCC_OK ? TFCC_OK : session_fail(s, st);
}

tfcc_status tfcc_session_set_input(tfcc_session *s, int index, const void *data, size_t bytes) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (index < 0 || index >= s->sg->n_inputs)
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "input %d does not exist (%d inputs)", index,
                        (int)s->sg->n_inputs));
  if (!planned(s)) return session_fail(s, no_plan(s));
  const tfcc_tensor *t = &s->plan.tensors[s->sg->inputs[index]];
  if (bytes != t->bytes)
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_SHAPE, "input %d (%s): %zu bytes given, tensor needs %zu",
                        index, s->sg->tensors[t->index].name, bytes, t->bytes));
  s->bound_in[index] = data;
  return TFCC_OK;
}

tfcc_status tfcc_session_set_output(tfcc_session *s, int index, void *data, size_t bytes) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (index < 0 || index >= s->sg->n_outputs)
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "output %d does not exist (%d outputs)",
                        index, (int)s->sg->n_outputs));
  if (!planned(s)) return session_fail(s, no_plan(s));
  const tfcc_tensor *t = &s->plan.tensors[s->sg->outputs[index]];
  if (bytes != t->bytes && !t->dynamic) /* a dynamic output's buffer may have any capacity */
    return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_SHAPE,
                                        "output %d (%s): %zu bytes given, tensor needs %zu", index,
                                        s->sg->tensors[t->index].name, bytes, t->bytes));
  s->bound_out[index] = data;
  s->bound_out_cap[index] = bytes;
  return TFCC_OK;
}

int tfcc_session_output_is_dynamic(const tfcc_session *s, int index) {
  if (!s || index < 0 || index >= s->sg->n_outputs || !planned(s)) return 0;
  return s->plan.tensors[s->sg->outputs[index]].dynamic ? 1 : 0;
}

int tfcc_session_dynamic_tensor_count(const tfcc_session *s) {
  if (!s) return 0;
  int n = 0;
  for (int32_t e = 0; e < s->plan.n_nodes; e++)
    if (s->plan.nodes[e].dynamic) n += s->plan.nodes[e].ctx.n_out;
  return n;
}

tfcc_status tfcc_session_dynamic_tensor_info(const tfcc_session *s, int index,
                                             tfcc_dynamic_tensor_info *info) {
  if (!s || !info || index < 0) return TFCC_ERR_INVALID_ARG;
  for (int32_t e = 0; e < s->plan.n_nodes; e++) {
    const tfcc_exec_node *en = &s->plan.nodes[e];
    if (!en->dynamic) continue;
    if (index >= en->ctx.n_out) {
      index -= en->ctx.n_out;
      continue;
    }
    const tfcc_tensor *t = en->ctx.out[index];
    info->tensor = t->index;
    info->name = s->sg->tensors[t->index].name;
    info->node = en->node;
    info->op = node_name(s, en->node);
    info->reason = en->why_dynamic ? en->why_dynamic : "";
    return TFCC_OK;
  }
  return TFCC_ERR_INVALID_ARG;
}

tfcc_status tfcc_session_output_data(const tfcc_session *s, int index, const void **data,
                                     size_t *bytes) {
  if (!s || !data || index < 0 || index >= s->sg->n_outputs) return TFCC_ERR_INVALID_ARG;
  if (!planned(s)) return TFCC_ERR_STATE;
  const tfcc_tensor *t = &s->plan.tensors[s->sg->outputs[index]];
  if (!t->dynamic || !s->ran) return TFCC_ERR_STATE;
  *data = t->data;
  if (bytes) *bytes = t->bytes;
  return TFCC_OK;
}

/* The index of the input (is_output false) or output called name, in *index; an unknown name
 * is the session's NOT_FOUND error. */
static tfcc_status named_index(tfcc_session *s, bool is_output, const char *name, int *index) {
  if ((is_output ? tfcc_session_find_output : tfcc_session_find_input)(s, name, index) == TFCC_OK)
    return TFCC_OK;
  return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_NOT_FOUND, "no %s named '%s'",
                                      is_output ? "output" : "input", name ? name : "(null)"));
}

tfcc_status tfcc_session_set_input_by_name(tfcc_session *s, const char *name, const void *data,
                                           size_t bytes) {
  int i;
  if (!s) return TFCC_ERR_INVALID_ARG;
  tfcc_status st = named_index(s, false, name, &i);
  return st != TFCC_OK ? st : tfcc_session_set_input(s, i, data, bytes);
}

tfcc_status tfcc_session_set_output_by_name(tfcc_session *s, const char *name, void *data,
                                            size_t bytes) {
  int i;
  if (!s) return TFCC_ERR_INVALID_ARG;
  tfcc_status st = named_index(s, true, name, &i);
  return st != TFCC_OK ? st : tfcc_session_set_output(s, i, data, bytes);
}

/* Kernels read elements in place, so caller buffers must be aligned to their element size.
 * Per run and per bound buffer: a 16-byte aligned pointer (the usual case) fits every dtype
 * (the largest element is 16 bytes) without a call; sizes are powers of two (a mask, no
 * division). */
static inline bool misaligned(const void *p, tfcc_dtype dt) {
  const uintptr_t a = (uintptr_t)p;
  if (!p || (a & 15u) == 0) return false;
  const size_t es = tfcc_dtype_size(dt);
  if (es <= 1) return false;
  return (es & (es - 1)) == 0 ? (a & (es - 1)) != 0 : a % es != 0;
}

/* A bound input or output buffer of tensor t: present unless t is empty (else "<what> i (name)
 * <missing>"), aligned to its elements. */
static tfcc_status check_bound(tfcc_session *s, const char *what, int32_t i, const void *buf,
                               const tfcc_tensor *t, const char *missing) {
  if (!buf && t->bytes)
    return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "%s %d (%s) %s", what,
                                        (int)i, s->sg->tensors[t->index].name, missing));
  if (misaligned(buf, t->dtype))
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG,
                        "%s %d (%s): buffer %p is not aligned to its %zu-byte %s elements", what,
                        (int)i, s->sg->tensors[t->index].name, buf, tfcc_dtype_size(t->dtype),
                        tfcc_dtype_name(t->dtype)));
  return TFCC_OK;
}

/* Reads the plan's tables (exec_plan.h) and the session, not the IR (but for messages). */
static tfcc_status invoke_bound(tfcc_session *s) {
  tfcc_exec_plan *p = &s->plan;
  s->ran = false;
  for (int32_t i = 0; i < p->n_inputs; i++) {
    tfcc_tensor *t = p->io[i];
    tfcc_status st = check_bound(s, "input", i, s->bound_in[i], t, "has no data");
    if (st != TFCC_OK) return st;
    t->data = s->bound_in[i] ? (void *)s->bound_in[i] : tfcc_exec_empty_data; /* empty: none */
  }
  int32_t c = 0;
  for (int32_t i = 0; i < p->n_outputs; i++) {
    if (c < p->n_copy_outputs && p->copy_outputs[c] == i) {
      c++;
      continue;
    }
    tfcc_tensor *t = p->io[p->n_inputs + i];
    tfcc_status st = check_bound(s, "output", i, s->bound_out[i], t, "has no buffer");
    if (st != TFCC_OK) return st;
    t->data = s->bound_out[i] ? s->bound_out[i] : tfcc_exec_empty_data;
  }
  bool timed = s->profiling || s->observer;
  if (s->dev_sess) { /* the device runs the graph, calling back for the CPU's nodes */
    tfcc_status st = s->model->rt->device->be->session_run(s->dev_sess, p, &s->err);
    if (st != TFCC_OK) return session_fail(s, st);
  }
  for (int32_t e = 0; !s->dev_sess && e < p->n_nodes; e++) {
    tfcc_exec_node *en = &p->nodes[e];
    if (en->folded || en->view) continue;
    en->ctx.err = &s->err;
    if (s->rs.budget.deadline_ns ||
        atomic_load_explicit(&s->rs.budget.cancel, memory_order_relaxed)) {
      tfcc_status st = tfcc_run_check(&s->rs, &s->err);
      if (st != TFCC_OK) {
        tfcc_err_prefix(&s->err, "before node %d (%s)", (int)en->node, node_name(s, en->node));
        return session_fail(s, st);
      }
    }
    uint64_t t0 = timed ? now_ns() : 0;
    tfcc_status st = tfcc_exec_node_run(p, en, &s->err);
    if (timed) {
      uint64_t t1 = now_ns();
      if (s->profile) {
        s->profile[e].runs++;
        s->profile[e].total_ms += (double)(t1 - t0) / 1e6;
      }
      if (s->observer) s->observer(s->observer_user, en->node, node_name(s, en->node), t0, t1);
    }
    if (st != TFCC_OK) {
      tfcc_err_prefix(&s->err, "node %d (%s)", (int)en->node, node_name(s, en->node));
      return session_fail(s, st);
    }
  }
  s->ran = true;
  int32_t too_small = -1;
  for (int32_t k = 0; k < p->n_copy_outputs; k++) {
    int32_t i = p->copy_outputs[k];
    tfcc_tensor *t = p->io[p->n_inputs + i];
    if (t->dynamic) { /* NULL: read with tfcc_session_output_data */
      if (!s->bound_out[i] || !t->bytes) continue;
      if (t->bytes > s->bound_out_cap[i]) {
        if (too_small < 0) too_small = i;
        continue;
      }
      if (misaligned(s->bound_out[i], t->dtype))
        return session_fail(
            s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG,
                            "output %d (%s): buffer %p is not aligned to its %zu-byte %s elements",
                            (int)i, s->sg->tensors[t->index].name, s->bound_out[i],
                            tfcc_dtype_size(t->dtype), tfcc_dtype_name(t->dtype)));
    }
    if (!s->bound_out[i] && t->bytes)
      return session_fail(
          s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "output %d (%s) has no buffer", (int)i,
                          s->sg->tensors[t->index].name));
    if (!t->bytes) continue;
    if (!s->dev_sess) {
      memcpy(s->bound_out[i], t->data, t->bytes);
      continue;
    }
    /* a device runtime's caller buffer may be device memory: the backend copies */
    const tfcc_device *d = s->model->rt->device;
    tfcc_status st = d->be->mem_copy(d->dev, s->bound_out[i], t->data, t->bytes, &s->err);
    if (st != TFCC_OK) {
      tfcc_err_prefix(&s->err, "output %d (%s)", (int)i, s->sg->tensors[t->index].name);
      return session_fail(s, st);
    }
  }
  if (too_small >= 0) {
    const tfcc_ir_subgraph *sg = s->sg;
    const tfcc_tensor *t = p->io[p->n_inputs + too_small];
    char shp[128];
    return session_fail(
        s, tfcc_err_set(
               &s->err, TFCC_ERR_BUFFER_TOO_SMALL,
               "output %d (%s): this run produced %s %s, %zu bytes; the buffer holds %zu "
               "(tfcc_session_output_info gives the size, tfcc_session_output_data the values)",
               (int)too_small, sg->tensors[t->index].name, tfcc_dtype_name(t->dtype),
               tfcc_shape_str(t->rank, t->dims, shp, sizeof shp), t->bytes,
               s->bound_out_cap[too_small]));
  }
  return TFCC_OK;
}

tfcc_status tfcc_session_invoke(tfcc_session *s) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (!planned(s)) return session_fail(s, no_plan(s));
  /* Workers stay awake between this run's parallel regions; sleeping ones start waking now,
   * while the first operators run. */
  struct tfcc_threadpool *pool = s->model->rt ? s->model->rt->pool : NULL;
  tfcc_threadpool_run_begin(pool);
  /* The run holds a reference to the weights generation it started on (no lock). */
  tfcc_weights *w = tfcc_weights_acquire(s->model);
  tfcc_status st = bind_weights(s, w);
  tfcc_run_state_begin(&s->rs);
  if (st == TFCC_OK)
    st = invoke_bound(s);
  else
    session_fail(s, st);
  tfcc_run_state_end(&s->rs);
  tfcc_weights_release(s->model, w);
  tfcc_threadpool_run_end(pool);
  return st;
}

tfcc_status tfcc_session_run(tfcc_session *s, const void *const *inputs, void *const *outputs) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (!planned(s)) return session_fail(s, no_plan(s));
  if ((!inputs && s->plan.n_inputs) || (!outputs && s->plan.n_outputs))
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "inputs or outputs array is NULL"));
  const tfcc_exec_plan *p = &s->plan;
  for (int32_t i = 0; i < p->n_inputs; i++) s->bound_in[i] = inputs[i];
  for (int32_t i = 0; i < p->n_outputs; i++) {
    s->bound_out[i] = outputs[i];
    /* a dynamic output's buffer holds what tfcc_session_output_info reports now */
    s->bound_out_cap[i] = p->io[p->n_inputs + i]->bytes;
  }
  return tfcc_session_invoke(s);
}

tfcc_status tfcc_session_reset_state(tfcc_session *s) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  tfcc_exec_plan_reset_variables(&s->plan);
  tfcc_run_state_reset(&s->rs);
  return TFCC_OK;
}

tfcc_status tfcc_session_set_run_timeout(tfcc_session *s, uint64_t timeout_us) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (timeout_us > UINT64_MAX / 1000)
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG, "run timeout %llu us is too large",
                        (unsigned long long)timeout_us));
  s->rs.budget.timeout_ns = timeout_us * 1000;
  return TFCC_OK;
}

tfcc_status tfcc_session_set_run_max_work(tfcc_session *s, int64_t work) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (work < 0)
    return session_fail(s, tfcc_err_set(&s->err, TFCC_ERR_INVALID_ARG,
                                        "run work limit %lld is negative", (long long)work));
  s->rs.budget.max_work = work;
  return TFCC_OK;
}

tfcc_status tfcc_session_cancel(tfcc_session *s) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  atomic_store_explicit(&s->rs.budget.cancel, 1, memory_order_relaxed);
  return TFCC_OK;
}

size_t tfcc_session_arena_bytes(const tfcc_session *s) { return s ? s->plan.arena_bytes : 0; }

tfcc_status tfcc_session_memory_info(const tfcc_session *s, tfcc_memory_info *info) {
  if (!s || !info) return TFCC_ERR_INVALID_ARG;
  info->arena_bytes = s->plan.arena_bytes;
  info->naive_bytes = s->plan.naive_bytes;
  info->lower_bound_bytes = s->plan.arena_lower_bound;
  info->persistent_bytes = s->plan.persist_bytes;
  info->constant_bytes = s->model->constant_bytes;
  return TFCC_OK;
}

size_t tfcc_session_dynamic_bytes(const tfcc_session *s) { return s ? s->plan.dyn_bytes : 0; }

/* (Re)builds the profile table for the current plan. */
static tfcc_status profile_alloc(tfcc_session *s) {
  free(s->profile);
  s->profile = NULL;
  if (!s->profiling) return TFCC_OK;
  s->profile = calloc((size_t)s->plan.n_nodes + 1, sizeof *s->profile);
  if (!s->profile)
    return tfcc_err_set(&s->err, TFCC_ERR_NO_MEMORY, "out of memory for the profile table");
  for (int32_t e = 0; e < s->plan.n_nodes; e++) {
    tfcc_exec_node *en = &s->plan.nodes[e];
    tfcc_op_profile *p = &s->profile[e];
    p->name = node_name(s, en->node);
    p->kernel = en->folded                 ? "folded"
                : en->view                 ? "view"
                : en->dynamic              ? "dynamic"
                : en->ctx.node->op->kernel ? en->ctx.node->op->kernel(&en->ctx)
                                           : "ref";
    p->node = en->node;
    p->macs = en->macs;
  }
  return TFCC_OK;
}

tfcc_status tfcc_session_set_profiling(tfcc_session *s, int enable) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  if (enable && s->dev_sess) /* the device runs whole graphs: no per-operator times */
    return session_fail(
        s, tfcc_err_set(&s->err, TFCC_ERR_UNSUPPORTED,
                        "per-operator profiles are not available on device %s (env "
                        "TFCC_CUDA_TIMING=2 logs the time per step kind, docs/cuda.md)",
                        tfcc_runtime_device(s->model->rt)));
  s->profiling = enable != 0;
  /* Kernel names may read operator params: bind to live weights first. */
  tfcc_weights *w = tfcc_weights_acquire(s->model);
  tfcc_status st = bind_weights(s, w);
  if (st == TFCC_OK) st = profile_alloc(s);
  tfcc_weights_release(s->model, w);
  return st;
}

tfcc_status tfcc_session_set_op_observer(tfcc_session *s, tfcc_op_observer_fn fn, void *user) {
  if (!s) return TFCC_ERR_INVALID_ARG;
  s->observer = fn;
  s->observer_user = user;
  return TFCC_OK;
}

int tfcc_session_profile(const tfcc_session *s, const tfcc_op_profile **entries) {
  if (!s || !s->profile) {
    if (entries) *entries = NULL;
    return 0;
  }
  if (entries) *entries = s->profile;
  return s->plan.n_nodes;
}

void tfcc_session_profile_reset(tfcc_session *s) {
  if (!s || !s->profile) return;
  for (int32_t e = 0; e < s->plan.n_nodes; e++) {
    s->profile[e].runs = 0;
    s->profile[e].total_ms = 0;
  }
}
