/* TF Serving REST API routes:
 *   POST /v1/models/{name}[/versions/{v}]:predict   ("instances" or "inputs")
 *   GET  /v1/models/{name}[/versions/{v}]           (model_version_status)
 *   GET  /v1/models/{name}[/versions/{v}]/metadata  (signature_def of every signature)
 * A predict request's "signature_name" picks the signature (default: serving_default when
 * the file has it, else subgraph 0); its inputs and outputs are named as the signature names
 * them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_infer.h"
#include "srv_server.h"

static void nested_value(srv_buf *b, const tfcc_tensor_info *info, const void *data, int row,
                         int n_rows) {
  size_t es = tfcc_dtype_size(info->dtype);
  if (row >= 0 && info->rank >= 1 && info->dims[0] == n_rows) {
    size_t per = srv_elements(info->rank - 1, info->dims + 1);
    srv_write_nested(b, info->dtype, (const char *)data + (size_t)row * per * es, info->rank - 1,
                     info->dims + 1);
  } else {
    srv_write_nested(b, info->dtype, data, info->rank, info->dims);
  }
}

static void encode_tfs(void *ctx, const srv_endpoint *e, const srv_request *req,
                       const srv_outputs *outs, srv_buf *b) {
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
        srv_buf_json_str(b, e->sig.out[i].name);
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
      srv_buf_json_str(b, e->sig.out[i].name);
      srv_buf_str(b, ":");
      nested_value(b, &outs->info[i], outs->data[i], -1, 0);
    }
    srv_buf_str(b, "}");
  }
  srv_buf_str(b, "}");
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
    char sig_name[SRV_NAME_MAX];
    srv_endpoint *ep = NULL;
    json_t *root = NULL; /* the body, parsed once: its signature_name, then its inputs */
    status = srv_tfs_load(req->body, req->body_len, &root, err, sizeof err);
    if (!status)
      status = srv_json_signature_name(root, 0, sig_name, sizeof sig_name, err, sizeof err);
    /* TF Serving's default: serving_default when the file has it, else subgraph 0 */
    if (!status && !sig_name[0] && srv_version_find_signature(v, "serving_default") > 0)
      snprintf(sig_name, sizeof sig_name, "serving_default");
    if (!status) ep = srv_version_endpoint(v, sig_name, &status, err, sizeof err);
    if (!status)
      status = srv_tfs_fill(root, &ep->sig, max_bytes, r, err, sizeof err);
    else
      srv_request_init(r, 0);
    json_decref(root);
    r->max_bytes = max_bytes;
    if (status) {
      srv_resp_error(resp, status, "%s", err);
    } else {
      srv_buf b;
      srv_buf_init(&b);
      status =
          srv_infer_run(ep, srv_live_timeout_ms(s), r, encode_tfs, NULL, &b, &tm, err, sizeof err);
      if (status == 200)
        srv_resp_set(resp, 200, "application/json", &b);
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

/* TensorFlow's DataType names (types.proto), as TF Serving's metadata writes them. */
static const char *tf_dtype(tfcc_dtype t) {
  switch (t) {
    case TFCC_FLOAT32: return "DT_FLOAT";
    case TFCC_FLOAT16: return "DT_HALF";
    case TFCC_BFLOAT16: return "DT_BFLOAT16";
    case TFCC_FLOAT64: return "DT_DOUBLE";
    case TFCC_INT8: return "DT_INT8";
    case TFCC_INT16: return "DT_INT16";
    case TFCC_INT32: return "DT_INT32";
    case TFCC_INT64: return "DT_INT64";
    case TFCC_UINT8: return "DT_UINT8";
    case TFCC_UINT16: return "DT_UINT16";
    case TFCC_UINT32: return "DT_UINT32";
    case TFCC_UINT64: return "DT_UINT64";
    case TFCC_BOOL: return "DT_BOOL";
    case TFCC_STRING: return "DT_STRING";
    default: return "DT_INVALID";
  }
}

static void tensor_map(srv_buf *b, const srv_io *ios, int n) {
  srv_buf_str(b, "{");
  for (int i = 0; i < n; i++) {
    if (i) srv_buf_str(b, ",");
    srv_buf_json_str(b, ios[i].name);
    srv_buf_printf(b, ":{\"dtype\":\"%s\",\"tensor_shape\":{\"dim\":[", tf_dtype(ios[i].dtype));
    for (int32_t d = 0; d < ios[i].rank; d++)
      srv_buf_printf(b, "%s{\"size\":\"%d\",\"name\":\"\"}", d ? "," : "", (int)ios[i].sig[d]);
    srv_buf_str(b, "],\"unknown_rank\":false},\"name\":");
    srv_buf_json_str(b, ios[i].name);
    srv_buf_str(b, "}");
  }
  srv_buf_str(b, "}");
}

static void signature_def(srv_buf *b, const char *key, const srv_sig *sig, int first) {
  if (!first) srv_buf_str(b, ",");
  srv_buf_json_str(b, key);
  srv_buf_str(b, ":{\"inputs\":");
  tensor_map(b, sig->in, sig->n_in);
  srv_buf_str(b, ",\"outputs\":");
  tensor_map(b, sig->out, sig->n_out);
  srv_buf_str(b, ",\"method_name\":\"tensorflow/serving/predict\"}");
}

/* GET /v1/models/{name}[/versions/{v}]/metadata: TF Serving's GetModelMetadata answer with
 * every signature_def of the file that can run (a file without signatures: "serving_default" =
 * subgraph 0). */
static void metadata_json(srv_server *s, const char *name, long long version, srv_http_resp *resp) {
  char err[600];
  int status = 0;
  srv_version *v = srv_repo_acquire(s->repo, name, version, &status, err, sizeof err);
  if (!v) {
    srv_resp_error(resp, status, "%s", err);
    return;
  }
  srv_buf b;
  srv_buf_init(&b);
  srv_buf_str(&b, "{\"model_spec\":{\"name\":");
  srv_buf_json_str(&b, name);
  srv_buf_printf(&b,
                 ",\"signature_name\":\"\",\"version\":\"%lld\"},"
                 "\"metadata\":{\"signature_def\":{\"signature_def\":{",
                 v->version);
  if (v->n_ep == 1) signature_def(&b, "serving_default", &v->ep[0].sig, 1);
  int first = 1;
  for (int i = 1; i < v->n_ep; i++) /* not those that cannot run (their predict is an error) */
    if (!v->ep[i].cannot_run[0]) {
      signature_def(&b, v->ep[i].key, &v->ep[i].sig, first);
      first = 0;
    }
  srv_buf_str(&b, "}}}}");
  srv_version_release(v);
  srv_resp_set(resp, 200, "application/json", &b);
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
    srv_buf_printf(
        &b,
        "%s{\"version\":\"%lld\",\"state\":\"AVAILABLE\",\"status\":{\"error_code\":\"OK\",\"error_message\":\"\"}}",
        first ? "" : ",", vs[i]);
    first = 0;
  }
  if (first && version >= 0) {
    srv_buf_free(&b);
    srv_resp_error(resp, 404, "model '%s' has no version %lld loaded", name, version);
    return;
  }
  if (first) {
    srv_buf_str(
        &b,
        "{\"version\":\"0\",\"state\":\"UNAVAILABLE\",\"status\":{\"error_code\":\"UNAVAILABLE\",\"error_message\":");
    srv_buf_json_str(&b, last);
    srv_buf_str(&b, "}}");
  }
  srv_buf_str(&b, "]}");
  srv_resp_set(resp, 200, "application/json", &b);
}

int srv_route_tfserving(srv_server *s, const srv_http_req *req, srv_http_resp *resp) {
  char buf[2048];
  char *seg[8];
  int n = srv_path_split(req->url, buf, sizeof buf, seg, 7);
  if (n < 3 || strcmp(seg[0], "v1") != 0 || strcmp(seg[1], "models") != 0) return 0;
  char *last = seg[n - 1];
  char *colon = strchr(last, ':');
  const char *verb = NULL;
  if (colon) {
    *colon = '\0';
    verb = colon + 1;
  }
  long long version = -1;
  int metadata = !verb && (n == 4 || n == 6) && !strcmp(seg[n - 1], "metadata");
  if (metadata) n--;
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
    if (strcmp(req->method, "GET") != 0)
      srv_resp_error(resp, 405, "%s: use GET", req->url);
    else if (metadata)
      metadata_json(s, seg[2], version, resp);
    else
      status_json(s, seg[2], version, resp);
    return 1;
  }
  if (!strcmp(verb, "predict")) {
    if (strcmp(req->method, "POST") != 0)
      srv_resp_error(resp, 405, "%s: use POST", req->url);
    else
      predict(s, req, seg[2], version, resp);
    return 1;
  }
  srv_resp_error(resp, 404, "unsupported verb ':%s' (only :predict)", verb);
  return 1;
}
