/* Model repository: the served models (config and discovered), sync, acquire, the explicit
 * load / unload API, readiness (srv_repo.h; the other jobs in srv_repo_*.c). */
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
#include "srv_repo_internal.h"

/* ---------------------------------------------------------------- models */

srv_model *srv_model_new(const srv_model_config *cfg, int from_repo) {
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

void srv_model_free(srv_model *m) {
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
void srv_repo_discover(srv_repo *r) {
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
      srv_model *m = srv_model_new(&mc, 1);
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
  r->max_session_bytes = (size_t)cfg->max_request_mb << 20;
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
    srv_model *m = srv_model_new(&cfg->models[i], 0);
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

srv_model *srv_repo_model_at(srv_repo *r, int i) {
  pthread_mutex_lock(&r->mu);
  srv_model *m = i < r->n_models ? r->models[i] : NULL;
  pthread_mutex_unlock(&r->mu);
  return m;
}

int srv_repo_sync(srv_repo *r, int initial, int *failures) {
  srv_repo_discover(r);
  int not_ready = 0;
  srv_model *m;
  for (int i = 0; (m = srv_repo_model_at(r, i)) != NULL; i++) {
    int f = 0;
    if (!m->unloaded && srv_model_scan(r, m, initial, &f) == 0) not_ready++;
    if (failures) *failures += f;
  }
  return not_ready;
}

int srv_repo_served_models(srv_repo *r) {
  int n = 0;
  srv_model *m;
  for (int i = 0; (m = srv_repo_model_at(r, i)) != NULL; i++) n += !m->unloaded;
  return n;
}

void srv_repo_rescan(srv_repo *r, srv_reload_result *res) {
  memset(res, 0, sizeof *res);
  res->not_ready = srv_repo_sync(r, 1, &res->failed);
  res->models = srv_repo_served_models(r);
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
  for (int i = 0; i < r->n_models; i++) srv_model_free(r->models[i]);
  pthread_mutex_destroy(&r->mu);
  pthread_mutex_destroy(&r->stop_mu);
  pthread_cond_destroy(&r->stop_cv);
  free(r);
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
  srv_repo_discover(r);
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
  if (srv_model_scan(r, m, 1, &failures) == 0 || failures > 0) {
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
  srv_model_drop_versions(m, NULL, 0, 0);
  pthread_mutex_unlock(&m->scan_mu);
  srv_log(SRV_LOG_INFO, "MODEL_UNLOADED", "model=%s unloaded", name);
  return 0;
}

int srv_repo_ready(srv_repo *r) {
  srv_model *m;
  for (int i = 0; (m = srv_repo_model_at(r, i)) != NULL; i++) {
    if (m->unloaded || m->from_repository) continue;
    pthread_mutex_lock(&m->mu);
    int n = m->n_ver;
    pthread_mutex_unlock(&m->mu);
    if (n == 0) return 0;
  }
  return 1;
}
