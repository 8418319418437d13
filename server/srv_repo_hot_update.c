/* Model repository: hot weight update of a served version (tfcc_model_update_weights). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_log.h"
#include "srv_repo_internal.h"

/* A changed file under a version number that is loaded, with the settings it was loaded
 * with: tfcc_model_update_weights on the served model (sessions, output buffers and batch
 * sessions kept; runs in progress finish on the old weights, runs that start afterwards use
 * the new ones; the version number does not change, so no answer is mislabelled). Returns 1
 * when done; 0 when not applicable or refused (a different graph, which the library names),
 * and the caller swaps the whole model instead. */
int srv_model_hot_update(srv_model *m, long long version, const char *path, const srv_file_id *id) {
  /* an encrypted model is swapped whole: the update would copy its plaintext into ordinary heap
     memory, where the decrypting load keeps it in wiped, undumpable pages (docs/server.md) */
  if (m->cfg.key_file[0] || m->cfg.key_env[0]) return 0;
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
