#include "srv_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int srv_pool_create(srv_pool *p, tfcc_model *m, int n, int max_batch, char *err, size_t err_size) {
  memset(p, 0, sizeof *p);
  p->slots = calloc((size_t)n, sizeof *p->slots);
  p->free_list = calloc((size_t)n, sizeof *p->free_list);
  if (!p->slots || !p->free_list) {
    free(p->slots);
    free(p->free_list);
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&p->cv, &ca);
  pthread_condattr_destroy(&ca);
  p->n = n;
  for (int i = 0; i < n; i++) {
    if (max_batch > 1) {
      p->slots[i].bsess = calloc((size_t)max_batch + 1, sizeof *p->slots[i].bsess);
      p->slots[i].max_batch = max_batch;
      if (!p->slots[i].bsess) {
        snprintf(err, err_size, "out of memory");
        srv_pool_destroy(p);
        return -1;
      }
    }
    tfcc_status st = tfcc_session_create(m, NULL, &p->slots[i].session);
    if (st != TFCC_OK) {
      snprintf(err, err_size, "session %d: %s", i, tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
      srv_pool_destroy(p);
      return -1;
    }
    int n_out = tfcc_session_output_count(p->slots[i].session);
    for (int o = 0; o < n_out && o < SRV_MAX_IO; o++) {
      tfcc_tensor_info info;
      if (tfcc_session_output_info(p->slots[i].session, o, &info) == TFCC_OK &&
          srv_slot_out_reserve(&p->slots[i], o, info.bytes) != 0) {
        snprintf(err, err_size, "out of memory for output buffers");
        srv_pool_destroy(p);
        return -1;
      }
    }
    p->free_list[p->n_free++] = i;
  }
  return 0;
}

void srv_pool_destroy(srv_pool *p) {
  if (!p->slots) return;
  for (int i = 0; i < p->n; i++) {
    tfcc_session_destroy(p->slots[i].session);
    for (int b = 0; p->slots[i].bsess && b <= p->slots[i].max_batch; b++) tfcc_session_destroy(p->slots[i].bsess[b]);
    free(p->slots[i].bsess);
    for (int o = 0; o < SRV_MAX_IO; o++) {
      free(p->slots[i].out[o]);
      free(p->slots[i].in[o]);
    }
  }
  free(p->slots);
  free(p->free_list);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  memset(p, 0, sizeof *p);
}

int srv_slot_out_reserve(srv_slot *s, int i, size_t bytes) {
  if (bytes <= s->out_cap[i] && s->out[i]) return 0;
  void *q = realloc(s->out[i], bytes ? bytes : 1);
  if (!q) return -1;
  s->out[i] = q;
  s->out_cap[i] = bytes;
  return 0;
}

int srv_slot_in_reserve(srv_slot *s, int i, size_t bytes) {
  if (bytes <= s->in_cap[i] && s->in[i]) return 0;
  void *q = realloc(s->in[i], bytes ? bytes : 1);
  if (!q) return -1;
  s->in[i] = q;
  s->in_cap[i] = bytes;
  return 0;
}

static void deadline_in(struct timespec *dl, int timeout_ms) {
  clock_gettime(CLOCK_MONOTONIC, dl);
  dl->tv_sec += timeout_ms / 1000;
  dl->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (dl->tv_nsec >= 1000000000L) {
    dl->tv_sec++;
    dl->tv_nsec -= 1000000000L;
  }
}

/* FIFO hand-off: waiters queue in arrival order, each on its own condition variable; a
 * released slot goes straight to the oldest waiter (no barging by newcomers, no thundering
 * herd), so the wait of a queued request is bounded by the requests ahead of it and the
 * latency tail stays close to the median under saturation. */
struct srv_pool_waiter {
  pthread_cond_t cv;
  srv_slot *got;
  struct srv_pool_waiter *next;
};

/* Under p->mu: a free slot, or waits in line up to timeout_ms. NULL on timeout. */
static srv_slot *take_or_wait(srv_pool *p, int timeout_ms) {
  if (p->n_free > 0) return &p->slots[p->free_list[--p->n_free]];
  struct srv_pool_waiter w;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w.cv, &ca);
  pthread_condattr_destroy(&ca);
  w.got = NULL;
  w.next = NULL;
  if (p->wait_tail) p->wait_tail->next = &w;
  else p->wait_head = &w;
  p->wait_tail = &w;
  struct timespec dl;
  deadline_in(&dl, timeout_ms > 0 ? timeout_ms : 0);
  int rc = 0;
  while (!w.got && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&w.cv, &p->mu, &dl);
  if (!w.got) { /* timed out and still queued: leave the line */
    struct srv_pool_waiter *prev = NULL, *q = p->wait_head;
    while (q && q != &w) {
      prev = q;
      q = q->next;
    }
    if (q) {
      if (prev) prev->next = w.next;
      else p->wait_head = w.next;
      if (p->wait_tail == &w) p->wait_tail = prev;
    }
  }
  pthread_cond_destroy(&w.cv);
  return w.got;
}

srv_slot *srv_pool_wait(srv_pool *p, int timeout_ms) {
  pthread_mutex_lock(&p->mu);
  srv_slot *s = take_or_wait(p, timeout_ms);
  pthread_mutex_unlock(&p->mu);
  return s;
}

srv_slot *srv_pool_acquire(srv_pool *p, srv_model_stats *ms, int max_queue, int timeout_ms, int *status,
                           char *err, size_t err_size) {
  pthread_mutex_lock(&p->mu);
  if (p->n_free == 0 && atomic_load(&ms->queued) >= max_queue) {
    pthread_mutex_unlock(&p->mu);
    atomic_fetch_add(&ms->rejected_full, 1);
    *status = 503;
    snprintf(err, err_size, "model '%s' is busy: %d requests already queued (max_queue)", ms->model, max_queue);
    return NULL;
  }
  int queued = p->n_free == 0;
  if (queued) atomic_fetch_add(&ms->queued, 1);
  srv_slot *s = take_or_wait(p, timeout_ms);
  if (queued) atomic_fetch_sub(&ms->queued, 1);
  pthread_mutex_unlock(&p->mu);
  if (!s) {
    *status = 503;
    snprintf(err, err_size, "model '%s': no session became free within %d ms", ms->model, timeout_ms);
  }
  return s;
}

void srv_pool_release(srv_pool *p, srv_slot *s) {
  pthread_mutex_lock(&p->mu);
  struct srv_pool_waiter *w = p->wait_head;
  if (w) {
    p->wait_head = w->next;
    if (!p->wait_head) p->wait_tail = NULL;
    w->got = s;
    pthread_cond_signal(&w->cv);
  } else {
    p->free_list[p->n_free++] = (int)(s - p->slots);
  }
  pthread_mutex_unlock(&p->mu);
}
