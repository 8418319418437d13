/* Session pool of one model version plus the model's bounded wait queue.
 * Each slot is one tfcc_session (weights shared through the model) with its own output
 * buffers, reused across requests (grown only when a dynamic shape gets larger). A request
 * takes a free slot, or waits while fewer than max_queue requests wait; beyond that it gets
 * 503 (backpressure). */
#ifndef TFCC_SERVER_SRV_POOL_H
#define TFCC_SERVER_SRV_POOL_H

#include <pthread.h>

#include "srv_config.h"
#include "srv_metrics.h"
#include "tfcc/tfcc.h"

typedef struct srv_slot {
  tfcc_session *session;
  void *out[SRV_MAX_IO];
  size_t out_cap[SRV_MAX_IO];
} srv_slot;

typedef struct srv_pool {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  srv_slot *slots;
  int n;
  int *free_list;
  int n_free;
} srv_pool;

/* Creates n sessions of m. 0 or -1 with err. */
int srv_pool_create(srv_pool *p, tfcc_model *m, int n, char *err, size_t err_size);
void srv_pool_destroy(srv_pool *p);
/* Returns a slot, or NULL with *status = 503 (queue full or timed out) and err set. */
srv_slot *srv_pool_acquire(srv_pool *p, srv_model_stats *ms, int max_queue, int timeout_ms, int *status,
                           char *err, size_t err_size);
void srv_pool_release(srv_pool *p, srv_slot *s);
/* Makes slot output i at least bytes long. 0 or -1. */
int srv_slot_out_reserve(srv_slot *s, int i, size_t bytes);

#endif
