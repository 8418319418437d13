/* Prometheus metrics: counters and latency histograms with atomic updates (no locks on the
 * request path), rendered in the text exposition format. Series are registered once per
 * model and per model version and live until srv_metrics_shutdown. */
#ifndef TFCC_SERVER_SRV_METRICS_H
#define TFCC_SERVER_SRV_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "srv_buf.h"

#define SRV_HIST_BUCKETS 20
/* Status codes counted individually; anything else lands in the last slot ("other"). */
#define SRV_STATUS_LIST(X) X(200) X(400) X(404) X(405) X(408) X(413) X(500) X(501) X(503)
#define SRV_STATUS_SLOTS 10
/* Batch sizes (rows per run with dynamic batching): le 1, 2, 4, .. 128, +Inf. */
#define SRV_BATCH_BUCKETS 8

typedef struct srv_hist {
  _Atomic uint64_t bucket[SRV_HIST_BUCKETS]; /* non-cumulative; +Inf = count */
  _Atomic uint64_t count;
  _Atomic uint64_t sum_ns;
} srv_hist;

/* Per model version. */
typedef struct srv_version_stats {
  char model[128];
  long long version;
  _Atomic uint64_t requests[SRV_STATUS_SLOTS];
  srv_hist queue, compute, total;
  struct srv_version_stats *next;
} srv_version_stats;

/* Per model. */
typedef struct srv_model_stats {
  char model[128];
  _Atomic int64_t in_flight;  /* waiting + running */
  _Atomic int64_t queued;     /* waiting for a session */
  _Atomic uint64_t loads_ok, loads_failed, rejected_full;
  _Atomic int64_t ready_version; /* -1 none */
  _Atomic uint64_t hot_updates; /* reloads done as a hot weight update (same graph) */
  srv_hist reload;            /* load + verify + swap duration */
  _Atomic uint64_t batch_bucket[SRV_BATCH_BUCKETS]; /* runs by rows (non-cumulative) */
  _Atomic uint64_t batch_count, batch_sum, batch_requests;
  struct srv_model_stats *next;
} srv_model_stats;

void srv_metrics_init(void);
void srv_metrics_shutdown(void);
srv_version_stats *srv_metrics_version(const char *model, long long version);
srv_model_stats *srv_metrics_model(const char *model);
void srv_hist_observe(srv_hist *h, uint64_t ns);
/* One batched run of rows rows merging requests requests. */
void srv_batch_observe(srv_model_stats *m, int rows, int requests);
void srv_metrics_count(srv_version_stats *s, int status);
/* Any HTTP response (all paths), by status. */
void srv_metrics_http(int status);
/* Appends the whole exposition to b. */
void srv_metrics_render(srv_buf *b);
/* Resident set size of this process in bytes (0 if unknown). */
uint64_t srv_process_rss(void);
uint64_t srv_now_ns(void);

#endif
