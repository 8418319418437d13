/* The server object shared by the HTTP front, the routes and the lifecycle code, plus the
 * request/response types the routes see (independent of libmicrohttpd). */
#ifndef TFCC_SERVER_SRV_SERVER_H
#define TFCC_SERVER_SRV_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "srv_buf.h"
#include "srv_config.h"
#include "srv_repo.h"

/* The settings a reload (SIGHUP) changes while requests are served: written by the reload under
 * srv_server.live_mu, read by request threads as a copy (srv_live_get). */
typedef struct srv_live {
  int metrics_enabled;
  char metrics_path[128];
  int request_timeout_ms;
} srv_live;

typedef struct srv_server {
  srv_config cfg;                 /* as started; the reloadable part is in `live` */
  pthread_rwlock_t live_mu;
  srv_live live;
  char config_path[SRV_PATH_MAX]; /* "" when started without --config */
  tfcc_runtime *rt;
  srv_repo *repo;
  void *http;                     /* srv_http front */
  _Atomic int draining;           /* SIGTERM received: not ready, finishing in-flight requests */
  _Atomic long in_flight;         /* HTTP requests being handled */
  int port;                       /* bound port */
  int health_port;                /* bound port of the health listener; -1: none */
} srv_server;

/* A consistent copy of the reloadable settings. */
void srv_live_get(srv_server *s, srv_live *out);
/* Its request_timeout_ms. */
int srv_live_timeout_ms(srv_server *s);

typedef struct srv_http_req {
  const char *method, *url, *remote;
  const char *body;
  size_t body_len;
  long long header_len; /* Inference-Header-Content-Length; -1 if absent */
  const char *content_type;
} srv_http_req;

#define SRV_MAX_EXTRA_HEADERS 4
typedef struct srv_http_resp {
  int status;
  const char *content_type;
  char *body; /* malloc'ed */
  size_t len;
  int n_extra;
  char extra_name[SRV_MAX_EXTRA_HEADERS][48], extra_value[SRV_MAX_EXTRA_HEADERS][48];
  /* for the access log */
  char model[SRV_NAME_MAX];
  long long version;
  double queue_ms, compute_ms;
} srv_http_resp;

void srv_resp_init(srv_http_resp *r);
/* Takes b's bytes as the body. */
void srv_resp_set(srv_http_resp *r, int status, const char *content_type, srv_buf *b);
/* {"error": "..."} with status (503 adds Retry-After: 1). */
void srv_resp_error(srv_http_resp *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void srv_resp_header(srv_http_resp *r, const char *name, const char *value);

/* Routes one complete request. */
void srv_route(srv_server *s, const srv_http_req *req, srv_http_resp *resp);
int srv_route_kserve(srv_server *s, const srv_http_req *req, srv_http_resp *resp); /* 0: not a v2 path */
int srv_route_tfserving(srv_server *s, const srv_http_req *req, srv_http_resp *resp); /* 0: not v1 */

/* Splits path into at most max '/'-separated segments (copies into buf). Returns the count. */
int srv_path_split(const char *path, char *buf, size_t size, char **seg, int max);
/* Parses a version number ("3"); -1 if not a positive integer. */
long long srv_parse_version(const char *s);

/* HTTP front (libmicrohttpd). */
int srv_http_start(srv_server *s, char *err, size_t n);
/* Stops accepting new connections (listening socket closed). */
void srv_http_quiesce(srv_server *s);
void srv_http_stop(srv_server *s);

/* Runs the server until SIGTERM/SIGINT (graceful drain) and returns the exit code (0 after a
 * clean drain). cfg is owned by the server from here on. config_path ("" or NULL: none) is
 * re-read on SIGHUP. */
int srv_run(srv_config *cfg, const char *config_path);

#endif
