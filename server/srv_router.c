/* Top-level routing: the protocol route sets, /metrics, and the shared response helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_log.h"
#include "srv_metrics.h"
#include "srv_server.h"

void srv_resp_init(srv_http_resp *r) {
  memset(r, 0, sizeof *r);
  r->version = -1;
  r->content_type = "application/json";
}

void srv_resp_set(srv_http_resp *r, int status, const char *content_type, srv_buf *b) {
  free(r->body);
  r->body = NULL;
  r->len = 0;
  r->status = status;
  r->content_type = content_type;
  size_t len = 0;
  char *p = srv_buf_take(b, &len);
  if (!p) {
    r->status = 500;
    r->content_type = "application/json";
    static const char oom[] = "{\"error\":\"out of memory\"}";
    r->body = strdup(oom);
    r->len = r->body ? sizeof oom - 1 : 0;
    return;
  }
  r->body = p;
  r->len = len;
}

void srv_resp_header(srv_http_resp *r, const char *name, const char *value) {
  if (r->n_extra >= SRV_MAX_EXTRA_HEADERS) return;
  snprintf(r->extra_name[r->n_extra], sizeof r->extra_name[0], "%s", name);
  snprintf(r->extra_value[r->n_extra], sizeof r->extra_value[0], "%s", value);
  r->n_extra++;
}

void srv_resp_error(srv_http_resp *r, int status, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  srv_buf b;
  srv_buf_init(&b);
  srv_buf_str(&b, "{\"error\":");
  srv_buf_json_str(&b, msg);
  srv_buf_str(&b, "}");
  srv_resp_set(r, status, "application/json", &b);
  if (status == 503) srv_resp_header(r, "Retry-After", "1");
}

int srv_path_split(const char *path, char *buf, size_t size, char **seg, int max) {
  snprintf(buf, size, "%s", path);
  int n = 0;
  char *p = buf;
  while (*p == '/') p++;
  while (*p && n < max) {
    seg[n++] = p;
    char *slash = strchr(p, '/');
    if (!slash) break;
    *slash = '\0';
    p = slash + 1;
  }
  if (*p && n == max) return max + 1; /* too many */
  return n;
}

long long srv_parse_version(const char *s) {
  if (!s || !*s) return -1;
  long long v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || v > 100000000000000LL) return -1;
    v = v * 10 + (*p - '0');
  }
  return v > 0 ? v : -1;
}

void srv_route(srv_server *s, const srv_http_req *req, srv_http_resp *resp) {
  srv_live live;
  srv_live_get(s, &live);
  if (live.metrics_enabled && !strcmp(req->url, live.metrics_path)) {
    if (strcmp(req->method, "GET") != 0) {
      srv_resp_error(resp, 405, "%s: use GET", req->url);
      return;
    }
    srv_buf b;
    srv_buf_init(&b);
    srv_metrics_render(&b);
    srv_resp_set(resp, 200, "text/plain; version=0.0.4; charset=utf-8", &b);
    return;
  }
  if (srv_route_kserve(s, req, resp)) return;
  if (srv_route_tfserving(s, req, resp)) return;
  srv_resp_error(resp, 404, "no route for %s %s", req->method, req->url);
}
