/* TF Serving REST API routes:
 *   POST /v1/models/{name}[/versions/{v}]:predict   ("instances" or "inputs")
 *   GET  /v1/models/{name}[/versions/{v}]           (model_version_status) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_infer.h"
#include "srv_server.h"

static void nested_value(srv_buf *b, const tfcc_tensor_info *info, const void *data, int row, int n_rows) {
  size_t es = tfcc_dtype_size(info->dtype);
  if (row >= 0 && info->rank >= 1 && info->dims[0] == n_rows) {
    size_t per = srv_elements(info->rank - 1, info->dims + 1);
    srv_write_nested(b, info->dtype, (const char *)data + (size_t)row * per * es, info->rank - 1, info->dims + 1);
  } else {
    srv_write_nested(b, info->dtype, data, info->rank, info->dims);
  }
}

static void encode_tfs(void *ctx, const srv_version *v, const srv_request *req, const srv_outputs *outs,
                       srv_buf *b) {
  (void)ctx;
  if (req->row_format) {
    int rows = req->in[0].rank > 0 ? req->in[0].dims[0] : 1;
    srv_buf_str(b, "{\"predictions\":[");
    for (int r = 0; r < rows; r++) {
      if (r) srv_buf_str(b, ",");
      if (outs->n == 1) {
        nested_value(b, &outs->info[0], outs->data[0], r, rows);
        continue;
      }
      srv_buf_str(b, "{");
      for (int i = 0; i < outs->n; i++) {
        if (i) srv_buf_str(b, ",");
        srv_buf_json_str(b, v->sig.out[i].name);
        srv_buf_str(b, ":");
        nested_value(b, &outs->info[i], outs->data[i], r, rows);
      }
      srv_buf_str(b, "}");
    }
    srv_buf_str(b, "]}");
    return;
  }
  srv_buf_str(b, "{\"outputs\":");
  if (outs->n == 1) {
    nested_value(b, &outs->info[0], outs->data[0], -1, 0);
  } else {
    srv_buf_str(b, "{");
    for (int i = 0; i < outs->n; i++) {
      if (i) srv_buf_str(b, ",");
      srv_buf_json_str(b, v->sig.out[i].name);
      srv_buf_str(b, ":");
      nested_value(b, &outs->info[i], outs->data[i], -1, 0);
    }
    srv_buf_str(b, "}");
  }
  srv_buf_str(b, "}");
}

/* TF Serving's "signature_name": the server runs the model's subgraph 0, so a request may name
 * a signature of subgraph 0 (usually serving_default); another signature, or one the model does
 * not have, is a 400 naming the signatures. 0 when the request names none or a served one. */
static int check_signature_name(const tfcc_model *m, const char *body, size_t len, char *err, size_t n) {
  json_t *root = json_loadb(body, len, 0, NULL);
  const json_t *jn = json_is_object(root) ? json_object_get(root, "signature_name") : NULL;
  int rc = 0;
  if (jn && !json_is_string(jn)) {
    snprintf(err, n, "signature_name must be a string");
    rc = 400;
  } else if (jn) {
    const char *want = json_string_value(jn);
    int found = -1;
    char list[512] = "";
    size_t used = 0;
    for (int k = 0; k < tfcc_model_signature_count(m); k++) {
      tfcc_signature_info si;
      if (tfcc_model_signature_info(m, k, &si) != TFCC_OK) continue;
      if (strcmp(si.key, want) == 0) found = (int)si.subgraph;
      if (si.subgraph == 0 && used < sizeof list)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'", used ? ", " : "", si.key);
    }
    if (found != 0) {
      snprintf(err, n, "signature_name '%.200s': %s; this server runs the signatures of subgraph 0: %s", want,
               found < 0 ? "the model has no such signature" : "it runs another subgraph (use tfcc run --signature)",
               list[0] ? list : "(none named)");
      rc = 400;
    }
  }
  json_decref(root);
  return rc;
}

static void predict(srv_server *s, const srv_http_req *req, const char *name, long long version,
                    srv_http_resp *resp) {
  char err[1024];
  int status = 0;
  snprintf(resp->model, sizeof resp->model, "%s", name);
  srv_version *v = srv_repo_acquire(s->repo, name, version, &status, err, sizeof err);
  if (!v) {
    srv_resp_error(resp, status, "%s", err);
    return;
  }
  resp->version = v->version;
  srv_model_stats *ms = v->owner->stats;
  atomic_fetch_add(&ms->in_flight, 1);
  uint64_t t0 = srv_now_ns();
  srv_timing tm = {0, 0};
  srv_request *r = malloc(sizeof *r);
  if (!r) {
    srv_resp_error(resp, 500, "out of memory");
  } else {
    size_t max_bytes = (size_t)s->cfg.max_request_mb << 20;
    status = check_signature_name(v->model, req->body, req->body_len, err, sizeof err);
    if (!status) status = srv_tfs_parse(req->body, req->body_len, &v->sig, max_bytes, r, err, sizeof err);
    else srv_request_init(r, v->sig.n_out);
    r->max_bytes = max_bytes;
    if (status) {
      srv_resp_error(resp, status, "%s", err);
    } else {
      srv_buf b;
      srv_buf_init(&b);
      status = srv_infer_run(v, srv_live_timeout_ms(s), r, encode_tfs, NULL, &b, &tm, err, sizeof err);
      if (status == 200) srv_resp_set(resp, 200, "application/json", &b);
      else {
        srv_buf_free(&b);
        srv_resp_error(resp, status, "%s", err);
      }
      srv_request_free(r);
    }
    free(r);
  }
  srv_hist_observe(&v->stats->queue, tm.queue_ns);
  if (resp->status == 200) srv_hist_observe(&v->stats->compute, tm.compute_ns);
  srv_hist_observe(&v->stats->total, srv_now_ns() - t0);
  srv_metrics_count(v->stats, resp->status);
  resp->queue_ms = (double)tm.queue_ns / 1e6;
  resp->compute_ms = (double)tm.compute_ns / 1e6;
  atomic_fetch_sub(&ms->in_flight, 1);
  srv_version_release(v);
}

static void status_json(srv_server *s, const char *name, long long version, srv_http_resp *resp) {
  srv_model *m = srv_repo_find(s->repo, name);
  if (!m) {
    srv_resp_error(resp, 404, "unknown model '%s'", name);
    return;
  }
  long long vs[SRV_MAX_VERSIONS];
  char last[512];
  int nv = srv_model_state(m, vs, SRV_MAX_VERSIONS, last, sizeof last);
  srv_buf b;
  srv_buf_init(&b);
  srv_buf_str(&b, "{\"model_version_status\":[");
  int first = 1;
  for (int i = 0; i < nv; i++) {
    if (version >= 0 && vs[i] != version) continue;
    srv_buf_printf(&b, "%s{\"version\":\"%lld\",\"state\":\"AVAILABLE\",\"status\":{\"error_code\":\"OK\",\"error_message\":\"\"}}",
                   first ? "" : ",", vs[i]);
    first = 0;
  }
  if (first && version >= 0) {
    srv_buf_free(&b);
    srv_resp_error(resp, 404, "model '%s' has no version %lld loaded", name, version);
    return;
  }
  if (first) {
    srv_buf_str(&b, "{\"version\":\"0\",\"state\":\"UNAVAILABLE\",\"status\":{\"error_code\":\"UNAVAILABLE\",\"error_message\":");
    srv_buf_json_str(&b, last);
    srv_buf_str(&b, "}}");
  }
  srv_buf_str(&b, "]}");
  srv_resp_set(resp, 200, "application/json", &b);
}

int srv_route_tfserving(srv_server *s, const srv_http_req *req, srv_http_resp *resp) {
  char buf[2048];
  char *seg[8];
  int n = srv_path_split(req->url, buf, sizeof buf, seg, 6);
  if (n < 3 || strcmp(seg[0], "v1") != 0 || strcmp(seg[1], "models") != 0) return 0;
  char *last = seg[n - 1];
  char *colon = strchr(last, ':');
  const char *verb = NULL;
  if (colon) {
    *colon = '\0';
    verb = colon + 1;
  }
  long long version = -1;
  if (n == 5 && !strcmp(seg[3], "versions")) {
    version = srv_parse_version(seg[4]);
    if (version < 0) {
      srv_resp_error(resp, 400, "'%s' is not a version number", seg[4]);
      return 1;
    }
  } else if (n != 3) {
    srv_resp_error(resp, 404, "no route for %s %s", req->method, req->url);
    return 1;
  }
  if (!verb) {
    if (strcmp(req->method, "GET") != 0) srv_resp_error(resp, 405, "%s: use GET", req->url);
    else status_json(s, seg[2], version, resp);
    return 1;
  }
  if (!strcmp(verb, "predict")) {
    if (strcmp(req->method, "POST") != 0) srv_resp_error(resp, 405, "%s: use POST", req->url);
    else predict(s, req, seg[2], version, resp);
    return 1;
  }
  srv_resp_error(resp, 404, "unsupported verb ':%s' (only :predict)", verb);
  return 1;
}
