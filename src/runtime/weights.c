/* Hot weight update: build a new weights generation off the hot path, check it against the
 * model's graph, publish it with one atomic store, retire the old one when its runs end. */
#include "runtime/weights.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "ops/op.h"
#include "runtime/internal.h"
#include "runtime/model_file.h"
#include "runtime/weights_cache.h"

#define HOT_UPDATE_BUDGET_MS 150.0
/* How long an update waits for runs still using the old weights before leaving the freeing to
 * the last of them. */
#define DRAIN_WAIT_NS 1000000000ull

void (*tfcc_weights_test_hook)(const char *path) = NULL;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- references */

tfcc_weights *tfcc_weights_acquire(tfcc_model *m) {
  for (;;) {
    tfcc_weights *w = atomic_load_explicit(&m->weights, memory_order_acquire);
    int r = atomic_load_explicit(&w->refs, memory_order_relaxed);
    while (r > 0)
      if (atomic_compare_exchange_weak_explicit(&w->refs, &r, r + 1, memory_order_acquire,
                                                memory_order_relaxed))
        return w;
    /* Retired between the load and the increment: the model already points elsewhere. */
  }
}

static void weights_free_contents(tfcc_model *m, tfcc_weights *w) {
  if (w == &m->gen0) {
    /* The structure stays for introspection; the prepacked params go. */
    tfcc_graph_release_params(&m->graph);
    return;
  }
  tfcc_graph_release_params(&w->own_graph);
  tfcc_graph_free(&w->own_graph);
  tfcc_wcache_free(w->wcache); /* after the params that pointed into it */
  w->wcache = NULL;
  if (w->mapping) munmap(w->mapping, w->mapping_size);
  free(w->owned);
  w->mapping = NULL;
  w->owned = NULL;
}

void tfcc_weights_release(tfcc_model *m, tfcc_weights *w) {
  if (atomic_fetch_sub_explicit(&w->refs, 1, memory_order_acq_rel) == 1)
    weights_free_contents(m, w);
}

/* ---------------------------------------------------------------- signature check */

static bool quant_equal(const tfcc_quant *a, const tfcc_quant *b) {
  if (a->count != b->count || (a->count > 1 && a->axis != b->axis)) return false;
  for (int32_t i = 0; i < a->count; i++)
    if (memcmp(&a->scale[i], &b->scale[i], sizeof(float)) != 0 ||
        a->zero_point[i] != b->zero_point[i])
      return false;
  return true;
}

static bool list_equal(const int32_t *a, const int32_t *b, int32_t n) {
  return n == 0 || memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* Subgraph a (the model's) against b (the new file's): same tensors, operators, inputs and
 * outputs. */
static tfcc_status check_subgraph(const tfcc_ir_subgraph *a, const tfcc_ir_subgraph *b, bool folded,
                                  tfcc_err *err) {
  char s1[128], s2[128];
  if (a->n_tensors != b->n_tensors)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "graph differs: %d tensors, model has %d",
                        (int)b->n_tensors, (int)a->n_tensors);
  if (a->n_nodes != b->n_nodes)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "graph differs: %d operators, model has %d",
                        (int)b->n_nodes, (int)a->n_nodes);
  if (a->n_inputs != b->n_inputs || !list_equal(a->inputs, b->inputs, a->n_inputs))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "graph differs: input tensors (%d inputs, model has %d)", (int)b->n_inputs,
                        (int)a->n_inputs);
  if (a->n_outputs != b->n_outputs || !list_equal(a->outputs, b->outputs, a->n_outputs))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "graph differs: output tensors (%d outputs, model has %d)",
                        (int)b->n_outputs, (int)a->n_outputs);
  for (int32_t i = 0; i < a->n_tensors; i++) {
    const tfcc_ir_tensor *x = &a->tensors[i], *y = &b->tensors[i];
    if (x->dtype != y->dtype)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): dtype %s, model has %s",
                          (int)i, y->name, tfcc_dtype_name(y->dtype), tfcc_dtype_name(x->dtype));
    if (x->rank != y->rank || memcmp(x->dims, y->dims, (size_t)x->rank * sizeof(int32_t)) != 0)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): shape %s, model has %s",
                          (int)i, y->name, tfcc_shape_str(y->rank, y->dims, s1, sizeof s1),
                          tfcc_shape_str(x->rank, x->dims, s2, sizeof s2));
    if (x->has_signature != y->has_signature ||
        (x->has_signature &&
         memcmp(x->signature, y->signature, (size_t)x->rank * sizeof(int32_t)) != 0))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): shape signature differs",
                          (int)i, y->name);
    if (x->is_variable != y->is_variable)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): %s variable, model's %s",
                          (int)i, y->name, y->is_variable ? "is a" : "is not a",
                          x->is_variable ? "is" : "is not");
    if (folded && ((x->data != NULL) != (y->data != NULL)))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): %s constant, model's %s",
                          (int)i, y->name, y->data ? "is a" : "is not a",
                          x->data ? "is" : "is not");
    if (folded && x->data && x->data_bytes != y->data_bytes)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "tensor %d (%s): constant holds %zu bytes, model's %zu", (int)i, y->name,
                          y->data_bytes, x->data_bytes);
    if (!folded && x->buffer && !y->buffer)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "tensor %d (%s): has no data, model's is a constant", (int)i, y->name);
  }
  for (int32_t k = 0; k < a->n_inputs + a->n_outputs; k++) {
    int32_t t = k < a->n_inputs ? a->inputs[k] : a->outputs[k - a->n_inputs];
    const tfcc_ir_tensor *x = &a->tensors[t], *y = &b->tensors[t];
    if (strcmp(x->name, y->name) != 0)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s tensor %d: named '%s', model's is '%s'",
                          k < a->n_inputs ? "input" : "output", (int)t, y->name, x->name);
    if (!quant_equal(&x->quant, &y->quant))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s tensor %d (%s): quantization differs",
                          k < a->n_inputs ? "input" : "output", (int)t, y->name);
  }
  for (int32_t i = 0; i < a->n_nodes; i++) {
    const tfcc_ir_node *x = &a->nodes[i], *y = &b->nodes[i];
    if (x->builtin != y->builtin || x->version != y->version ||
        strcmp(x->custom_code ? x->custom_code : "", y->custom_code ? y->custom_code : "") != 0) {
      char nx[96];
      snprintf(nx, sizeof nx, "%s", tfcc_node_op_name(x));
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "operator %d: %s v%d, model has %s v%d",
                          (int)i, tfcc_node_op_name(y), (int)y->version, nx, (int)x->version);
    }
    if (x->n_inputs != y->n_inputs || x->n_outputs != y->n_outputs ||
        x->n_intermediates != y->n_intermediates ||
        !list_equal(x->inputs, y->inputs, x->n_inputs) ||
        !list_equal(x->outputs, y->outputs, x->n_outputs) ||
        !list_equal(x->intermediates, y->intermediates, x->n_intermediates))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "operator %d (%s): connects different tensors", (int)i,
                          tfcc_node_op_name(y));
    if (x->options_type != y->options_type || x->options2_type != y->options2_type)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "operator %d (%s): options type differs",
                          (int)i, tfcc_node_op_name(y));
    if (folded && x->removed != y->removed)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "operator %d (%s): folded differently",
                          (int)i, tfcc_node_op_name(y));
    /* the subgraphs a control-flow operator runs, the variable a VAR_HANDLE names */
    if (x->opts.kind == TFCC_OPTIONS_SUBGRAPHS && y->opts.kind == TFCC_OPTIONS_SUBGRAPHS &&
        (x->opts.subgraphs.first != y->opts.subgraphs.first ||
         x->opts.subgraphs.second != y->opts.subgraphs.second))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "operator %d (%s): runs subgraphs %d, %d, model's runs %d, %d", (int)i,
                          tfcc_node_op_name(y), (int)y->opts.subgraphs.first,
                          (int)y->opts.subgraphs.second, (int)x->opts.subgraphs.first,
                          (int)x->opts.subgraphs.second);
    if (x->opts.kind == TFCC_OPTIONS_VAR_HANDLE && y->opts.kind == TFCC_OPTIONS_VAR_HANDLE &&
        x->opts.var_handle.resource_id != y->opts.var_handle.resource_id)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "operator %d (%s): names another variable",
                          (int)i, tfcc_node_op_name(y));
  }
  return TFCC_OK;
}

static bool names_equal(const char *const *a, const char *const *b, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(a[i] ? a[i] : "", b[i] ? b[i] : "") != 0) return false;
  return true;
}

tfcc_status tfcc_weights_check_signature(const tfcc_graph *old, const tfcc_graph *neu, bool folded,
                                         tfcc_err *err) {
  if (neu->n_subgraphs < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "new weights: model has no subgraph");
  if (neu->n_subgraphs != old->n_subgraphs)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "graph differs: %d subgraphs, model has %d",
                        (int)neu->n_subgraphs, (int)old->n_subgraphs);
  for (int32_t s = 0; s < old->n_subgraphs; s++) {
    tfcc_status st = check_subgraph(&old->subgraphs[s], &neu->subgraphs[s], folded, err);
    /* subgraph 0's messages stay as they were for single-subgraph models */
    if (st != TFCC_OK)
      return s == 0 ? st
                    : tfcc_err_prefix(err, "subgraph %d (%s)", (int)s,
                                      old->subgraphs[s].name ? old->subgraphs[s].name : "");
  }
  if (neu->n_signatures != old->n_signatures)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "graph differs: %d signatures, model has %d",
                        (int)neu->n_signatures, (int)old->n_signatures);
  for (int32_t k = 0; k < old->n_signatures; k++) {
    const tfcc_ir_signature *x = &old->signatures[k], *y = &neu->signatures[k];
    if (strcmp(x->key ? x->key : "", y->key ? y->key : "") != 0 || x->subgraph != y->subgraph ||
        x->n_inputs != y->n_inputs || x->n_outputs != y->n_outputs ||
        !list_equal(x->input_tensors, y->input_tensors, x->n_inputs) ||
        !list_equal(x->output_tensors, y->output_tensors, x->n_outputs) ||
        !names_equal(x->input_names, y->input_names, x->n_inputs) ||
        !names_equal(x->output_names, y->output_names, x->n_outputs))
      return tfcc_err_set(
          err, TFCC_ERR_INVALID_MODEL,
          "signature %d ('%s', subgraph %d): differs from the model's ('%s', subgraph %d)", (int)k,
          y->key ? y->key : "", (int)y->subgraph, x->key ? x->key : "", (int)x->subgraph);
  }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- update */

static tfcc_status fail(tfcc_err *err, tfcc_status st) {
  tfcc_last_error_set(err->msg);
  return st;
}

tfcc_status tfcc_weights_bind_like(const tfcc_graph *model, tfcc_graph *neu, tfcc_err *err) {
  if (neu->n_subgraphs != model->n_subgraphs)
    return tfcc_weights_check_signature(model, neu, true, err); /* names the count that differs */
  for (int32_t s = 0; s < model->n_subgraphs; s++)
    if (neu->subgraphs[s].n_nodes != model->subgraphs[s].n_nodes ||
        neu->subgraphs[s].n_tensors != model->subgraphs[s].n_tensors)
      return tfcc_weights_check_signature(model, neu, true, err);
  /* subgraph calls in range and not recursive, variables numbered as at the model's load (the
   * check above compares the numbers) */
  int32_t n_vars = 0;
  tfcc_status st = tfcc_graph_check_calls(neu, &n_vars, err);
  if (st != TFCC_OK) return tfcc_err_prefix(err, "new weights");
  for (int32_t s = 0; s < model->n_subgraphs; s++) {
    const tfcc_ir_subgraph *msg = &model->subgraphs[s];
    tfcc_ir_subgraph *sg = &neu->subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      const tfcc_ir_node *x = &msg->nodes[i];
      tfcc_ir_node *y = &sg->nodes[i];
      if (x->builtin >= TFCC_OP_INTERNAL_FIRST_) { /* fused by a pass: the passes redo it */
        y->op = tfcc_op_lookup(y->builtin);
        continue;
      }
      if (x->builtin != y->builtin || x->version != y->version) /* same message as the full check */
        return tfcc_weights_check_signature(model, neu, true, err);
      y->op = x->op;
    }
  }
  return TFCC_OK;
}

/* Builds generation w over data[0..size) through the load pipeline (tfcc_model_load_graph).
 * st: the file the bytes were read from (NULL: a buffer). A model loaded with a packed-weights
 * cache: the operators take their blocks from the cache at its path when it was made for
 * these bytes (else it is refused as stale, one log line) and offer the ones they pack, which
 * finish_cache writes after the switch. */
static tfcc_status build_generation(tfcc_model *m, tfcc_weights *w, const uint8_t *data,
                                    size_t size, const struct stat *st, tfcc_err *err) {
  /* Every subgraph is checked and bound (tfcc_weights_bind_like, _check_signature). Sessions
   * whose plans run subgraphs or hold variables replan on the new generation (their subgraph
   * plans hold operator params), keeping their variables; the others rebind in place. */
  w->graph = &w->own_graph;
  tfcc_status s = tfcc_model_update_cache_open(m, data, size, st, &w->wcache, err);
  if (s != TFCC_OK) return s;
  s = tfcc_model_load_graph(m, data, size, &w->own_graph, &m->graph, w->wcache, w, err);
  /* the first run on the new weights takes no page fault on the cache's blocks (as the file
   * itself is read up front) */
  if (s == TFCC_OK) tfcc_wcache_prefault(w->wcache);
  return s;
}

/* After the switch, when the operators packed blocks the cache did not hold: the cache for the
 * new weights is written to the model's cache path (SHA-256 of the source, the blocks' hashes,
 * temporary file, fsync, rename: the cache the previous generation still maps is a file no
 * longer named, left intact) on a thread of its own at nice + CACHE_WRITER_NICE, so that
 * neither the update's caller nor the threads running the model wait for it, and they win the
 * CPU from it. The writer holds a reference to the generation (its blocks stay while it reads
 * them); the next update and model_free join it first. The next load or update of these
 * weights takes the file. No thread can be made: written here. */
#define CACHE_WRITER_NICE 10

typedef struct cache_job {
  tfcc_model *m;
  tfcc_weights *w;
} cache_job;

/* Lowers the calling thread's priority by inc (Linux: nice is per thread; capped at 19).
 * Best effort: a thread that cannot be reniced runs at its inherited priority. */
static void nice_this_thread(int inc) {
#ifdef __linux__
  const id_t tid = (id_t)syscall(SYS_gettid);
  errno = 0;
  const int cur = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) (void)setpriority(PRIO_PROCESS, tid, cur + inc > 19 ? 19 : cur + inc);
#else
  (void)inc;
#endif
}

static void *cache_writer(void *arg) {
  cache_job *j = arg;
  nice_this_thread(CACHE_WRITER_NICE);
  tfcc_wcache_finish(j->w->wcache);
  tfcc_weights_release(j->m, j->w);
  free(j);
  return NULL;
}

void tfcc_weights_join_writer(tfcc_model *m) {
  if (!m->cache_writer_on) return;
  pthread_join(m->cache_writer, NULL);
  m->cache_writer_on = false;
}

/* w: just published (current, the update lock held). */
static void finish_cache(tfcc_model *m, tfcc_weights *w) {
  if (!tfcc_wcache_will_write(w->wcache)) {
    tfcc_wcache_finish(w->wcache); /* nothing to write: stops answering */
    return;
  }
  cache_job *j = malloc(sizeof *j);
  if (j) {
    *j = (cache_job){m, w};
    atomic_fetch_add_explicit(&w->refs, 1, memory_order_relaxed); /* current: refs >= 1 */
    if (pthread_create(&m->cache_writer, NULL, cache_writer, j) == 0) {
      m->cache_writer_on = true;
      return;
    }
    atomic_fetch_sub_explicit(&w->refs, 1, memory_order_relaxed);
    free(j);
  }
  tfcc_wcache_finish(w->wcache);
}

/* Publishes w (built, refs 1), retires the previous generation. */
static void publish(tfcc_model *m, tfcc_weights *w, double t_start, double t_prepared,
                    double map_ms) {
  w->next = m->gens;
  m->gens = w;
  tfcc_weights *old = atomic_exchange_explicit(&m->weights, w, memory_order_acq_rel);
  double t_switch = now_ms();
  tfcc_model_drop_spare_plan(m); /* a plan of gen0, which no session created now binds to */
  /* Wait for runs still on the old weights (they hold references), then free them here, off the
   * run path. A run that outlives the wait frees them itself when it ends. */
  struct timespec nap = {0, 50000};
  int expect = 1;
  uint64_t waited = 0;
  bool freed = false;
  while (waited < DRAIN_WAIT_NS) {
    expect = 1;
    if (atomic_compare_exchange_strong_explicit(&old->refs, &expect, 0, memory_order_acq_rel,
                                                memory_order_relaxed)) {
      weights_free_contents(m, old);
      freed = true;
      break;
    }
    nanosleep(&nap, NULL);
    waited += 50000;
  }
  if (!freed) tfcc_weights_release(m, old);
  double t_end = now_ms();
  tfcc_update_info *u = &m->last_update;
  u->generation = w->id;
  u->map_ms = map_ms;
  u->prepare_ms = t_prepared - t_start - map_ms;
  u->switch_ms = t_switch - t_prepared;
  u->total_ms = t_switch - t_start;
  u->drain_ms = t_end - t_switch;
  const tfcc_logger *lg = m->rt ? &m->rt->log : NULL;
  if (u->total_ms > HOT_UPDATE_BUDGET_MS)
    tfcc_log(
        lg, TFCC_LOG_WARN, TFCC_TAG_HOT_UPDATE_DELAY,
        "weights generation %llu published after %.1f ms (budget %.0f ms): map %.1f, prepare %.1f, switch %.1f",
        (unsigned long long)w->id, u->total_ms, HOT_UPDATE_BUDGET_MS, u->map_ms, u->prepare_ms,
        u->switch_ms);
  else
    tfcc_log(
        lg, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
        "weights generation %llu published in %.1f ms (map %.1f, prepare %.1f, switch %.2f; old freed after %.2f ms)",
        (unsigned long long)w->id, u->total_ms, u->map_ms, u->prepare_ms, u->switch_ms,
        u->drain_ms);
}

/* Takes the update lock (held on return, whatever the status: the caller unlocks), waits for the
 * previous update's cache writer (its cache is written before this one's) and makes the new
 * generation. */
static tfcc_status update_begin(tfcc_model *m, tfcc_weights **out, tfcc_err *err) {
  pthread_mutex_lock(&m->update_lock);
  tfcc_weights_join_writer(m);
  /* a model whose other subgraphs cannot run takes new weights (those subgraphs' constants are
   * the new file's bytes: nothing of theirs is prepared); one loaded for introspection does not */
  if (m->graph.subgraphs[0].unrunnable)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "cannot update the weights of a model whose subgraph 0 cannot run (%s)",
                        m->unsupported);
  tfcc_weights *w = calloc(1, sizeof *w);
  if (!w) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  atomic_init(&w->refs, 1);
  atomic_init(&w->touched, 0);
  atomic_init(&w->reads, 0);
  *out = w;
  return TFCC_OK;
}

static void discard(tfcc_model *m, tfcc_weights *w) {
  weights_free_contents(m, w);
  free(w);
}

static tfcc_status update_file(tfcc_model *m, const char *path, tfcc_err *errp) {
  tfcc_err err = {0};
  double t0 = now_ms();
  tfcc_weights *w = NULL;
  tfcc_status st = update_begin(m, &w, &err);
  tfcc_model_file f = {.fd = -1};
  double map_ms = 0;
  if (st == TFCC_OK) {
    /* Read as the model was loaded: a checked private copy (a file truncated or rewritten in
     * place later cannot touch it), or a prefaulted mapping of an immutable file (the first run
     * on the new weights takes no page faults either way). */
    bool immutable = m->opts.file_immutable || tfcc_model_files_immutable_env();
    st = tfcc_model_file_open(path, immutable,
                              TFCC_MF_POPULATE | TFCC_MF_CHECKSUM | TFCC_MF_KEEP_FD, &f, &err);
  }
  if (st == TFCC_OK) {
    w->mapping = f.region; /* the generation owns the bytes from here */
    w->mapping_size = f.region_size;
    w->consts_copy = !f.mapped && !f.cow;
    map_ms = now_ms() - t0;
    st = build_generation(m, w, f.data, f.size, f.settled ? &f.st : NULL, &err);
  }
  double t_prepared = 0;
  if (st == TFCC_OK) {
    if (tfcc_weights_test_hook) tfcc_weights_test_hook(path);
    /* The file must still be what was verified: same inode, size and times, same content. A
     * private copy is safe to use either way; an update from a file that changed meanwhile is
     * refused because the caller meant its final content. */
    st = tfcc_model_file_recheck(&f, &err);
    t_prepared = now_ms();
  }
  tfcc_model_file_close_fd(&f);
  if (st != TFCC_OK) {
    if (w)
      discard(m, w);
    else
      tfcc_model_file_release(&f);
    pthread_mutex_unlock(&m->update_lock);
    tfcc_err_prefix(&err, "%s", path);
    tfcc_log(m->rt ? &m->rt->log : NULL, TFCC_LOG_ERROR, TFCC_TAG_MODEL_INVALID,
             "weight update rejected: %s", err.msg);
    *errp = err;
    return st;
  }
  w->id = m->last_update.generation + 1;
  publish(m, w, t0, t_prepared, map_ms);
  finish_cache(m, w);
  pthread_mutex_unlock(&m->update_lock);
  return TFCC_OK;
}

static tfcc_status update_buffer(tfcc_model *m, const void *data, size_t size, tfcc_err *errp) {
  tfcc_err err = {0};
  double t0 = now_ms();
  tfcc_weights *w = NULL;
  tfcc_status st = update_begin(m, &w, &err);
  double map_ms = 0;
  if (st == TFCC_OK) {
    w->owned = aligned_alloc(64, (size + 63) / 64 * 64);
    if (!w->owned) {
      st = tfcc_err_set(&err, TFCC_ERR_NO_MEMORY, "out of memory copying %zu bytes", size);
    } else {
      memcpy(w->owned, data, size);
      w->consts_copy = true;
      map_ms = now_ms() - t0;
      st = build_generation(m, w, w->owned, size, NULL, &err);
    }
  }
  if (st != TFCC_OK) {
    if (w) discard(m, w);
    pthread_mutex_unlock(&m->update_lock);
    tfcc_log(m->rt ? &m->rt->log : NULL, TFCC_LOG_ERROR, TFCC_TAG_MODEL_INVALID,
             "weight update rejected: %s", err.msg);
    *errp = err;
    return st;
  }
  w->id = m->last_update.generation + 1;
  publish(m, w, t0, now_ms(), map_ms);
  finish_cache(m, w);
  pthread_mutex_unlock(&m->update_lock);
  return TFCC_OK;
}

/* Where an update runs: on the caller's thread; with env TFCC_UPDATE_NICE=N (1-19) on a thread
 * of its own at nice + N, which the caller waits for, so that reading, packing, hashing and
 * writing the weights cache yield the CPU to the threads running the model on a machine with
 * no core to spare (the caller's own priority never changes: an unprivileged thread could not
 * lower its nice value back). Opt-in: on a loaded machine it made updates 5-10x slower and
 * the p99 of runs during them was not clearly lower (bench/README.md, "Hot update and
 * reload"). No thread can be made: on the caller's thread. */
typedef struct update_job {
  tfcc_model *m;
  const char *path; /* NULL: from data[0..size) */
  const void *data;
  size_t size;
  int nice;
  tfcc_status st;
  tfcc_err err;
} update_job;

static int update_nice(void) {
  const char *v = getenv("TFCC_UPDATE_NICE");
  if (!v || !v[0]) return 0;
  const int n = atoi(v);
  return n < 0 ? 0 : n > 19 ? 19 : n;
}

static void update_run(update_job *j) {
  j->st = j->path ? update_file(j->m, j->path, &j->err)
                  : update_buffer(j->m, j->data, j->size, &j->err);
}

static void *update_thread(void *arg) {
  update_job *j = arg;
  nice_this_thread(j->nice);
  update_run(j);
  return NULL;
}

static tfcc_status update_start(update_job *j) {
  if (j->m->dev_model) /* the device's copy of the constants is made once, at load */
    return fail(&j->err, tfcc_err_set(&j->err, TFCC_ERR_UNSUPPORTED,
                                      "weight update: the model runs on device %s, whose "
                                      "weights are not updated in place (load the new file)",
                                      tfcc_runtime_device(j->m->rt)));
  j->nice = update_nice();
  pthread_t th; /* where no thread can be made (wasm without threads): run here */
  if (j->nice > 0 && pthread_create(&th, NULL, update_thread, j) == 0) {
    pthread_join(th, NULL);
    return j->st == TFCC_OK ? TFCC_OK : fail(&j->err, j->st);
  }
  update_run(j);
  return j->st == TFCC_OK ? TFCC_OK : fail(&j->err, j->st);
}

tfcc_status tfcc_model_update_weights(tfcc_model *m, const char *path) {
  tfcc_err err = {0};
  if (!m || !path)
    return fail(&err, tfcc_err_set(&err, TFCC_ERR_INVALID_ARG,
                                   "tfcc_model_update_weights: model or path is NULL"));
  update_job j = {.m = m, .path = path};
  return update_start(&j);
}

tfcc_status tfcc_model_update_weights_buffer(tfcc_model *m, const void *data, size_t size) {
  tfcc_err err = {0};
  if (!m || !data)
    return fail(&err, tfcc_err_set(&err, TFCC_ERR_INVALID_ARG,
                                   "tfcc_model_update_weights_buffer: model or data is NULL"));
  update_job j = {.m = m, .data = data, .size = size};
  return update_start(&j);
}

tfcc_status tfcc_model_update_info(const tfcc_model *m, tfcc_update_info *info) {
  if (!m || !info) return TFCC_ERR_INVALID_ARG;
  tfcc_model *mm = (tfcc_model *)m; /* the lock only orders the read against an update */
  pthread_mutex_lock(&mm->update_lock);
  *info = m->last_update;
  pthread_mutex_unlock(&mm->update_lock);
  return TFCC_OK;
}
