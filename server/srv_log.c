#include "srv_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "srv_buf.h"

/* Set at start and by a config reload (SIGHUP) while request threads log: atomics, each read
 * on its own (a line may use the old format, never a torn value). */
static atomic_int g_level = SRV_LOG_INFO, g_json = 0, g_access = 1;
static const char *const k_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

void srv_log_setup(int level, int json, int access_log) {
  atomic_store_explicit(&g_level, level, memory_order_relaxed);
  atomic_store_explicit(&g_json, json, memory_order_relaxed);
  atomic_store_explicit(&g_access, access_log, memory_order_relaxed);
}

int srv_log_level(void) { return atomic_load_explicit(&g_level, memory_order_relaxed); }

int srv_log_parse_level(const char *s) {
  for (int i = 0; i < 4; i++)
    if (strcasecmp(s, k_names[i]) == 0) return i;
  if (strcasecmp(s, "warning") == 0) return SRV_LOG_WARN;
  return -1;
}

static void timestamp(char *out, size_t n) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  size_t k = strftime(out, n, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out + k, n - k, ".%03ldZ", ts.tv_nsec / 1000000);
}

static void emit(srv_buf *b) {
  srv_buf_put(b, "\n", 1);
  if (b->oom) return;
  size_t off = 0;
  while (off < b->len) {
    ssize_t w = write(STDERR_FILENO, b->data + off, b->len - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
}

void srv_log(int level, const char *tag, const char *fmt, ...) {
  if (level > srv_log_level()) return;
  char msg[2048], ts[40];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  timestamp(ts, sizeof ts);
  srv_buf b;
  srv_buf_init(&b);
  if (atomic_load_explicit(&g_json, memory_order_relaxed)) {
    srv_buf_printf(&b, "{\"ts\":\"%s\",\"level\":\"%s\",\"tag\":", ts, k_names[level]);
    srv_buf_json_str(&b, tag);
    srv_buf_str(&b, ",\"msg\":");
    srv_buf_json_str(&b, msg);
    srv_buf_str(&b, "}");
  } else {
    srv_buf_printf(&b, "%s %-5s %s %s", ts, k_names[level], tag, msg);
  }
  emit(&b);
  srv_buf_free(&b);
}

int srv_log_access_enabled(void) { return atomic_load_explicit(&g_access, memory_order_relaxed); }

void srv_log_access(const srv_access *a) {
  if (!srv_log_access_enabled()) return;
  char ts[40];
  timestamp(ts, sizeof ts);
  srv_buf b;
  srv_buf_init(&b);
  if (atomic_load_explicit(&g_json, memory_order_relaxed)) {
    srv_buf_printf(&b, "{\"ts\":\"%s\",\"level\":\"INFO\",\"tag\":\"ACCESS\",\"remote\":", ts);
    srv_buf_json_str(&b, a->remote ? a->remote : "");
    srv_buf_str(&b, ",\"method\":");
    srv_buf_json_str(&b, a->method);
    srv_buf_str(&b, ",\"path\":");
    srv_buf_json_str(&b, a->url);
    srv_buf_printf(&b, ",\"status\":%d,\"bytes_in\":%zu,\"bytes_out\":%zu", a->status, a->bytes_in,
                   a->bytes_out);
    if (a->model && a->model[0]) {
      srv_buf_str(&b, ",\"model\":");
      srv_buf_json_str(&b, a->model);
      if (a->version >= 0) srv_buf_printf(&b, ",\"version\":%lld", a->version);
    }
    srv_buf_printf(&b, ",\"queue_ms\":%.3f,\"compute_ms\":%.3f,\"total_ms\":%.3f}", a->queue_ms,
                   a->compute_ms, a->total_ms);
  } else {
    srv_buf_printf(&b, "%s INFO  ACCESS %s \"%s %s\" %d in=%zu out=%zu", ts,
                   a->remote ? a->remote : "-", a->method, a->url, a->status, a->bytes_in,
                   a->bytes_out);
    if (a->model && a->model[0]) {
      srv_buf_printf(&b, " model=%s", a->model);
      if (a->version >= 0) srv_buf_printf(&b, " version=%lld", a->version);
    }
    srv_buf_printf(&b, " queue_ms=%.3f compute_ms=%.3f total_ms=%.3f", a->queue_ms, a->compute_ms,
                   a->total_ms);
  }
  emit(&b);
  srv_buf_free(&b);
}
