#include "srv_infer.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_batch.h"

/* A session and slot that grew past this for one request (a large dynamic dimension) are put
 * back to the model's shapes afterwards, and the memory returned to the system. */
#define SHRINK_BYTES ((size_t)16 << 20)

static int at_model_shapes(const srv_endpoint *e, tfcc_session *s) {
  for (int i = 0; i < e->sig.n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    const srv_io *io = &e->sig.in[i];
    if (info.rank != io->rank) return 0;
    for (int32_t d = 0; d < info.rank; d++)
      if (info.dims[d] != io->dims[d]) return 0;
  }
  return 1;
}

/* Puts every input of s back to the model's shape (the one it was loaded with). */
static void restore_shapes(const srv_endpoint *e, tfcc_session *s) {
  for (int i = 0; i < e->sig.n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    const srv_io *io = &e->sig.in[i];
    int same = info.rank == io->rank;
    for (int32_t d = 0; same && d < info.rank; d++) same = info.dims[d] == io->dims[d];
    if (!same) tfcc_session_resize_input(s, i, io->rank, io->dims);
  }
}

static size_t slot_out_bytes(const srv_slot *slot, int n_out) {
  size_t b = 0;
  for (int i = 0; i < n_out; i++) b += slot->out_cap[i];
  return b;
}

/* After a large request: the session back to the model's shapes (its arena shrinks with
 * them), the slot's output buffers back to those shapes' sizes, and free memory to the OS. */
static void give_back(const srv_endpoint *e, srv_slot *slot) {
  if (tfcc_session_arena_bytes(slot->session) + slot_out_bytes(slot, e->sig.n_out) <= SHRINK_BYTES ||
      at_model_shapes(e, slot->session))
    return; /* small, or the model's own shapes (nothing to give back, and no trim per request) */
  restore_shapes(e, slot->session);
  for (int i = 0; i < e->sig.n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(slot->session, i, &info);
    size_t want = info.bytes ? info.bytes : 1;
    if (slot->out_cap[i] <= want) continue;
    void *q = realloc(slot->out[i], want);
    if (!q) continue;
    slot->out[i] = q;
    slot->out_cap[i] = want;
  }
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

int srv_run_session(srv_endpoint *e, srv_slot *slot, tfcc_session *s, const srv_tensor *in, size_t max_bytes,
                    srv_outputs *outs, uint64_t *compute_ns, char *err, size_t n) {
  const void *ins[SRV_MAX_IO];
  *compute_ns = 0;
  size_t in_bytes = 0;
  for (int i = 0; i < e->sig.n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    const srv_tensor *tin = &in[i];
    int same = info.rank == tin->rank;
    for (int32_t d = 0; same && d < info.rank; d++) same = info.dims[d] == tin->dims[d];
    if (!same) {
      tfcc_status st = tfcc_session_resize_input(s, i, tin->rank, tin->dims);
      if (st == TFCC_ERR_NO_MEMORY && max_bytes) {
        /* the session is held to max_request_mb (srv_pool): refused before allocating */
        snprintf(err, n, "input '%s': the request's shapes need more than server.max_request_mb (%zu MiB): %s",
                 e->sig.in[i].name, max_bytes >> 20, tfcc_session_last_error(s));
        restore_shapes(e, s);
        return 413;
      }
      if (st != TFCC_OK) {
        snprintf(err, n, "input '%s': cannot resize: %s", e->sig.in[i].name, tfcc_session_last_error(s));
        restore_shapes(e, s);
        return 400;
      }
    }
    ins[i] = tin->data;
    in_bytes += tin->bytes;
  }
  outs->n = e->sig.n_out;
  size_t out_bytes = 0;
  for (int i = 0; i < outs->n; i++) {
    tfcc_session_output_info(s, i, &outs->info[i]);
    out_bytes += outs->info[i].bytes;
  }
  size_t arena = tfcc_session_arena_bytes(s);
  if (max_bytes && in_bytes + arena + out_bytes > max_bytes) {
    snprintf(err, n, "the request needs %zu MiB at its shapes (inputs %zu, activations %zu, outputs %zu bytes), "
             "more than server.max_request_mb (%zu MiB)", (in_bytes + arena + out_bytes + (1u << 20) - 1) >> 20,
             in_bytes, arena, out_bytes, max_bytes >> 20);
    restore_shapes(e, s);
    return 413;
  }
  for (int i = 0; i < outs->n; i++) {
    if (srv_slot_out_reserve(slot, i, outs->info[i].bytes) != 0) {
      snprintf(err, n, "out of memory for output '%s' (%zu bytes)", e->sig.out[i].name, outs->info[i].bytes);
      return 500;
    }
    outs->data[i] = slot->out[i];
  }
  uint64_t c0 = srv_now_ns();
  /* Requests are independent: stateful models (LSTM variables) start from zero state. */
  tfcc_status st = tfcc_session_reset_state(s);
  if (st == TFCC_OK) st = tfcc_session_run(s, ins, slot->out);
  *compute_ns = srv_now_ns() - c0;
  if (st != TFCC_OK) {
    snprintf(err, n, "inference failed: %s", tfcc_session_last_error(s));
    return 500;
  }
  for (int i = 0; i < outs->n; i++) tfcc_session_output_info(s, i, &outs->info[i]);
  return 200;
}

/* A request's work on a slot (srv_pool_run): run, then encode from the slot's buffers. */
typedef struct infer_job {
  srv_endpoint *e;
  srv_request *req;
  srv_encode_fn enc;
  void *ctx;
  srv_buf *body;
  uint64_t compute_ns;
  int rc;
  char *err;
  size_t n;
} infer_job;

static void run_job(void *arg, srv_slot *slot) {
  infer_job *j = arg;
  srv_outputs outs;
  j->rc = srv_run_session(j->e, slot, slot->session, j->req->in, j->req->max_bytes, &outs, &j->compute_ns, j->err,
                          j->n);
  if (j->rc == 200) {
    j->enc(j->ctx, j->e, j->req, &outs, j->body);
    if (j->body->oom) {
      snprintf(j->err, j->n, "out of memory encoding the response");
      j->rc = 500;
    }
  }
  give_back(j->e, slot);
}

int srv_infer_run(srv_endpoint *e, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n) {
  if (srv_batch_accepts(e, req)) return srv_batch_run(e, timeout_ms, req, enc, ctx, body, t, err, n);
  infer_job j = {e, req, enc, ctx, body, 0, 500, err, n};
  int status = srv_pool_run(&srv_endpoint_runner(e)->pool, e->ver->owner->stats, e->ver->max_queue, timeout_ms,
                            run_job, &j, &t->queue_ns, err, n);
  t->compute_ns = j.compute_ns;
  return status ? status : j.rc;
}
