/* The load's validation plan handed on to the model's first session (tfcc_model.spare_plan,
 * runtime/session.c take_load_plan): that session runs bit-identical to one that planned itself
 * (a second session of the same model, and a session of the same file loaded with
 * TFCC_HAND_ON_PLAN=off); sessions that differ plan anew or take it with their own options
 * (prefault, max_memory, resized inputs, a weight update before the first session, a model with
 * subgraph calls or operator state); a warm weights cache load hands its plan on too; of
 * sessions created at once from several threads exactly one takes it. And the first session's
 * other help, the weights cache's pages read ahead on a thread (prefault
 * TFCC_PREFAULT_BACKGROUND): same outputs, started once, stopped and joined safely. And what a
 * session gets by default (prefault 0, options NULL or defaulted): its arena resident and the
 * cache's pages read at creation, so that the first run faults none of them; TFCC_PREFAULT_OFF
 * touches neither (the first run does); the outputs are the same. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lifecycle_util.h"
#include "runtime/internal.h"
#include "runtime/weights_cache.h"
#include "test_harness.h"

#define MAX_IO 8
#define N_THREADS 4

/* Deterministic input bytes of every input of s (floats in [-1, 1]); outputs' buffers. */
typedef struct io_set {
  int n_in, n_out;
  void *in[MAX_IO];
  void *out[MAX_IO];
  size_t out_bytes[MAX_IO];
} io_set;

static void io_free(io_set *io) {
  for (int k = 0; k < io->n_in; k++) free(io->in[k]);
  for (int k = 0; k < io->n_out; k++) free(io->out[k]);
  memset(io, 0, sizeof *io);
}

static bool io_make(tfcc_session *s, io_set *io) {
  memset(io, 0, sizeof *io);
  io->n_in = tfcc_session_input_count(s);
  io->n_out = tfcc_session_output_count(s);
  if (io->n_in > MAX_IO || io->n_out > MAX_IO) return false;
  for (int k = 0; k < io->n_in; k++) {
    tfcc_tensor_info ii;
    if (tfcc_session_input_info(s, k, &ii) != TFCC_OK) return false;
    uint8_t *p = malloc(ii.bytes + 1);
    if (!p) return false;
    io->in[k] = p;
    if (ii.dtype == TFCC_FLOAT32) {
      for (size_t i = 0; i < ii.bytes / 4; i++)
        ((float *)(void *)p)[i] = (float)((int)((i * 7 + (size_t)k) % 17) - 8) / 8.0f;
    } else {
      for (size_t i = 0; i < ii.bytes; i++) p[i] = (uint8_t)(i * 37 + 11 + (size_t)k);
    }
  }
  for (int k = 0; k < io->n_out; k++) {
    tfcc_tensor_info oi;
    if (tfcc_session_output_info(s, k, &oi) != TFCC_OK) return false;
    io->out_bytes[k] = oi.bytes;
    if (!(io->out[k] = calloc(1, oi.bytes + 1))) return false;
  }
  return true;
}

/* false while checking a model whose operators draw random numbers: a session's second run
 * draws other ones (its first runs equal another session's) */
static bool g_repeat_same = true;

/* Runs s twice on io's inputs (the second run must equal the first: variables reset between
 * them), io's outputs those of the first; false on a failure. */
static bool run2(tfcc_session *s, io_set *io) {
  if (tfcc_session_run(s, (const void *const *)io->in, io->out) != TFCC_OK) return false;
  void *first[MAX_IO] = {0};
  bool same = true;
  for (int k = 0; k < io->n_out; k++) {
    first[k] = malloc(io->out_bytes[k] + 1);
    if (first[k]) memcpy(first[k], io->out[k], io->out_bytes[k]);
  }
  tfcc_session_reset_state(s);
  if (tfcc_session_run(s, (const void *const *)io->in, io->out) != TFCC_OK) same = false;
  for (int k = 0; k < io->n_out; k++) {
    if (!first[k] || (g_repeat_same && memcmp(first[k], io->out[k], io->out_bytes[k]) != 0))
      same = false;
    if (first[k]) memcpy(io->out[k], first[k], io->out_bytes[k]);
    free(first[k]);
  }
  return same;
}

static bool same_outputs(const io_set *a, const io_set *b) {
  if (a->n_out != b->n_out) return false;
  for (int k = 0; k < a->n_out; k++)
    if (a->out_bytes[k] != b->out_bytes[k] || memcmp(a->out[k], b->out[k], a->out_bytes[k]) != 0)
      return false;
  return true;
}

static tfcc_model *load(tfcc_runtime *rt, const char *path, const char *cache, bool hand_on) {
  if (!hand_on) setenv("TFCC_HAND_ON_PLAN", "off", 1);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, &mo, &m);
  unsetenv("TFCC_HAND_ON_PLAN");
  return st == TFCC_OK ? m : NULL;
}

/* The first session of a fresh load of path: handed the load plan (expect_handed), outputs of
 * two runs equal to those of a second session, of a session of a load with handing on off, and
 * of a first session created with prefault. */
static void check_model(tfcc_runtime *rt, const char *path, bool expect_handed) {
  tfcc_model *m = load(rt, path, NULL, true), *moff = load(rt, path, NULL, false);
  tfcc_model *mpf = load(rt, path, NULL, true);
  CHECKF(m && moff && mpf, "%s: load failed: %s", path, tfcc_last_error());
  if (!m || !moff || !mpf) goto out_models;
  CHECKF((atomic_load(&m->spare_plan) != NULL) == expect_handed, "%s: load plan kept", path);
  CHECKF(atomic_load(&moff->spare_plan) == NULL, "%s: TFCC_HAND_ON_PLAN=off kept a plan", path);
  tfcc_session *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = 1;
  CHECK(tfcc_session_create(m, NULL, &a) == TFCC_OK);
  CHECK(tfcc_session_create(m, NULL, &b) == TFCC_OK);
  CHECK(tfcc_session_create(moff, NULL, &c) == TFCC_OK);
  CHECK(tfcc_session_create(mpf, &so, &d) == TFCC_OK);
  if (!a || !b || !c || !d) goto out;
  CHECKF(a->plan_handed_on == expect_handed, "%s: first session handed on %d", path,
         (int)a->plan_handed_on);
  CHECKF(!b->plan_handed_on && !c->plan_handed_on, "%s: later sessions plan themselves", path);
  CHECKF(d->plan_handed_on == expect_handed, "%s: prefault session handed on %d", path,
         (int)d->plan_handed_on);
  CHECK(atomic_load(&m->spare_plan) == NULL);
  CHECK(a->plan.arena_bytes == b->plan.arena_bytes && a->plan.arena_bytes == m->arena_bytes);
  CHECK(a->plan.n_nodes == b->plan.n_nodes && a->plan.persist_bytes == b->plan.persist_bytes);
  CHECK(a->plan.tables_wmem == b->plan.tables_wmem || !a->plan.tables_wmem);
  /* every node reaches its own session's run state and budget, not the load's (gone) */
  for (int32_t e = 0; e < a->plan.n_nodes; e++)
    CHECKF(a->plan.nodes[e].ctx.rs == &a->rs && a->plan.nodes[e].ctx.budget == &a->rs.budget &&
               d->plan.nodes[e].ctx.budget == &d->rs.budget,
           "%s: node %d's run state / budget not its session's", path, (int)e);
  io_set ia, ib, ic, id;
  CHECK(io_make(a, &ia) && io_make(b, &ib) && io_make(c, &ic) && io_make(d, &id));
  CHECKF(run2(a, &ia), "%s: handed-on session runs", path);
  CHECKF(run2(b, &ib) && run2(c, &ic) && run2(d, &id), "%s: other sessions run", path);
  CHECKF(same_outputs(&ia, &ib), "%s: handed-on vs second session", path);
  CHECKF(same_outputs(&ia, &ic), "%s: handed-on vs TFCC_HAND_ON_PLAN=off", path);
  CHECKF(same_outputs(&ia, &id), "%s: handed-on vs prefault", path);
  io_free(&ia);
  io_free(&ib);
  io_free(&ic);
  io_free(&id);
out:
  tfcc_session_destroy(a);
  tfcc_session_destroy(b);
  tfcc_session_destroy(c);
  tfcc_session_destroy(d);
out_models:
  tfcc_model_release(m);
  tfcc_model_release(moff);
  tfcc_model_release(mpf);
}

/* max_memory under the arena: the first session fails as a self-planned one does (same status
 * and message), the next one without the limit plans itself and runs. */
static void check_max_memory(tfcc_runtime *rt, const char *path) {
  tfcc_model *m = load(rt, path, NULL, true), *moff = load(rt, path, NULL, false);
  CHECK(m && moff);
  if (!m || !moff) goto out;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.max_memory = 64;
  tfcc_session *s = NULL, *soff = NULL;
  tfcc_status st = tfcc_session_create(m, &so, &s);
  char msg[512];
  snprintf(msg, sizeof msg, "%s", tfcc_last_error());
  tfcc_status stoff = tfcc_session_create(moff, &so, &soff);
  CHECKF(st == TFCC_ERR_NO_MEMORY && stoff == st, "max_memory: %d / %d", (int)st, (int)stoff);
  CHECKF(strcmp(msg, tfcc_last_error()) == 0, "max_memory messages: '%s' / '%s'", msg,
         tfcc_last_error());
  CHECK(!s && !soff);
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK && s && !s->plan_handed_on);
  io_set io;
  CHECK(s && io_make(s, &io) && run2(s, &io));
  if (s) io_free(&io);
  tfcc_session_destroy(s);
out:
  tfcc_model_release(m);
  tfcc_model_release(moff);
}

/* New weights before the first session: it plans on them (the load plan is of gen0's), and
 * computes what a model loaded from the new bytes computes; so does a session created before
 * the update from the load plan, rebound at its next run. */
static void check_update_first(tfcc_runtime *rt, const char *path, const char *tmpdir) {
  size_t size = 0;
  uint8_t *bytes = tfcc_test_read_file(path, &size);
  uint8_t *var = bytes ? lc_variant(bytes, size, 1) : NULL;
  char vpath[600];
  snprintf(vpath, sizeof vpath, "%s/variant.tflite", tmpdir);
  CHECK(var && lc_write_file(vpath, var, size));
  tfcc_model *m = load(rt, path, NULL, true), *m2 = load(rt, path, NULL, true),
             *mv = load(rt, vpath, NULL, false);
  CHECK(m && m2 && mv);
  tfcc_session *s = NULL, *s2 = NULL, *sv = NULL;
  if (!m || !m2 || !mv) goto out;
  CHECK(tfcc_session_create(m2, NULL, &s2) == TFCC_OK && s2 && s2->plan_handed_on);
  CHECK(tfcc_model_update_weights_buffer(m, var, size) == TFCC_OK);
  CHECK(tfcc_model_update_weights_buffer(m2, var, size) == TFCC_OK);
  CHECK(atomic_load(&m->spare_plan) == NULL); /* dropped by the update */
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK && s && !s->plan_handed_on);
  CHECK(tfcc_session_create(mv, NULL, &sv) == TFCC_OK && sv);
  if (!s || !s2 || !sv) goto out;
  io_set a, b, c;
  CHECK(io_make(s, &a) && io_make(s2, &b) && io_make(sv, &c));
  CHECK(run2(s, &a) && run2(s2, &b) && run2(sv, &c));
  CHECKF(same_outputs(&a, &c), "%s: update before the first session", path);
  CHECKF(same_outputs(&b, &c), "%s: handed-on session after an update", path);
  io_free(&a);
  io_free(&b);
  io_free(&c);
out:
  tfcc_session_destroy(s);
  tfcc_session_destroy(s2);
  tfcc_session_destroy(sv);
  tfcc_model_release(m);
  tfcc_model_release(m2);
  tfcc_model_release(mv);
  free(bytes);
  free(var);
  unlink(vpath);
}

/* A warm weights cache load hands its plan on; outputs equal to the cold load's. */
static void check_cache(tfcc_runtime *rt, const char *path, const char *tmpdir) {
  char cpath[600];
  snprintf(cpath, sizeof cpath, "%s/plan.wc", tmpdir);
  unlink(cpath);
  tfcc_model *cold = load(rt, path, cpath, true), *warm = load(rt, path, cpath, true);
  CHECK(cold && warm);
  tfcc_session *a = NULL, *b = NULL;
  if (!cold || !warm) goto out;
  tfcc_wcache_stats ws;
  tfcc_wcache_get_stats(warm->wcache, &ws);
  CHECKF(ws.hits > 0 && ws.misses == 0 && !ws.rejected, "%s: warm load took its blocks", path);
  CHECK(tfcc_session_create(cold, NULL, &a) == TFCC_OK && a && a->plan_handed_on);
  CHECK(tfcc_session_create(warm, NULL, &b) == TFCC_OK && b && b->plan_handed_on);
  if (!a || !b) goto out;
  io_set ia, ib;
  CHECK(io_make(a, &ia) && io_make(b, &ib) && run2(a, &ia) && run2(b, &ib));
  CHECKF(same_outputs(&ia, &ib), "%s: warm cache load, handed on", path);
  io_free(&ia);
  io_free(&ib);
out:
  tfcc_session_destroy(a);
  tfcc_session_destroy(b);
  tfcc_model_release(cold);
  tfcc_model_release(warm);
  unlink(cpath);
}

/* A resize after a handed-on plan replans at the new shape, and back. */
static void check_resize(tfcc_runtime *rt, const char *path) {
  tfcc_model *m = load(rt, path, NULL, true);
  CHECK(m != NULL);
  tfcc_session *s = NULL, *t = NULL;
  if (!m) return;
  CHECK(tfcc_session_create(m, NULL, &s) == TFCC_OK && s && s->plan_handed_on);
  CHECK(tfcc_session_create(m, NULL, &t) == TFCC_OK && t);
  if (s && t) {
    tfcc_tensor_info ii;
    CHECK(tfcc_session_input_info(s, 0, &ii) == TFCC_OK);
    int32_t dims[TFCC_MAX_DIMS];
    for (int d = 0; d < ii.rank; d++) dims[d] = ii.dims[d];
    dims[0] = 2; /* a batch of two */
    CHECK(tfcc_session_resize_input(s, 0, ii.rank, dims) == TFCC_OK);
    dims[0] = ii.dims[0];
    CHECK(tfcc_session_resize_input(s, 0, ii.rank, dims) == TFCC_OK);
    io_set a, b;
    CHECK(io_make(s, &a) && io_make(t, &b) && run2(s, &a) && run2(t, &b));
    CHECKF(same_outputs(&a, &b), "%s: resized and back", path);
    io_free(&a);
    io_free(&b);
  }
  tfcc_session_destroy(s);
  tfcc_session_destroy(t);
  tfcc_model_release(m);
}

static tfcc_session *session_pf(tfcc_model *m, int prefault) {
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = prefault;
  tfcc_session *s = NULL;
  return m && tfcc_session_create(m, &so, &s) == TFCC_OK ? s : NULL;
}

/* prefault TFCC_PREFAULT_BACKGROUND: on a warm cache load the first such session starts the
 * thread reading the blocks' pages (once per model, not after a synchronous prefault, not
 * without a cache); outputs equal the cold load's; a session destroyed right after its
 * creation stops and joins it. */
static void check_background(tfcc_runtime *rt, const char *path, const char *tmpdir) {
  char cpath[600];
  snprintf(cpath, sizeof cpath, "%s/bg.wc", tmpdir);
  unlink(cpath);
  tfcc_model *cold = load(rt, path, cpath, true);
  tfcc_session *ref = cold ? session_pf(cold, 0) : NULL;
  io_set want;
  CHECK(ref && io_make(ref, &want) && run2(ref, &want));
  if (!ref) {
    tfcc_model_release(cold);
    return;
  }
  for (int round = 0; round < 6; round++) {
    tfcc_model *m = load(rt, path, cpath, true);
    tfcc_session *a = session_pf(m, TFCC_PREFAULT_BACKGROUND);
    tfcc_session *b = session_pf(m, TFCC_PREFAULT_BACKGROUND);
    CHECKF(a && b && a->touch_started && !b->touch_started, "%s: round %d: touch started once",
           path, round);
    io_set x, y;
    CHECK(a && b && io_make(a, &x) && io_make(b, &y) && run2(a, &x) && run2(b, &y));
    if (a && b) {
      CHECKF(same_outputs(&x, &want) && same_outputs(&y, &want), "%s: background prefault", path);
      io_free(&x);
      io_free(&y);
    }
    if (round % 2) { /* the model's reference dropped first: freed at the last destroy */
      tfcc_model_release(m);
      tfcc_session_destroy(b);
      tfcc_session_destroy(a);
    } else {
      tfcc_session_destroy(a);
      tfcc_session_destroy(b);
      tfcc_model_release(m);
    }
  }
  for (int round = 0; round < 6; round++) { /* destroyed at once: stopped while it reads */
    tfcc_model *m = load(rt, path, cpath, true);
    tfcc_session *a = session_pf(m, TFCC_PREFAULT_BACKGROUND);
    CHECK(a && a->touch_started);
    tfcc_session_destroy(a);
    tfcc_model_release(m);
  }
  tfcc_model *m = load(rt, path, cpath, true);
  tfcc_session *a = session_pf(m, 1), *b = session_pf(m, TFCC_PREFAULT_BACKGROUND);
  CHECKF(a && b && !a->touch_started && !b->touch_started, "%s: prefaulted: no thread", path);
  tfcc_session_destroy(a);
  tfcc_session_destroy(b);
  tfcc_model_release(m);
  m = load(rt, path, NULL, true);
  a = session_pf(m, TFCC_PREFAULT_BACKGROUND);
  io_set x;
  CHECKF(a && !a->touch_started, "%s: no cache: no thread", path);
  CHECK(a && io_make(a, &x) && run2(a, &x) && same_outputs(&x, &want));
  if (a) io_free(&x);
  tfcc_session_destroy(a);
  tfcc_model_release(m);
  io_free(&want);
  tfcc_session_destroy(ref);
  tfcc_model_release(cold);
  unlink(cpath);
}

/* Pages of [p, p + n) resident in this process (mincore), and how many pages it spans. */
static size_t resident_pages(const void *p, size_t n, size_t *pages) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  const uintptr_t a = (uintptr_t)p / pg * pg, b = ((uintptr_t)p + n + pg - 1) / pg * pg;
  *pages = (size_t)(b - a) / pg;
  unsigned char *v = malloc(*pages + 1);
  size_t in = 0;
  if (v && mincore((void *)a, (size_t)(b - a), v) == 0)
    for (size_t i = 0; i < *pages; i++) in += v[i] & 1;
  free(v);
  return in;
}

/* The default (options NULL, defaulted, prefault 0) against TFCC_PREFAULT_OFF, on a warm cache
 * load of path: by default every arena page is resident when the session is created (checked
 * where the arena is a mapping of its own, arenas of 512 KiB or more: a heap arena is zeroed,
 * so touched, either way) and the cache's pages were read (a later background session starts
 * no thread: nothing left to read); with TFCC_PREFAULT_OFF no arena page is resident and the
 * cache is left to the first run (a background session then starts its thread). The outputs
 * are the same. Returns whether the arena was a mapping (its check counted). */
static bool check_default_prefault(tfcc_runtime *rt, const char *path, const char *tmpdir) {
  char cpath[600];
  snprintf(cpath, sizeof cpath, "%s/pf.wc", tmpdir);
  unlink(cpath);
  tfcc_model *cold = load(rt, path, cpath, true);
  tfcc_session *ref = cold ? session_pf(cold, TFCC_PREFAULT_OFF) : NULL;
  io_set want;
  CHECK(ref && io_make(ref, &want) && run2(ref, &want));
  bool mapped = false;
  for (int mode = 0; ref && mode < 4; mode++) {
    /* 0: options NULL; 1: defaulted; 2: TFCC_PREFAULT_OFF; 3: 1 (the huge page rebuilt too) */
    tfcc_model *m = load(rt, path, cpath, true);
    tfcc_session *s = NULL;
    if (m && mode == 0 && tfcc_session_create(m, NULL, &s) != TFCC_OK) s = NULL;
    if (m && mode) s = session_pf(m, mode == 1 ? 0 : mode == 2 ? TFCC_PREFAULT_OFF : 1);
    CHECKF(s != NULL, "%s: mode %d: session: %s", path, mode, tfcc_last_error());
    if (!s) {
      tfcc_model_release(m);
      continue;
    }
    const bool off = mode == 2;
    if (s->plan.arena_mem.mapped) {
      mapped = true;
      size_t pages = 0;
      const size_t in = resident_pages(s->plan.arena, s->plan.arena_bytes, &pages);
      CHECKF(off ? in == 0 : in == pages,
             "%s: mode %d: %zu of the arena's %zu pages resident at creation", path, mode, in,
             pages);
    }
    tfcc_session *bg = session_pf(m, TFCC_PREFAULT_BACKGROUND);
    CHECKF(bg && bg->touch_started == off, "%s: mode %d: the cache %s at creation", path, mode,
           off ? "was read" : "was not read");
    tfcc_session_destroy(bg);
    io_set x;
    CHECK(io_make(s, &x) && run2(s, &x));
    CHECKF(same_outputs(&x, &want), "%s: mode %d: outputs", path, mode);
    io_free(&x);
    tfcc_session_destroy(s);
    tfcc_model_release(m);
  }
  /* a value that is none of them is refused, naming it */
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  tfcc_session *bad = NULL;
  for (int v = -3; cold && v <= 5; v += 8) {
    so.prefault = v;
    char want_msg[40];
    snprintf(want_msg, sizeof want_msg, "options.prefault is %d", v);
    CHECKF(tfcc_session_create(cold, &so, &bad) == TFCC_ERR_INVALID_ARG && !bad &&
               strstr(tfcc_last_error(), want_msg),
           "%s: prefault %d: %s", path, v, tfcc_last_error());
  }
  if (ref) io_free(&want);
  tfcc_session_destroy(ref);
  tfcc_model_release(cold);
  unlink(cpath);
  return mapped;
}

/* How many sessions' creations read generation w's pages (runtime/weights.h). */
static unsigned reads(const tfcc_weights *w) { return atomic_load(&w->reads); }

/* The default prefault reads a generation's pages (its constants read in place, its last packed
 * bytes on 4 KiB pages, its cache) at the first session of it only: a second session of the
 * same weights reads nothing again, nor one with TFCC_PREFAULT_OFF; after a weight update the
 * first session of the new generation reads it, once; a session of a second model reads its
 * own. Outputs of every session equal. A load from the file whose packing left its last huge
 * page split names those bytes (tfcc_weights.small). */
static void check_touch_once(tfcc_runtime *rt, const char *path) {
  size_t size = 0;
  uint8_t *bytes = tfcc_test_read_file(path, &size);
  tfcc_model *m = load(rt, path, NULL, true), *m2 = load(rt, path, NULL, true);
  CHECK(bytes && m && m2);
  tfcc_session *s[6] = {0};
  io_set want, x;
  bool have_want = false;
  if (!bytes || !m || !m2) goto out;
  s[0] = session_pf(m, 0);
  CHECKF(reads(&m->gen0) == 1, "%s: first session: %u reads", path, reads(&m->gen0));
  s[1] = session_pf(m, 0);
  s[2] = session_pf(m, TFCC_PREFAULT_OFF);
  CHECKF(reads(&m->gen0) == 1, "%s: later sessions of the same weights: %u reads, want 1", path,
         reads(&m->gen0));
  s[3] = session_pf(m2, 0);
  CHECKF(reads(&m2->gen0) == 1 && reads(&m->gen0) == 1, "%s: another model: %u and %u reads", path,
         reads(&m2->gen0), reads(&m->gen0));
  CHECK(tfcc_model_update_weights_buffer(m, bytes, size) == TFCC_OK);
  const tfcc_weights *gen1 = atomic_load(&m->weights);
  s[4] = session_pf(m, 0);
  s[5] = session_pf(m, 0);
  CHECKF(gen1 != &m->gen0 && reads(gen1) == 1 && reads(&m->gen0) == 1,
         "%s: after an update: %u reads of the new generation, want 1 (the old one %u)", path,
         reads(gen1), reads(&m->gen0));
  for (int k = 0; k < 6; k++)
    CHECKF(s[k] != NULL, "%s: session %d: %s", path, k, tfcc_last_error());
  if (!s[0] || !io_make(s[0], &want) || !run2(s[0], &want)) goto out;
  have_want = true;
  for (int k = 1; k < 6; k++) {
    if (!s[k] || !io_make(s[k], &x)) continue;
    CHECKF(run2(s[k], &x) && same_outputs(&x, &want), "%s: session %d: outputs", path, k);
    io_free(&x);
  }
out:
  if (have_want) io_free(&want);
  for (int k = 0; k < 6; k++) tfcc_session_destroy(s[k]);
  tfcc_model_release(m);
  tfcc_model_release(m2);
  free(bytes);
}

typedef struct racer {
  tfcc_model *m;
  pthread_barrier_t *bar;
  tfcc_session *s;
} racer;

static void *race(void *arg) {
  racer *r = arg;
  pthread_barrier_wait(r->bar);
  if (tfcc_session_create(r->m, NULL, &r->s) != TFCC_OK) r->s = NULL;
  return NULL;
}

/* Sessions created at once: exactly one takes the plan; all compute the same. */
static void check_race(tfcc_runtime *rt, const char *path) {
  for (int round = 0; round < 8; round++) {
    tfcc_model *m = load(rt, path, NULL, true);
    CHECK(m != NULL);
    if (!m) return;
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, N_THREADS);
    racer r[N_THREADS];
    pthread_t th[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
      r[i] = (racer){m, &bar, NULL};
      pthread_create(&th[i], NULL, race, &r[i]);
    }
    int handed = 0;
    for (int i = 0; i < N_THREADS; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&bar);
    io_set io[N_THREADS];
    bool made = true;
    for (int i = 0; i < N_THREADS; i++) {
      CHECK(r[i].s != NULL);
      if (!r[i].s) made = false;
      handed += r[i].s && r[i].s->plan_handed_on;
    }
    CHECKF(handed == 1, "round %d: %d sessions took the load plan", round, handed);
    for (int i = 0; made && i < N_THREADS; i++)
      CHECK(io_make(r[i].s, &io[i]) && run2(r[i].s, &io[i]));
    for (int i = 1; made && i < N_THREADS; i++) CHECK(same_outputs(&io[0], &io[i]));
    for (int i = 0; i < N_THREADS; i++) {
      if (made) io_free(&io[i]);
      tfcc_session_destroy(r[i].s);
    }
    tfcc_model_release(m);
  }
}

int main(void) {
  char conf[512], p[700], tmpdir[] = "/tmp/tfcc_load_plan_XXXXXX";
  snprintf(conf, sizeof conf, "%s/tests/ops/conformance", tfcc_test_source_dir());
  if (!mkdtemp(tmpdir)) return 1;
  tfcc_runtime *rt = lc_runtime(NULL, NULL);
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 2;
  tfcc_runtime *rt2 = NULL;
  CHECK(rt && tfcc_runtime_create(&ro, &rt2) == TFCC_OK);
  if (!rt || !rt2) return tfcc_test_finish("load_plan");
  /* handed on: float and int8 convolutions, a fused expand + depthwise, variables (SVDF) */
  static const char *const handed[] = {"conv_2d_f32_3x3_same", "conv_2d_i8_3x3_valid_s2_relu",
                                       "svdf_i8_rank1", "svdf_f32_rank2_none",
                                       "transpose_conv_f32_xnnpack_order_n16_k1x16_s8"};
  for (size_t k = 0; k < sizeof handed / sizeof *handed; k++) {
    snprintf(p, sizeof p, "%s/%s.tflite", conf, handed[k]);
    check_model(rt, p, true);
    check_model(rt2, p, true);
  }
  /* not handed on: subgraph calls (WHILE), operator state (RANDOM_*) */
  snprintf(p, sizeof p, "%s/hybrid_net_while_logistic_builtin.tflite", conf);
  check_model(rt, p, false);
  snprintf(p, sizeof p, "%s/random_uniform_f32.tflite", conf);
  g_repeat_same = false;
  check_model(rt, p, false);
  g_repeat_same = true;
  snprintf(p, sizeof p, "%s/conv_2d_f32_3x3_same.tflite", conf);
  check_max_memory(rt, p);
  check_update_first(rt, p, tmpdir);
  check_cache(rt, p, tmpdir);
  check_resize(rt, p);
  check_race(rt2, p);
  check_background(rt, p, tmpdir);
  int arena_mapped = check_default_prefault(rt, p, tmpdir);
  check_touch_once(rt, p);
  snprintf(p, sizeof p, "%s/conv_2d_i8_3x3_valid_s2_relu.tflite", conf);
  check_update_first(rt, p, tmpdir);
  check_cache(rt, p, tmpdir);
  /* real models from ../shared, where present */
  const char *shared = getenv("TFCC_SHARED_DIR");
  static const char *const real[] = {"mobilenet_v1_025_128_quant", "deeplabv3_mnv2_dm05_quant",
                                     "hand_landmark_lite", "person_detect_int8"};
  for (size_t k = 0; shared && k < sizeof real / sizeof *real; k++) {
    snprintf(p, sizeof p, "%s/models/%s.tflite", shared, real[k]);
    if (access(p, R_OK) != 0) continue;
    check_model(rt, p, true);
    check_cache(rt2, p, tmpdir);
    check_background(rt2, p, tmpdir);
    arena_mapped += check_default_prefault(rt, p, tmpdir);
    check_touch_once(rt, p);
  }
  if (!arena_mapped) /* the conformance models' arenas are heap blocks */
    fprintf(stderr,
            "load_plan: no model of ../shared here: the default prefault's arena "
            "check not run\n");
  tfcc_runtime_destroy(rt);
  tfcc_runtime_destroy(rt2);
  rmdir(tmpdir);
  return tfcc_test_finish("load_plan");
}
