/* Model repository: model state snapshots and the JSON of POST /v2/repository/index. */
#include <stdio.h>

#include "srv_log.h"
#include "srv_repo_internal.h"

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
  for (int i = 0; (m = srv_repo_model_at(r, i)) != NULL; i++) {
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
