/* Model repository: one loaded version (srv_version): load and verify (warm-up run), the swap
 * into the model (a pointer exchange under its lock), dropping versions, release. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crypto_load.h"
#include "srv_log.h"
#include "srv_repo_internal.h"

void srv_version_release(srv_version *v) {
  if (!v) return;
  if (atomic_fetch_sub(&v->refs, 1) != 1) return;
  srv_log(SRV_LOG_INFO, "MODEL_RELEASED", "model=%s version=%lld released (last request done)",
          v->owner->cfg.name, v->version);
  srv_endpoints_destroy(v);
  tfcc_model_release(v->model);
  free(v);
}

int srv_file_id_get(const char *path, srv_file_id *id) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  id->dev = st.st_dev;
  id->ino = st.st_ino;
  id->size = st.st_size;
  id->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  return 0;
}

int srv_file_id_same(const srv_file_id *a, const srv_file_id *b) {
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
srv_version *srv_version_load(srv_repo *r, srv_model *m, long long version, const char *path,
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
  v->max_memory = r->max_session_bytes;
  v->max_queue = m->cfg.max_queue;
  atomic_store(&v->refs, 1);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = (tfcc_precision)m->cfg.precision;
  mo.quant_compat = (tfcc_quant_compat)m->cfg.quant_compat;
  char cache[SRV_PATH_MAX + SRV_NAME_MAX + 32];
  if (r->weights_cache[0]) { /* one cache per model version: versions never evict each other's */
    snprintf(cache, sizeof cache, "%s/%s-%lld.wc", r->weights_cache, m->cfg.name, version);
    mo.weights_cache = cache;
  }
  /* an encrypted model (key_file / key_env): decrypted into memory, weights_cache then names
     an encrypted cache (tools/crypto/crypto_load.h) */
  tfcc_key_source key = {0};
  if (m->cfg.key_file[0]) key.kind = TFCC_KEY_FROM_FILE, key.path = m->cfg.key_file;
  if (m->cfg.key_env[0]) key.kind = TFCC_KEY_FROM_ENV, key.env = m->cfg.key_env;
  char load_err[1024];
  tfcc_status st = tfcc_model_open(r->rt, path, key.kind ? &key : NULL, "key_file or key_env in the model's config",
                                   &mo, &v->model, load_err, sizeof load_err);
  if (st != TFCC_OK) {
    /* string tensors (KServe BYTES): say what it means for serving */
    snprintf(err, n, "%s%s", load_err,
             strstr(load_err, "dtype string") ? " (a string tensor, KServe datatype BYTES: tfcc has no string kernels, so "
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
uint64_t srv_version_install(srv_model *m, srv_version *v) {
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
void srv_model_drop_versions(srv_model *m, const int64_t *keep, int n_keep, int keep_all_if_empty) {
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
