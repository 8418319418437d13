/* Server log: one line per event, text ("2026-01-01T00:00:00Z WARN TAG message") or JSON
 * ({"ts":...,"level":...,"tag":...,"msg":...}), to stderr; plus the access log (one line per
 * HTTP request). Thread-safe (each line is one write). */
#ifndef TFCC_SERVER_SRV_LOG_H
#define TFCC_SERVER_SRV_LOG_H

#include <stddef.h>

enum { SRV_LOG_ERROR = 0, SRV_LOG_WARN = 1, SRV_LOG_INFO = 2, SRV_LOG_DEBUG = 3 };

void srv_log_setup(int level, int json, int access_log);
int srv_log_level(void);
void srv_log(int level, const char *tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

typedef struct srv_access {
  const char *remote, *method, *url, *model;
  long long version; /* -1: none */
  int status;
  size_t bytes_in, bytes_out;
  double queue_ms, compute_ms, total_ms;
} srv_access;
void srv_log_access(const srv_access *a);
/* Whether access lines are written (log.access). */
int srv_log_access_enabled(void);

/* "error", "warn", "info", "debug" -> level; -1 if unknown. */
int srv_log_parse_level(const char *s);

#endif
