/* HTTP front on libmicrohttpd: one thread per connection (inference blocks in the handler;
 * the session pool bounds compute and the wait queue bounds waiters), keep-alive, a body
 * limit (Content-Length checked before reading; chunked bodies cut off), an idle/read
 * timeout, a whole-request deadline (receive_s: a reaper thread shuts down connections whose
 * request has not fully arrived in time), a cap per client address, max_connections, an
 * optional second listener for health and metrics only, and quiesce for draining. */
#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "srv_http_check.h"
#include "srv_log.h"
#include "srv_metrics.h"
#include "srv_server.h"

/* Per connection: the last request's body buffer, kept for the next request on the same
 * keep-alive connection (up to KEEP_BODY_MAX bytes). Steady traffic then allocates no body
 * buffers, and RSS stays flat (connections x body size) instead of following malloc's
 * fragmentation of ~100 KiB-1 MiB chunks across arenas. */
#define KEEP_BODY_MAX ((size_t)4 << 20)
#define BODY_FIRST ((size_t)64 << 10) /* first body buffer when the connection has none cached */
/* The health listener (server.health_port): GET /v2/health/live, /v2/health/ready, metrics. */
#define HEALTH_MAX_CONNECTIONS 32u
#define HEALTH_PER_CLIENT 8u
#define HEALTH_TIMEOUT_S 5
#define HEALTH_MAX_BODY ((size_t)4096)

typedef struct front front;

/* One listening daemon: the main one, or the health one (health_only). */
typedef struct listener {
  srv_server *s;
  front *f;
  struct MHD_Daemon *d;
  int health_only;
  uint64_t receive_ns; /* whole-request deadline */
} listener;

/* Per connection (libmicrohttpd's socket context), from accept to close. */
typedef struct conn_state {
  char *raw; /* the kept body buffer */
  size_t size;
  /* under front.mu: */
  struct conn_state *prev, *next;
  listener *l;
  int fd;
  int busy;          /* the request has arrived: being handled or answered (no deadline) */
  int seen_request;  /* the current request's line has arrived (a deadline then answers 408) */
  int killed;
  uint64_t since_ns; /* start of the current receive phase: accept or the previous answer */
  char remote[64];
} conn_state;

struct front {
  listener main, health;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  conn_state *head;
  pthread_t reaper;
  int reaper_started, stop;
};

static void conn_set_busy(conn_state *cs, int busy) {
  if (!cs) return;
  front *f = cs->l->f;
  pthread_mutex_lock(&f->mu);
  cs->busy = busy;
  if (!busy) {
    cs->seen_request = 0;
    cs->since_ns = srv_now_ns();
  }
  pthread_mutex_unlock(&f->mu);
}

typedef struct conn_ctx {
  char *raw;  /* 64-byte aligned allocation */
  size_t raw_size;
  conn_state *conn; /* the connection: kept body buffer, deadline state */
  char *body; /* raw + pad: the binary tensors after the JSON header start 64-byte aligned */
  size_t pad;
  size_t len, cap;
  size_t declared;   /* Content-Length; 0 if none (chunked) */
  int too_large;
  int answered;
  int started;       /* the handler has seen this request's headers */
  int bad_target;    /* 400 status from srv_http_check_target, 0 */
  char bad_target_err[128];
  uint64_t start_ns;
  /* The access log line of the answer, written once the answer has been sent (completed()):
   * no write(2) between the run and the answer (a write to a pipe wakes its reader, which may
   * preempt this thread before libmicrohttpd sends). */
  int log_pending;
  srv_access log;
  char log_remote[64], log_method[16], log_url[1024], log_model[SRV_NAME_MAX];
} conn_ctx;

static void remote_addr(struct MHD_Connection *c, char *out, size_t n) {
  snprintf(out, n, "-");
  const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!ci || !ci->client_addr) return;
  const struct sockaddr *sa = ci->client_addr;
  if (sa->sa_family == AF_INET) inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)n);
  else if (sa->sa_family == AF_INET6) inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)n);
}

static enum MHD_Result send_resp(srv_server *s, struct MHD_Connection *c, const char *method, const char *url,
                                 conn_ctx *ctx, srv_http_resp *r) {
  struct MHD_Response *mr = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
  if (!mr) {
    free(r->body);
    return MHD_NO;
  }
  r->body = NULL;
  MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
  for (int i = 0; i < r->n_extra; i++) MHD_add_response_header(mr, r->extra_name[i], r->extra_value[i]);
  if (atomic_load(&s->draining)) MHD_add_response_header(mr, MHD_HTTP_HEADER_CONNECTION, "close");
  enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, mr);
  MHD_destroy_response(mr);
  srv_metrics_http(r->status);
  char remote[64];
  remote_addr(c, remote, sizeof remote);
  srv_access a = {remote, method, url, r->model, r->version, r->status, ctx ? ctx->len : 0, r->len, r->queue_ms,
                  r->compute_ms, ctx ? (double)(srv_now_ns() - ctx->start_ns) / 1e6 : 0};
  if (!ctx) {
    srv_log_access(&a);
    return ok;
  }
  ctx->answered = 1;
  conn_set_busy(ctx->conn, 1);
  if (!srv_log_access_enabled()) return ok;
  /* kept for completed(), after the answer is sent */
  snprintf(ctx->log_remote, sizeof ctx->log_remote, "%s", remote);
  snprintf(ctx->log_method, sizeof ctx->log_method, "%s", method);
  snprintf(ctx->log_url, sizeof ctx->log_url, "%s", url);
  snprintf(ctx->log_model, sizeof ctx->log_model, "%s", r->model);
  ctx->log = a;
  ctx->log.remote = ctx->log_remote;
  ctx->log.method = ctx->log_method;
  ctx->log.url = ctx->log_url;
  ctx->log.model = ctx->log_model;
  ctx->log_pending = 1;
  return ok;
}

/* Makes room for cap body bytes (+1 for a NUL), keeping body + pad alignment. 0 or -1. */
static int body_grow(conn_ctx *ctx, size_t cap) {
  void *p = NULL;
  size_t size = ctx->pad + cap + 1;
  if (!ctx->raw && ctx->conn && ctx->conn->raw && ctx->conn->size >= size) {
    p = ctx->conn->raw; /* the connection's previous body buffer */
    size = ctx->conn->size;
    cap = size - ctx->pad - 1;
    ctx->conn->raw = NULL;
    ctx->conn->size = 0;
  } else if (posix_memalign(&p, 64, size) != 0) {
    return -1;
  }
  if (ctx->len) memcpy((char *)p + ctx->pad, ctx->body, ctx->len);
  free(ctx->raw);
  ctx->raw = p;
  ctx->raw_size = size;
  ctx->body = (char *)p + ctx->pad;
  ctx->cap = cap;
  return 0;
}

/* Called once the request line has arrived, with the target as received (before
 * percent-decoding); the returned context is the request's *con_cls. */
static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c) {
  listener *l = cls;
  const union MHD_ConnectionInfo *sc = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  conn_state *cs = sc ? sc->socket_context : NULL;
  if (cs) {
    pthread_mutex_lock(&l->f->mu);
    cs->seen_request = 1;
    pthread_mutex_unlock(&l->f->mu);
  }
  conn_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return NULL;
  ctx->conn = cs;
  ctx->start_ns = srv_now_ns();
  ctx->bad_target = srv_http_check_target(uri ? uri : "", ctx->bad_target_err, sizeof ctx->bad_target_err);
  return ctx;
}

static enum MHD_Result check_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                    const char *value, size_t value_size) {
  (void)kind;
  srv_http_check_header(cls, key, key_size, value, value_size);
  return MHD_YES;
}

/* 400 (or 501) for what RFC 9112 forbids; 0 if the request is well framed. */
static int check_framing(struct MHD_Connection *c, conn_ctx *ctx, const char *version, char *err, size_t n) {
  if (ctx->bad_target) {
    snprintf(err, n, "%s", ctx->bad_target_err);
    return ctx->bad_target;
  }
  srv_http_check chk;
  srv_http_check_init(&chk);
  MHD_get_connection_values_n(c, MHD_HEADER_KIND, check_header, &chk);
  return srv_http_check_finish(&chk, version, err, n);
}

static int health_route(const srv_live *live, const char *url) {
  return !strcmp(url, "/v2/health/live") || !strcmp(url, "/v2/health/ready") ||
         (live->metrics_enabled && !strcmp(url, live->metrics_path));
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size,
                               void **con_cls) {
  listener *l = cls;
  srv_server *s = l->s;
  size_t max_body = l->health_only ? HEALTH_MAX_BODY : (size_t)s->cfg.max_body_mb << 20;
  conn_ctx *ctx = *con_cls;
  if (!ctx || !ctx->started) {
    if (!ctx) ctx = calloc(1, sizeof *ctx); /* uri_log had no memory */
    if (!ctx) return MHD_NO;
    if (!ctx->start_ns) ctx->start_ns = srv_now_ns();
    ctx->started = 1;
    const union MHD_ConnectionInfo *sc = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    ctx->conn = sc ? sc->socket_context : NULL;
    *con_cls = ctx;
    atomic_fetch_add(&s->in_flight, 1);
    char why[300];
    int bad = check_framing(c, ctx, version, why, sizeof why);
    if (bad) {
      srv_http_resp r;
      srv_resp_init(&r);
      srv_resp_error(&r, bad, "%s", why);
      srv_resp_header(&r, MHD_HTTP_HEADER_CONNECTION, "close");
      return send_resp(s, c, method, url, ctx, &r);
    }
    /* Align the binary part (after Inference-Header-Content-Length bytes) to 64 bytes so
     * binary tensors can be run in place. */
    const char *ihl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Inference-Header-Content-Length");
    if (ihl) {
      unsigned long long h = strtoull(ihl, NULL, 10);
      ctx->pad = (size_t)((64 - h % 64) % 64);
    }
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl) {
      char *end;
      unsigned long long v = strtoull(cl, &end, 10);
      if (*end || v > max_body) {
        srv_http_resp r;
        srv_resp_init(&r);
        if (l->health_only)
          srv_resp_error(&r, 413, "request body of %s bytes: the health port takes at most %zu", cl, max_body);
        else
          srv_resp_error(&r, 413, "request body of %s bytes is larger than server.max_body_mb (%d MiB)", cl,
                         s->cfg.max_body_mb);
        srv_resp_header(&r, MHD_HTTP_HEADER_CONNECTION, "close");
        return send_resp(s, c, method, url, ctx, &r);
      }
      ctx->declared = (size_t)v; /* buffers grow as the bytes arrive, not from this number */
    }
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    size_t n = *upload_data_size;
    *upload_data_size = 0;
    if (ctx->too_large || ctx->answered) return MHD_YES;
    if (ctx->len + n > max_body) {
      ctx->too_large = 1;
      free(ctx->raw);
      ctx->raw = ctx->body = NULL;
      ctx->len = ctx->cap = ctx->raw_size = 0;
      return MHD_YES;
    }
    if (ctx->len + n > ctx->cap) {
      /* Double from 64 KiB as data arrives (never more than Content-Length): a client that
       * only announces a large body makes the server allocate nothing. */
      size_t want = ctx->len + n, cap = ctx->cap ? ctx->cap * 2 : BODY_FIRST;
      if (cap < want) cap = want;
      if (ctx->declared && cap > ctx->declared) cap = ctx->declared > want ? ctx->declared : want;
      if (body_grow(ctx, cap) != 0) return MHD_NO;
    }
    memcpy(ctx->body + ctx->len, upload_data, n);
    ctx->len += n;
    return MHD_YES;
  }
  if (ctx->answered) return MHD_YES;
  conn_set_busy(ctx->conn, 1); /* the request has arrived: no receive deadline while it runs */
  srv_http_resp r;
  srv_resp_init(&r);
  if (ctx->too_large) {
    srv_resp_error(&r, 413, "request body is larger than server.max_body_mb (%d MiB)", s->cfg.max_body_mb);
    return send_resp(s, c, method, url, ctx, &r);
  }
  if (ctx->body) ctx->body[ctx->len] = '\0';
  srv_http_req req = {method, url, NULL, ctx->body ? ctx->body : "", ctx->len, -1, NULL};
  const char *hl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Inference-Header-Content-Length");
  if (hl) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(hl, &end, 10);
    if (*end || hl[0] < '0' || hl[0] > '9' || errno == ERANGE) {
      srv_resp_error(&r, 400, "Inference-Header-Content-Length '%.40s' is not a byte count", hl);
      return send_resp(s, c, method, url, ctx, &r);
    }
    if (v > ctx->len) { /* named with the value given, not a clamped one */
      srv_resp_error(&r, 400, "Inference-Header-Content-Length %llu is larger than the body (%zu bytes)", v, ctx->len);
      return send_resp(s, c, method, url, ctx, &r);
    }
    req.header_len = (long long)v;
  }
  req.content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  if (l->health_only) {
    srv_live live;
    srv_live_get(s, &live);
    if (!health_route(&live, url)) {
      srv_resp_error(&r, 404, "no route for %s %s on the health port (it serves /v2/health/live, /v2/health/ready%s%s)",
                     method, url, live.metrics_enabled ? " and " : "", live.metrics_enabled ? live.metrics_path : "");
      return send_resp(s, c, method, url, ctx, &r);
    }
  }
  srv_route(s, &req, &r);
  if (ctx->raw_size > KEEP_BODY_MAX) {
    /* A large body is not kept for the connection: free it now, not when the keep-alive
     * connection's next request (or its close) completes this one, and give it back. */
    free(ctx->raw);
    ctx->raw = ctx->body = NULL;
    ctx->raw_size = ctx->cap = 0;
#ifdef __GLIBC__
    malloc_trim(0);
#endif
  }
  return send_resp(s, c, method, url, ctx, &r);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe) {
  (void)c;
  (void)toe;
  listener *l = cls;
  srv_server *s = l->s;
  conn_ctx *ctx = *con_cls;
  if (!ctx) return;
  conn_set_busy(ctx->conn, 0); /* the next request's receive phase starts now */
  if (ctx->log_pending) srv_log_access(&ctx->log);
  if (ctx->raw && ctx->conn && ctx->raw_size <= KEEP_BODY_MAX &&
      (!ctx->conn->raw || ctx->conn->size < ctx->raw_size)) {
    free(ctx->conn->raw);
    ctx->conn->raw = ctx->raw;
    ctx->conn->size = ctx->raw_size;
  } else {
    free(ctx->raw);
#ifdef __GLIBC__
    /* a large request: give what its parse and answer freed back to the system */
    if (ctx->raw_size > KEEP_BODY_MAX) malloc_trim(0);
#endif
  }
  int counted = ctx->started;
  free(ctx);
  *con_cls = NULL;
  if (counted) atomic_fetch_sub(&s->in_flight, 1);
}

/* Connection opened / closed. libmicrohttpd calls CLOSED before it closes the socket, so the
 * reaper (which holds front.mu) never shuts down a descriptor number already reused. */
static void connection_event(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode toe) {
  listener *l = cls;
  front *f = l->f;
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
    conn_state *cs = calloc(1, sizeof *cs);
    *socket_context = cs; /* NULL: no body reuse and no deadline on this connection */
    if (!cs) return;
    const union MHD_ConnectionInfo *fi = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    cs->fd = fi ? fi->connect_fd : -1;
    cs->l = l;
    cs->since_ns = srv_now_ns();
    remote_addr(c, cs->remote, sizeof cs->remote);
    pthread_mutex_lock(&f->mu);
    cs->next = f->head;
    if (f->head) f->head->prev = cs;
    f->head = cs;
    pthread_mutex_unlock(&f->mu);
  } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
    conn_state *cs = *socket_context;
    pthread_mutex_lock(&f->mu);
    if (cs->prev) cs->prev->next = cs->next;
    else f->head = cs->next;
    if (cs->next) cs->next->prev = cs->prev;
    pthread_mutex_unlock(&f->mu);
    free(cs->raw);
    free(cs);
    *socket_context = NULL;
  }
}

/* Whole-request deadline: every REAP_MS, a connection whose request (line, headers, body) has
 * not arrived within receive_s of its accept or of the previous answer is shut down; if its
 * request line had arrived it first gets a 408. The connection thread then sees the end of
 * the stream and libmicrohttpd closes it. */
#define REAP_MS 200
static void *reaper_main(void *arg) {
  front *f = arg;
  static const char k408[] =
      "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\n"
      "Content-Length: 72\r\n\r\n{\"error\":\"the request did not arrive within server.timeouts.receive_s\"}\n";
  pthread_mutex_lock(&f->mu);
  while (!f->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += REAP_MS * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&f->cv, &f->mu, &ts);
    if (f->stop) break;
    uint64_t now = srv_now_ns();
    int killed = 0, answered = 0;
    char first[64] = "";
    for (conn_state *cs = f->head; cs; cs = cs->next) {
      if (cs->busy || cs->killed || cs->fd < 0 || now - cs->since_ns < cs->l->receive_ns) continue;
      cs->killed = 1;
      if (cs->seen_request) {
        ssize_t w = send(cs->fd, k408, sizeof k408 - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        (void)w;
        answered++;
      }
      shutdown(cs->fd, SHUT_RDWR);
      if (!killed++) snprintf(first, sizeof first, "%s", cs->remote);
    }
    if (killed) {
      pthread_mutex_unlock(&f->mu);
      for (int i = 0; i < answered; i++) srv_metrics_http(408);
      srv_log(SRV_LOG_WARN, "REQUEST_DEADLINE",
              "closed %d connection(s) whose request did not arrive within timeouts.receive_s (%d answered 408; "
              "first from %s)", killed, answered, first);
      pthread_mutex_lock(&f->mu);
    }
  }
  pthread_mutex_unlock(&f->mu);
  return NULL;
}

static void mhd_log(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  size_t n = strlen(msg);
  while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = '\0';
  srv_log(SRV_LOG_DEBUG, "HTTP", "%s", msg);
}

/* Starts one daemon on host:port for l. 0 or -1 with err. */
static int listen_on(listener *l, int port, unsigned max_conn, unsigned per_client, unsigned read_s, char *err,
                     size_t n) {
  srv_server *s = l->s;
  struct sockaddr_in in4;
  struct sockaddr_in6 in6;
  const struct sockaddr *sa;
  /* poll(2) rather than select(2) in every connection thread: no FD_SETSIZE (1024) limit on
   * descriptor numbers and no fd_set copied in and out on each of the ~9 waits per request. */
  unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC |
                   MHD_USE_ERROR_LOG;
  memset(&in4, 0, sizeof in4);
  memset(&in6, 0, sizeof in6);
  if (inet_pton(AF_INET, s->cfg.host, &in4.sin_addr) == 1) {
    in4.sin_family = AF_INET;
    in4.sin_port = htons((uint16_t)port);
    sa = (const struct sockaddr *)&in4;
  } else if (inet_pton(AF_INET6, s->cfg.host, &in6.sin6_addr) == 1) {
    in6.sin6_family = AF_INET6;
    in6.sin6_port = htons((uint16_t)port);
    sa = (const struct sockaddr *)&in6;
    flags |= MHD_USE_IPv6;
  } else {
    snprintf(err, n, "server.host: '%s' is not an IPv4 or IPv6 address", s->cfg.host);
    return -1;
  }
  struct MHD_Daemon *d = MHD_start_daemon(
      flags, (uint16_t)port, NULL, NULL, handler, l, MHD_OPTION_SOCK_ADDR, sa,
      MHD_OPTION_CONNECTION_LIMIT, max_conn, MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client,
      MHD_OPTION_CONNECTION_TIMEOUT, read_s, MHD_OPTION_NOTIFY_COMPLETED, completed, l,
      MHD_OPTION_URI_LOG_CALLBACK, uri_log, l, MHD_OPTION_NOTIFY_CONNECTION, connection_event, l,
      MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_END);
  if (!d) {
    snprintf(err, n, "cannot listen on %s:%d%s (address in use or not permitted)", s->cfg.host, port,
             l->health_only ? " (server.health_port)" : "");
    return -1;
  }
  l->d = d;
  return 0;
}

static int bound_port(struct MHD_Daemon *d, int fallback) {
  const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  return di && di->port ? di->port : fallback;
}

int srv_http_start(srv_server *s, char *err, size_t n) {
  front *f = calloc(1, sizeof *f);
  if (!f) {
    snprintf(err, n, "out of memory");
    return -1;
  }
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->cv, NULL);
  s->http = f;
  s->health_port = -1;
  unsigned max_conn = (unsigned)s->cfg.max_connections;
  int pc = s->cfg.max_connections_per_client;
  unsigned per_client = pc < 0 ? (max_conn / 2 ? max_conn / 2 : 1) : (unsigned)pc; /* 0: no cap */
  f->main = (listener){s, f, NULL, 0, (uint64_t)s->cfg.receive_timeout_s * 1000000000ull};
  if (listen_on(&f->main, s->cfg.port, max_conn, per_client, (unsigned)s->cfg.read_timeout_s, err, n) != 0)
    goto fail;
  s->port = bound_port(f->main.d, s->cfg.port);
  if (s->cfg.health_port >= 0) {
    /* Probes and scrapes: short requests, so short limits; its own connection table, which
     * clients of the main port cannot exhaust. */
    int recv_s = s->cfg.receive_timeout_s < HEALTH_TIMEOUT_S ? s->cfg.receive_timeout_s : HEALTH_TIMEOUT_S;
    int read_s = s->cfg.read_timeout_s < HEALTH_TIMEOUT_S ? s->cfg.read_timeout_s : HEALTH_TIMEOUT_S;
    f->health = (listener){s, f, NULL, 1, (uint64_t)recv_s * 1000000000ull};
    if (listen_on(&f->health, s->cfg.health_port, HEALTH_MAX_CONNECTIONS, HEALTH_PER_CLIENT, (unsigned)read_s, err,
                  n) != 0)
      goto fail;
    s->health_port = bound_port(f->health.d, s->cfg.health_port);
  }
  if (pthread_create(&f->reaper, NULL, reaper_main, f) != 0) {
    snprintf(err, n, "cannot start the request deadline thread");
    goto fail;
  }
  f->reaper_started = 1;
  return 0;
fail:
  srv_http_stop(s);
  return -1;
}

void srv_http_quiesce(srv_server *s) {
  front *f = s->http;
  if (!f || !f->main.d) return; /* the health listener stays: probes see readiness turn 400 */
  MHD_socket fd = MHD_quiesce_daemon(f->main.d);
  if (fd != MHD_INVALID_SOCKET) close(fd);
}

void srv_http_stop(srv_server *s) {
  front *f = s->http;
  if (!f) return;
  if (f->main.d) MHD_stop_daemon(f->main.d);
  if (f->health.d) MHD_stop_daemon(f->health.d);
  if (f->reaper_started) {
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->reaper, NULL);
  }
  pthread_cond_destroy(&f->cv);
  pthread_mutex_destroy(&f->mu);
  free(f);
  s->http = NULL;
}
