/* Dynamic batching state of one model version (models whose inputs and outputs all have a
 * dynamic dimension 0, with max_batch > 1 in the config).
 *
 * No batching thread: the oldest waiting request leads. It takes a free session slot, waits
 * until max_batch rows are queued or max_queue_delay_us has passed since it arrived, takes
 * the queued requests whose shapes match its own (all dimensions but 0) up to max_batch rows,
 * hands the lead to the next waiting request, merges the inputs along dimension 0 into the
 * slot's buffers, runs once on the slot's session for that batch size (created on first use
 * and kept), and wakes the members. Each member encodes its own rows straight from the
 * slot's output buffers; the last one returns the slot. A request with a shape nobody else
 * has runs alone (on the slot's plain session, like an unbatched request). */
#ifndef TFCC_SERVER_SRV_BATCH_H
#define TFCC_SERVER_SRV_BATCH_H

#include <pthread.h>
#include <stdint.h>

typedef struct srv_batch_member srv_batch_member;

typedef struct srv_batcher {
  pthread_mutex_t mu;
  pthread_cond_t cv;          /* the collecting leader waits here for arrivals */
  srv_batch_member *head, *tail;
  int n_pending;              /* queued, not yet taken into a batch */
  int leader;                 /* the head is leading (taking a slot / collecting) */
  int collecting;             /* the leader waits on cv */
  int max_batch;              /* rows per run; 0: batching off */
  int64_t delay_ns;
} srv_batcher;

void srv_batcher_init(srv_batcher *b, int max_batch, int64_t delay_us);
void srv_batcher_destroy(srv_batcher *b);

#endif
