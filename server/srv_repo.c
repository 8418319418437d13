#include "srv_repo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "srv_log.h"

/* ---------------------------------------------------------------- versions */

void srv_version_release(srv_version *v) {
  if (!v) return;
  if (atomic_fetch_sub(&v->refs, 1) != 1) return;
  srv_log(SRV_LOG_INFO, "MODEL_RELEASED", "model=%s version=%lld released (last request done)",
          v->owner->cfg.name, v->version);
  srv_endpoints_destroy(v);
  tfcc_model_release(v->model);
  free(v);
}

static int file_id(const char *path, srv_file_id *id) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  id->dev = st.st_dev;
  id->ino = st.st_ino;
  id->size = st.st_size;
  id->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  return 0;
}

static int same_id(const srv_file_id *a, const srv_file_id *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

/* Verification of a freshly loaded version: the configured tensor names exist, every input
 * has a JSON-able datatype, and one run on zero inputs succeeds. */
static int verify(srv_version *v, const srv_model_config *cfg, char *err, size_t n) {
  const srv_sig *sig = &v->ep[0].sig;
  for (int i = 0; i < cfg->n_inputs; i++) {
    int found = 0;
    for (int k = 0; k < sig->n_in; k++) found |= !strcmp(sig->in[k].name, cfg->inputs[i]);
    if (!found) {
      snprintf(err, n, "incompatible: the model has no input '%s' (required by the config)", cfg->inputs[i]);
      return -1;
    }
  }
  for (int i = 0; i < cfg->n_outputs; i++) {
    int found = 0;
    for (int k = 0; k < sig->n_out; k++) found |= !strcmp(sig->out[k].name, cfg->outputs[i]);
    if (!found) {
      snprintf(err, n, "incompatible: the model has no output '%s' (required by the config)", cfg->outputs[i]);
      return -1;
    }
  }
  srv_slot *s = &v->ep[0].pool.slots[0];
  const void *ins[SRV_MAX_IO];
  void *zero[SRV_MAX_IO] = {0};
  int rc = 0;
  for (int i = 0; i < sig->n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s->session, i, &info);
    zero[i] = calloc(1, info.bytes ? info.bytes : 1);
    if (!zero[i]) rc = -1;
    ins[i] = zero[i];
  }
  if (rc == 0) {
    tfcc_status st = tfcc_session_run(s->session, ins, s->out);
    if (st != TFCC_OK) {
      snprintf(err, n, "warm-up run failed: %s", tfcc_session_last_error(s->session));
      rc = -1;
    }
  } else {
    snprintf(err, n, "out of memory for the warm-up inputs");
  }
  for (int i = 0; i < sig->n_in; i++) free(zero[i]);
  return rc;
}

/* Loads and verifies one version in the calling (background) thread. NULL with err. */
static srv_version *load_version(srv_repo *r, srv_model *m, long long version, const char *path,
                                 const srv_file_id *id, char *err, size_t n) {
  srv_version *v = calloc(1, sizeof *v);
  if (!v) {
    snprintf(err, n, "out of memory");
    return NULL;
  }
  v->owner = m;
  v->version = version;
  v->id = *id;
  snprintf(v->path, sizeof v->path, "%s", path);
  v->sessions = m->cfg.sessions;
  v->max_queue = m->cfg.max_queue;
  atomic_store(&v->refs, 1);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = (tfcc_precision)m->cfg.precision;
  char cache[SRV_PATH_MAX + SRV_NAME_MAX + 32];
  if (r->weights_cache[0]) { /* one cache per model version: versions never evict each other's */
    snprintf(cache, sizeof cache, "%s/%s-%lld.wc", r->weights_cache, m->cfg.name, version);
    mo.weights_cache = cache;
  }
  tfcc_status st = tfcc_model_load_file(r->rt, path, &mo, &v->model);
  if (st != TFCC_OK) {
    const char *why = tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st);
    /* string tensors (KServe BYTES): say what it means for serving */
    int named = !strncmp(why, path, strlen(path)); /* the library's message may start with the path */
    snprintf(err, n, "%s%s%s%s", named ? "" : path, named ? "" : ": ", why,
             strstr(why, "dtype string") ? " (a string tensor, KServe datatype BYTES: tfcc has no string kernels, so "
                                           "a model with string tensors cannot be served)" : "");
    free(v);
    return NULL;
  }
  v->cfg_gen = m->cfg_gen;
  v->max_batch = m->cfg.max_batch;
  v->max_queue_delay_us = m->cfg.max_queue_delay_us;
  if (srv_endpoints_create(v, err, n) != 0) goto fail;
  char why[400];
  if (verify(v, &m->cfg, why, sizeof why) != 0) {
    snprintf(err, n, "%s: %s", path, why);
    goto fail;
  }
  v->stats = srv_metrics_version(m->cfg.name, version);
  return v;
fail:
  srv_endpoints_destroy(v);
  tfcc_model_release(v->model);
  free(v);
  return NULL;
}

/* The swap: puts v in place of the same version (or inserts it), under the model lock.
 * The replaced version is released after the lock (freed when its last request ends).
 * Returns the time the lock was held plus waited for, in ns. */
static uint64_t install_version(srv_model *m, srv_version *v) {
  uint64_t t0 = srv_now_ns();
  srv_version *old = NULL;
  pthread_mutex_lock(&m->mu);
  int i = 0;
  while (i < m->n_ver && m->ver[i]->version < v->version) i++;
  if (i < m->n_ver && m->ver[i]->version == v->version) {
    old = m->ver[i];
    m->ver[i] = v;
  } else if (m->n_ver < SRV_MAX_VERSIONS) {
    memmove(&m->ver[i + 1], &m->ver[i], sizeof(m->ver[0]) * (size_t)(m->n_ver - i));
    m->ver[i] = v;
    m->n_ver++;
  } else {
    old = v; /* table full: drop (cannot happen with the version policies) */
  }
  if (m->last_error_version == v->version) {
    m->last_error[0] = '\0';
    m->last_error_version = -1;
  }
  atomic_store(&m->stats->ready_version, m->ver[m->n_ver - 1]->version);
  pthread_mutex_unlock(&m->mu);
  uint64_t swap = srv_now_ns() - t0;
  srv_version_release(old);
  return swap;
}

/* Removes versions for which keep() says no. */
static void drop_versions(srv_model *m, const int64_t *keep, int n_keep, int keep_all_if_empty) {
  srv_version *gone[SRV_MAX_VERSIONS];
  int n_gone = 0;
  pthread_mutex_lock(&m->mu);
  int w = 0;
  for (int i = 0; i < m->n_ver; i++) {
    int k = 0;
    for (int j = 0; j < n_keep; j++) k |= keep[j] == m->ver[i]->version;
    if (k || (keep_all_if_empty && n_keep == 0)) m->ver[w++] = m->ver[i];
    else gone[n_gone++] = m->ver[i];
  }
  m->n_ver = w;
  atomic_store(&m->stats->ready_version, w ? m->ver[w - 1]->version : -1);
  pthread_mutex_unlock(&m->mu);
  for (int i = 0; i < n_gone; i++) {
    srv_log(SRV_LOG_INFO, "MODEL_UNLOADED", "model=%s version=%lld no longer served", m->cfg.name, gone[i]->version);
    srv_version_release(gone[i]);
  }
}

/* ---------------------------------------------------------------- scanning */

typedef struct candidate {
  long long version;
  char path[SRV_PATH_MAX];
} candidate;

static const char *file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

/* Version directories are canonical decimal numbers, as in TF Serving and Triton: "1", "12";
 * not "01", "+1", " 1" or "1e3". -1 for anything else. */
static long long canonical_version(const char *name) {
  if (name[0] < '1' || name[0] > '9') return -1;
  long long v = 0;
  for (const char *p = name; *p; p++) {
    if (*p < '0' || *p > '9' || v > (LLONG_MAX - 9) / 10) return -1;
    v = v * 10 + (*p - '0');
  }
  return v;
}

/* Why a model has no candidate file ("" if nothing to say), for its last_error / reason. */
typedef struct scan_why {
  char text[600];
  long long version;
} scan_why;

static void note(scan_why *why, long long version, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(scan_why *why, long long version, const char *fmt, ...) {
  if (why->text[0]) return; /* keep the first */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why->text, sizeof why->text, fmt, ap);
  va_end(ap);
  why->version = version;
}

static int list_candidates(const srv_model *m, candidate *c, int max, scan_why *why) {
  struct stat st;
  memset(why, 0, sizeof *why);
  if (stat(m->cfg.path, &st) != 0) {
    note(why, 0, "%s: %s", m->cfg.path, strerror(errno)); /* ELOOP: too many levels of symbolic links */
    return 0;
  }
  if (S_ISREG(st.st_mode)) {
    c[0].version = 1;
    snprintf(c[0].path, sizeof c[0].path, "%s", m->cfg.path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    note(why, 1, "%s is %s, not a regular file", m->cfg.path, file_kind(st.st_mode));
    return 0;
  }
  DIR *d = opendir(m->cfg.path);
  if (!d) {
    note(why, 0, "%s: %s", m->cfg.path, strerror(errno));
    return 0;
  }
  int k = 0;
  char ignored[64] = "";
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    long long v = canonical_version(e->d_name);
    if (v < 1) {
      if (!ignored[0] && e->d_name[0] && strspn(e->d_name, "+-0123456789") == strlen(e->d_name) &&
          strspn(e->d_name, "0123456789") > 0)
        snprintf(ignored, sizeof ignored, "%.60s", e->d_name);
      continue;
    }
    char path[SRV_PATH_MAX];
    int len = snprintf(path, sizeof path, "%s/%s/model.tflite", m->cfg.path, e->d_name);
    if (len <= 0 || (size_t)len >= sizeof path) continue;
    if (stat(path, &st) != 0) {
      if (errno != ENOENT && errno != ENOTDIR) note(why, v, "%s: %s", path, strerror(errno));
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      note(why, v, "%s is %s, not a regular file", path, file_kind(st.st_mode));
      continue;
    }
    if (k < max) {
      c[k].version = v;
      memcpy(c[k].path, path, (size_t)len + 1);
      k++;
    } else {
      int lo = 0; /* keep the highest max versions */
      for (int i = 1; i < max; i++)
        if (c[i].version < c[lo].version) lo = i;
      if (v > c[lo].version) {
        c[lo].version = v;
        memcpy(c[lo].path, path, (size_t)len + 1);
      }
    }
  }
  closedir(d);
  if (!k && ignored[0])
    note(why, 0, "no model file found at the path (directory '%s' ignored: version directories are canonical "
         "decimal numbers, without leading zeros or sign)", ignored);
  return k;
}

static int pending_find(const srv_pending *p, int n, long long v, const srv_file_id *id) {
  for (int i = 0; i < n; i++)
    if (p[i].version == v && same_id(&p[i].id, id)) return 1;
  return 0;
}

static void record_failure(srv_model *m, long long version, const srv_file_id *id, const char *why,
                           uint64_t ns) {
  pthread_mutex_lock(&m->mu);
  snprintf(m->last_error, sizeof m->last_error, "version %lld: %s", version, why);
  m->last_error_version = version;
  int i = 0;
  while (i < m->n_failed && m->failed[i].version != version) i++;
  if (i == m->n_failed && m->n_failed < SRV_MAX_VERSIONS) m->n_failed++;
  if (i < SRV_MAX_VERSIONS) {
    m->failed[i].version = version;
    m->failed[i].id = *id;
  }
  int serving = m->n_ver;
  pthread_mutex_unlock(&m->mu);
  atomic_fetch_add(&m->stats->loads_failed, 1);
  srv_hist_observe(&m->stats->reload, ns);
  srv_log(SRV_LOG_ERROR, "MODEL_LOAD_FAILED", "model=%s version=%lld: %s%s", m->cfg.name, version, why,
          serving ? " (the previous version keeps serving)" : "");
}

/* A changed file under a version number that is loaded, with the settings it was loaded
 * with: tfcc_model_update_weights on the served model (sessions, output buffers and batch
 * sessions kept; runs in progress finish on the old weights, runs that start afterwards use
 * the new ones; the version number does not change, so no answer is mislabelled). Returns 1
 * when done; 0 when not applicable or refused (a different graph, which the library names),
 * and the caller swaps the whole model instead. */
static int hot_update(srv_model *m, long long version, const char *path, const srv_file_id *id) {
  srv_version *v = NULL;
  pthread_mutex_lock(&m->mu);
  for (int k = 0; k < m->n_ver; k++)
    if (m->ver[k]->version == version && m->ver[k]->cfg_gen == m->cfg_gen) v = m->ver[k];
  if (v) atomic_fetch_add(&v->refs, 1);
  pthread_mutex_unlock(&m->mu);
  if (!v) return 0;
  uint64_t t0 = srv_now_ns();
  tfcc_status st = tfcc_model_update_weights(v->model, path);
  uint64_t total = srv_now_ns() - t0;
  if (st != TFCC_OK) {
    /* the library names the file and the first difference (and logs MODEL_INVALID itself) */
    srv_log(SRV_LOG_INFO, "HOT_UPDATE_REFUSED", "model=%s version=%lld: %s; swapping the whole model", m->cfg.name,
            version, tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
    srv_version_release(v);
    return 0;
  }
  tfcc_update_info ui;
  memset(&ui, 0, sizeof ui);
  tfcc_model_update_info(v->model, &ui);
  pthread_mutex_lock(&m->mu);
  v->id = *id;
  snprintf(v->path, sizeof v->path, "%s", path);
  if (m->last_error_version == version) {
    m->last_error[0] = '\0';
    m->last_error_version = -1;
  }
  pthread_mutex_unlock(&m->mu);
  atomic_fetch_add(&m->stats->loads_ok, 1);
  atomic_fetch_add(&m->stats->hot_updates, 1);
  srv_hist_observe(&m->stats->reload, total);
  srv_log(SRV_LOG_INFO, "MODEL_UPDATED",
          "model=%s version=%lld path=%s hot weight update generation=%llu prepare_ms=%.1f swap_us=%.1f drain_ms=%.1f",
          m->cfg.name, version, path, (unsigned long long)ui.generation, ui.map_ms + ui.prepare_ms,
          ui.switch_ms * 1e3, ui.drain_ms);
  if (ui.total_ms > 150.0)
    srv_log(SRV_LOG_WARN, "HOT_UPDATE_DELAY", "model=%s version=%lld: the update took %.1f ms to publish (> 150 ms)",
            m->cfg.name, version, ui.total_ms);
  srv_version_release(v);
  return 1;
}

/* One scan of a model: loads what is new or changed, drops what is no longer wanted.
 * initial: first scan (no stability wait). Returns the number of loaded versions. */
static int scan_model(srv_repo *r, srv_model *m, int initial, int *failures) {
  if (failures) *failures = 0;
  pthread_mutex_lock(&m->scan_mu);
  if (m->unloaded) {
    pthread_mutex_unlock(&m->scan_mu);
    return 0;
  }
  candidate cand[SRV_MAX_VERSIONS];
  scan_why why;
  int n_cand = list_candidates(m, cand, SRV_MAX_VERSIONS, &why);
  int64_t want[SRV_MAX_VERSIONS];
  const char *want_path[SRV_MAX_VERSIONS];
  int n_want = 0;
  if (m->cfg.n_versions > 0) {
    for (int i = 0; i < n_cand; i++)
      for (int j = 0; j < m->cfg.n_versions; j++)
        if (cand[i].version == m->cfg.versions[j]) {
          want[n_want] = cand[i].version;
          want_path[n_want++] = cand[i].path;
        }
  } else if (n_cand > 0) {
    int hi = 0;
    for (int i = 1; i < n_cand; i++)
      if (cand[i].version > cand[hi].version) hi = i;
    want[0] = cand[hi].version;
    want_path[0] = cand[hi].path;
    n_want = 1;
  }
  if (n_cand == 0) {
    /* on the first scan, and later whenever the cause changes while nothing is served */
    const char *text = why.text[0] ? why.text : "no model file found at the path";
    char full[sizeof m->last_error];
    snprintf(full, sizeof full, "version %lld: %s", why.version, text);
    pthread_mutex_lock(&m->mu);
    int changed = m->n_ver == 0 && strcmp(full, m->last_error) != 0;
    pthread_mutex_unlock(&m->mu);
    if (initial || changed) record_failure(m, why.version, &(srv_file_id){0}, text, 0);
  }
  srv_pending seen[SRV_MAX_VERSIONS];
  int n_seen = 0;
  int loaded_wanted = 0;
  for (int i = 0; i < n_want; i++) {
    srv_file_id id;
    if (file_id(want_path[i], &id) != 0) continue;
    seen[n_seen].version = want[i];
    seen[n_seen++].id = id;
    pthread_mutex_lock(&m->mu);
    int have = 0;
    for (int k = 0; k < m->n_ver; k++)
      if (m->ver[k]->version == want[i] && same_id(&m->ver[k]->id, &id)) have = 1;
    int failed = pending_find(m->failed, m->n_failed, want[i], &id);
    int stable = initial || pending_find(m->seen, m->n_seen, want[i], &id);
    pthread_mutex_unlock(&m->mu);
    if (have) {
      loaded_wanted++;
      continue;
    }
    if (failed || !stable) continue;
    if (hot_update(m, want[i], want_path[i], &id)) {
      loaded_wanted++;
      continue;
    }
    uint64_t t0 = srv_now_ns();
    char err[600];
    srv_version *v = load_version(r, m, want[i], want_path[i], &id, err, sizeof err);
    if (!v) {
      record_failure(m, want[i], &id, err, srv_now_ns() - t0);
      if (failures) (*failures)++;
      continue;
    }
    uint64_t swap = install_version(m, v);
    uint64_t total = srv_now_ns() - t0;
    atomic_fetch_add(&m->stats->loads_ok, 1);
    srv_hist_observe(&m->stats->reload, total);
    loaded_wanted++;
    srv_log(SRV_LOG_INFO, "MODEL_LOADED", "model=%s version=%lld path=%s sessions=%d precision=%s load_ms=%.1f swap_us=%.1f",
            m->cfg.name, (long long)want[i], want_path[i], v->sessions,
            m->cfg.precision == TFCC_PRECISION_BF16 ? "bf16" : "fp32", (double)(total - swap) / 1e6,
            (double)swap / 1e3);
    if (swap > 150000000ull)
      srv_log(SRV_LOG_WARN, "HOT_UPDATE_DELAY", "model=%s version=%lld: the swap took %.1f ms (> 150 ms)",
              m->cfg.name, (long long)want[i], (double)swap / 1e6);
  }
  pthread_mutex_lock(&m->mu);
  memcpy(m->seen, seen, sizeof seen[0] * (size_t)n_seen);
  m->n_seen = n_seen;
  pthread_mutex_unlock(&m->mu);
  /* Drop versions no longer wanted, but only once every wanted version serves (a failed
   * new version keeps the old one). Explicit version lists drop unlisted versions. */
  if (m->cfg.n_versions > 0) drop_versions(m, m->cfg.versions, m->cfg.n_versions, 0);
  else if (n_want == 1 && loaded_wanted == 1) drop_versions(m, want, 1, 0);
  pthread_mutex_lock(&m->mu);
  int n = m->n_ver;
  pthread_mutex_unlock(&m->mu);
  pthread_mutex_unlock(&m->scan_mu);
  return n;
}

/* ---------------------------------------------------------------- models */

static srv_model *model_new(const srv_model_config *cfg, int from_repo) {
  srv_model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->cfg = *cfg;
  m->from_repository = from_repo;
  m->last_error_version = -1;
  pthread_mutex_init(&m->mu, NULL);
  pthread_mutex_init(&m->scan_mu, NULL);
  m->stats = srv_metrics_model(cfg->name);
  if (!m->stats) {
    free(m);
    return NULL;
  }
  return m;
}

static void model_free(srv_model *m) {
  for (int i = 0; i < m->n_ver; i++) srv_version_release(m->ver[i]);
  pthread_mutex_destroy(&m->mu);
  pthread_mutex_destroy(&m->scan_mu);
  free(m);
}

srv_model *srv_repo_find(srv_repo *r, const char *name) {
  srv_model *m = NULL;
  pthread_mutex_lock(&r->mu);
  for (int i = 0; i < r->n_models && !m; i++)
    if (!strcmp(r->models[i]->cfg.name, name)) m = r->models[i];
  pthread_mutex_unlock(&r->mu);
  return m;
}

/* Adds models found as sub-directories of the repository (not already known). */
static void discover(srv_repo *r) {
  if (!r->repo_path[0]) return;
  DIR *d = opendir(r->repo_path);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strlen(e->d_name) >= SRV_NAME_MAX) continue;
    char path[SRV_PATH_MAX];
    struct stat st;
    int len = snprintf(path, sizeof path, "%s/%s", r->repo_path, e->d_name);
    if (len <= 0 || (size_t)len >= sizeof path || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (srv_repo_find(r, e->d_name)) continue;
    srv_model_config mc = r->repo_model;
    snprintf(mc.name, sizeof mc.name, "%s", e->d_name);
    snprintf(mc.path, sizeof mc.path, "%s", path);
    pthread_mutex_lock(&r->mu);
    if (r->n_models < SRV_MAX_MODELS * 2) {
      srv_model *m = model_new(&mc, 1);
      if (m) r->models[r->n_models++] = m;
      if (m) srv_log(SRV_LOG_INFO, "MODEL_DISCOVERED", "model=%s path=%s", mc.name, path);
    }
    pthread_mutex_unlock(&r->mu);
  }
  closedir(d);
}

int srv_repo_create(tfcc_runtime *rt, const srv_config *cfg, srv_repo **out, char *err, size_t n) {
  srv_repo *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, n, "out of memory");
    return -1;
  }
  r->rt = rt;
  snprintf(r->repo_path, sizeof r->repo_path, "%s", cfg->repository);
  r->repo_model = cfg->repo_model;
  snprintf(r->weights_cache, sizeof r->weights_cache, "%s", cfg->weights_cache);
  r->poll_ms = cfg->poll_ms;
  r->request_timeout_ms = cfg->request_timeout_ms;
  pthread_mutex_init(&r->mu, NULL);
  pthread_mutex_init(&r->stop_mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&r->stop_cv, &ca);
  pthread_condattr_destroy(&ca);
  for (int i = 0; i < cfg->n_models; i++) {
    srv_model *m = model_new(&cfg->models[i], 0);
    if (!m) {
      snprintf(err, n, "out of memory");
      srv_repo_destroy(r);
      return -1;
    }
    r->models[r->n_models++] = m;
  }
  *out = r;
  return 0;
}

static srv_model *model_at(srv_repo *r, int i) {
  pthread_mutex_lock(&r->mu);
  srv_model *m = i < r->n_models ? r->models[i] : NULL;
  pthread_mutex_unlock(&r->mu);
  return m;
}

int srv_repo_sync(srv_repo *r, int initial, int *failures) {
  discover(r);
  int not_ready = 0;
  srv_model *m;
  for (int i = 0; (m = model_at(r, i)) != NULL; i++) {
    int f = 0;
    if (!m->unloaded && scan_model(r, m, initial, &f) == 0) not_ready++;
    if (failures) *failures += f;
  }
  return not_ready;
}

static int served_models(srv_repo *r) {
  int n = 0;
  srv_model *m;
  for (int i = 0; (m = model_at(r, i)) != NULL; i++) n += !m->unloaded;
  return n;
}

void srv_repo_rescan(srv_repo *r, srv_reload_result *res) {
  memset(res, 0, sizeof *res);
  res->not_ready = srv_repo_sync(r, 1, &res->failed);
  res->models = served_models(r);
}

static void *poller_main(void *arg) {
  srv_repo *r = arg;
  pthread_mutex_lock(&r->stop_mu);
  while (!r->stop) {
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    dl.tv_sec += r->poll_ms / 1000;
    dl.tv_nsec += (long)(r->poll_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
      dl.tv_sec++;
      dl.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&r->stop_cv, &r->stop_mu, &dl);
    if (r->stop) break;
    pthread_mutex_unlock(&r->stop_mu);
    srv_repo_sync(r, 0, NULL);
    pthread_mutex_lock(&r->stop_mu);
  }
  pthread_mutex_unlock(&r->stop_mu);
  return NULL;
}

int srv_repo_start_poller(srv_repo *r) {
  if (pthread_create(&r->poller, NULL, poller_main, r) != 0) return -1;
  r->poller_running = 1;
  return 0;
}

void srv_repo_destroy(srv_repo *r) {
  if (!r) return;
  if (r->poller_running) {
    pthread_mutex_lock(&r->stop_mu);
    r->stop = 1;
    pthread_cond_signal(&r->stop_cv);
    pthread_mutex_unlock(&r->stop_mu);
    pthread_join(r->poller, NULL);
  }
  for (int i = 0; i < r->n_models; i++) model_free(r->models[i]);
  pthread_mutex_destroy(&r->mu);
  pthread_mutex_destroy(&r->stop_mu);
  pthread_cond_destroy(&r->stop_cv);
  free(r);
}

static int model_cfg_equal(const srv_model_config *a, const srv_model_config *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

void srv_repo_apply_config(srv_repo *r, const srv_config *cfg, srv_reload_result *res) {
  srv_model *m;
  memset(res, 0, sizeof *res);
  for (int i = 0; (m = model_at(r, i)) != NULL; i++) {
    if (m->from_repository) continue;
    int found = 0;
    for (int k = 0; k < cfg->n_models; k++) found |= !strcmp(cfg->models[k].name, m->cfg.name);
    if (!found && !m->unloaded) {
      char err[256];
      srv_repo_unload(r, m->cfg.name, err, sizeof err);
      srv_log(SRV_LOG_INFO, "CONFIG_RELOAD", "model=%s removed from the config: unloaded", m->cfg.name);
      res->removed++;
    }
  }
  for (int k = 0; k < cfg->n_models; k++) {
    m = srv_repo_find(r, cfg->models[k].name);
    if (!m) {
      srv_model *nm = model_new(&cfg->models[k], 0);
      pthread_mutex_lock(&r->mu);
      if (nm && r->n_models < SRV_MAX_MODELS * 2) r->models[r->n_models++] = nm;
      else if (nm) model_free(nm);
      pthread_mutex_unlock(&r->mu);
      srv_log(SRV_LOG_INFO, "CONFIG_RELOAD", "model=%s added", cfg->models[k].name);
      res->added++;
      continue;
    }
    pthread_mutex_lock(&m->scan_mu);
    int changed = !model_cfg_equal(&m->cfg, &cfg->models[k]) || m->unloaded;
    if (changed) {
      pthread_mutex_lock(&m->mu);
      m->cfg = cfg->models[k];
      m->cfg_gen++;
      m->unloaded = 0;
      m->n_failed = 0;
      /* forget file ids so every version is loaded again with the new settings */
      for (int i = 0; i < m->n_ver; i++) m->ver[i]->id.mtime_ns = -1;
      m->n_seen = 0;
      pthread_mutex_unlock(&m->mu);
      srv_log(SRV_LOG_INFO, "CONFIG_RELOAD", "model=%s changed: reloading", m->cfg.name);
    }
    pthread_mutex_unlock(&m->scan_mu);
    if (changed) {
      int f = 0;
      scan_model(r, m, 1, &f);
      res->changed++;
      res->failed += f;
    }
  }
  res->not_ready = srv_repo_sync(r, 1, &res->failed);
  res->models = served_models(r);
}

srv_version *srv_repo_acquire(srv_repo *r, const char *name, long long version, int *status, char *err,
                              size_t n) {
  srv_model *m = srv_repo_find(r, name);
  if (!m) {
    *status = 404;
    snprintf(err, n, "unknown model '%s'", name);
    return NULL;
  }
  srv_version *v = NULL;
  pthread_mutex_lock(&m->mu);
  if (m->n_ver > 0) {
    if (version < 0) v = m->ver[m->n_ver - 1];
    else
      for (int i = 0; i < m->n_ver; i++)
        if (m->ver[i]->version == version) v = m->ver[i];
  }
  if (v) atomic_fetch_add(&v->refs, 1);
  int n_ver = m->n_ver, unloaded = m->unloaded;
  char last[512];
  snprintf(last, sizeof last, "%s", m->last_error);
  pthread_mutex_unlock(&m->mu);
  if (v) return v;
  if (version >= 0 && n_ver > 0) {
    *status = 404;
    snprintf(err, n, "model '%s' has no version %lld loaded", name, version);
  } else {
    *status = 503;
    snprintf(err, n, "model '%s' is not ready%s%s", name, unloaded ? " (unloaded)" : last[0] ? ": " : "",
             unloaded ? "" : last);
  }
  return NULL;
}

int srv_repo_load(srv_repo *r, const char *name, char *err, size_t n) {
  discover(r);
  srv_model *m = srv_repo_find(r, name);
  if (!m) {
    snprintf(err, n, "unknown model '%s' (not in the config or the repository)", name);
    return 404;
  }
  pthread_mutex_lock(&m->scan_mu);
  pthread_mutex_lock(&m->mu);
  m->unloaded = 0;
  m->n_failed = 0; /* an explicit load retries failed files */
  pthread_mutex_unlock(&m->mu);
  pthread_mutex_unlock(&m->scan_mu);
  int failures = 0;
  if (scan_model(r, m, 1, &failures) == 0 || failures > 0) {
    pthread_mutex_lock(&m->mu);
    snprintf(err, n, "model '%s' failed to load: %s", name, m->last_error[0] ? m->last_error : "no version found");
    pthread_mutex_unlock(&m->mu);
    return 400;
  }
  return 0;
}

int srv_repo_unload(srv_repo *r, const char *name, char *err, size_t n) {
  srv_model *m = srv_repo_find(r, name);
  if (!m) {
    snprintf(err, n, "unknown model '%s'", name);
    return 404;
  }
  pthread_mutex_lock(&m->scan_mu);
  m->unloaded = 1;
  drop_versions(m, NULL, 0, 0);
  pthread_mutex_unlock(&m->scan_mu);
  srv_log(SRV_LOG_INFO, "MODEL_UNLOADED", "model=%s unloaded", name);
  return 0;
}

int srv_repo_ready(srv_repo *r) {
  srv_model *m;
  for (int i = 0; (m = model_at(r, i)) != NULL; i++) {
    if (m->unloaded || m->from_repository) continue;
    pthread_mutex_lock(&m->mu);
    int n = m->n_ver;
    pthread_mutex_unlock(&m->mu);
    if (n == 0) return 0;
  }
  return 1;
}

int srv_model_state(srv_model *m, long long *versions, int max, char *last_error, size_t n) {
  pthread_mutex_lock(&m->mu);
  int k = 0;
  for (int i = 0; i < m->n_ver && k < max; i++) versions[k++] = m->ver[i]->version;
  snprintf(last_error, n, "%s", m->last_error);
  pthread_mutex_unlock(&m->mu);
  return k;
}

void srv_repo_index_json(srv_repo *r, srv_buf *b) {
  srv_buf_str(b, "[");
  srv_model *m;
  int first = 1;
  for (int i = 0; (m = model_at(r, i)) != NULL; i++) {
    long long vs[SRV_MAX_VERSIONS];
    char last[512];
    int nv = srv_model_state(m, vs, SRV_MAX_VERSIONS, last, sizeof last);
    if (nv == 0) {
      srv_buf_str(b, first ? "{\"name\":" : ",{\"name\":");
      first = 0;
      srv_buf_json_str(b, m->cfg.name);
      srv_buf_str(b, ",\"state\":\"UNAVAILABLE\",\"reason\":");
      srv_buf_json_str(b, m->unloaded ? "unloaded" : last);
      srv_buf_str(b, "}");
    }
    for (int k = 0; k < nv; k++) {
      srv_buf_str(b, first ? "{\"name\":" : ",{\"name\":");
      first = 0;
      srv_buf_json_str(b, m->cfg.name);
      srv_buf_printf(b, ",\"version\":\"%lld\",\"state\":\"READY\",\"reason\":\"\"}", vs[k]);
    }
  }
  srv_buf_str(b, "]");
}
