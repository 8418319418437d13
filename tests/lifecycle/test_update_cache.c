/* Weight updates and the packed-weights cache (issue 18 point 6, runtime/weights.c): a model
 * loaded with a cache writes one for each update's new weights at the same path (the stale
 * cache of the old weights is refused, never used for the new ones), a later update or load of
 * the same weights takes it (no block packed), outputs are bit-identical to a load without a
 * cache, and runs that go on during updates (and the cache writers after them) see either
 * generation's exact output. Models from
 * ../shared (skipped when absent). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/tflite_reader.h"
#include "runtime/internal.h"
#include "runtime/weights_cache.h"
#include "lifecycle_util.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

#define OUT_CAP (1u << 20)

static char g_dir[256];
static atomic_int g_refusals; /* WARN lines about the cache */

static void log_fn(void *user, tfcc_log_level level, const char *tag, const char *msg) {
  (void)user;
  (void)tag;
  if (level <= TFCC_LOG_WARN && strstr(msg, "weights cache")) atomic_fetch_add(&g_refusals, 1);
}

/* A copy of the model whose largest constant differs (bytes of it changed), same graph. */
static uint8_t *variant(const uint8_t *model, size_t size) {
  tfcc_graph g;
  memset(&g, 0, sizeof g);
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  const tfcc_ir_tensor *big = NULL;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[i];
    const uint8_t *d = t->data;
    if (d && d >= model && d + t->data_bytes <= model + size &&
        (!big || t->data_bytes > big->data_bytes))
      big = t;
  }
  uint8_t *out = big ? malloc(size) : NULL;
  if (out) {
    memcpy(out, model, size);
    const size_t at = (size_t)((const uint8_t *)big->data - model);
    for (size_t k = 0; k + 4 <= big->data_bytes; k += big->data_bytes / 64 + 4)
      out[at + k + 2] ^= 0x31;
  }
  tfcc_graph_free(&g);
  return out;
}

static tfcc_model *load(tfcc_runtime *rt, const char *path, const char *cache) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(rt, path, &mo, &m) != TFCC_OK)
    fprintf(stderr, "load %s: %s\n", path, tfcc_last_error());
  return m;
}

/* An update, then its cache file written (the update writes it on a thread of its own after
 * the switch). */
static bool update(tfcc_model *m, const char *path) {
  const bool ok = tfcc_model_update_weights(m, path) == TFCC_OK;
  tfcc_weights_join_writer(m);
  return ok;
}

static bool update_buffer(tfcc_model *m, const void *data, size_t n) {
  const bool ok = tfcc_model_update_weights_buffer(m, data, n) == TFCC_OK;
  tfcc_weights_join_writer(m);
  return ok;
}

/* The counts of the cache the model's current weights came through. */
static tfcc_wcache_stats cur_stats(tfcc_model *m) {
  tfcc_wcache_stats s;
  tfcc_weights *w = atomic_load(&m->weights);
  tfcc_wcache_get_stats(w == &m->gen0 ? m->wcache : w->wcache, &s);
  return s;
}

/* A session's fixed inputs and its outputs laid end to end. */
typedef struct runner {
  tfcc_session *s;
  int n_in, n_out;
  const void *ins[8];
  void *outs[8];
  uint8_t *out;
  size_t out_bytes;
} runner;

static bool runner_init(runner *r, tfcc_model *m) {
  memset(r, 0, sizeof *r);
  if (!m || tfcc_session_create(m, NULL, &r->s) != TFCC_OK) return false;
  r->n_in = tfcc_session_input_count(r->s);
  r->n_out = tfcc_session_output_count(r->s);
  r->out = malloc(OUT_CAP);
  bool ok = r->out && r->n_in <= 8 && r->n_out <= 8;
  for (int k = 0; ok && k < r->n_in; k++) {
    tfcc_tensor_info ii;
    ok = tfcc_session_input_info(r->s, k, &ii) == TFCC_OK;
    uint8_t *in = ok ? malloc(ii.bytes + 1) : NULL;
    r->ins[k] = in;
    ok = ok && in;
    if (ok) lc_fill_input(in, &ii);
  }
  for (int k = 0; ok && k < r->n_out; k++) {
    tfcc_tensor_info oi;
    ok = tfcc_session_output_info(r->s, k, &oi) == TFCC_OK && r->out_bytes + oi.bytes <= OUT_CAP;
    r->outs[k] = r->out + r->out_bytes;
    r->out_bytes += ok ? oi.bytes : 0;
  }
  return ok;
}

static bool runner_run(runner *r) { return tfcc_session_run(r->s, r->ins, r->outs) == TFCC_OK; }

static void runner_free(runner *r) {
  for (int k = 0; k < r->n_in; k++) free((void *)r->ins[k]);
  free(r->out);
  tfcc_session_destroy(r->s);
  memset(r, 0, sizeof *r);
}

/* The output of path loaded without a cache (malloc'ed, *n bytes). */
static uint8_t *reference(tfcc_runtime *rt, const char *path, size_t *n) {
  tfcc_model *m = load(rt, path, NULL);
  runner r;
  uint8_t *out = NULL;
  if (runner_init(&r, m) && runner_run(&r) && (out = malloc(r.out_bytes)) != NULL) {
    memcpy(out, r.out, r.out_bytes);
    *n = r.out_bytes;
  }
  runner_free(&r);
  tfcc_model_release(m);
  return out;
}

static bool same_output(tfcc_model *m, const uint8_t *want, size_t n) {
  runner r;
  bool ok = runner_init(&r, m) && runner_run(&r) && r.out_bytes == n && memcmp(r.out, want, n) == 0;
  runner_free(&r);
  return ok;
}

typedef struct spinner {
  tfcc_model *m;
  const uint8_t *a, *b;
  size_t n;
  atomic_int stop;
  int runs, bad;
} spinner;

/* Runs the model until told to stop; every output must be one generation's exact output. */
static void *spin(void *arg) {
  spinner *sp = arg;
  runner r;
  if (!runner_init(&r, sp->m)) {
    sp->bad++;
    return NULL;
  }
  while (!atomic_load(&sp->stop)) {
    if (!runner_run(&r) || r.out_bytes != sp->n ||
        (memcmp(r.out, sp->a, sp->n) != 0 && memcmp(r.out, sp->b, sp->n) != 0))
      sp->bad++;
    sp->runs++;
  }
  runner_free(&r);
  return NULL;
}

static void test_model(const char *shared, const char *file) {
  char src[512], pa[600], pb[600], cache[600];
  snprintf(src, sizeof src, "%s/models/%s", shared, file);
  if (access(src, R_OK) != 0) {
    fprintf(stderr, "SKIP: %s absent\n", src);
    tfcc_test_skipped = 1;
    return;
  }
  size_t n = 0;
  uint8_t *a = tfcc_test_read_file(src, &n);
  uint8_t *b = a ? variant(a, n) : NULL;
  snprintf(pa, sizeof pa, "%s/a_%s", g_dir, file);
  snprintf(pb, sizeof pb, "%s/b_%s", g_dir, file);
  snprintf(cache, sizeof cache, "%s/%s.wc", g_dir, file);
  CHECK(b && lc_write_file(pa, a, n) && lc_write_file(pb, b, n));
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_fn = log_fn;
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(&ro, &rt) == TFCC_OK);
  size_t na = 0, nb = 0;
  uint8_t *ref_a = rt ? reference(rt, pa, &na) : NULL, *ref_b = rt ? reference(rt, pb, &nb) : NULL;
  CHECK(ref_a && ref_b && na == nb);
  CHECKF(ref_a && ref_b && memcmp(ref_a, ref_b, na) != 0, "%s: the variant's output is the same",
         file);
  if (!ref_a || !ref_b || na != nb) goto done;
  unlink(cache);

  /* two models ("replicas") of A share one cache: the first writes it, the second takes it */
  tfcc_model *m1 = load(rt, pa, cache), *m2 = m1 ? load(rt, pa, cache) : NULL;
  CHECK(m1 && m2);
  if (!m1 || !m2) goto done;
  tfcc_wcache_stats st = cur_stats(m1);
  CHECKF(st.written > 0, "%s: first load wrote no cache", file);
  st = cur_stats(m2);
  CHECKF(st.hits > 0 && st.misses == 0, "%s: second load: %u hits %u misses", file, st.hits,
         st.misses);

  /* m1 updated to B: the cache holds A's blocks: refused as stale (one line), B's written */
  int before = atomic_load(&g_refusals);
  CHECK(update(m1, pb));
  st = cur_stats(m1);
  CHECKF(st.rejected && st.hits == 0 && st.written > 0 && atomic_load(&g_refusals) - before == 1,
         "%s: update to B: rejected %d, %u hits, %u written, %d warnings", file, (int)st.rejected,
         st.hits, st.written, atomic_load(&g_refusals) - before);
  CHECKF(same_output(m1, ref_b, nb), "%s: update to B (cache written): output differs", file);

  /* m2 updated to B: takes the cache m1's update wrote, packs nothing */
  CHECK(update(m2, pb));
  st = cur_stats(m2);
  CHECKF(!st.rejected && st.hits > 0 && st.misses == 0 && st.written == 0,
         "%s: second update to B: rejected %d, %u hits, %u misses, %u written", file,
         (int)st.rejected, st.hits, st.misses, st.written);
  CHECKF(same_output(m2, ref_b, nb), "%s: update to B (cache taken): output differs", file);

  /* a new load of B takes it too */
  tfcc_model *m3 = load(rt, pb, cache);
  CHECK(m3);
  if (m3) {
    st = cur_stats(m3);
    CHECKF(!st.rejected && st.hits > 0 && st.misses == 0, "%s: load of B: %u hits %u misses", file,
           st.hits, st.misses);
    CHECKF(same_output(m3, ref_b, nb), "%s: load of B with its cache: output differs", file);
  }
  tfcc_model_release(m3);

  /* m2 back to A from a buffer: B's cache is stale for A: refused, A's written */
  before = atomic_load(&g_refusals);
  CHECK(update_buffer(m2, a, n));
  st = cur_stats(m2);
  CHECKF(st.rejected && st.hits == 0 && st.written > 0 && atomic_load(&g_refusals) - before == 1,
         "%s: buffer update to A: rejected %d, %u hits, %u written", file, (int)st.rejected,
         st.hits, st.written);
  CHECKF(same_output(m2, ref_a, na), "%s: buffer update to A: output differs", file);
  /* and m1 (on B) back to A from the file: takes it */
  CHECK(update(m1, pa));
  st = cur_stats(m1);
  CHECKF(!st.rejected && st.hits > 0 && st.misses == 0 && st.written == 0,
         "%s: update to A: rejected %d, %u hits, %u misses", file, (int)st.rejected, st.hits,
         st.misses);
  CHECKF(same_output(m1, ref_a, na), "%s: update to A (cache taken): output differs", file);

  /* runs during updates that write and take caches: always one generation's exact output */
  spinner sp = {.m = m1, .a = ref_a, .b = ref_b, .n = na};
  atomic_init(&sp.stop, 0);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, spin, &sp) == 0);
  for (int k = 0; k < 6; k++) {
    CHECK(tfcc_model_update_weights(k % 2 ? m1 : m2, k % 4 < 2 ? pb : pa) == TFCC_OK);
    CHECK(tfcc_model_update_weights(m1, k % 2 ? pa : pb) == TFCC_OK);
  }
  atomic_store(&sp.stop, 1);
  pthread_join(th, NULL);
  CHECKF(sp.bad == 0 && sp.runs > 0, "%s: %d of %d runs during updates gave another output", file,
         sp.bad, sp.runs);
  tfcc_model_release(m1);
  tfcc_model_release(m2);

  /* a model loaded without a cache: updates write none */
  tfcc_model *m4 = load(rt, pa, NULL);
  CHECK(m4 && update(m4, pb) && cur_stats(m4).written == 0);
  CHECK(atomic_load(&m4->weights)->wcache == NULL);
  tfcc_model_release(m4);

done:
  tfcc_runtime_destroy(rt);
  free(ref_a);
  free(ref_b);
  free(a);
  free(b);
}

int main(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return TFCC_TEST_SKIP;
  snprintf(g_dir, sizeof g_dir, "/tmp/tfcc_upcache_XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  atomic_init(&g_refusals, 0);
  /* float GEMM + the fused expand/depthwise filter; q8 GEMM (int8) */
  test_model(shared, "hand_landmark_lite.tflite");
  test_model(shared, "mobilenet_v1_025_128_quant.tflite");
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return tfcc_test_finish("test_update_cache");
}
