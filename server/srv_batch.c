#include "srv_batch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "srv_infer.h"

enum { MEMBER_QUEUED, MEMBER_LEAD, MEMBER_DONE };

struct srv_batch_member {
  const srv_request *req;
  int32_t rows;
  uint64_t t_enq;
  int state;
  pthread_cond_t cv; /* woken when state changes */
  /* results, set by the leader before MEMBER_DONE */
  int status;
  char err[512];
  srv_slot *slot;
  srv_outputs outs;
  srv_timing t;
  srv_batch_member *next;
};

void srv_batcher_init(srv_batcher *b, int max_batch, int64_t delay_us) {
  memset(b, 0, sizeof *b);
  pthread_mutex_init(&b->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&b->cv, &ca);
  pthread_condattr_destroy(&ca);
  b->max_batch = max_batch > 1 ? max_batch : 0;
  b->delay_ns = delay_us * 1000;
}

void srv_batcher_destroy(srv_batcher *b) {
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
}

int srv_batch_accepts(const srv_endpoint *e, const srv_request *req) {
  int max = srv_endpoint_runner(e)->batch.max_batch;
  if (max < 2 || e->sig.n_in == 0) return 0;
  int32_t rows = -1;
  for (int i = 0; i < e->sig.n_in; i++) {
    const srv_tensor *t = &req->in[i];
    if (t->rank < 1 || t->dims[0] < 1 || t->dims[0] >= max) return 0;
    if (rows >= 0 && t->dims[0] != rows) return 0;
    rows = t->dims[0];
  }
  return 1;
}

/* Same shape as the head's in every dimension but 0. */
static int compatible(const srv_endpoint *e, const srv_request *a, const srv_request *b) {
  for (int i = 0; i < e->sig.n_in; i++) {
    if (a->in[i].rank != b->in[i].rank) return 0;
    for (int32_t d = 1; d < a->in[i].rank; d++)
      if (a->in[i].dims[d] != b->in[i].dims[d]) return 0;
  }
  return 1;
}

/* Rows the head could take now (compatible members in arrival order, up to max). */
static int rows_ready(const srv_endpoint *e, const srv_batcher *b) {
  int rows = 0;
  for (const srv_batch_member *m = b->head; m && rows < b->max_batch; m = m->next)
    if (compatible(e, b->head->req, m->req) && rows + m->rows <= b->max_batch) rows += m->rows;
  return rows;
}

static void unlink_member(srv_batcher *b, srv_batch_member *prev, srv_batch_member *m) {
  if (prev) prev->next = m->next;
  else b->head = m->next;
  if (b->tail == m) b->tail = prev;
  m->next = NULL;
  b->n_pending--;
}

/* Under b->mu: the lead goes to the next queued request, or nobody leads. */
static void pass_lead(srv_batcher *b) {
  if (b->head) {
    b->head->state = MEMBER_LEAD;
    pthread_cond_signal(&b->head->cv);
  } else {
    b->leader = 0;
  }
}

static void timespec_at(struct timespec *ts, uint64_t ns) {
  ts->tv_sec = (time_t)(ns / 1000000000u);
  ts->tv_nsec = (long)(ns % 1000000000u);
}

/* Runs the group (members linked through next, total rows) on slot and fills every member's
 * results; the members then encode from the slot's buffers. */
static void run_group(srv_endpoint *e, srv_slot *slot, srv_batch_member *group, int k, int32_t rows) {
  srv_tensor merged[SRV_MAX_IO];
  const srv_tensor *in = group->req->in;
  tfcc_session *s = slot->session;
  char err[512];
  int rc = 200;
  err[0] = '\0';
  if (k > 1) {
    for (int i = 0; i < e->sig.n_in && rc == 200; i++) {
      const srv_tensor *h = &group->req->in[i];
      size_t row_bytes = h->bytes / (size_t)h->dims[0];
      merged[i] = *h;
      merged[i].dims[0] = rows;
      merged[i].bytes = row_bytes * (size_t)rows;
      merged[i].owned = NULL;
      if (srv_slot_in_reserve(slot, i, merged[i].bytes) != 0) {
        snprintf(err, sizeof err, "out of memory merging input '%s' (%zu bytes)", e->sig.in[i].name, merged[i].bytes);
        rc = 500;
        break;
      }
      size_t off = 0;
      for (srv_batch_member *m = group; m; m = m->next) {
        memcpy((char *)slot->in[i] + off, m->req->in[i].data, m->req->in[i].bytes);
        off += m->req->in[i].bytes;
      }
      merged[i].data = slot->in[i];
    }
    in = merged;
    if (rc == 200 && !slot->bsess[rows]) {
      tfcc_status st = srv_pool_new_session(&srv_endpoint_runner(e)->pool, &slot->bsess[rows]);
      if (st != TFCC_OK) {
        snprintf(err, sizeof err, "cannot create a session for a batch of %d: %s", (int)rows,
                 tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
        rc = 500;
      }
    }
    s = slot->bsess[rows];
  }
  uint64_t start = srv_now_ns();
  srv_outputs outs;
  uint64_t compute = 0;
  if (rc == 200) rc = srv_run_session(e, slot, s, in, 0, &outs, &compute, err, sizeof err); /* <= max_batch rows */
  if (rc == 200 && k > 1) {
    for (int i = 0; i < outs.n; i++)
      if (outs.info[i].rank < 1 || outs.info[i].dims[0] != rows) {
        snprintf(err, sizeof err, "output '%s' has %d rows for a batch of %d (the model does not batch along dimension 0)",
                 e->sig.out[i].name, outs.info[i].rank ? (int)outs.info[i].dims[0] : 0, (int)rows);
        rc = 500;
      }
  }
  srv_batch_observe(e->ver->owner->stats, rows, k);
  atomic_store(&slot->readers, k);
  int32_t row0 = 0;
  for (srv_batch_member *m = group; m; m = m->next) {
    m->status = rc;
    m->slot = slot;
    m->t.queue_ns = start - m->t_enq;
    m->t.compute_ns = compute;
    if (rc != 200) {
      snprintf(m->err, sizeof m->err, "%s", err);
      continue;
    }
    m->outs = outs;
    if (k > 1) {
      for (int i = 0; i < outs.n; i++) {
        size_t row_bytes = outs.info[i].bytes / (size_t)rows;
        m->outs.info[i].dims[0] = m->rows;
        m->outs.info[i].bytes = row_bytes * (size_t)m->rows;
        m->outs.data[i] = (const char *)outs.data[i] + row_bytes * (size_t)row0;
      }
    }
    row0 += m->rows;
  }
}

int srv_batch_run(srv_endpoint *e, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n) {
  srv_batcher *b = &srv_endpoint_runner(e)->batch;
  srv_model_stats *ms = e->ver->owner->stats;
  srv_batch_member me;
  memset(&me, 0, sizeof me);
  me.req = req;
  me.rows = req->in[0].dims[0];
  me.t_enq = srv_now_ns();
  me.state = MEMBER_QUEUED;
  pthread_cond_init(&me.cv, NULL);

  pthread_mutex_lock(&b->mu);
  /* max_queue requests may wait beyond the batch being collected */
  if (b->n_pending >= e->ver->max_queue + b->max_batch) {
    pthread_mutex_unlock(&b->mu);
    pthread_cond_destroy(&me.cv);
    atomic_fetch_add(&ms->rejected_full, 1);
    snprintf(err, n, "model '%s' is busy: %d requests already queued (max_queue)", ms->model, e->ver->max_queue);
    t->queue_ns = t->compute_ns = 0;
    return 503;
  }
  if (b->tail) b->tail->next = &me;
  else b->head = &me;
  b->tail = &me;
  b->n_pending++;
  atomic_fetch_add(&ms->queued, 1);
  if (!b->leader) {
    b->leader = 1;
    me.state = MEMBER_LEAD;
  } else if (b->collecting) {
    pthread_cond_signal(&b->cv);
  }
  while (me.state == MEMBER_QUEUED) pthread_cond_wait(&me.cv, &b->mu);

  if (me.state == MEMBER_LEAD) {
    /* I am the head: take a slot (within my own deadline), then collect. */
    pthread_mutex_unlock(&b->mu);
    int64_t left_ms = timeout_ms - (int64_t)((srv_now_ns() - me.t_enq) / 1000000u);
    srv_slot *slot = srv_pool_wait(&srv_endpoint_runner(e)->pool, left_ms > 0 ? (int)left_ms : 0);
    pthread_mutex_lock(&b->mu);
    if (!slot) {
      unlink_member(b, NULL, &me);
      atomic_fetch_sub(&ms->queued, 1);
      pass_lead(b);
      pthread_mutex_unlock(&b->mu);
      pthread_cond_destroy(&me.cv);
      snprintf(err, n, "model '%s': no session became free within %d ms", ms->model, timeout_ms);
      t->queue_ns = srv_now_ns() - me.t_enq;
      t->compute_ns = 0;
      return 503;
    }
    uint64_t deadline = me.t_enq + (uint64_t)b->delay_ns;
    b->collecting = 1;
    while (rows_ready(e, b) < b->max_batch) {
      uint64_t now = srv_now_ns();
      if (now >= deadline) break;
      struct timespec ts;
      timespec_at(&ts, deadline);
      if (pthread_cond_timedwait(&b->cv, &b->mu, &ts) == ETIMEDOUT) break;
    }
    b->collecting = 0;
    /* take the group: compatible members in arrival order up to max_batch rows */
    srv_batch_member *group = NULL, *gtail = NULL, *prev = NULL, *m = b->head;
    int k = 0;
    int32_t rows = 0;
    while (m && rows < b->max_batch) {
      srv_batch_member *next = m->next;
      if (compatible(e, me.req, m->req) && rows + m->rows <= b->max_batch) {
        unlink_member(b, prev, m);
        if (gtail) gtail->next = m;
        else group = m;
        gtail = m;
        rows += m->rows;
        k++;
      } else {
        prev = m;
      }
      m = next;
    }
    atomic_fetch_sub(&ms->queued, k);
    pass_lead(b);
    pthread_mutex_unlock(&b->mu);
    run_group(e, slot, group, k, rows);
    pthread_mutex_lock(&b->mu);
    for (m = group; m;) {
      srv_batch_member *next = m->next;
      m->next = NULL;
      m->state = MEMBER_DONE;
      if (m != &me) pthread_cond_signal(&m->cv);
      m = next;
    }
  }
  pthread_mutex_unlock(&b->mu);
  pthread_cond_destroy(&me.cv);

  /* MEMBER_DONE: encode my rows from the slot's buffers, then give the slot up. */
  *t = me.t;
  int rc = me.status;
  if (rc == 200) {
    enc(ctx, e, req, &me.outs, body);
    if (body->oom) {
      snprintf(err, n, "out of memory encoding the response");
      rc = 500;
    }
  } else {
    snprintf(err, n, "%s", me.err);
  }
  if (atomic_fetch_sub(&me.slot->readers, 1) == 1) srv_pool_release(&srv_endpoint_runner(e)->pool, me.slot);
  return rc;
}
