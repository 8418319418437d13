#include "srv_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The line: requests waiting for a slot, oldest first. A waiter with run set is run by a
 * slot's worker (state QUEUED -> RUNNING -> DONE); one without run takes the slot itself
 * (got set: the batcher). Waiters live on their threads' stacks, which stay until DONE. */
enum { WAIT_QUEUED, WAIT_RUNNING, WAIT_DONE };

struct srv_pool_waiter {
  pthread_cond_t cv;
  srv_pool_run_fn run;
  void *arg;
  int state;
  srv_slot *got;
  uint64_t t_start;
  struct srv_pool_waiter *next;
};

typedef struct srv_worker_arg {
  srv_pool *p;
  srv_slot *s;
} srv_worker_arg;

static void *worker_main(void *arg);

tfcc_status srv_pool_new_session(const srv_pool *p, tfcc_session **out) {
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.max_memory = p->max_memory;
  return p->sig_key ? tfcc_session_create_for_signature(p->model, p->sig_key, &so, out)
                    : tfcc_session_create(p->model, &so, out);
}

int srv_pool_create(srv_pool *p, tfcc_model *m, const char *sig_key, int n, int max_batch, size_t max_memory,
                    char *err, size_t err_size) {
  memset(p, 0, sizeof *p);
  p->model = m;
  p->sig_key = sig_key;
  p->max_memory = max_memory;
  p->slots = calloc((size_t)n, sizeof *p->slots);
  p->free_list = calloc((size_t)n, sizeof *p->free_list);
  if (!p->slots || !p->free_list) {
    free(p->slots);
    free(p->free_list);
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  pthread_mutex_init(&p->mu, NULL);
  p->n = n;
  for (int i = 0; i < n; i++) pthread_cond_init(&p->slots[i].worker_cv, NULL);
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
    tfcc_status st = srv_pool_new_session(p, &p->slots[i].session);
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
  for (int i = 0; i < n; i++) {
    srv_worker_arg *wa = malloc(sizeof *wa);
    if (wa) {
      wa->p = p;
      wa->s = &p->slots[i];
    }
    if (!wa || pthread_create(&p->slots[i].worker, NULL, worker_main, wa) != 0) {
      free(wa);
      snprintf(err, err_size, "cannot start the worker thread of session %d", i);
      srv_pool_destroy(p);
      return -1;
    }
    p->slots[i].worker_started = 1;
  }
  return 0;
}

void srv_pool_destroy(srv_pool *p) {
  if (!p->slots) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  for (int i = 0; i < p->n; i++) pthread_cond_signal(&p->slots[i].worker_cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->n; i++)
    if (p->slots[i].worker_started) pthread_join(p->slots[i].worker, NULL);
  for (int i = 0; i < p->n; i++) {
    pthread_cond_destroy(&p->slots[i].worker_cv);
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

static void waiter_init(struct srv_pool_waiter *w, srv_pool_run_fn run, void *arg) {
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cv, &ca);
  pthread_condattr_destroy(&ca);
  w->run = run;
  w->arg = arg;
  w->state = WAIT_QUEUED;
  w->got = NULL;
  w->t_start = 0;
  w->next = NULL;
}

/* Under p->mu. */
static void enqueue(srv_pool *p, struct srv_pool_waiter *w) {
  if (p->wait_tail) p->wait_tail->next = w;
  else p->wait_head = w;
  p->wait_tail = w;
}

static struct srv_pool_waiter *dequeue(srv_pool *p) {
  struct srv_pool_waiter *w = p->wait_head;
  if (w) {
    p->wait_head = w->next;
    if (!p->wait_head) p->wait_tail = NULL;
    w->next = NULL;
  }
  return w;
}

static void unlink_waiter(srv_pool *p, struct srv_pool_waiter *w) {
  struct srv_pool_waiter *prev = NULL, *q = p->wait_head;
  while (q && q != w) {
    prev = q;
    q = q->next;
  }
  if (!q) return;
  if (prev) prev->next = w->next;
  else p->wait_head = w->next;
  if (p->wait_tail == w) p->wait_tail = prev;
}

/* Under p->mu: slot s is free again. The oldest waiter gets it (a batcher takes it, a queued
 * request wakes the slot's worker), else it goes to the free list. */
static void give_slot(srv_pool *p, srv_slot *s) {
  struct srv_pool_waiter *w = p->wait_head;
  if (w && !w->run) {
    dequeue(p);
    w->got = s;
    pthread_cond_signal(&w->cv);
  } else if (w) {
    s->worker_go = 1;
    pthread_cond_signal(&s->worker_cv);
  } else {
    p->free_list[p->n_free++] = (int)(s - p->slots);
  }
}

/* A slot's worker: while it holds the slot, runs queued requests in arrival order (it keeps
 * its CPU between runs instead of waking a request thread for each), then gives the slot on. */
static void *worker_main(void *arg) {
  srv_worker_arg wa = *(srv_worker_arg *)arg;
  free(arg);
  srv_pool *p = wa.p;
  srv_slot *s = wa.s;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!s->worker_go && !p->stop) pthread_cond_wait(&s->worker_cv, &p->mu);
    if (!s->worker_go) break; /* stop */
    s->worker_go = 0;
    /* Run queued requests until the head is none, or a batcher that takes the slot itself. */
    while (p->wait_head && p->wait_head->run) {
      struct srv_pool_waiter *w = dequeue(p);
      w->state = WAIT_RUNNING;
      w->t_start = srv_now_ns();
      pthread_mutex_unlock(&p->mu);
      w->run(w->arg, s);
      pthread_mutex_lock(&p->mu);
      w->state = WAIT_DONE;
      pthread_cond_signal(&w->cv);
    }
    give_slot(p, s);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

srv_slot *srv_pool_wait(srv_pool *p, int timeout_ms) {
  pthread_mutex_lock(&p->mu);
  if (p->n_free > 0 && !p->wait_head) {
    srv_slot *s = &p->slots[p->free_list[--p->n_free]];
    pthread_mutex_unlock(&p->mu);
    return s;
  }
  struct srv_pool_waiter w;
  waiter_init(&w, NULL, NULL);
  enqueue(p, &w);
  struct timespec dl;
  deadline_in(&dl, timeout_ms > 0 ? timeout_ms : 0);
  int rc = 0;
  while (!w.got && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&w.cv, &p->mu, &dl);
  if (!w.got) unlink_waiter(p, &w); /* timed out and still in line: leave it */
  pthread_mutex_unlock(&p->mu);
  pthread_cond_destroy(&w.cv);
  return w.got;
}

int srv_pool_run(srv_pool *p, srv_model_stats *ms, int max_queue, int timeout_ms, srv_pool_run_fn run, void *arg,
                 uint64_t *queue_ns, char *err, size_t err_size) {
  uint64_t t0 = srv_now_ns();
  *queue_ns = 0;
  pthread_mutex_lock(&p->mu);
  if (p->n_free > 0 && !p->wait_head) { /* nobody waits: run here, no hand-off */
    srv_slot *s = &p->slots[p->free_list[--p->n_free]];
    pthread_mutex_unlock(&p->mu);
    run(arg, s);
    srv_pool_release(p, s);
    return 0;
  }
  if (atomic_load(&ms->queued) >= max_queue) {
    pthread_mutex_unlock(&p->mu);
    atomic_fetch_add(&ms->rejected_full, 1);
    snprintf(err, err_size, "model '%s' is busy: %d requests already queued (max_queue)", ms->model, max_queue);
    return 503;
  }
  struct srv_pool_waiter w;
  waiter_init(&w, run, arg);
  enqueue(p, &w);
  atomic_fetch_add(&ms->queued, 1);
  /* A free slot with waiters ahead (a worker about to take them) changes nothing: in line. */
  struct timespec dl;
  deadline_in(&dl, timeout_ms > 0 ? timeout_ms : 0);
  int rc = 0;
  while (w.state == WAIT_QUEUED && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&w.cv, &p->mu, &dl);
  if (w.state == WAIT_QUEUED) unlink_waiter(p, &w); /* timed out before a worker took it */
  else
    while (w.state != WAIT_DONE) pthread_cond_wait(&w.cv, &p->mu);
  atomic_fetch_sub(&ms->queued, 1);
  pthread_mutex_unlock(&p->mu);
  pthread_cond_destroy(&w.cv);
  if (w.state != WAIT_DONE) {
    *queue_ns = srv_now_ns() - t0;
    snprintf(err, err_size, "model '%s': no session became free within %d ms", ms->model, timeout_ms);
    return 503;
  }
  *queue_ns = w.t_start - t0;
  return 0;
}

void srv_pool_release(srv_pool *p, srv_slot *s) {
  pthread_mutex_lock(&p->mu);
  give_slot(p, s);
  pthread_mutex_unlock(&p->mu);
}
