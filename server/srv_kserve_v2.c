/* KServe Open Inference Protocol v2 (REST) routes, plus Triton's model repository extension:
 *   GET  /v2/health/live | /v2/health/ready | /v2
 *   GET  /v2/models/{name}[/versions/{v}] | .../ready
 *   POST /v2/models/{name}[/versions/{v}]/infer
 *   POST /v2/repository/index | /v2/repository/models/{name}/load | /unload */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_infer.h"
#include "srv_log.h"
#include "srv_server.h"

static void empty(srv_http_resp *resp, int status) {
  srv_buf b;
  srv_buf_init(&b);
  srv_resp_set(resp, status, "text/plain", &b);
}

static void io_json(srv_buf *b, const srv_io *ios, int n) {
  srv_buf_str(b, "[");
  for (int i = 0; i < n; i++) {
    srv_buf_str(b, i ? ",{\"name\":" : "{\"name\":");
    srv_buf_json_str(b, ios[i].name);
    const char *dt = srv_v2_dtype(ios[i].dtype);
    srv_buf_str(b, ",\"datatype\":");
    srv_buf_json_str(b, dt ? dt : tfcc_dtype_name(ios[i].dtype));
    srv_buf_str(b, ",\"shape\":[");
    for (int32_t d = 0; d < ios[i].rank; d++) srv_buf_printf(b, "%s%d", d ? "," : "", (int)ios[i].sig[d]);
    srv_buf_str(b, "]}");
  }
  srv_buf_str(b, "]");
}

static void model_metadata(srv_server *s, const char *name, long long version, srv_http_resp *resp) {
  srv_model *m = srv_repo_find(s->repo, name);
  if (!m) {
    srv_resp_error(resp, 404, "unknown model '%s'", name);
    return;
  }
  long long vs[SRV_MAX_VERSIONS];
  char last[512];
  int nv = srv_model_state(m, vs, SRV_MAX_VERSIONS, last, sizeof last);
  int status = 0;
  char err[600];
  srv_version *v = srv_repo_acquire(s->repo, name, version, &status, err, sizeof err);
  if (!v && version >= 0) {
    srv_resp_error(resp, status, "%s", err);
    return;
  }
  srv_buf b;
  srv_buf_init(&b);
  srv_buf_str(&b, "{\"name\":");
  srv_buf_json_str(&b, name);
  srv_buf_str(&b, ",\"versions\":[");
  for (int i = 0; i < nv; i++) srv_buf_printf(&b, "%s\"%lld\"", i ? "," : "", vs[i]);
  srv_buf_str(&b, "],\"platform\":\"tensorflow_tflite\"");
  if (v) {
    srv_buf_str(&b, ",\"inputs\":");
    io_json(&b, v->ep[0].sig.in, v->ep[0].sig.n_in);
    srv_buf_str(&b, ",\"outputs\":");
    io_json(&b, v->ep[0].sig.out, v->ep[0].sig.n_out);
    /* the file's signatures: an infer request picks one with parameters.signature_name */
    if (v->n_ep > 1) {
      srv_buf_str(&b, ",\"signatures\":[");
      int first = 1;
      for (int i = 1; i < v->n_ep; i++) {
        if (v->ep[i].cannot_run[0]) continue;
        srv_buf_str(&b, first ? "{\"name\":" : ",{\"name\":");
        first = 0;
        srv_buf_json_str(&b, v->ep[i].key);
        srv_buf_printf(&b, ",\"subgraph\":%d,\"inputs\":", v->ep[i].subgraph);
        io_json(&b, v->ep[i].sig.in, v->ep[i].sig.n_in);
        srv_buf_str(&b, ",\"outputs\":");
        io_json(&b, v->ep[i].sig.out, v->ep[i].sig.n_out);
        srv_buf_str(&b, "}");
      }
      srv_buf_str(&b, "]");
      /* those that cannot run, with the cause their requests are answered with */
      first = 1;
      for (int i = 1; i < v->n_ep; i++) {
        if (!v->ep[i].cannot_run[0]) continue;
        srv_buf_str(&b, first ? ",\"unavailable_signatures\":[{\"name\":" : ",{\"name\":");
        first = 0;
        srv_buf_json_str(&b, v->ep[i].key);
        srv_buf_printf(&b, ",\"subgraph\":%d,\"error\":", v->ep[i].subgraph);
        srv_buf_json_str(&b, v->ep[i].cannot_run);
        srv_buf_str(&b, "}");
      }
      if (!first) srv_buf_str(&b, "]");
    }
  }
  srv_buf_printf(&b, ",\"state\":\"%s\",\"last_error\":", v ? "READY" : "UNAVAILABLE");
  srv_buf_json_str(&b, last);
  srv_buf_str(&b, "}");
  srv_version_release(v);
  srv_resp_set(resp, 200, "application/json", &b);
}

typedef struct enc_ctx {
  size_t json_len;
} enc_ctx;

static void encode_v2(void *ctx, const srv_endpoint *ep, const srv_request *req, const srv_outputs *outs,
                      srv_buf *b) {
  const srv_version *v = ep->ver;
  enc_ctx *e = ctx;
  /* one allocation for the answer: the JSON header plus the binary outputs (not a chain of
   * doublings from 256 bytes, each copying what was written) */
  size_t want = 1024;
  for (int i = 0; i < outs->n; i++)
    if (req->want[i] && req->binary[i]) want += outs->info[i].bytes;
  srv_buf_reserve(b, want);
  srv_buf_str(b, "{\"model_name\":");
  srv_buf_json_str(b, v->owner->cfg.name);
  srv_buf_printf(b, ",\"model_version\":\"%lld\"", v->version);
  if (req->id[0]) {
    srv_buf_str(b, ",\"id\":");
    srv_buf_json_str(b, req->id);
  }
  srv_buf_str(b, ",\"outputs\":[");
  int first = 1;
  for (int i = 0; i < outs->n; i++) {
    if (!req->want[i]) continue;
    const tfcc_tensor_info *info = &outs->info[i];
    srv_buf_str(b, first ? "{\"name\":" : ",{\"name\":");
    first = 0;
    srv_buf_json_str(b, ep->sig.out[i].name);
    const char *dt = srv_v2_dtype(info->dtype);
    srv_buf_str(b, ",\"datatype\":");
    srv_buf_json_str(b, dt ? dt : tfcc_dtype_name(info->dtype));
    srv_buf_str(b, ",\"shape\":[");
    for (int32_t d = 0; d < info->rank; d++) srv_buf_printf(b, "%s%d", d ? "," : "", (int)info->dims[d]);
    srv_buf_str(b, "]");
    if (req->binary[i]) {
      srv_buf_printf(b, ",\"parameters\":{\"binary_data_size\":%zu}}", info->bytes);
    } else {
      srv_buf_str(b, ",\"data\":");
      srv_write_flat(b, info->dtype, outs->data[i], info->bytes / (tfcc_dtype_size(info->dtype) ? tfcc_dtype_size(info->dtype) : 1));
      srv_buf_str(b, "}");
    }
  }
  srv_buf_str(b, "]}");
  e->json_len = b->len;
  for (int i = 0; i < outs->n; i++)
    if (req->want[i] && req->binary[i]) srv_buf_put(b, outs->data[i], outs->info[i].bytes);
}

static void infer(srv_server *s, const srv_http_req *req, const char *name, long long version,
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
  srv_request *r = malloc(sizeof *r);
  srv_timing tm = {0, 0};
  if (!r) {
    srv_resp_error(resp, 500, "out of memory");
    status = 500;
  } else {
    size_t json_len = req->header_len >= 0 ? (size_t)req->header_len : req->body_len;
    if (req->header_len >= 0 && (size_t)req->header_len > req->body_len) json_len = req->body_len + 1;
    size_t max_bytes = (size_t)s->cfg.max_request_mb << 20;
    char sig_name[SRV_NAME_MAX];
    srv_endpoint *ep = NULL;
    status = srv_request_signature_name(req->body, json_len < req->body_len ? json_len : req->body_len, 1, sig_name,
                                        sizeof sig_name, err, sizeof err);
    if (!status) ep = srv_version_endpoint(v, sig_name, &status, err, sizeof err);
    if (!status) status = srv_kserve_parse(req->body, req->body_len, json_len, &ep->sig, max_bytes, r, err, sizeof err);
    r->max_bytes = max_bytes;
    if (status) {
      srv_resp_error(resp, status, "%s", err);
    } else {
      srv_buf b;
      srv_buf_init(&b);
      enc_ctx e = {0};
      status = srv_infer_run(ep, srv_live_timeout_ms(s), r, encode_v2, &e, &b, &tm, err, sizeof err);
      if (status == 200) {
        int binary = r->any_binary;
        srv_resp_set(resp, 200, binary ? "application/octet-stream" : "application/json", &b);
        if (binary) {
          char hl[32];
          snprintf(hl, sizeof hl, "%zu", e.json_len);
          srv_resp_header(resp, "Inference-Header-Content-Length", hl);
        }
      } else {
        srv_buf_free(&b);
        srv_resp_error(resp, status, "%s", err);
      }
      srv_request_free(r);
    }
    free(r);
  }
  uint64_t total = srv_now_ns() - t0;
  srv_hist_observe(&v->stats->queue, tm.queue_ns);
  if (status == 200) srv_hist_observe(&v->stats->compute, tm.compute_ns);
  srv_hist_observe(&v->stats->total, total);
  srv_metrics_count(v->stats, resp->status);
  resp->queue_ms = (double)tm.queue_ns / 1e6;
  resp->compute_ms = (double)tm.compute_ns / 1e6;
  atomic_fetch_sub(&ms->in_flight, 1);
  srv_version_release(v);
}

static int want_method(const srv_http_req *req, const char *method, srv_http_resp *resp) {
  if (!strcmp(req->method, method)) return 1;
  srv_resp_error(resp, 405, "%s: use %s", req->url, method);
  return 0;
}

int srv_route_kserve(srv_server *s, const srv_http_req *req, srv_http_resp *resp) {
  char buf[2048];
  char *seg[8];
  int n = srv_path_split(req->url, buf, sizeof buf, seg, 7);
  if (n < 1 || strcmp(seg[0], "v2") != 0) return 0;
  if (n == 1) {
    if (!want_method(req, "GET", resp)) return 1;
    srv_buf b;
    srv_buf_init(&b);
    srv_buf_printf(&b, "{\"name\":\"tfcc\",\"version\":\"%s\",\"extensions\":[\"binary_tensor_data\",\"model_repository\"]}",
                   tfcc_version());
    srv_resp_set(resp, 200, "application/json", &b);
    return 1;
  }
  if (n == 3 && !strcmp(seg[1], "health")) {
    if (!want_method(req, "GET", resp)) return 1;
    if (!strcmp(seg[2], "live")) empty(resp, 200);
    else if (!strcmp(seg[2], "ready"))
      empty(resp, !atomic_load(&s->draining) && srv_repo_ready(s->repo) ? 200 : 400);
    else srv_resp_error(resp, 404, "no route for %s", req->url);
    return 1;
  }
  if (n >= 3 && !strcmp(seg[1], "repository")) {
    if (!want_method(req, "POST", resp)) return 1;
    if (n == 3 && !strcmp(seg[2], "index")) {
      srv_buf b;
      srv_buf_init(&b);
      srv_repo_index_json(s->repo, &b);
      srv_resp_set(resp, 200, "application/json", &b);
      return 1;
    }
    if (n == 5 && !strcmp(seg[2], "models") && (!strcmp(seg[4], "load") || !strcmp(seg[4], "unload"))) {
      char err[1024];
      int load = !strcmp(seg[4], "load");
      int rc = load ? srv_repo_load(s->repo, seg[3], err, sizeof err) : srv_repo_unload(s->repo, seg[3], err, sizeof err);
      snprintf(resp->model, sizeof resp->model, "%s", seg[3]);
      if (rc) srv_resp_error(resp, rc, "%s", err);
      else {
        srv_buf b;
        srv_buf_init(&b);
        srv_buf_str(&b, "{}");
        srv_resp_set(resp, 200, "application/json", &b);
      }
      return 1;
    }
    srv_resp_error(resp, 404, "no route for %s", req->url);
    return 1;
  }
  if (n >= 3 && !strcmp(seg[1], "models")) {
    const char *name = seg[2];
    long long version = -1;
    int k = 3;
    if (n >= 5 && !strcmp(seg[3], "versions")) {
      version = srv_parse_version(seg[4]);
      if (version < 0) {
        srv_resp_error(resp, 400, "'%s' is not a version number", seg[4]);
        return 1;
      }
      k = 5;
    } else if (n == 4 && !strcmp(seg[3], "versions")) {
      srv_resp_error(resp, 404, "no route for %s", req->url);
      return 1;
    }
    if (n == k) {
      if (want_method(req, "GET", resp)) model_metadata(s, name, version, resp);
      return 1;
    }
    if (n == k + 1 && !strcmp(seg[k], "ready")) {
      if (!want_method(req, "GET", resp)) return 1;
      int status = 0;
      char err[600];
      srv_version *v = srv_repo_acquire(s->repo, name, version, &status, err, sizeof err);
      if (!v && status == 404) srv_resp_error(resp, 404, "%s", err);
      else empty(resp, v && !atomic_load(&s->draining) ? 200 : 400);
      srv_version_release(v);
      return 1;
    }
    if (n == k + 1 && !strcmp(seg[k], "infer")) {
      if (want_method(req, "POST", resp)) infer(s, req, name, version, resp);
      return 1;
    }
  }
  srv_resp_error(resp, 404, "no route for %s %s", req->method, req->url);
  return 1;
}
