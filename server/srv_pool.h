/* Session pool of one model version plus the model's bounded wait queue.
 * Each slot is one tfcc_session (weights shared through the model) with its own output
 * buffers, reused across requests (grown only when a dynamic shape gets larger). A request
 * takes a free slot, or waits in line (first come, first served: a released slot is handed
 * to the oldest waiter) while fewer than max_queue requests wait; beyond that it gets 503
 * (backpressure). */
#ifndef TFCC_SERVER_SRV_POOL_H
#define TFCC_SERVER_SRV_POOL_H

#include <pthread.h>
#include <stdatomic.h>

#include "srv_config.h"
#include "srv_metrics.h"
#include "tfcc/tfcc.h"

typedef struct srv_slot {
  tfcc_session *session;
  void *out[SRV_MAX_IO];
  size_t out_cap[SRV_MAX_IO];
  /* Dynamic batching: one session per batch size (rows 2..max_batch, created on first use
   * and kept, so a batch size seen before runs without re-planning), the merged inputs, and
   * how many batch members still encode from out[] (the last one returns the slot). */
  tfcc_session **bsess;
  int max_batch;
  void *in[SRV_MAX_IO];
  size_t in_cap[SRV_MAX_IO];
  _Atomic int readers;
} srv_slot;

struct srv_pool_waiter;

typedef struct srv_pool {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct srv_pool_waiter *wait_head, *wait_tail; /* requests waiting for a slot, oldest first */
  srv_slot *slots;
  int n;
  int *free_list;
  int n_free;
} srv_pool;

/* Creates n sessions of m (max_batch > 1: room for the per-batch-size sessions). 0 or -1 with err. */
int srv_pool_create(srv_pool *p, tfcc_model *m, int n, int max_batch, char *err, size_t err_size);
void srv_pool_destroy(srv_pool *p);
/* Returns a slot, or NULL with *status = 503 (queue full or timed out) and err set. */
srv_slot *srv_pool_acquire(srv_pool *p, srv_model_stats *ms, int max_queue, int timeout_ms, int *status,
                           char *err, size_t err_size);
/* Waits up to timeout_ms for a free slot, without queue accounting (the batcher admits). */
srv_slot *srv_pool_wait(srv_pool *p, int timeout_ms);
void srv_pool_release(srv_pool *p, srv_slot *s);
/* Makes slot output i at least bytes long. 0 or -1. */
int srv_slot_out_reserve(srv_slot *s, int i, size_t bytes);
/* Makes slot input buffer i at least bytes long. 0 or -1. */
int srv_slot_in_reserve(srv_slot *s, int i, size_t bytes);

#endif
