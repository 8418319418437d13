/* Session pool of one model version plus the model's bounded wait queue.
 * Each slot is one tfcc_session (weights shared through the model) with its own output
 * buffers, reused across requests (grown only when a dynamic shape gets larger), and its own
 * worker thread. A request finding a free slot and nobody waiting runs at once on its own
 * (connection) thread: no hand-off at low load. Otherwise it waits in line (first come,
 * first served) while fewer than max_queue requests wait (beyond that: 503, backpressure),
 * and a released slot goes to its worker, which runs the queued requests one after another
 * (run + encode) until the line is empty. Under load a slot thus never waits for a woken
 * request thread to be scheduled between two runs: the tail stays close to the median
 * (docs/server.md, "Concurrency and backpressure"). */
#ifndef TFCC_SERVER_SRV_POOL_H
#define TFCC_SERVER_SRV_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

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
  /* the slot's worker: runs queued requests while it owns the slot (under srv_pool.mu) */
  pthread_t worker;
  int worker_started;
  int worker_go;      /* the slot was handed to the worker */
  pthread_cond_t worker_cv;
} srv_slot;

struct srv_pool_waiter;

typedef struct srv_pool {
  pthread_mutex_t mu;
  struct srv_pool_waiter *wait_head, *wait_tail; /* requests waiting for a slot, oldest first */
  srv_slot *slots;
  int n;
  int *free_list;
  int n_free;
  int stop;           /* workers exit (destroy) */
  tfcc_model *model;  /* the sessions' model, and the signature they run (NULL: subgraph 0) */
  const char *sig_key;
  size_t max_memory;  /* tfcc_session_options.max_memory of every session (0: no limit) */
} srv_pool;

/* A queued request's work, run on a slot (by the request's thread or the slot's worker). */
typedef void (*srv_pool_run_fn)(void *arg, srv_slot *slot);

/* Creates n sessions of m (max_batch > 1: room for the per-batch-size sessions), each for
 * signature sig_key (tfcc_session_create_for_signature; NULL: subgraph 0 under its tensor
 * names), each plan held to max_memory bytes (0: no limit; a resize past it fails before it
 * allocates). 0 or -1 with err. */
int srv_pool_create(srv_pool *p, tfcc_model *m, const char *sig_key, int n, int max_batch, size_t max_memory,
                    char *err, size_t err_size);
/* One more session like the pool's (the batcher's per-batch-size sessions). */
tfcc_status srv_pool_new_session(const srv_pool *p, tfcc_session **out);
void srv_pool_destroy(srv_pool *p);
/* Runs run(arg, slot) on a slot: at once on this thread when a slot is free and nobody
 * waits, else queued (first come, first served) and run by the worker of the next slot
 * released. Returns 0 once run has returned (*queue_ns: the wait before it started), or 503
 * with err (max_queue requests already wait, or none started within timeout_ms). */
int srv_pool_run(srv_pool *p, srv_model_stats *ms, int max_queue, int timeout_ms, srv_pool_run_fn run, void *arg,
                 uint64_t *queue_ns, char *err, size_t err_size);
/* Waits in the same line up to timeout_ms for a slot to hold (the batcher: it runs merged
 * requests itself and releases the slot), without queue accounting (the batcher admits).
 * NULL on timeout. */
srv_slot *srv_pool_wait(srv_pool *p, int timeout_ms);
/* Gives a held slot back: to the oldest waiter, to its worker when queued requests wait, or
 * to the free list. */
void srv_pool_release(srv_pool *p, srv_slot *s);
/* Makes slot output i at least bytes long. 0 or -1. */
int srv_slot_out_reserve(srv_slot *s, int i, size_t bytes);
/* Makes slot input buffer i at least bytes long. 0 or -1. */
int srv_slot_in_reserve(srv_slot *s, int i, size_t bytes);

#endif
