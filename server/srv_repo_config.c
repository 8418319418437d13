/* Model repository: a new config (SIGHUP) applied: models added, changed, removed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_log.h"
#include "srv_repo_internal.h"

static int model_cfg_equal(const srv_model_config *a, const srv_model_config *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

void srv_repo_apply_config(srv_repo *r, const srv_config *cfg, srv_reload_result *res) {
  srv_model *m;
  memset(res, 0, sizeof *res);
  for (int i = 0; (m = srv_repo_model_at(r, i)) != NULL; i++) {
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
      srv_model *nm = srv_model_new(&cfg->models[k], 0);
      pthread_mutex_lock(&r->mu);
      if (nm && r->n_models < SRV_MAX_MODELS * 2) r->models[r->n_models++] = nm;
      else if (nm) srv_model_free(nm);
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
      srv_model_scan(r, m, 1, &f);
      res->changed++;
      res->failed += f;
    }
  }
  res->not_ready = srv_repo_sync(r, 1, &res->failed);
  res->models = srv_repo_served_models(r);
}
