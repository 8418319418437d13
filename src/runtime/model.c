/* tfcc_model: load (a file's private copy or mapping, or a caller buffer), verify, bind
 * operators, run the graph passes (src/passes/pass_manager.c), init operators, validate shapes
 * once; then immutable and shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "base/hash64.h"
#include "base/kernel_copy.h"
#include "base/weights_mem.h"
#include "cpu/cpu_info.h"
#include "format/tflite_reader.h"
#include "passes/pass_manager.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-gemm/gemm.h"
#include "ops/xnn_delegate.h"
#include "ops/op.h"
#include "runtime/device_backend.h"
#include "runtime/internal.h"
#include "runtime/model_file.h"
#include "runtime/wcache_kernels.h"
#include "runtime/weights.h"
#include "runtime/weights_cache.h"

void tfcc_model_options_default(tfcc_model_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void tfcc_graph_release_params(tfcc_graph *g) {
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      tfcc_ir_node *n = &sg->nodes[i];
      if (!n->params) continue;
      if (n->op && n->op->release)
        n->op->release(n->params);
      else
        free(n->params);
      n->params = NULL;
    }
  }
}

void tfcc_model_drop_spare_plan(tfcc_model *m) {
  tfcc_exec_plan *p = atomic_exchange_explicit(&m->spare_plan, NULL, memory_order_acq_rel);
  if (!p) return;
  tfcc_exec_plan_free(p);
  free(p);
}

static void model_free(tfcc_model *m) {
  if (!m) return;
  tfcc_model_drop_spare_plan(m); /* before the graph it points into */
  if (m->dev_model) m->rt->device->be->model_close(m->dev_model);
  tfcc_weights_join_writer(m); /* an update's cache writer holds a generation */
  /* No session is left: the current generation holds only the model's reference. */
  tfcc_weights *cur = atomic_load(&m->weights);
  if (cur) tfcc_weights_release(m, cur);
  for (tfcc_weights *w = m->gens; w;) {
    tfcc_weights *next = w->next;
    free(w);
    w = next;
  }
  if (m->update_lock_init) pthread_mutex_destroy(&m->update_lock);
  /* trapped pages accessible again: before the graph, whose memory may hold some (a sparse
   * FULLY_CONNECTED's dense weights) */
  if (m->crel_on) tfcc_const_release_free(&m->crel);
  tfcc_graph_release_params(&m->graph);
  tfcc_graph_free(&m->graph);
  tfcc_wcache_free(m->wcache); /* after the params that pointed into it */
  free(m->wcache_path);
  if (m->mapping) munmap(m->mapping, m->mapping_size);
  if (m->owned_free) m->owned_free(m->owned_user, (void *)m->data, m->size);
  free(m->unsupported);
  for (int32_t k = 0; k < m->n_sg_cause; k++) free(m->sg_cause[k]);
  free(m->sg_cause);
  free(m->node_macs);
  free(m);
}

/* Marks the subgraphs that cannot run: those with a node bind_ops left unbound, in themselves or
 * in a subgraph they call (TFLite fails a subgraph only when it prepares it: a signature that
 * saves or restores through Flex ops does not keep the model's other entries from running). */
static tfcc_status mark_unrunnable(tfcc_graph *g, tfcc_err *err) {
  uint8_t *bad = calloc((size_t)g->n_subgraphs + 1, 1), *mark = malloc((size_t)g->n_subgraphs + 1);
  if (!bad || !mark) {
    free(bad);
    free(mark);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  for (int32_t s = 0; s < g->n_subgraphs; s++)
    for (int32_t i = 0; i < g->subgraphs[s].n_nodes && !bad[s]; i++)
      bad[s] = g->subgraphs[s].nodes[i].op == NULL;
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    memset(mark, 0, (size_t)g->n_subgraphs);
    tfcc_graph_mark_calls(g, s, mark);
    for (int32_t t = 0; t < g->n_subgraphs && !g->subgraphs[s].unrunnable; t++)
      g->subgraphs[s].unrunnable = mark[t] && bad[t];
  }
  free(bad);
  free(mark);
  return TFCC_OK;
}

/* Appends "<sep>X at node 3" (subgraph 0) or "<sep>X at subgraph 1 node 3" for node i of
 * subgraph s, whose operator bind_ops left unbound (an unknown operator, or a version newer than
 * tfcc's), to the growable string *list. False when out of memory. */
static bool list_add(char **list, size_t *len, size_t *cap, const char *sep, int32_t s, int32_t i,
                     const tfcc_ir_node *n) {
  const tfcc_op_def *op = n->builtin == TFCC_OP_CUSTOM ? NULL : tfcc_op_lookup(n->builtin);
  char where[32] = "", item[200];
  if (s > 0) snprintf(where, sizeof where, "subgraph %d ", (int)s);
  const int w = op ? snprintf(item, sizeof item,
                              "%s%s version %d (tfcc implements up to version %d) at %snode %d",
                              sep, tfcc_node_op_name(n), (int)n->version,
                              (int)tfcc_op_max_version(n->builtin), where, (int)i)
                   : snprintf(item, sizeof item, "%s%s at %snode %d", sep, tfcc_node_op_name(n),
                              where, (int)i);
  if (w < 0) return true;
  const size_t k = (size_t)w < sizeof item ? (size_t)w : sizeof item - 1; /* a long name: cut */
  if (*len + k + 1 > *cap) {
    const size_t ncap = (*len + k + 1) * 2;
    char *nl = realloc(*list, ncap);
    if (!nl) return false;
    *list = nl;
    *cap = ncap;
  }
  memcpy(*list + *len, item, k);
  *len += k;
  (*list)[*len] = 0;
  return true;
}

/* Sets a copy of msg as why subgraph s cannot run (tfcc_model_subgraph_error). */
static tfcc_status set_cause(tfcc_model *m, int32_t s, const char *msg, tfcc_err *err) {
  if (!m->sg_cause) {
    if (!(m->sg_cause = calloc((size_t)m->graph.n_subgraphs + 1, sizeof(char *))))
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    m->n_sg_cause = m->graph.n_subgraphs;
  }
  char *c = strdup(msg);
  if (!c) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  free(m->sg_cause[s]);
  m->sg_cause[s] = c;
  return TFCC_OK;
}

/* Each subgraph that cannot run: the unsupported operators it reaches (itself and the subgraphs
 * it calls), "unsupported: X at subgraph 1 node 0, ...", as its cause. */
static tfcc_status note_unrunnable(tfcc_model *m, tfcc_err *err) {
  const tfcc_graph *g = &m->graph;
  uint8_t *mark = malloc((size_t)g->n_subgraphs + 1);
  if (!mark) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  tfcc_status st = TFCC_OK;
  for (int32_t s = 0; st == TFCC_OK && s < g->n_subgraphs; s++) {
    if (!g->subgraphs[s].unrunnable) continue;
    memset(mark, 0, (size_t)g->n_subgraphs);
    tfcc_graph_mark_calls(g, s, mark);
    size_t len = 0, cap = 0;
    char *list = NULL;
    bool ok = true;
    for (int32_t t = 0; ok && t < g->n_subgraphs; t++)
      for (int32_t i = 0; ok && mark[t] && i < g->subgraphs[t].n_nodes; i++)
        if (!g->subgraphs[t].nodes[i].op)
          ok = list_add(&list, &len, &cap, len ? ", " : "unsupported: ", t, i,
                        &g->subgraphs[t].nodes[i]);
    if (!ok)
      st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    else
      st = set_cause(m, s, list ? list : "it calls a subgraph that cannot run", err);
    free(list);
  }
  free(mark);
  return st;
}

const char *tfcc_graph_other_runnable_signature(const tfcc_graph *g) {
  for (int32_t k = 0; k < g->n_signatures; k++) {
    const int32_t sgi = g->signatures[k].subgraph;
    if (sgi > 0 && sgi < g->n_subgraphs && !g->subgraphs[sgi].unrunnable)
      return g->signatures[k].key;
  }
  return NULL;
}

/* Binds each node of every subgraph to its operator and lists what is unsupported ("X at node
 * 3" in subgraph 0, "X at subgraph 1 node 3" in the others). The load fails when no entry can
 * run (subgraph 0 nor another signature's subgraph); subgraphs that cannot are marked (ir.h
 * unrunnable) and refuse sessions, subgraph 0's included: TFLite prepares a subgraph only when
 * it runs it, so a signature runner for a subgraph with builtin operators only runs even when
 * subgraph 0 holds Flex operators (LiteRT; a federated-learning file whose subgraph 0 is an
 * `aggregate` signature, docs/model_sweep.md's twenty-eighth batch). */
static tfcc_status bind_ops(tfcc_model *m, tfcc_err *err) {
  tfcc_ir_subgraph *sg0 = &m->graph.subgraphs[0];
  size_t cap = 256, len = 0;
  char *list = malloc(cap);
  if (!list) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  list[0] = 0;
  int n_bad = 0;
  const char *missing_custom = NULL; /* first custom operator neither registered nor built in */
  m->op_names = tfcc_graph_alloc(&m->graph, sizeof(char *) * ((size_t)sg0->n_nodes + 1), 8);
  if (!m->op_names) {
    free(list);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  for (int32_t s = 0; s < m->graph.n_subgraphs; s++) {
    tfcc_ir_subgraph *sg = &m->graph.subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      tfcc_ir_node *n = &sg->nodes[i];
      if (s == 0) {
        const char *nm = tfcc_node_op_name(n);
        m->op_names[i] = tfcc_graph_strdup(&m->graph, nm, strlen(nm));
        if (!m->op_names[i]) {
          free(list);
          return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
        }
      }
      if (n->builtin == TFCC_OP_CUSTOM) { /* the runtime's registrations first (custom_ops.c) */
        n->op = m->rt ? tfcc_custom_table_find(&m->rt->custom, n->custom_code) : NULL;
        if (!n->op) n->op = tfcc_op_custom(n->custom_code);
        if (!n->op && !missing_custom) missing_custom = n->custom_code;
      } else {
        n->op = tfcc_op_lookup(n->builtin);
      }
      /* custom operators carry no meaningful version (converters write 1) */
      const int32_t max_version = !n->op                         ? 0
                                  : n->builtin == TFCC_OP_CUSTOM ? INT32_MAX
                                                                 : tfcc_op_max_version(n->builtin);
      if (n->op && n->version <= max_version) continue;
      n->op = NULL;
      if (!list_add(&list, &len, &cap, n_bad ? ", " : "unsupported: ", s, i, n)) {
        free(list);
        return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
      }
      n_bad++;
    }
  }
  m->unsupported = list;
  tfcc_status st = n_bad ? mark_unrunnable(&m->graph, err) : TFCC_OK;
  if (st == TFCC_OK && n_bad) st = note_unrunnable(m, err);
  if (st != TFCC_OK) return st;
  const bool runs = !sg0->unrunnable || tfcc_graph_other_runnable_signature(&m->graph);
  if (n_bad && runs)
    tfcc_log(tfcc_model_env(m).log, TFCC_LOG_WARN, TFCC_TAG_MODEL_LOAD,
             "%s: subgraph 0 %s; sessions for a signature whose subgraph reaches these are "
             "refused (TFLite fails a subgraph only when it prepares it)",
             list, sg0->unrunnable ? "cannot run, another signature's subgraph can" : "runs");
  if (!runs && !m->opts.allow_unsupported && missing_custom)
    return tfcc_err_set(
        err, TFCC_ERR_UNSUPPORTED,
        "%s (custom operator %s is not registered on this runtime: register it with "
        "tfcc_runtime_register_custom_op(), or load a plugin that does (the tools' "
        "--custom-ops LIB.so), before loading the model; docs/custom_ops.md)",
        list, missing_custom);
  if (!runs && !m->opts.allow_unsupported)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "%s", list);
  return TFCC_OK;
}

tfcc_status tfcc_graph_init_ops(tfcc_graph *g, tfcc_isa isa, const tfcc_logger *log,
                                int quant_compat, int precision, int winograd,
                                tfcc_packed_store *store, tfcc_err *err) {
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    tfcc_ir_subgraph *sg = &g->subgraphs[s];
    if (sg->unrunnable) continue; /* never prepared */
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      tfcc_ir_node *n = &sg->nodes[i];
      if (!n->op || !n->op->init || n->removed || n->params)
        continue; /* folded: done by the pass */
      tfcc_init_ctx c = {.graph = g,
                         .sg = sg,
                         .node = n,
                         .node_index = i,
                         .err = err,
                         .isa = isa,
                         .ks = tfcc_kernel_set_for(isa),
                         .log = log,
                         .quant_compat = quant_compat,
                         .precision = precision,
                         .winograd = winograd,
                         .store = store};
      tfcc_status st = n->op->init(&c);
      n->params = c.params;
      if (st != TFCC_OK && s > 0)
        return tfcc_err_prefix(err, "subgraph %d node %d (%s)", (int)s, (int)i,
                               tfcc_node_op_name(n));
      if (st != TFCC_OK) return tfcc_err_prefix(err, "node %d (%s)", (int)i, tfcc_node_op_name(n));
    }
  }
  return TFCC_OK;
}

/* precision bf16 without a bf16 kernel at this level: one KERNEL_FALLBACK for the model. */
static void log_precision_fallback(const tfcc_model *m, tfcc_isa isa) {
  const char *why =
      m->opts.precision == TFCC_PRECISION_BF16 ? tfcc_bf16_gemm_unavailable(isa) : NULL;
  if (why)
    tfcc_log(tfcc_model_env(m).log, TFCC_LOG_WARN, TFCC_TAG_KERNEL_FALLBACK,
             "precision bf16: %s; CONV_2D and FULLY_CONNECTED run in float32", why);
  if (m->opts.precision == TFCC_PRECISION_F16 && !(m->rt && m->rt->device))
    tfcc_log(tfcc_model_env(m).log, TFCC_LOG_WARN, TFCC_TAG_KERNEL_FALLBACK,
             "precision fp16 is a GPU precision (device cuda); on the CPU the model runs in "
             "float32");
}

/* Nodes a pass turned into an internal fused operator carry its name. */
static tfcc_status name_fused_nodes(tfcc_model *m, tfcc_err *err) {
  const tfcc_ir_subgraph *sg = &m->graph.subgraphs[0];
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *n = &sg->nodes[i];
    if (n->removed || n->builtin < TFCC_OP_INTERNAL_FIRST_) continue;
    const char *nm = tfcc_node_op_name(n);
    m->op_names[i] = tfcc_graph_strdup(&m->graph, nm, strlen(nm));
    if (!m->op_names[i]) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  return TFCC_OK;
}

bool tfcc_subgraph_has_resizable_input(const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_inputs; i++) {
    const int32_t t = sg->inputs[i];
    if (t < 0 || t >= sg->n_tensors || !sg->tensors[t].has_signature) continue;
    for (int32_t d = 0; d < sg->tensors[t].rank; d++)
      if (sg->tensors[t].signature[d] == -1) return true;
  }
  return false;
}

/* A subgraph whose plan fails at the stored input shapes while one of its inputs has a -1 in its
 * shape signature: the stored shape is a placeholder (openWakeWord's melspectrogram stores
 * [1, 1] for [-1, -1] and needs hundreds of samples). TFLite prepares nothing at load and runs
 * such a model once the caller resizes its inputs; tfcc loads it, says so once, and its
 * sessions start without a plan (session.c). */
static bool placeholder_shapes(tfcc_model *m, const tfcc_graph *g, int32_t sgi, bool record,
                               tfcc_status st, tfcc_err *err) {
  if (st == TFCC_ERR_NO_MEMORY || !tfcc_subgraph_has_resizable_input(&g->subgraphs[sgi]))
    return false;
  if (record)
    tfcc_log(tfcc_model_env(m).log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
             "subgraph %d cannot run at its stored input shapes (%s); its sessions run once "
             "their inputs are resized (tfcc_session_resize_input)",
             (int)sgi, err->msg);
  *err = (tfcc_err){0};
  return true;
}

/* Every operator accepts the constants at the stored input shapes (no memory is allocated);
 * record: the model's MACs per node and arena sizes (the first load). Subgraph 0 and every
 * other signature's subgraph are planned; the subgraphs they call are planned by the operators
 * that run them. A subgraph that fails only at placeholder input shapes does not fail the load
 * (placeholder_shapes). */
static bool getenv_off(const char *name);
static tfcc_status validate_shapes(tfcc_model *m, tfcc_graph *g, bool record, tfcc_err *err) {
  tfcc_exec_plan plan;
  tfcc_exec_env env = tfcc_model_env(m);
  /* subgraph 0's plan handed on to the first session (tfcc_model.spare_plan): a graph whose
   * operators reach no run state (no subgraph calls, no resource variables) */
  env.keep_layout =
      record && g->n_subgraphs == 1 && m->n_resources == 0 && !getenv_off("TFCC_HAND_ON_PLAN");
  const tfcc_ir_subgraph *sg = &g->subgraphs[0];
  if (record && !(m->node_macs = calloc((size_t)sg->n_nodes + 1, sizeof *m->node_macs)))
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  tfcc_run_state rs;
  tfcc_status st = tfcc_run_state_init(&rs, g, m->n_resources, &env, false, err);
  if (st != TFCC_OK) return st;
  env.rs = &rs;
  if (sg->unrunnable) { /* another signature's subgraph runs (bind_ops): plan only those */
    env.keep_layout = false;
  } else if ((st = tfcc_exec_plan_build(&plan, g, 0, NULL, false, &env, err)) == TFCC_OK) {
    if (record) {
      for (int32_t e = 0; e < plan.n_nodes; e++)
        m->node_macs[plan.nodes[e].node] = plan.nodes[e].macs;
      m->arena_bytes = plan.arena_bytes;
      m->arena_lower_bound = plan.arena_lower_bound;
      m->arena_naive_bytes = plan.naive_bytes;
    }
    tfcc_exec_plan *keep = plan.layout && plan.n_stateful == 0 ? malloc(sizeof *keep) : NULL;
    if (keep) {
      *keep = plan;
      atomic_store_explicit(&m->spare_plan, keep, memory_order_release);
    } else {
      tfcc_exec_plan_free(&plan);
    }
    env.keep_layout = false;
  } else if (placeholder_shapes(m, g, 0, record, st, err)) {
    st = TFCC_OK;
  }
  for (int32_t k = 0; st == TFCC_OK && k < g->n_signatures; k++) {
    int32_t sgi = g->signatures[k].subgraph;
    if (sgi <= 0 || sgi >= g->n_subgraphs || g->subgraphs[sgi].unrunnable) continue;
    if ((st = tfcc_exec_plan_build(&plan, g, sgi, NULL, false, &env, err)) == TFCC_OK) {
      tfcc_exec_plan_free(&plan);
    } else if (placeholder_shapes(m, g, sgi, record, st, err)) {
      st = TFCC_OK;
    } else if (st != TFCC_ERR_NO_MEMORY) {
      /* as TFLite, which prepares a signature's subgraph when a runner is made for it: the
       * model loads (and takes new weights), a session for this signature fails with this */
      if (record)
        tfcc_log(env.log, TFCC_LOG_WARN, TFCC_TAG_MODEL_LOAD,
                 "signature '%s' (subgraph %d) cannot run: %s; the model's other entries can",
                 g->signatures[k].key, (int)sgi, err->msg);
      st = record ? set_cause(m, sgi, err->msg, err) : TFCC_OK;
    } else {
      tfcc_err_prefix(err, "signature '%s' (subgraph %d)", g->signatures[k].key, (int)sgi);
    }
  }
  tfcc_run_state_free(&rs);
  return st;
}

/* A model loaded for introspection (allow_unsupported; subgraph 0 cannot run) prepares no
 * subgraph: the causes of its other entries, which could run, say so. */
static tfcc_status note_not_prepared(tfcc_model *m, tfcc_err *err) {
  const tfcc_graph *g = &m->graph;
  tfcc_status st = TFCC_OK;
  for (int32_t k = 0; st == TFCC_OK && k < g->n_signatures; k++) {
    const int32_t sgi = g->signatures[k].subgraph;
    if (sgi > 0 && sgi < g->n_subgraphs && !g->subgraphs[sgi].unrunnable)
      st = set_cause(m, sgi,
                     "not prepared: the model was loaded with allow_unsupported for "
                     "introspection, as its subgraph 0 cannot run",
                     err);
  }
  return st;
}

static bool in_hole(void *user, uintptr_t a, uintptr_t b);
/* The Winograd mode of the options (TFCC_WINO_*; disable_winograd 2: stored, other non-zero:
 * off). */
static int model_winograd(const tfcc_model *m) {
  return m->opts.disable_winograd == 2 ? TFCC_WINO_STORED
         : m->opts.disable_winograd    ? TFCC_WINO_OFF
                                       : TFCC_WINO_OTF;
}
static void file_id(const struct stat *st, tfcc_wc_src_id *id);
/* The passes the load disables: the options', and the expand + depthwise fusion at precision bf16
 * (the expand convolutions keep their bf16 GEMM; the fused op is float32) and with a device (it
 * runs the 1x1 expand convolution and the depthwise as two nodes). */
static uint32_t model_disabled_passes(const tfcc_model *m) {
  uint32_t d = m->opts.disabled_passes;
  if (m->opts.precision == TFCC_PRECISION_BF16) d |= TFCC_PASS_FUSE_EXPAND_DWCONV;
  if (m->rt && m->rt->device) d |= TFCC_PASS_FUSE_EXPAND_DWCONV;
  return d;
}

/* The reader with each buffer's length read from the file the model's kept pages are mapped
 * from (tfcc_model_file_peek), 16 KiB of it at a time through a buffer on the stack (pages the
 * open's compare of the sampled ends touched already): not in a frame that lives on through
 * the rest of the load, whose deeper calls would then touch fresh stack pages. */
static __attribute__((noinline)) tfcc_status read_peeked(tfcc_model_file *f, const uint8_t *data,
                                                         size_t size, tfcc_graph *g,
                                                         tfcc_err *err) {
  uint8_t win[16 << 10];
  tfcc_model_file_peek_window(f, win, sizeof win);
  tfcc_status st = tfcc_tflite_read_peek(data, size, tfcc_model_file_peek, f, g, err);
  tfcc_model_file_peek_window(f, NULL, 0);
  return st;
}

tfcc_status tfcc_model_load_graph(tfcc_model *m, const uint8_t *data, size_t size, tfcc_graph *g,
                                  const tfcc_graph *ref, struct tfcc_wcache *wc, tfcc_weights *w,
                                  tfcc_err *err) {
  const bool first = ref == NULL;
  tfcc_status st = first && m->peek_file && data == m->peek_file->data
                       ? read_peeked(m->peek_file, data, size, g, err)
                       : tfcc_tflite_read(data, size, g, err);
  if (st != TFCC_OK) return first ? st : tfcc_err_prefix(err, "new weights");
  if (first && m->opts.require_watermark && (st = tfcc_model_require_watermark(m, err)) != TFCC_OK)
    return st;
  if (first && g->n_subgraphs < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "model has no subgraph");
  /* subgraph calls: indices in range, no recursion; resource variables numbered */
  if (first && (st = tfcc_graph_check_calls(g, &m->n_resources, err)) != TFCC_OK) return st;
  /* bind: by operator code (first load), or node by node as the model's graph is bound */
  if ((st = first ? bind_ops(m, err) : tfcc_weights_bind_like(ref, g, err)) != TFCC_OK) return st;
  if (first && g->subgraphs[0].unrunnable &&
      !tfcc_graph_other_runnable_signature(g)) /* allow_unsupported */
    return note_not_prepared(m, err);
  for (int32_t s = 0; !first && s < g->n_subgraphs; s++) /* new weights: the model's subgraphs */
    g->subgraphs[s].unrunnable = ref->subgraphs[s].unrunnable;
  tfcc_isa isa = tfcc_model_env(m).isa;
  const tfcc_logger *log = tfcc_model_env(m).log;
  int qc = (int)m->opts.quant_compat;
  /* TFLite's XNNPACK delegate failing as a whole (ops/xnn_delegate.h): TFLite then runs every
   * node with its builtin kernels, and so does this model (the same decision for new weights,
   * whose graph has the same nodes) */
  int32_t fail_sg, fail_node;
  const char *fail_why;
  if (qc == TFCC_QUANT_COMPAT_TFLITE &&
      tfcc_xnn_delegate_fails(g, &fail_sg, &fail_node, &fail_why)) {
    qc = TFCC_QUANT_COMPAT_TFLITE_BUILTIN;
    if (first)
      tfcc_log(log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
               "subgraph %d node %d (%s): %s, which TFLite's XNNPACK delegate takes and XNNPACK "
               "then refuses, so TFLite runs every node with its builtin kernels, and so does tfcc",
               (int)fail_sg, (int)fail_node,
               tfcc_node_op_name(&g->subgraphs[fail_sg].nodes[fail_node]), fail_why);
  }
  /* kept in the options so that weight updates run the same passes */
  m->opts.disabled_passes = model_disabled_passes(m);
  /* float16 is the device's precision: the CPU's nodes run in float32 */
  const int cpu_precision =
      m->opts.precision == TFCC_PRECISION_F16 ? TFCC_PRECISION_F32 : (int)m->opts.precision;
  st = tfcc_run_passes(g, m->opts.disabled_passes, isa, log, qc, err);
  if (st == TFCC_OK && first) st = name_fused_nodes(m, err);
  if (st == TFCC_OK && first) log_precision_fallback(m, isa);
  /* first load of bytes the model owns: operators' packing may release its source pages */
  tfcc_packed_store *store = tfcc_wcache_store(wc);
  if (st == TFCC_OK && first && m->releasable && !m->crel_on) {
    m->crel_on = true;
    tfcc_const_release_init(&m->crel, g, m->data, m->size, m->owned_free != NULL, store);
    m->crel.eager = m->cow; /* 4 KiB pages of the page cache: nothing to split */
    m->crel.untouched = m->holes_file ? in_hole : NULL;
    m->crel.untouched_user = m;
    /* a cache file to be written (none there, or refused): its kept pages hold the runs of
     * quantization vectors too (read by the reader, given back once the file's kept pages are
     * copied), so that a warm load maps them from it with the rest of its kept pages instead
     * of reading them */
    m->crel.defer_copied = m->file_copy && wc && !tfcc_wcache_has_file(wc);
    store = &m->crel.store;
  }
  /* a cache file that answers: no packing, the operators' params are the load's only blocks
   * (4 KiB pages rather than a fresh huge page zeroed and then split by the trim) */
  tfcc_wmem_small_first(tfcc_wcache_has_file(wc));
  if (st == TFCC_OK)
    st = tfcc_graph_init_ops(g, isa, log, qc, cpu_precision, model_winograd(m), store, err);
  tfcc_wmem_small_first(false);
  if (st != TFCC_OK) return first ? st : tfcc_err_prefix(err, "new weights");
  if (!first && (st = tfcc_weights_check_signature(ref, g, true, err)) != TFCC_OK) return st;
  if (first && m->crel_on) tfcc_const_release_prepare(&m->crel);
  st = validate_shapes(m, g, first, err);
  /* the packing is over (the prepare pass packs) */
  w->small_len = tfcc_wmem_trim(&w->small);
  return st == TFCC_OK || first ? st : tfcc_err_prefix(err, "new weights");
}

/* [a, b) (addresses in the model's bytes) lies inside a range its file was not read into
 * (runtime/model_file.h; holes are sorted): its pages were never touched. */
static bool in_hole(void *user, uintptr_t a, uintptr_t b) {
  const tfcc_model *m = user;
  const tfcc_model_file *f = m->holes_file;
  const uintptr_t base = (uintptr_t)m->data;
  if (!f || !f->n_holes || a < base || b < a) return false;
  const size_t lo = (size_t)(a - base), hi = (size_t)(b - base);
  size_t l = 0, h = f->n_holes; /* the last hole starting at or before lo */
  while (l < h) {
    const size_t mid = l + (h - l) / 2;
    if (f->holes[mid].off <= lo)
      l = mid + 1;
    else
      h = mid;
  }
  return l > 0 && hi <= f->holes[l - 1].off + f->holes[l - 1].len;
}

/* What the packed blocks depend on besides the model bytes: the kernel level, the kernels
 * whose layouts the blocks hold (runtime/wcache_kernels.h) and the options that change packing
 * (weights_cache.h). The passes are those the load runs (model_disabled_passes): the first load
 * opens its cache before it sets them in the options, a weight update's writer after (cache57:
 * with precision bf16 the two differed, so a fresh load refused every cache an update wrote). */
static tfcc_status weights_cache_ident(const tfcc_model *m, char *buf, size_t cap, tfcc_err *err) {
  const tfcc_isa isa = tfcc_model_env(m).isa;
  const int n =
      snprintf(buf, cap, "tfcc %d.%d isa=%s p%d q%d w%d x%08x ", TFCC_VERSION_MAJOR,
               TFCC_VERSION_MINOR, tfcc_isa_name(isa), (int)m->opts.precision,
               (int)m->opts.quant_compat, model_winograd(m), (unsigned)model_disabled_passes(m));
  if (n > 0 && (size_t)n < cap &&
      tfcc_wc_kernel_names(isa, buf + n, cap - (size_t)n) < cap - (size_t)n)
    return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_RUNTIME,
                      "weights cache: the identity (options and kernel names) exceeds its %zu "
                      "bytes: '%s'",
                      cap - 1, buf);
}

static int cmp_cr_range(const void *a, const void *b) {
  const uint8_t *x = ((const tfcc_cr_range *)a)->p, *y = ((const tfcc_cr_range *)b)->p;
  return x < y ? -1 : x > y;
}

/* The ranges of the model's bytes the constant release gave back, sorted (NULL: none). */
static tfcc_cr_range *released_sorted(const tfcc_model *m, size_t *n) {
  *n = 0;
  if (!m->crel_on || !m->crel.n_rel) return NULL;
  tfcc_cr_range *r = malloc(m->crel.n_rel * sizeof *r);
  if (!r) return NULL;
  memcpy(r, m->crel.rel, m->crel.n_rel * sizeof *r);
  qsort(r, m->crel.n_rel, sizeof *r, cmp_cr_range);
  *n = m->crel.n_rel;
  return r;
}

/* Reads every part of the file's unread ranges that was not released (released bytes are read
 * by nobody); after this nothing is left unread. need_src of the weights cache (a miss, a
 * content hash) and the end of the load. */
static void fill_holes(void *user) {
  tfcc_model *m = user;
  tfcc_model_file *f = m->holes_file;
  if (!f || !f->n_holes) return;
  size_t nr;
  tfcc_cr_range *rel = released_sorted(m, &nr);
  if (m->crel_on && m->crel.n_rel && !rel) nr = 0; /* no memory: read them all (may refault) */
  tfcc_status st = TFCC_OK;
  size_t j = 0;
  for (size_t i = 0; i < f->n_holes && st == TFCC_OK; i++) {
    size_t a = f->holes[i].off;
    const size_t b = a + f->holes[i].len;
    while (a < b && st == TFCC_OK) {
      while (j < nr && (size_t)((const uint8_t *)rel[j].p + rel[j].len - m->data) <= a) j++;
      size_t ra = b, rb = b; /* the next released range inside [a, b) */
      if (j < nr) {
        const size_t x = (size_t)((const uint8_t *)rel[j].p - m->data);
        if (x < b) {
          ra = x > a ? x : a;
          rb = x + rel[j].len < b ? x + rel[j].len : b;
        }
      }
      if (a < ra) st = tfcc_model_file_fill(f, a, ra - a, &m->holes_err);
      if (a < ra) m->file_unread -= ra - a;
      a = rb;
    }
  }
  free(rel);
  f->n_holes = 0;
  if (st != TFCC_OK && m->holes_st == TFCC_OK) m->holes_st = st;
}

/* A weights cache in memory (tfcc_model_options.weights_cache_data / _sink). */
static bool cache_in_mem(const tfcc_model_options *o) {
  return o->weights_cache_data || o->weights_cache_sink;
}
/* The same for the caller's options, which may predate the fields (struct_size). */
static bool opts_cache_in_mem(const tfcc_model_options *o) {
  tfcc_model_options c;
  tfcc_model_options_default(&c);
  if (o->struct_size && o->struct_size <= sizeof c) memcpy(&c, o, o->struct_size);
  return cache_in_mem(&c);
}

static tfcc_status open_weights_cache(tfcc_model *m, const tfcc_wc_src_id *src_id, tfcc_err *err) {
  char ident[TFCC_WC_IDENT_BYTES];
  tfcc_status st = weights_cache_ident(m, ident, sizeof ident, err);
  if (st != TFCC_OK) return st;
  if (cache_in_mem(&m->opts)) {
    const tfcc_wc_mem mem = {m->opts.weights_cache_data,
                             m->opts.weights_cache_size,
                             m->opts.weights_cache_sink,
                             m->opts.weights_cache_sink_user,
                             m->opts.weights_cache_data_trusted != 0,
                             m->opts.weights_cache_no_float != 0};
    return tfcc_wcache_open_mem(m->opts.weights_cache, &mem, ident, m->data, m->size,
                                m->opts.weights_cache_verify != 0, tfcc_model_env(m).log,
                                m->holes_file ? fill_holes : NULL, m, &m->wcache, err);
  }
  /* the sample of a file read with holes (its ends' skipped ranges unread): hashed from the
   * file as it was read */
  const tfcc_model_file *hf = m->holes_file;
  return tfcc_wcache_open(m->opts.weights_cache, ident, m->data, m->size, src_id,
                          hf && hf->has_sample ? &hf->sample : NULL,
                          m->opts.weights_cache_verify != 0, false, tfcc_model_env(m).log,
                          m->holes_file ? fill_holes : NULL, m, &m->wcache, err);
}

tfcc_status tfcc_model_update_cache_open(tfcc_model *m, const uint8_t *data, size_t size,
                                         const struct stat *st, struct tfcc_wcache **out,
                                         tfcc_err *err) {
  *out = NULL;
  if (!m->wcache_path) return TFCC_OK;
  char ident[TFCC_WC_IDENT_BYTES];
  tfcc_status st0 = weights_cache_ident(m, ident, sizeof ident, err);
  if (st0 != TFCC_OK) return st0;
  tfcc_wc_src_id id;
  memset(&id, 0, sizeof id);
  if (st) file_id(st, &id);
  return tfcc_wcache_open(m->wcache_path, ident, data, size, &id, NULL,
                          m->opts.weights_cache_verify != 0, true, tfcc_model_env(m).log, NULL,
                          NULL, out, err);
}

/* For the cache file a load writes: the file ranges this load released (page aligned; the
 * sampled ends' too, whose sample a later load hashes from the file), which a later load of the
 * same file skips. */
static void set_cache_skips(tfcc_model *m) {
  size_t nr;
  tfcc_cr_range *rel = released_sorted(m, &nr);
  if (!rel || m->crel.rel_lost || m->size <= 2 * TFCC_WC_SAMPLE_EDGE) {
    free(rel);
    return;
  }
  tfcc_wc_skip *sk = malloc(nr * sizeof *sk);
  size_t k = 0;
  for (size_t i = 0; sk && i < nr; i++) {
    const uint8_t *p = rel[i].p;
    if (rel[i].copied) continue; /* the reader reads it at every load */
    if (p < m->data || rel[i].len > m->size || (size_t)(p - m->data) > m->size - rel[i].len)
      continue;
    uint64_t a = (uint64_t)(p - m->data), b = a + rel[i].len;
    a = (a + TFCC_WC_SKIP_PAGE - 1) / TFCC_WC_SKIP_PAGE * TFCC_WC_SKIP_PAGE;
    b = b / TFCC_WC_SKIP_PAGE * TFCC_WC_SKIP_PAGE;
    if (a >= b) continue;
    if (k && sk[k - 1].offset + sk[k - 1].bytes >= a) { /* touching or overlapping: merge */
      if (b > sk[k - 1].offset + sk[k - 1].bytes) sk[k - 1].bytes = b - sk[k - 1].offset;
      continue;
    }
    sk[k++] = (tfcc_wc_skip){a, b - a};
  }
  if (sk && k) tfcc_wcache_set_skips(m->wcache, sk, k);
  free(sk);
  free(rel);
}

/* An A/B switch set to "off" or "0". */
static bool getenv_off(const char *name) {
  const char *v = getenv(name);
  return v && (strcmp(v, "off") == 0 || strcmp(v, "0") == 0);
}

/* The pages of the model's private copy it keeps (the complement of what it released), as
 * page-aligned ranges of the model bytes; NULL with *n 0 when none or unknown. */
static tfcc_wc_skip *kept_ranges(const tfcc_model *m, size_t *n) {
  *n = 0;
  /* release off (TFCC_RELEASE_CONSTANTS=off, an A/B setting): the whole file is kept; not
   * copied into the cache */
  if (!m->crel_on || m->crel.rel_lost) return NULL;
  size_t nr = 0;
  tfcc_cr_range *rel = released_sorted(m, &nr);
  if (m->crel.n_rel && !rel) return NULL; /* no memory */
  const size_t pg = TFCC_WC_SKIP_PAGE;
  size_t end = (m->size + pg - 1) / pg * pg;
  if (end > m->mapping_size) end = m->mapping_size / pg * pg;
  tfcc_wc_skip *k = malloc((nr + 1) * sizeof *k);
  size_t at = 0, cnt = 0;
  for (size_t i = 0; k && i <= nr; i++) {
    size_t a = end, b = end; /* the next released range, page aligned */
    if (i < nr) {
      const size_t x = (size_t)((const uint8_t *)rel[i].p - m->data);
      a = x / pg * pg;
      b = (x + rel[i].len + pg - 1) / pg * pg;
      a = a < end ? a : end;
      b = b < end ? b : end;
    }
    if (a > at) k[cnt++] = (tfcc_wc_skip){at, a - at};
    at = b > at ? b : at;
  }
  free(rel);
  *n = cnt;
  if (!cnt) {
    free(k);
    return NULL;
  }
  return k;
}

/* A load with a weights cache: the file to be written keeps a copy of the pages the model
 * keeps; a load that took the file maps its kept pages from it (shared between processes),
 * unless env TFCC_WC_SHARE_KEPT=off. */
static tfcc_status cache_kept_pages(tfcc_model *m, tfcc_err *err) {
  size_t n;
  tfcc_wc_skip *k = kept_ranges(m, &n);
  if (!k) return TFCC_OK;
  bool failed = false;
  if (tfcc_wcache_will_write(m->wcache))
    tfcc_wcache_set_kept(m->wcache, m->data, k, n);
  else if (m->kept_premapped)
    /* mapped from this file when the model file was opened, the sampled ends included (compared
     * with the model file there); a kept page that was not (its range failed to map) stays
     * private: nothing is compared or mapped over populated pages now */
    tfcc_wcache_kept_mapped(m->wcache, m->kept_premapped, 0);
  else if (!getenv_off("TFCC_WC_SHARE_KEPT"))
    tfcc_wcache_share_kept(m->wcache, (uint8_t *)(uintptr_t)m->data, m->mapping_size, k, n,
                           &failed);
  free(k);
  return failed
             ? tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory mapping the model's kept pages")
             : TFCC_OK;
}

/* The identity of a settled file (runtime/weights_cache.h); all zero if it is not settled. */
static void file_id(const struct stat *st, tfcc_wc_src_id *id) {
  memset(id, 0, sizeof *id);
  struct timespec now;
  const time_t last =
      st->st_mtim.tv_sec > st->st_ctim.tv_sec ? st->st_mtim.tv_sec : st->st_ctim.tv_sec;
  if (clock_gettime(CLOCK_REALTIME, &now) != 0 || now.tv_sec - last < TFCC_MF_SETTLED_S) return;
  id->dev = (uint64_t)st->st_dev;
  id->ino = (uint64_t)st->st_ino;
  id->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
  id->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

/* env NAME=on|1 */
static bool getenv_on(const char *name) {
  const char *v = getenv(name);
  return v && (strcmp(v, "on") == 0 || strcmp(v, "1") == 0);
}

/* env NAME=off|0 */
/* src_id: the identity of the file data was read from (weights cache check), or NULL. cow:
 * mapping is a private mapping of that file (TFCC_MF_COW), privatized after the load. */
static tfcc_status model_build(tfcc_runtime *rt, const uint8_t *data, size_t size, void *mapping,
                               size_t mapping_size, tfcc_free_fn owned_free, void *owned_user,
                               const tfcc_wc_src_id *src_id, bool cow, tfcc_model_file *holes,
                               const tfcc_model_options *opts, tfcc_model **out, tfcc_err *err) {
  double t0 = now_ms();
  tfcc_model *m = calloc(1, sizeof *m);
  if (!m) {
    if (mapping) munmap(mapping, mapping_size);
    if (owned_free) owned_free(owned_user, (void *)data, size);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  atomic_init(&m->refs, 1);
  m->rt = rt;
  m->data = data;
  m->size = size;
  m->mapping = mapping;
  m->mapping_size = mapping_size;
  m->owned_free = owned_free;
  m->owned_user = owned_user;
  m->cow = cow;
  m->file_copy = mapping && holes && !holes->mapped && !holes->cow;
  m->gen0.consts_copy = m->file_copy;
  m->holes_file = holes && holes->n_holes ? holes : NULL;
  m->kept_premapped = holes ? holes->mapped_bytes : 0;
  m->peek_file = holes && holes->n_maps && holes->fd >= 0 ? holes : NULL;
  for (size_t i = 0; m->holes_file && i < holes->n_holes; i++)
    m->file_unread += holes->holes[i].len;
  atomic_init(&m->gen0.refs, 1);
  atomic_init(&m->gen0.touched, 0);
  atomic_init(&m->gen0.reads, 0);
  m->gen0.graph = &m->graph;
  atomic_init(&m->weights, &m->gen0);
  atomic_init(&m->spare_plan, NULL);
  if (pthread_mutex_init(&m->update_lock, NULL) == 0) m->update_lock_init = true;
  tfcc_model_options_default(&m->opts);
  if (opts) {
    if (opts->struct_size == 0 || opts->struct_size > sizeof m->opts) {
      model_free(m);
      return tfcc_err_set(err, TFCC_ERR_INVALID_ARG,
                          "model options.struct_size is not set by tfcc_model_options_default()");
    }
    memcpy(&m->opts, opts, opts->struct_size);
    if (m->opts.quant_compat != TFCC_QUANT_COMPAT_TFLITE &&
        m->opts.quant_compat != TFCC_QUANT_COMPAT_REFERENCE) {
      int qc = (int)m->opts.quant_compat;
      model_free(m);
      return tfcc_err_set(err, TFCC_ERR_INVALID_ARG,
                          "model options.quant_compat %d is not a tfcc_quant_compat value", qc);
    }
    if (m->opts.precision != TFCC_PRECISION_F32 && m->opts.precision != TFCC_PRECISION_BF16 &&
        m->opts.precision != TFCC_PRECISION_F16) {
      int pr = (int)m->opts.precision;
      model_free(m);
      return tfcc_err_set(err, TFCC_ERR_INVALID_ARG,
                          "model options.precision %d is not a tfcc_precision value", pr);
    }
  }
  if (!m->opts.disable_winograd) { /* env TFCC_WINOGRAD=off|0|stored (tfcc.h) */
    const char *w = getenv("TFCC_WINOGRAD");
    if (w && (strcmp(w, "off") == 0 || strcmp(w, "0") == 0)) m->opts.disable_winograd = 1;
    if (w && strcmp(w, "stored") == 0) m->opts.disable_winograd = 2;
  }
  tfcc_status st = m->update_lock_init
                       ? TFCC_OK
                       : tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "cannot create a mutex");
  const bool wc_mem = cache_in_mem(&m->opts);
  if (st == TFCC_OK && ((m->opts.weights_cache && m->opts.weights_cache[0]) || wc_mem)) {
    st = open_weights_cache(m, src_id, err);
    /* weight updates write (or take) theirs there too (weights.c); not a cache in memory */
    if (st == TFCC_OK && !wc_mem && !(m->wcache_path = strdup(m->opts.weights_cache)))
      st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  } else
    fill_holes(m); /* no cache after all */
  /* bytes the model owns: constant pages may be released during the load, so what is read
   * from the file later is read now (runtime/const_release.h) */
  m->releasable = (mapping || owned_free) && !getenv_off("TFCC_RELEASE_CONSTANTS") &&
                  !(rt && rt->device); /* a device reads constants after the load */
  if (st == TFCC_OK && m->releasable) {
    /* the watermark's hash covers every byte of the file: a warm load's unread ranges (the
     * weights cache's skip list) are read first, or it would hash their zeros */
    if (m->holes_file && tfcc_model_has_watermark(data, size)) fill_holes(m);
    tfcc_model_watermark_capture(m);
  }
  /* a private copy in whole huge pages: the packing reads it in place while its huge pages
   * stay whole (base/kernel_copy.h; the release tells which split) */
  const bool whole = st == TFCC_OK && holes && holes->whole_huge && mapping == holes->region &&
                     tfcc_kernel_copy_whole_add(mapping, mapping_size);
  /* the zeros past the file's end go now, before the packing makes the load's peak (the last
   * huge page is split: its pages are then gathered by the kernel) */
  if (holes && mapping == holes->region) tfcc_model_file_trim_tail(holes);
  if (st == TFCC_OK)
    st = tfcc_model_load_graph(m, data, size, &m->graph, NULL, m->wcache, &m->gen0, err);
  if (whole) tfcc_kernel_copy_whole_remove(mapping);
  if (m->crel_on) tfcc_const_release_seal(&m->crel);
  /* what was not read from the file and not released: read now (nothing reads released bytes) */
  fill_holes(m);
  m->holes_file = NULL;
  m->peek_file = NULL;
  if (st == TFCC_OK && m->holes_st != TFCC_OK)
    st = tfcc_err_set(err, m->holes_st, "%s", m->holes_err.msg);
  /* a private mapping of the file (TFCC_MF_COW): every page kept gets its own copy now */
  if (st == TFCC_OK && cow &&
      !tfcc_const_release_privatize(m->crel_on ? &m->crel : NULL, mapping, mapping_size))
    st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY,
                      "out of memory for a private copy of the model's kept pages");
  if (st == TFCC_OK && m->wcache && src_id) set_cache_skips(m);
  if (st == TFCC_OK && m->wcache && m->file_copy) st = cache_kept_pages(m, err);
  if (m->crel_on) tfcc_const_release_deferred(&m->crel); /* after the kept pages' copy */
  if (st == TFCC_OK) tfcc_wcache_finish(m->wcache);
  /* the packing is over (what the first trim recorded stays when this one finds none) */
  const void *small = NULL;
  const size_t small_len = tfcc_wmem_trim(&small);
  if (small_len) m->gen0.small = small, m->gen0.small_len = small_len;
  m->opts.weights_cache = NULL; /* the caller's string: read during the load only */
  m->opts.weights_cache_sink = NULL;
  tfcc_ir_subgraph *sg = st == TFCC_OK ? &m->graph.subgraphs[0] : NULL;
  if (st != TFCC_OK) {
    tfcc_log(rt ? &rt->log : NULL, TFCC_LOG_ERROR, TFCC_TAG_MODEL_INVALID, "%s", err->msg);
    model_free(m);
    return st;
  }
  for (int32_t i = 0; i < sg->n_tensors; i++)
    if (sg->tensors[i].data) m->constant_bytes += sg->tensors[i].data_bytes;
  if (rt && rt->device) {
    const tfcc_device *d = rt->device;
    st = d->be->model_open(d->dev, &m->graph, (int)m->opts.precision, &m->dev_model, err);
    if (st != TFCC_OK) {
      tfcc_log(&rt->log, TFCC_LOG_ERROR, TFCC_TAG_MODEL_INVALID, "%s", err->msg);
      model_free(m);
      return st;
    }
  }
  tfcc_log(rt ? &rt->log : NULL, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
           "loaded %zu bytes, %d operators, %d tensors in %.2f ms", size, (int)sg->n_nodes,
           (int)sg->n_tensors, now_ms() - t0);
  *out = m;
  return TFCC_OK;
}

tfcc_status tfcc_model_build(tfcc_runtime *rt, const uint8_t *data, size_t size, void *mapping,
                             size_t mapping_size, const tfcc_model_options *opts, tfcc_model **out,
                             tfcc_err *err) {
  return model_build(rt, data, size, mapping, mapping_size, NULL, NULL, NULL, false, NULL, opts,
                     out, err);
}

tfcc_exec_env tfcc_model_env(const tfcc_model *m) {
  tfcc_exec_env env = {.isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)};
  if (m->rt) {
    env.isa = m->rt->isa;
    env.pool = m->rt->pool;
    env.mem = m->rt->mem;
    env.log = &m->rt->log;
  }
  return env;
}

static tfcc_status fail_create(tfcc_status st, const tfcc_err *err) {
  tfcc_last_error_set(err->msg);
  return st;
}

/* The hashes of a model file's sampled first and last bytes (offsets below hi: the head). */
typedef struct ends_hash {
  tfcc_hash64_state h[2];
  size_t hi;
} ends_hash;

static void ends_piece(void *user, size_t off, const uint8_t *p, size_t n) {
  ends_hash *e = user;
  tfcc_hash64_update(&e->h[off >= e->hi], p, n);
}

tfcc_status tfcc_model_load_file(tfcc_runtime *rt, const char *path, const tfcc_model_options *opts,
                                 tfcc_model **out) {
  tfcc_err err = {0};
  if (!out || !path)
    return fail_create(
        tfcc_err_set(&err, TFCC_ERR_INVALID_ARG, "tfcc_model_load_file: path or out is NULL"),
        &err);
  *out = NULL;
  /* A private copy unless the file is immutable: nothing the model touches may stay on a
   * mapping of a file that can be truncated (SIGBUS) or rewritten in place (docs/lifecycle.md).
   * Opt-in (env TFCC_MODEL_MAP_PRIVATE=1): a private mapping of a settled file instead, whose
   * kept pages get their own copy at the end of the load (TFCC_MF_COW); with a weights cache
   * made from this file the pages its blocks replace are never read. Not the default: a
   * truncation of the file during the load would fault the process (docs/lifecycle.md). */
  unsigned flags = TFCC_MF_KEEP_FD | TFCC_MF_WHOLE_HUGE;
  if (getenv_on("TFCC_MODEL_MAP_PRIVATE")) flags |= TFCC_MF_COW; /* every settled file */
  const bool immutable = tfcc_model_opts_file_immutable(opts);
  /* A warm weights cache made from this very file (same settled identity) lists the ranges its
   * blocks replace: they are not read at all (the copy holds the rest; nothing is mapped). */
  /* Its kept pages (tables, biases, filters read raw) are the file's bytes too, when the
   * cache has not been written since its writer stamped it: mapped from the cache file at
   * once (shared between processes), neither read nor compared (unless env
   * TFCC_WC_SHARE_KEPT=off). */
  tfcc_mf_range *holes = NULL;
  size_t n_holes = 0;
  tfcc_mf_map *maps = NULL;
  size_t n_maps = 0;
  tfcc_wc_src_id peek_id;
  memset(&peek_id, 0, sizeof peek_id);
  tfcc_wc_peek pk;
  memset(&pk, 0, sizeof pk);
  pk.fd = -1;
  if (!immutable && !(flags & TFCC_MF_COW) && opts && opts->weights_cache &&
      opts->weights_cache[0] && !opts->weights_cache_verify && !opts_cache_in_mem(opts)) {
    struct stat st0;
    memset(&st0, 0, sizeof st0);
    if (stat(path, &st0) == 0 && S_ISREG(st0.st_mode)) file_id(&st0, &peek_id);
    tfcc_wc_peek_file(opts->weights_cache, &peek_id, (uint64_t)st0.st_size,
                      !getenv_off("TFCC_WC_SHARE_KEPT"), &pk);
    if (pk.n_skips && (holes = malloc(pk.n_skips * sizeof *holes)) != NULL) {
      for (size_t i = 0; i < pk.n_skips; i++)
        holes[i] = (tfcc_mf_range){pk.skips[i].offset, pk.skips[i].bytes};
      n_holes = pk.n_skips;
    }
    if (pk.n_kept && (maps = malloc(pk.n_kept * sizeof *maps)) != NULL) {
      for (size_t i = 0; i < pk.n_kept; i++)
        maps[i] = (tfcc_mf_map){pk.kept[i].offset, pk.kept[i].bytes, pk.kept[i].at};
      n_maps = pk.n_kept;
    }
  }
  tfcc_model_file f;
  tfcc_status s = holes || maps ? tfcc_model_file_open_holes_maps(path, flags, holes, n_holes, maps,
                                                                  n_maps, pk.fd, &f, &err)
                                : tfcc_model_file_open(path, immutable, flags, &f, &err);
  free(holes);
  free(maps);
  tfcc_wc_peek_free(&pk); /* the mapped ranges stay mapped */
  /* the file's identity for the weights cache: only a settled file's (a write since it was
   * read would stamp later times; runtime/weights_cache.h) */
  tfcc_wc_src_id id;
  memset(&id, 0, sizeof id);
  if (s == TFCC_OK && f.settled) file_id(&f.st, &id);
  /* holes only in a settled copy of the file the skip list was made from (it could have been
   * replaced between the stat and the open), and kept pages mapped in its sampled ends only
   * where they are the file's own bytes (its sample hash is the file's: compared now, read
   * through a small buffer; the middle is vouched for by the identity) */
  bool peeked = f.settled && memcmp(&id, &peek_id, sizeof id) == 0;
  if (s == TFCC_OK && peeked && (f.n_maps || f.n_holes) && f.size > 2 * TFCC_WC_SAMPLE_EDGE) {
    /* the sample hash from the file's own bytes, read through a small buffer: the copy's
     * sampled ends hold skipped ranges too (left unread, their pages never touched) */
    ends_hash eh = {.hi = f.size - TFCC_WC_SAMPLE_EDGE};
    tfcc_hash64_init(&eh.h[0]);
    tfcc_hash64_init(&eh.h[1]);
    s = tfcc_model_file_read_ends(&f, TFCC_WC_SAMPLE_EDGE, eh.hi, ends_piece, &eh, &peeked, &err);
    f.has_sample = s == TFCC_OK && peeked;
    f.sample =
        tfcc_wc_sample_join(tfcc_hash64_final(&eh.h[0]), tfcc_hash64_final(&eh.h[1]), f.size);
  }
  if (s == TFCC_OK && (f.n_holes || f.n_maps) && !peeked) {
    for (size_t i = 0; i < f.n_holes && s == TFCC_OK; i++)
      s = tfcc_model_file_fill(&f, f.holes[i].off, f.holes[i].len, &err);
    f.n_holes = 0;
    f.has_sample = false; /* all of it read: hashed from the copy */
    if (s == TFCC_OK) s = tfcc_model_file_unmap_ranges(&f, &err); /* this file's bytes */
  }
  /* The copy must be one state of the file, not a mix of an old and a new one written while
   * it was read within one tick of the file's timestamps: read it again and compare (a
   * private mapping, or a copy with unread ranges: after the load). */
  const bool after = f.cow || f.n_holes;
  if (s == TFCC_OK && !f.mapped && !after) s = tfcc_model_file_recheck(&f, &err);
  if (s == TFCC_OK && !after)
    tfcc_model_file_close_fd(&f);
  else if (s != TFCC_OK)
    tfcc_model_file_release(&f);
  if (s == TFCC_OK)
    s = model_build(rt, f.data, f.size, f.region, f.region_size, NULL, NULL, &id, f.cow, &f, opts,
                    out, &err);
  if (after) { /* the model owns the memory now (and unmapped it on failure) */
    if (s == TFCC_OK) s = tfcc_model_file_recheck(&f, &err);
    tfcc_model_file_close_fd(&f);
    if (s != TFCC_OK && *out) {
      tfcc_model_release(*out);
      *out = NULL;
    }
  }
  if (s != TFCC_OK) {
    tfcc_err_prefix(&err, "%s", path);
    return fail_create(s, &err);
  }
  return TFCC_OK;
}

tfcc_status tfcc_model_load_buffer(tfcc_runtime *rt, const void *data, size_t size,
                                   const tfcc_model_options *opts, tfcc_model **out) {
  tfcc_err err = {0};
  if (!out || !data)
    return fail_create(
        tfcc_err_set(&err, TFCC_ERR_INVALID_ARG, "tfcc_model_load_buffer: data or out is NULL"),
        &err);
  *out = NULL;
  tfcc_status s = tfcc_model_build(rt, data, size, NULL, 0, opts, out, &err);
  return s == TFCC_OK ? s : fail_create(s, &err);
}

tfcc_status tfcc_model_load_owned_buffer(tfcc_runtime *rt, void *data, size_t size,
                                         tfcc_free_fn free_fn, void *free_user,
                                         const tfcc_model_options *opts, tfcc_model **out) {
  tfcc_err err = {0};
  if (!out || !data || !free_fn) {
    if (data && free_fn) free_fn(free_user, data, size);
    return fail_create(tfcc_err_set(&err, TFCC_ERR_INVALID_ARG,
                                    "tfcc_model_load_owned_buffer: data, free_fn or out is NULL"),
                       &err);
  }
  *out = NULL;
  tfcc_status s =
      model_build(rt, data, size, NULL, 0, free_fn, free_user, NULL, false, NULL, opts, out, &err);
  return s == TFCC_OK ? s : fail_create(s, &err);
}

void tfcc_model_retain(tfcc_model *m) {
  if (m) atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed);
}

void tfcc_model_release(tfcc_model *m) {
  if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1) model_free(m);
}

/* ---------------------------------------------------------------- introspection */

static void fill_info(const tfcc_ir_tensor *t, const int32_t *dims, int32_t rank,
                      tfcc_tensor_info *info) {
  memset(info, 0, sizeof *info);
  info->name = t->name;
  info->dtype = t->dtype;
  info->rank = rank;
  for (int32_t i = 0; i < rank && i < TFCC_MAX_DIMS; i++) {
    info->dims[i] = dims[i];
    info->signature[i] = t->has_signature ? t->signature[i] : t->dims[i];
  }
  int64_t n = tfcc_shape_elements(rank, dims);
  info->bytes = n < 0 ? 0 : (size_t)n * tfcc_dtype_size(t->dtype);
  info->quant_count = t->quant.count;
  info->scales = t->quant.scale;
  info->zero_points = t->quant.zero_point;
  info->quant_axis = t->quant.axis;
}

void tfcc_model_tensor_info_(const tfcc_model *m, int32_t subgraph, int32_t tensor,
                             const int32_t *dims, int32_t rank, tfcc_tensor_info *info);
void tfcc_model_tensor_info_(const tfcc_model *m, int32_t subgraph, int32_t tensor,
                             const int32_t *dims, int32_t rank, tfcc_tensor_info *info) {
  const tfcc_ir_tensor *t = &m->graph.subgraphs[subgraph].tensors[tensor];
  fill_info(t, dims ? dims : t->dims, dims ? rank : t->rank, info);
}

int tfcc_model_input_count(const tfcc_model *m) { return m ? m->graph.subgraphs[0].n_inputs : 0; }
int tfcc_model_output_count(const tfcc_model *m) { return m ? m->graph.subgraphs[0].n_outputs : 0; }

tfcc_status tfcc_model_input_info(const tfcc_model *m, int index, tfcc_tensor_info *info) {
  if (!m || !info || index < 0 || index >= m->graph.subgraphs[0].n_inputs)
    return TFCC_ERR_INVALID_ARG;
  tfcc_model_tensor_info_(m, 0, m->graph.subgraphs[0].inputs[index], NULL, 0, info);
  return TFCC_OK;
}

tfcc_status tfcc_model_output_info(const tfcc_model *m, int index, tfcc_tensor_info *info) {
  if (!m || !info || index < 0 || index >= m->graph.subgraphs[0].n_outputs)
    return TFCC_ERR_INVALID_ARG;
  tfcc_model_tensor_info_(m, 0, m->graph.subgraphs[0].outputs[index], NULL, 0, info);
  return TFCC_OK;
}

int tfcc_model_op_count(const tfcc_model *m) { return m ? m->graph.subgraphs[0].n_nodes : 0; }

tfcc_status tfcc_model_op_info(const tfcc_model *m, int index, tfcc_op_info *info) {
  if (!m || !info || index < 0 || index >= m->graph.subgraphs[0].n_nodes)
    return TFCC_ERR_INVALID_ARG;
  const tfcc_ir_node *n = &m->graph.subgraphs[0].nodes[index];
  memset(info, 0, sizeof *info);
  info->name = m->op_names ? m->op_names[index] : "";
  info->version = n->version;
  info->supported = n->op != NULL;
  info->input_count = n->n_inputs;
  info->output_count = n->n_outputs;
  info->macs = m->node_macs ? m->node_macs[index] : 0;
  info->removed = n->removed;
  return TFCC_OK;
}

int tfcc_model_tensor_count(const tfcc_model *m) { return m ? m->graph.subgraphs[0].n_tensors : 0; }
size_t tfcc_model_constant_bytes(const tfcc_model *m) { return m ? m->constant_bytes : 0; }
const char *tfcc_model_unsupported(const tfcc_model *m) {
  return m && m->unsupported ? m->unsupported : "";
}
const char *tfcc_model_description(const tfcc_model *m) {
  return m && m->graph.description ? m->graph.description : "";
}
