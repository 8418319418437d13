/* Model repository: one scan of a model's path (the version files it holds, stability over two
 * polls, failed files not retried until they change) and what it loads, updates or drops. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "srv_log.h"
#include "srv_repo_internal.h"

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
    /* the version's file: model.tflite, else model.tfcce (an encrypted container, tfcc
     * encrypt; the load recognises it by its content) */
    char path[SRV_PATH_MAX];
    int len = 0, found = 0;
    for (int f = 0; f < 2 && !found; f++) {
      len = snprintf(path, sizeof path, "%s/%s/model.%s", m->cfg.path, e->d_name, f ? "tfcce" : "tflite");
      if (len <= 0 || (size_t)len >= sizeof path) break;
      if (stat(path, &st) == 0)
        found = 1;
      else if (errno != ENOENT && errno != ENOTDIR)
        note(why, v, "%s: %s", path, strerror(errno));
    }
    if (!found) continue;
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
    if (p[i].version == v && srv_file_id_same(&p[i].id, id)) return 1;
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

/* One scan of a model: loads what is new or changed, drops what is no longer wanted.
 * initial: first scan (no stability wait). Returns the number of loaded versions. */
int srv_model_scan(srv_repo *r, srv_model *m, int initial, int *failures) {
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
    if (srv_file_id_get(want_path[i], &id) != 0) continue;
    seen[n_seen].version = want[i];
    seen[n_seen++].id = id;
    pthread_mutex_lock(&m->mu);
    int have = 0;
    for (int k = 0; k < m->n_ver; k++)
      if (m->ver[k]->version == want[i] && srv_file_id_same(&m->ver[k]->id, &id)) have = 1;
    int failed = pending_find(m->failed, m->n_failed, want[i], &id);
    int stable = initial || pending_find(m->seen, m->n_seen, want[i], &id);
    pthread_mutex_unlock(&m->mu);
    if (have) {
      loaded_wanted++;
      continue;
    }
    if (failed || !stable) continue;
    if (srv_model_hot_update(m, want[i], want_path[i], &id)) {
      loaded_wanted++;
      continue;
    }
    uint64_t t0 = srv_now_ns();
    char err[600];
    srv_version *v = srv_version_load(r, m, want[i], want_path[i], &id, err, sizeof err);
    if (!v) {
      record_failure(m, want[i], &id, err, srv_now_ns() - t0);
      if (failures) (*failures)++;
      continue;
    }
    uint64_t swap = srv_version_install(m, v);
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
  if (m->cfg.n_versions > 0) srv_model_drop_versions(m, m->cfg.versions, m->cfg.n_versions, 0);
  else if (n_want == 1 && loaded_wanted == 1) srv_model_drop_versions(m, want, 1, 0);
  pthread_mutex_lock(&m->mu);
  int n = m->n_ver;
  pthread_mutex_unlock(&m->mu);
  pthread_mutex_unlock(&m->scan_mu);
  return n;
}
