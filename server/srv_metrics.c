#include "srv_metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Upper bounds in seconds: 50 us .. 10 s, roughly x2 steps (shared by every histogram so
 * replicas aggregate with histogram_quantile). */
static const double k_bounds[SRV_HIST_BUCKETS] = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005,
    0.0075,  0.01,   0.02,    0.05,   0.1,     0.25,  0.5,    1.0,   2.5,   10.0};
static const int k_status[] = {
#define SRV_STATUS_VAL_(c) c,
    SRV_STATUS_LIST(SRV_STATUS_VAL_)
#undef SRV_STATUS_VAL_
};
#define N_STATUS ((int)(sizeof k_status / sizeof k_status[0]))

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static srv_version_stats *g_versions;
static srv_model_stats *g_models;
static _Atomic uint64_t g_http[SRV_STATUS_SLOTS];
static uint64_t g_start_ns;

uint64_t srv_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void srv_metrics_init(void) { g_start_ns = srv_now_ns(); }

void srv_metrics_shutdown(void) {
  pthread_mutex_lock(&g_lock);
  while (g_versions) {
    srv_version_stats *n = g_versions->next;
    free(g_versions);
    g_versions = n;
  }
  while (g_models) {
    srv_model_stats *n = g_models->next;
    free(g_models);
    g_models = n;
  }
  pthread_mutex_unlock(&g_lock);
}

srv_version_stats *srv_metrics_version(const char *model, long long version) {
  pthread_mutex_lock(&g_lock);
  srv_version_stats *s = g_versions, *last = NULL;
  for (; s; last = s, s = s->next)
    if (s->version == version && !strcmp(s->model, model)) break;
  if (!s) {
    s = calloc(1, sizeof *s);
    if (s) {
      snprintf(s->model, sizeof s->model, "%s", model);
      s->version = version;
      if (last) last->next = s;
      else g_versions = s;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return s;
}

srv_model_stats *srv_metrics_model(const char *model) {
  pthread_mutex_lock(&g_lock);
  srv_model_stats *s = g_models, *last = NULL;
  for (; s; last = s, s = s->next)
    if (!strcmp(s->model, model)) break;
  if (!s) {
    s = calloc(1, sizeof *s);
    if (s) {
      snprintf(s->model, sizeof s->model, "%s", model);
      atomic_store(&s->ready_version, -1);
      if (last) last->next = s;
      else g_models = s;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return s;
}

void srv_hist_observe(srv_hist *h, uint64_t ns) {
  double sec = (double)ns * 1e-9;
  int i = 0;
  while (i < SRV_HIST_BUCKETS && sec > k_bounds[i]) i++;
  if (i < SRV_HIST_BUCKETS) atomic_fetch_add_explicit(&h->bucket[i], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&h->sum_ns, ns, memory_order_relaxed);
  atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
}

void srv_batch_observe(srv_model_stats *m, int rows, int requests) {
  int i = 0;
  while (i < SRV_BATCH_BUCKETS && rows > (1 << i)) i++;
  if (i < SRV_BATCH_BUCKETS) atomic_fetch_add_explicit(&m->batch_bucket[i], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&m->batch_sum, (uint64_t)rows, memory_order_relaxed);
  atomic_fetch_add_explicit(&m->batch_requests, (uint64_t)requests, memory_order_relaxed);
  atomic_fetch_add_explicit(&m->batch_count, 1, memory_order_relaxed);
}

static void label_value(srv_buf *b, const char *s);

static void batch_render(srv_buf *b) {
  srv_buf_str(b, "# HELP tfcc_batch_size Rows per model run with dynamic batching (one observation per run).\n"
                 "# TYPE tfcc_batch_size histogram\n");
  for (srv_model_stats *m = g_models; m; m = m->next) {
    uint64_t n = atomic_load(&m->batch_count);
    if (!n) continue;
    uint64_t cum = 0;
    for (int i = 0; i < SRV_BATCH_BUCKETS; i++) {
      cum += atomic_load(&m->batch_bucket[i]);
      srv_buf_str(b, "tfcc_batch_size_bucket{model=\"");
      label_value(b, m->model);
      srv_buf_printf(b, "\",le=\"%d\"} %llu\n", 1 << i, (unsigned long long)cum);
    }
    srv_buf_str(b, "tfcc_batch_size_bucket{model=\"");
    label_value(b, m->model);
    srv_buf_printf(b, "\",le=\"+Inf\"} %llu\n", (unsigned long long)n);
    srv_buf_str(b, "tfcc_batch_size_sum{model=\"");
    label_value(b, m->model);
    srv_buf_printf(b, "\"} %llu\n", (unsigned long long)atomic_load(&m->batch_sum));
    srv_buf_str(b, "tfcc_batch_size_count{model=\"");
    label_value(b, m->model);
    srv_buf_printf(b, "\"} %llu\n", (unsigned long long)n);
  }
  srv_buf_str(b, "# HELP tfcc_batched_requests_total Requests answered from a batched run (more than one request merged).\n"
                 "# TYPE tfcc_batched_requests_total counter\n");
  for (srv_model_stats *m = g_models; m; m = m->next) {
    if (!atomic_load(&m->batch_count)) continue;
    srv_buf_str(b, "tfcc_batched_requests_total{model=\"");
    label_value(b, m->model);
    srv_buf_printf(b, "\"} %llu\n", (unsigned long long)atomic_load(&m->batch_requests));
  }
}

static int slot(int status) {
  for (int i = 0; i < N_STATUS; i++)
    if (k_status[i] == status) return i;
  return SRV_STATUS_SLOTS - 1;
}

void srv_metrics_count(srv_version_stats *s, int status) {
  if (s) atomic_fetch_add_explicit(&s->requests[slot(status)], 1, memory_order_relaxed);
}

void srv_metrics_http(int status) { atomic_fetch_add_explicit(&g_http[slot(status)], 1, memory_order_relaxed); }

static void label_code(char *out, size_t n, int i) {
  if (i < N_STATUS) snprintf(out, n, "%d", k_status[i]);
  else snprintf(out, n, "other");
}

/* Model names are restricted (no quotes, backslashes or newlines are possible in labels
 * because srv_config rejects them and repository names come from directory names, which
 * are escaped here anyway). */
static void label_value(srv_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\\' || *s == '"') srv_buf_put(b, "\\", 1);
    if (*s == '\n') {
      srv_buf_str(b, "\\n");
      continue;
    }
    srv_buf_put(b, s, 1);
  }
}

static void hist_render(srv_buf *b, const char *name, const char *model, long long version,
                        const srv_hist *h) {
  uint64_t cum = 0;
  for (int i = 0; i < SRV_HIST_BUCKETS; i++) {
    cum += atomic_load_explicit(&h->bucket[i], memory_order_relaxed);
    srv_buf_printf(b, "%s_bucket{model=\"", name);
    label_value(b, model);
    if (version >= 0) srv_buf_printf(b, "\",version=\"%lld", version);
    srv_buf_printf(b, "\",le=\"%g\"} %llu\n", k_bounds[i], (unsigned long long)cum);
  }
  uint64_t count = atomic_load_explicit(&h->count, memory_order_relaxed);
  srv_buf_printf(b, "%s_bucket{model=\"", name);
  label_value(b, model);
  if (version >= 0) srv_buf_printf(b, "\",version=\"%lld", version);
  srv_buf_printf(b, "\",le=\"+Inf\"} %llu\n", (unsigned long long)count);
  const char *suffix[2] = {"_sum", "_count"};
  for (int k = 0; k < 2; k++) {
    srv_buf_printf(b, "%s%s{model=\"", name, suffix[k]);
    label_value(b, model);
    if (version >= 0) srv_buf_printf(b, "\",version=\"%lld", version);
    if (k == 0)
      srv_buf_printf(b, "\"} %.9f\n", (double)atomic_load_explicit(&h->sum_ns, memory_order_relaxed) * 1e-9);
    else
      srv_buf_printf(b, "\"} %llu\n", (unsigned long long)count);
  }
}

uint64_t srv_process_rss(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, rss = 0;
  int n = fscanf(f, "%llu %llu", &size, &rss);
  fclose(f);
  if (n != 2) return 0;
  return rss * (uint64_t)sysconf(_SC_PAGESIZE);
}

void srv_metrics_render(srv_buf *b) {
  char code[16];
  srv_buf_str(b, "# HELP tfcc_http_responses_total HTTP responses by status code (every path).\n"
                 "# TYPE tfcc_http_responses_total counter\n");
  for (int i = 0; i < SRV_STATUS_SLOTS; i++) {
    label_code(code, sizeof code, i);
    srv_buf_printf(b, "tfcc_http_responses_total{code=\"%s\"} %llu\n", code,
                   (unsigned long long)atomic_load(&g_http[i]));
  }
  pthread_mutex_lock(&g_lock);
  srv_buf_str(b, "# HELP tfcc_inference_requests_total Inference requests by model, version and status code.\n"
                 "# TYPE tfcc_inference_requests_total counter\n");
  for (srv_version_stats *s = g_versions; s; s = s->next)
    for (int i = 0; i < SRV_STATUS_SLOTS; i++) {
      uint64_t v = atomic_load(&s->requests[i]);
      if (!v && i != 0) continue;
      label_code(code, sizeof code, i);
      srv_buf_str(b, "tfcc_inference_requests_total{model=\"");
      label_value(b, s->model);
      srv_buf_printf(b, "\",version=\"%lld\",code=\"%s\"} %llu\n", s->version, code, (unsigned long long)v);
    }
  const char *hn[3] = {"tfcc_request_queue_seconds", "tfcc_request_compute_seconds", "tfcc_request_total_seconds"};
  const char *hh[3] = {"time waiting for a free session", "model execution time (tfcc_session_run)",
                       "time from the complete request body to the encoded response"};
  for (int k = 0; k < 3; k++) {
    srv_buf_printf(b, "# HELP %s Inference %s.\n# TYPE %s histogram\n", hn[k], hh[k], hn[k]);
    for (srv_version_stats *s = g_versions; s; s = s->next)
      hist_render(b, hn[k], s->model, s->version, k == 0 ? &s->queue : k == 1 ? &s->compute : &s->total);
  }
  struct {
    const char *name, *help, *type;
    int field;
  } gauges[] = {
      {"tfcc_inflight_requests", "Inference requests waiting or running.", "gauge", 0},
      {"tfcc_queue_depth", "Inference requests waiting for a session.", "gauge", 1},
      {"tfcc_model_loads_total", "Model versions loaded and verified.", "counter", 2},
      {"tfcc_model_load_failures_total", "Model versions that failed to load or verify (old version kept).", "counter", 3},
      {"tfcc_requests_rejected_total", "Requests answered 503 because the queue was full.", "counter", 4},
      {"tfcc_model_ready_version", "Version served by default (-1: not ready).", "gauge", 5},
      {"tfcc_model_hot_updates_total", "Reloads done as a hot weight update (same graph, sessions kept).", "counter", 6},
  };
  for (size_t g = 0; g < sizeof gauges / sizeof gauges[0]; g++) {
    srv_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", gauges[g].name, gauges[g].help, gauges[g].name, gauges[g].type);
    for (srv_model_stats *m = g_models; m; m = m->next) {
      long long v = 0;
      switch (gauges[g].field) {
        case 0: v = (long long)atomic_load(&m->in_flight); break;
        case 1: v = (long long)atomic_load(&m->queued); break;
        case 2: v = (long long)atomic_load(&m->loads_ok); break;
        case 3: v = (long long)atomic_load(&m->loads_failed); break;
        case 4: v = (long long)atomic_load(&m->rejected_full); break;
        case 5: v = (long long)atomic_load(&m->ready_version); break;
        default: v = (long long)atomic_load(&m->hot_updates); break;
      }
      srv_buf_printf(b, "%s{model=\"", gauges[g].name);
      label_value(b, m->model);
      srv_buf_printf(b, "\"} %lld\n", v);
    }
  }
  srv_buf_str(b, "# HELP tfcc_model_reload_seconds Duration of loading, verifying and swapping in a model version.\n"
                 "# TYPE tfcc_model_reload_seconds histogram\n");
  for (srv_model_stats *m = g_models; m; m = m->next) hist_render(b, "tfcc_model_reload_seconds", m->model, -1, &m->reload);
  batch_render(b);
  pthread_mutex_unlock(&g_lock);
  srv_buf_printf(b, "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
                    "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %llu\n",
                 (unsigned long long)srv_process_rss());
  srv_buf_printf(b, "# HELP tfcc_uptime_seconds Seconds since the server started.\n"
                    "# TYPE tfcc_uptime_seconds gauge\ntfcc_uptime_seconds %.3f\n",
                 (double)(srv_now_ns() - g_start_ns) * 1e-9);
}
